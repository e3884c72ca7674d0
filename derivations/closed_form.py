"""What ``derivations.solve`` returns: a closed form in the per-unit form the numerics evaluate at any width, or
the precise reason why the pipeline stopped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import sympy as sp

from .derivation import Derivation
from .prose import plain_math
from .quadrature import QuadratureSolution
from .riccati import RiccatiSolution
from .separable import ImplicitSolution

__all__ = ["Clock", "ClockSolution", "ClosedForm", "Unsolved"]

Clock = RiccatiSolution | ImplicitSolution
"""The clocks of the built-in methods; a catalogue method may return any ``ClockSolution``."""


@runtime_checkable
class ClockSolution(Protocol):
    """What a solution method returns: the solution of a clock (one symbol, as a scalar Riccati or implicit
    solution, or several, as a linear system solved by a matrix exponential)."""

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        """The clock symbols whose values this solution gives (the state is written in them)."""
        ...

    @property
    def arguments(self) -> frozenset[sp.Symbol]:
        """The symbols its value depends on besides the time (initial values, sums, parameters)."""
        ...

    @property
    def derivation(self) -> Derivation:
        """Its recorded, checked steps."""
        ...


@dataclass(frozen=True)
class Unsolved:
    """No closed form: ``step`` is the pipeline step that stopped and ``reason`` says why, as mathematics (the
    expressions it quotes with ``^`` and juxtaposed products, :func:`derivations.prose.plain_math`); ``derivation``
    holds the checked steps reached so far (e.g. the flow, the conservation laws, a reduction whose ODE could not be
    solved)."""

    model: str
    step: str
    reason: str
    derivation: Derivation

    def __post_init__(self) -> None:
        # the reasons quote SymPy expressions and lists (g = V*a*gamma**2*w, the sums ['V']): read as mathematics
        object.__setattr__(self, "reason", plain_math(self.reason))

    def __str__(self) -> str:
        return f"{self.model}: no closed form ({self.step}): {self.reason}"


@dataclass(frozen=True)
class ClosedForm:
    """Closed-form trajectories of one generic unit.

    Evaluation order: ``coordinates`` (symbol → per-unit expression in the unit's initial values, e.g. the start
    :math:`a_0 + b_0` of an eigen-coordinate), ``sums`` (symbol → per-unit summand in the unit's initial values and
    parameters, summed over all units), then ``clocks`` (symbol → the solution of its scalar ODE, whose
    coefficients may involve the sums, the unit's initial values and the parameters), then ``state`` (state name →
    expression of one unit at time ``t`` in the coordinates, initial values, sums, clocks and parameters).

    ``condition`` lists per-unit expressions in the initial values that must vanish for every unit (the invariant
    set on which the closed form holds; empty for every start); ``general`` then says why the pipeline could not
    solve from every start. ``nonzero`` lists parameter expressions the derivation divides by (e.g. the clock's
    eigenvalue); the closed form holds where none vanishes. ``along`` gives each sum through which the units couple
    along the clock (e.g. theta = theta[+1] gamma + theta[-1] / gamma), so that quantities need no
    sum over the units. ``initial_rates`` gives each clock's rate at the start from the initial values themselves
    (no cancellation between the clock equation's coefficients); each is a checked step of ``derivation`` (key
    ``"returned"``: the clock equation at the start and t = 0, with the sums' linear relations). ``derivation``
    records how the closed form was obtained, every step checked; ``reduction`` and ``method`` name the catalogue's
    reduction and scalar method that gave it (``derivations.catalogue``; ``method`` is empty when the reduction
    solved the flow itself).
    """

    model: str
    t: sp.Symbol
    init: dict[str, sp.Symbol]
    sums: dict[sp.Symbol, sp.Expr]
    clocks: dict[sp.Symbol, ClockSolution]
    state: dict[str, sp.Expr]
    derivation: Derivation
    notes: tuple[str, ...] = ()
    condition: tuple[sp.Expr, ...] = ()
    general: Unsolved | None = None
    nonzero: tuple[sp.Expr, ...] = ()
    coordinates: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    along: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    initial_rates: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    reduction: str = ""
    method: str = ""

    @property
    def riccati(self) -> dict[sp.Symbol, RiccatiSolution]:
        """The clocks solved by the Riccati engine."""
        return {g: c for g, c in self.clocks.items() if isinstance(c, RiccatiSolution)}

    def implicit_clocks(self) -> dict[sp.Symbol, sp.Eq]:
        r"""The clocks given implicitly (a separable or an algebraic equation :math:`\dot y = G(y)`), each as the
        integral its method computed, :math:`t = \int_{y_0}^{y} dy'/G(y')` (``integral`` of
        :class:`~derivations.separable.ImplicitSolution` and :class:`~derivations.quadrature.QuadratureSolution`),
        with this closed form's time.

        Returns:
            clock symbol -> ``Eq(t, Integral(...))``, its upper limit the clock symbol; empty if every clock is
            explicit.
        """
        return {
            y: sp.Eq(self.t, clock.integral.rhs, evaluate=False)
            for y, clock in self.clocks.items()
            if isinstance(clock, (ImplicitSolution, QuadratureSolution))
        }

    def in_initial_values(self) -> dict[str, sp.Expr]:
        """The state with the per-unit coordinates written in the initial values (clocks and sums kept).

        Returns:
            State name -> its expression of ``state`` with each symbol of ``coordinates`` replaced by its per-unit
            expression in the initial values.
        """
        return {name: expr.xreplace(self.coordinates) for name, expr in self.state.items()}

    def explicit(self) -> dict[str, sp.Expr]:
        """The state in the initial values with every Riccati clock replaced by its solution (sums kept).

        Returns:
            State name -> its expression of :meth:`in_initial_values` with each clock of :attr:`riccati` replaced
            by its ``RiccatiSolution.solution``; other clocks (implicit, matrix) are kept as symbols.
        """
        solutions = {g: sol.solution for g, sol in self.riccati.items()}
        return {name: expr.xreplace(solutions) for name, expr in self.in_initial_values().items()}
