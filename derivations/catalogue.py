r"""The catalogue of ``derivations.solve``: the reductions it tries, in order, and the methods that solve the
scalar equations they reach.

A *reduction* (:class:`Reduction`) turns one unit's derived flow into something solvable: a scalar ODE
(:class:`~derivations.reduction.ScalarReduction`, then solved by the first :class:`ScalarMethod` that applies) or
a trajectory it derives itself (:class:`Solved`, e.g. a linear system solved by a matrix exponential). Each one
says what it matches and records every step it derives as a checked ``Step``; where it does not match it yields
the reason instead, which ``Unsolved`` reports. ``solve`` tries ``REDUCTIONS`` in order and returns the first
candidate that a method solves and whose derivation checks; the reductions that hold for every start come before
those that hold only on an invariant set (``Reduction.general``), so that a general closed form is preferred.

Built-in order (``REDUCTIONS``):

1. ``one-state``: a unit with one state is its own scalar ODE;
2. ``shared-clock``: the field :math:`(gA + C)x` and its shared scalar clock (``reduction.clock_reduction``);
3. ``elimination``: uncoupled units with ``k`` states and ``k - 1`` conservation laws, all states but one
   eliminated through the laws, the square roots' signs those of the start (``elimination.Elimination``);
4. ``projective-linear``: an uncoupled field :math:`Kx + s(x)x` on the level set of the laws (:math:`K` constant,
   :math:`s` a quadratic form), solved by :math:`x = \kappa u`, :math:`u = e^{Kt}x_0`
   (``projective.linear_flow_solution``);
5. ``matrix-modes``: a matrix network :math:`W_2W_1x` (read off the field: :math:`\dot w_1 = (\Sigma_{xy} -
   \Sigma_{xx}P)w_2`, :math:`\dot w_2 = (\Sigma_{xy} - \Sigma_{xx}P)^\top w_1`) with whitened input, on the aligned
   invariant set, mode by mode by the ``deep_linear_whitened`` closed form (``derivations.modes``);
6. ``shared-clock-invariant-set``: the shared clock on the invariant sets where some eigen-coordinates vanish;
7. ``balanced-line``: all of a unit's states equal, when that line is invariant.

Methods (``METHODS``): ``riccati`` (constant coefficients, degree at most 2: the γ± factorization and partial
fractions of ``riccati.riccati_solution``), ``riccati-exponential-forcing`` (a quadratic plus ``c3 e^{kt}``, e.g.
the weight-decay clock from an unbalanced start: modified Bessel functions, ``forced_riccati.bessel_solution``),
``separable`` (autonomous and rational: ``separable.implicit_solution``),
``algebraic-separable`` (autonomous and algebraic, or rational where the real integrator would not terminate:
``t(y)`` as a checked quadrature, ``quadrature.quadrature_solution``).

A solution method returns a *clock* (:class:`ClockSolution`): an object that names the symbols it solves for
(``symbols``), the symbols its value depends on besides the time (``arguments``) and its recorded ``derivation``.
``numerics`` evaluates each kind of clock through the evaluator registered for its type.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

import sympy as sp

from . import modes
from .closed_form import ClockSolution
from .derivation import Derivation
from .elimination import eliminate
from .forced_riccati import bessel_solution, forcing_branch, match_forcing
from .model import Model
from .projective import linear_flow_solution
from .quadrature import quadrature_solution, radicands
from .reduction import (
    LinearStructure,
    ScalarReduction,
    balanced_line,
    clock_reduction,
    invariant_subsets,
    linear_structure,
    structure_step,
)
from .riccati import riccati_solution
from .separable import implicit_solution, unsplit_factor, unsupported

__all__ = [
    "KINDS",
    "KIND_TEXT",
    "METHODS",
    "REDUCTIONS",
    "AlgebraicSeparable",
    "BalancedLine",
    "Candidate",
    "ClockSolution",
    "Context",
    "Elimination",
    "ForcedRiccati",
    "MatrixModes",
    "OneState",
    "ProjectiveLinear",
    "RationalSeparable",
    "Reduction",
    "Riccati",
    "ScalarMethod",
    "SharedClock",
    "SharedClockOnInvariantSets",
    "Solved",
    "classify",
]

KINDS = ("riccati", "separable", "algebraic", "time-dependent", "unsupported")
KIND_TEXT = {
    "riccati": "polynomial of degree at most 2 with coefficients free of t",
    "separable": "autonomous and rational in its variable, not of degree at most 2",
    "algebraic": "autonomous and algebraic in its variable (square roots of polynomials in it), not rational",
    "time-dependent": "it has time-dependent coefficients",
    "unsupported": "not rational in its variable, nor algebraic (square roots of polynomials in it)",
}


def classify(rhs: sp.Expr, y: sp.Symbol, t: sp.Symbol) -> str:
    """The kind of the scalar ODE ``y' = rhs`` (one of ``KINDS``).

    Arguments:
        rhs: the right-hand side, an expression in ``y``, ``t`` and parameters.
        y: the unknown.
        t: the time.

    Returns:
        ``"riccati"``, ``"separable"``, ``"algebraic"``, ``"time-dependent"`` or ``"unsupported"`` (``KIND_TEXT``
        says what each means).
    """

    if t in rhs.free_symbols:
        return "time-dependent"
    if rhs.is_polynomial(y) and sp.degree(rhs, y) <= 2:
        return "riccati"
    if rhs.is_rational_function(y):
        return "separable"
    if radicands(rhs, y):
        return "algebraic"
    return "unsupported"


@dataclass(frozen=True)
class Context:
    """What every reduction sees: the model, the time ``t``, a fresh ``clock`` symbol, one unit's polynomial
    conservation laws (expressions in the unit's symbols, each proved conserved in the pipeline's step 2) and
    the model's tags."""

    model: Model
    t: sp.Symbol
    clock: sp.Symbol
    laws: tuple[sp.Expr, ...] = ()
    tags: Mapping[str, str] = field(default_factory=dict)

    @property
    def names(self) -> dict[str, sp.Symbol]:
        """``{"t": t, "clock": clock}``, the form ``reduction.clock_reduction`` takes."""
        return {"t": self.t, "clock": self.clock}

    def fresh(self, base: str, **assumptions: bool) -> sp.Symbol:
        """A symbol named ``base`` (or a variant of it) that is no state, parameter or quantity of the model.

        Arguments:
            base: the preferred name.
            **assumptions: SymPy assumptions (e.g. ``positive=True``).

        Returns:
            The new symbol.
        """
        model = self.model
        taken = {*model.state_names, *model.unit_param_names, *model.shared_param_names, *model.quantities}
        taken |= {str(self.t), str(self.clock)}
        name = next(n for n in (base, base.capitalize(), *(f"{base}_{k}" for k in range(2, 100))) if n not in taken)
        return sp.Symbol(name, **assumptions)


