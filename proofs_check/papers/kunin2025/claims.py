"""Claims of Kunin et al. 2025, "Alternating gradient flows" (NeurIPS 2025; arXiv 2506.06489).

Spec: ``shared/spec/agf-kunin2025.md`` §3 (Algorithm 1), §4 (settings), §5 (reference tests A–D). The predictions
come from ``numerics.agf``; the ground truth is gradient flow from initialization scale alpha (Radau) at alpha =
1e-4, 1e-8, 1e-16 (1e-32 for the diagonal network), measured as in spec §5. The checks live in
``kunin2025_checks`` (imported when a check runs: it needs the numerics). Exact results are proved (SymPy);
everything measured is at most numerically supported; the paper's conjecture is labelled as such.

Forms the spec marks [U] and the reading chosen here (stated in each claim): eq. 2 is read as the utility
U = E<f_i, r> with the dormant flow theta' = eta grad U, its norm/direction split and thresholds at norm 1 (κ > 2:
c = (||theta_0||^{2-κ} - 1)/(κ - 2); the blow-up value ||theta_0||^{2-κ}/(κ - 2) is derived too); eq. 9 as
tau_k - tau_{k-1} >= alpha/(3 U*_k max_D ||theta_i||) in rescaled time (the eq. 7 logic with Theorem 5.1's U*_k);
Theorem 5.2 as: for neurons aligned to one frequency k, L = L_{not k} + p sum_h |C_h|^2 over nine harmonics, so L >=
L_{not k} with equality iff the eight unwanted harmonics cancel and the wanted one matches. The κ = 3 and
simultaneous-activation problems are ours (``proofs_check.papers.kunin2025.quadratic_problems``): the spec gives none
with
finite data.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import sympy as sp

from proofs_check.claims import Outcome
from proofs_check.paper import Paper
from proofs_check.papers.kunin2025.structure import STRUCTURE

PAPER = Paper(
    "kunin2025",
    "Alternating gradient flows: a theory of feature learning in two-layer neural networks",
    (
        "Daniel Kunin",
        "Giovanni Luca Marchetti",
        "Feng Chen",
        "Dhruva Karkada",
        "James B. Simon",
        "Michael R. DeWeese",
        "Surya Ganguli",
        "Nina Miolane",
    ),
    "NeurIPS",
    2025,
    url="https://arxiv.org/abs/2506.06489",
    structure=STRUCTURE,
)


def check(name: str, *args: object) -> Callable[[], Outcome]:
    """The check ``kunin2025_checks.<name>(*args)``, imported when it runs."""

    def run() -> Outcome:
        found = getattr(importlib.import_module("proofs_check.papers.kunin2025.checks"), name)
        return found(*args)() if args else found()

    return run


PAPER.claim(
    "dln.pf_staircase",
    "Diagonal network (test A): PF Algorithm 1, t_{k+1} = t_k + inf{δ : s_k − δ∇L(β_k) hits ±1} with β_k the "
    "sign-constrained least squares on the saturated coordinates, is a staircase whose every step meets these "
    "defining conditions",
    where="§3 (diagonal networks)",
    assume=("data of reference test A (rng 10, d = 5, n = 20)", "loss ‖Xβ − y‖²/(2n)"),
    check=check("_pf_reference"),
)
PAPER.claim(
    "dln.agf_is_pf",
    "Diagonal network: Algorithm 1 (dormant flow exact in log coordinates, collapse rule S = c) reproduces PF "
    "Algorithm 1, and a dormant neuron's accumulated utility ηSᵢ/cᵢ equals PF's |sᵢ| (activation at ηSᵢ = cᵢ)",
    where="§3 (diagonal networks)",
    assume=("init u = √2 α, v = 0", "thresholds at norm 1; rescaled time t/log(1/α)"),
    check=check("_agf_is_pf"),
)
PAPER.claim(
    "dln.theorem3_1",
    "Theorem 3.1 (proved in the paper; here its reduction and dormant limits are proved, dln.theorem3_1.*, and the "
    "convergence of the rescaled flow to PF's path is checked numerically): diagonal-network gradient flow converges "
    "to AGF as α → 0: |τ_GF − τ_AGF| log(1/α) bounded, same order, plateaus at ℓ_k",
    where="Theorem 3.1",
    assume=("α = 1e-4, 1e-8, 1e-16, 1e-32", "jump = first loss crossing of √(ℓ_{k−1}ℓ_k) (ℓ_{k−1}/100 for ℓ_k = 0)"),
    check=check("_dln_theorem"),
)
PAPER.claim(
    "dln.gd_time_map",
    "Diagonal network: plain GD with lr 1e-3 and t = lr·steps follows the same staircase as GF (jump times within "
    "0.5 %)",
    where="setup (rescaled time of gradient descent)",
    assume=("α = 1e-4, 1e-8", "u = √2 α, v = 0"),
    check=check("_gd_time_map"),
)
PAPER.claim(
    "dln.redormancy",
    "Re-dormancy (test B): collapse at t₂ = 0.600 with S = c, s₁ = 0 at (t₂ + t₃)/2 = 2.029 = the GF sign change",
    where="§3 (Algorithm 1, collapse rule)",
    assume=("PF 2-D example X = chol(R diag(1, 25) Rᵀ), β* = (−0.2, 2)",),
    check=check("_redormancy"),
)
PAPER.claim(
    "fcn.saddles",
    "Fully connected network: GF plateaus are the reduced-rank regression saddles, ℓ_k = ½(tr Σyy − Σ_{j≤k} μ_j)",
    where="§4 (linear networks)",
    assume=("population loss, d = c = H = 4",),
    check=check("_fcn_saddles"),
)
PAPER.claim(
    "fcn.whitened_jump_times",
    "Fully connected network, commuting case (Σxx = I): jump times τ_k = 1/σ_k(Σyx) (exact AGF prediction; GF "
    "checked numerically)",
    where="§4 (linear networks)",
    assume=("Σxx = I", "init aᵢ ~ N(0, α²/(2c)), wᵢ ~ N(0, α²/(2d)) (standard deviations)"),
    check=check("_fcn_times", True),
)
PAPER.claim(
    "fcn.agf_commuting",
    "Fully connected network, commuting case: Algorithm 1 (numerics.agf, 4 random neurons) gives the saddles and "
    "τ_k = 1/σ_k",
    where="§4 (linear networks)",
    assume=("Σxx = I", "α = 1e-25 … 1e-300 (log coordinates)"),
    check=check("_fcn_agf_commuting"),
)
PAPER.claim(
    "fcn.conjecture4_1",
    "Conjecture 4.1 (a conjecture of the paper, checked numerically): non-commuting jump times satisfy "
    "Σ_{i<k} σ^{(i)}_{k−i} (τ_{i+1} − τ_i) = 1",
    where="Conjecture 4.1",
    assume=("Σxx = Q diag(3, 1, 0.3, 0.1) Qᵀ, not commuting with ΣyxᵀΣyx",),
    check=check("_fcn_times", False),
)
PAPER.claim(
    "attention.levels_exact",
    "Attention: the critical point learning components 1..k has loss ℓ_k = ½[tr Σ − Σ_j Nλ_j²/(tr Σ + (N+1)λ_j)], "
    "with γ_j = 1/(tr Σ + (N+1)λ_j)",
    where="§4 (linear transformer)",
    assume=(
        "Σ = diag(λ), Γ diagonal",
        "xₙ, x_q ~ N(0, Σ), w ~ N(0, I) independent, y = wᵀx: L(Γ) derived from them (SymPy), at D = 3",
    ),
    check=check("_attention_levels_exact"),
)
PAPER.claim(
    "attention.plateaus",
    "Attention: GF plateaus sit at ℓ_k and heads learn principal components in decreasing λ",
    where="§4 (linear transformer)",
    assume=("λ = (1, 0.6, 0.3), N = 5, H = 3", "α = 1e-2, 1e-3, 1e-4"),
    check=check("_attention_plateaus"),
)
PAPER.claim(
    "attention.jump_bound",
    "Attention: measured jump times satisfy eq. 7, τ_k − τ_{k−1} ≥ √3/(ηNλ_k² max_{i∈D} ‖θᵢ(τ_{k−1})‖)",
    where="§4, eq. 7 (form from the authors' code)",
    eq="7",
    assume=("dormant heads: norm < 0.1 at the previous jump",),
    check=check("_attention_bound"),
)
PAPER.claim(
    "modular.fourier_form",
    "Modular addition: U = (2/p³) Re Σ_k û_k v̂_k conj(ŵ_k) |x̂_k|² conj(x̂_k) for a mean-centred template",
    where="§5 (modular addition)",
    check=check("_fourier_form"),
)
PAPER.claim(
    "modular.theorem5_1",
    "Theorem 5.1 (checked numerically): utility maximizers are cosines at k*, φ_w = φ_u + φ_v − arg x̂[k*], "
    "U* = ½(2/(3p))^{3/2}|x̂[k*]|³",
    where="Theorem 5.1",
    assume=("p = 13, random mean-centred template",),
    check=check("_theorem51"),
)


# ---------------------------------------------------------------- eq. 2: the utility and the dormant dynamics
# Derived by SymPy from the two-layer network's loss at d = c = n = 2 with symbolic data, for kappa = 2 (linear
# sigma) and kappa = 3 (quadratic sigma), stacked: proofs_check.papers.kunin2025.agf_utility. Spec §2 gives eq. 2's
# content as [U].
def _stacked(name: str, side: int, power: bool = False) -> Callable[[], sp.Matrix]:
    """The ``side`` (0: lhs, 1: rhs) of ``proofs_check.papers.kunin2025.agf_utility.<name>(kappa)`` for kappa = 2 and
    3, stacked;
    ``power`` multiplies kappa's block by s^{2 kappa - 1} (the homogeneity of the dormant gap)."""

    def build() -> sp.Matrix:
        from proofs_check.papers.kunin2025 import agf_utility as au

        blocks = []
        for kappa in au.KAPPAS:
            value = getattr(au, name)(kappa)[side]
            part = value if isinstance(value, sp.MatrixBase) else sp.Matrix([value])
            blocks.append(part * au.scale ** (2 * kappa - 1) if power else part)
        return sp.Matrix.vstack(*blocks)

    return build


