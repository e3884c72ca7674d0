r"""Exact results for the power-activation network (spec ``models-xu-ziyin2025.md`` §3 and §8, erratum 2).

For :math:`f = \gamma\sum_i u_i (w_i\xi)^\beta` (model ``power_activation(beta)``; its flow is derived from the
loss), with :math:`E_\beta = \gamma a V - b`, :math:`V = \sum_i u_i w_i^\beta`:

* the per-neuron conserved quantity :math:`c_i = \beta\eta_w u_i^2 - \eta_u w_i^2`;
* the common clock :math:`\tau(t) = \int_0^t \gamma E_\beta`: every neuron follows the same autonomous flow
  :math:`du/d\tau = -\eta_u w^\beta`, :math:`dw/d\tau = -\eta_w\beta u w^{\beta-1}`;
* on the conserved curve :math:`u(z) = s\sqrt{(c + \eta_u z^2)/(\beta\eta_w)}`, :math:`s = \operatorname{sgn} u_i`,
  the function :math:`F_i(x) = \int^x dz/(\eta_w\beta\,u(z)\,z^{\beta-1})` (paper eq. 30 per a secondary summary)
  obeys :math:`\frac{d}{dt}F_i(w_i) = -\dot\tau`, hence :math:`\Delta_i(t) = F_i(w_i(t)) - F_i(w_i(0)) = -\tau(t)`
  for every neuron (valid while :math:`u_i \neq 0` and, for :math:`\beta \ge 2`, :math:`w_i \neq 0` along the path;
  :math:`c_i > 0` guarantees the first);
* :math:`\beta = 1`: :math:`p_i = \sqrt{\eta_w}u_i + \sqrt{\eta_u}w_i` obeys
  :math:`dp_i/d\tau = -\sqrt{\eta_u\eta_w}\,p_i`, so :math:`\ln p_i(t) - \ln p_i(0) = -\sqrt{\eta_u\eta_w}\,\tau(t)`
  and :math:`F_i` is a logarithm: erratum 2 (the printed :math:`F_i(x) = e^x` is refuted,
  :math:`F_i(x) = \ln x + \text{const}` holds, in the variable :math:`x = p_i` and the paper's clock
  :math:`\tau' = \sqrt{\eta_u\eta_w}\,\tau`);
* :math:`\beta = 2`, :math:`c_i > 0`, :math:`u_i, w_i > 0`:
  :math:`F_i(w) = -\operatorname{asinh}(\sqrt{c_i}/(\sqrt{\eta_u}w))/\sqrt{2\eta_w c_i}`.

Every result is a :class:`~derivations.derivation.Derivation` step re-checked exactly by ``prove_zero``.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from .derivation import Derivation
from .models.power_activation import V, a, b, eta_u, eta_w, gamma, power_activation, u, w

__all__ = [
    "CLOCK_RATE",
    "F_BETA2",
    "P",
    "beta1_clock_residual",
    "beta1_derivation",
    "beta2_derivation",
    "clock_field",
    "conserved_quantity",
    "curve_u",
    "derivation",
    "f_integral",
    "non_law",
]

c = sp.Symbol("c", real=True)  # the conserved value c_i
s = sp.Symbol("s", real=True)  # sgn(u_i), constant along the path; s**2 = 1
m = sp.Symbol("m", positive=True)  # |u_i|
z, x = sp.symbols("z x", real=True)
w0 = sp.Symbol("w_0", real=True)
tau = sp.Symbol("tau", real=True)
tau_dot = sp.Symbol(r"\dot\tau", real=True)
SIGN = s**2 - 1

CLOCK_RATE = gamma * (gamma * a * V - b)
r"""The common clock's rate :math:`\dot\tau = \gamma E_\beta = \gamma(\gamma a V - b)` (spec §3)."""

P = sp.sqrt(eta_w) * u + sp.sqrt(eta_u) * w
r"""The spec's :math:`p_i = \sqrt{\eta_w}u_i + \sqrt{\eta_u}w_i` (§2.1), the natural variable for :math:`\beta = 1`."""

# beta = 2, c > 0, u > 0, w > 0 (spec §3 "special cases")
c_pos, w_pos = sp.Symbol("c", positive=True), sp.Symbol("w", positive=True)
F_BETA2 = -sp.asinh(sp.sqrt(c_pos) / (sp.sqrt(eta_u) * w_pos)) / sp.sqrt(2 * eta_w * c_pos)
r"""Spec §3: :math:`F_i(w) = -\operatorname{asinh}(\sqrt{c_i}/(\sqrt{\eta_u}w))/\sqrt{2\eta_w c_i}` (c, w > 0)."""


