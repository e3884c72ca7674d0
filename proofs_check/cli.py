"""Command line: ``python -m proofs_check [--paper NAME] [--claim PREFIX] [--json FILE | --list] [--latex FILE]
[--pdf FILE]``."""

from __future__ import annotations

import argparse
import json
import platform
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import TextIO

from derivations.conservation import conservation_table
from proofs_check.claims import Claim, Registry, Status
from proofs_check.latex_report import document
from proofs_check.papers import load_papers
from proofs_check.pdf import LatexError, PdflatexMissing, compile_pdf, find_pdflatex
from proofs_check.report import format_details, format_table, summary_line, to_json
from proofs_check.runner import Record, run_claims

PROG = "python -m proofs_check"
TEX_FAILED = 3
"""Exit status when ``--pdf`` cannot be produced (no pdflatex, or pdflatex failed)."""
FAILING = (Status.REFUTED, Status.ERROR)
VERSIONED_DISTRIBUTIONS = ("layerwise-linear-flows", "sympy", "mpmath")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``proofs_check`` command."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Check the registered claims of the papers and report, for each, whether it is proved, "
        "numerically supported, refuted, an erratum (printed form refuted, corrected form verified) "
        "or an error.",
    )
    parser.add_argument("--paper", action="append", metavar="NAME", help="only this paper (repeatable)")
    parser.add_argument(
        "--claim",
        action="append",
        metavar="ID_PREFIX",
        help="only claims whose id starts with it (repeatable)",
    )
    parser.add_argument(
        "--conservation",
        action="store_true",
        help="also print the conservation-law table of every registered model (and add it to the JSON)",
    )
    parser.add_argument(
        "--latex",
        metavar="FILE",
        help="also write the report as a standalone LaTeX document: models, derivations, claims, errata",
    )
    parser.add_argument("--pdf", metavar="FILE", help="also compile that document to FILE with pdflatex")
    exclusive = parser.add_mutually_exclusive_group()
    exclusive.add_argument("--json", metavar="FILE", help="also write a JSON report to FILE ('-': stdout)")
    exclusive.add_argument("--list", action="store_true", help="list claim ids and titles without checking")
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


class Progress:
    """``\\r[k/n] claim-id`` status line on a terminal stream, blanked by :meth:`clear`."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.width = 0

    def __call__(self, k: int, n: int, claim: Claim) -> None:
        text = f"[{k}/{n}] {claim.id}"
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = max(self.width, len(text))

    def clear(self) -> None:
        """Blank the status line and return the cursor to its start."""
        self.stream.write("\r" + " " * self.width + "\r")
        self.stream.flush()


def run_with_progress(claims: Sequence[Claim]) -> list[Record]:
    """Run ``claims``, showing progress on stderr only when it is a terminal."""
    if not sys.stderr.isatty():
        return run_claims(claims)
    progress = Progress(sys.stderr)
    try:
        return run_claims(claims, progress)
    finally:
        progress.clear()


def versions() -> dict[str, str]:
    """Versions of Python and of the distributions the verdicts depend on, for the JSON report."""
    found = {"python": platform.python_version()}
    for name in VERSIONED_DISTRIBUTIONS:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def text_report(records: Sequence[Record]) -> str:
    """Table, then details of refuted / erratum / error records if any, then the summary line."""
    details = format_details(records)
    return "\n\n".join(part for part in (format_table(records), details, summary_line(records)) if part)


def format_conservation(table: Sequence[dict]) -> str:
    """The conservation-law table: model, D, laws found (for every loss), laws counted, seconds."""
    rows = [f"{'model':<26} {'D':>3} {'counted':>7} {'seconds':>7}  laws found (every loss)"]
    for row in table:
        found = "; ".join(row["found"]) or row["note"] or "none"
        counted = "-" if row["counted"] is None else row["counted"]
        rows.append(f"{row['model']:<26} {row['D'] or '-':>3} {counted:>7} {row['seconds']:>7.2f}  {found}")
    return "\n".join(rows)


def write_json(records: Sequence[Record], destination: str, extra: dict | None = None) -> None:
    """Write the JSON report to the file ``destination``, or to stdout if it is ``-``."""
    text = json.dumps(to_json(records, {"versions": versions(), **(extra or {})}), indent=2, ensure_ascii=False) + "\n"
    if destination == "-":
        sys.stdout.write(text)
    else:
        with open(destination, "w", encoding="utf-8") as handle:
            handle.write(text)


def write_documents(records: Sequence[Record], latex_path: str | None, pdf_path: str | None, uncited: bool) -> int:
    """Write the LaTeX document and/or compile the PDF; returns 0, or TEX_FAILED after saying why on stderr."""
    tex = document(records, include_uncited=uncited)
    if latex_path is not None:
        with open(latex_path, "w", encoding="utf-8") as handle:
            handle.write(tex)
    if pdf_path is None:
        return 0
    try:
        result = compile_pdf(tex, pdf_path)
    except (PdflatexMissing, LatexError, ValueError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return TEX_FAILED
    if result.overfull:
        print(f"{PROG}: warning: {len(result.overfull)} overfull box(es) in the PDF", file=sys.stderr)
    print(f"wrote {result.pdf} ({result.pages} pages)", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None, registry: Registry | None = None) -> int:
    """Run the command; returns 1 if any claim is refuted or errored, 2 on a bad paper or prefix, 3 if ``--pdf``
    fails (no pdflatex, or a LaTeX error), else 0.

    ``registry`` replaces the global registry of the paper modules (for tests).
    """
    args = build_parser().parse_args(argv)
    papers = list(dict.fromkeys(args.paper)) if args.paper else None
    try:
        source = registry if registry is not None else load_papers(papers)
        claims = select_claims(source, papers, args.claim)
    except ValueError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    if args.list:
        for claim in claims:
            print(f"{claim.id}  {claim.title}".rstrip())
        return 0
    if args.pdf is not None:
        try:
            find_pdflatex()  # before the checks, so that a missing TeX is reported at once
        except PdflatexMissing as exc:
            print(f"{PROG}: error: {exc}", file=sys.stderr)
            return TEX_FAILED
    records = run_with_progress(claims)
    out = sys.stderr if args.json == "-" else sys.stdout
    extra = {}
    if args.conservation:
        extra["conservation"] = conservation_table()
        print(format_conservation(extra["conservation"]) + "\n", file=out)
    print(text_report(records), file=out)
    if args.json is not None:
        write_json(records, args.json, extra)
    if (args.latex or args.pdf) and write_documents(records, args.latex, args.pdf, papers is None) != 0:
        return TEX_FAILED
    return 1 if any(r.outcome.status in FAILING for r in records) else 0
