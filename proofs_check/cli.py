"""Command line: ``python -m proofs_check [FILE.py ...] [--paper NAME] [--claim PREFIX] [--json FILE | --list]
[--latex FILE] [--pdf FILE] [--jobs N] [--timeout S] [--from-json FILE]``.

Exit status: 0 when no claim is refuted or in error and the self-test passes, 1 otherwise, 2 on a usage error
(unknown paper, bad prefix, ``--jobs`` not a whole number >= 1, ``--timeout`` not finite and > 0, a user file that
fails to load, an output path that cannot be written, found by trying: all reported in one line before any check
runs), 3 when ``--pdf`` cannot be produced.

The self-test (:mod:`proofs_check.control`): every run that checks claims also checks the control paper, known-false
and undecidable statements, one per decision route, whatever ``--paper``, ``--claim`` or FILE.py select (it takes
about a second, and a filtered run needs a sound checker as much as a full one). Each must come out refuted or
undecided as expected; if one does not, the run prints that the checker is broken and exits 1. The controls are
reported in a section of their own (table, JSON key ``"control"``, LaTeX) and are not counted among the claims.
``--list`` lists them after the claims; ``--from-json`` reports (and judges) the self-test saved in the file, and
a file without one says so.

``--from-json FILE`` validates the file before use (:mod:`proofs_check.saved`: size and nesting limits, the type of
every field, finite seconds, papers and claims registered: the built-in and installed ones, or those of the FILE.py
given), reports only the saved records ``--paper`` / ``--claim`` select, and re-renders each claim from its
registered statement; a bad file is one line on stderr naming the file and the field, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import NoReturn

from proofs_check import control
from proofs_check.claims import Claim
from proofs_check.distribution import DISTRIBUTION, version
from proofs_check.outcome import Status
from proofs_check.output import Progress, check_destinations, load_timings, save_timings
from proofs_check.paper import PaperInfo
from proofs_check.registry import Registry
from proofs_check.report import control_line, format_control, format_details, format_table, summary_line, to_json
from proofs_check.runner import Record, default_jobs, run_claims

TEX_FAILED = 3
"""Exit status when ``--pdf`` cannot be produced (no pdflatex, or pdflatex failed)."""
USAGE = 2
FAILING = (Status.REFUTED, Status.ERROR)
VERSIONED_DISTRIBUTIONS = (DISTRIBUTION, "sympy", "mpmath", "numpy", "scipy", "z3-solver")
DEFAULT_TIMEOUT = 120.0
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""Environment variables that size the BLAS / OpenMP thread pools of numpy and scipy."""


def program_name() -> str:
    """How the command was invoked: ``python -m proofs_check`` or the console script's name."""
    invoked = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "python -m proofs_check" if invoked in ("", "__main__.py", "-c") or invoked.endswith(".py") else invoked


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (naming the program and pointing to
    ``--help``), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def jobs_count(text: str) -> int:
    """``--jobs``: a whole number of worker processes >= 1 (argparse's ArgumentTypeError otherwise)."""
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of worker processes >= 1, got {text!r}")
    return jobs


