r"""Claims of Nam et al. 2025, §5.2: the features :math:`XW_1` collapse onto :math:`c` orthogonal directions, and
depth sharpens each feature's sigmoid toward a step and widens the gap between features.

Class-mean orthogonality is checked on the package's collapse setup (``proofs_check.papers.nam2025.collapse``, the
runs of ``collapse.rank`` and ``collapse.means``): the largest :math:`|\cos|` between the means of two classes of
the features at the end of gradient descent from a near-balanced start. A far-from-balanced start keeps random
initial features, whose class means are not orthogonal (the tests show that variant refuted).

Depth, derived here from ``deep_scalar_chain(L)`` (one unit :math:`f = a_1\cdots a_Lx`): on the balanced line
:math:`a_1 = \dots = a_L = s` the model's field gives, for the product :math:`\theta = s^L`,
:math:`\dot\theta = L\lambda\,\theta^{2-2/L}(S-\theta)` (proved for :math:`L = 2,\dots,6`), so the transition width
:math:`\Delta t` (from :math:`S/4` to :math:`3S/4`) does not depend on the start. From the balanced start
:math:`a_l(0) = s_0` the half-time has the leading order :math:`t_{1/2} \simeq s_0^{-(L-2)}/(\lambda S(L-2))` as
:math:`s_0\to0` (proved for :math:`L = 3, 4, 5`): :math:`\Delta t/t_{1/2} = O(s_0^{L-2})`, a sharper step the deeper
the chain. The numeric claim integrates :math:`\int d\theta/\dot\theta` by quadrature at a fixed start
:math:`\theta(0) = w_0`: the relative width :math:`\Delta t/t_{1/2}` falls with :math:`L` and the gap between two
features, :math:`t_{1/2}(S_1) - t_{1/2}(S_2)` (:math:`S_1 < S_2`) in units of :math:`\Delta t`, grows. The *ratio* of
two features' half-times does not grow without bound: by the leading order it tends to :math:`S_2/S_1` as
:math:`s_0\to0` at every depth :math:`L \ge 3` (the numeric detail prints it).
"""

from __future__ import annotations

import itertools
from functools import cache

import sympy as sp

from derivations.models.deep_scalar_chain import deep_scalar_chain
from proofs_check.claims import Outcome
from proofs_check.paper import Measurement
from proofs_check.papers.nam2025.claims import PAPER
from proofs_check.papers.nam2025.claims_collapse import FIT, NEAR_BALANCED, SEEDS

__all__ = ["DEPTHS", "depth_check", "mean_cosine_measure", "product_rate", "time_between"]


# ---------------------------------------------------------------- class-mean orthogonality
def mean_cosine_measure(scales: tuple[float, float] = NEAR_BALANCED) -> Measurement:
    """The largest |cos| between two class means of the features XW₁ per seed, after gradient descent from starts
    of ``scales`` (the setup of ``collapse.rank``); ValueError if a run has not fitted the targets."""
    from proofs_check.papers.nam2025.collapse import collapse_runs

    runs = collapse_runs(SEEDS, scales)
    if runs.residual.max() > FIT:
        raise ValueError(f"not converged: relative residual {runs.residual.max():.2g} > {FIT}")
    detail = f"fit residual ≤ {runs.residual.max():.1g}; {len(SEEDS)} seeds; start scales {scales}"
    return Measurement(
        runs.mean_cosine, "gradient descent on the matrices (nam2025.collapse), lr 0.05, 4000 steps", detail
    )


PAPER.experiment(
    "sec5_2.mean_orthogonality",
    mean_cosine_measure,
    quantity=PAPER.symbol("mean_cos", r"\max_{m\ne m'}|\cos(\mu_m, \mu_{m'})|", nonnegative=True),
    tolerance=1e-3,
    where="§5.2, App. E",
    eq="13",
    assume=(
        "3 classes × 3 samples in R⁹ (orthogonal inputs), one-hot Y, width 8, W₁, W₂ ~ 10⁻⁴ N(0, 1), 10 seeds",
        "μ_m: the (uncentred) mean of the features XW₁ over class m at the end of training",
    ),
)


