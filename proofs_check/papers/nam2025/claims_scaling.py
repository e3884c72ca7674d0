r"""Claims of Nam et al. 2025, §4.4 (after Nam et al. 2024): the scaling laws of the emergence model (eq 11) in
training time, data and parameters, for power-law skill frequencies :math:`P_s(k) = k^{-(\alpha+1)}/A`.

Derived here from the model, not typed in. Each skill's share of the loss :math:`\tfrac12P_k(S - R_k)^2` (the
model's loss quantity) is read off the derived closed form:

- time: :math:`R_k(t)` of the closed form from the balanced start :math:`a_k(0) = b_k(0) = \sqrt{w_0}`;
- data (one-shot): :math:`R_k(\infty)` is the closed form's limit at the empirical frequency, :math:`w_0` if the
  skill is never drawn (probability :math:`(1 - P_k)^n`) and :math:`S` otherwise;
- parameters: a width-:math:`p` model learns the skills :math:`k \le p` (:math:`R_k(\infty) = S`) and has no
  component on the others (:math:`R_k = 0`).

The loss :math:`L(x) = \sum_k \ell_k(x)` is replaced by the integral over :math:`k` (the continuum approximation
of the cited work). With the learned/unlearned boundary :math:`k_*(x)` (``sympy.solve`` of :math:`xP_s(k_*) = 1`
for time and data; :math:`k_* = p` for parameters) and :math:`k = uk_*`, the integrand is
:math:`x^\beta F(u)(1 + o(1))`: :math:`\beta = \lim_{x\to\infty} x\,\partial_x\ln(k_*\ell(uk_*, x))` and
:math:`F = \lim x^{-\beta}k_*\ell(uk_*, x)` are SymPy limits. :math:`L(x) \sim x^\beta\int F\,du` when the
integral converges, which is checked from the limits of :math:`F` at its ends (:math:`u^{\alpha+1}F` finite at
:math:`\infty`, :math:`F` finite at :math:`0^+`), for every :math:`\alpha > 0`. The exact sums over skills are
compared with the derived exponents numerically (``*.numeric``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import sympy as sp

from derivations.proof import prove_zero
from proofs_check.checkers import all_of
from proofs_check.claims import Outcome
from proofs_check.papers.nam2025 import claims_emergence as em
from proofs_check.papers.nam2025.claims import PAPER
from proofs_check.papers.nam2025.half_time import half_time

__all__ = [
    "RESOURCES",
    "Asymptotics",
    "continuum_exponent",
    "integrable",
    "per_skill_loss",
    "scaling",
    "slope_check",
    "summed_loss",
]

S, w0, P, k, alpha, A = em.S, em.w0, em.P, em.k, em.alpha, em.A
t, n, p = sp.Symbol("t", positive=True), sp.Symbol("n", positive=True), sp.Symbol("p", positive=True)
u, Q = sp.Symbol("u", positive=True), sp.Symbol("q", positive=True)
RESOURCES = {"time": t, "data": n, "parameters": p}
"""The resource of each scaling law: training time t, number of samples n, model width p."""
FREQUENCY = em.frequency
r"""P_s(k) = k^{-(α+1)}/A (A the normalization, ζ(α+1) for infinitely many skills)."""


def _unit_loss(strength: sp.Expr) -> sp.Expr:
    r"""The emergence model's loss quantity of one unit, :math:`\tfrac12P(S - a b)^2`, at :math:`a b = R`."""
    a, b = em.EMERGENCE.symbol("a"), em.EMERGENCE.symbol("b")
    expr = em.EMERGENCE.quantities["loss"].expr.xreplace({em.EMERGENCE.symbol("S"): S})
    loss = sp.simplify(expr.xreplace({a: strength / b}))
    if b in loss.free_symbols:
        raise ValueError("the emergence model's loss must depend on a unit's state through a b only")
    return loss


@cache
def per_skill_loss(resource: str) -> sp.Expr:
    r"""A skill's expected share of the loss as a function of its frequency ``P`` and of the resource: ``"time"``
    (t), ``"data"`` (n samples, t → ∞) or ``"parameters"`` (t → ∞: the loss of a skill k > p, unrepresented; a
    represented skill's is proved zero, so the loss is the integral over k > p)."""
    if resource == "time":
        ht = half_time(em.EMERGENCE)
        return _unit_loss(ht.product).xreplace({ht.t: t})
    if resource == "data":
        unseen = (1 - P) ** n
        seen, never = em.limit_strength(P), em.limit_strength(sp.S.Zero)
        return sp.simplify(unseen * _unit_loss(never) + (1 - unseen) * _unit_loss(seen))
    if resource == "parameters":
        if not prove_zero(_unit_loss(em.limit_strength(P))).holds:
            raise ValueError("a represented skill must be learned to zero loss")
        return _unit_loss(sp.S.Zero)
    raise ValueError(f"resource must be one of {sorted(RESOURCES)}, got {resource!r}")


