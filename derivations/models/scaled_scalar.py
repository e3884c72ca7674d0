r"""``scaled_scalar``: the width-:math:`p` scalar network of Nam et al. 2025 (eq 15) on an input scaled by
:math:`\varepsilon`, :math:`f(x) = Z^{-1}\sum_i a_ib_i\,\varepsilon x`, trained on the unscaled data :math:`y = Sx`,
:math:`\mathbb E x^2 = 1`.

The grokking fixes of §6.3, §7.2 and App. G.3 (Fig. 8) act on its parameters: a smaller input (:math:`\varepsilon<1`,
"S = y/x" grows), a larger target :math:`S`, a smaller output multiplier :math:`Z^{-1}`, and a smaller
initialization (the initial state). The model is not registered (``two_layer_scalar`` is its :math:`\varepsilon = 1`
case); ``derivations.solve`` derives its closed form like any other model's.
"""

from __future__ import annotations

import sympy as sp

from ..model import Model, Quantity

__all__ = ["MODEL"]

S = sp.Symbol("S", real=True)
Z, eps = sp.symbols("Z epsilon", positive=True)
a, b, theta = sp.symbols("a b theta", real=True)

MODEL = Model(
    name="scaled_scalar",
    title="Width-p scalar network on a scaled input",
    reference="Nam et al. 2025, §6.3, §7.2, App. G.3 (Fig. 8), on the model of eq 15",
    state_names=("a", "b"),
    unit_param_names=(),
    shared_param_names=("S", "Z", "epsilon"),
    network=lambda s, x: sum(ai * bi for ai, bi in zip(s["a"], s["b"], strict=True)) * s["epsilon"] * x[0] / s["Z"],
    target=lambda s, x: s["S"] * x[0],
    moment=lambda s, i, j: sp.S.One,
    input_dim=lambda p: 1,
    quantities={
        "theta": Quantity("sum", a * b / Z, "Z^{-1} sum a_i b_i: f(x) = epsilon theta x"),
        "loss": Quantity("scalar", (S - eps * theta) ** 2 / 2, "population loss"),
    },
    domains={"S": "real", "Z": "positive", "epsilon": "positive"},
    notes=("E[x^2] = 1, the network sees epsilon x", "L = 1/2 (S - epsilon theta)^2"),
)