# ---------------------------------------------------------------- depth: the balanced chain's product
DEPTHS = (2, 3, 4, 5, 6)
theta = PAPER.symbol("theta", r"\theta", positive=True)
_s, _S, _lam = sp.Symbol("s", positive=True), sp.Symbol("S", real=True), sp.Symbol("lam", positive=True)


@cache
def balanced_rate(L: int) -> sp.Expr:
    r""":math:`\dot s` on the balanced line :math:`a_1 = \dots = a_L = s` of ``deep_scalar_chain(L)``, from the
    model's field, in terms of ``s`` (positive), ``S`` and ``lam``."""
    model = deep_scalar_chain(L)
    layers = [model.symbol(f"a{k + 1}") for k in range(L)]
    s_dot = model.unit_field[layers[0]].xreplace(dict.fromkeys(layers, _s))
    return s_dot.xreplace({model.symbol("S"): _S, model.symbol("lam"): _lam})


@cache
def product_rate(L: int) -> sp.Expr:
    r""":math:`\dot\theta` of the product :math:`\theta = s^L` on the balanced line of ``deep_scalar_chain(L)``
    (:math:`\dot\theta = L s^{L-1}\dot s`), in terms of :math:`\theta`, ``S`` and ``lam``."""
    rate = (L * _s ** (L - 1) * balanced_rate(L)).xreplace({_s: theta ** sp.Rational(1, L)})
    return sp.powsimp(sp.expand(rate), force=True)


rates = [
    PAPER.symbol(f"theta_dot_{L}", rf"\dot\theta_{{L={L}}}", lambda L=L: product_rate(L), real=True) for L in DEPTHS
]
PAPER.claim(
    "sec5_2.depth.rate",
    sp.Eq(
        sp.Matrix(rates),
        sp.Matrix([L * _lam * theta ** (2 - sp.Rational(2, L)) * (_S - theta) for L in DEPTHS]),
        evaluate=False,
    ),
    where="§5.2 (depth sharpens the transition; the balanced deep chain)",
    derived=True,
    assume=(
        "deep_scalar_chain(L), one unit f = a_1 a_2 … a_L x, E[x²] = λ, balanced line a_1 = … = a_L = s, θ = s^L > 0",
        "so the time from θ_1 to θ_2 is ∫ dθ/(Lλθ^{2−2/L}(S − θ)): the width S/4 → 3S/4 does not depend on w_0",
    ),
)

HALF_DEPTHS = (3, 4, 5)
s0 = PAPER.symbol("s_0", "s_0", positive=True)
_S_pos = sp.Symbol("S", positive=True)


@cache
def half_time_leading(L: int) -> sp.Expr:
    r""":math:`\lim_{s_0\to0^+} s_0^{L-2}\,t_{1/2}` for ``deep_scalar_chain(L)`` from the balanced start
    :math:`a_l(0) = s_0` (:math:`w_0 = s_0^L`), :math:`S > 0`: :math:`t_{1/2} = \int_{s_0}^{(S/2)^{1/L}} ds/\dot s`
    with :math:`\dot s` of the model's field (``sympy.integrate``: a rational integrand), then ``sympy.limit``."""
    antiderivative = sp.integrate(1 / balanced_rate(L).xreplace({_S: _S_pos}), _s)
    half = antiderivative.xreplace({_s: (_S_pos / 2) ** sp.Rational(1, L)}) - antiderivative.xreplace({_s: s0})
    return sp.simplify(sp.limit(half * s0 ** (L - 2), s0, 0, "+"))


