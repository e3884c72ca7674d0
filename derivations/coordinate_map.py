r"""Coordinate maps between models: push-forward of vector fields, verified exactly, and pull-back of
closed forms.

A map sends one unit's state of a *source* model to one unit's state of a *target* model
(:math:`y = \phi(x)`, linear per unit), the source parameters to the target's, and rescales time
(:math:`t_{\rm target} = c\, t_{\rm source}`). It is a conjugacy of the flows when

.. math:: D\phi(x)\, F_{\rm source}(x) = c\; F_{\rm target}(\phi(x)),

with the target's sums expressed through the source's (``sums``); ``verify`` proves both the sum relations
(summand by summand, so for every width) and this identity. A verified map carries the target's closed
form back to the source: that is how one derivation serves several parametrisations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from .closed_form import ClosedForm
from .derivation import Derivation
from .model import Model
from .riccati import riccati_solution

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

    def inverse_state(self) -> dict[str, sp.Expr]:
        """Source state name → expression in the target's unit symbols (the map solved per unit)."""
        unknowns = [self.source.symbol(n) for n in self.source.state_names]
        # the target's symbols may share names with the source's (u -> u): solve in placeholders
        placeholders = {n: sp.Dummy(n) for n in self.state}
        equations = [sp.Eq(placeholders[n], e) for n, e in self.state.items()]
        solved = sp.solve(equations, unknowns, dict=True)
        if len(solved) != 1:
            raise ValueError(f"the state map is not invertible per unit: {solved}")
        back = {placeholders[n]: self.target.symbol(n) for n in self.state}
        return {str(k): v.xreplace(back) for k, v in solved[0].items()}

    def pullback(self, cf: ClosedForm) -> ClosedForm:
        """The source model's closed form obtained from the target's (``cf``) through this map."""
        src, tgt = self.source, self.target
        init_of_source = {src.symbol(n): src.init_symbol(n) for n in src.state_names}
        init_map = {tgt.init_symbol(n): e.xreplace(init_of_source) for n, e in self.state.items()}
        param_map = {tgt.symbol(n): e for n, e in self.params.items()}
        substitute = {**init_map, **param_map}
        t = cf.t
        sums = {s: e.xreplace(substitute) for s, e in cf.sums.items()}
        riccati = {}
        derivation = self.derivation()
        derivation.title = f"{src.title}: closed form by pull-back from {tgt.title}"
        taken = {*src.state_names, *src.unit_param_names, *src.shared_param_names, *src.quantities}
        renamed = {}
        for g, sol in cf.riccati.items():
            # a Riccati variable must not share its name with a source symbol (e.g. the clock gamma and an
            # output scale gamma): lambdify and xreplace identify symbols by name
            new = sp.Symbol(f"{g}_clock", **g.assumptions0) if str(g) in taken else g
            renamed[g] = new
            coefficients = [
                self.time_scale * sp.sympify(c, strict=True).xreplace(substitute) for c in (sol.c2, sol.c1, sol.c0)
            ]
            riccati[new] = riccati_solution(
                *coefficients, sp.sympify(sol.y0, strict=True).xreplace(substitute), t, name=str(new), branch=sol.branch
            )
            derivation.extend(riccati[new].derivation)
        inverse = self.inverse_state()
        target_at_t = {
            tgt.symbol(n): e.xreplace(renamed).xreplace(substitute).subs(t, self.time_scale * t)
            for n, e in cf.state.items()
        }
        state = {n: e.xreplace(param_map).xreplace(target_at_t) for n, e in inverse.items()}
        notes = (*cf.notes, *self.notes, f"pulled back from {tgt.name} with time scale {self.time_scale}")
        return ClosedForm(
            src.name, t, {n: src.init_symbol(n) for n in src.state_names}, sums, riccati, state, derivation, notes
        )