@dataclass(frozen=True)
class Asymptotics:
    r""":math:`L(x) = \int_{k_0(x)}^\infty\ell(P_s(k), x)\,dk \sim x^\beta\int_{u_0}^\infty F(u)\,du`: the boundary
    :math:`k_*`, the exponent, the scaled integrand, the lower end :math:`u_0 = \lim k_0/k_*`, and the limits of
    :math:`u^{\alpha+1}F` at :math:`\infty` (``tail``) and of :math:`F` at :math:`u_0^+` (``head``)."""

    boundary: sp.Expr
    beta: sp.Expr
    F: sp.Expr
    u0: sp.Expr
    tail: sp.Expr
    head: sp.Expr


def _powers(expr: sp.Expr) -> sp.Expr:
    """Powers of products split, exponents cancelled and equal bases combined (all symbols are positive)."""
    split = sp.expand_power_base(expr, force=True)
    return sp.powsimp(split.replace(lambda e: e.is_Pow, lambda e: sp.Pow(e.base, sp.cancel(e.exp))), force=True)


def continuum_exponent(loss: sp.Expr, x: sp.Symbol, boundary: sp.Eq, lower: sp.Expr) -> Asymptotics:
    r"""The large-``x`` behaviour of :math:`\int_{lower}^\infty \ell(P_s(k), x)\,dk` for ``loss`` = ℓ(P, x):
    ``boundary`` is solved for :math:`k_*(x)`, and the exponent and scaled integrand are SymPy limits, taken in
    :math:`q = u^{-(\alpha+1)}` (the scaled frequency :math:`P_s(uk_*)/P_s(k_*)`)."""
    (boundary_k,) = sp.solve(boundary, k)
    term = loss.xreplace({P: FREQUENCY})
    scaled = _powers(boundary_k * term.xreplace({k: u * boundary_k})).subs(u ** (-alpha - 1), Q)
    if x not in scaled.free_symbols or u in scaled.free_symbols:
        raise ValueError(f"the scaled integrand must depend on the resource {x} and on u through q only: {scaled}")
    rate = sp.expand(x * sp.diff(sp.expand_log(sp.log(scaled), force=True), x))
    beta = sp.simplify(sp.limit(rate, x, sp.oo))
    rest = _powers(sp.simplify(scaled * x ** (-beta)))
    F = rest if x not in rest.free_symbols else sp.simplify(sp.limit(rest, x, sp.oo))
    u0 = sp.limit(lower / boundary_k, x, sp.oo)
    q0 = sp.oo if u0 == 0 else u0 ** (-alpha - 1)
    tail = sp.simplify(sp.limit(F / Q, Q, 0, "+"))  # u^(α+1) F at u → ∞
    head = sp.simplify(sp.limit(F, Q, q0, "-"))  # F at u → u_0+
    return Asymptotics(boundary_k, beta, F.xreplace({Q: u ** (-alpha - 1)}), u0, tail, head)


BOUNDARIES = {
    "time": (sp.Eq(t * FREQUENCY, 1), sp.S.One),
    "data": (sp.Eq(n * FREQUENCY, 1), sp.S.One),
    "parameters": (sp.Eq(k, p), p),
}
"""Per resource: the equation of the boundary k_* (a skill's time or sample scale 1/P_s(k) equal to the resource;
the width for parameters) and the lower end of the integral over k."""


@cache
def scaling(resource: str) -> Asymptotics:
    """The continuum asymptotics of the loss in ``resource`` (``RESOURCES``), derived."""
    boundary, lower = BOUNDARIES[resource]
    return continuum_exponent(per_skill_loss(resource), RESOURCES[resource], boundary, lower)