EQ2 = "§2, eq. 2 (its content as reconstructed; uncertain)"
EQ2_SIZES = (
    "f(x) = Σᵢ aᵢ σ(wᵢᵀx), σ(z) = z^{κ−1}, κ = 2 (linear) and κ = 3 (quadratic), stacked",
    "d = c = n = 2 with symbolic data, loss (1/2n) Σ‖y − f‖²",
)
neg_grad_L = PAPER.symbol("neg_grad_L", r"-\nabla_{\theta_i}\mathcal L", _stacked("gradient", 0))
grad_U = PAPER.symbol("grad_U_r", r"\nabla_\theta\mathcal U(\theta_i; r)", _stacked("gradient", 1))
gap_scaled = PAPER.symbol("gap_scaled", r"\Delta(s\theta_i)", _stacked("dormant_gap", 0))
gap_power = PAPER.symbol("gap_power", r"s^{2\kappa-1}\Delta(\theta_i)", _stacked("dormant_gap", 1, power=True))
euler_lhs = PAPER.symbol("theta_grad_U", r"\langle\theta, \nabla\mathcal U(\theta)\rangle", _stacked("euler", 0))
kappa_U = PAPER.symbol("kappa_U", r"\kappa\,\mathcal U(\theta)", _stacked("euler", 1))
norm_dot = PAPER.symbol("norm_dot", r"\tfrac{d}{dt}\lVert\theta\rVert", _stacked("norm_rate", 0))
norm_law = PAPER.symbol(
    "norm_law", r"\eta\kappa\lVert\theta\rVert^{\kappa-1}\mathcal U(\bar\theta)", _stacked("norm_rate", 1)
)
dir_dot = PAPER.symbol("dir_dot", r"\tfrac{d}{dt}\bar\theta", _stacked("direction_rate", 0))
dir_law = PAPER.symbol(
    "dir_law",
    r"\eta\lVert\theta\rVert^{\kappa-2}P^\perp_{\bar\theta}\nabla\mathcal U(\bar\theta)",
    _stacked("direction_rate", 1),
)


