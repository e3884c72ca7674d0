r"""``two_layer_scalar_decay``: the width-``p`` scalar network of ``two_layer_scalar`` with weight decay.

Loss :math:`\tfrac12(S-\theta)^2 + \tfrac\mu2\sum_i(a_i^2 + b_i^2)`, :math:`\theta = Z^{-1}\sum_ia_ib_i`,
:math:`\mathbb E x^2 = 1` (Nam et al. 2025, §7 setting with an :math:`\ell_2` regularizer). The flow is
:math:`\dot a_i = b_i(S-\theta)/Z - \mu a_i`, :math:`\dot b_i = a_i(S-\theta)/Z - \mu b_i`: the coordinates
:math:`a_i \pm b_i` still share one clock, but the decay makes the clock equation's coefficients depend on time
unless one family vanishes. ``derivations.solve`` therefore solves it on the invariant set
:math:`a_i(0) = b_i(0)` for every unit (a logistic clock) and reports why it cannot from a general start.
"""

from __future__ import annotations

import sympy as sp

from ..model import Model, Quantity

S, mu = sp.Symbol("S", real=True), sp.Symbol("mu", positive=True)
Z = sp.Symbol("Z", positive=True)
a, b, theta, norm = sp.symbols("a b theta norm", real=True)

MODEL = Model(
    name="two_layer_scalar_decay",
    title="Width-p scalar two-layer network with weight decay",
    reference="Nam et al. 2025, §7 (eq 15) with weight decay (mu/2) sum_i (a_i^2 + b_i^2)",
    state_names=("a", "b"),
    unit_param_names=(),
    shared_param_names=("S", "Z", "mu"),
    network=lambda s, x: sum(ai * bi for ai, bi in zip(s["a"], s["b"], strict=False)) * x[0] / s["Z"],
    target=lambda s, x: s["S"] * x[0],
    moment=lambda s, i, j: sp.S.One,
    input_dim=lambda p: 1,
    quantities={
        "theta": Quantity("sum", a * b / Z, "output coefficient, f(x) = theta x"),
        "norm": Quantity("sum", a**2 + b**2, "squared weight norm"),
        "loss": Quantity("scalar", (S - theta) ** 2 / 2 + mu * norm / 2, "regularized population loss"),
    },
    domains={"S": "real", "Z": "positive", "mu": "positive"},
    notes=("E[x^2] = 1", "L = 1/2 (S - theta)^2 + mu/2 sum_i (a_i^2 + b_i^2)"),
    regularizer=lambda s: s["mu"] * sum(ai**2 + bi**2 for ai, bi in zip(s["a"], s["b"], strict=True)) / 2,
)
