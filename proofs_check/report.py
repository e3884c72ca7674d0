"""Plain-text and JSON reports of check records, and of the checker's self-test (:mod:`proofs_check.control`)."""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from proofs_check.outcome import Status
from proofs_check.runner import Record

if TYPE_CHECKING:
    from proofs_check.control import ControlResult

SUMMARY_ORDER = (Status.PROVED, Status.NUMERIC, Status.ERRATUM, Status.REFUTED, Status.ERROR)
DETAILED = (Status.REFUTED, Status.ERRATUM, Status.ERROR)
MAX_WIDTH = 120
"""The table's width where no terminal says otherwise (output to a file or a pipe: the lines a log shows)."""
MIN_METHOD_WIDTH = 16
"""Below this width beside the other columns, the method goes on indented lines under its row."""
METHOD_INDENT = "    "
GAP = "  "
SELF_REFERENTIAL_MARK = "*"
"""Appended to the status of a self-referential claim in the table (it re-checks the package's own steps)."""
SELF_REFERENTIAL_NOTE = (
    f"{SELF_REFERENTIAL_MARK} self-referential: the claim re-checks the package's own derivation steps"
)


def _status(record: Record) -> str:
    """The status as the table shows it: marked if the claim is self-referential."""
    outcome = record.outcome
    return outcome.status.value + (SELF_REFERENTIAL_MARK if outcome.self_referential else "")