def integrable(asym: Asymptotics) -> Outcome:
    r""":math:`\int_{u_0}^\infty F\,du` is finite and positive for every α > 0: F ≥ 0, :math:`u^{\alpha+1}F` tends
    to a finite positive limit at ∞ (so F = O(u^{-(α+1)}), integrable, and not identically 0) and F to a finite
    limit at :math:`u_0^+`; signs decided by SymPy for every w_0 < S (S = w_0 + Δ, Δ > 0)."""
    gap = sp.Symbol("Delta", positive=True)  # S = w_0 + Δ: the admissible w_0 < S
    finite = all(v.is_finite for v in (asym.tail, asym.head))
    positive = all(v.xreplace({S: w0 + gap}).is_nonnegative for v in (asym.F, asym.head))
    positive = positive and asym.tail.xreplace({S: w0 + gap}).is_positive is True
    detail = (
        f"k_* = {asym.boundary}, F(u) = {asym.F}; u^(α+1) F → {asym.tail} (u → ∞), F → {asym.head} (u → {asym.u0}+)"
    )
    if not (finite and positive):
        return Outcome.error(f"∫F du not shown finite and positive: {detail}")
    return Outcome.proved("sympy limits of the scaled integrand at both ends (continuum approximation)", detail)


def _with_integrability(resource: str, claim_id: str) -> Callable[[], Outcome]:
    return all_of(lambda: integrable(scaling(resource)), lambda: PAPER.decide(PAPER[claim_id]))


beta_t, beta_n, beta_p = (
    PAPER.symbol(f"beta_{s}", rf"\beta_{{{s}}}", lambda r=r: scaling(r).beta, real=True)
    for s, r in (("t", "time"), ("n", "data"), ("p", "parameters"))
)
PAPER_EXPONENTS = {"time": -alpha / (alpha + 1), "data": -alpha / (alpha + 1), "parameters": -alpha}
"""The exponents the paper states (§4.4, after Nam et al. 2024): L ∝ t^{-α/(α+1)}, n^{-α/(α+1)}, p^{-α}."""
_COMMON = (
    "P_s(k) = k^{-(α+1)}/A, α > 0, infinitely many skills; the sum over skills replaced by its integral over k",
    "L ~ x^β ∫F du with β, F the SymPy limits of the scaled integrand; ∫F du finite and positive (checked)",
)
for resource, symbol, note in (
    ("time", beta_t, "ℓ_k(t) from the derived closed form R_k(t), balanced start a_k(0) = b_k(0) = √w_0 < √(S/2)"),
    ("data", beta_n, "n samples, one-shot: R_k(∞) = S if skill k is drawn, w_0 if not (the closed form's limits)"),
    ("parameters", beta_p, "width p: skills k ≤ p learned (R_k(∞) = S), the others unrepresented (R_k = 0)"),
):
    PAPER.claim(
        f"scaling.{resource}",
        sp.Eq(symbol, PAPER_EXPONENTS[resource]),
        where="§4.4 (scaling laws; the exponent in the continuum approximation)",
        derived=True,
        eq="11",
        assume=(*_COMMON, note),
        check=_with_integrability(resource, f"scaling.{resource}"),
        shared_work="nam2025.emergence",
    )


# ---------------------------------------------------------------- the exact sums over skills, numerically
ALPHAS = (0.5, 1.0, 2.0)
"""The power-law exponents of the numeric checks."""
SLOPE_TOLERANCE = 2e-3
"""|measured log-log slope − exponent|: the sums' corrections to the continuum are O(1/k_*) (k_* ≳ 60 here)."""
SKILLS = 2 * 10**5
"""Skills summed explicitly, P_s(k) = k^{-(α+1)}/ζ(α+1); the skills beyond are added as unlearned (``_tail``)."""
RANGES = {"time": (10.0**4, 10.0**5), "data": (10.0**4, 10.0**5), "parameters": (10.0**3, 10.0**4)}
"""The two resource values whose log-log slope is measured, per resource (at α = 1: k_* ≈ 60 … 250, 10³ … 10⁴)."""


@cache
def _unlearned(resource: str) -> sp.Expr:
    """lim_{P → 0} ℓ/P: a skill's loss per unit frequency when it is too rare to be learned (derived)."""
    return sp.limit(per_skill_loss(resource) / P, P, 0)


def _unlearned_value(resource: str) -> float:
    """``_unlearned`` at S = 1, w_0 = 10⁻⁴."""
    return float(_unlearned(resource).xreplace({S: 1, w0: sp.Rational(1, 10**4)}))


def _tail_mass(alpha_value: float, first: int) -> float:
    """Σ_{k > first} P_s(k) for infinitely many skills (Hurwitz ζ)."""
    from scipy.special import zeta

    return float(zeta(alpha_value + 1, first + 1) / zeta(alpha_value + 1))


