r"""``linear_model``: :math:`f(x) = \sum_i \theta_i x_i`, target :math:`\sum_i S_i x_i`.

Nam et al. 2025, eqs 5, 7, 10, with :math:`\mathbb E[x_ix_j] = \lambda_i\delta_{ij}`. The flow
:math:`\dot\theta_i = \lambda_i(S_i-\theta_i)` is the ``c2 = 0`` branch of the Riccati engine.
"""

from __future__ import annotations

import sympy as sp

from ..model import Model, Quantity

S = sp.Symbol("S", real=True)
lam = sp.Symbol("lam", positive=True)
theta = sp.Symbol("theta", real=True)

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
)
