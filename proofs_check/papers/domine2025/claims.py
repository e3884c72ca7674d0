"""Claims of Dominé et al. 2025 on λ-balanced two-layer linear networks, as restated by Nam et al. 2025 (eq 14,
Theorem 2, App. F.1; spec ``shared/spec/models-nam2025.md`` §4). Model: ``lambda_balanced``; derivation:
``proofs_check.papers.domine2025.lambda_balanced``. The display of Theorem 2 is lost: γ(t; λ) = (ρ(t) − ρ0)/(ρ̃ − ρ0)
is the
spec's reading, marked [uncertain form] in every claim that uses it.

The unaligned solution (claims ``unaligned.*``; the authors' ``Nico31415/LinearNetworkDynamics/qqt_lambda_balanced.py``)
is stated in the paper orientation with Q = [W1; W2^T] (the authors' [W1^T; W2] in their orientation f = W2 W1 x):
derivation ``proofs_check.papers.domine2025.unaligned``, numerics ``proofs_check.papers.domine2025.qqt``.
"""

from __future__ import annotations

import sympy as sp

from derivations import models
from proofs_check.checkers import (
    aligned_full_flow,
    all_of,
    closed_form_error,
    deferred,
    derivation_steps,
    free_algebra_zero,
    identities,
    reference_integrator,
)
from proofs_check.claims import Outcome
from proofs_check.paper import Paper
from proofs_check.papers.domine2025.lambda_balanced import SYMBOLS as L
from proofs_check.papers.domine2025.structure import STRUCTURE

BALANCED = models.get("lambda_balanced")
HYPERBOLIC = models.get("deep_linear_whitened")
PAPER = Paper(
    "domine2025",
    "From lazy to rich: exact learning dynamics in deep linear networks",
    (
        "Clémentine C. J. Dominé",
        "Nicolas Anguita",
        "Alexandra M. Proca",
        "Lukas Braun",
        "Daniel Kunin",
        "Pedro A. M. Mediano",
        "Andrew M. Saxe",
    ),
    "ICLR",
    2025,
    url="https://arxiv.org/abs/2409.14623",
    models=("lambda_balanced",),
    # the equation numbers of the mode flow and the conserved imbalance (step keys of derivations.solve)
    equation_tags={"lambda_balanced": {"flow": "F.1", "conserved": "14"}},
    structure=STRUCTURE,
)


def via(part: str) -> str:
    """Where a result of the paper is cited: λ-balanced networks, as Nam et al. 2025 restate it at ``part`` (their
    numbering; this paper's own is unknown)."""
    return f"λ-balanced networks (Nam et al. 2025 restate it as {part})"


# Theorem 2's derivation (proofs_check.papers.domine2025.lambda_balanced.theorem2) is in the spec's notation
for _name, _latex in (
    ("lambda", r"\lambda"),
    ("ell", r"\ell"),
    ("rho", r"\rho"),
    ("rho_0", r"\rho_0"),
    ("w", "w"),
    ("w_0", "w_0"),
    ("K", "K"),
):
    PAPER.symbol(_name, _latex)


def DERIVATION():
    """Theorem 2's derivation from the mode flow (``proofs_check.papers.domine2025.lambda_balanced.theorem2``)."""
    from proofs_check.papers.domine2025.lambda_balanced import theorem2

    return theorem2()


def _step(tag: str):
    """The last step of the recorded derivation tagged ``tag`` (its relation is the claim's statement)."""
    return lambda: DERIVATION().by_tag(tag)[-1].relation


def _transition() -> Outcome:
    from proofs_check.papers.domine2025.lambda_balanced import transition_function

    S = sp.Symbol("S", positive=True)
    w_plus = (2 * S + L.K) / L.ell
    residuals = [transition_function(S, L.rho0, L.ell, 0), L.ell / 4 * (w_plus - 1 / w_plus) - S]
    endpoints = identities(residuals, relations=(L.K**2 - (L.ell**2 + 4 * S**2),))
    outcome = all_of(endpoints, derivation_steps(DERIVATION(), ["Thm 2"]))()
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
    from proofs_check.papers.domine2025.lambda_balanced import lambda_limits

    proof = lambda_limits()[key]
    if proof.holds and proof.exact:
        return Outcome.proved(f"sympy.limit, then {proof.method}")
    return Outcome.refuted("sympy.limit", {}, f"residual {proof.residual}")


