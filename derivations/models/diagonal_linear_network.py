r"""``diagonal_linear_network``: :math:`f(x) = \sum_i a_i b_i x_i`, target :math:`\sum_i S_i x_i`.

Nam et al. 2025, eqs 3, 6, 8, 9; inputs with :math:`\mathbb E[x_ix_j] = \lambda_i\delta_{ij}` (the moments
``lam``). Each mode is the scalar network of App. H with :math:`p = 1`, :math:`Z = 1`, :math:`S = S_i` and
rate :math:`\lambda_i` (spec §2, "general a ≠ b"); the balanced sigmoid (eq 9) is its ``a_i(0) = b_i(0)`` case.
"""

from __future__ import annotations

import sympy as sp

from ..model import Model, Quantity

S = sp.Symbol("S", real=True)
lam = sp.Symbol("lam", positive=True)
a, b = sp.symbols("a b", real=True)


MODEL = Model(
    name="diagonal_linear_network",
    title="Diagonal linear network",
    reference="Nam et al. 2025, eqs 3, 6, 8, 9 (and Saxe et al. 2014, App. A, for a_i != b_i)",
    state_names=("a", "b"),
    unit_param_names=("S", "lam"),
    shared_param_names=(),
    network=lambda s, x: sum(ai * bi * xi for ai, bi, xi in zip(s["a"], s["b"], x, strict=False)),
    target=lambda s, x: sum(si * xi for si, xi in zip(s["S"], x, strict=False)),
    moment=lambda s, i, j: s["lam"][i] if i == j else sp.S.Zero,
    input_dim=lambda p: p,
    quantities={
        "theta": Quantity("unit", a * b, "effective coefficient a_i b_i of x_i"),
        "loss": Quantity("sum", lam * (S - a * b) ** 2 / 2, "population loss"),
    },
    domains={"S": "real", "lam": "positive"},
    notes=("E[x_i x_j] = lam_i delta_ij", "L = 1/2 sum_i lam_i (S_i - a_i b_i)^2"),
)
