r"""Claims of Nam et al. 2025, App. B (eqs 18, 19): the linear model and the diagonal network on general features
:math:`\phi_i(x)` with :math:`\mathbb E[\phi_i\phi_j] = 0` for :math:`i \ne j` behave as on coordinates with
:math:`\lambda_i = \mathbb E[\phi_i^2]` ("every result unchanged").

The features are the probabilists' Hermite polynomials :math:`He_1, He_2, He_3` of a standard Gaussian input
(``proofs_check.papers.nam2025.features``); their moments are derived by integration against the density, and the loss
of the
feature model is the expectation over the raw input, never the moments. The identification is then exact: the loss,
hence the flow (``sympy.diff`` of equal functions), and the linear model's derived closed form solves the feature
model's flow.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from derivations import models
from proofs_check.papers.nam2025.claims import PAPER
from proofs_check.papers.nam2025.features import feature_loss, gaussian_expectation, gram, hermite_features

WIDTH = 3
X = sp.Symbol("x", real=True)
FEATURES = hermite_features(WIDTH, X)


@cache
def feature_identity(model_name: str, features: tuple[sp.Expr, ...] = FEATURES) -> tuple[sp.Expr, sp.Expr, dict]:
    """For ``model_name`` (units with a moment parameter ``lam``) at width 3: the loss with inputs replaced by
    ``features`` of x ~ N(0, 1) (expectation over x), the model's own loss at λ_i = E[φ_i²], and that
    identification λ_i ↦ E[φ_i²]."""
    inst = models.get(model_name).instance(WIDTH)
    expectation = gaussian_expectation(X)
    moments = gram(features, expectation)
    identification = {lam: moments[i, i] for i, lam in enumerate(inst.sym["lam"])}
    return feature_loss(inst, features, expectation), inst.loss.xreplace(identification), identification


def _closed_form_residuals() -> list[sp.Expr]:
    """θ_i(t) of the linear model's derived closed form at λ_i = E[He_i²], minus the flow of the feature loss
    −∂L_φ/∂θ_i evaluated on it, for each unit."""
    model = models.get("linear_model")
    inst = model.instance(WIDTH)
    loss, _, identification = feature_identity("linear_model")
    generic = model.closed_form.explicit()["theta"]
    t = model.closed_form.t
    path = []
    for i in range(WIDTH):
        unit = {
            model.symbol("S"): inst.sym["S"][i],
            model.symbol("lam"): identification[inst.sym["lam"][i]],
            model.init_symbol("theta"): sp.Symbol(f"theta_{i + 1}(0)", real=True),
        }
        path.append(generic.xreplace(unit))
    on_path = dict(zip(inst.state["theta"], path, strict=True))
    return [sp.diff(path[i], t) + sp.diff(loss, theta).xreplace(on_path) for i, theta in enumerate(inst.state["theta"])]


L_phi = PAPER.symbol("L_phi", r"\mathcal L_\phi", lambda: feature_identity("linear_model")[0])
L_lin = PAPER.symbol(
    "L_lin", r"\mathcal L\big|_{\lambda_i = \mathbb E\phi_i^2}", lambda: feature_identity("linear_model")[1]
)
PAPER.claim(
    "appB.eq18",
    sp.Eq(L_phi, L_lin),
    where="App. B",
    eq="18",
    assume=(
        "f = Σ θ_i He_i(x), f* = Σ S_i He_i(x), x ~ N(0, 1), width 3; L_φ = ½E_x[(f − f*)²] by integration",
        "E[He_i He_j] = i! δ_ij derived by integration against the density",
    ),
)
L_phi_diag = PAPER.symbol("L_phi_diag", r"\mathcal L_\phi", lambda: feature_identity("diagonal_linear_network")[0])
L_diag = PAPER.symbol(
    "L_diag", r"\mathcal L\big|_{\lambda_i = \mathbb E\phi_i^2}", lambda: feature_identity("diagonal_linear_network")[1]
)
PAPER.claim(
    "appB.eq19",
    sp.Eq(L_phi_diag, L_diag),
    where="App. B",
    eq="19",
    assume=("f = Σ a_i b_i He_i(x) (the layerwise version on features), width 3, x ~ N(0, 1)",),
)
residuals = tuple(
    PAPER.symbol(
        f"r_{i}",
        rf"\dot\theta_{i} + \partial_{{\theta_{i}}}\mathcal L_\phi",
        lambda i=i: _closed_form_residuals()[i - 1],
    )
    for i in range(1, WIDTH + 1)
)
PAPER.claim(
    "appB.closed_form",
    sp.Eq(sp.Matrix(residuals), sp.zeros(WIDTH, 1), evaluate=False),
    where="App. B",
    eq="18, 10",
    assume=("θ_i(t): the linear model's derived closed form at λ_i = E[He_i²]; the flow is −∇L_φ, derived",),
)