def timeout_seconds(text: str) -> float:
    """``--timeout``: a finite number of seconds > 0 (argparse's ArgumentTypeError for inf, nan, 0, negative)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds > 0, got {text!r}")
    return seconds


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``proofs_check`` command."""
    parser = OneLineParser(
        prog=prog or program_name(),
        description="Check the claims of the built-in papers, or of the papers defined in FILE.py, and report for "
        "each whether it is proved, numerically supported, refuted, an erratum (printed form refuted, corrected "
        "form verified) or an error.",
    )
    parser.add_argument("files", nargs="*", metavar="FILE.py", help="check only the papers these Python files define")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    parser.add_argument("--paper", action="append", metavar="NAME", help="only this paper (repeatable)")
    parser.add_argument(
        "--claim", action="append", metavar="ID_PREFIX", help="only claims whose id starts with it (repeatable)"
    )
    parser.add_argument(
        "--conservation",
        action="store_true",
        help="also print the conservation-law table of every registered model (and add it to the JSON)",
    )
    parser.add_argument("--latex", metavar="FILE", help="also write the report as a standalone LaTeX document")
    parser.add_argument("--pdf", metavar="FILE", help="also compile that document to FILE (.pdf) with pdflatex")
    parser.add_argument(
        "--jobs", type=jobs_count, default=default_jobs(), metavar="N", help="worker processes (default: all cores)"
    )
    parser.add_argument(
        "--timeout",
        type=timeout_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds per claim before it is stopped as an error (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--from-json",
        metavar="FILE",
        help="report the results saved by --json FILE instead of running the checks (its claims must be registered: "
        "built-in, installed, or in the FILE.py given)",
    )
    exclusive = parser.add_mutually_exclusive_group()
    exclusive.add_argument("--json", metavar="FILE", help="also write a JSON report to FILE ('-': stdout)")
    exclusive.add_argument("--list", action="store_true", help="list claim ids and citations without checking")
    return parser


def select_claims(registry: Registry, papers: Sequence[str] | None, prefixes: Sequence[str] | None) -> list[Claim]:
    """Claims of ``papers`` (all if None) whose id starts with one of ``prefixes`` (all if None).

    Raises ValueError for an unknown paper or a prefix that matches none of the papers' claims.
    """
    claims = [c for paper in papers for c in registry.claims(paper)] if papers else registry.claims()
    if not prefixes:
        return claims
    unmatched = [prefix for prefix in prefixes if not any(c.id.startswith(prefix) for c in claims)]
    if unmatched:
        raise ValueError(f"no claim id starts with {', '.join(map(repr, unmatched))}")
    return [c for c in claims if c.id.startswith(tuple(prefixes))]


def versions() -> dict[str, str]:
    """Versions of Python and of the distributions the verdicts depend on, for the JSON report."""
    found = {"python": platform.python_version()}
    for name in VERSIONED_DISTRIBUTIONS:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def text_report(records: Sequence[Record], results: Sequence[control.ControlResult] | None = None) -> str:
    """Table, then details of refuted / erratum / error records if any, then the summary line; then the
    self-test's section and line (``results``; a line saying it is missing if None)."""
    parts = [format_table(records), format_details(records), summary_line(records)]
    if results is None:
        parts.append("self-test: not in this report (it was saved without one)")
    else:
        parts += [format_control(results), control_line(results)]
    return "\n\n".join(part for part in parts if part)


def list_text(claims: Sequence[Claim], controls: Sequence[Claim]) -> str:
    """The ids and citations of ``claims``; then, apart, the self-test's controls and what each must come out
    as."""
    width = max((len(c.id) for c in claims), default=0)
    lines = [f"{c.id:<{width}}  {c.citation.reference}" for c in claims]
    expected = control.expected()
    control_width = max((len(c.id) for c in controls), default=0)
    lines += ["", "self-test (control; runs with every check, not counted among the claims):"]
    lines += [f"{c.id:<{control_width}}  must come out {expected[c.id].describe()}" for c in controls]
    return "\n".join(lines)


def format_conservation(table: Sequence[dict]) -> str:
    """The conservation-law table: model, D, laws found (for every loss), laws counted, seconds."""
    rows = [f"{'model':<26} {'D':>3} {'counted':>7} {'seconds':>7}  laws found (every loss)"]
    for row in table:
        found = "; ".join(row["found"]) or row["note"] or "none"
        counted = "-" if row["counted"] is None else row["counted"]
        rows.append(f"{row['model']:<26} {row['D'] or '-':>3} {counted:>7} {row['seconds']:>7.2f}  {found}")
    return "\n".join(rows)


def _write(option: str, path: str, text: str) -> None:
    """Write ``text`` to ``path``; a failure that the up-front check could not foresee (a full disk, a path removed
    meanwhile) is a ValueError naming ``option``, not a traceback."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{option} {path!r}: cannot be written ({exc.strerror or exc})") from exc


def write_json(
    records: Sequence[Record],
    destination: str,
    papers: Sequence[PaperInfo],
    extra: dict,
    results: Sequence[control.ControlResult] | None = None,
) -> None:
    """Write the JSON report (claims, summary, the self-test's ``results``, papers, versions, ``extra``) to
    ``destination`` or stdout (``-``)."""
    payload = {"papers": [p.to_json() for p in papers], "versions": versions(), **extra}
    text = json.dumps(to_json(records, payload, control=results), indent=2, ensure_ascii=False) + "\n"
    if destination == "-":
        sys.stdout.write(text)
    else:
        _write("--json", destination, text)


def write_documents(
    records: Sequence[Record],
    papers: Sequence[PaperInfo],
    models: dict,
    args: argparse.Namespace,
    prog: str,
    results: Sequence[control.ControlResult] | None = None,
    uncited: bool = False,
) -> int:
    """Write the LaTeX document and/or compile the PDF (with the models no paper declares where ``uncited``);
    returns 0, or TEX_FAILED after saying why on stderr."""
    from proofs_check.latex_report import document
    from proofs_check.pdf import LatexError, PdflatexMissing, compile_pdf

    tex = document(records, papers, models, include_uncited=uncited, control=results)
    if args.latex is not None:
        _write("--latex", args.latex, tex)
    if args.pdf is None:
        return 0
    try:
        result = compile_pdf(tex, args.pdf)
    except (PdflatexMissing, LatexError, ValueError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return TEX_FAILED
    except OSError as exc:  # the copy to --pdf, after the up-front check passed (a full disk, a removed directory)
        raise ValueError(f"--pdf {args.pdf!r}: cannot be written ({exc.strerror or exc})") from exc
    if result.overfull:
        print(f"{prog}: warning: {len(result.overfull)} overfull box(es) in the PDF", file=sys.stderr)
    print(f"wrote {result.pdf} ({result.pages} pages)", file=sys.stderr)
    return 0


def run_control(jobs: int, timeout: float) -> list[control.ControlResult]:
    """Check the control claims (progress on stderr) and judge them (:mod:`proofs_check.control`)."""
    controls = control.claims()
    progress = Progress(sys.stderr, len(controls))
    try:
        records = run_claims(controls, progress, jobs=min(jobs, len(controls)), timeout=timeout)
    finally:
        progress.close()
    return control.judge_records(records)


def _load(args: argparse.Namespace, registry: Registry | None, every: bool = False) -> tuple[Registry, list[Claim]]:
    """The registry (FILE.py's papers, else ``registry``, else the built-in and installed papers: those of
    ``--paper`` only, unless ``every``) and the claims ``--paper`` / ``--claim`` select."""
    from proofs_check.papers import load_file, load_papers

    papers = list(dict.fromkeys(args.paper)) if args.paper else None
    if args.files:
        registry = Registry(p for path in args.files for p in load_file(path))
    elif registry is None:
        registry = load_papers(None if every else papers)
    return registry, select_claims(registry, papers, args.claim)


def _from_json(
    args: argparse.Namespace, registry: Registry | None
) -> tuple[list[Record], list[PaperInfo], dict, list[control.ControlResult] | None, Registry]:
    """The records, papers, models, self-test and registry of the saved report ``--from-json``: validated, bound to the
    registered claims (every registered paper, so that a saved claim of a paper ``--paper`` leaves out is still
    known) and restricted to those ``--paper`` / ``--claim`` select (:mod:`proofs_check.saved`)."""
    from proofs_check.saved import bind, load_report

    report = load_report(args.from_json)  # before loading any paper: a bad file is refused at once
    registry, claims = _load(args, registry, every=True)
    records, papers, results = bind(report, registry, claims, args.from_json)
    return records, papers, _models(registry, [p.key for p in papers]), results, registry


def _models(registry: Registry, keys: Sequence[str]) -> dict:
    """Model name → Model object for the papers ``keys`` (unregistered models of a user file included)."""
    return {m.name: m for key in keys for m in registry.paper(key).model_objects()}


def _run(args: argparse.Namespace, registry: Registry | None, prog: str) -> int:
    check_destinations(json_path=args.json, latex_path=args.latex, pdf_path=args.pdf)
    results: list[control.ControlResult] | None
    if args.from_json:
        try:
            records, papers, models, results, registry = _from_json(args, registry)
        except (OSError, SyntaxError, ImportError) as exc:
            raise ValueError(str(exc)) from exc
        # as the live run that saved it: the models no paper declares are reported when it covered every paper
        uncited = not (args.paper or args.files) and {p.key for p in papers} == set(registry.papers())
    else:
        try:
            registry, claims = _load(args, registry)
        except (ValueError, OSError, SyntaxError, ImportError) as exc:
            raise ValueError(str(exc)) from exc
        if args.list:
            print(list_text(claims, control.claims()))
            return 0
        if args.pdf is not None:
            from proofs_check.pdf import find_pdflatex

            find_pdflatex()  # before the checks, so that a missing TeX is reported at once
        progress = Progress(sys.stderr, len(claims))
        try:
            records = run_claims(claims, progress, jobs=args.jobs, timeout=args.timeout, expected=load_timings())
        finally:
            progress.close()
        results = run_control(args.jobs, args.timeout)
        save_timings([*records, *(r.record for r in results)])
        keys = list(dict.fromkeys(r.claim.citation.paper for r in records))
        papers, models = [registry.paper(k).info for k in keys], _models(registry, keys)
        uncited = not (args.paper or args.files) and set(keys) == set(registry.papers())
    out = sys.stderr if args.json == "-" else sys.stdout
    extra = {}
    if args.conservation:
        from derivations.conservation import conservation_table

        extra["conservation"] = conservation_table()
        print(format_conservation(extra["conservation"]) + "\n", file=out)
    print(text_report(records, results), file=out)
    broken = control.broken(results or [])
    if broken:
        print(f"{prog}: error: the checker is broken: known-false controls came out wrong:", file=sys.stderr)
        print("\n".join(f"  {line}" for line in broken), file=sys.stderr)
    if args.json is not None:
        write_json(records, args.json, papers, extra, results)
    if (args.latex or args.pdf) and write_documents(records, papers, models, args, prog, results, uncited) != 0:
        return TEX_FAILED
    return 1 if broken or any(r.outcome.status in FAILING for r in records) else 0


def share_cores(jobs: int) -> None:
    """Give each of ``jobs`` worker processes its share of the cores as BLAS / OpenMP threads (at least one), where
    the environment does not set them. Effective only before numpy loads its BLAS: the workers' threads would
    otherwise compete for the same cores, and OpenBLAS threads spin while they wait (L-BFGS-B, which calls BLAS on
    small matrices, runs several times slower that way)."""
    threads = str(max(1, default_jobs() // max(jobs, 1)))
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, threads)


def main(argv: Sequence[str] | None = None, registry: Registry | None = None) -> int:
    """Run the command (see the module docstring for the exit status).

    A ``ValueError`` of the run (a bad paper, file or option value) is printed as one line on stderr, not raised.

    Arguments:
        argv: the command-line arguments without the program name; None: ``sys.argv[1:]``.
        registry: the papers to check in place of the built-in ones (for tests); None: the built-in and installed
            papers.

    Returns:
        The exit status: 0 when no claim is refuted or in error and the self-test passes, 1 otherwise,
        :data:`USAGE` (2) on a usage error, :data:`TEX_FAILED` (3) when ``--pdf`` cannot be produced (no pdflatex,
        or pdflatex failed).

    Raises:
        SystemExit: from ``argparse``, for ``--help`` or arguments it cannot parse (status 2).
    """
    from proofs_check.pdf import PdflatexMissing

    prog = program_name()
    args = build_parser(prog).parse_args(argv)
    share_cores(args.jobs)
    try:
        return _run(args, registry, prog)
    except ValueError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return USAGE
    except PdflatexMissing as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return TEX_FAILED
    except BrokenPipeError:
        # the reader went away (e.g. `--list | head -1`): stop quietly, and keep Python's exit flush quiet too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
