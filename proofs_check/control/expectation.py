"""What a control must come out as, and the judgement of a control's record against it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from proofs_check.outcome import ROUTES, Status
from proofs_check.runner import Record

__all__ = ["ControlResult", "Expectation", "judge"]


@dataclass(frozen=True)
class Expectation:
    """A control's expected verdict: its ``status``, the ``routes`` that must have decided it, a phrase its detail
    must contain (``detail``, e.g. ``"undecided"``), and what it means if it does not come out so (``broken``)."""

    status: Status
    routes: tuple[str, ...]
    broken: str
    detail: str = ""

    def __post_init__(self) -> None:
        unknown = [r for r in self.routes if r not in ROUTES]
        if not self.routes or unknown:
            raise ValueError(f"Expectation routes must be names among {sorted(ROUTES)}, got {self.routes!r}")

    def describe(self) -> str:
        """E.g. ``"refuted by z3"`` or ``"error (undecided) by sympy-eq, counterexample-30"``."""
        phrase = f" ({self.detail})" if self.detail else ""
        return f"{self.status.value}{phrase} by {', '.join(self.routes)}"

    def to_json(self) -> dict:
        """The expectation as JSON values."""
        return {"status": self.status.value, "routes": list(self.routes), "detail": self.detail, "broken": self.broken}

    @classmethod
    def from_json(cls, data: Mapping) -> Expectation:
        """The inverse of :meth:`to_json`."""
        return cls(Status(data["status"]), tuple(data["routes"]), str(data["broken"]), str(data.get("detail", "")))


@dataclass(frozen=True)
class ControlResult:
    """A control's record and its expectation; :attr:`problem` says how it differs, "" if it does not."""

    record: Record
    expected: Expectation

    @property
    def problem(self) -> str:
        """Why the record is not as expected ("" if it is): the status, a missing route, or a missing phrase."""
        outcome, expected = self.record.outcome, self.expected
        got = f"{outcome.status.value} by {', '.join(outcome.routes) or 'no route'}"
        if outcome.status is not expected.status:
            return f"expected {expected.describe()}, got {got}: {expected.broken}"
        missing = [r for r in expected.routes if r not in outcome.routes]
        if missing:
            return f"expected {expected.describe()}, got {got}: the route(s) {', '.join(missing)} did not decide it"
        if expected.detail not in outcome.detail:
            return f"expected {expected.describe()}, got {outcome.status.value} with detail {outcome.detail!r}"
        return ""

    @property
    def as_expected(self) -> bool:
        """Whether the control came out as expected."""
        return not self.problem

    def to_json(self) -> dict:
        """The record's JSON with the expectation and the judgement."""
        return {**self.record.to_json(), "expected": self.expected.to_json(), "as_expected": self.as_expected}

    @classmethod
    def from_json(cls, data: Mapping) -> ControlResult:
        """The inverse of :meth:`to_json` (the judgement is made again from the record and the expectation)."""
        return cls(Record.from_json(data), Expectation.from_json(data["expected"]))


def judge(records: Sequence[Record], expected: Mapping[str, Expectation]) -> list[ControlResult]:
    """Each control's record with its expectation (``expected`` by claim id).

    Raises:
        ValueError: a record has no expectation, or an expectation no record.
    """
    ids = [r.claim.id for r in records]
    unknown, missing = sorted(set(ids) - set(expected)), sorted(set(expected) - set(ids))
    if unknown or missing:
        raise ValueError(f"control records without an expectation {unknown}, expectations without a record {missing}")
    return [ControlResult(r, expected[r.claim.id]) for r in records]