def _derived(module: str, name: str, index: int) -> Callable[[], sp.Basic]:
    """Item ``index`` of ``proofs_check.papers.kunin2025.<module>.<name>()``, computed when the claim is checked."""
    return lambda: getattr(importlib.import_module(f"proofs_check.papers.kunin2025.{module}"), name)()[index]


threshold_integral = PAPER.symbol(
    "eta_S_at_threshold",
    r"\textstyle\int_{\lVert\theta_0\rVert}^{\nu_*}\nu^{1-\kappa}\,d\nu",
    _derived("agf_utility", "threshold_integrals", 0),
)
threshold = PAPER.symbol("c_threshold", "c", _derived("agf_utility", "threshold_integrals", 1))

for _name, _lhs, _rhs, _assumed in (
    ("gradient", neg_grad_L, grad_U, ("r = y − f the residual of the whole network, held fixed in ∇U",)),
    (
        "dormant_flow",
        gap_scaled,
        gap_power,
        (
            "Δ(θᵢ) = −∇_{θᵢ}L − ∇U(θᵢ; r_A), r_A = y − f_A the residual of the other (active) neuron: "
            "the dormant flow θ̇ᵢ = η∇U(θᵢ; r_A) up to terms of degree 2κ − 1 in θᵢ",
        ),
    ),
    ("euler", euler_lhs, kappa_U, ()),
    ("norm", norm_dot, norm_law, ("θ̇ = η∇U(θ; r) (dormant flow), θ̄ = θ/‖θ‖",)),
    (
        "direction",
        dir_dot,
        dir_law,
        ("θ̇ = η∇U(θ; r), P⊥ the projection orthogonal to θ̄: projected gradient ascent on the sphere",),
    ),
):
    PAPER.claim(f"utility.{_name}", sp.Eq(_lhs, _rhs), where=EQ2, eq="2", assume=(*EQ2_SIZES, *_assumed))
