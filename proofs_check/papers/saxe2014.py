"""Claims of Saxe, McClelland & Ganguli 2014 ("Exact solutions to the nonlinear dynamics of learning in deep
linear neural networks", ICLR) on whitened, task-aligned two-layer linear networks, as restated by Nam et al.
2025 (App. C.3, eqs 12, 46–56; spec ``shared/spec/models-nam2025.md`` §3). Model: ``deep_linear_whitened``.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from derivations import models
from proofs_check.checkers import aligned_full_flow, closed_form_vs_ode, identities
from proofs_check.claims import Citation, Claim, Outcome, register

PAPER = "saxe2014"
MODES = models.get("deep_linear_whitened")
a, b, S = (MODES.symbol(n) for n in ("a", "b", "S"))
t = sp.Symbol("t", nonnegative=True)


def claim(cid: str, where: str, equation: str, title: str, statement: object, check, assumptions=()) -> None:
    reference = f"Saxe et al. 2014, {where}" + (f", eq. ({equation})" if equation else "")
    register(Claim(f"{PAPER}.{cid}", Citation(PAPER, reference, where, equation), statement, check, assumptions, title))


def _eq12_residual() -> sp.Expr:
    cf = MODES.closed_form
    rho, alpha0 = sp.Symbol("rho", positive=True), sp.Symbol("alpha_0", positive=True)
    a_t = cf.explicit()["a"].xreplace({cf.init["b"]: alpha0, cf.init["a"]: alpha0, S: rho})
    return a_t**2 - rho / (1 + (rho / alpha0**2 - 1) * sp.exp(-2 * rho * cf.t))


def _derivation_verified() -> Outcome:
    derivation = MODES.closed_form.derivation
    checks = derivation.check()
    failed = [check.step.justification for check in checks if not (check.proof.holds and check.proof.exact)]
    if failed:
        return Outcome.refuted("re-check of every step", {}, f"failing steps: {failed}")
    methods = sorted({check.proof.method for check in checks})
    return Outcome.proved(", ".join(methods), f"{len(derivation.steps)} steps")


claim(
    "eq12",
    "eq 12 (Nam et al. 2025 eqs 12, 55)",
    "12",
    "Balanced mode a_i(0) = b_i(0) = α_i(0): α_i²/ρ_i = 1/(1 + (ρ_i/α_i(0)² − 1) e^{−2ρ_i t}), "
    "from the derived closed form",
    sp.Eq(
        sp.Symbol("alpha^2/rho"),
        1 / (1 + (sp.Symbol("rho") / sp.Symbol("alpha_0") ** 2 - 1) * sp.exp(-2 * sp.Symbol("rho") * t)),
    ),
    identities([_eq12_residual()]),
    ("rho_i > 0", "alpha_i(0) > 0"),
)
claim(
    "eq12.flow",
    "eq 12 (Nam et al. 2025 eq 54)",
    "54",
    "On balanced modes the derived flow is α̇_i = α_i(ρ_i − α_i²), and a_i − b_i obeys d/dt(a − b) = −(ρ − ab)(a − b)",
    sp.Eq(sp.Symbol(r"\dot\alpha"), sp.Symbol("alpha") * (sp.Symbol("rho") - sp.Symbol("alpha") ** 2)),
    identities(
        [
            MODES.unit_field[a].xreplace({b: a}) - a * (S - a**2),
            MODES.unit_time_derivative(a - b) + (S - a * b) * (a - b),
        ]
    ),
)
claim(
    "appA.hyperbolic",
    "App. A (hyperbolic coordinates)",
    "",
    "Unbalanced aligned modes: the hyperbolic-coordinate closed form of a_i(t), b_i(t) "
    "(every derivation step re-checked)",
    "a(t) = ((a0 + b0) sqrt(gamma) + (a0 - b0)/sqrt(gamma))/2",
    _derivation_verified,
)
_rng = np.random.default_rng(5)
claim(
    "appA.numeric",
    "App. A",
    "",
    "The mode closed form agrees with 30-digit integration of the mode flow (balanced and unbalanced, ρ above "
    "and below a b)",
    "|x_closed - x_ode| / |x| <= 1e-25",
    closed_form_vs_ode(
        "deep_linear_whitened",
        [
            ({"S": np.array([1.5, 0.2])}, {"a": np.array([0.1, 0.9]), "b": np.array([0.1, 0.4])}),
            ({"S": np.array([0.7, 2.0])}, {"a": _rng.normal(size=2), "b": _rng.normal(size=2)}),
        ],
        [0.0, 0.8, 3.0],
    ),
)
claim(
    "full_matrix_flow",
    "eq 12 (Nam et al. 2025 App. C.3, checked against the full network)",
    "",
    "Closed-form modes agree with 30-digit integration of the full matrix flow (d = 3, p = c = 2, random aligned "
    "balanced init), and GD on the full matrices converges to them as lr → 0 (error ∝ lr)",
    "|W_flow - W_closed| / |W| <= 1e-25",
    aligned_full_flow("deep_linear_whitened", [(11, 0.0)]),
    ("Sigma_xx = I", "lambda = 0"),
)