leading = [
    PAPER.symbol(
        f"t_half_leading_{L}",
        rf"\lim_{{s_0\to0}} s_0^{{{L - 2}}}\,t_{{1/2}}^{{(L={L})}}",
        lambda L=L: half_time_leading(L),
        positive=True,
    )
    for L in HALF_DEPTHS
]
PAPER.claim(
    "sec5_2.depth.half_time",
    sp.Eq(sp.Matrix(leading), sp.Matrix([1 / (_lam * _S_pos * (L - 2)) for L in HALF_DEPTHS]), evaluate=False),
    where="§5.2 (depth sharpens the sigmoid toward a step; the half-time of the balanced deep chain)",
    derived=True,
    assume=(
        "deep_scalar_chain(L), L = 3, 4, 5, balanced start a_l(0) = s_0 → 0, S, λ > 0; t_1/2: θ = s^L reaches S/2",
        "so t_1/2 ≈ s_0^{−(L−2)}/(λS(L−2)) grows faster with depth while the width S/4 → 3S/4 stays fixed "
        "(claim sec5_2.depth.rate): Δt/t_1/2 = O(s_0^{L−2})",
        "and t_1/2(S_1)/t_1/2(S_2) → S_2/S_1 at every depth L ≥ 3: the half-time ratio itself does not grow",
    ),
)

W0 = 1e-4
"""The start θ(0) = w_0 of the numeric depth check (both features, every depth)."""
FEATURES = (1.0, 2.0)
"""The two features' strengths S of the numeric depth check (λ = 1)."""


def time_between(L: int, S: float, lo: float, hi: float) -> float:
    """∫_lo^hi dθ/θ̇ for deep_scalar_chain(L) at λ = 1, by quadrature in ln θ (the start is a near-singular end)."""
    import math

    from scipy.integrate import quad

    g = sp.lambdify(theta, theta / product_rate(L).xreplace({_S: S, _lam: 1}))
    value, _ = quad(lambda u: g(math.exp(u)), math.log(lo), math.log(hi), limit=400, epsabs=0, epsrel=1e-11)
    return float(value)


def depth_check(direction: int = 1, w0: float = W0) -> Outcome:
    """Quadrature of the balanced chain's half-times and widths for ``DEPTHS``: numerically supported if the
    relative width Δt/t_1/2 strictly falls and the gap (t_1/2(S_1) − t_1/2(S_2))/Δt strictly grows with depth
    (``direction`` = −1: the reverse, the wrong variant)."""
    if direction not in (1, -1):
        raise ValueError(f"direction must be 1 or -1, got {direction!r}")
    (s1, s2), rows = FEATURES, []
    for L in DEPTHS:
        half1, half2 = time_between(L, s1, w0, s1 / 2), time_between(L, s2, w0, s2 / 2)
        width = time_between(L, s1, s1 / 4, 3 * s1 / 4)
        rows.append((width / half1, (half1 - half2) / width, half1 / half2))
    relative = [r[0] for r in rows]
    gap = [r[1] for r in rows]
    sharper = all(direction * (b - a) < 0 for a, b in itertools.pairwise(relative))
    wider = all(direction * (b - a) > 0 for a, b in itertools.pairwise(gap))
    detail = (
        f"L = {list(DEPTHS)}, w_0 = {w0:g}, S = {FEATURES}: Δt/t_1/2 = {[round(v, 5) for v in relative]}; "
        f"gap/Δt = {[round(v, 3) for v in gap]}; t_1/2(S_1)/t_1/2(S_2) = {[round(r[2], 4) for r in rows]}"
    )
    if not (sharper and wider):
        return Outcome.refuted("quadrature of the balanced chain", {"relative": relative, "gap": gap}, detail)
    return Outcome.numeric(f"quadrature of the balanced chain (L = {DEPTHS[0]}…{DEPTHS[-1]}, w_0 = {w0:g})", detail)


PAPER.claim(
    "sec5_2.depth.numeric",
    "Deeper chains have relatively narrower transitions (Δt/t_1/2 falls with L) and a wider gap between "
    "features in units of the transition width",
    where="§5.2 (depth sharpens the sigmoid toward a step)",
    assume=(
        f"deep_scalar_chain(L), L = {DEPTHS}, balanced start θ(0) = w_0 = {W0:g}, λ = 1, features S = {FEATURES}",
        "Δt: time from S/4 to 3S/4; t_1/2: from w_0 to S/2; the half-time ratio itself tends to S_2/S_1 as w_0 → 0",
    ),
    check=depth_check,
)