@dataclass(frozen=True)
class Solved:
    """A reduction that derived the unit's trajectory itself: the ``clocks`` (each symbol mapped to the solution
    that gives it; one solution may give several), the ``state`` (state name -> expression in the clocks, the
    time, the unit's initial values, the ``coordinates`` and ``sums``), and, as in ``ClosedForm``, the invariant
    set (``condition``), the divisors (``nonzero``), the coupling sums along the clocks (``along``) and the clocks'
    initial rates (``initial_rates``)."""

    clocks: Mapping[sp.Symbol, ClockSolution]
    state: dict[str, sp.Expr]
    derivation: Derivation
    description: str
    sums: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    condition: tuple[sp.Expr, ...] = ()
    nonzero: tuple[sp.Expr, ...] = ()
    coordinates: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    along: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    initial_rates: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)


Candidate = ScalarReduction | Solved


class Reduction(ABC):
    """One way to reduce a unit's flow: ``candidates`` yields what it derives (a scalar ODE or a solved
    trajectory), or a reason (a string) for each way it does not match. ``general`` is False for a reduction
    whose candidates hold only on an invariant set of starts."""

    name: ClassVar[str]
    summary: ClassVar[str]
    general: ClassVar[bool] = True
    off_the_set: ClassVar[str] = ""
    """For a reduction that holds on an invariant set only (``general`` False): why a start off the set is not
    solved, given first in ``ClosedForm.general`` (the reasons of the other reductions follow)."""

    @abstractmethod
    def candidates(self, context: Context) -> Iterator[Candidate | str]:
        """What the reduction derives for ``context.model``, best first, or why it does not apply.

        Arguments:
            context: the model, the time, a fresh clock symbol and the unit's conservation laws.

        Returns:
            An iterator of candidates (``ScalarReduction`` or ``Solved``) and reasons (strings).
        """


