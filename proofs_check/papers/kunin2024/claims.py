r"""Claims of Kunin et al. 2024 on the single neuron :math:`f(x) = a\,w^\top x` (model ``single_neuron``; d = 2 as
registered, d = 3 with layer learning rates :math:`\eta_a, \eta_w` as ``single_neuron(3, learning_rates=True)``), and
the package's companion tied layer (model ``tied_layer``, issue 22; not from the paper).

Sources. The paper's text was not available here: no section or equation number below is confirmed, and each is
marked so. What is confirmed comes from the authors' code, ``allanraventos/getrichquick``,
``single-neuron/Single_Neuron.ipynb`` (the notebook of the paper's Figs 2-4 and App. A, Figs 7-8): the conserved
``R = a^2 - |w|^2`` (its figures label it :math:`\delta`; unit learning rates) and the scalar solution for
:math:`\nu = \beta^\top w/a` (function ``theory``, App. A, Fig. 8 "Verifying that theory matches GD"), and for
:math:`\delta < 0` the surface :math:`\beta^\top w = a\,(-\delta - \sqrt{\delta^2 + 4\lVert\beta\rVert^2})/2` that
separates the basins of attraction (``plot_basin_seperating_surface``, App. A, Fig. 7). The form
:math:`\delta = \eta_w a^2 - \eta_a\lVert w\rVert^2` with layer rates is the paper's as quoted in issue 22; the
package's quantity ``delta`` is :math:`a^2/\eta_a - \lVert w\rVert^2/\eta_w = \delta / (\eta_a\eta_w)` (claim
``delta.package``).
"""

from __future__ import annotations

import math

import sympy as sp

from derivations import models
from derivations.models.single_neuron import single_neuron
from proofs_check.checkers import closed_form_error, derivation_verified
from proofs_check.outcome import Outcome
from proofs_check.paper import Paper
from proofs_check.papers.kunin2024 import checks
from proofs_check.papers.kunin2024.structure import STRUCTURE

PAPER = Paper(
    "kunin2024",
    "Get rich quick: exact solutions reveal how unbalanced initializations promote rapid feature learning",
    (
        "Daniel Kunin",
        "Allan Raventós",
        "Clémentine Dominé",
        "Feng Chen",
        "David Klindt",
        "Andrew Saxe",
        "Surya Ganguli",
    ),
    "NeurIPS",
    2024,
    url="https://arxiv.org/abs/2406.06158",
    models=("single_neuron", "tied_layer"),
    structure=STRUCTURE,
)
UNCONFIRMED = "[section and equation unconfirmed: the paper's text was not available]"
CODE = "authors' code (getrichquick, the single-neuron notebook)"  # the module docstring names the file
t = sp.Symbol("t", nonnegative=True)


# ---------------------------------------------------------------- the notation of the d = 3 model with layer rates
# (the registered model is d = 2 without rates: its symbols are known to the paper already)
RATES = single_neuron(3, learning_rates=True)
eta_a = PAPER.symbol("eta_a", r"\eta_a", positive=True)
eta_w = PAPER.symbol("eta_w", r"\eta_w", positive=True)
a = sp.Symbol("a", real=True)
w = [PAPER.symbol(f"w_{k}", f"w_{k}", real=True) for k in (1, 2, 3)]
beta = [PAPER.symbol(f"beta_{k}", rf"\beta_{k}", real=True) for k in (1, 2, 3)]

# ---------------------------------------------------------------- delta
delta_dot = [
    PAPER.symbol(
        f"delta_dot_{d}{'_eta' if rates else ''}",
        r"\tfrac{d}{dt}\delta_{" + f"d={d}" + (r", \eta" if rates else "") + "}",
        (lambda d=d, rates=rates: checks.rate(single_neuron(d, rates), checks.imbalance(single_neuron(d, rates)))),
        real=True,
    )
    for d in (2, 3)
    for rates in (False, True)
]
PAPER.claim(
    "delta.conserved",
    sp.Eq(sp.Matrix(delta_dot), sp.zeros(4, 1), evaluate=False),
    where=f"§ minimal model (conserved δ) {UNCONFIRMED}; δ = a² − |w|² at η = 1 in the {CODE}",
    assume=(
        "δ = η_w a² − η_a |w|² along the derived flow of single_neuron(d) (η_a = η_w = 1) and "
        "single_neuron(d, learning_rates=True), d = 2, 3",
    ),
)
delta_package = PAPER.symbol(
    "delta_package", r"\delta_{\mathrm{package}}", lambda: RATES.quantities["delta"].expr, real=True
)
PAPER.claim(
    "delta.package",
    sp.Eq(eta_w * a**2 - eta_a * sum(wk**2 for wk in w), eta_a * eta_w * delta_package, evaluate=False),
    where=f"§ minimal model (conserved δ) {UNCONFIRMED}; the package's normalization of δ",
    assume=("δ_package = a²/η_a − |w|²/η_w, the quantity 'delta' of single_neuron(3, learning_rates=True)",),
)

