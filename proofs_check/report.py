"""Plain-text and JSON reports of check records."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from proofs_check.outcome import Status
from proofs_check.runner import Record

SUMMARY_ORDER = (Status.PROVED, Status.NUMERIC, Status.ERRATUM, Status.REFUTED, Status.ERROR)
DETAILED = (Status.REFUTED, Status.ERRATUM, Status.ERROR)
MAX_WIDTH = 120
MIN_METHOD_WIDTH = 16
GAP = "  "


def format_table(records: Sequence[Record]) -> str:
    """Aligned columns claim / status / method / seconds; a long method wraps onto further lines of its column so
    that rows stay within MAX_WIDTH characters."""
    rows = [(r.claim.id, r.outcome.status.value, r.outcome.method, f"{r.seconds:.2f}") for r in records]
    header = ("claim", "status", "method", "seconds")
    id_w, status_w, method_w, sec_w = (max(len(row[i]) for row in [header, *rows]) for i in range(4))
    budget = MAX_WIDTH - id_w - status_w - sec_w - 3 * len(GAP)
    method_w = min(method_w, max(budget, MIN_METHOD_WIDTH))

    def lines(cells: tuple[str, str, str, str]) -> list[str]:
        claim_id, status, method, seconds = cells
        wrapped = textwrap.wrap(method, method_w, break_on_hyphens=False) or [""]
        padded = [claim_id.ljust(id_w), status.ljust(status_w), wrapped[0].ljust(method_w), seconds.rjust(sec_w)]
        first = GAP.join(padded)
        indent = " " * (id_w + status_w + 2 * len(GAP))
        return [first, *(indent + part for part in wrapped[1:])]

    rule = GAP.join("-" * w for w in (id_w, status_w, method_w, sec_w))
    return "\n".join([*lines(header), rule, *(line for row in rows for line in lines(row))])


def format_details(records: Sequence[Record]) -> str:
    """Detail, counterexample and printed/corrected forms of refuted, erratum and error records, or ""."""
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
    """E.g. ``"42 claims: 38 proved, 2 numerically-supported, 2 erratum, 0 refuted, 0 error (12.3 s)"``."""
    counts = ", ".join(f"{n} {status.value}" for status, n in _counts(records).items())
    noun = "claim" if len(records) == 1 else "claims"
    seconds = sum(r.seconds for r in records)
    return f"{len(records)} {noun}: {counts} ({seconds:.1f} s)"


def to_json(records: Sequence[Record], extra: dict | None = None) -> dict:
    """``{"claims": [...], "summary": {status: count, ..., "total": n, "seconds": s}}`` plus ``extra``'s keys.

    Raises ValueError if ``extra`` would overwrite ``"claims"`` or ``"summary"``.
    """
    summary: dict[str, float] = {status.value: n for status, n in _counts(records).items()}
    summary.update(total=len(records), seconds=sum(r.seconds for r in records))
    report: dict = {"claims": [r.to_json() for r in records], "summary": summary}
    clashes = sorted(set(report) & set(extra or {}))
    if clashes:
        raise ValueError(f"extra keys clash with report keys: {clashes}")
    return {**report, **(extra or {})}
