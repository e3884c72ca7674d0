r"""The provable parts of Theorem 3.1 of Kunin et al. 2025 (AGF = GF as α → 0 for diagonal linear networks; spec
agf-kunin2025.md §4a).

Neuron i of the diagonal network is :math:`\theta_i = (u_i, v_i)` with :math:`\beta_i = u_iv_i` and loss
:math:`\mathcal L(\beta)`; start :math:`u = \sqrt2\alpha`, :math:`v = 0` (PF, the authors' code). Computed by SymPy:

* ``mirror_flow``: the gradient flow :math:`\dot u_i = -\partial\mathcal L/\partial u_i`,
  :math:`\dot v_i = -\partial\mathcal L/\partial v_i` (derived by the chain rule from :math:`\mathcal L(u_iv_i)`) is
  solved exactly by :math:`u_i = \sqrt2\alpha\cosh x_i`, :math:`v_i = \sqrt2\alpha\sinh x_i` with
  :math:`\dot x_i = -\partial_{\beta_i}\mathcal L`, :math:`x_i(0) = 0`; so :math:`\beta_i = \alpha^2\sinh 2x_i` and
  :math:`\|\theta_i\|^2 = 2\alpha^2\cosh 2x_i`;
* ``dormant_limits``: with :math:`x_i = s_i\log(1/\alpha)`, :math:`s_i > 0` (the other sign is the mirror image), as
  :math:`\alpha\to0`: :math:`\log\|\theta_i\|/\log(1/\alpha)\to s_i - 1`, AGF's accumulated utility
  :math:`\eta\mathcal S_i/c_i = \log(\|\theta_i\|/\|\theta_i(0)\|)/(-\log\|\theta_i(0)\|)\to s_i` (PF's dual variable,
  so the neuron activates when :math:`s_i` reaches 1) and :math:`\log|\beta_i|/\log(1/\alpha)\to 2s_i - 2`
  (:math:`\beta_i\to0` while :math:`s_i < 1`). Limits by ``sympy.limit``.

What is not proved here: that :math:`x(t\log(1/\alpha))/\log(1/\alpha)` converges to PF's piecewise linear
:math:`s(t)` (and β to PF's sign-constrained least squares β_k) uniformly on compact time intervals. That is a
singular-perturbation limit of the ODE :math:`\dot x = -\nabla\mathcal L(\alpha^2\sinh 2x)` (Pesme & Flammarion 2023,
Thm 2), not a finite identity or limit of closed-form expressions; it is checked numerically (``dln.theorem3_1``).
"""

from __future__ import annotations

from functools import cache

import sympy as sp

__all__ = ["dormant_limits", "mirror_flow"]

alpha = sp.Symbol("alpha", positive=True)
x = sp.Symbol("x", real=True)
g = sp.Symbol("g", real=True)
"""The beta-gradient of the loss at the current point (any real value)."""
scale = sp.Symbol("L", positive=True)
"""log(1/alpha)."""
s = sp.Symbol("s", positive=True)


@cache
def mirror_flow() -> tuple[sp.Matrix, sp.Matrix]:
    """((u', v') along x' = -g at u = sqrt2 alpha cosh x, v = sqrt2 alpha sinh x; beta; ||theta||²),
    (-dL/du, -dL/dv with L'(beta) = g; alpha² sinh 2x; 2 alpha² cosh 2x))."""
    u_sym, v_sym = sp.symbols("u v", real=True)
    loss = sp.Function("L")(u_sym * v_sym)
    # sympy's chain rule gives v L'(u v), with L'(u v) an unevaluated Subs: that is the beta-gradient g
    gradients = [sp.diff(loss, w) for w in (u_sym, v_sym)]
    slopes = {atom: g for grad in gradients for atom in grad.atoms(sp.Subs)}
    u, v = sp.sqrt(2) * alpha * sp.cosh(x), sp.sqrt(2) * alpha * sp.sinh(x)
    at = {u_sym: u, v_sym: v}
    lhs = sp.Matrix([sp.diff(u, x) * (-g), sp.diff(v, x) * (-g), u * v, u**2 + v**2])
    rhs = sp.Matrix(
        [
            *(-grad.xreplace(slopes).xreplace(at) for grad in gradients),
            alpha**2 * sp.sinh(2 * x),
            2 * alpha**2 * sp.cosh(2 * x),
        ]
    )
    return lhs, rhs


@cache
def dormant_limits() -> tuple[sp.Matrix, sp.Matrix]:
    """((limits as alpha -> 0 of log||theta||/log(1/alpha), eta S / c, log|beta|/log(1/alpha)), (s - 1, s, 2s - 2))
    at x = s log(1/alpha)."""
    norm_sq = 2 * sp.exp(-2 * scale) * sp.cosh(2 * s * scale)
    log_norm0 = sp.log(sp.sqrt(2) * sp.exp(-scale))
    quantities = (
        sp.log(norm_sq) / (2 * scale),
        (sp.log(norm_sq) / 2 - log_norm0) / (-log_norm0),
        sp.log(sp.exp(-2 * scale) * sp.sinh(2 * s * scale)) / scale,
    )
    limits = sp.Matrix([sp.limit(q.rewrite(sp.exp), scale, sp.oo) for q in quantities])
    return limits, sp.Matrix([s - 1, s, 2 * s - 2])