def _two_derivations() -> list[sp.Expr]:
    """Theorem 2's w against the derived closed form's clock gamma: w = w_0 gamma, i.e. w_0 times the clock
    equation is the w-equation at w = w_0 gamma, with l w_0 = (a_0 + b_0)^2 and l / w_0 = (a_0 - b_0)^2
    (l = |a_0^2 - b_0^2|); and the two models' closed forms coincide (the same mode flow)."""
    from proofs_check.papers.domine2025.lambda_balanced import _w_equation

    balanced, hyperbolic = BALANCED.closed_form, HYPERBOLIC.closed_form
    ((gamma, clock),) = balanced.riccati.items()
    S, a0, b0 = BALANCED.symbol("S"), BALANCED.init_symbol("a"), BALANCED.init_symbol("b")
    w_rhs, _ = _w_equation(S)
    u0, v0 = a0 + b0, a0 - b0
    in_clock = (
        (w_rhs.xreplace({L.w: L.w0 * gamma}) / L.w0).xreplace({L.w0: u0**2 / L.ell}).xreplace({L.ell: sp.Abs(u0 * v0)})
    )
    out = [in_clock - clock.rhs]
    out += [balanced.in_initial_values()[n] - hyperbolic.in_initial_values()[n] for n in ("a", "b")]
    return out


def _conserved() -> dict:
    from derivations.matrix_flow import conserved_matrix_derivative

    return {"d/dt C": conserved_matrix_derivative()}


PAPER.claim(
    "eq14.conserved",
    "λ-balancedness W₂W₂ᵀ − W₁ᵀW₁ = λI is preserved by gradient flow (general sizes)",
    where=via("eq. 14"),
    check=free_algebra_zero(_conserved, "W2 W2^T - W1^T W1 = const"),
)
PAPER.claim(
    "mode_equation",
    _step("F.1"),
    where=via("App. F.1"),
    assume=("Σxx = I", "task-aligned, square, no bottleneck", "ρ = s₁s₂, λ = s₂² − s₁² conserved"),
    check=lambda: derivation_steps(DERIVATION(), ["F.1", "14"])(),
)
PAPER.claim(
    "w_riccati",
    _step("F.1 (w)"),
    where=via("App. F.1"),
    assume=("ℓ = |λ| > 0", "w > 0", "ρ = (ℓ/4)(w − 1/w)"),
    check=lambda: derivation_steps(DERIVATION(), ["F.1 (w)"])(),
)
PAPER.claim(
    "theorem2.solution",
    _step("Thm 2"),
    where=via("Theorem 2 in App. F.1"),
    check=lambda: derivation_steps(DERIVATION(), ["Thm 2"])(),
)
PAPER.claim(
    "theorem2.transition",
    "γ(t; λ) = (ρ(t) − ρ0)/(ρ̃ − ρ0) [uncertain form] rises monotonically from γ(0) = 0 to 1",
    where=via("Theorem 2 in App. F.1, uncertain form"),
    assume=("ρ̃ > 0", "ℓ > 0", "ρ0 ≠ ρ̃"),
    check=_transition,
)
PAPER.claim(
    "theorem2.limit_zero",
    "λ → 0: ρ(t) → ρ̃ e^{2ρ̃t}/(e^{2ρ̃t} − 1 + ρ̃/ρ0), the sigmoid (sympy.limit on the derived ρ(t))",
    where=via("Theorem 2 in App. F.1"),
    assume=("ρ̃ > 0", "ρ0 > 0"),
    check=lambda: _limit("zero"),
)
PAPER.claim(
    "theorem2.limit_infinity",
    "|λ| → ∞ at fixed τ = |λ|t: ρ → ρ̃ + (ρ0 − ρ̃) e^{−τ}, the linear model's exponential (lazy), by sympy.limit",
    where=via("Theorem 2 in App. F.1"),
    assume=("ρ̃ > 0", "t = τ/ℓ"),
    check=lambda: _limit("infinity"),
)
PAPER.claim(
    "theorem2.agrees_with_hyperbolic",
    "Theorem 2's w is w(0) times the derived clock γ (the same Riccati equation under w = w(0)γ), and a(t), b(t) "
    "agree with Saxe's hyperbolic coordinates",
    where=via("Theorem 2 in App. F.1"),
    check=deferred(lambda: identities(_two_derivations())),
)


def _modes_error():
    import numpy as np

    cases = [
        ({"S": np.array([1.5, 0.3])}, {"a": np.array([0.2, 1.1]), "b": np.array([0.9, 1.3])}),
        ({"S": np.array([0.8, -0.4])}, {"a": np.array([1.2, 0.5]), "b": np.array([0.3, -0.2])}),
        ({"S": np.array([1.0, 2.0])}, {"a": np.array([0.4, 0.7]), "b": np.array([0.4, -0.7])}),
    ]
    return closed_form_error("lambda_balanced", cases, [0.0, 0.8, 3.0])


