"""Run claim checks, timing each and turning failures into ERROR outcomes."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from proofs_check.claims import Claim, Outcome


@dataclass(frozen=True)
class Record:
    """A claim together with the outcome of its check and the wall time it took."""

    claim: Claim
    outcome: Outcome
    seconds: float

    def to_json(self) -> dict:
        """Flat JSON-serialisable view of the claim, its citation and its outcome."""
        claim, outcome, citation = self.claim, self.outcome, self.claim.citation
        return {
            "id": claim.id,
            "title": claim.title,
            "paper": citation.paper,
            "reference": citation.reference,
            "section": citation.section,
            "equation": citation.equation,
            "statement": str(claim.statement),
            "assumptions": list(claim.assumptions),
            "status": outcome.status.value,
            "method": outcome.method,
            "detail": outcome.detail,
            "counterexample": outcome.counterexample,
            "printed": outcome.printed,
            "corrected": outcome.corrected,
            "seconds": self.seconds,
        }


def run_check(claim: Claim) -> Outcome:
    """Call ``claim.check``; an exception or a non-Outcome return value becomes an ERROR outcome."""
    try:
        outcome = claim.check()
    except Exception as exc:
        return Outcome.error(f"{type(exc).__name__}: {exc}")
    if not isinstance(outcome, Outcome):
        return Outcome.error(f"check returned {type(outcome).__name__}, not Outcome")
    return outcome


def run_claims(claims: Sequence[Claim], progress: Callable[[int, int, Claim], None] | None = None) -> list[Record]:
    """Check each claim in order; ``progress(k, n, claim)`` is called (k from 1) before the k-th check."""
    records = []
    for k, claim in enumerate(claims, start=1):
        if progress is not None:
            progress(k, len(claims), claim)
        start = time.perf_counter()
        outcome = run_check(claim)
        records.append(Record(claim, outcome, time.perf_counter() - start))
    return records
