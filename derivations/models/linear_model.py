r"""``linear_model``: :math:`f(x) = \sum_i \theta_i x_i`, target :math:`\sum_i S_i x_i`.

Nam et al. 2025, eqs 5, 7, 10, with :math:`\mathbb E[x_ix_j] = \lambda_i\delta_{ij}`. The flow
:math:`\dot\theta_i = \lambda_i(S_i-\theta_i)` is the ``c2 = 0`` branch of the Riccati engine.
"""

from __future__ import annotations

import sympy as sp

from ..closed_form import ClosedForm
from ..derivation import Derivation
from ..model import Model, Quantity
from ..riccati import riccati_solution

S = sp.Symbol("S", real=True)
lam = sp.Symbol("lam", positive=True)
theta = sp.Symbol("theta", real=True)
t = sp.Symbol("t", nonnegative=True)


def _solve(model: Model) -> ClosedForm:
    field = sp.Poly(model.unit_field[theta], theta)
    if field.degree() > 2:
        raise ValueError(f"{model.name}: the unit field is not a Riccati right-hand side")
    c2, c1, c0 = (field.coeff_monomial(theta**n) for n in (2, 1, 0))
    theta0 = model.init_symbol("theta")
    solution = riccati_solution(c2, c1, c0, theta0, t, name="theta", tags={"solution": "10"})
    derivation = Derivation(f"{model.title}: closed form", assumptions=("lam > 0",))
    derivation.add(
        sp.Eq(sp.Symbol(r"\dot\theta"), lam * (S - theta)),
        "gradient flow derived from the loss",
        "7",
        residual=model.unit_field[theta] - lam * (S - theta),
    )
    derivation.extend(solution.derivation)
    derivation.add(
        sp.Eq(sp.Function("theta")(t), S + (theta0 - S) * sp.exp(-lam * t)),
        "exponential saturation",
        "10",
        residual=solution.solution - (S + (theta0 - S) * sp.exp(-lam * t)),
    )
    return ClosedForm(
        model=model.name,
        t=t,
        init={"theta": theta0},
        sums={},
        riccati={theta: solution},
        state={"theta": theta},
        derivation=derivation,
        notes=("linear Riccati branch (c2 = 0)",),
    )


MODEL = Model(
    name="linear_model",
    title="Linear model",
    reference="Nam et al. 2025, eqs 5, 7, 10",
    state_names=("theta",),
    unit_param_names=("S", "lam"),
    shared_param_names=(),
    network=lambda s, x: sum(ti * xi for ti, xi in zip(s["theta"], x, strict=False)),
    target=lambda s, x: sum(si * xi for si, xi in zip(s["S"], x, strict=False)),
    moment=lambda s, i, j: s["lam"][i] if i == j else sp.S.Zero,
    input_dim=lambda p: p,
    quantities={"loss": Quantity("sum", lam * (S - theta) ** 2 / 2, "population loss")},
    domains={"S": "real", "lam": "positive"},
    notes=("E[x_i x_j] = lam_i delta_ij", "L = 1/2 sum_i lam_i (S_i - theta_i)^2"),
    solver=_solve,
)
