r"""Claims of Nam et al. 2025, §7.1: under target downscaling (:math:`Z = 1`, :math:`S\to0`, :math:`\theta(0) = 0`,
±1 starts, :math:`p` even) the two-layer scalar network is lazy, :math:`\dot{\Delta\theta} = O(S^2)`.

Derived here from the model's flow (``two_layer_scalar``; the per-unit rate of the claim ``eq16-17``): with
:math:`a_i = \sigma_ib_i`, :math:`\sigma_i = \pm1`, :math:`\theta = Z^{-1}\sum_i a_ib_i` and
:math:`\Delta\theta = Z^{-1}\sum_i|a_ib_i|`, each unit gives :math:`\tfrac{d}{dt}(a_ib_i) = r\,|a_ib_i|\sigma_i`
with one rate :math:`r`, so :math:`\dot\theta = r\,\Delta\theta` (eq 16) and :math:`\dot{\Delta\theta} = r\,\theta`
(eq 17). On :math:`0 \le \theta \le S` (θ starts at 0 and eq 16 has the fixed point :math:`\theta = S`) the rate of
:math:`\Delta\theta` is at most :math:`S^2/(2Z)`, attained at :math:`\theta = S/2`; and by the conservation of
:math:`\Delta\theta^2 - \theta^2` the total change of :math:`\Delta\theta` is :math:`S^2Z/(2p) + O(S^4)`. The
paper states :math:`Z = 1`; the claims hold for every :math:`Z > 0`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import sympy as sp

from proofs_check.claims import Outcome
from proofs_check.papers.nam2025 import claims as base
from proofs_check.papers.nam2025.claims import PAPER

__all__ = ["delta_change", "rates"]

SCALAR = base.SCALAR
S, Z, theta = SCALAR.symbol("S"), SCALAR.symbol("Z"), SCALAR.symbol("theta")
sign = base.sign
p = PAPER.symbol("p", "p", positive=True)
dtheta = PAPER.symbol("Delta_theta", r"\Delta\theta", positive=True)


@cache
def rates() -> tuple[sp.Expr, sp.Expr]:
    r"""(:math:`\dot\theta`, :math:`\dot{\Delta\theta}`) in θ and Δθ, from the per-unit derivative of
    :math:`a_ib_i` (claim ``eq16-17``'s definition) at :math:`\sigma_i^2 = 1`."""
    unit_dot, unit = PAPER.definition("ab_dot_pm1"), PAPER.definition("ab_pm1")

    def at_sign(expr: sp.Expr) -> sp.Expr:
        return sp.simplify(expr.subs(sign**2, 1))

    theta_rate = at_sign(unit_dot / (sign * unit))  # Z⁻¹ d(a_ib_i)/dt ÷ Z⁻¹|a_ib_i|: summed, θ̇ = rate · Δθ
    delta_rate = at_sign(sign * unit_dot / unit)  # Z⁻¹ d|a_ib_i|/dt ÷ Z⁻¹ a_ib_i: summed, Δθ̇ = rate · θ
    if {theta_rate, delta_rate} & {sp.nan, sp.zoo} or sign in (theta_rate - delta_rate).free_symbols:
        raise ValueError("the per-unit rates must be free of the sign σ_i")
    return theta_rate * dtheta, delta_rate * theta


@cache
def delta_change() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    r"""(:math:`\tfrac{d}{dt}(\Delta\theta^2 - \theta^2)` along eqs 16–17, :math:`\dot{\Delta\theta}` at
    :math:`\theta = S/2`, :math:`\lim_{S\to0^+}(\Delta\theta(\infty) - \Delta\theta(0))/S^2`) with
    :math:`\Delta\theta(0) = p/Z` (every :math:`|a_ib_i(0)| = 1`), :math:`\theta(0) = 0`, :math:`\theta(\infty) = S`."""
    theta_dot, delta_dot = rates()
    invariant = sp.expand(2 * dtheta * delta_dot - 2 * theta * theta_dot)
    end = sp.Symbol("Delta_theta_oo", positive=True)
    (final,) = sp.solve(sp.Eq(end**2 - S**2, (p / Z) ** 2 - 0**2), end)
    small = sp.Symbol("s", positive=True)  # S → 0+
    limit = sp.limit(((final - p / Z) / S**2).xreplace({S: small}), small, 0, "+")
    return invariant, sp.simplify(delta_dot.xreplace({theta: S / 2})), limit


delta_dot = PAPER.symbol("Delta_theta_dot", r"\dot{\Delta\theta}", lambda: rates()[1], real=True)
PAPER.claim(
    "sec7.downscaling.rate",
    sp.Implies(sp.And(theta >= 0, theta <= S), sp.And(delta_dot >= 0, delta_dot <= S**2 / (2 * Z))),
    where="§7.1 (target downscaling; the bound)",
    derived=True,
    eq="16–17",
    assume=(
        S > 0,
        "a_i(0), b_i(0) ∈ {±1}, θ(0) = 0 (p even): 0 ≤ θ(t) ≤ S (θ = S is the fixed point of eq. 16, θ̇ > 0 below)",
        "Δθ̇ from the model's per-unit flow (claim eq16-17's definition), σ_i² = 1",
    ),
)
invariant_dot, peak, total = (
    PAPER.symbol(name, latex, lambda i=i: delta_change()[i], real=True)
    for i, (name, latex) in enumerate(
        (
            ("invariant_dot", r"\tfrac{d}{dt}(\Delta\theta^2 - \theta^2)"),
            ("Delta_theta_dot_peak", r"\dot{\Delta\theta}\big|_{\theta = S/2}"),
            ("Delta_theta_total", r"\lim_{S\to0}\frac{\Delta\theta(\infty) - \Delta\theta(0)}{S^2}"),
        )
    )
)
PAPER.claim(
    "sec7.downscaling.total",
    sp.Eq(sp.Matrix([invariant_dot, peak, total]), sp.Matrix([0, S**2 / (2 * Z), Z / (2 * p)]), evaluate=False),
    where="§7.1 (target downscaling)",
    derived=True,
    eq="16–17",
    assume=(
        "±1 starts: Δθ(0) = p/Z, θ(0) = 0, θ(∞) = S; Δθ² − θ² conserved along eqs. 16–17 (first entry)",
        "the bound S²/(2Z) is attained at θ = S/2; Δθ changes in all by S²Z/(2p) + O(S⁴): lazy as S → 0",
    ),
)

TARGETS = (0.1, 0.01, 0.001)
"""The targets S of the numeric check (Z = 1, p = 8)."""
WIDTH = 8
DOWNSCALING_TOLERANCE = 1e-3
"""Relative: (Δθ(T) − Δθ(0))·2p/(S²Z) − 1 is O(S²) (4e-5 at S = 0.1), plus the integrator's error."""


def downscaling_check(
    expected: Callable[[float, int, float], float] = lambda s, width, z: s**2 * z / (2 * width),
) -> Outcome:
    """two_layer_scalar from ±1 starts (θ(0) = 0), Z = 1, p = WIDTH, integrated by DOP853 to T = 20 Z²/p: the
    total change of Δθ = Z⁻¹Σ|a_ib_i| and the largest Δθ̇ on the grid (finite differences), for each S of TARGETS,
    against ``expected(S, p, Z)`` (the derived S²Z/(2p)) and the bound S²/(2Z)."""
    import numpy as np

    from numerics import trajectory

    z = 1.0
    a0 = np.ones(WIDTH)
    b0 = np.where(np.arange(WIDTH) % 2 == 0, 1.0, -1.0)
    times = np.linspace(0.0, 20 * z**2 / WIDTH, 2001)
    rows, failures = [], {}
    for s in TARGETS:
        run = trajectory(SCALAR, times, {"S": s, "Z": z}, {"a": a0, "b": b0}, "scipy")
        spread = np.sum(np.abs(run["a"] * run["b"]), axis=-1) / z
        change = float(spread[-1] - spread[0])
        fastest = float(np.max(np.diff(spread) / np.diff(times)))
        deviation = change / expected(s, WIDTH, z) - 1
        rows.append(
            f"S = {s:g}: ΔΔθ = {change:.4e} (relative deviation {deviation:.1e}), max Δθ̇/S² = {fastest / s**2:.4f}"
        )
        if abs(deviation) > DOWNSCALING_TOLERANCE or fastest > s**2 / (2 * z) * (1 + 1e-3):
            failures[f"S = {s:g}"] = f"change {change:.4e}, max rate {fastest:.4e}"
    detail = "; ".join(rows)
    if failures:
        return Outcome.refuted("DOP853 on two_layer_scalar", failures, detail)
    return Outcome.numeric(f"DOP853 on two_layer_scalar (p = {WIDTH}, Z = 1), ±1 starts", detail)


PAPER.claim(
    "sec7.downscaling.numeric",
    "Under target downscaling Δθ changes in all by S²Z/(2p) and never faster than S²/(2Z)",
    where="§7.1 (target downscaling)",
    eq="16–17",
    assume=(f"p = {WIDTH}, Z = 1, a_i(0) = 1, b_i(0) = ±1 alternating (θ(0) = 0), S ∈ {TARGETS}",),
    check=downscaling_check,
)
