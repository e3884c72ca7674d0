"""A recorded derivation: ordered steps, each a SymPy relation with its justification and its check.

``Derivation.check()`` re-verifies every step independently of how it was produced; ``Derivation.latex()``
renders the steps as an ``align`` block tagged with the paper's equation numbers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import sympy as sp

from .proof import Proof, prove_zero

__all__ = ["Derivation", "Step", "StepCheck"]


@dataclass(frozen=True)
class Step:
    """One line of a derivation.

    ``relation`` is what is displayed (usually an ``Eq``). ``residual`` must vanish for the step to hold;
    by default it is ``lhs - rhs`` of the relation. ``relations`` are polynomial side conditions (each = 0)
    and ``substitutions`` definitions applied before checking. ``verifier`` replaces the default check for
    steps that are not identities (e.g. an inequality proved by a sum-of-squares certificate).
    """

    relation: sp.Basic
    justification: str
    tag: str = ""
    residual: sp.Expr | None = None
    relations: tuple[sp.Expr, ...] = ()
    substitutions: Mapping[sp.Basic, sp.Expr] = field(default_factory=dict)
    evidence: Mapping[sp.Symbol, tuple[float, float]] | None = None
    verifier: Callable[[], Proof] | None = None

    def check(self, extra_relations: Iterable[sp.Expr] = (), extra_substitutions: Mapping | None = None) -> Proof:
        """Verify this step alone."""
        if self.verifier is not None:
            return self.verifier()
        residual = self.residual
        if residual is None:
            if not isinstance(self.relation, sp.Equality):
                raise ValueError(f"step {self.justification!r}: a non-equation needs a residual or verifier")
            residual = self.relation.lhs - self.relation.rhs
        substitutions = {**dict(extra_substitutions or {}), **dict(self.substitutions)}
        return prove_zero(
            residual,
            relations=(*self.relations, *extra_relations),
            substitutions=substitutions,
            evidence=self.evidence,
        )


@dataclass(frozen=True)
class StepCheck:
    """The result of re-checking one step."""

    index: int
    step: Step
    proof: Proof
    seconds: float


@dataclass
class Derivation:
    """An ordered list of checked steps under common assumptions.

    ``relations`` (polynomial side conditions such as ``D0**2 - (S**2 + Sigma0**2 - S0**2)``) and
    ``definitions`` (symbol → expression, e.g. ``gamma_plus``) are shared by every step's check.
    """

    title: str
    assumptions: tuple[str, ...] = ()
    relations: tuple[sp.Expr, ...] = ()
    definitions: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)

    def add(self, relation: sp.Basic, justification: str, tag: str = "", **kwargs: object) -> Step:
        """Append a step and return it."""
        step = Step(relation, justification, tag, **kwargs)  # type: ignore[arg-type]
        self.steps.append(step)
        return step

    def extend(self, other: Derivation) -> None:
        """Append the steps, relations and definitions of a sub-derivation (e.g. the Riccati engine's)."""
        self.steps.extend(other.steps)
        self.relations = (*self.relations, *other.relations)
        self.definitions.update(other.definitions)
        self.assumptions = (*self.assumptions, *(a for a in other.assumptions if a not in self.assumptions))

    def check(self) -> list[StepCheck]:
        """Re-verify every step; the list has one entry per step, in order."""
        results = []
        for index, step in enumerate(self.steps):
            start = time.perf_counter()
            proof = step.check(self.relations, self.definitions)
            results.append(StepCheck(index, step, proof, time.perf_counter() - start))
        return results

    def verified(self) -> bool:
        """True iff every step is proved exactly."""
        return all(c.proof.holds and c.proof.exact for c in self.check())

    def by_tag(self, tag: str) -> list[Step]:
        """The steps carrying a paper equation tag."""
        return [s for s in self.steps if s.tag == tag]

    def latex(self, symbol_names: Mapping[sp.Symbol, str] | None = None) -> str:
        """The steps as an ``align`` environment, one row per step, tagged with the paper's equations."""
        rows = []
        for step in self.steps:
            row = _latex_relation(step.relation, symbol_names)
            tag = f"\\tag{{{step.tag}}}" if step.tag else "\\notag"
            rows.append(f"{row} {tag}\\\\\n&\\qquad\\text{{{_escape(step.justification)}}} \\notag")
        return "\\begin{align}\n" + "\\\\\n".join(rows) + "\n\\end{align}"


def _latex_relation(relation: sp.Basic, symbol_names: Mapping[sp.Symbol, str] | None) -> str:
    options = {"symbol_names": dict(symbol_names or {})}
    if isinstance(relation, sp.Equality):
        return f"{sp.latex(relation.lhs, **options)} &= {sp.latex(relation.rhs, **options)}"
    if isinstance(relation, sp.core.relational.Relational):
        op = {">=": "\\ge", "<=": "\\le", ">": ">", "<": "<"}[relation.rel_op]
        return f"{sp.latex(relation.lhs, **options)} &{op} {sp.latex(relation.rhs, **options)}"
    return "&" + sp.latex(relation, **options)


_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}",
    "^": r"\^{}",
    "~": r"\~{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
}


def _escape(text: str) -> str:
    """Escape LaTeX's special characters for text mode."""
    return "".join(_TEXT_ESCAPES.get(char, char) for char in text)
