"""Claims of Saxe, McClelland & Ganguli 2014 on whitened, task-aligned two-layer linear networks, as restated by Nam
et al. 2025 (App. C.3, eqs 12, 46–56; spec ``shared/spec/models-nam2025.md`` §3). Model: ``deep_linear_whitened``.
"""

from __future__ import annotations

import sympy as sp

from derivations import models
from proofs_check.checkers import aligned_full_flow, closed_form_error, derivation_verified
from proofs_check.claims import Outcome
from proofs_check.paper import Paper
from proofs_check.papers.saxe2014.structure import STRUCTURE

MODES = models.get("deep_linear_whitened")
PAPER = Paper(
    "saxe2014",
    "Exact solutions to the nonlinear dynamics of learning in deep linear neural networks",
    ("Andrew M. Saxe", "James L. McClelland", "Surya Ganguli"),
    "ICLR",
    2014,
    url="https://arxiv.org/abs/1312.6120",
    models=("deep_linear_whitened",),
    notation={"S": r"\rho_i", "a": "a_i", "b": "b_i"},
    structure=STRUCTURE,
)
a, b, S = (MODES.symbol(n) for n in ("a", "b", "S"))
t = sp.Symbol("t", nonnegative=True)
rho = PAPER.symbol("rho", r"\rho_i", positive=True)
alpha0 = PAPER.symbol("alpha_0", r"\alpha_i(0)", positive=True)


def _balanced_square() -> sp.Expr:
    """a(t)² of the derived closed form from a balanced start a(0) = b(0) = alpha0, with rho > 0."""
    cf = MODES.closed_form
    return cf.explicit()["a"].xreplace({cf.init["b"]: alpha0, cf.init["a"]: alpha0, S: rho}) ** 2


alpha_sq = PAPER.symbol("alpha^2", r"\alpha_i(t)^2", _balanced_square, nonnegative=True)
PAPER.claim(
    "eq12",
    sp.Eq(alpha_sq / rho, 1 / (1 + (rho / alpha0**2 - 1) * sp.exp(-2 * rho * t))),
    where="eq 12 (Nam et al. 2025 eqs 12, 55)",
    eq="12",
)
alpha_dot = PAPER.symbol("alpha_dot", r"\dot\alpha_i", lambda: MODES.unit_field[a].xreplace({b: a}), real=True)
gap_dot = PAPER.symbol("gap_dot", r"\tfrac{d}{dt}(a_i - b_i)", lambda: MODES.unit_time_derivative(a - b), real=True)
PAPER.claim(
    "eq12.flow",
    sp.Eq(sp.Matrix([alpha_dot, gap_dot]), sp.Matrix([a * (S - a**2), -(S - a * b) * (a - b)]), evaluate=False),
    where="eq 12 (its flow; Nam et al. 2025 eq 54)",
    assume=("balanced modes: a_i = b_i = α_i in the first row",),
)


def _derivation_verified() -> Outcome:
    return derivation_verified(MODES.closed_form.derivation)


PAPER.claim(
    "appA.hyperbolic",
    "Unbalanced aligned modes: the hyperbolic-coordinate closed form of aᵢ(t), bᵢ(t) (every derivation step "
    "re-checked)",
    where="App. A (hyperbolic coordinates)",
    check=_derivation_verified,
)


def _modes_error():
    import numpy as np

    rng = np.random.default_rng(5)
    cases = [
        ({"S": np.array([1.5, 0.2])}, {"a": np.array([0.1, 0.9]), "b": np.array([0.1, 0.4])}),
        ({"S": np.array([0.7, 2.0])}, {"a": rng.normal(size=2), "b": rng.normal(size=2)}),
    ]
    return closed_form_error("deep_linear_whitened", cases, [0.0, 0.8, 3.0])


PAPER.experiment(
    "appA.numeric",
    _modes_error,
    quantity=PAPER.symbol(
        "err_modes", r"\max_t \lVert x_{\mathrm{closed}} - x_{\mathrm{ODE}}\rVert/\lVert x\rVert", nonnegative=True
    ),
    tolerance=1e-25,
    where="App. A",
    assume=("balanced and unbalanced modes, ρ above and below a b", "30-digit ODE: heyoka Taylor, else mpmath.odefun"),
)
PAPER.claim(
    "full_matrix_flow",
    "Closed-form modes agree with 30-digit integration of the full matrix flow (d = 3, p = c = 2, random aligned "
    "balanced init), and GD on the full matrices converges to them as lr → 0 (error ∝ lr)",
    where="eq 12 (Nam et al. 2025 App. C.3, checked against the full network)",
    assume=("Σxx = I", "λ = 0"),
    check=aligned_full_flow("deep_linear_whitened", [(11, 0.0)]),
)
