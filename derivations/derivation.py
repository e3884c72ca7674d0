"""A recorded derivation: ordered steps, each a SymPy relation with its justification and its check.

``Derivation.check()`` re-verifies every step independently of how it was produced; ``Derivation.latex()``
renders the steps as an ``align`` block tagged with the paper's equation numbers. A step may be one of the generic
steps of a method stated once in a section of its own (``Step.method``, a :class:`MethodReference`, e.g. the Riccati
method of ``derivations.riccati``); ``Derivation.latex(mode="condensed")`` then shows each run of such steps as one
line that refers to that section, so that a model's derivation shows only what is its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

import sympy as sp

from .naming import align_rows
from .proof import Proof, prove_zero
from .prose import text_latex

__all__ = ["LATEX_MODES", "Derivation", "MethodReference", "Step", "StepCheck"]

LATEX_MODES = ("full", "condensed")
"""The renderings of :meth:`Derivation.latex`: every step, or the generic steps of a method as a reference to it."""


@dataclass(frozen=True, eq=False)
class MethodReference:
    """A generic method whose steps are derived once, for symbolic coefficients, in a section of their own.

    ``name`` is how prose names it ("the Riccati method"), ``label`` the LaTeX label of its section, ``section``
    builds that section (its LaTeX, the ``\\section`` carrying ``label``) and ``topics`` maps the key of each of its
    generic steps to what the step does ("partial fractions"), for the line that stands for a run of them.
    """

    name: str
    label: str
    section: Callable[[], str]
    topics: Mapping[str, str] = field(default_factory=dict)


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
    method: MethodReference | None = None

    def __post_init__(self) -> None:
        # a relation SymPy decided on construction (Eq(q(y0), 0) -> True) would be displayed as "True": the step
        # must show the relation itself, built with evaluate=False
        if isinstance(self.relation, (bool, sp.logic.boolalg.BooleanAtom)):
            raise TypeError(
                f"step {self.justification!r}: the relation is the truth value {self.relation}, not a relation; "
                "build it unevaluated (sp.Eq(lhs, rhs, evaluate=False)) so that the display shows what was decided"
            )

    def check(self, extra_relations: Iterable[sp.Expr] = (), extra_substitutions: Mapping | None = None) -> Proof:
        """Verify this step alone.

        Arguments:
            extra_relations: polynomial side conditions (each = 0) added to the step's own ``relations`` (the
                derivation's shared ones, :meth:`Derivation.check`).
            extra_substitutions: definitions (symbol -> expression) applied before checking; the step's own
                ``substitutions`` take precedence on a common key.

        Returns:
            The :class:`~derivations.proof.Proof` from the step's ``verifier`` if it has one, else from
            :func:`~derivations.proof.prove_zero` of its residual (``lhs - rhs`` of the relation by default).

        Raises:
            ValueError: the step has neither a ``residual`` nor a ``verifier`` and its relation is not an equation
                (``sp.Equality``): there is nothing to check; a relation or substitution that is not a SymPy object
                (``sympy.SympifyError``, a ``ValueError``, from :func:`~derivations.proof.prove_zero`).
        """
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
        """Append the steps, relations and definitions of a sub-derivation (e.g. the Riccati engine's).

        Arguments:
            other: the sub-derivation; its steps are appended in order, its relations after this one's, its
                definitions override this one's on a common symbol, and its assumptions not already here are
                added. ``other`` itself is unchanged.
        """
        self.steps.extend(other.steps)
        self.relations = (*self.relations, *other.relations)
        self.definitions.update(other.definitions)
        self.assumptions = (*self.assumptions, *(a for a in other.assumptions if a not in self.assumptions))

    def check(self) -> list[StepCheck]:
        """Re-verify every step; the list has one entry per step, in order.

        Each step is checked by :meth:`Step.check` with this derivation's ``relations`` and ``definitions``.

        Returns:
            One :class:`StepCheck` per step, in order: its 0-based index, the step, its proof and the seconds the
            check took.

        Raises:
            ValueError: a step is not checkable or its check refuses an input (:meth:`Step.check`).
        """
        results = []
        for index, step in enumerate(self.steps):
            start = time.perf_counter()
            proof = step.check(self.relations, self.definitions)
            results.append(StepCheck(index, step, proof, time.perf_counter() - start))
        return results

    def verified(self) -> bool:
        """True iff every step is proved exactly.

        Returns:
            Whether every :class:`StepCheck` of :meth:`check` holds with an exact proof (numeric evidence does not
            count); True for a derivation without steps.

        Raises:
            ValueError: as :meth:`check`.
        """
        return all(c.proof.holds and c.proof.exact for c in self.check())

    def by_tag(self, tag: str) -> list[Step]:
        """The steps carrying a paper equation tag.

        Arguments:
            tag: the tag (e.g. ``"86–87"``), compared exactly with ``Step.tag``.

        Returns:
            The steps whose ``tag`` is ``tag``, in order (empty if none).
        """
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
        """The steps a pipeline recorded under ``key`` (e.g. ``"clock_ode"``), in order.

        Arguments:
            key: the step key, compared exactly with ``Step.key``.

        Returns:
            The steps whose ``key`` is ``key``, in order (empty if none).
        """
        return [s for s in self.steps if s.key == key]

    def methods(self) -> tuple[MethodReference, ...]:
        """The methods whose generic steps this derivation contains.

        Returns:
            Each :class:`MethodReference` of a step's ``method`` once, in order of first appearance.
        """
        return tuple(dict.fromkeys(s.method for s in self.steps if s.method is not None))

    def latex(
        self, symbol_names: Mapping[sp.Symbol, str] | None = None, budget: float = 72.0, mode: str = "full"
    ) -> str:
        r"""The steps as one ``align`` environment: each step is introduced by ``\intertext`` with its number
        and justification, and its rows are tagged with the paper's equation number (untagged: ``\notag``).

        Arguments:
            symbol_names: overrides of single entries of the naming table (``derivations.naming``) through which
                symbols are printed.
            budget: right-hand sides wider than this many characters are broken over several rows.
            mode: ``"full"`` (every step) or ``"condensed"``: each run of consecutive generic steps of a method
                (``Step.method``) is one line naming what they do and referring to the method's section
                (``\ref`` of ``MethodReference.label``), with their numbers and equation tags; the other steps are
                shown as in the full form, under the same numbers.

        Returns:
            The LaTeX of the ``align`` environment (a run of generic steps at the end follows it as a paragraph).

        Raises:
            ValueError: ``mode`` is not one of ``LATEX_MODES``.
        """
        if mode not in LATEX_MODES:
            raise ValueError(f"mode must be one of {LATEX_MODES}, got {mode!r}")
        rows: list[str] = []
        pending: list[str] = []  # the lines standing for runs of generic steps, printed before the next shown step
        numbered = list(enumerate(self.steps, start=1))
        index = 0
        while index < len(numbered):
            number, step = numbered[index]
            if mode == "condensed" and step.method is not None:
                run = [numbered[index]]
                while index + len(run) < len(numbered) and numbered[index + len(run)][1].method is step.method:
                    run.append(numbered[index + len(run)])
                pending.append(_generic_run(step.method, run))
                index += len(run)
                continue
            index += 1
            where = f" (eq. {text_latex(step.tag)})" if step.tag else ""
            intro = "".join(pending) + f"Step {number}{where}: {text_latex(step.justification)}."
            pending = []
            lines = align_rows(step.relation, budget, symbol_names)
            tag = f"\\tag{{{_tag_text(step.tag)}}}" if step.tag else "\\notag"
            rows.append(
                f"\\intertext{{\\small {intro}}}\n" + " \\notag\\\\\n".join([*lines[:-1], f"{lines[-1]} {tag}"])
            )
        block = "\\begin{align}\n" + "\\\\\n".join(rows) + "\n\\end{align}" if rows else ""
        trailing = f"\n{{\\small {''.join(pending)}}}\\par" if pending else ""
        return block + trailing


def _generic_run(method: MethodReference, run: list[tuple[int, Step]]) -> str:
    """The line standing for a run of generic steps of ``method`` (numbered as in the full form): their numbers,
    the equation tags they carry, what they do (``MethodReference.topics`` of their keys) and the section."""
    first, last = run[0][0], run[-1][0]
    numbers = f"Step {first}" if first == last else f"Steps {first}–{last}"
    tags = list(dict.fromkeys(s.tag for _, s in run if s.tag))
    where = f" (eq{'s' if len(tags) > 1 else ''}. {', '.join(_tag_text(t) for t in tags)})" if tags else ""
    topics = list(dict.fromkeys(method.topics.get(s.key, "") for _, s in run))
    what = ", ".join(text_latex(t) for t in topics if t) or "the generic steps"
    return (
        f"{numbers}{where}: {what} of {text_latex(method.name)} (Section~\\ref{{{method.label}}}), with these "
        "coefficients; each step checked, not repeated here. "
    )


def _tag_text(tag: str) -> str:
    """An equation tag as printed in the paper (e.g. ``86–87``): LaTeX's UTF-8 input reads the en dash itself,
    every other character goes through ``text_latex``."""
    return "".join(char if char == "–" else text_latex(char) for char in tag)
