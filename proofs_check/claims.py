"""Claims: a statement from a paper paired with the check that decides it.

A :class:`Claim` pairs a statement from a paper with a zero-argument ``check`` that decides it and returns an
:class:`Outcome`. Claims are made by :meth:`proofs_check.Paper.claim`, which derives the check from the statement;
the statement itself may be given as a zero-argument callable, so that declaring a claim computes nothing.
``Citation``, ``Outcome`` and ``Status`` (:mod:`proofs_check.citation`, :mod:`proofs_check.outcome`) are importable
from here too; :class:`proofs_check.Registry` is in :mod:`proofs_check.registry`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from proofs_check.citation import Citation
from proofs_check.outcome import Outcome, Status
from proofs_check.rendering import Notation, claim_latex

__all__ = ["Citation", "Claim", "Outcome", "Status", "section"]


def section(claim_id: str) -> str:
    """The section of a claim id, its first two dot-separated parts: ``"kunin2025.kappa3.jump_times"`` →
    ``"kunin2025.kappa3"``."""
    return ".".join(claim_id.split(".")[:2])


class Claim:
    """One checkable statement of a paper.

    ``statement`` (and ``corrected``, the right form of a misprinted statement) is a SymPy object, a string, or a
    zero-argument callable returning one; a callable is called once, on first use, and its result passed to
    ``validate`` (which raises ValueError naming the claim on bad use). ``paper`` supplies the notation that
    displays the statement. ``shared_work`` names the section (e.g. ``"xu_ziyin2025.phase"``) whose cached
    computations the check reuses, so that one worker runs both (:attr:`work_group`); by default a claim shares
    the work of its own section only.
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
        paper: Notation | None = None,
        validate: Callable[[Claim, object], object] | None = None,
        shared_work: str = "",
    ) -> None:
        if not isinstance(id, str) or not id or id != id.strip():
            raise ValueError(f"claim id must be a non-empty string without surrounding whitespace: {id!r}")
        if not callable(check):
            raise TypeError(f"check of claim {id!r} is not callable")
        if not isinstance(shared_work, str) or shared_work != shared_work.strip() or " " in shared_work:
            raise ValueError(f"shared_work of claim {id!r} must be a section such as 'paper.section': {shared_work!r}")
        self.id = id
        self.citation = citation
        self.check = check
        self.assumptions = tuple(assumptions)
        self.paper = paper
        self.shared_work = shared_work
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

    @property
    def work_group(self) -> str:
        """The group whose worker runs this claim (:func:`proofs_check.run_claims`): the section whose work it shares
        (``shared_work``), else its own :func:`section`."""
        return self.shared_work or section(self.id)

    def latex(self) -> str:
        """This claim as a LaTeX paragraph, displayed through the paper's notation.

        Returns:
            The paragraph: id, citation and assumptions, then its statement (and the corrected form of an erratum).

        Raises:
            ValueError, TypeError: a statement (or corrected form) given as a callable, built here on first use, is
                not usable (from ``validate``, naming the claim).
        """
        return claim_latex(self)

    def __repr__(self) -> str:
        return f"Claim({self.id!r})"
