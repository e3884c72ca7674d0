r"""``two_layer_scalar``: :math:`f(x) = Z^{-1}\sum_{i=1}^p a_i b_i\, x`, target :math:`Sx`, :math:`\mathbb E x^2 = 1`.

Nam et al. 2025, §7 (eq 15) and App. H (eqs 71–96, Theorem 3). Loss :math:`\tfrac12(S-\theta)^2` with
:math:`\theta = Z^{-1}\sum_i a_ib_i` (eq 71; for :math:`\mathbb E x^2 \ne 1` rescale time). The paper assumes
:math:`S > 0`; the derivation here needs only :math:`Z > 0` and :math:`\Sigma_0 + \mathcal S_0 > 0`, and the
numerics accept any real ``S``.
"""

from __future__ import annotations

import sympy as sp

from ..model import Model, Quantity

S = sp.Symbol("S", real=True)
Z = sp.Symbol("Z", positive=True)
a, b, theta = sp.symbols("a b theta", real=True)

MODEL = Model(
    name="two_layer_scalar",
    title="Width-p scalar two-layer network",
    reference="Nam et al. 2025, §7 (eq 15) and App. H (Theorem 3, eqs 71–96)",
    state_names=("a", "b"),
    unit_param_names=(),
    shared_param_names=("S", "Z"),
    network=lambda s, x: sum(ai * bi for ai, bi in zip(s["a"], s["b"], strict=False)) * x[0] / s["Z"],
    target=lambda s, x: s["S"] * x[0],
    moment=lambda s, i, j: sp.S.One,
    input_dim=lambda p: 1,
    quantities={
        "theta": Quantity("sum", a * b / Z, "output coefficient, f(x) = theta x"),
        "loss": Quantity("scalar", (S - theta) ** 2 / 2, "population loss"),
    },
    domains={"S": "real", "Z": "positive"},
    notes=("E[x^2] = 1", "L = 1/2 E[(f - S x)^2] = 1/2 (S - theta)^2"),
)
