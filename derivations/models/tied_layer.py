r"""``tied_layer``: :math:`f(x) = \sum_i a_i^2 b_i\, x_i`, target :math:`\sum_i S_i x_i`, whitened inputs.

A *tied* (weight-shared) layer: the first and second layers of each unit share the weight :math:`a_i`, which
enters the output squared, before a third scalar :math:`b_i` (a depth-3 chain :math:`a\,a\,b` with two layers
tied). With :math:`\mathbb E[x_ix_j] = \delta_{ij}` each unit is on its own, with loss
:math:`\tfrac12 (S - a^2b)^2` and flow :math:`\dot a = 2ab\,(S - a^2b)`, :math:`\dot b = a^2(S - a^2b)`; the
quantity :math:`a^2 - 2b^2` is conserved, so eliminating :math:`a` leaves one autonomous ODE in :math:`b`,
rational in :math:`b` (``derivations.elimination``), whose time is a quadrature
(``derivations.quadrature``). No reference is cited: we know of no paper that solves this model.
"""

from __future__ import annotations

import sympy as sp

from ..model import Model, Quantity

S = sp.Symbol("S", real=True)
a, b = sp.symbols("a b", real=True)

MODEL = Model(
    name="tied_layer",
    title="Tied layer, f = sum_i a_i^2 b_i x_i",
    reference="a tied (weight-shared) depth-3 chain; no paper is cited",
    state_names=("a", "b"),
    unit_param_names=("S",),
    shared_param_names=(),
    network=lambda s, x: sum(ai**2 * bi * xi for ai, bi, xi in zip(s["a"], s["b"], x, strict=False)),
    target=lambda s, x: sum(si * xi for si, xi in zip(s["S"], x, strict=False)),
    moment=lambda s, i, j: sp.S.One if i == j else sp.S.Zero,
    input_dim=lambda p: p,
    quantities={
        "theta": Quantity("unit", a**2 * b, "effective coefficient a_i^2 b_i of x_i"),
        "loss": Quantity("sum", (S - a**2 * b) ** 2 / 2, "population loss"),
    },
    domains={"S": "real"},
    notes=("E[x_i x_j] = delta_ij", "L = 1/2 sum_i (S_i - a_i^2 b_i)^2", "a^2 - 2 b^2 is conserved"),
)
