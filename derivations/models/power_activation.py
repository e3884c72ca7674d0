r"""``power_activation``: :math:`f(\xi) = \gamma\sum_i u_i (w_i\xi)^\beta` with layer-wise learning rates.

Xu & Ziyin 2025 (ICLR), spec ``models-xu-ziyin2025.md`` §3: one hidden layer of width ``d`` with the power
activation :math:`\sigma(z) = z^\beta` (integer :math:`\beta \ge 1`; :math:`\beta = 1` is
``layerwise_lr_linear``) on one-dimensional data, :math:`\dot u = -\eta_u\nabla_u L`,
:math:`\dot w = -\eta_w\nabla_w L`.

The network is written in the *feature* :math:`\varphi = \xi^\beta`, in which it is linear:
:math:`f = \gamma\,(\sum_i u_i w_i^\beta)\,\varphi`, so the population loss is derived from the moments of
the inputs :math:`(\varphi, y)`: :math:`\mathbb E\varphi^2 = a := \mathbb E\xi^{2\beta} > 0`,
:math:`\mathbb E\varphi y = b := \mathbb E\xi^\beta y` (the spec's :math:`a_\beta`, :math:`b_\beta`) and, by
the realizable convention of ``layerwise_lr_linear``, :math:`\mathbb E y^2 = b^2/a`, so ``loss`` is the
excess risk :math:`\tfrac a2(\gamma V - b/a)^2` with :math:`V = \sum_i u_i w_i^\beta` (the flow does not
depend on :math:`\mathbb E y^2`). There is no closed form for general :math:`\beta` (``solver=None``); the
exact results (conservation, common clock, :math:`\Delta_i = -\tau`) are in ``derivations.power_activation``.
"""

from __future__ import annotations

import numbers
from functools import cache

import sympy as sp

from ..model import Model, Quantity
from .layerwise_lr_linear import realizable_moment

__all__ = ["MODEL", "power_activation"]

u, w, V = sp.symbols("u w V", real=True)
gamma, eta_u, eta_w, a = sp.symbols("gamma eta_u eta_w a", positive=True)
b = sp.Symbol("b", real=True)


def power_activation(beta: int) -> Model:
    """The power-activation model with exponent ``beta`` (an integer >= 1); one ``Model`` object per ``beta``.

    Every exponent's model is named ``power_activation`` (the exponent is in its title); the registry holds
    ``beta = 2``, and ``numerics.trajectory(power_activation(beta), ...)`` takes any other exponent."""
    if isinstance(beta, bool) or not isinstance(beta, numbers.Integral) or beta < 1:
        raise ValueError(f"beta must be an integer >= 1, got {beta!r}")
    return _build(int(beta))


@cache
def _build(beta: int) -> Model:
    return Model(
        name="power_activation",
        title=f"Power-activation network, sigma(z) = z^{beta}, with layer-wise learning rates",
        reference="Xu & Ziyin 2025 (ICLR), power activation",
        state_names=("u", "w"),
        unit_param_names=(),
        shared_param_names=("gamma", "eta_u", "eta_w", "a", "b"),
        network=lambda s, x: s["gamma"] * sum(ui * wi**beta for ui, wi in zip(s["u"], s["w"], strict=True)) * x[0],
        target=lambda s, x: x[1],
        moment=realizable_moment,
        input_dim=lambda p: 2,
        quantities={
            "V": Quantity("sum", u * w**beta, "sum_i u_i w_i^beta"),
            "output": Quantity("scalar", gamma * V, "coefficient of xi^beta in f"),
            "loss": Quantity("scalar", a * (gamma * V - b / a) ** 2 / 2, "excess risk"),
        },
        domains={"gamma": "positive", "eta_u": "positive", "eta_w": "positive", "a": "positive", "b": "real"},
        notes=(
            f"beta = {beta}; inputs (phi, y) with phi = xi^{beta}",
            "a = E[xi^(2 beta)] = E[phi^2], b = E[xi^beta y] = E[phi y], E[y^2] = b^2/a",
            "loss = excess risk",
        ),
        learning_rates={"u": "eta_u", "w": "eta_w"},
    )


MODEL = power_activation(2)