class ScalarMethod(ABC):
    """One way to solve a scalar ODE ``y' = rhs`` reached by a reduction: ``applies`` says why not (None if it
    does), ``solve`` derives the clock."""

    name: ClassVar[str]
    summary: ClassVar[str]

    @abstractmethod
    def applies(self, reduction: ScalarReduction, context: Context) -> str | None:
        """None if this method solves ``reduction``'s equation, else the reason it does not."""

    @abstractmethod
    def solve(self, reduction: ScalarReduction, context: Context) -> ClockSolution:
        """The derived clock of ``reduction``'s equation (every step recorded and checked)."""


class OneState(Reduction):
    """A unit with one state: its field is the scalar ODE (the units must not couple through sums)."""

    name = "one-state"
    summary = "a unit with one state is its own scalar equation"

    def candidates(self, context: Context) -> Iterator[Candidate | str]:
        model = context.model
        if len(model.state_names) != 1:
            return
        (name,) = model.state_names
        y = model.symbol(name)
        field = model.unit_field[y]
        sums = {model.symbol(n) for n, q in model.quantities.items() if q.kind == "sum"}
        if field.free_symbols - {y} & sums:
            yield "one-state units coupled through sums"
            return
        yield ScalarReduction(
            y,
            field,
            model.init_symbol(name),
            {name: y},
            {},
            (),
            Derivation("one state"),
            f"the unit's one state {name}",
            False,
        )


class SharedClock(Reduction):
    """The field ``(g A + C) x`` and its shared clock, from every start (``reduction.clock_reduction``)."""

    name = "shared-clock"
    summary = "the field is (gA + C)x: one scalar clock shared by the units (Nam et al. 2025, App. H, eqs 77-87)"

    def candidates(self, context: Context) -> Iterator[Candidate | str]:
        if len(context.model.state_names) < 2:
            return
        structure = linear_structure(context.model)
        if isinstance(structure, str):
            yield structure
            return
        yield _with_structure(context, structure, ())


class ProjectiveLinear(Reduction):
    """An uncoupled unit field ``K x + s(x) x`` modulo the laws, solved by the projective substitution
    ``x = kappa u`` (``projective``; Kunin et al. 2024, the single neuron)."""

    name = "projective-linear"
    summary = "the field is K x + s(x) x on the laws' level set: x = kappa u, u = expm(K t) x_0"

    def candidates(self, context: Context) -> Iterator[Candidate | str]:
        if len(context.model.state_names) < 2:
            return
        model = context.model
        found = linear_flow_solution(model, context.laws, context.t, context.fresh)
        if isinstance(found, str):
            yield found
            return
        solution, decomposition = found
        yield Solved(
            clocks=dict.fromkeys(solution.symbols, solution),
            state={name: solution.kappa * u for name, u in zip(model.state_names, solution.u, strict=True)},
            derivation=solution.derivation,
            description="the field is K x + s(x) x on the laws' level set: x = kappa u, u = expm(K t) x_0, "
            "kappa = (1 - 2 J)^(-1/2), J the integral of s(u)",
            coordinates=dict(decomposition.constants),
        )


class SharedClockOnInvariantSets(Reduction):
    """The shared clock on the invariant sets where some eigen-coordinates vanish for every unit (e.g. weight decay
    from a balanced start), smallest sets first."""

    name = "shared-clock-invariant-set"
    summary = "the shared clock with some eigen-coordinates zero for every unit (an invariant set)"
    general = False

    def candidates(self, context: Context) -> Iterator[Candidate | str]:
        if len(context.model.state_names) < 2:
            return
        structure = linear_structure(context.model)
        if isinstance(structure, str):
            return
        for zero in invariant_subsets(context.model, structure):
            yield _with_structure(context, structure, zero)


