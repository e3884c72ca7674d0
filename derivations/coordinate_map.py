r"""Coordinate maps between models: push-forward of vector fields, verified exactly.

A map sends one unit's state of a *source* model to one unit's state of a *target* model
(:math:`y = \phi(x)`, linear per unit), the source parameters to the target's, and rescales time
(:math:`t_{\rm target} = c\, t_{\rm source}`). It is a conjugacy of the flows when

.. math:: D\phi(x)\, F_{\rm source}(x) = c\; F_{\rm target}(\phi(x)),

with the target's sums expressed through the source's (``sums``); ``derivation`` proves both the sum relations
(summand by summand, so for every width) and this identity: the models are then the same dynamics in other
coordinates (each model's closed form is derived from its own flow by ``derivations.solve``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from .derivation import Derivation
from .model import Model

__all__ = ["CoordinateMap"]


@dataclass(frozen=True)
class CoordinateMap:
    """``state``: target state name → expression in the source's unit symbols and parameters;
    ``params``: target parameter name → expression in the source's parameters; ``sums``: target sum name →
    expression in the source's sum symbols and parameters; ``time_scale``: ``c`` with ``t_target = c t``."""

    source: Model
    target: Model
    state: dict[str, sp.Expr]
    params: dict[str, sp.Expr]
    sums: dict[str, sp.Expr]
    time_scale: sp.Expr = sp.S.One
    description: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    def _target_symbols(self) -> dict[sp.Symbol, sp.Expr]:
        t = self.target
        mapping = {t.symbol(n): e for n, e in self.state.items()}
        mapping.update({t.symbol(n): e for n, e in self.params.items()})
        mapping.update({t.symbol(n): e for n, e in self.sums.items()})
        return mapping

    def derivation(self) -> Derivation:
        """The recorded check: sum relations and the push-forward identity, one step per component."""
        d = Derivation(f"{self.source.title} -> {self.target.title}: {self.description}")
        source_sums = {self.source.symbol(n): q.expr for n, q in self.source.quantities.items() if q.kind == "sum"}
        target_params = {self.target.symbol(n): e for n, e in self.params.items()}
        target_state = {self.target.symbol(n): e for n, e in self.state.items()}
        for name, expr in self.sums.items():
            summand = self.target.quantities[name].expr.xreplace({**target_state, **target_params})
            d.add(
                sp.Eq(self.target.symbol(name), expr),
                f"the target's sum {name}, summand by summand (so for every width)",
                residual=summand - expr.xreplace(source_sums),
            )
        mapping = self._target_symbols()
        for name, expr in self.state.items():
            pushed = self.source.unit_time_derivative(expr)
            target_field = self.target.unit_field[self.target.symbol(name)].xreplace(mapping)
            d.add(
                sp.Eq(sp.Derivative(sp.Function(name)(sp.Symbol("t")), sp.Symbol("t")), self.time_scale * target_field),
                f"push-forward of the source flow equals the target flow for {name} (time scale {self.time_scale})",
                residual=pushed - self.time_scale * target_field,
            )
        return d