PAPER.claim(
    "utility.thresholds",
    sp.Eq(threshold_integral, threshold),
    where="§2, eq. 2 and the thresholds c_i (normalization convention-dependent)",
    eq="2",
    assume=(
        "the norm equation separated: the integral of ν^{1−κ} dν from ‖θ₀‖ to ‖θ‖ equals ηS (sympy.integrate)",
        "rows: κ = 2 and κ = 2 + m > 2 up to norm ν* = 1 (the package's threshold), κ > 2 up to ν* = ∞ (blow-up)",
    ),
)


# ---------------------------------------------------------------- Theorem 3.1: the parts that are proved
mirror_lhs = PAPER.symbol(
    "mirror_lhs", r"(\dot u_i, \dot v_i, u_iv_i, \lVert\theta_i\rVert^2)", _derived("dln_limit", "mirror_flow", 0)
)
mirror_rhs = PAPER.symbol(
    "mirror_rhs",
    r"(-\partial_{u_i}\mathcal L, -\partial_{v_i}\mathcal L, \alpha^2\sinh 2x_i, 2\alpha^2\cosh 2x_i)",
    _derived("dln_limit", "mirror_flow", 1),
)
dormant_limit = PAPER.symbol(
    "dormant_limits",
    r"\lim_{\alpha\to0}\bigl(\tfrac{\log\lVert\theta_i\rVert}{\log(1/\alpha)}, \tfrac{\eta\mathcal S_i}{c_i}, "
    r"\tfrac{\log\lvert\beta_i\rvert}{\log(1/\alpha)}\bigr)",
    _derived("dln_limit", "dormant_limits", 0),
)
dormant_value = PAPER.symbol("dormant_values", r"(s_i - 1, s_i, 2s_i - 2)", _derived("dln_limit", "dormant_limits", 1))
PAPER.claim(
    "dln.theorem3_1.mirror_flow",
    sp.Eq(mirror_lhs, mirror_rhs),
    where="Theorem 3.1 (its proof's reduction)",
    assume=(
        "uᵢ = √2α cosh xᵢ, vᵢ = √2α sinh xᵢ, ẋᵢ = −∂L/∂βᵢ =: −g, xᵢ(0) = 0 (init u = √2α, v = 0)",
        "−∂L/∂u, −∂L/∂v by the chain rule from L(uv)",
    ),
)
PAPER.claim(
    "dln.theorem3_1.dormant_limits",
    sp.Eq(dormant_limit, dormant_value),
    where="Theorem 3.1 (AGF's accumulated utility is PF's dual variable)",
    assume=("xᵢ = sᵢ log(1/α), sᵢ > 0 (sᵢ < 0 is the mirror image)", "‖θᵢ(0)‖ = √2α, cᵢ = −log‖θᵢ(0)‖"),
)


