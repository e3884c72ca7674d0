r"""One ODE behind every model (spec models-nam2025.md §7): :math:`\dot s = r\sqrt{\ell^2 + 4s^2}\,(S - s)`.

For each model the mode variable :math:`s(t)` is built from the model's own derived closed form (the
per-unit trajectories in terms of the Riccati clocks, whose solutions the engine has checked against their
ODEs, so :math:`\dot s` follows by the chain rule), together with a manifestly non-negative expression
:math:`R(t)` (a sum of squares). The row holds iff both residuals

.. math:: \dot s - r\,R\,(S - s) \quad\text{and}\quad R^2 - (\ell^2 + 4s^2)

vanish identically; then :math:`R = \sqrt{\ell^2 + 4s^2}` because :math:`R \ge 0`. The linear model is the
row without a product (:math:`\dot\theta = \lambda(S - \theta)`, the limit :math:`\ell\to\infty` in time
:math:`\ell t`), with :math:`R \equiv 1` and no second residual.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from derivations import models
from derivations.closed_form import ClosedForm

__all__ = ["ModeRow", "unification_rows"]


@dataclass(frozen=True)
class ModeRow:
    """One row of the table: ``s`` and ``R`` as functions of ``t``, the rate ``r``, ``ell_squared`` and ``S``."""

    model: str
    mode: str
    s: sp.Expr
    R: sp.Expr
    rate: sp.Expr
    ell_squared: sp.Expr | None
    S: sp.Expr
    t: sp.Symbol
    imbalance: str
    clocks: dict[sp.Symbol, sp.Expr]

    def time_derivative(self, expr: sp.Expr) -> sp.Expr:
        """d/dt of an expression in ``t`` and the clocks, whose derivatives are their Riccati right-hand sides."""
        return sp.diff(expr, self.t) + sum(sp.diff(expr, g) * rhs for g, rhs in self.clocks.items())

    def residuals(self) -> list[sp.Expr]:
        """The residuals that must vanish identically (see the module docstring)."""
        out = [self.time_derivative(self.s) - self.rate * self.R * (self.S - self.s)]
        if self.ell_squared is not None:
            out.append(self.R**2 - (self.ell_squared + 4 * self.s**2))
        return out

    @property
    def equation(self) -> sp.Eq:
        """The row's equation in display form."""
        s, ell = sp.Symbol("s"), sp.Symbol("ell")
        rhs = (
            self.rate * (self.S - s)
            if self.ell_squared is None
            else self.rate * sp.sqrt(ell**2 + 4 * s**2) * (self.S - s)
        )
        return sp.Eq(sp.Derivative(sp.Function("s")(self.t), self.t), rhs)


def _clocks(cf: ClosedForm, sums: dict[sp.Symbol, sp.Expr] | None = None) -> dict[sp.Symbol, sp.Expr]:
    return {
        g: (sol.c2 * g**2 + sol.c1 * g + sol.c0).xreplace(sums or {}) if sol.branch != "fixed-point" else sp.S.Zero
        for g, sol in cf.riccati.items()
    }


def _unit_row(name: str, mode: str, rate_name: str | None, imbalance: str) -> ModeRow:
    model = models.get(name)
    cf = model.closed_form
    a_t, b_t = (cf.in_initial_values()[n] for n in ("a", "b"))
    a0, b0 = cf.init["a"], cf.init["b"]
    rate = model.symbol(rate_name) if rate_name else sp.S.One
    return ModeRow(
        name,
        mode,
        a_t * b_t,
        a_t**2 + b_t**2,
        rate,
        (a0**2 - b0**2) ** 2,
        model.symbol("S"),
        cf.t,
        imbalance,
        _clocks(cf),
    )


def _scalar_row(p: int = 2) -> ModeRow:
    model = models.get("two_layer_scalar")
    cf = model.closed_form
    Z, S = model.symbol("Z"), model.symbol("S")
    a0, b0 = cf.init["a"], cf.init["b"]
    units = [{a0: sp.Symbol(f"a_{i}(0)", real=True), b0: sp.Symbol(f"b_{i}(0)", real=True)} for i in range(1, p + 1)]
    sums = {sym: sum(summand.xreplace(u) for u in units) for sym, summand in cf.sums.items()}
    state = cf.in_initial_values()
    a_t = [state["a"].xreplace(sums).xreplace(u) for u in units]
    b_t = [state["b"].xreplace(sums).xreplace(u) for u in units]
    sigma0 = sum(u[a0] ** 2 + u[b0] ** 2 for u in units) / (2 * Z)
    s0 = sum(u[a0] * u[b0] for u in units) / Z
    theta = sum(x * y for x, y in zip(a_t, b_t, strict=True)) / Z
    R = sum(x**2 + y**2 for x, y in zip(a_t, b_t, strict=True)) / Z
    return ModeRow(
        "two_layer_scalar",
        "theta",
        theta,
        R,
        1 / Z,
        4 * (sigma0**2 - s0**2),
        S,
        cf.t,
        "2 sqrt(Sigma_0^2 - S_0^2)",
        _clocks(cf, sums),
    )


def _linear_row() -> ModeRow:
    model = models.get("linear_model")
    cf = model.closed_form
    return ModeRow(
        "linear_model",
        "theta_i",
        cf.in_initial_values()["theta"],
        sp.S.One,
        model.symbol("lam"),
        None,
        model.symbol("S"),
        cf.t,
        "none",
        _clocks(cf),
    )


def unification_rows() -> list[ModeRow]:
    """The rows of spec §7's table, each built from the model's own closed form (two_layer_scalar at width 2)."""
    return [
        _linear_row(),
        _unit_row("diagonal_linear_network", "a_i b_i", "lam", "C_i = a_i^2 - b_i^2"),
        _unit_row("deep_linear_whitened", "a_i b_i (= alpha_i^2 when balanced)", None, "a_i^2 - b_i^2 (0 for Saxe)"),
        _unit_row("lambda_balanced", "rho_alpha = a b", None, "lambda = b^2 - a^2"),
        _scalar_row(),
    ]
