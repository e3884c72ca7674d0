r"""``uv_model``: the two-layer linear "uv" model of Lewkowycz et al. 2020 (the catapult paper).

Convention (theirs, with population data): :math:`f(x) = n^{-1/2}\, v^\top u\, x`, :math:`u, v \in \mathbb R^n`,
one learning rate (gradient flow :math:`\dot u = -\nabla_u L`, :math:`\dot v = -\nabla_v L`), loss
:math:`\tfrac12\mathbb E[(f - y)^2]` with :math:`a = \mathbb E x^2`, :math:`b = \mathbb E xy` and the realizable
convention :math:`\mathbb E y^2 = b^2/a`. The width ``n`` of the :math:`n^{-1/2}` normalisation is a
parameter (pass the number of units). It is ``layerwise_lr_linear`` with :math:`\gamma = n^{-1/2}`,
:math:`\eta_u = \eta_w = 1`, ``w = v`` (Xu & Ziyin 2025, answer to reviewers), a verified coordinate map
(``to_layerwise_lr_linear``); its closed form is derived from its own flow by ``derivations.solve``.
"""

from __future__ import annotations

import sympy as sp

from ..coordinate_map import CoordinateMap
from ..model import Model, Quantity
from . import layerwise_lr_linear

u, v, uv = sp.symbols("u v uv", real=True)
n, a = sp.symbols("n a", positive=True)
b = sp.Symbol("b", real=True)


def to_layerwise_lr_linear(model: Model) -> CoordinateMap:
    """The map ``(u, v) -> (u, w)`` with ``gamma = n^{-1/2}``, ``eta_u = eta_w = 1``."""
    return CoordinateMap(
        source=model,
        target=layerwise_lr_linear.MODEL,
        state={"u": u, "w": v},
        params={"gamma": 1 / sp.sqrt(n), "eta_u": sp.S.One, "eta_w": sp.S.One, "a": a, "b": b},
        sums={"uw": uv},
        description="w = v, gamma = n^(-1/2), eta_u = eta_w = 1",
    )


MODEL = Model(
    name="uv_model",
    title="uv model (Lewkowycz et al. 2020)",
    reference="Lewkowycz, Bahri, Dyer, Sohl-Dickstein, Gur-Ari 2020, §2 (uv model); Xu & Ziyin 2025",
    state_names=("u", "v"),
    unit_param_names=(),
    shared_param_names=("n", "a", "b"),
    network=lambda s, x: sum(ui * vi for ui, vi in zip(s["u"], s["v"], strict=True)) * x[0] / sp.sqrt(s["n"]),
    target=lambda s, x: x[1],
    moment=layerwise_lr_linear.realizable_moment,
    input_dim=lambda p: 2,
    quantities={
        "uv": Quantity("sum", u * v, "u . v"),
        "output": Quantity("scalar", uv / sp.sqrt(n), "coefficient of x in f"),
        "loss": Quantity("scalar", a * (uv / sp.sqrt(n) - b / a) ** 2 / 2, "excess risk"),
    },
    domains={"n": "positive", "a": "positive", "b": "real"},
    notes=("f = v.u x / sqrt(n)", "loss = excess risk (E y^2 = b^2/a)"),
)
