"""Claims of Xu & Ziyin 2025 (ICLR; arXiv 2401.07085) on the power activation σ(z) = z^β.

Spec: ``shared/spec/models-xu-ziyin2025.md`` §3 and §8 (erratum 2). The flows are derived from the loss of
``derivations.models.power_activation``; the exact results are the recorded steps of
``derivations.power_activation``; the one-dimensional reduction is ``numerics.power_activation``. The claims are
added to ``proofs_check.papers.xu_ziyin2025.claims.PAPER``.
"""

from __future__ import annotations

import sympy as sp

from derivations.models.power_activation import MODEL, power_activation
from proofs_check.checkers import all_of, derivation_steps
from proofs_check.paper import Measurement
from proofs_check.papers.xu_ziyin2025.claims import PAPER

# the model's symbols, through its public Model.symbol (the same SymPy symbols for every beta)
u, w, V, gamma, eta_u, eta_w, a, b = (MODEL.symbol(n) for n in ("u", "w", "V", "gamma", "eta_u", "eta_w", "a", "b"))

SOURCE = "paper eqs 30, 33–35 per a secondary summary"
BETAS = (1, 2, 3)
REDUCTION_TOLERANCE = 1e-8


def where(section: str) -> str:
    """The power-activation claims cite the paper's equations as a secondary summary gives them."""
    return f"{section} ({SOURCE}; reconstructed)"


def _derivation(beta: int):
    from derivations.power_activation import derivation

    return derivation(beta)


for _beta in BETAS:
    conserved_rate = PAPER.symbol(
        f"c_dot_beta{_beta}",
        rf"\tfrac{{d}}{{dt}}\bigl({_beta}\,\eta_w u_i^2 - \eta_u w_i^2\bigr)",
        lambda beta=_beta: power_activation(beta).unit_time_derivative(beta * eta_w * u**2 - eta_u * w**2),
    )
    PAPER.claim(
        f"power.conserved.beta{_beta}",
        sp.Eq(conserved_rate, 0),
        where=where(f"power activation, β = {_beta}"),
        assume=("the flow of one neuron, derived from the loss",),
    )
PAPER.claim(
    "power.clock",
    "Common clock τ̇ = γE_β: du/dτ = −η_u w^β, dw/dτ = −η_w β u w^{β−1} for every neuron (β = 1, 2, 3)",
    where=where("power activation"),
    check=lambda: all_of(*(derivation_steps(_derivation(beta), ["clock"]) for beta in BETAS))(),
)
PAPER.claim(
    "power.delta",
    "Δᵢ(t) = Fᵢ(wᵢ(t)) − Fᵢ(wᵢ(0)) = −τ(t) for every neuron: d/dt [Fᵢ(wᵢ) + τ] = 0 (β = 1, 2, 3)",
    where=where("power activation"),
    eq="30",
    assume=("uᵢ ≠ 0 along the path (cᵢ > 0); wᵢ ≠ 0 for β ≥ 2",),
    check=lambda: all_of(*(derivation_steps(_derivation(beta), ["curve", "Delta"]) for beta in BETAS))(),
)


def _beta2_steps():
    from derivations.power_activation import beta2_derivation

    return derivation_steps(beta2_derivation(), ["F beta=2", "Delta beta=2"])()


def _beta1_steps():
    from derivations.power_activation import beta1_derivation

    return derivation_steps(beta1_derivation(), ["p", "ln p", "F beta=1"])()


PAPER.claim(
    "power.F_beta2",
    "β = 2, cᵢ > 0: Fᵢ(w) = −asinh(√cᵢ/(√η_u w))/√(2η_w cᵢ) solves eq. 30 and Δᵢ = −τ",
    where=where("power activation, β = 2"),
    eq="30",
    assume=("cᵢ > 0", "uᵢ > 0, wᵢ > 0"),
    check=_beta2_steps,
)
PAPER.claim(
    "power.log_p_beta1",
    "β = 1: ln pᵢ(t) − ln pᵢ(0) = −√(η_u η_w) τ(t), and eq. 30 gives Fᵢ = ln pᵢ/√(η_u η_w) + const",
    where=where("power activation, β = 1"),
    eq="35",
    assume=("pᵢ(0) > 0",),
    check=_beta1_steps,
)


def _log_rate(F) -> sp.Expr:
    from derivations.power_activation import P

    return power_activation(1).unit_time_derivative(F(P))


tau_rate = PAPER.symbol("tau'_dot", r"\dot\tau'", sp.sqrt(eta_u * eta_w) * gamma * (gamma * a * V - b), real=True)
printed_rate = PAPER.symbol("F_exp_dot", r"\tfrac{d}{dt} F_i(p_i)\big|_{F_i = \exp}", lambda: _log_rate(sp.exp))
corrected_rate = PAPER.symbol("F_log_dot", r"\tfrac{d}{dt} F_i(p_i)\big|_{F_i = \ln}", lambda: _log_rate(sp.log))
PAPER.claim(
    "power.erratum2",
    sp.Eq(printed_rate, -tau_rate),
    where=where("eq. 30 at β = 1 (erratum 2 of the public review)"),
    eq="30",
    assume=("x = pᵢ = √η_w uᵢ + √η_u wᵢ > 0", "τ̇' = √(η_u η_w) τ̇: the printed Fᵢ(x) = eˣ, the correct Fᵢ(x) = ln x"),
    corrected=sp.Eq(corrected_rate, -tau_rate),
)


def _reduction_error() -> Measurement:
    """The β >= 3 reduction (1-D clock ODE on the neuron curves) against the full derived flow (DOP853)."""
    import numpy as np

    from numerics import trajectory
    from numerics.power_activation import reduced_trajectory

    params = {"gamma": 1.3, "eta_u": 0.7, "eta_w": 1.1, "a": 1.5, "b": 0.9}
    cases = {
        3: {"u": np.array([0.9, 0.8, -0.6]), "w": np.array([0.7, 0.5, 0.4])},
        4: {"u": np.array([0.9, 1.1, 0.6, -0.5]), "w": np.array([0.7, 0.8, -0.6, 0.5])},
    }
    t = np.linspace(0, 8, 9)
    errors = []
    for beta, init in cases.items():
        reduced = reduced_trajectory(beta, t, params, init)
        full = trajectory(power_activation(beta), t, params, init, method="scipy")
        got = np.concatenate([reduced["u"], reduced["w"]], axis=-1)
        expected = np.concatenate([full["u"], full["w"]], axis=-1)
        errors.append(float(np.max(np.max(np.abs(got - expected), axis=-1) / np.linalg.norm(expected, axis=-1))))
    method = "DOP853 (rtol 1e-13): 1-D clock ODE on the neuron curves vs the full derived flow"
    return Measurement(errors, method, "β = 3, 4; widths 3, 4; t in [0, 8]")


PAPER.experiment(
    "power.reduction",
    _reduction_error,
    quantity=PAPER.symbol(
        "err_reduction", r"\max_t \lVert x_{\mathrm{reduced}} - x\rVert_\infty/\lVert x\rVert", nonnegative=True
    ),
    tolerance=REDUCTION_TOLERANCE,
    where=where("power activation, β ≥ 3"),
    eq="33",
    assume=("τ̇ = γ(γ a Σ uᵢ(τ) wᵢ(τ)^β − b) on the per-neuron curves",),
)