class Elimination(Reduction):
    """Uncoupled units with ``k`` states and ``k - 1`` conservation laws even in the states to eliminate: all but one
    state eliminated through the laws, each a square root with the sign of its start (``elimination.eliminate``)."""

    name = "elimination"
    summary = "eliminate all but one state through the conservation laws (square roots with the start's signs)"

    def candidates(self, context: Context) -> Iterator[Candidate | str]:
        yield from eliminate(context.model, context.laws, context.names)


class MatrixModes(Reduction):
    """A matrix network :math:`W_2W_1x` with whitened input on the aligned set (``derivations.modes``): the field
    is recognised from its form, the aligned ansatz checked against it and each mode solved by the registered
    mode model. Silent for models whose sums are not products of two states."""

    name = "matrix-modes"
    summary = (
        "a matrix network W2 W1 x with whitened input, aligned start W1 = U A R^T, W2^T = V B R^T: one scalar flow "
        "per mode (Saxe et al. 2014), solved by deep_linear_whitened"
    )
    general = False
    off_the_set = (
        "off the aligned set the units' states have no closed form in this catalogue; for a lambda-balanced start "
        "(W2 W2^T - W1^T W1 = lambda I, Dominé et al. 2025) the stacked weights Q = [W1; W2^T] obey "
        "Q' = F Q - Q Q^T Q / 2, whose product Q Q^T solves a constant-coefficient matrix Riccati equation "
        "(closed, Dominé et al.'s QQ^T solution), but Q(t) = e^{Ft} Q0 G(t) with G G^T = M(t)^-1 "
        "leaves a rotation of the units that solves a time-ordered exponential (M and M' do not commute off the "
        "aligned set), so a unit's own state is not closed"
    )

    def candidates(self, context: Context) -> Iterator[Candidate | str]:
        if len(context.model.state_names) < 3 or not modes.has_product_sums(context.model):
            return
        for found in modes.candidates(context.model, context.fresh):
            if isinstance(found, str):
                yield found
                continue
            clock, state, along, derivation = found
            yield Solved(
                {symbol: clock for symbol in clock.symbols},
                state,
                derivation,
                f"aligned modes of the matrix network ({len(clock.s)} modes of {clock.mode_model})",
                along=along,
            )


class BalancedLine(Reduction):
    """All of a unit's states equal, when the flow preserves that line and the units do not couple."""

    name = "balanced-line"
    summary = "the balanced line (all states of a unit equal), when it is invariant"
    general = False

    def candidates(self, context: Context) -> Iterator[Candidate | str]:
        if len(context.model.state_names) < 2:
            return
        yield balanced_line(context.model, context.names)


def _with_structure(context: Context, structure: LinearStructure, zero: tuple[int, ...]) -> Candidate | str:
    """The clock reduction with the coordinates ``zero`` vanishing, its derivation opened by the field's form."""
    clock = clock_reduction(context.model, structure, zero, context.names)
    if isinstance(clock, str):
        return clock
    structure_step(context.model, structure, clock.derivation)
    return clock


class Riccati(ScalarMethod):
    """A constant-coefficient Riccati equation (degree at most 2, incl. linear and Bernoulli)."""

    name = "riccati"
    summary = "constant coefficients, degree at most 2: roots, γ± factorization, partial fractions, inversion"

    def applies(self, reduction: ScalarReduction, context: Context) -> str | None:
        kind = classify(reduction.rhs, reduction.y, context.t)
        return None if kind == "riccati" else f"the equation is {kind}: {KIND_TEXT[kind]}"

    def solve(self, reduction: ScalarReduction, context: Context) -> ClockSolution:
        # the sums' signs decide the sign of the discriminant, the branch of the method (``riccati._branch_step``)
        return riccati_solution(
            reduction.rhs, reduction.y, reduction.y0, context.t, tags=context.tags, signs=_sum_signs(reduction)
        )