def conserved_quantity(beta: int) -> sp.Expr:
    r"""Spec §3: :math:`c_i = \beta\eta_w u_i^2 - \eta_u w_i^2` in the generic unit's symbols."""
    return beta * eta_w * u**2 - eta_u * w**2


def non_law(beta: int) -> sp.Expr:
    r"""A candidate that is *not* conserved for any :math:`\beta`: :math:`\beta\eta_w u^2 + \eta_u w^2`."""
    return beta * eta_w * u**2 + eta_u * w**2


def clock_field(beta: int) -> dict[sp.Symbol, sp.Expr]:
    r"""The per-neuron flow in the clock :math:`\tau`: the derived unit field divided by :math:`\dot\tau`."""
    field = power_activation(beta).unit_field
    return {symbol: sp.factor(sp.cancel(rate / CLOCK_RATE)) for symbol, rate in field.items()}


def curve_u(beta: int, point: sp.Expr) -> sp.Expr:
    r"""Spec §3: :math:`u(z) = s\sqrt{(c + \eta_u z^2)/(\beta\eta_w)}` on the curve :math:`c_i = c`, ``s`` = ±1."""
    return s * sp.sqrt((c + eta_u * point**2) / (beta * eta_w))


def f_integral(beta: int, upper: sp.Expr) -> sp.Expr:
    r"""Eq. 30: :math:`F_i(y) - F_i(w_i(0)) = \int_{w_0}^{y} dz/(\eta_w\beta\,u(z)\,z^{\beta-1})`, y = ``upper``."""
    return sp.Integral(1 / (eta_w * beta * curve_u(beta, z) * z ** (beta - 1)), (z, w0, upper))


def _printed_clock_flow(beta: int) -> dict[sp.Symbol, sp.Expr]:
    r"""Spec §3 as printed: :math:`du/d\tau = -\eta_u w^\beta`, :math:`dw/d\tau = -\eta_w\beta u w^{\beta-1}`."""
    return {u: -eta_u * w**beta, w: -eta_w * beta * u * w ** (beta - 1)}


def derivation(beta: int) -> Derivation:
    r"""Conservation of :math:`c_i`, the common clock and :math:`\Delta_i = -\tau`, for one integer ``beta``."""
    model = power_activation(beta)
    field = model.unit_field
    flow = _printed_clock_flow(beta)
    d = Derivation(
        f"Power activation beta = {beta}: conservation, common clock, Delta_i = -tau (spec §3)",
        assumptions=(
            "gamma, eta_u, eta_w, a > 0; b real",
            "u_i != 0 along the path (true when c_i > 0), so s = sgn(u_i) is constant",
            *(("w_i != 0 (w = 0 is invariant for beta >= 2)",) if beta >= 2 else ()),
        ),
        definitions={tau_dot: CLOCK_RATE},
    )
    for symbol in (u, w):
        d.add(
            sp.Eq(sp.Derivative(sp.Function(str(symbol))(tau), tau), flow[symbol]),
            f"the derived flow of {symbol} is tau' times the autonomous clock flow, tau' = gamma E_beta",
            "clock",
            residual=field[symbol] - tau_dot * flow[symbol],
        )
    d.add(
        sp.Eq(sp.Derivative(sp.Function("c")(sp.Symbol("t")), sp.Symbol("t")), 0),
        "c_i = beta eta_w u_i^2 - eta_u w_i^2 is conserved by the derived flow",
        "conservation",
        residual=model.unit_time_derivative(conserved_quantity(beta)),
    )
    d.add(
        sp.Eq(conserved_quantity(beta).subs(u, curve_u(beta, z)).subs(w, z), c),
        "u(z) = s sqrt((c + eta_u z^2)/(beta eta_w)) parametrises the conserved curve c_i = c (s^2 = 1)",
        "curve",
        relations=(SIGN,),
    )
    d.add(
        sp.Eq(f_integral(beta, w), -tau),
        "d/dt [F_i(w_i) + tau] = F_i'(w_i) w_i' + tau' = 0 on the neuron's own curve (u = s |u|, "
        "c = beta eta_w u^2 - eta_u w^2); both sides vanish at t = 0",
        "Delta",
        residual=sp.diff(f_integral(beta, x), x).subs(x, w) * field[w] + tau_dot,
        substitutions={u: s * m, c: beta * eta_w * m**2 - eta_u * w**2},
        relations=(SIGN,),
    )
    return d