def summed_loss(resource: str, alpha_value: float, xs: tuple[float, ...]) -> list[float]:
    """The sum over skills of the per-skill loss at each resource value of ``xs`` (S = 1, w_0 = 10⁻⁴). Time: the
    emergence model's closed form (numerics.trajectory) for the first SKILLS skills; the others (P_s t ≤ 10⁻³) keep
    their initial loss per unit frequency, read off the run at t = 0. Data: the derived ℓ_k summed over the first
    SKILLS skills, the others at lim ℓ/P (P → 0). Parameters: the skills k > p at lim ℓ/P, exactly."""
    import numpy as np
    from scipy.special import zeta

    if resource == "parameters":
        return [_unlearned_value(resource) * _tail_mass(alpha_value, int(x)) for x in xs]
    ks = np.arange(1, SKILLS + 1, dtype=float)
    freq = ks ** (-(alpha_value + 1)) / zeta(alpha_value + 1)
    if freq[-1] * max(xs) > 1e-3:
        raise ValueError(f"the skills beyond {SKILLS} are not unlearned at {resource} = {max(xs)}")
    mass = _tail_mass(alpha_value, SKILLS)
    if resource == "time":
        from numerics import trajectory

        start = np.full(SKILLS, 1e-2)
        params, init = {"S": 1.0, "P": freq}, {"a": start, "b": start}
        run = trajectory("emergence", [0.0, *xs], params, init, "closed_form", refine=False, quantities=("loss",))
        initial, *losses = (float(v) for v in run["loss"])
        return [v + initial / float(freq.sum()) * mass for v in losses]
    loss: Callable[..., np.ndarray] = sp.lambdify((P, RESOURCES[resource], S, w0), per_skill_loss(resource), "numpy")
    return [float(np.sum(loss(freq, x, 1.0, 1e-4))) + _unlearned_value(resource) * mass for x in xs]


def slope_check(resource: str, exponent: Callable[[float], float] | None = None) -> Outcome:
    """The log-log slope of the exact sum over skills between the two values of RANGES, for each α of ALPHAS,
    against ``exponent(α)`` (default: the paper's exponent, PAPER_EXPONENTS) within SLOPE_TOLERANCE."""
    import math

    beta = exponent or sp.lambdify(alpha, PAPER_EXPONENTS[resource])
    lo, hi = RANGES[resource]
    losses = [summed_loss(resource, av, (lo, hi)) for av in ALPHAS]
    slopes = [(math.log(high) - math.log(low)) / math.log(hi / lo) for low, high in losses]
    deviations = {f"α = {av}": s - float(beta(av)) for s, av in zip(slopes, ALPHAS, strict=True)}
    method = {
        "time": f"closed form (numerics.trajectory) over {SKILLS} skills and the unlearned tail (Hurwitz ζ)",
        "data": f"the derived per-skill loss summed over {SKILLS} skills and the unlearned tail (Hurwitz ζ)",
        "parameters": "the derived loss of the skills k > p (Hurwitz ζ)",
    }[resource]
    method = f"{method}, log-log slope"
    detail = (
        f"slopes {[round(s, 5) for s in slopes]} between {lo:g} and {hi:g} for α = {ALPHAS}; slope − exponent "
        f"{[f'{d:.1e}' for d in deviations.values()]} (tolerance {SLOPE_TOLERANCE:g})"
    )
    if max(abs(d) for d in deviations.values()) > SLOPE_TOLERANCE:
        return Outcome.refuted(method, {k: f"{d:.3g}" for k, d in deviations.items()}, detail)
    return Outcome.numeric(method, detail)


SUMMED = {
    "time": f"all skills: the first {SKILLS} by the closed form, the rest unlearned (Hurwitz ζ)",
    "data": f"all skills: the first {SKILLS} by the derived ℓ_k, the rest unlearned (Hurwitz ζ)",
    "parameters": "the skills k > p, exactly (Hurwitz ζ)",
}


def _slope_check(resource: str) -> Callable[[], Outcome]:
    return lambda: slope_check(resource)


for resource in RESOURCES:
    PAPER.claim(
        f"scaling.{resource}.numeric",
        f"The exact loss summed over skills has the log-log slope of §4.4's exponent in {RESOURCES[resource]}",
        where="§4.4 (scaling laws)",
        eq="11",
        assume=(
            SUMMED[resource],
            f"P_s(k) = k^{{-(α+1)}}/ζ(α+1), α ∈ {ALPHAS}, S = 1, w_0 = 10⁻⁴; {resource} ∈ {RANGES[resource]}",
        ),
        check=_slope_check(resource),
        shared_work="nam2025.emergence",
    )
