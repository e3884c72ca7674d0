"""Models a user would define, shared by the tests that need a model outside the registry."""

from __future__ import annotations

import sympy as sp

from derivations import Model, Quantity

__all__ = ["quartic_decay", "whitened_product"]


def whitened_product(**changes: object) -> dict:
    """The keyword arguments of ``Model`` for f = sum_i a_i b_i x_i on whitened inputs, target sum_i S_i x_i, a
    shared ``mu`` (``changes`` replace or add fields)."""
    a, b = sp.symbols("a b", real=True)
    base = dict(
        name="user_model",
        title="t",
        reference="r",
        state_names=("a", "b"),
        unit_param_names=("S",),
        shared_param_names=("mu",),
        network=lambda s, x: sum(ai * bi * xi for ai, bi, xi in zip(s["a"], s["b"], x, strict=True)),
        target=lambda s, x: sum(si * xi for si, xi in zip(s["S"], x, strict=True)),
        moment=lambda s, i, j: sp.S.One if i == j else sp.S.Zero,
        input_dim=lambda p: p,
        quantities={"theta": Quantity("unit", a * b, "output")},
        domains={"S": "real", "mu": "positive"},
    )
    return {**base, **changes}


def quartic_decay(name: str = "quartic_decay") -> Model:
    """f = sum_i a_i b_i x_i (whitened) with the quartic decay mu/4 sum_i (a_i^4 + b_i^4): it conserves no law, so
    ``solve`` solves it only on the balanced line a = b (by the separable method)."""
    return Model(
        **whitened_product(
            name=name,
            title="f = sum_i a_i b_i x_i with quartic weight decay",
            reference="a user's model",
            regularizer=lambda s: s["mu"] * sum(ai**4 + bi**4 for ai, bi in zip(s["a"], s["b"], strict=True)) / 4,
        )
    )
