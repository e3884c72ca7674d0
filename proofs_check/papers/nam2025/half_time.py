r"""When a mode is half learned: the half-time of a balanced mode, solved from a model's derived closed form.

Nam et al. 2025, §2 (eq 9 and :math:`t_{1/2}`), §5.1 (the modes are learned in the order of :math:`S_i\lambda_i`)
and eq 11 (skills emerge in the order of their frequencies). For a model whose units are modes :math:`(a, b)` with a
per-unit clock (``diagonal_linear_network``, ``emergence``), the product :math:`a(t)b(t)` from the balanced start
:math:`a(0) = b(0) = \sqrt{w_0}` is read off the closed form, and :math:`t_{1/2}` is the root of
:math:`a(t)b(t) = S/2` found by ``sympy.solve``; each step is recorded and checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import sympy as sp

from derivations.derivation import Derivation
from derivations.model import Model

__all__ = ["HalfTime", "balanced_product", "half_time"]

TARGET = sp.Symbol("S", positive=True)
"""The mode's target strength, taken positive (a mode learned from a small positive start)."""
START = sp.Symbol("w_0", positive=True)
"""The balanced start's product a(0) b(0) = w_0."""


@dataclass(frozen=True)
class HalfTime:
    """``product``: :math:`a(t)b(t)` from :math:`a(0) = b(0) = \\sqrt{w_0}`; ``t_half``: the time at which it reaches
    :math:`S/2`; ``t``: the time symbol; ``derivation``: the recorded steps."""

    product: sp.Expr
    t_half: sp.Expr
    t: sp.Symbol
    derivation: Derivation


def balanced_product(model: Model) -> sp.Expr:
    """:math:`a(t)b(t)` of ``model``'s closed form (Riccati clocks substituted) at the balanced start
    :math:`a(0) = b(0) = \\sqrt{w_0}`, with the target ``S`` positive."""
    a0, b0 = model.init_symbol("a"), model.init_symbol("b")
    state = model.closed_form.explicit()
    product = (state["a"] * state["b"]).xreplace({b0: a0}).xreplace({a0: sp.sqrt(START)})
    return product.xreplace({model.symbol("S"): TARGET})


@cache
def half_time(model: Model) -> HalfTime:
    """The half-time of a balanced mode of ``model`` (units with states ``a``, ``b``, a target ``S``), derived."""
    cf = model.closed_form
    explicit = balanced_product(model)
    product = sp.simplify(explicit)
    d = Derivation(f"half-time of a balanced mode of {model.name}", assumptions=("0 < w_0 < S/2",))
    d.add(
        sp.Eq(sp.Function("R")(cf.t), product),
        "a(t) b(t) of the closed form at a(0) = b(0) = sqrt(w_0), simplified",
        residual=explicit - product,
    )
    (root,) = sp.solve(sp.Eq(product, TARGET / 2), cf.t)
    d.add(
        sp.Eq(sp.Symbol("t_1/2", positive=True), root),
        "the time at which a(t) b(t) = S/2 (sympy.solve: one root)",
        residual=product.xreplace({cf.t: root}) - TARGET / 2,
    )
    return HalfTime(product, root, cf.t, d)