def table_width() -> int:
    """The width to print in: ``COLUMNS`` where it is set, else the terminal's width where standard output is a
    terminal, else :data:`MAX_WIDTH` (a file, a pipe, a test worker); never more than :data:`MAX_WIDTH` nor less
    than 40."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit():
        width = int(columns)
    elif sys.stdout is not None and sys.stdout.isatty():
        width = shutil.get_terminal_size((MAX_WIDTH, 24)).columns
    else:
        width = MAX_WIDTH
    return max(40, min(MAX_WIDTH, width))


def format_table(records: Sequence[Record], width: int | None = None) -> str:
    """Aligned columns claim / status / method / seconds within ``width`` characters.

    A long method wraps onto further lines of its column; where the other columns leave it fewer than
    :data:`MIN_METHOD_WIDTH` characters (a narrow terminal), each row is claim / status / seconds and its method
    follows on indented lines. A self-referential claim's status is marked, and a note under the table says what the
    mark means.

    Arguments:
        records: the records, one row each, in order.
        width: the characters per line, an int >= 20; None: :func:`table_width`.

    Returns:
        The table as lines joined by newlines (a header, a rule, the rows, then the note if any).

    Raises:
        ValueError: ``width`` is not an int >= 20 (``bool`` refused).
    """
    width = table_width() if width is None else width
    if isinstance(width, bool) or not isinstance(width, int) or width < 20:
        raise ValueError(f"width must be an int >= 20 (characters), got {width!r}")
    rows = [(r.claim.id, _status(r), r.outcome.method, f"{r.seconds:.2f}") for r in records]
    header = ("claim", "status", "method", "seconds")
    id_w, status_w, method_w, sec_w = (max(len(row[i]) for row in [header, *rows]) for i in range(4))
    budget = width - id_w - status_w - sec_w - 3 * len(GAP)
    narrow = budget < MIN_METHOD_WIDTH
    method_w = min(method_w, budget)

    def lines(cells: tuple[str, str, str, str]) -> list[str]:
        claim_id, status, method, seconds = cells
        if narrow:
            first = GAP.join([claim_id.ljust(id_w), status.ljust(status_w), seconds.rjust(sec_w)])
            wrapped = textwrap.wrap(method, max(width - len(METHOD_INDENT), 8), break_on_hyphens=False)
            return [first, *(METHOD_INDENT + part for part in wrapped)]
        wrapped = textwrap.wrap(method, method_w, break_on_hyphens=False) or [""]
        padded = [claim_id.ljust(id_w), status.ljust(status_w), wrapped[0].ljust(method_w), seconds.rjust(sec_w)]
        first = GAP.join(padded)
        indent = " " * (id_w + status_w + 2 * len(GAP))
        return [first, *(indent + part for part in wrapped[1:])]

    widths = (id_w, status_w, sec_w) if narrow else (id_w, status_w, method_w, sec_w)
    rule = GAP.join("-" * w for w in widths)
    note = textwrap.wrap(SELF_REFERENTIAL_NOTE, width) if any(r.outcome.self_referential for r in records) else []
    return "\n".join([*lines(header), rule, *(line for row in rows for line in lines(row)), *note])


def format_details(records: Sequence[Record]) -> str:
    """Detail, counterexample and printed/corrected forms of refuted, erratum and error records.

    Arguments:
        records: the records; those proved or numerically supported are skipped.

    Returns:
        ``"Details:"`` followed by one indented block per refuted, erratum or error record, or ``""`` if there is
        none.
    """
    blocks = []
    for record in records:
        outcome = record.outcome
        if outcome.status not in DETAILED:
            continue
        lines = [f"  {record.claim.id} [{outcome.status.value}]"]
        if outcome.detail:
            lines.append("    detail: " + outcome.detail.replace("\n", "\n            "))
        if outcome.counterexample:
            witness = ", ".join(f"{name} = {value}" for name, value in outcome.counterexample.items())
            lines.append(f"    counterexample: {witness}")
        if outcome.printed or outcome.corrected:
            lines += [f"    printed:   {outcome.printed}", f"    corrected: {outcome.corrected}"]
        blocks.append("\n".join(lines))
    return "\n".join(["Details:", *blocks]) if blocks else ""


def _counts(records: Sequence[Record]) -> dict[Status, int]:
    """Number of records per status, for every status in SUMMARY_ORDER."""
    return {status: sum(r.outcome.status is status for r in records) for status in SUMMARY_ORDER}


def summary_line(records: Sequence[Record]) -> str:
    """The one-line summary of a run.

    Arguments:
        records: the records of the run.

    Returns:
        The count of records per status and their total seconds, e.g.
        ``"42 claims: 38 proved, 2 numerically-supported, 2 erratum, 0 refuted, 0 error (12.3 s)"``.
    """
    counts = ", ".join(f"{n} {status.value}" for status, n in _counts(records).items())
    noun = "claim" if len(records) == 1 else "claims"
    seconds = sum(r.seconds for r in records)
    return f"{len(records)} {noun}: {counts} ({seconds:.1f} s)"


def format_control(results: Sequence[ControlResult]) -> str:
    """The self-test section: a heading, then per control its id, the expected verdict, the verdict it got, and
    ``ok`` or ``BROKEN``; then what each broken one means."""
    rows = [
        (
            r.record.claim.id,
            r.expected.describe(),
            f"{r.record.outcome.status.value} by {', '.join(r.record.outcome.routes) or 'no route'}",
            "ok" if r.as_expected else "BROKEN",
        )
        for r in results
    ]
    header = ("control", "expected", "got", "")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(4)]
    lines = [GAP.join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in [header, *rows]]
    lines.insert(1, GAP.join("-" * w for w in widths))
    title = "Self-test (control: known-false statements the checker must not prove; not counted among the claims)"
    problems = [f"  {r.record.claim.id}: {r.problem}" for r in results if not r.as_expected]
    return "\n".join([title, *lines, *problems])


def control_line(results: Sequence[ControlResult]) -> str:
    """E.g. ``"self-test: 6 controls, all as expected (0.6 s)"``, or the count that is not and ``the checker is
    broken``."""
    seconds = sum(r.record.seconds for r in results)
    failed = [r.record.claim.id for r in results if not r.as_expected]
    if not failed:
        return f"self-test: {len(results)} controls, all as expected ({seconds:.1f} s)"
    return (
        f"self-test: {len(results)} controls, {len(failed)} NOT as expected ({', '.join(failed)}): "
        f"THE CHECKER IS BROKEN ({seconds:.1f} s)"
    )


def control_json(results: Sequence[ControlResult]) -> dict:
    """``{"claims": [...], "summary": {"total": n, "as_expected": k, "broken": [ids], "seconds": s}}``."""
    broken = [r.record.claim.id for r in results if not r.as_expected]
    summary = {
        "total": len(results),
        "as_expected": len(results) - len(broken),
        "broken": broken,
        "seconds": sum(r.record.seconds for r in results),
    }
    return {"claims": [r.to_json() for r in results], "summary": summary}


def to_json(
    records: Sequence[Record], extra: dict | None = None, control: Sequence[ControlResult] | None = None
) -> dict:
    """The JSON report of a run.

    Arguments:
        records: the records of the run.
        extra: None, or further top-level keys of the report (e.g. the papers' metadata).
        control: None, or the self-test's results, reported under ``"control"`` (:func:`control_json`: not counted
            in the summary).

    Returns:
        ``{"claims": [...], "summary": {status: count, ..., "total": n, "seconds": s}}`` (each claim
        :meth:`Record.to_json`), plus ``"control"`` given ``control``, plus ``extra``'s keys.

    Raises:
        ValueError: ``extra`` would overwrite ``"claims"``, ``"summary"`` or ``"control"``.
    """
    summary: dict[str, float] = {status.value: n for status, n in _counts(records).items()}
    summary.update(total=len(records), seconds=sum(r.seconds for r in records))
    report: dict = {"claims": [r.to_json() for r in records], "summary": summary}
    if control is not None:
        report["control"] = control_json(control)
    clashes = sorted({"claims", "summary", "control"} & set(extra or {}))
    if clashes:
        raise ValueError(f"extra keys clash with report keys: {clashes}")
    return {**report, **(extra or {})}
