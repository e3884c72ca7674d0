"""Apply a mutant to a temporary copy of the package and run the tests and claims that cover it.

A copy holds ``derivations``, ``numerics``, ``proofs_check``, ``tests``, ``examples`` and ``pyproject.toml`` (no
caches, no bytecode). Each run is a fresh process with ``PYTHONPATH`` = the copy, a fresh empty disk cache of
compiled closed forms (``LAYERWISE_LINEAR_FLOWS_CACHE``: a cached artifact of the unmutated code must never stand
in for the mutant's), a fresh ``XDG_CACHE_HOME`` (the claim timings), one BLAS thread and the hypothesis profile
``mutation`` (``ci``, derandomized, without shrinking: ``tests/conftest.py``). The mutant is *killed* iff some run
fails: ``pytest -n 0 -x -m "not slow"`` on its covering tests (the default suite's tests must catch it), then
``python -m proofs_check --jobs 1 --claim ...`` on its covering claims (skipped once the tests killed it), or a
run outlasts ``TIMEOUT``. The same selections, united, run once on the unmutated copy (``baseline``): a kill then
is the mutant's doing, not the copy's.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .mutants import MUTANTS, Mutant

__all__ = [
    "ROOT",
    "Outcome",
    "Run",
    "apply",
    "baseline",
    "copy_package",
    "format_table",
    "run_all",
    "run_mutant",
    "stale",
]

ROOT = Path(__file__).resolve().parents[2]
COPIED = ("derivations", "numerics", "proofs_check", "tests", "examples", "pyproject.toml")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache")
TIMEOUT = 300.0
"""Seconds one run of a mutant may take; beyond it the run counts as failing (a mutant that hangs is caught)."""
BASELINE_TIMEOUT = 3 * TIMEOUT
"""Seconds the unmutated copy's run may take: it runs the union of every mutant's selection, beside a mutant's run
on the other core (it took 300 s of 2 loaded cores in a CI rehearsal)."""
NO_TESTS = 5
"""pytest's exit status when no test was selected: a broken selection, never a kill."""


@dataclass(frozen=True)
class Outcome:
    """What running one mutant gave: ``killed``, by what (``"tests"``, ``"claims"``, ``"timeout"`` or ``""``),
    the last lines of the killing run's output, and the wall-clock seconds."""

    mutant: Mutant
    killed: bool
    by: str
    output: str
    seconds: float

    @property
    def killer(self) -> str:
        """The first failing test (``FAILED``/``ERROR`` line of pytest's summary) or the failing claims, else
        ``by``."""
        if self.by == "tests":
            for line in self.output.splitlines():
                if line.startswith(("FAILED ", "ERROR ")):
                    return line.split(" ", 1)[1].split(" - ", 1)[0]
        if self.by == "claims":
            failing = [
                row.split()[0] for row in self.output.splitlines() if row.split()[1:2] in (["refuted"], ["error"])
            ]
            if failing:
                return "claims " + ", ".join(failing)
        return self.by


def stale(mutants: Iterable[Mutant] = MUTANTS, root: Path = ROOT) -> list[str]:
    """The mutants whose ``old`` does not occur exactly once in their file (with the count found)."""
    found = []
    for mutant in mutants:
        path = root / mutant.path
        count = path.read_text(encoding="utf-8").count(mutant.old) if path.is_file() else 0
        if count != 1:
            found.append(f"mutant {mutant.name} is stale: {mutant.old!r} occurs {count} times in {mutant.path}")
    return found


def copy_package(destination: Path, root: Path = ROOT) -> Path:
    """Copy the package's sources, tests and ``pyproject.toml`` into ``destination``; returns it."""
    for name in COPIED:
        source = root / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=IGNORED)
        else:
            shutil.copy2(source, destination / name)
    return destination


def apply(mutant: Mutant, copy: Path) -> None:
    """Replace the one occurrence of ``mutant.old`` by ``mutant.new`` in the copy; ``ValueError`` if stale."""
    path = copy / mutant.path
    text = path.read_text(encoding="utf-8")
    if text.count(mutant.old) != 1:
        raise ValueError(f"mutant {mutant.name} is stale: {mutant.old!r} occurs {text.count(mutant.old)} times")
    path.write_text(text.replace(mutant.old, mutant.new), encoding="utf-8")


