"""Claims of Dominé et al. 2025 on λ-balanced two-layer linear networks, as restated by Nam et al. 2025 (eq 14,
Theorem 2, App. F.1; spec ``shared/spec/models-nam2025.md`` §4). Model: ``lambda_balanced``; derivation:
``derivations.lambda_balanced``. The display of Theorem 2 is lost: γ(t; λ) = (ρ(t) − ρ0)/(ρ̃ − ρ0) is the
spec's reading, marked [uncertain form] in every claim that uses it.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from derivations import models
from derivations.lambda_balanced import SYMBOLS as L
from derivations.lambda_balanced import lambda_limits, transition_function
from derivations.matrix_flow import conserved_matrix_derivative
from proofs_check.checkers import (
    aligned_full_flow,
    all_of,
    closed_form_vs_ode,
    derivation_steps,
    free_algebra_zero,
    identities,
)
from proofs_check.claims import Citation, Claim, Outcome, register

PAPER = "domine2025"
BALANCED = models.get("lambda_balanced")
HYPERBOLIC = models.get("deep_linear_whitened")
DERIVATION = BALANCED.closed_form.derivation


def claim(cid: str, where: str, equation: str, title: str, statement: object, check, assumptions=()) -> None:
    reference = f"Dominé et al. 2025 (via Nam et al. 2025, {where})"
    register(Claim(f"{PAPER}.{cid}", Citation(PAPER, reference, where, equation), statement, check, assumptions, title))


def _transition_residuals() -> list[sp.Expr]:
    """gamma(0) = 0, and rho(w_+) = rho~ (so gamma -> 1 as w -> w_+)."""
    S, ell, K = sp.Symbol("S", positive=True), L.ell, L.K
    w_plus = (2 * S + K) / ell
    return [transition_function(S, L.rho0, ell, 0), ell / 4 * (w_plus - 1 / w_plus) - S]


def _transition() -> Outcome:
    S = sp.Symbol("S", positive=True)
    endpoints = identities(_transition_residuals(), relations=(L.K**2 - (L.ell**2 + 4 * S**2),))
    outcome = all_of(endpoints, derivation_steps(DERIVATION, ["Thm 2"]))()
    if outcome.status.value != "proved":
        return outcome
    return Outcome.proved(
        outcome.method + "; uniqueness of ODE solutions",
        "gamma(0) = 0; w -> w_+ (the engine's t -> oo step) and rho(w_+) = rho~, so gamma -> 1; "
        "gamma' = sqrt(lambda^2 + 4 rho^2)(1 - gamma) (derivation step 'Thm 2'), and 1 - gamma = (rho~ - rho)/(rho~ - "
        "rho_0) never vanishes because rho = rho~ is an equilibrium of a locally Lipschitz ODE, so gamma rises "
        "strictly from 0 to 1",
    )


def _limit(key: str) -> Outcome:
    proof = lambda_limits()[key]
    if proof.holds and proof.exact:
        return Outcome.proved(f"sympy.limit, then {proof.method}")
    return Outcome.refuted("sympy.limit", {}, f"residual {proof.residual}")


def _two_derivations() -> list[sp.Expr]:
    balanced, hyperbolic = BALANCED.closed_form, HYPERBOLIC.closed_form
    (g1, sol1), (g2, sol2) = next(iter(balanced.riccati.items())), next(iter(hyperbolic.riccati.items()))
    out = [
        c1 - c2
        for c1, c2 in zip((sol1.c2, sol1.c1, sol1.c0, sol1.y0), (sol2.c2, sol2.c1, sol2.c0, sol2.y0), strict=True)
    ]
    out += [balanced.state[n].xreplace({g1: g2}) - hyperbolic.state[n] for n in ("a", "b")]
    return out


rho_s, lam_s, rt = sp.Symbol("rho"), sp.Symbol("lambda"), sp.Symbol(r"\tilde\rho")
claim(
    "eq14.conserved",
    "eq 14",
    "14",
    "λ-balancedness W2W2ᵀ − W1ᵀW1 = λI is preserved by gradient flow (general sizes)",
    sp.Eq(sp.Symbol("W_2 W_2^T - W_1^T W_1"), sp.Symbol("lambda I")),
    free_algebra_zero(lambda: {"d/dt C": conserved_matrix_derivative()}, "W2 W2^T - W1^T W1 = const"),
)
claim(
    "mode_equation",
    "App. F.1",
    "F.1",
    "Aligned modes: ρ = s1 s2 obeys ρ̇ = sqrt(λ² + 4ρ²)(ρ̃ − ρ), λ = s2² − s1² conserved (derived from the mode flow)",
    sp.Eq(sp.Symbol(r"\dot\rho"), sp.sqrt(lam_s**2 + 4 * rho_s**2) * (rt - rho_s)),
    derivation_steps(DERIVATION, ["F.1", "14"]),
    ("Sigma_xx = I", "task-aligned, square, no bottleneck"),
)
claim(
    "w_riccati",
    "App. F.1",
    "F.1",
    "ρ = (ℓ/4)(w − 1/w), ℓ = |λ|: ẇ = −(ℓ/2)w² + 2ρ̃w + ℓ/2, roots w± = (2ρ̃ ± K)/ℓ, w0 = (2ρ0 + K0)/ℓ",
    sp.Eq(sp.Symbol(r"\dot w"), -L.ell / 2 * L.w**2 + 2 * rt * L.w + L.ell / 2),
    derivation_steps(DERIVATION, ["F.1 (w)"]),
    ("l = |lambda| > 0", "w > 0"),
)
claim(
    "theorem2.solution",
    "Theorem 2, App. F.1",
    "Thm 2",
    "w(t) = (w₊ − w₋ C e^{−Kt})/(1 − C e^{−Kt}), C = (w0 − w₊)/(w0 − w₋), and ρ(t) = (ℓ/4)(w − 1/w) "
    "(engine derivation)",
    sp.Eq(L.w, sp.Symbol("(w_+ - w_- C e^{-K t})/(1 - C e^{-K t})")),
    derivation_steps(DERIVATION, ["Thm 2"]),
)
claim(
    "theorem2.transition",
    "Theorem 2, App. F.1",
    "Thm 2",
    "γ(t; λ) = (ρ(t) − ρ0)/(ρ̃ − ρ0) [uncertain form] rises monotonically from γ(0) = 0 to 1",
    sp.Eq(sp.Symbol(r"\gamma(t;\lambda)"), (rho_s - sp.Symbol("rho_0")) / (rt - sp.Symbol("rho_0"))),
    _transition,
    ("rho~ > 0", "l > 0", "rho_0 != rho~"),
)
claim(
    "theorem2.limit_zero",
    "Theorem 2, App. F.1",
    "Thm 2",
    "λ → 0: ρ(t) → ρ̃ e^{2ρ̃t}/(e^{2ρ̃t} − 1 + ρ̃/ρ0), the sigmoid (proved by sympy.limit on the derived ρ(t))",
    sp.Eq(
        sp.Limit(rho_s, sp.Symbol("ell"), 0),
        rt * sp.exp(2 * rt * L.t) / (sp.exp(2 * rt * L.t) - 1 + rt / sp.Symbol("rho_0")),
    ),
    lambda: _limit("zero"),
    ("rho~ > 0", "rho_0 > 0"),
)
claim(
    "theorem2.limit_infinity",
    "Theorem 2, App. F.1",
    "Thm 2",
    "|λ| → ∞ at fixed τ = |λ|t: ρ → ρ̃ + (ρ0 − ρ̃) e^{−τ}, the linear model's exponential (lazy), by sympy.limit",
    sp.Eq(sp.Limit(rho_s, sp.Symbol("ell"), sp.oo), rt + (sp.Symbol("rho_0") - rt) * sp.exp(-L.tau)),
    lambda: _limit("infinity"),
    ("rho~ > 0", "t = tau / l"),
)
claim(
    "theorem2.agrees_with_hyperbolic",
    "Theorem 2, App. F.1",
    "",
    "The w-substitution and Saxe's hyperbolic coordinates give the same clock equation and the same a(t), b(t)",
    "gamma_w = gamma (same Riccati initial-value problem)",
    identities(_two_derivations()),
)
claim(
    "theorem2.numeric",
    "Theorem 2, App. F.1",
    "",
    "The mode closed form agrees with 30-digit integration of the mode flow (λ > 0, λ < 0, λ = 0, a0 = −b0)",
    "|x_closed - x_ode| / |x| <= 1e-25",
    closed_form_vs_ode(
        "lambda_balanced",
        [
            ({"S": np.array([1.5, 0.3])}, {"a": np.array([0.2, 1.1]), "b": np.array([0.9, 1.3])}),
            ({"S": np.array([0.8, -0.4])}, {"a": np.array([1.2, 0.5]), "b": np.array([0.3, -0.2])}),
            ({"S": np.array([1.0, 2.0])}, {"a": np.array([0.4, 0.7]), "b": np.array([0.4, -0.7])}),
        ],
        [0.0, 0.8, 3.0],
    ),
)
claim(
    "full_matrix_flow",
    "Theorem 2, App. F.1 (checked against the full network)",
    "",
    "Closed-form modes agree with 30-digit integration of the full matrix flow (d = 3, p = c = 2, random aligned "
    "λ-balanced inits, λ = 1.3 and −0.8), and GD on the full matrices converges to them as lr → 0",
    "|W_flow - W_closed| / |W| <= 1e-25",
    aligned_full_flow("lambda_balanced", [(21, 1.3), (22, -0.8)]),
    ("Sigma_xx = I",),
)