PAPER.experiment(
    "theorem2.numeric",
    _modes_error,
    quantity=PAPER.symbol(
        "err_modes", r"\max_t \lVert x_{\mathrm{closed}} - x_{\mathrm{ODE}}\rVert/\lVert x\rVert", nonnegative=True
    ),
    tolerance=1e-25,
    where=via("Theorem 2 in App. F.1"),
    assume=("λ > 0, λ < 0, λ = 0, a0 = −b0", "30-digit ODE: heyoka Taylor, else mpmath.odefun"),
)
PAPER.claim(
    "full_matrix_flow",
    "Closed-form modes agree with 30-digit integration of the full matrix flow (d = 3, p = c = 2, random aligned "
    "λ-balanced inits, λ = 1.3 and −0.8), and GD on the full matrices converges to them as lr → 0",
    where=via("Theorem 2 in App. F.1, checked against the full network"),
    assume=("Σxx = I",),
    check=aligned_full_flow("lambda_balanced", [(21, 1.3), (22, -0.8)]),
)


# ---------------------------------------------------------------- the unaligned solution (QQ^T)
# The solution of Dominé et al. for λ-balanced starts in any frame (Fukumizu's QQ^T, the authors' code
# Nico31415/LinearNetworkDynamics/qqt_lambda_balanced.py): paper orientation, Q = [W1; W2^T], Σxx = I
# (proofs_check.papers.domine2025.unaligned; proofs_check.papers.domine2025.qqt evaluates it).
UNALIGNED = "the QQᵀ solution of unaligned λ-balanced starts"
for _name, _latex in (
    ("\\dot P", r"\dot P"),
    ("P", "P"),
    ("F", "F"),
    ("E", "e^{Ft}"),
    ("Q_0", "Q_0"),
    ("Q_0^T", r"Q_0^\top"),
    ("M^-1", "M^{-1}"),
    ("mu_pm", r"\mu_\pm"),
    ("s", "s"),
    ("mu_0", r"\mu_0"),
    ("F^2", "F^2"),
    ("W_1", "W_1"),
    ("W_2", "W_2"),
    ("W_1^T", r"W_1^\top"),
    ("W_2^T", r"W_2^\top"),
    ("Sigma_xy", r"\Sigma_{xy}"),
    ("Sigma_yx", r"\Sigma_{yx}"),
    ("\\dot W_1", r"\dot W_1"),
    ("\\dot W_2^T", r"\dot W_2^\top"),
):
    PAPER.symbol(_name, _latex)


def UNALIGNED_DERIVATION():
    """The derivation of the QQ^T solution (``proofs_check.papers.domine2025.unaligned.unaligned_solution``)."""
    from proofs_check.papers.domine2025.unaligned import unaligned_solution

    return unaligned_solution()


def _keyed(key: str, index: int = 0):
    """Step ``index`` of the QQ^T derivation recorded under ``key`` (its relation is the claim's statement)."""
    return lambda: UNALIGNED_DERIVATION().by_key(key)[index].relation


def _unaligned_steps(*keys: str):
    return lambda: derivation_steps(UNALIGNED_DERIVATION(), (), keys)()


UNALIGNED_CASES = ((3, 2, 2, 1.3, 11), (2, 2, 3, -0.8, 12), (3, 3, 3, 0.6, 13), (3, 3, 3, -1.5, 14))
"""(d, p, c, lambda, seed) of the random unaligned λ-balanced starts of the 30-digit comparison."""


def _thirty_digit_verdict(pairs: list, method: str, detail: str) -> Outcome:
    """Numerically supported iff every (value, reference) pair of mpf arrays agrees to 1e-26 relative (30 digits)."""
    import mpmath

    with mpmath.workdps(30):
        worst = max(
            max(abs(x - y) for x, y in zip(value.ravel(), reference.ravel(), strict=True))
            / max(abs(y) for y in reference.ravel())
            for value, reference in pairs
        )
    detail = f"max relative error {mpmath.nstr(worst, 3)}; {detail}"
    if worst > mpmath.mpf(10) ** -26:
        return Outcome.refuted(method, {"max relative error": mpmath.nstr(worst, 5)}, detail)
    return Outcome.numeric(method, detail)