# ---------------------------------------------------------------- Theorem 5.2 (modular addition)
def _single_fraction(equal: bool) -> Callable[[], sp.Expr]:
    def build() -> sp.Expr:
        from proofs_check.papers.kunin2025.modular_harmonics import single_neuron_fraction, u2, v2

        fraction = single_neuron_fraction()
        return fraction.subs(v2, u2) if equal else fraction

    return build


def _cyclic_energy() -> sp.Expr:
    from proofs_check.papers.kunin2025.modular_harmonics import cyclic_fit

    return sp.Add(*(sp.expand(c * sp.conjugate(c)) for c in cyclic_fit().values()))


THM52 = "Theorem 5.2 (its statement as reconstructed; uncertain)"
loss_mod = PAPER.symbol("L_mod", r"\mathcal L", _derived("modular_harmonics", "loss_identity", 0))
loss_rest = PAPER.symbol("L_rest", r"\mathcal L_{\neg k}", _derived("modular_harmonics", "loss_identity", 1))
harmonic_energy = PAPER.symbol(
    "harmonic_energy", r"p\sum_h\lvert C_h\rvert^2", _derived("modular_harmonics", "loss_identity", 2)
)
captured = PAPER.symbol("captured_fraction", r"\phi_1(\lvert U\rvert^2, \lvert V\rvert^2)", _single_fraction(False))
captured_equal = PAPER.symbol(
    "captured_fraction_equal", r"\phi_1(\lvert U\rvert^2, \lvert U\rvert^2)", _single_fraction(True)
)
cyclic = PAPER.symbol("E_cyclic", r"\sum_h\lvert C_h\rvert^2_{\mathrm{6\ cyclic\ neurons}}", _cyclic_energy)
PAPER.claim(
    "modular.theorem5_2",
    sp.Eq(loss_mod, sp.Add(loss_rest, harmonic_energy, evaluate=False)),
    where=THM52,
    assume=(
        "neurons aligned to frequency k (u, v, w in span{cos ωj, sin ωj}, ω = 2πk/p), p prime ≥ 5, 0 < k < p",
        "means over Z_p³ as constant terms of Laurent polynomials in e^{iωa}, e^{iωb}, e^{iωc}",
        "C_h: the error's 9 harmonics (wanted c − a − b; unwanted 2a, 2b, −2a, −2b, constant, a − b, b − a, a + b in "
        "c + ·); L ≥ L_{¬k} (frequency k fully fit), with equality iff every C_h = 0; two neurons (cross terms)",
    ),
)
PAPER.claim(
    "modular.theorem5_2.single_neuron",
    sp.And(sp.Le(captured, sp.Rational(1, 9)), sp.Eq(captured_equal, sp.Rational(1, 9))),
    where=THM52,
    assume=("one neuron, W optimal (sympy.solve of its gradient): φ₁ the captured fraction of frequency k's energy",),
)
PAPER.claim(
    "modular.theorem5_2.six_neurons",
    sp.Eq(cyclic, 0),
    where=THM52,
    assume=(
        "Uⱼ = e^{2πij/6}, Vⱼ = e^{2πi·4j/6}, Wⱼ = w UⱼVⱼ, w solved from the wanted harmonic (exact roots of unity)",
    ),
)
PAPER.claim(
    "modular.theorem5_2.fractions",
    "The least unfit fraction of a frequency's energy with m neurons aligned to it is 8/9, 5/9 for m = 1, 2 and 0 "
    "for m = 6 (the real network's loss, minimized numerically)",
    where=THM52,
    assume=(
        "p = 5 template (modular_template(5, seed=3)), its dominant frequency",
        "L-BFGS from random starts in the frequency's span (the fractions do not depend on p)",
    ),
    check=check("_span_fractions"),
)
PAPER.claim(
    "modular.plateau_levels",
    "With the K dominant frequencies fully fit the loss is ℓ_K = ½(‖x‖² − Σ_{j≤K} P_{k_j}), P_k = 2|x̂_k|²/p "
    "(the authors' mean-MSE: 2ℓ_K/p); six cyclic neurons per learned frequency reach it",
    where="§5 (modular addition)",
    assume=("p = 13 template of test D", "loss ½ mean over the p² pairs of ‖y − f‖²"),
    check=check("_plateau_levels"),
)
PAPER.claim(
    "modular.plateau_levels.even_p",
    "Even p (the authors' p = 20): the levels are ℓ_K = ½(‖x‖² − Σ_{j≤K} P_{k_j}) with P_{p/2} = |x̂_{p/2}|²/p for the "
    "self-conjugate frequency p/2 (counted once); 6 cyclic neurons per frequency k < p/2 and 2 for p/2 reach them",
    where="§5 (modular addition)",
    assume=(
        "p = 20: a random template (modular_template(20), frequency 10 present) and the authors' template "
        "(x̂₁ = 10, x̂₃ = 5, x̂₅ = 2.5; modsum-agf.ipynb)",
        "loss ½ mean over the p² pairs of ‖y − f‖²",
    ),
    check=check("_plateau_levels_even"),
)
PAPER.claim(
    "modular.eq9_bound",
    "Modular addition: measured GF jump times satisfy eq. 9, τ_k − τ_{k−1} ≥ α/(3U*_k max_{i∈D}‖θᵢ(τ_{k−1})‖) with "
    "U*_k Theorem 5.1's maximal utility at the k-th largest |x̂_k|",
    where="§5, eq. 9 (its form as reconstructed; uncertain)",
    eq="9",
    assume=("p = 5, H = 12, α = 1e-2, rescaled time tα", "dormant: norm < 0.1 at the previous jump"),
    check=check("_eq9_bound"),
)


