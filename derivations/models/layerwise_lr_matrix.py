r"""``layerwise_lr_matrix``: :math:`f(x) = \gamma\, u^\top W x` with a full first layer, data on a line.

Xu & Ziyin 2025, Proposition 1 (spec §1): :math:`W \in \mathbb R^{d\times d_0}` (rows :math:`w_i^\top` are the
units' state ``W_1 … W_{d0}``), inputs :math:`x = \xi\, n` for a fixed direction :math:`n \in \mathbb R^{d_0}`
(parameters ``n_1 … n_{d0}``), moments :math:`a = \mathbb E\xi^2`, :math:`b = \mathbb E\xi y`, realizable
:math:`\mathbb E y^2 = b^2/a`, learning rates ``eta_u`` for ``u`` and ``eta_w`` for ``W``. The gradient of
every row is parallel to :math:`n^\top`, so :math:`W(t) - W(0) = (w(t) - w(0))\, n^\top` with :math:`w = Wn`
(the rank-1 effect). ``layerwise_lr_matrix(d0)`` builds the model for input dimension ``d0``.

Declared layout (the numerics take and return these as arrays): ``matrix_states`` ``WT`` with rows
``W_1 … W_{d0}``, shape (d0, p), the transpose of :math:`W` (unit ``i`` is row :math:`w_i^\top` of :math:`W`,
so state ``W_k`` over the units is column ``k`` of :math:`W`); ``matrix_params`` ``n``, the column vector
:math:`n` as a (d0, 1) matrix of the parameters ``n_1 … n_{d0}`` (a vector is declared as a one-column matrix:
give it with shape (d0, 1), or (batch, d0, 1)).
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from ..model import Model, Quantity
from .layerwise_lr_linear import realizable_moment


@cache
def layerwise_lr_matrix(d0: int = 3) -> Model:
    """The model with input dimension ``d0`` (an integer >= 1)."""
    if not isinstance(d0, int) or d0 < 1:
        raise ValueError(f"d0 must be an integer >= 1, got {d0!r}")
    rows = tuple(f"W_{k + 1}" for k in range(d0))
    directions = tuple(f"n_{k + 1}" for k in range(d0))
    gamma, a = sp.symbols("gamma a", positive=True)
    b, u, uw = sp.symbols("b u uw", real=True)
    W = sp.symbols(rows, real=True)
    n = sp.symbols(directions, real=True)
    w_dot_n = sum(wk * nk for wk, nk in zip(W, n, strict=True))

    def network(s, x):
        hidden = [sum(s[r][i] * s[m] for r, m in zip(rows, directions, strict=True)) for i in range(len(s["u"]))]
        return s["gamma"] * sum(ui * hi for ui, hi in zip(s["u"], hidden, strict=True)) * x[0]

    return Model(
        name="layerwise_lr_matrix",
        title=f"Linear network with a full first layer (d0 = {d0}) and layer-wise learning rates",
        reference="Xu & Ziyin 2025, Proposition 1",
        state_names=("u", *rows),
        unit_param_names=(),
        shared_param_names=("gamma", "eta_u", "eta_w", "a", "b", *directions),
        network=network,
        target=lambda s, x: x[1],
        moment=realizable_moment,
        input_dim=lambda p: 2,
        quantities={
            "uw": Quantity("sum", u * w_dot_n, "u . (W n)"),
            "output": Quantity("scalar", gamma * uw, "coefficient of xi in f"),
            "loss": Quantity("scalar", a * (gamma * uw - b / a) ** 2 / 2, "excess risk"),
        },
        domains={"gamma": "positive", "eta_u": "positive", "eta_w": "positive", "a": "positive", "b": "real"},
        notes=("x = xi n; the network sees only xi and the direction n",),
        learning_rates={"u": "eta_u", **{r: "eta_w" for r in rows}},
        matrix_states={"WT": rows},
        matrix_params={"n": tuple((name,) for name in directions)},
    )


MODEL = layerwise_lr_matrix(3)
