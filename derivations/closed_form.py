"""The closed-form solution of a model, in the per-unit form the numerics evaluate at any width."""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from .derivation import Derivation
from .riccati import RiccatiSolution

__all__ = ["ClosedForm"]


@dataclass(frozen=True)
class ClosedForm:
    """Closed-form trajectories of one generic unit.

    Evaluation order: ``sums`` (symbol → per-unit summand in the unit's initial values and parameters,
    summed over all units), then ``riccati`` (symbol → solution whose coefficients may involve the sums, the
    unit's symbols and shared parameters), then ``state`` (state name → expression of one unit at time
    ``t`` in the initial values, sums, Riccati symbols and parameters).
    ``derivation`` records how it was obtained; ``notes`` state conventions and degenerate cases.
    """

    model: str
    t: sp.Symbol
    init: dict[str, sp.Symbol]
    sums: dict[sp.Symbol, sp.Expr]
    riccati: dict[sp.Symbol, RiccatiSolution]
    state: dict[str, sp.Expr]
    derivation: Derivation
    notes: tuple[str, ...] = field(default_factory=tuple)

    def explicit(self) -> dict[str, sp.Expr]:
        """The state with every Riccati symbol replaced by its solution (sums kept as symbols)."""
        solutions = {g: sol.solution for g, sol in self.riccati.items()}
        return {name: expr.xreplace(solutions) for name, expr in self.state.items()}
