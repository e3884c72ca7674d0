r"""Claims of Nam et al. 2025, §4.2 and §5.1: the loss staircase of the diagonal linear network (eq 6) from a small
balanced start, with plateau levels :math:`\tfrac12\sum_{j>k}\lambda_jS_j^2` (modes ordered by decreasing
:math:`S_j\lambda_j`, §5.1).

Derived here from the decoupled modes' closed forms (eq 9): a mode's share of the loss,
:math:`\ell_i = \tfrac12\lambda_i(S_i - a_ib_i)^2` (the model's loss quantity) with :math:`a_ib_i(t)` of the
derived closed form from :math:`a_i(0) = b_i(0) = \sqrt{w_0}`, is taken at the time
:math:`t = \tau\ln(1/w_0)` as :math:`w_0\to0`: the mode's threshold :math:`\tau_i = \lim t_{1/2}/\ln(1/w_0)` and
the limits of :math:`\ell_i` just before (:math:`\tau = \tau_i/(1+\varepsilon)`) and after
(:math:`\tau = \tau_i(1+\varepsilon)`), for every :math:`\varepsilon > 0`. The loss being the sum of the modes'
shares, between the :math:`k`-th and :math:`(k+1)`-th thresholds it sits at :math:`\tfrac12\sum_{j>k}\lambda_jS_j^2`.
The numeric claim compares that level with the loss of the integrated flow.

§5.1: the matrix network's task-aligned modes (eq 12: eq 9 with :math:`S_i\to\rho_i`, :math:`\lambda_i\to1`) are
learned in decreasing order of the singular values :math:`\rho_i` of :math:`\Sigma_{xy}`: the half-time ratio from
the derived closed form of ``deep_linear_whitened``, and gradient descent on the full weight matrices.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

import sympy as sp

from derivations import models
from proofs_check.claims import Outcome
from proofs_check.papers.nam2025 import claims_emergence as em
from proofs_check.papers.nam2025.claims import PAPER
from proofs_check.papers.nam2025.half_time import START, TARGET, half_time

__all__ = ["mode_limits", "plateau_check", "rho_order"]

DIAGONAL = models.get("diagonal_linear_network")
S, w0, lam = TARGET, START, DIAGONAL.symbol("lam")
eps = PAPER.symbol("epsilon", r"\varepsilon", positive=True)


@cache
def mode_limits() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    r"""(:math:`\tau_i`, :math:`\lim\ell_i` before, :math:`\lim\ell_i` after) of one mode, as :math:`w_0\to0^+`."""
    ht = half_time(DIAGONAL)
    a, b = DIAGONAL.symbol("a"), DIAGONAL.symbol("b")
    loss = DIAGONAL.quantities["loss"].expr.xreplace({DIAGONAL.symbol("S"): S})
    share = sp.simplify(loss.xreplace({a: ht.product / b}))
    if b in share.free_symbols:
        raise ValueError("the diagonal network's loss must depend on a mode's state through a b only")
    threshold = sp.limit(ht.t_half / sp.log(1 / w0), w0, 0, "+")

    def at(factor: sp.Expr) -> sp.Expr:
        return sp.limit(share.xreplace({ht.t: threshold * factor * sp.log(1 / w0)}), w0, 0, "+")

    return threshold, at(1 / (1 + eps)), at(1 + eps)


tau_i, before, after = (
    PAPER.symbol(name, latex, lambda i=i: mode_limits()[i], real=True)
    for i, (name, latex) in enumerate(
        (
            ("tau_i", r"\tau_i"),
            ("ell_before", r"\lim_{w_0\to0}\ell_i\bigl(\tfrac{\tau_i}{1+\varepsilon}\ln\tfrac1{w_0}\bigr)"),
            ("ell_after", r"\lim_{w_0\to0}\ell_i\bigl((1+\varepsilon)\tau_i\ln\tfrac1{w_0}\bigr)"),
        )
    )
)
PAPER.claim(
    "staircase.plateaus",
    sp.Eq(sp.Matrix([tau_i, before, after]), sp.Matrix([1 / (2 * S * lam), lam * S**2 / 2, 0]), evaluate=False),
    where="§4.2 (loss staircase; the modes' limits from eq. 9)",
    derived=True,
    eq="6, 9",
    assume=(
        "a mode of the diagonal network, a(0) = b(0) = √w_0, S_i, λ_i > 0, ε > 0, w_0 → 0 at t = τ ln(1/w_0)",
        "ℓ_i = ½λ_i(S_i − a_ib_i)² with a_ib_i(t) of the derived closed form; t_1/2 solved from it",
        "so L = Σ_i ℓ_i sits at ½Σ_{j>k} λ_jS_j² between the k-th and (k+1)-th thresholds (modes by S_jλ_j)",
    ),
    shared_work="nam2025.sec5",
)

MODES = em.MODES
"""(S_i, λ_i) of the numeric check (those of ``sec5.ordering.numeric``: thresholds 1/(2Sλ) = 1/6, 1/4, 1/3, 5/8)."""
SMALL = 1e-24
"""The start a_i(0) b_i(0) = w_0 of the numeric check."""
PLATEAU_TOLERANCE = 0.005
r"""Relative |L − level|: at finite w_0 the nearest modes are off their limits by about
:math:`w_0^{|\tau/\tau_i - 1|}` (≲ 0.1% at the midpoints here)."""


def plateau_check(
    key: Callable[[float, float], float] = lambda s, r: s * r,
    level: Callable[[float, float], float] = lambda s, r: r * s**2 / 2,
) -> Outcome:
    """The diagonal network's modes (``MODES``) integrated by DOP853 from a(0) = b(0) = √SMALL: the loss at the
    midpoints (in τ = t/ln(1/w_0)) between consecutive thresholds, before the first and after the last, against
    Σ_{j>k} level(S_j, λ_j) with the modes ordered by decreasing ``key(S, λ)`` (paper: S λ, ½λS²)."""
    import math

    import numpy as np

    from numerics import trajectory

    targets, rates = (np.array(column) for column in zip(*MODES, strict=True))
    threshold = sp.lambdify((S, lam), mode_limits()[0])  # τ_i of the claim staircase.plateaus
    thresholds = sorted(float(threshold(s, r)) for s, r in MODES)
    order = sorted(range(len(MODES)), key=lambda i: -key(*MODES[i]))
    levels = [sum(level(*MODES[j]) for j in order[k:]) for k in range(len(MODES) + 1)]
    edges = [0.0, *thresholds, 2 * thresholds[-1]]
    taus = [(lo + hi) / 2 for lo, hi in itertools.pairwise(edges)]
    times = np.array([0.0, *(tau * math.log(1 / SMALL) for tau in taus)])
    start = np.full(len(MODES), math.sqrt(SMALL))
    run = trajectory("diagonal_linear_network", times, {"S": targets, "lam": rates}, {"a": start, "b": start}, "scipy")
    measured = [float(v) for v in run["loss"][1:]]
    errors = [abs(m - lv) / max(lv, 1e-300) if lv else abs(m) for m, lv in zip(measured, levels, strict=True)]
    detail = (
        f"τ = {[round(tau, 4) for tau in taus]}: loss {[round(m, 5) for m in measured]} vs levels "
        f"{[round(lv, 5) for lv in levels]} (relative deviation ≤ {max(errors):.1e}; last level 0: absolute)"
    )
    if max(errors) > PLATEAU_TOLERANCE:
        return Outcome.refuted("DOP853 on the diagonal network", {"loss": measured, "levels": levels}, detail)
    return Outcome.numeric(f"DOP853 on the diagonal network ({len(MODES)} modes, w_0 = {SMALL:g})", detail)


PAPER.claim(
    "staircase.numeric",
    "The integrated loss sits at ½Σ_{j>k} λ_jS_j² between the k-th and (k+1)-th mode thresholds",
    where="§4.2 (loss staircase)",
    eq="6, 9",
    assume=(f"(S, λ) = {MODES}; a(0) = b(0) = 10⁻¹² (w_0 = {SMALL:g}); loss at the midpoints in τ = t/ln(1/w_0)",),
    check=plateau_check,
    shared_work="nam2025.sec5",
)


# ---------------------------------------------------------------- §5.1: the matrix network's modes in order of ρ
WHITENED = models.get("deep_linear_whitened")
rho_i, rho_j = (PAPER.symbol(f"rho_{i}", rf"\rho_{i}", positive=True) for i in "ij")
t_rho_i, t_rho_j = (
    PAPER.symbol(f"t_1/2,rho_{i}", rf"t_{{1/2}}(\rho_{i})", lambda r=r: half_time(WHITENED).t_half.xreplace({S: r}))
    for i, r in (("i", rho_i), ("j", rho_j))
)
PAPER.claim(
    "sec5.rho_ordering",
    sp.Eq(sp.Limit(t_rho_i / t_rho_j, w0, 0), rho_j / rho_i),
    where="§5.1 (the modes of the matrix network; the half-time ratio)",
    derived=True,
    eq="12",
    assume=(
        "Σxx = I, Σxy = U diag(ρ) Vᵀ: task-aligned balanced modes α_i(0)² = w_0 of deep_linear_whitened, ρ_i > 0",
        "t_1/2 solved from the derived closed form: at small init the mode with the larger ρ is learned first",
    ),
    check=lambda: em.with_steps(WHITENED, "sec5.rho_ordering")(),
    shared_work="nam2025.appC3",
)
RHOS = (3.0, 1.0, 2.0)
"""The singular values ρ_i of Σxy of the numeric check (d = 4 inputs, c = 3 outputs, width 3)."""


def rho_order(key: Callable[[float], float] = lambda rho: rho) -> Outcome:
    """Full-batch gradient descent on the weight matrices (numerics.matrix_gradient_descent, lr 0.01) of the linear
    network f(x) = W₂ᵀW₁ᵀx with Σxx = I and Σxy = U diag(RHOS) Vᵀ (random orthonormal U, V), from a random start of
    scale 10⁻⁴: the modes' strengths u_iᵀW₁W₂v_i reach ρ_i/2 in decreasing order of ``key(ρ_i)``."""
    import numpy as np

    from numerics.linear_network import matrix_gradient_descent
    from proofs_check.papers.nam2025.emergence import crossing_times

    rng = np.random.default_rng(0)
    d, c, width, lr, chunk = 4, len(RHOS), 3, 0.01, 10
    U = np.linalg.qr(rng.standard_normal((d, d)))[0][:, :c]
    V = np.linalg.qr(rng.standard_normal((c, c)))[0]
    rho = np.array(RHOS)
    Sxy = U @ np.diag(rho) @ V.T
    W1, W2 = 1e-4 * rng.standard_normal((d, width)), 1e-4 * rng.standard_normal((width, c))
    times, strengths = [0.0], [np.einsum("di,de,ec,ci->i", U, W1, W2, V)]
    while times[-1] < 12.0:
        W1, W2 = matrix_gradient_descent(W1, W2, np.eye(d), Sxy, lr, chunk)
        times.append(times[-1] + lr * chunk)
        strengths.append(np.einsum("di,de,ec,ci->i", U, W1, W2, V))
    half = crossing_times(np.array(times), np.array(strengths) / rho, 0.5)
    order, predicted = np.argsort(half).tolist(), np.argsort([-key(r) for r in RHOS]).tolist()
    detail = f"ρ = {RHOS}: half-times {np.round(half, 3).tolist()}, order {order}, predicted {predicted}"
    if order != predicted:
        return Outcome.refuted(
            "gradient descent on the matrix network", {"order": order, "predicted": predicted}, detail
        )
    return Outcome.numeric("gradient descent on the weight matrices (d = 4, c = 3, width 3, lr 0.01)", detail)


PAPER.claim(
    "sec5.rho_ordering.numeric",
    "The matrix network's modes (singular directions of Σxy) are learned in decreasing order of ρ_i",
    where="§5.1",
    eq="12",
    assume=(f"Σxx = I, ρ = {RHOS}, random orthonormal U, V and random start of scale 10⁻⁴ (seed 0)",),
    check=rho_order,
)
