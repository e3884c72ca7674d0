r"""``deep_scalar_chain``: :math:`f(x) = \sum_i a_{1,i} a_{2,i}\cdots a_{L,i}\, x_i`, target :math:`\sum_i S_i x_i`.

A deep diagonal (scalar-chain) network: each unit is a chain of ``L`` scalar layers on its own input,
:math:`\mathbb E[x_ix_j] = \lambda_i\delta_{ij}`; a single unit is the chain :math:`f = a_1\cdots a_L\,x`
(Saxe et al. 2014, deep linear networks; Nam et al. 2025, §5: deeper networks sharpen the transition). The
layers' squared differences :math:`a_l^2 - a_m^2` are conserved. ``derivations.solve`` finds no clock for
:math:`L \ge 3` (the field divided by its common factor is not linear in the state) and solves the flow on
the balanced line :math:`a_1 = \dots = a_L = s`, where :math:`\dot s = \lambda s^{L-1}(S - s^L)`, in implicit
form. ``deep_scalar_chain(L)`` builds the model; the registry holds ``L = 3``.
"""

from __future__ import annotations

import numbers
from functools import cache

import sympy as sp

from ..model import Model, Quantity

__all__ = ["MODEL", "deep_scalar_chain"]


def deep_scalar_chain(L: int) -> Model:
    """The chain model with ``L`` layers (an integer >= 2)."""
    if isinstance(L, bool) or not isinstance(L, numbers.Integral) or L < 2:
        raise ValueError(f"L must be an integer >= 2, got {L!r}")
    return _build(int(L))


@cache
def _build(L: int) -> Model:
    layers = tuple(f"a{k + 1}" for k in range(L))
    a = sp.symbols(layers, real=True)
    S, lam = sp.Symbol("S", real=True), sp.Symbol("lam", positive=True)
    product = sp.Mul(*a)

    def network(s, x):
        return sum(sp.Mul(*(s[n][i] for n in layers)) * xi for i, xi in enumerate(x))

    return Model(
        name="deep_scalar_chain",
        title=f"Deep scalar chain, L = {L} layers per unit",
        reference="Saxe et al. 2014 (deep linear networks); Nam et al. 2025, §5",
        state_names=layers,
        unit_param_names=("S", "lam"),
        shared_param_names=(),
        network=network,
        target=lambda s, x: sum(si * xi for si, xi in zip(s["S"], x, strict=False)),
        moment=lambda s, i, j: s["lam"][i] if i == j else sp.S.Zero,
        input_dim=lambda p: p,
        quantities={
            "theta": Quantity("unit", product, "effective coefficient a_1 ... a_L of x_i"),
            "loss": Quantity("sum", lam * (S - product) ** 2 / 2, "population loss"),
        },
        domains={"S": "real", "lam": "positive"},
        notes=(f"L = {L}", "E[x_i x_j] = lam_i delta_ij", "balanced start: a_1(0) = ... = a_L(0)"),
    )


MODEL = deep_scalar_chain(3)