def _environment(copy: Path, scratch: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    env.update(
        PYTHONPATH=str(copy),
        LAYERWISE_LINEAR_FLOWS_CACHE=str(scratch / "closed-forms"),
        XDG_CACHE_HOME=str(scratch / "xdg"),
        HYPOTHESIS_PROFILE="mutation",
        PYTHONDONTWRITEBYTECODE="1",
        OPENBLAS_NUM_THREADS="1",
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
    )
    return env


def _commands(tests: Sequence[str], claims: Sequence[str]) -> list[tuple[str, list[str]]]:
    commands = []
    if tests:
        pytest = ["-m", "pytest", "-n", "0", "-x", "-q", "-p", "no:cacheprovider", "-m", "not slow", *tests]
        commands.append(("tests", [sys.executable, *pytest]))
    if claims:
        selected = [option for prefix in claims for option in ("--claim", prefix)]
        commands.append(("claims", [sys.executable, "-m", "proofs_check", "--jobs", "1", *selected]))
    return commands


def _check_imports(copy: Path, env: dict[str, str]) -> None:
    """``RuntimeError`` unless the copy's packages are the ones a run imports (not an installed or other tree)."""
    packages = ("derivations", "numerics", "proofs_check")
    probe = f"import {', '.join(packages)}; print({', '.join(f'{p}.__file__' for p in packages)})"
    code, output = _execute([sys.executable, "-c", probe], copy, env)
    files = [Path(f) for f in output.split()] if code == 0 else []
    if len(files) != 3 or not all(f.is_relative_to(copy) for f in files):
        raise RuntimeError(f"a run in the copy {copy} imports {output.strip()!r}, not the copy's packages")


def _tail(output: str, lines: int = 12) -> str:
    """The last ``lines`` lines of ``output``, with pytest's ``FAILED``/``ERROR`` summary lines and the claims
    table's refuted/error rows (which name the killer) kept wherever they are."""
    rows = output.strip().splitlines()
    named = [
        r for r in rows[:-lines] if r.startswith(("FAILED ", "ERROR ")) or r.split()[1:2] in (["refuted"], ["error"])
    ]
    return "\n".join([*named, *rows[-lines:]])


def _execute(command: list[str], cwd: Path, env: dict[str, str], timeout: float = TIMEOUT) -> tuple[int | None, str]:
    """Run ``command`` in its own process group: (exit status, output), or (None, partial output) after
    ``timeout`` seconds, the whole group (workers included) then killed."""
    with subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    ) as process:
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            return None, output
        return process.returncode, output


def _run(mutant: Mutant | None, tests: Sequence[str], claims: Sequence[str], root: Path) -> tuple[str, str]:
    """Copy, apply ``mutant`` (None: the unmutated copy), run; returns (what failed or "", its output's tail)."""
    with tempfile.TemporaryDirectory(prefix="mutant-") as scratch_dir:
        scratch = Path(scratch_dir)
        copy = copy_package(scratch / "copy", root)
        if mutant is not None:
            apply(mutant, copy)
        env = _environment(copy, scratch)
        if mutant is None:
            _check_imports(copy, env)
        timeout = BASELINE_TIMEOUT if mutant is None else TIMEOUT
        for what, command in _commands(tests, claims):
            code, output = _execute(command, copy, env, timeout)
            if code is None:
                return "timeout", f"{what}: no result within {timeout:.0f} s"
            if what == "tests" and code == NO_TESTS:
                raise RuntimeError(f"{'the baseline' if mutant is None else mutant.name} selects no test: {tests}")
            if code != 0:
                return what, _tail(output)
    return "", ""


def run_mutant(mutant: Mutant, root: Path = ROOT) -> Outcome:
    """Run ``mutant`` against its covering tests and claims in a fresh copy of ``root``."""
    started = time.perf_counter()
    by, output = _run(mutant, mutant.covering_tests, mutant.covering_claims, root)
    return Outcome(mutant, bool(by), by, output, time.perf_counter() - started)


def baseline(mutants: Sequence[Mutant] = MUTANTS, root: Path = ROOT) -> tuple[str, str]:
    """The union of the mutants' covering tests and claims on the *unmutated* copy: ``("", "")`` if all pass (so
    that a kill is the mutant's doing, not the copy's), else what failed and its output."""
    tests = list(dict.fromkeys(test for mutant in mutants for test in mutant.covering_tests))
    claims = list(dict.fromkeys(claim for mutant in mutants for claim in mutant.covering_claims))
    return _run(None, tests, claims, root)


@dataclass(frozen=True)
class Run:
    """A whole mutation run: what the unmutated copy failed (``""``: nothing) with its output, and the outcomes
    in the order of the mutants."""

    baseline_failed: str
    baseline_output: str
    outcomes: list[Outcome]


def run_all(
    mutants: Sequence[Mutant] = MUTANTS,
    jobs: int = 2,
    root: Path = ROOT,
    report: Callable[[Outcome], None] | None = None,
    with_baseline: bool = True,
) -> Run:
    """Every mutant, ``jobs`` at a time, the ``baseline`` of the unmutated copy first (it runs the most), then the
    mutants with the longest covering selections; ``report`` is called with each outcome as it arrives."""
    order = sorted(range(len(mutants)), key=lambda i: -len(mutants[i].covering_tests) - len(mutants[i].covering_claims))
    outcomes: dict[int, Outcome] = {}

    def one(index: int) -> None:
        outcomes[index] = run_mutant(mutants[index], root)
        if report is not None:
            report(outcomes[index])

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        unmutated = pool.submit(baseline, mutants, root) if with_baseline else None
        list(pool.map(one, order))
        failed, output = unmutated.result() if unmutated is not None else ("", "")
    return Run(failed, output, [outcomes[i] for i in range(len(mutants))])


def format_table(outcomes: Sequence[Outcome]) -> str:
    """A Markdown table: mutant, module, killed by (or SURVIVED), seconds; then the kill rate."""
    rows = ["| mutant | module | result | seconds |", "|---|---|---|---:|"]
    for o in outcomes:
        result = f"killed by {o.killer}" if o.killed else "SURVIVED"
        rows.append(f"| {o.mutant.name} | {o.mutant.path} | {result} | {o.seconds:.1f} |")
    killed = sum(o.killed for o in outcomes)
    rows.append("")
    rows.append(f"kill rate: {killed}/{len(outcomes)} = {killed / max(len(outcomes), 1):.0%}")
    return "\n".join(rows)
