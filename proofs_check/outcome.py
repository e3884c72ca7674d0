"""What a check returns: the :class:`Status` of a claim and the :class:`Outcome` that carries it.

The data types every deciding module (:mod:`proofs_check.statement_checks`, :mod:`proofs_check.z3_checks`,
:mod:`proofs_check.checkers`, the papers' own checks) produces; they depend on nothing else of the package.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["Outcome", "Status"]

_Key = TypeVar("_Key")


class Status(str, enum.Enum):
    """Verdict of a check."""

    PROVED = "proved"
    NUMERIC = "numerically-supported"
    REFUTED = "refuted"
    ERRATUM = "erratum"
    ERROR = "error"


@dataclass(frozen=True)
class Outcome:
    """Result of one check; build it with the classmethod constructors rather than directly."""

    status: Status
    method: str
    detail: str = ""
    counterexample: dict[str, str] | None = None
    printed: str = ""
    corrected: str = ""

    @classmethod
    def proved(cls, method: str, detail: str = "") -> Outcome:
        """The claim holds exactly (symbolic or exact-arithmetic argument)."""
        return cls(Status.PROVED, method, detail)

    @classmethod
    def numeric(cls, method: str, detail: str = "") -> Outcome:
        """The claim is supported by high-precision numerics but not proved."""
        return cls(Status.NUMERIC, method, detail)

    @classmethod
    def refuted(cls, method: str, counterexample: Mapping[_Key, object], detail: str = "") -> Outcome:
        """The claim is false; keys and values of ``counterexample`` are stored as strings."""
        witness = {str(name): str(value) for name, value in counterexample.items()}
        return cls(Status.REFUTED, method, detail, counterexample=witness)

    @classmethod
    def erratum(cls, printed_outcome: Outcome, corrected_outcome: Outcome, printed: str, corrected: str) -> Outcome:
        """A misprint: the printed form must be refuted, the corrected one proved or numerically supported.

        If either half does not come out that way the result is an ERROR naming the failing half(s).
        """
        method = f"printed: {printed_outcome.method} ; corrected: {corrected_outcome.method}"
        failures = []
        if printed_outcome.status is not Status.REFUTED:
            failures.append(f"printed form not refuted (status {printed_outcome.status.value})")
        if corrected_outcome.status not in (Status.PROVED, Status.NUMERIC):
            failures.append(f"corrected form not verified (status {corrected_outcome.status.value})")
        status = Status.ERROR if failures else Status.ERRATUM
        halves = [f"printed: {printed_outcome.detail}"] if printed_outcome.detail else []
        if corrected_outcome.detail:
            halves.append(f"corrected: {corrected_outcome.detail}")
        detail = "; ".join(failures + halves)
        return cls(status, method, detail, printed_outcome.counterexample, printed, corrected)

    @classmethod
    def error(cls, detail: str) -> Outcome:
        """The check could not reach a verdict (exception, bad return value, inconsistent erratum, timeout)."""
        return cls(Status.ERROR, "", detail)

    def to_json(self) -> dict:
        """The outcome's fields as JSON values."""
        return {
            "status": self.status.value,
            "method": self.method,
            "detail": self.detail,
            "counterexample": self.counterexample,
            "printed": self.printed,
            "corrected": self.corrected,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Outcome:
        """The inverse of :meth:`to_json`."""
        counterexample = data.get("counterexample")
        return cls(
            Status(data["status"]),
            str(data.get("method", "")),
            str(data.get("detail", "")),
            dict(counterexample) if counterexample else None,  # type: ignore[call-overload]
            str(data.get("printed", "")),
            str(data.get("corrected", "")),
        )