class ForcedRiccati(ScalarMethod):
    """A Riccati equation with exponential forcing, ``y' = c2 y^2 + c1 y + c0 + c3 e^{k t}`` with ``c2 c3 <= 0``
    (decided from the signs of the sums' summands): linearized to a modified Bessel equation."""

    name = "riccati-exponential-forcing"
    summary = "a quadratic plus c3 e^{kt}: y = -phi'/(c2 phi), phi = e^{c1 t/2} (A I_nu(s) + B K_nu(s)), s ~ e^{kt/2}"

    def applies(self, reduction: ScalarReduction, context: Context) -> str | None:
        found = match_forcing(reduction.rhs, reduction.y, context.t)
        if isinstance(found, str):
            return f"not a Riccati equation with exponential forcing: {found}"
        branch = forcing_branch(found, _sum_signs(reduction))
        return None if branch == "modified" else branch

    def solve(self, reduction: ScalarReduction, context: Context) -> ClockSolution:
        return bessel_solution(
            reduction.rhs, reduction.y, reduction.y0, context.t, _sum_signs(reduction), tags=context.tags
        )


def _sum_signs(reduction: ScalarReduction) -> dict[sp.Symbol, sp.Symbol]:
    """Each sum over the units whose summand has a sign (by SymPy's assumptions) mapped to a symbol with it."""
    signs = {}
    for symbol, summand in reduction.sums.items():
        summand = sp.sympify(summand)
        if summand.is_nonnegative:
            signs[symbol] = sp.Symbol(str(symbol), nonnegative=True)
        elif summand.is_nonpositive:
            signs[symbol] = sp.Symbol(str(symbol), nonpositive=True)
    return signs


class RationalSeparable(ScalarMethod):
    """An autonomous equation rational in its variable: ``t(y)`` by partial fractions, inverted numerically."""

    name = "separable"
    summary = "autonomous and rational: t(y) by partial fractions and real integration, inverted numerically"

    def applies(self, reduction: ScalarReduction, context: Context) -> str | None:
        kind = classify(reduction.rhs, reduction.y, context.t)
        if kind != "separable":
            return f"the equation is {kind}: {KIND_TEXT[kind]}"
        # the separable engine says beforehand what it cannot integrate (a pole, a factor of degree > 2)
        reason = unsupported(reduction.rhs, reduction.y)
        if reason:
            return reason
        factor = unsplit_factor(reduction.rhs, reduction.y)
        if factor is not None:
            return f"the factor {factor} of degree >= 3 does not split over the parameters' real roots"
        return None

    def solve(self, reduction: ScalarReduction, context: Context) -> ClockSolution:
        tag = context.tags.get("separable", "")
        return implicit_solution(reduction.rhs, reduction.y, reduction.y0, context.t, tag)


class AlgebraicSeparable(ScalarMethod):
    r"""An autonomous equation algebraic in its variable (or rational, where ``separable`` does not apply): ``t(y)``
    as a checked quadrature, inverted numerically (``quadrature.quadrature_solution``, ``numerics.quadrature``)."""

    name = "algebraic-separable"
    summary = "autonomous and algebraic (square roots of polynomials): t(y) as a checked quadrature, inverted"

    def applies(self, reduction: ScalarReduction, context: Context) -> str | None:
        kind = classify(reduction.rhs, reduction.y, context.t)
        return None if kind in ("riccati", "separable", "algebraic") else f"the equation is {kind}: {KIND_TEXT[kind]}"

    def solve(self, reduction: ScalarReduction, context: Context) -> ClockSolution:
        tag = context.tags.get("quadrature", "")
        return quadrature_solution(reduction.rhs, reduction.y, reduction.y0, context.t, tag)


REDUCTIONS: tuple[Reduction, ...] = (
    OneState(),
    SharedClock(),
    Elimination(),
    ProjectiveLinear(),
    MatrixModes(),
    SharedClockOnInvariantSets(),
    BalancedLine(),
)
"""The reductions ``solve`` tries, in this order (module docstring)."""

METHODS: tuple[ScalarMethod, ...] = (Riccati(), ForcedRiccati(), RationalSeparable(), AlgebraicSeparable())
"""The methods for a scalar equation, tried in this order: the first that applies solves it."""
