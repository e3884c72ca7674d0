"""Claims, their outcomes, and the registry that collects them.

A :class:`Claim` pairs a statement from a paper with a zero-argument ``check`` that decides it and returns
an :class:`Outcome`. Paper modules register their claims into the global :data:`REGISTRY` on import.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import sympy as sp

from derivations.naming import align_rows, latex, text_latex


class Status(str, enum.Enum):
    """Verdict of a check."""

    PROVED = "proved"
    NUMERIC = "numerically-supported"
    REFUTED = "refuted"
    ERRATUM = "erratum"
    ERROR = "error"


@dataclass(frozen=True)
class Citation:
    """Where a claim appears: ``paper`` is the registry key, ``reference`` the human-readable text."""

    paper: str
    reference: str
    section: str = ""
    equation: str = ""


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
    def refuted(cls, method: str, counterexample: Mapping[object, object], detail: str = "") -> Outcome:
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
        """The check could not reach a verdict (exception, bad return value, inconsistent erratum)."""
        return cls(Status.ERROR, "", detail)


@dataclass(frozen=True)
class Claim:
    """One checkable statement from a paper; ``statement`` is a SymPy object or a short string."""

    id: str
    citation: Citation
    statement: object
    check: Callable[[], Outcome]
    assumptions: tuple[str, ...] = ()
    title: str = ""

    def __post_init__(self) -> None:
        if not self.id or self.id != self.id.strip():
            raise ValueError(f"claim id must be non-empty without surrounding whitespace: {self.id!r}")
        if not callable(self.check):
            raise TypeError(f"check of claim {self.id!r} is not callable")

    def latex(self) -> str:
        """This claim as a LaTeX paragraph: id, title, citation and assumptions, then its statement, displayed
        through the papers' naming table if it is a SymPy object, quoted as typewriter text if it is a string."""
        lines = [f"\\paragraph{{\\texttt{{{text_latex(self.id)}}}}} {text_latex(self.title or self.id)}."]
        lines.append(f"\\emph{{Cited:}} {text_latex(self.citation.reference)}.")
        if self.assumptions:
            lines.append("\\emph{Assumptions:} " + "; ".join(text_latex(a) for a in self.assumptions) + ".")
        lines.append(statement_latex(self.statement))
        return "\n".join(lines)


def statement_latex(statement: object) -> str:
    """A claim statement as a display: SymPy relations as ``align*`` rows (broken when wide), other SymPy
    objects as a ``displaymath``, anything else as quoted typewriter text."""
    if isinstance(statement, sp.Basic):
        if isinstance(statement, sp.core.relational.Relational):
            return "\\begin{align*}\n" + " \\\\\n".join(align_rows(statement)) + "\n\\end{align*}"
        return f"\\[ {latex(statement)} \\]"
    # ragged right: typewriter spaces do not stretch, so a justified line would overflow
    return f"\\begin{{quote}}\\raggedright\\texttt{{{text_latex(str(statement))}}}\\end{{quote}}"


class Registry:
    """Ordered collection of claims with unique ids."""

    def __init__(self) -> None:
        self._claims: dict[str, Claim] = {}

    def register(self, claim: Claim) -> Claim:
        """Add ``claim``; raises ValueError if its id is already registered."""
        if claim.id in self._claims:
            raise ValueError(f"duplicate claim id {claim.id!r}")
        self._claims[claim.id] = claim
        return claim

    def claims(self, paper: str | None = None) -> list[Claim]:
        """Claims in registration order, optionally only those of ``paper`` (ValueError if unknown)."""
        if paper is None:
            return list(self._claims.values())
        if paper not in self.papers():
            known = ", ".join(self.papers()) or "none"
            raise ValueError(f"unknown paper {paper!r}; known papers: {known}")
        return [claim for claim in self._claims.values() if claim.citation.paper == paper]

    def papers(self) -> list[str]:
        """Paper keys in order of their first registered claim."""
        return list(dict.fromkeys(claim.citation.paper for claim in self._claims.values()))

    def __len__(self) -> int:
        return len(self._claims)


REGISTRY = Registry()


def register(claim: Claim) -> Claim:
    """Register ``claim`` in the global :data:`REGISTRY` and return it."""
    return REGISTRY.register(claim)