def _unaligned_full_flow() -> Outcome:
    import mpmath
    import numpy as np

    from derivations.models.linear_network import linear_network
    from numerics import trajectory
    from numerics.linear_network import init_to_weights, moment_params, weights_to_init
    from proofs_check.papers.domine2025.qqt import qqt, unaligned_start

    times, dps, pairs = [0.0, 0.7, 3.0], 30, []
    method, _ = reference_integrator()
    for d, p, c, lam, seed in UNALIGNED_CASES:
        W1, W2, Sxy = unaligned_start(d, p, c, lam, seed=seed)
        with mpmath.workdps(dps + 10):
            params = moment_params(np.eye(d, dtype=int) * mpmath.mpf(1), Sxy)
        run = trajectory(linear_network(d, c), times, params, weights_to_init(W1, W2), method=method, dps=dps)
        closed = qqt(W1, W2, Sxy, times, dps=dps)
        with mpmath.workdps(dps):
            for k in range(len(times)):
                A, B = init_to_weights({n: v[k] for n, v in run.items() if n.startswith("W")})
                Q = np.vstack([A, B.T])
                pairs.append((closed[k], Q @ Q.T))
    cases = "; ".join(f"d={d}, p={p}, c={c}, lambda={lam}" for d, p, c, lam, _ in UNALIGNED_CASES)
    return _thirty_digit_verdict(
        pairs,
        f"QQᵀ in F's eigenbasis (mpmath.eigsy, {dps} digits) vs the integrated flow of linear_network",
        f"t = {times} over {cases} ({method}, {dps} digits)",
    )


def _unaligned_aligned_limit() -> Outcome:
    import mpmath

    from numerics import trajectory
    from numerics.aligned import aligned_case
    from proofs_check.papers.domine2025.qqt import qqt, qqt_blocks

    times, dps, pairs = [0.5, 2.0], 30, []
    for lam, seed in ((0.9, 31), (-1.2, 32)):
        case = aligned_case(lam=lam, seed=seed)
        with mpmath.workdps(case.dps):
            Sxy = case.U @ (case.rho[:, None] * case.V.T)
        maps = qqt_blocks(qqt(*case.weights(), Sxy, times, dps=dps), case.U.shape[0])["map"]
        modes = trajectory("lambda_balanced", times, {"S": case.rho}, {"a": case.a, "b": case.b}, dps=dps)
        with mpmath.workdps(dps):
            pairs += [
                (maps[k], case.V @ ((modes["a"][k] * modes["b"][k])[:, None] * case.U.T)) for k in range(len(times))
            ]
    return _thirty_digit_verdict(
        pairs,
        "QQᵀ solution vs the lambda_balanced closed form (Theorem 2's modes), both at 30 digits",
        f"lambda = 0.9, -1.2; t = {times}; {dps} digits",
    )


PAPER.claim(
    "unaligned.flow",
    _keyed("Q"),
    where=UNALIGNED,
    assume=("paper orientation, Q = [W1; W2^T]", "Σxx = I", "W2W2ᵀ − W1ᵀW1 = λI (eq 14)", "any sizes d, p, c"),
    check=_unaligned_steps("Q"),
)
PAPER.claim(
    "unaligned.riccati",
    _keyed("Riccati"),
    where=UNALIGNED,
    assume=("P = QQᵀ, F = [[−λ/2 I_d, Σxy], [Σyx, λ/2 I_c]]",),
    check=_unaligned_steps("Q", "Riccati"),
)
PAPER.claim(
    "unaligned.solution",
    _keyed("QQT"),
    where=UNALIGNED,
    assume=("E = exp(Ft), M = I_p + Q0ᵀ(∫₀ᵗ exp(2Fs) ds)Q0 ⪰ I_p", "P(0) = Q0Q0ᵀ"),
    check=_unaligned_steps("Riccati", "QQT"),
)
PAPER.claim(
    "unaligned.spectrum",
    _keyed("spectrum", 1),
    where=UNALIGNED,
    assume=("(u, v, s) a singular triple of Σxy", "|d − c| further eigenvalues ∓λ/2 on the kernels"),
    check=_unaligned_steps("spectrum"),
)
PAPER.claim(
    "unaligned.full_flow",
    "The QQᵀ solution matches 30-digit integration of the full matrix flow (linear_network) from random unaligned "
    "λ-balanced starts: (d, p, c) = (3, 2, 2), (2, 2, 3), (3, 3, 3), λ = 1.3, −0.8, 0.6, −1.5",
    where=UNALIGNED,
    assume=("Σxx = I, random Gaussian Σxy", "starts exact to 40 digits (domine2025.qqt.unaligned_start)"),
    check=_unaligned_full_flow,
)
PAPER.claim(
    "unaligned.aligned_limit",
    "From a task-aligned λ-balanced start the QQᵀ solution's network map W₂ᵀW₁ᵀ(t) is V diag(ρ(t)) Uᵀ with ρ(t) the "
    "modes of Theorem 2 (the lambda_balanced closed form)",
    where=UNALIGNED,
    assume=("Σxy = U diag(ρ̃) Vᵀ, d = 3, p = c = 2",),
    check=_unaligned_aligned_limit,
)
