"""Issue 23, mutation test: every mutant of ``tests/mutation/mutants.py`` (the Riccati engine, the separable
method, the conservation laws, the closed-form kernel, the reference integrators, gradient descent, the quadrature,
the checker and the CLI) applied to a temporary copy of the package is caught by the tests and claims that cover
its module. The unmutated copy passes the same selections first, so that a kill is the mutant's doing.

The list cannot rot silently: a mutant whose ``old`` text no longer occurs exactly once in its file fails the
fast test below ("mutant X is stale"). ``python -m tests.mutation`` prints the table."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _mutation():
    """The package ``tests/mutation`` (test modules cannot import each other under ``--import-mode=importlib``)."""
    name = "_issue23_mutation"
    if name not in sys.modules:
        folder = ROOT / "tests" / "mutation"
        init, search = folder / "__init__.py", [str(folder)]
        spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=search)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


mutation = _mutation()


def test_no_mutant_is_stale() -> None:
    problems = mutation.stale()
    assert not problems, "\n".join(problems)


def test_the_mutants_are_distinct_and_cover_every_module() -> None:
    mutants = mutation.MUTANTS
    assert len(mutants) >= 24
    assert len({m.name for m in mutants}) == len(mutants)
    assert len({(m.path, m.old) for m in mutants}) == len(mutants)
    assert all(m.old != m.new and (m.covering_tests or m.covering_claims) for m in mutants)
    covered = {m.path for m in mutants}
    for module in (
        "derivations/riccati.py",
        "derivations/separable.py",
        "derivations/conservation.py",
        "numerics/closed_form.py",
        "numerics/taylor.py",
        "numerics/dop853.py",
        "numerics/integrate.py",
        "numerics/quadrature.py",
        "proofs_check/statement_checks.py",
        "proofs_check/z3_checks.py",
        "proofs_check/checkers.py",
        "proofs_check/outcome.py",
        "proofs_check/cli.py",
    ):
        assert module in covered, module


def test_the_covering_tests_exist() -> None:
    """Each covering test names a test file of the repository and, after ``::``, a test function in it."""
    for mutant in mutation.MUTANTS:
        for selection in mutant.covering_tests:
            path, _, function = selection.partition("::")
            source = ROOT / path
            assert source.is_file() and source.name.startswith("test_"), (mutant.name, selection)
            if function:
                assert f"def {function.split('[')[0]}(" in source.read_text(encoding="utf-8"), (mutant.name, selection)


def test_a_stale_mutant_is_reported(tmp_path: Path) -> None:
    """The staleness check can fail: a mutant whose text is gone, and one whose text occurs twice."""
    (tmp_path / "m.py").write_text("x = 1\ny = 1\n", encoding="utf-8")
    gone = mutation.Mutant("gone", "m.py", "z = 1", "z = 2", ("t",), (), "")
    twice = mutation.Mutant("twice", "m.py", " = 1", " = 2", ("t",), (), "")
    once = mutation.Mutant("once", "m.py", "x = 1", "x = 2", ("t",), (), "")
    problems = mutation.stale([gone, twice, once], root=tmp_path)
    assert problems == [
        "mutant gone is stale: 'z = 1' occurs 0 times in m.py",
        "mutant twice is stale: ' = 1' occurs 2 times in m.py",
    ]


def test_a_mutant_is_applied_to_a_copy_only(tmp_path: Path) -> None:
    mutant = mutation.MUTANTS[0]
    copy = mutation.copy_package(tmp_path / "copy")
    mutation.apply(mutant, copy)
    assert mutant.new in (copy / mutant.path).read_text(encoding="utf-8")
    assert mutant.old in (ROOT / mutant.path).read_text(encoding="utf-8")
    assert not list(copy.rglob("__pycache__"))


@pytest.mark.slow
def test_every_mutant_is_killed() -> None:
    """All mutants, two at a time, with the unmutated copy's run of the union of their selections beside them."""
    run = mutation.run_all(jobs=2)
    table = mutation.format_table(run.outcomes)
    print(table)
    assert not run.baseline_failed, (
        f"the unmutated copy fails its covering {run.baseline_failed}, so no kill would mean anything:\n"
        f"{run.baseline_output}"
    )
    survivors = [o.mutant.name for o in run.outcomes if not o.killed]
    assert not survivors, f"surviving mutants {survivors}:\n{table}"