# ---------------------------------------------------------------- the ratio z = w / a
z = [PAPER.symbol(f"z_{k}", f"z_{k}", (lambda k=k: w[k - 1] / a), real=True) for k in (1, 2, 3)]
z_dot = [
    PAPER.symbol(f"z_dot_{k}", rf"\dot z_{k}", (lambda k=k: checks.ratio_rates(RATES)[k - 1]), real=True)
    for k in (1, 2, 3)
]
delta = PAPER.symbol("delta_eta", r"\delta", lambda: checks.imbalance(RATES), real=True)
beta_z = sum(bk * zk for bk, zk in zip(beta, z, strict=True))
PAPER.claim(
    "ratio.riccati",
    sp.Eq(
        sp.Matrix(z_dot),
        sp.Matrix([eta_w * bk - delta * zk - eta_a * beta_z * zk for bk, zk in zip(beta, z, strict=True)]),
        evaluate=False,
    ),
    where=f"§ minimal model (the ratio z = w/a) {UNCONFIRMED}; issue 22 and the package's projective reduction",
    assume=("a ≠ 0", "d = 3 with layer rates; η_a = η_w = 1 gives ż = β − δz − (βᵀz)z"),
)

# ---------------------------------------------------------------- the authors' scalar nu = beta^T w / a (eta = 1)
NEURON = models.get("single_neuron")
a_, w1_, w2_, b1_, b2_ = (NEURON.symbol(n) for n in ("a", "w_1", "w_2", "beta_1", "beta_2"))
nu = PAPER.symbol("nu", r"\nu", lambda: (b1_ * w1_ + b2_ * w2_) / a_, real=True)
nu_dot = PAPER.symbol("nu_dot", r"\dot\nu", lambda: checks.rate(NEURON, (b1_ * w1_ + b2_ * w2_) / a_), real=True)
delta_1 = PAPER.symbol("delta_1", r"\delta", lambda: checks.imbalance(NEURON), real=True)
PAPER.claim(
    "nu.riccati",
    sp.Eq(nu_dot, b1_**2 + b2_**2 - delta_1 * nu - nu**2),
    where=f"§ minimal model {UNCONFIRMED}; ν = (w/a)ᵀβ as in the {CODE} (function theory)",
    assume=("a ≠ 0", "d = 2, η_a = η_w = 1 (the authors' setting)"),
)
s = PAPER.symbol("s", r"\lVert\beta\rVert", positive=True)
delta_c = PAPER.symbol("delta_c", r"\delta", real=True)
nu_0 = PAPER.symbol("nu_0", r"\nu_0", real=True)
nu_t = PAPER.symbol("nu_t", r"\nu(t)", lambda: checks.nu_authors(t, delta_c, s, nu_0), real=True)
nu_start = PAPER.symbol("nu_start", r"\nu(0)", lambda: checks.nu_authors(sp.S.Zero, delta_c, s, nu_0), real=True)
PAPER.claim(
    "nu.solution",
    sp.Eq(
        sp.Matrix([sp.Derivative(nu_t, t), nu_start]),
        sp.Matrix([s**2 - delta_c * nu_t - nu_t**2, nu_0]),
        evaluate=False,
    ),
    where=f"App. A, Fig. 8 (theory against GD) [equation unconfirmed]; ν(t) of the {CODE} (function theory)",
    assume=(
        "ν(t) = ½(−δ + √(4s² + δ²) tanh Q), Q = ½t√(4s² + δ²) + artanh((δ + 2ν₀)/√(4s² + δ²)), s = |β|",
        "with nu.riccati and uniqueness of ODE solutions, ν(t) is βᵀw(t)/a(t) while a ≠ 0",
    ),
)


# ---------------------------------------------------------------- the basins of attraction (delta < 0)
def _nu_root(sign: int) -> sp.Expr:
    """nu_+ (sign = +1) or nu_- (sign = -1) = (-delta + sign sqrt(delta^2 + 4 |beta|^2)) / 2 in the state."""
    imbalance = checks.imbalance(NEURON)
    return (-imbalance + sign * sp.sqrt(imbalance**2 + 4 * (b1_**2 + b2_**2))) / 2


nu_plus = PAPER.symbol("nu_plus", r"\nu_+", lambda: _nu_root(1), real=True)
nu_minus = PAPER.symbol("nu_minus", r"\nu_-", lambda: _nu_root(-1), real=True)
gap_dot = PAPER.symbol(
    "nu_gap_dot",
    r"\tfrac{d}{dt}(\nu - \nu_-)",
    lambda: checks.rate(NEURON, (b1_ * w1_ + b2_ * w2_) / a_ - _nu_root(-1)),
    real=True,
)
PAPER.claim(
    "basins.invariant",
    sp.Eq(gap_dot, -(nu - nu_plus) * (nu - nu_minus)),
    where=f"App. A, Fig. 7 (basins of attraction) [equation unconfirmed]; the separating surface of the {CODE}",
    assume=(
        "ν = βᵀw/a, ν± = (−δ ± √(δ² + 4|β|²))/2, functions of the conserved δ (delta.conserved)",
        "so the surface ν = ν₋, i.e. βᵀw = a(−δ − √(δ² + 4|β|²))/2, is invariant where a ≠ 0",
        "d = 2, η_a = η_w = 1",
    ),
)