# ---------------------------------------------------------------- kappa = 3 and simultaneous activation
KAPPA3 = "§2–§3 (κ = 3, quadratic activations)"
PAPER.claim(
    "kappa3.jump_times",
    "κ = 3 (quadratic σ): AGF (Algorithm 1) and gradient flow of the network from scale α have the same sequence of "
    "active sets, and |τ_GF − τ_AGF| = O(α) in rescaled time tα: |τ_GF − τ_AGF|/α ≤ 2, relative error → 0",
    where=KAPPA3,
    assume=(
        "teacher y = Σ s_k x_k², s = (3, 1, 0.3), n = 60, d = 3, H = 3 (quadratic_problems.teacher_problem)",
        "α = 1e-2, 1e-3, 1e-4",
    ),
    check=check("_kappa3_jump_times"),
)
PAPER.claim(
    "kappa3.plateaus",
    "κ = 3: the GF loss at the plateau midpoints tends to AGF's loss levels as α → 0",
    where=KAPPA3,
    assume=("teacher problem, α = 1e-2, 1e-3, 1e-4",),
    check=check("_kappa3_plateaus"),
)
PAPER.claim(
    "kappa3.jump_bound",
    "κ = 3: measured GF jump times satisfy the eq. 7/9 lower bound τ_k − τ_{k−1} ≥ α/(3U*_k max_{i∈D}‖θᵢ(τ_{k−1})‖) "
    "(perfect alignment), U*_k the maximal utility against the residual of the (k−1)-th saddle",
    where="eqs. 7 and 9 (the κ > 2 bound)",
    assume=("teacher problem, α = 1e-2, 1e-3, 1e-4", "U* = 2|μ_max(M)|/(3√3), M = (1/n)Σ r xxᵀ"),
    check=check("_kappa3_bound"),
)
SIMULTANEOUS = "§3, Algorithm 1 (I* may hold several indices)"
PAPER.claim(
    "simultaneous.dln",
    "Simultaneous activation, κ = 2: with a tie (β* = (2, 2, 1), orthogonal design) AGF activates coordinates 1 and 2 "
    "in one jump at PF's t = 1/2, and GF drops past the one-coordinate level without a plateau",
    where=SIMULTANEOUS,
    assume=("X = √3 I, y = Xβ*, init u = √2α, v = 0", "GF at α = 1e-4, 1e-8, 1e-16 (exact DLN flow, Radau)"),
    check=check("_simultaneous_dln"),
)
PAPER.claim(
    "simultaneous.quadratic",
    "Simultaneous activation, κ = 3: on mirror-symmetric data two mirror-image neurons reach the threshold together; "
    "AGF activates both in one jump and GF moves them together, with AGF's jump times",
    where=SIMULTANEOUS,
    assume=("quadratic_problems.mirrored_problem: data closed under x₁ ↔ x₂", "α = 1e-2, 1e-3, 1e-4"),
    check=check("_simultaneous_quadratic"),
)
