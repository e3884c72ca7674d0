"""What a check returns: the :class:`Status` of a claim and the :class:`Outcome` that carries it.

The data types every deciding module (:mod:`proofs_check.statement_checks`, :mod:`proofs_check.z3_checks`,
:mod:`proofs_check.checkers`, the papers' own checks) produces; they depend on nothing else of the package.

An outcome names the *routes* that decided it (:data:`ROUTES`), recorded by the deciding function when it decides,
and whether it is *self-referential*: a re-check of the package's own derivation steps rather than of a statement
made independently of them.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

__all__ = [
    "COUNTEREXAMPLE",
    "DERIVATION_STEPS",
    "FREE_ALGEBRA",
    "NUMERIC_EXPERIMENT",
    "NUMERIC_FLOAT64",
    "NUMERIC_GD",
    "NUMERIC_MPMATH_30",
    "PAPER_CHECK",
    "ROUTES",
    "SYMPY_EQ",
    "Z3",
    "Outcome",
    "Status",
]

SYMPY_EQ = "sympy-eq"
COUNTEREXAMPLE = "counterexample-30"
Z3 = "z3"
DERIVATION_STEPS = "derivation-steps"
FREE_ALGEBRA = "free-algebra"
NUMERIC_MPMATH_30 = "numeric-mpmath-30"
NUMERIC_FLOAT64 = "numeric-float64"
NUMERIC_GD = "numeric-gd"
NUMERIC_EXPERIMENT = "numeric-experiment"
PAPER_CHECK = "paper-check"
ROUTES: dict[str, str] = {
    SYMPY_EQ: "an exact proof that lhs - rhs vanishes (derivations.proof.prove_zero; for an error: it did not close)",
    COUNTEREXAMPLE: "a sampled 30-digit point where the two sides of an Eq differ (for an error: none was found)",
    Z3: "z3 over the reals: the negation unsat (proved), a model (refuted), or unknown (error)",
    DERIVATION_STEPS: "the package's own derivation steps re-checked exactly (self-referential)",
    FREE_ALGEBRA: "matrix-calculus residuals expanded in the free algebra",
    NUMERIC_MPMATH_30: "30-digit numerics: a closed form or flow in mpmath against a 30-digit integration",
    NUMERIC_FLOAT64: "the float64 kernel against a 30-digit reference, within its conditioning allowance",
    NUMERIC_GD: "gradient descent converging to the flow as the learning rate halves",
    NUMERIC_EXPERIMENT: "a numeric experiment's measurement within its tolerance (its measure names no finer route)",
    PAPER_CHECK: "the claim's own check= function, which names no route",
}
"""Every route an outcome may name, with what it means."""

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
    routes: tuple[str, ...] = ()
    self_referential: bool = False

    def __post_init__(self) -> None:
        unknown = [r for r in self.routes if r not in ROUTES]
        if not isinstance(self.routes, tuple) or unknown:
            raise ValueError(f"Outcome routes must be a tuple of names among {sorted(ROUTES)}, got {self.routes!r}")

    @classmethod
    def proved(
        cls, method: str, detail: str = "", *, routes: Iterable[str] = (), self_referential: bool = False
    ) -> Outcome:
        """The claim holds exactly (symbolic or exact-arithmetic argument), by ``routes`` (:data:`ROUTES`);
        ``self_referential`` if it re-checks the package's own derivation steps."""
        return cls(Status.PROVED, method, detail, routes=_routes(routes), self_referential=self_referential)

    @classmethod
    def numeric(cls, method: str, detail: str = "", *, routes: Iterable[str] = ()) -> Outcome:
        """The claim is supported by high-precision numerics but not proved, by ``routes``."""
        return cls(Status.NUMERIC, method, detail, routes=_routes(routes))

    @classmethod
    def refuted(
        cls,
        method: str,
        counterexample: Mapping[_Key, object],
        detail: str = "",
        *,
        routes: Iterable[str] = (),
        self_referential: bool = False,
    ) -> Outcome:
        """The claim is false, by ``routes``; keys and values of ``counterexample`` are stored as strings."""
        witness = {str(name): str(value) for name, value in counterexample.items()}
        return cls(Status.REFUTED, method, detail, witness, routes=_routes(routes), self_referential=self_referential)

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
        routes = _routes([*printed_outcome.routes, *corrected_outcome.routes])
        referential = printed_outcome.self_referential or corrected_outcome.self_referential
        return cls(status, method, detail, printed_outcome.counterexample, printed, corrected, routes, referential)

    @classmethod
    def error(cls, detail: str, *, routes: Iterable[str] = ()) -> Outcome:
        """The check could not reach a verdict (exception, bad return value, inconsistent erratum, timeout);
        ``routes`` are those that ran and could not decide."""
        return cls(Status.ERROR, "", detail, routes=_routes(routes))

    def with_routes(self, routes: Iterable[str], self_referential: bool = False) -> Outcome:
        """This outcome with more routes.

        Arguments:
            routes: route names of :data:`ROUTES`, added after the outcome's own (in order, once each).
            self_referential: whether the added routes re-check the package's own derivation steps.

        Returns:
            A new outcome, self-referential if this one was or ``self_referential`` is.

        Raises:
            ValueError: a route is not one of :data:`ROUTES`.
        """
        return replace(
            self, routes=_routes([*self.routes, *routes]), self_referential=self.self_referential or self_referential
        )

    def to_json(self) -> dict:
        """The outcome's fields as JSON values.

        Returns:
            A dict of the fields by name: ``status`` as its value string, ``routes`` as a list (:meth:`from_json`
            reads it back).
        """
        return {
            "status": self.status.value,
            "method": self.method,
            "detail": self.detail,
            "counterexample": self.counterexample,
            "printed": self.printed,
            "corrected": self.corrected,
            "routes": list(self.routes),
            "self_referential": self.self_referential,
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
            tuple(str(r) for r in data.get("routes", ())),  # type: ignore[attr-defined]
            bool(data.get("self_referential", False)),
        )


def _routes(routes: Iterable[str]) -> tuple[str, ...]:
    """``routes`` in order, each once."""
    return tuple(dict.fromkeys(routes))
