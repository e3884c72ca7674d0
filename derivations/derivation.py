"""A recorded derivation: ordered steps, each a SymPy relation with its justification and its check.

``Derivation.check()`` re-verifies every step independently of how it was produced; ``Derivation.latex()``
renders the steps as an ``align`` block tagged with the paper's equation numbers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

import sympy as sp

from .naming import align_rows
from .proof import Proof, prove_zero
from .prose import text_latex

__all__ = ["Derivation", "Step", "StepCheck"]


@dataclass(frozen=True)
class Step:
    """One line of a derivation.

    ``relation`` is what is displayed (usually an ``Eq``). ``residual`` must vanish for the step to hold;
    by default it is ``lhs - rhs`` of the relation. ``relations`` are polynomial side conditions (each = 0)
    and ``substitutions`` definitions applied before checking. ``verifier`` replaces the default check for
    steps that are not identities (e.g. an inequality proved by a sum-of-squares certificate).

    Raises:
        TypeError: ``relation`` is a truth value (``True``/``False``: SymPy decided an ``Eq`` on construction);
            the step must display the relation itself, built with ``evaluate=False``.
    """

    relation: sp.Basic
    justification: str
    tag: str = ""
    residual: sp.Expr | None = None
    relations: tuple[sp.Expr, ...] = ()
    substitutions: Mapping[sp.Basic, sp.Expr] = field(default_factory=dict)
    evidence: Mapping[sp.Symbol, tuple[float, float]] | None = None
    verifier: Callable[[], Proof] | None = None
    key: str = ""

    def __post_init__(self) -> None:
        # a relation SymPy decided on construction (Eq(q(y0), 0) -> True) would be displayed as "True": the step
        # must show the relation itself, built with evaluate=False
        if isinstance(self.relation, (bool, sp.logic.boolalg.BooleanAtom)):
            raise TypeError(
                f"step {self.justification!r}: the relation is the truth value {self.relation}, not a relation; "
                "build it unevaluated (sp.Eq(lhs, rhs, evaluate=False)) so that the display shows what was decided"
            )

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
        """Append a step and return it.

        Arguments:
            relation: what the step displays (a relation, never a truth value).
            justification: why it holds, as prose.
            tag: the paper's equation number, if any.
            kwargs: the other fields of :class:`Step` (``residual``, ``verifier``, ``key``, …).

        Returns:
            The new step.

        Raises:
            TypeError: ``relation`` is ``True`` or ``False`` (see :class:`Step`).
        """
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

    def tagged(self, tags: Mapping[str, str]) -> Derivation:
        """A copy in which every step recorded under a key of ``tags`` carries that key's tag (e.g. a paper's
        equation number); the other steps keep theirs. The steps themselves are shared (they are immutable).

        Arguments:
            tags: step key (``Step.key``, e.g. ``"clock_ode"``) -> tag (e.g. ``"86–87"``).

        Returns:
            The tagged copy; this derivation is unchanged.

        Raises:
            TypeError: ``tags`` is not a mapping of strings to strings.
        """
        if not isinstance(tags, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tags.items()):
            raise TypeError(f"tags must be a mapping of step keys (str) to tags (str), got {tags!r}")
        steps = [replace(s, tag=tags[s.key]) if s.key and s.key in tags else s for s in self.steps]
        return Derivation(self.title, self.assumptions, self.relations, dict(self.definitions), steps)

    def by_key(self, key: str) -> list[Step]:
        """The steps a pipeline recorded under ``key`` (e.g. ``"clock_ode"``), in order."""
        return [s for s in self.steps if s.key == key]

    def latex(self, symbol_names: Mapping[sp.Symbol, str] | None = None, budget: float = 72.0) -> str:
        r"""The steps as one ``align`` environment: each step is introduced by ``\intertext`` with its number
        and justification, and its rows are tagged with the paper's equation number (untagged: ``\notag``).

        Symbols are printed through the naming table (``derivations.naming``), ``symbol_names`` overriding
        single entries; right-hand sides wider than ``budget`` characters are broken over several rows.
        """
        rows = []
        for number, step in enumerate(self.steps, start=1):
            where = f" (eq. {text_latex(step.tag)})" if step.tag else ""
            intro = f"\\intertext{{\\small Step {number}{where}: {text_latex(step.justification)}.}}"
            lines = align_rows(step.relation, budget, symbol_names)
            tag = f"\\tag{{{_tag_text(step.tag)}}}" if step.tag else "\\notag"
            rows.append(intro + "\n" + " \\notag\\\\\n".join([*lines[:-1], f"{lines[-1]} {tag}"]))
        return "\\begin{align}\n" + "\\\\\n".join(rows) + "\n\\end{align}"


def _tag_text(tag: str) -> str:
    """An equation tag as printed in the paper (e.g. ``86–87``): LaTeX's UTF-8 input reads the en dash itself,
    every other character goes through ``text_latex``."""
    return "".join(char if char == "–" else text_latex(char) for char in tag)
