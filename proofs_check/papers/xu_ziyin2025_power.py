"""Claims of Xu & Ziyin 2025 (ICLR; arXiv 2401.07085) on the power activation sigma(z) = z^beta.

Spec: ``shared/spec/models-xu-ziyin2025.md`` §3 and §8 (erratum 2). The flows are derived from the loss of
``derivations.models.power_activation``; the exact results are the recorded steps of
``derivations.power_activation``; the one-dimensional reduction is ``numerics.power_activation``.
Nothing is registered on import: ``claims()`` builds the list.
"""

from __future__ import annotations

import random

import mpmath
import numpy as np
import sympy as sp

from derivations.models.power_activation import V, a, b, eta_u, eta_w, gamma, power_activation, u, w
from derivations.power_activation import beta1_clock_residual, beta1_derivation, beta2_derivation, derivation
from numerics import trajectory
from numerics.power_activation import reduced_trajectory
from proofs_check.checkers import all_of, derivation_steps, erratum, identities
from proofs_check.claims import Citation, Claim, Outcome

PAPER = "xu_ziyin2025"
SOURCE = "spec §3; paper eqs 30, 33–35 per a secondary summary"
BETAS = (1, 2, 3)
REDUCTION_TOLERANCE = 1e-8


def _cite(where: str, equation: str = "", source: str = SOURCE) -> Citation:
    return Citation(PAPER, f"Xu & Ziyin 2025, {where} ({source})", "power activation (spec §3)", equation)


def _claim(cid: str, where: str, equation: str, title: str, statement: object, check, assumptions=()) -> Claim:
    return Claim(f"{PAPER}.power.{cid}", _cite(where, equation), statement, check, tuple(assumptions), title)


def _conservation_residuals(beta: int, width: int = 3) -> list[sp.Expr]:
    """d/dt (beta eta_w u_i^2 - eta_u w_i^2) along the explicit width-3 flow, for every neuron i."""
    inst = power_activation(beta).instance(width)
    uu, ww = inst.state["u"], inst.state["w"]
    return [inst.time_derivative(beta * eta_w * uu[i] ** 2 - eta_u * ww[i] ** 2) for i in range(width)]


def _point(i: int) -> dict[sp.Symbol, mpmath.mpf]:
    """A random point of the beta = 1 unit state (u, w > 0, so p > 0) and parameters (deterministic in i)."""
    rng = random.Random(2025 + i)
    positive = {s: mpmath.mpf(rng.uniform(0.2, 3)) for s in (gamma, eta_u, eta_w, a, u, w)}
    return {**positive, **{s: mpmath.mpf(rng.uniform(-2, 2)) for s in (V, b)}}


def _reduction_check() -> Outcome:
    """The beta >= 3 reduction (1-D clock ODE on the neuron curves) against the full derived flow (DOP853)."""
    params = {"gamma": 1.3, "eta_u": 0.7, "eta_w": 1.1, "a": 1.5, "b": 0.9}
    cases = {
        3: {"u": np.array([0.9, 0.8, -0.6]), "w": np.array([0.7, 0.5, 0.4])},
        4: {"u": np.array([0.9, 1.1, 0.6, -0.5]), "w": np.array([0.7, 0.8, -0.6, 0.5])},
    }
    t = np.linspace(0, 8, 9)
    worst = 0.0
    for beta, init in cases.items():
        reduced = reduced_trajectory(beta, t, params, init)
        full = trajectory(power_activation(beta), t, params, init, method="scipy")
        got = np.concatenate([reduced["u"], reduced["w"]], axis=-1)
        expected = np.concatenate([full["u"], full["w"]], axis=-1)
        error = float(np.max(np.max(np.abs(got - expected), axis=-1) / np.linalg.norm(expected, axis=-1)))
        if not error <= REDUCTION_TOLERANCE:
            return Outcome.refuted("reduced vs full flow (DOP853)", {"beta": beta, "relative error": error})
        worst = max(worst, error)
    detail = f"beta = 3, 4; widths 3, 4; t in [0, 8]; max relative error {worst:.1e} <= {REDUCTION_TOLERANCE:.0e}"
    return Outcome.numeric("DOP853 (rtol 1e-13): 1-D clock ODE on the neuron curves vs the full derived flow", detail)


