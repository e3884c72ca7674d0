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

Its closed form is pulled back from ``two_layer_scalar`` through the verified coordinate map
:math:`a_i = \sqrt{\eta_w}\,u_i`, :math:`b_i = \sqrt{\eta_u}\,w_i`, :math:`S = \sqrt{\eta_u\eta_w}\,b/(\gamma a)`,
:math:`Z = 1`, time :math:`\gamma^2 a\, t` (the spec's :math:`p_i, q_i` are :math:`a_i \pm b_i`).
"""

from __future__ import annotations

import sympy as sp

from ..closed_form import ClosedForm
from ..coordinate_map import CoordinateMap
from ..model import Model, Quantity
from ..riccati import RiccatiSolution, riccati_solution
from . import two_layer_scalar

u, w = sp.symbols("u w", real=True)
gamma, eta_u, eta_w, a, b = sp.symbols("gamma eta_u eta_w a b", positive=True)
b = sp.Symbol("b", real=True)
uw, uu, ww = sp.symbols("uw uu ww", real=True)


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


P, Q = sp.symbols("P Q", positive=True)
t = sp.Symbol("t", nonnegative=True)


def phi_riccati() -> RiccatiSolution:
    r"""The spec's one-dimensional variable :math:`\varphi = \sum p_i^2/\sqrt{PQ}` (§2.2): its Riccati equation,
    roots :math:`\alpha_\pm`, rate :math:`\lambda` and closed form, by the engine."""
    root = sp.sqrt(P * Q)
    return riccati_solution(
        -(gamma**2) * a * root / 2,
        2 * gamma * b * sp.sqrt(eta_u * eta_w),
        gamma**2 * a * root / 2,
        sp.sqrt(P / Q),
        t,
        name="varphi",
        branch="generic",
        root_names=("alpha_+", "alpha_-"),
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


def _solve(model: Model) -> ClosedForm:
    cf = to_two_layer_scalar(model).pullback(two_layer_scalar.MODEL.closed_form)
    ((clock, sol),) = cf.riccati.items()
    phi0 = sp.sqrt(P / Q)
    in_pq = {sp.Symbol("P_0", nonnegative=True): P / 2, sp.Symbol("M_0", nonnegative=True): Q / 2}
    c2, c1, c0 = (sp.sympify(c, strict=True).xreplace(in_pq) for c in (sol.c2, sol.c1, sol.c0))
    phi = phi_riccati()
    cf.derivation.add(
        sp.Eq(sp.Symbol("varphi"), phi0 * clock),
        "the spec's phi = sum p_i^2 / sqrt(PQ) is the clock times phi_0 = sqrt(P/Q) (P = 2 P_0, Q = 2 M_0): its "
        "Riccati coefficients are (c2/phi_0, c1, c0 phi_0)",
        "Thm 1",
        residual=(c2 / phi0 - phi.c2) ** 2 + (c1 - phi.c1) ** 2 + (c0 * phi0 - phi.c0) ** 2,
    )
    cf.derivation.extend(phi.derivation)
    return cf


MODEL = Model(
    name="layerwise_lr_linear",
    title="Linear network with layer-wise learning rates",
    reference="Xu & Ziyin 2025 (ICLR), §2 (spec models-xu-ziyin2025.md §1-2)",
    state_names=("u", "w"),
    unit_param_names=(),
    shared_param_names=("gamma", "eta_u", "eta_w", "a", "b"),
    network=lambda s, x: s["gamma"] * sum(ui * wi for ui, wi in zip(s["u"], s["w"], strict=True)) * x[0],
    target=lambda s, x: x[1],
    moment=lambda s, i, j: (s["a"], s["b"], s["b"] ** 2 / s["a"])[i + j],
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
    solver=_solve,
    learning_rates={"u": "eta_u", "w": "eta_w"},
)
