"""Claims, their outcomes, and the registry of the papers whose claims are checked.

A :class:`Claim` pairs a statement from a paper with a zero-argument ``check`` that decides it and returns an
:class:`Outcome`. Claims are made by :meth:`proofs_check.Paper.claim`, which derives the check from the statement;
the statement itself may be given as a zero-argument callable, so that declaring a claim computes nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from proofs_check.paper import Paper

__all__ = ["Citation", "Claim", "Outcome", "Registry", "Status"]


class Status(str, enum.Enum):
    """Verdict of a check."""

    PROVED = "proved"
    NUMERIC = "numerically-supported"
    REFUTED = "refuted"
    ERRATUM = "erratum"
    ERROR = "error"


@dataclass(frozen=True)
class Citation:
    """Where a claim appears: ``paper`` is the paper's key, ``reference`` the human-readable text."""

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
    def refuted(cls, method: str, counterexample: Mapping[Any, object], detail: str = "") -> Outcome:
        """The claim is false; keys and values of ``counterexample`` are stored as strings."""
        # Mapping is invariant in its key type: Mapping[object, ...] would refuse a dict[str, str]
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


class Claim:
    """One checkable statement of a paper.

    ``statement`` (and ``corrected``, the right form of a misprinted statement) is a SymPy object, a string, or a
    zero-argument callable returning one; a callable is called once, on first use, and its result passed to
    ``validate`` (which raises ValueError naming the claim on bad use). ``paper`` supplies the notation that
    displays the statement.
    """

    def __init__(
        self,
        id: str,
        citation: Citation,
        statement: object,
        check: Callable[[], Outcome],
        assumptions: Iterable[object] = (),
        *,
        corrected: object = None,
        paper: Paper | None = None,
        validate: Callable[[Claim, object], object] | None = None,
    ) -> None:
        if not isinstance(id, str) or not id or id != id.strip():
            raise ValueError(f"claim id must be a non-empty string without surrounding whitespace: {id!r}")
        if not callable(check):
            raise TypeError(f"check of claim {id!r} is not callable")
        self.id = id
        self.citation = citation
        self.check = check
        self.assumptions = tuple(assumptions)
        self.paper = paper
        self._validate = validate
        self._given = {"statement": statement, "corrected": corrected}
        self._built: dict[str, object] = {}

    def _materialize(self, which: str) -> object:
        if which not in self._built:
            given = self._given[which]
            value = given() if callable(given) else given
            self._built[which] = self._validate(self, value) if self._validate and value is not None else value
        return self._built[which]

    @property
    def statement(self) -> object:
        """The statement (built on first use)."""
        return self._materialize("statement")

    @property
    def corrected(self) -> object:
        """The corrected form of a misprinted statement, or None."""
        return self._materialize("corrected")

    def latex(self) -> str:
        """This claim as a LaTeX paragraph: id, citation and assumptions, then its statement (and the corrected
        form of an erratum), displayed through the paper's notation."""
        from proofs_check.rendering import claim_latex

        return claim_latex(self)

    def __repr__(self) -> str:
        return f"Claim({self.id!r})"


class Registry:
    """Papers, in order, and their claims (ids unique across papers)."""

    def __init__(self, papers: Iterable[Paper] = ()) -> None:
        self._papers: dict[str, Paper] = {}
        for paper in papers:
            self.add(paper)

    def add(self, paper: Paper) -> Paper:
        """Add ``paper``; ValueError if its key is taken by another paper or one of its claim ids is taken."""
        known = self._papers.get(paper.key)
        if known is paper:
            return paper
        if known is not None:
            raise ValueError(f"duplicate paper key {paper.key!r}")
        taken = {c.id for p in self._papers.values() for c in p.claims()}
        clash = [c.id for c in paper.claims() if c.id in taken]
        if clash:
            raise ValueError(f"duplicate claim id {clash[0]!r} (paper {paper.key!r})")
        self._papers[paper.key] = paper
        return paper

    def claims(self, paper: str | None = None) -> list[Claim]:
        """Claims in declaration order, optionally only those of ``paper`` (ValueError if unknown)."""
        if paper is None:
            return [c for p in self._papers.values() for c in p.claims()]
        return self.paper(paper).claims()

    def paper(self, key: str) -> Paper:
        """The paper registered as ``key``; ValueError naming the known papers otherwise."""
        if key not in self._papers:
            known = ", ".join(self._papers) or "none"
            raise ValueError(f"unknown paper {key!r}; known papers: {known}")
        return self._papers[key]

    def papers(self) -> list[str]:
        """Paper keys in registration order."""
        return list(self._papers)

    def __len__(self) -> int:
        return sum(len(p.claims()) for p in self._papers.values())
