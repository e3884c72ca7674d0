r"""The alignment of Xu & Ziyin 2025 along training, from the exact solution of ``layerwise_lr_linear``.

Spec ``models-xu-ziyin2025.md`` §2.4, §4, §5, §8: :math:`\zeta` is the plain cosine of :math:`u` and :math:`w` (the
model's ``alignment``); the learning-rate weighted cosine is :math:`\tanh\theta` (``alignment_weighted``), so the
hyperbolic angle is :math:`\theta = \operatorname{artanh}` of it. The standard parametrizations and their
initializations are those of ``numerics.phase`` (:math:`\kappa = d`, :math:`\eta_u = \eta_w = 1`, :math:`a = b = 1`;
draw ``seed`` at width ``d`` from ``default_rng((seed, d))``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from numerics import trajectory
from numerics.phase import BATCH, initializations
from proofs_check.papers.xu_ziyin2025.phase import PARAMETRIZATIONS, draw_changes

__all__ = ["Paths", "alignment_paths", "initial_alignment", "parameter_change"]

DRAW_BLOCK = 2**20
"""Weights drawn at once by :func:`initial_alignment` (the blocks lay out its random numbers: this fixes its draws)."""


@dataclass(frozen=True)
class Paths:
    """Along the closed form, at times ``t`` (first axis; then the draws): the plain cosine ``zeta``, the hyperbolic
    angle ``theta`` (artanh of the weighted cosine) and the NTK coefficient ``ntk``."""

    t: np.ndarray
    zeta: np.ndarray
    theta: np.ndarray
    ntk: np.ndarray


def _params(gamma: float) -> dict[str, float]:
    return {"gamma": gamma, "eta_u": 1.0, "eta_w": 1.0, "a": 1.0, "b": 1.0}


def _start(parametrization: str, d: int, seeds: Sequence[int]) -> tuple[np.ndarray, np.ndarray, float, float]:
    r"""The draws :math:`u_0, w_0`, :math:`\gamma`, and :math:`t_\infty = 100/\min\gamma^2a\sqrt{PQ}`: every draw's
    closed form has converged to :math:`e^{-100}` (its rate is at least :math:`\gamma^2a\sqrt{PQ}`, spec §2.2)."""
    p = PARAMETRIZATIONS[parametrization]
    u0, w0 = initializations(p, d, seeds)
    gamma = p.gamma(d)
    rate = gamma**2 * np.sqrt(((u0 + w0) ** 2).sum(axis=1) * ((u0 - w0) ** 2).sum(axis=1))
    return u0, w0, gamma, 100 / rate.min()


def alignment_paths(parametrization: str, d: int, seeds: Sequence[int], points: int = 40) -> Paths:
    r""":class:`Paths` of the draws ``seeds`` at width ``d``, at :math:`t = 0` and ``points − 1`` times log-spaced
    from :math:`10^{-6}t_\infty` to :math:`t_\infty`."""
    u0, w0, gamma, horizon = _start(parametrization, d, seeds)
    t = np.concatenate([[0.0], horizon * np.logspace(-6, 0, points - 1)])
    chunk = max(1, BATCH // (d * points))
    parts = [
        trajectory(
            "layerwise_lr_linear",
            t,
            _params(gamma),
            {"u": u0[i : i + chunk], "w": w0[i : i + chunk]},
            refine=False,
            quantities=("alignment", "alignment_weighted", "ntk"),
        )
        for i in range(0, len(seeds), chunk)
    ]
    zeta, weighted, ntk = (
        np.concatenate([r[q] for r in parts], axis=1) for q in ("alignment", "alignment_weighted", "ntk")
    )
    return Paths(t, zeta, np.arctanh(weighted), ntk)


def initial_alignment(d: int, draws: int, seed: int = 0) -> np.ndarray:
    r""":math:`\zeta(0)` of ``draws`` independent standard Gaussian :math:`u_0, w_0 \in \mathbb R^d` (the model's
    ``alignment`` at :math:`t = 0`)."""
    rng = np.random.default_rng((seed, d))
    chunk = max(1, DRAW_BLOCK // d)
    values = []
    batch = max(1, BATCH // d)
    for start in range(0, draws, chunk):
        u0, w0 = rng.standard_normal((2, min(chunk, draws - start), d))
        for i in range(0, len(u0), batch):
            init = {"u": u0[i : i + batch], "w": w0[i : i + batch]}
            run = trajectory("layerwise_lr_linear", [0.0], _params(1.0), init, quantities=("alignment",))
            values.append(run["alignment"][0])
    return np.concatenate(values)


def parameter_change(parametrization: str, d: int, seeds: Sequence[int]) -> np.ndarray:
    r""":math:`\|(u_\infty, w_\infty) - (u_0, w_0)\|/\|(u_0, w_0)\|` per draw (the whole parameter vector), from the
    closed form at :math:`t_\infty` (``numerics.phase.draw_changes``, which evaluates it with the width sweep's
    quantities)."""
    return draw_changes(parametrization, d, seeds)[3]