def nu_surface(delta_value: float, beta_norm2: float) -> float:
    """The authors' separating surface, beta^T w / a = (-delta - sqrt(delta^2 + 4 |beta|^2)) / 2."""
    return (-delta_value - math.sqrt(delta_value**2 + 4 * beta_norm2)) / 2


def _basins() -> Outcome:
    separates, detail = checks.basin_sides(nu_surface)
    method = "closed form at 30 digits, starts a ± 1e-3 off the surface"
    return Outcome.numeric(method, detail) if separates else Outcome.refuted(method, {}, detail)


PAPER.claim(
    "basins.sides",
    "For δ < 0 the surface βᵀw = a(−δ − √(δ² + 4|β|²))/2 separates the starts that end with a > 0 from those "
    "that end with a < 0",
    where=f"App. A, Fig. 7 (basins of attraction) [equation unconfirmed]; the separating surface of the {CODE}",
    assume=("d = 2, β = (1, 0.25), three points of the surface (δ = −2, −0.5, −6)",),
    check=_basins,
)

# ---------------------------------------------------------------- the closed form of derivations.solve
PAPER.claim(
    "closed_form.derivation",
    "The closed form of derivations.solve(single_neuron(d)) from unbalanced starts (projective linearization "
    "x = κu, u' = Ku): every derivation step re-checked, d = 2, and d = 3 with layer rates",
    where=f"§ minimal model (exact solution) {UNCONFIRMED}",
    check=lambda: _all_verified(NEURON, RATES),
)
PAPER.experiment(
    "closed_form.numeric",
    checks.neuron_error,
    quantity=PAPER.symbol(
        "err_neuron", r"\max_t \lVert x_{\mathrm{closed}} - x_{\mathrm{ODE}}\rVert/\lVert x\rVert", nonnegative=True
    ),
    tolerance=1e-25,
    where=f"App. A, Fig. 8 (theory against GD) [equation unconfirmed]; {CODE}",
    assume=(
        "4 fixed unbalanced starts: a crossing 0, δ > 0, δ = −2.88, d = 3 with η_a = 2, η_w = 0.5",
        "30-digit ODE: heyoka Taylor, else mpmath.odefun",
    ),
)
PAPER.experiment(
    "limit",
    checks.limit_error,
    quantity=PAPER.symbol(
        "err_limit", r"\max_k \lvert a(t) w_k(t) - \beta_k\rvert / \lVert\beta\rVert", nonnegative=True
    ),
    tolerance=1e-12,
    where=f"§ minimal model (convergence to the interpolating solution aw = β) {UNCONFIRMED}",
    assume=(
        f"read off the closed form at t = {checks.LIMIT_TIME:g} (30 digits), not proved as t → ∞",
        "starts off the stable manifold of the saddles a = 0, wᵀβ = 0",
    ),
)

# ---------------------------------------------------------------- the tied layer (not from the paper)
TIED = models.get("tied_layer")
ta, tb = TIED.symbol("a"), TIED.symbol("b")
tied_dot = PAPER.symbol(
    "tied_dot", r"\tfrac{d}{dt}(a^2 - 2b^2)", lambda: checks.rate(TIED, ta**2 - 2 * tb**2), real=True
)
NOT_PAPER = "minimal model, extended to the package's tied layer f = Σ aᵢ² bᵢ xᵢ (model tied_layer; issue 22)"
"""Where the tied-layer claims rest: they are not the paper's (flagged derived), but extend its minimal model."""
PAPER.claim("tied.conserved", sp.Eq(tied_dot, 0), where=NOT_PAPER, derived=True, assume=("E[x xᵀ] = I",))
PAPER.claim(
    "tied.derivation",
    "The closed form of derivations.solve(tied_layer) (elimination of b through a² − 2b², then a quadrature): "
    "every derivation step re-checked",
    where=NOT_PAPER,
    derived=True,
    check=lambda: _all_verified(TIED),
)


def _tied_error():
    import numpy as np

    cases = [
        ({"S": np.array([1.5, -0.8])}, {"a": np.array([0.3, 1.2]), "b": np.array([0.5, -0.4])}),
        ({"S": np.array([2.0, 0.5])}, {"a": np.array([1.1, -0.2]), "b": np.array([0.1, 0.9])}),
    ]
    return closed_form_error("tied_layer", cases, [0.0, 0.5, 2.0])


PAPER.experiment(
    "tied.numeric",
    _tied_error,
    quantity=PAPER.symbol(
        "err_tied", r"\max_t \lVert x_{\mathrm{closed}} - x_{\mathrm{ODE}}\rVert/\lVert x\rVert", nonnegative=True
    ),
    tolerance=1e-25,
    where=NOT_PAPER,
    derived=True,
    assume=("unbalanced starts with b away from 0 until t = 2", "30-digit ODE: heyoka Taylor, else mpmath.odefun"),
)


def _all_verified(*solved):
    from proofs_check.checkers import all_of

    return all_of(*(lambda m=m: derivation_verified(m.closed_form.derivation) for m in solved))()