def beta1_clock_residual(F: Callable[[sp.Expr], sp.Expr]) -> sp.Expr:
    r"""Residual of :math:`dF(p_i)/d\tau' = -1` along the β = 1 flow, :math:`\tau' = \sqrt{\eta_u\eta_w}\tau`.

    Zero iff ``F`` is the paper's :math:`F_i` (eq. 30 at :math:`\beta = 1`) in the variable :math:`p_i`:
    ``beta1_clock_residual(sympy.log)`` vanishes, ``beta1_clock_residual(sympy.exp)`` (the printed form) does not.
    """
    return power_activation(1).unit_time_derivative(F(P)) + sp.sqrt(eta_u * eta_w) * CLOCK_RATE


def beta1_derivation() -> Derivation:
    r""":math:`\beta = 1`: :math:`\ln p_i(t) - \ln p_i(0) = -\sqrt{\eta_u\eta_w}\,\tau(t)`; eq. 30 gives a logarithm."""
    model = power_activation(1)
    d = Derivation(
        "Power activation beta = 1: d ln p_i / d tau = -sqrt(eta_u eta_w) (spec §3, §8 erratum 2)",
        assumptions=("p_i(0) > 0 (p_i keeps its sign)", "c_i + eta_u w^2 > 0 on the path"),
        definitions={tau_dot: CLOCK_RATE},
    )
    d.add(
        sp.Eq(sp.Derivative(sp.Function("p")(tau), tau), -sp.sqrt(eta_u * eta_w) * sp.Function("p")(tau)),
        "p_i = sqrt(eta_w) u_i + sqrt(eta_u) w_i along the derived flow",
        "p",
        residual=model.unit_time_derivative(P) + tau_dot * sp.sqrt(eta_u * eta_w) * P,
    )
    d.add(
        sp.Eq(sp.log(sp.Function("p")(tau)) - sp.log(sp.Function("p")(0)), -sp.sqrt(eta_u * eta_w) * tau),
        "d/dt [ln p_i + sqrt(eta_u eta_w) tau] = 0 (p_i > 0)",
        "ln p",
        residual=beta1_clock_residual(sp.log),
    )
    p_on_curve = P.subs(u, curve_u(1, x)).subs(w, x)
    d.add(
        sp.Eq(sp.sqrt(eta_u * eta_w) * f_integral(1, x), sp.log(p_on_curve) - sp.log(p_on_curve.subs(x, w0))),
        "eq. 30 at beta = 1: sqrt(eta_u eta_w) F_i'(x) = d/dx ln p(x) on the curve, so F_i = ln p_i / "
        "sqrt(eta_u eta_w) + const (erratum 2: ln, not exp)",
        "F beta=1",
        residual=sp.sqrt(eta_u * eta_w) * sp.diff(f_integral(1, x), x) - sp.diff(sp.log(p_on_curve), x),
        relations=(SIGN,),
    )
    return d


def _split_radicals(expr: sp.Expr) -> sp.Expr:
    """Factor the radicand of every square root, so that positive factors split out (exact for positive symbols)."""
    return expr.replace(
        lambda e: isinstance(e, sp.Pow) and e.exp.is_Rational and e.exp.q == 2,
        lambda e: sp.factor(e.base) ** e.exp,
    )


def beta2_derivation() -> Derivation:
    r""":math:`\beta = 2`, :math:`c_i > 0`, :math:`u, w > 0`: the explicit :math:`F_i` of spec §3 solves eq. 30."""
    integrand = 1 / (eta_w * 2 * curve_u(2, w_pos).subs({s: 1, c: c_pos}) * w_pos)
    field_w = power_activation(2).unit_field[w].subs({u: m, w: w_pos})
    d = Derivation(
        "Power activation beta = 2: explicit F_i (spec §3)",
        assumptions=("c_i > 0", "u_i > 0 and w_i > 0 (both keep their sign when c_i > 0)"),
        definitions={tau_dot: CLOCK_RATE},
    )
    d.add(
        sp.Eq(sp.Derivative(F_BETA2, w_pos), integrand),
        "F_i' is the integrand of eq. 30 with beta = 2, s = +1 (radicands factored: c, eta_u, w > 0)",
        "F beta=2",
        residual=_split_radicals(sp.diff(F_BETA2, w_pos) - integrand),
    )
    d.add(
        sp.Eq(F_BETA2 - F_BETA2.subs(w_pos, w0), -tau),
        "d/dt [F_i(w_i) + tau] = 0 along the derived flow, with c_i = 2 eta_w u_i^2 - eta_u w_i^2",
        "Delta beta=2",
        residual=_split_radicals(sp.diff(F_BETA2, w_pos) * field_w + tau_dot),
        substitutions={c_pos: 2 * eta_w * m**2 - eta_u * w_pos**2},
    )
    return d
