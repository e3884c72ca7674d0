"""Claims of Kunin et al. 2025, "Alternating gradient flows" (NeurIPS 2025; arXiv 2506.06489).

Spec: ``shared/spec/agf-kunin2025.md`` §3 (Algorithm 1), §4 (settings), §5 (reference tests A–D). The predictions
come from ``numerics.agf``; the ground truth is gradient flow from initialization scale alpha (Radau) at alpha =
1e-4, 1e-8, 1e-16 (1e-32 for the diagonal network), measured as in spec §5. The checks live in
``kunin2025_checks`` (imported when a check runs: it needs the numerics). Exact results are proved (SymPy);
everything measured is at most numerically supported; the paper's conjecture is labelled as such.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from proofs_check.claims import Outcome
from proofs_check.paper import Paper

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
)


def check(name: str, *args: object) -> Callable[[], Outcome]:
    """The check ``kunin2025_checks.<name>(*args)``, imported when it runs."""

    def run() -> Outcome:
        found = getattr(importlib.import_module("proofs_check.papers.kunin2025_checks"), name)
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
    "Theorem 3.1 (proved in the paper; checked numerically here): diagonal-network gradient flow converges to AGF "
    "as α → 0: |τ_GF − τ_AGF| log(1/α) bounded, same order, plateaus at ℓ_k",
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
    assume=("Σ = diag(λ), Γ diagonal", "Wishart moments of C = Σₙ xₙxₙᵀ"),
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
