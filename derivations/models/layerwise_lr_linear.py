r"""``layerwise_lr_linear``: :math:`f(\xi) = \gamma\, u^\top w\, \xi` with layer-wise learning rates.

Xu & Ziyin 2025 (ICLR), spec ``models-xu-ziyin2025.md`` §1–2: one hidden linear layer of width ``d`` on
one-dimensional data, :math:`\dot u = -\eta_u\nabla_u L`, :math:`\dot w = -\eta_w \nabla_w L`, with data
moments :math:`a = \mathbb E\xi^2 > 0`, :math:`b = \mathbb E\xi y`. Convention: the target is taken
realizable, :math:`\mathbb E y^2 = b^2/a`, so ``loss`` is the excess risk
:math:`\tfrac a2(\gamma u^\top w - b/a)^2` (the gradient flow does not depend on :math:`\mathbb E y^2`).

The cosines ``alignment`` and ``alignment_weighted`` are undefined at a zero vector and take the value 0 there
(where :math:`u^\top w = 0`), and are clamped to :math:`[-1, 1]` (which only rounding could leave); numerics
evaluates them on rescaled states (``derivations.scale_invariance``), so that they stay exact when the weights
are far below or above the float64 range of their squares.

Its closed form is derived from its own flow by ``derivations.solve`` (the clock of the coordinate
:math:`\sqrt{\eta_w}\,u_i + \sqrt{\eta_u}\,w_i`, the spec's :math:`p_i`); ``to_two_layer_scalar`` is the verified
coordinate map :math:`a_i = \sqrt{\eta_w}\,u_i`, :math:`b_i = \sqrt{\eta_u}\,w_i`,
:math:`S = \sqrt{\eta_u\eta_w}\,b/(\gamma a)`, :math:`Z = 1`, time :math:`\gamma^2 a\, t`.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from ..coordinate_map import CoordinateMap
from ..derivation import Derivation
from ..model import Model, Quantity, Symbols
from ..riccati import RiccatiSolution, riccati_solution
from . import two_layer_scalar

u, w = sp.symbols("u w", real=True)
gamma, eta_u, eta_w, a, b = sp.symbols("gamma eta_u eta_w a b", positive=True)
b = sp.Symbol("b", real=True)
uw, uu, ww = sp.symbols("uw uu ww", real=True)


def realizable_moment(s: Symbols, i: int, j: int) -> sp.Expr:
    """``E[x_i x_j]`` of the input ``x_1`` and the realizable target ``x_2 = (b/a) x_1``: ``a``, ``b`` and
    ``b^2/a`` (the shared parameters ``a = E xi^2``, ``b = E xi y``), for every model of Xu & Ziyin's data."""
    first, second = s["a"], s["b"]
    if not (isinstance(first, sp.Symbol) and isinstance(second, sp.Symbol)):
        raise TypeError("the moments a and b must be shared parameters (one symbol each)")
    return (first, second, second**2 / first)[i + j]


def to_two_layer_scalar(model: Model) -> CoordinateMap:
    """The map to ``two_layer_scalar`` (push-forward verified by ``CoordinateMap.derivation``)."""
    return CoordinateMap(
        source=model,
        target=two_layer_scalar.MODEL,
        state={"a": sp.sqrt(eta_w) * u, "b": sp.sqrt(eta_u) * w},
        params={"S": sp.sqrt(eta_u * eta_w) * b / (gamma * a), "Z": sp.S.One},
        sums={"theta": sp.sqrt(eta_u * eta_w) * uw},
        time_scale=gamma**2 * a,
        description="a = sqrt(eta_w) u, b = sqrt(eta_u) w",
    )


COSINES = {
    "alignment": uw / (sp.sqrt(uu) * sp.sqrt(ww)),
    "alignment_weighted": 2 * sp.sqrt(eta_u * eta_w) * uw / (eta_w * uu + eta_u * ww),
}
"""The two cosines where they are defined, in the sums: the model's quantities of these names are these."""


def _cosine(cosine: sp.Expr, defined: sp.Basic) -> sp.Expr:
    """``cosine`` where ``defined``, else 0; clamped to [-1, 1], which it never leaves (Cauchy-Schwarz, and the
    AM-GM inequality for the weighted one) except by rounding."""
    return sp.Piecewise((sp.Max(-1, sp.Min(1, cosine)), defined), (0, True))