def claims() -> list[Claim]:
    """The power-activation claims (ids ``xu_ziyin2025.power.*``), unregistered."""
    exact = "u_i != 0 along the path (c_i > 0); w_i != 0 for beta >= 2"
    out = [
        _claim(
            f"conserved.beta{beta}",
            "power activation",
            "",
            f"c_i = {beta} eta_w u_i² − eta_u w_i² is conserved for every neuron (β = {beta})",
            sp.Eq(sp.Symbol(r"\dot c_i"), 0),
            identities(_conservation_residuals(beta)),
            ("explicit width-3 flow derived from the loss",),
        )
        for beta in BETAS
    ]
    steps = {beta: derivation(beta) for beta in BETAS}
    out += [
        _claim(
            "clock",
            "power activation",
            "",
            "Common clock τ̇ = γE_β: du/dτ = −η_u w^β, dw/dτ = −η_w β u w^{β−1} for every neuron (β = 1, 2, 3)",
            "du_i/dtau = -eta_u w_i^beta, dw_i/dtau = -eta_w beta u_i w_i^(beta-1), tau' = gamma E_beta",
            all_of(*(derivation_steps(steps[beta], ["clock"]) for beta in BETAS)),
        ),
        _claim(
            "delta",
            "power activation",
            "30",
            "Δ_i(t) = F_i(w_i(t)) − F_i(w_i(0)) = −τ(t) for every neuron: d/dt [F_i(w_i) + τ] = 0 (β = 1, 2, 3)",
            "F_i(x) = int^x dz / (eta_w beta u_i(z) z^(beta-1)); F_i(w_i(t)) - F_i(w_i(0)) = -tau(t)",
            all_of(*(derivation_steps(steps[beta], ["curve", "Delta"]) for beta in BETAS)),
            (exact,),
        ),
    ]
    d1, d2 = beta1_derivation(), beta2_derivation()
    out += [
        _claim(
            "F_beta2",
            "power activation, β = 2",
            "30",
            "β = 2, c_i > 0: F_i(w) = −asinh(sqrt(c_i)/(sqrt(η_u) w))/sqrt(2 η_w c_i) solves eq. 30 and Δ_i = −τ",
            d2.steps[0].relation,
            derivation_steps(d2, ["F beta=2", "Delta beta=2"]),
            ("c_i > 0", "u_i > 0, w_i > 0"),
        ),
        _claim(
            "log_p_beta1",
            "power activation, β = 1",
            "35",
            "β = 1: ln p_i(t) − ln p_i(0) = −sqrt(η_u η_w) τ(t), and eq. 30 gives F_i = ln p_i / sqrt(η_u η_w) + const",
            d1.steps[1].relation,
            derivation_steps(d1, ["p", "ln p", "F beta=1"]),
            ("p_i(0) > 0",),
        ),
        Claim(
            f"{PAPER}.power.erratum2",
            _cite("eq. 30 at β = 1, around line 891", "30", "spec §8 erratum 2; " + SOURCE),
            "F_i(x) = e^x (β = 1), as printed",
            erratum(
                identities([beta1_clock_residual(sp.exp)], sampler=_point),
                identities([beta1_clock_residual(sp.log)]),
                "F_i(x) = e^x",
                "F_i(x) = ln x + c, F_i^{-1}(x) = e^x, Δ_i(t) = ln p_i(t) (clock τ' = sqrt(η_u η_w) τ)",
            ),
            ("x = p_i = sqrt(eta_w) u_i + sqrt(eta_u) w_i > 0", "tau' = sqrt(eta_u eta_w) tau"),
            "Erratum 2: for β = 1, dF_i(p_i)/dτ' = −1 holds for F_i = ln, not for the printed F_i = exp",
        ),
        _claim(
            "reduction",
            "power activation, β ≥ 3",
            "33",
            "β ≥ 3: the 1-D ODE τ̇ = γ(γ a Σ u_i(τ) w_i(τ)^β − b) on the per-neuron curves reproduces the full flow",
            "tau' = gamma (gamma a sum_i u_i(tau) w_i(tau)^beta - b)",
            _reduction_check,
        ),
    ]
    return out