MODEL = Model(
    name="layerwise_lr_linear",
    title="Linear network with layer-wise learning rates",
    reference="Xu & Ziyin 2025 (ICLR), §2",
    state_names=("u", "w"),
    unit_param_names=(),
    shared_param_names=("gamma", "eta_u", "eta_w", "a", "b"),
    network=lambda s, x: s["gamma"] * sum(ui * wi for ui, wi in zip(s["u"], s["w"], strict=True)) * x[0],
    target=lambda s, x: x[1],
    moment=realizable_moment,
    input_dim=lambda p: 2,
    quantities={
        "uw": Quantity("sum", u * w, "u . w"),
        "uu": Quantity("sum", u**2, "|u|^2"),
        "ww": Quantity("sum", w**2, "|w|^2"),
        "output": Quantity("scalar", gamma * uw, "coefficient of xi in f"),
        "ntk": Quantity("scalar", gamma**2 * (eta_u * ww + eta_w * uu), "learning-rate weighted NTK / (xi xi')"),
        "alignment": Quantity(
            "scalar",
            _cosine(COSINES["alignment"], (uu > 0) & (ww > 0)),
            "cosine of u and w (the paper's zeta); 0 where u = 0 or w = 0, where it is undefined",
        ),
        "alignment_weighted": Quantity(
            "scalar",
            _cosine(COSINES["alignment_weighted"], (uu > 0) | (ww > 0)),
            "tanh(theta); 0 at u = w = 0, where it is undefined",
        ),
        "loss": Quantity("scalar", a * (gamma * uw - b / a) ** 2 / 2, "excess risk"),
    },
    domains={"gamma": "positive", "eta_u": "positive", "eta_w": "positive", "a": "positive", "b": "real"},
    notes=("inputs (xi, y) with E[xi^2] = a, E[xi y] = b, E[y^2] = b^2/a", "loss = excess risk"),
    learning_rates={"u": "eta_u", "w": "eta_w"},
)


P, Q = sp.symbols("P Q", positive=True)
t = sp.Symbol("t", nonnegative=True)


@cache
def phi_riccati() -> tuple[RiccatiSolution, Derivation]:
    r"""The spec's one-dimensional variable :math:`\varphi = \sum_i p_i^2/\sqrt{PQ}` (§2.2), :math:`p_i =
    \sqrt{\eta_w}u_i + \sqrt{\eta_u}w_i`, :math:`P = \sum p_i(0)^2`, :math:`Q = \sum q_i(0)^2`,
    :math:`q_i = \sqrt{\eta_w}u_i - \sqrt{\eta_u}w_i`: the derived clock is :math:`(p_i(t)/p_i(0))^2`, so
    :math:`\varphi = \sqrt{P/Q}` times it. Its equation is the clock equation under that substitution, solved
    by the Riccati engine (roots :math:`\alpha_\pm`, rate :math:`\lambda`); the derivation records the
    identification of the clock's sums with :math:`P` and :math:`Q`, summand by summand."""
    cf = MODEL.closed_form
    ((clock, solution),) = cf.riccati.items()
    plus, minus = (next(s for s in cf.sums if str(s) == f"uw[{k}]") for k in ("+1", "-1"))
    p0 = sp.sqrt(eta_w) * MODEL.init_symbol("u") + sp.sqrt(eta_u) * MODEL.init_symbol("w")
    q0 = sp.sqrt(eta_w) * MODEL.init_symbol("u") - sp.sqrt(eta_u) * MODEL.init_symbol("w")
    norm = 4 * sp.sqrt(eta_u * eta_w)
    in_pq = {plus: P / norm, minus: -Q / norm}
    d = Derivation("the spec's variable varphi")
    for symbol, summand in ((plus, p0**2 / norm), (minus, -(q0**2) / norm)):
        d.add(
            sp.Eq(symbol, in_pq[symbol]),
            "the clock's sum in the spec's P, Q, summand by summand",
            residual=cf.sums[symbol] - summand,
        )
    varphi = sp.Symbol("varphi", positive=True)
    scale = sp.sqrt(P / Q)
    rhs = sp.expand(scale * solution.rhs.xreplace({clock: varphi / scale}).xreplace(in_pq))
    d.add(
        sp.Eq(sp.Derivative(sp.Function("varphi")(t), t), rhs),
        "varphi = sqrt(P/Q) times the clock: its equation by substitution",
        "Thm 1",
        residual=rhs - scale * solution.rhs.xreplace(in_pq).xreplace({clock: varphi / scale}),
    )
    return riccati_solution(rhs, varphi, scale, t), d
