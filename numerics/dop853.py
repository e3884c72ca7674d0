r"""DOP853 (Hairer, Nørsett & Wanner, *Solving ODEs I*, §II.10) on a whole batch of starts as one system.

One system for the batch replaces a Python loop of per-start integrations: every right-hand side evaluation is
one vectorized call of the derived field (:class:`numerics.compiled.BatchField`). SciPy's error norm is the RMS
over *all* components, under which one hard start would hide among many easy ones (its error divided by
:math:`\sqrt{\text{batch}}`); :class:`BatchDOP853` takes instead the largest over the starts of each start's own
norm, so a step is accepted only if every start would accept it alone: each start is integrated at least as
accurately as by itself, at the cost of the smallest step over the starts. That cost is bounded by integrating the
starts in groups of similar time scale (:func:`integrate_batch`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.integrate import DOP853, solve_ivp

from .compiled import BatchField

__all__ = ["ATOL_FACTOR", "GROUP", "RTOL", "BatchDOP853", "integrate_batch", "start_scales"]

RTOL = 1e-13
# absolute tolerance per start, relative to its scale (start_scales): rounding level of that scale
ATOL_FACTOR = 1e-16
# starts per system (measured in benchmarks/run.py): small groups pay the per-call overhead, large ones the
# smallest step over more starts and arrays beyond the cache
GROUP = 256


class BatchDOP853(DOP853):
    """DOP853 on ``y`` packed as (states, batch, p) whose error norm is the largest per-start norm.

    ``shape`` is the packed shape (states, batch, p); other options as for ``scipy.integrate.DOP853``.
    """

    def __init__(self, fun: object, t0: float, y0: np.ndarray, t_bound: float, shape: tuple[int, ...], **options):
        self.shape = shape
        super().__init__(fun, t0, y0, t_bound, **options)

    def _estimate_error_norm(self, K: np.ndarray, h: float, scale: np.ndarray) -> float:
        if self.shape[1] == 1:  # one start: SciPy's own norm is that start's (a NaN rejects the step as inf does)
            return super()._estimate_error_norm(K, h, scale)
        # SciPy's DOP853 norm (the 5th- and 3rd-order estimates combined), taken per start
        err5 = ((K.T @ self.E5 / scale).reshape(self.shape) ** 2).sum(axis=(0, 2))
        err3 = ((K.T @ self.E3 / scale).reshape(self.shape) ** 2).sum(axis=(0, 2))
        denominator = err5 + 0.01 * err3
        size = self.shape[0] * self.shape[2]
        with np.errstate(invalid="ignore", divide="ignore"):
            norms = np.where(denominator == 0, 0.0, np.abs(h) * err5 / np.sqrt(denominator * size))
        # an overflowed trial step (inf or NaN) is rejected, never accepted
        worst = float(np.max(norms))
        return worst if np.isfinite(worst) else np.inf


def start_scales(field: BatchField, y: np.ndarray, params: Sequence[Any], horizon: float) -> np.ndarray:
    r"""Each start's magnitude scale :math:`\max(\|y_0\|, \|f\|\,\tau)`, with :math:`\tau = \min(\|f\| /
    \|J f\|, T)` the time in which its velocity changes (∞-norms, ``f`` the field at the start, ``J f`` its
    derivative along itself, ``T`` the horizon): about the distance the state moves. It keeps the absolute
    tolerance meaningful for a start at or near 0 (e.g. an all-zero ``linear_model`` start, whose solution grows
    to ``S``), where :math:`\|y_0\|` alone would give 0 and make DOP853 fail."""
    return _scales(y, *_motion(field, y, params), horizon)


def _motion(field: BatchField, y: np.ndarray, params: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Each start's speed ``‖f‖`` and the rate ``‖J f‖`` at which its velocity changes (∞-norms)."""
    f = field(y, params)
    return np.max(np.abs(f), axis=(0, 2)), np.max(np.abs(field.jvp(y, f, params)), axis=(0, 2))


def _scales(y: np.ndarray, speed: np.ndarray, rate: np.ndarray, horizon: float) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = np.where(rate > 0, speed / rate, np.inf)
    return np.maximum(np.max(np.abs(y), axis=(0, 2)), speed * np.minimum(tau, horizon))


def integrate_batch(
    field: BatchField, y0: np.ndarray, params: Sequence[Any], t: np.ndarray, group: int = GROUP
) -> np.ndarray:
    """The flow of ``field`` from ``y0`` (states, batch, p) at times ``t`` (≥ 0, any order): (T, states, batch, p).

    Unit parameters in ``params`` are arrays (batch, p). The starts are sorted by their initial rate
    ``‖J f‖ / ‖f‖`` and integrated in groups of at most ``group``, so that a group's smallest step is close to
    each of its starts' own (a stiff start then slows only its group)."""
    n, batch, width = y0.shape
    with np.errstate(over="ignore", invalid="ignore"):  # a start beyond the float64 range has an infinite scale
        speed, rate = _motion(field, y0, params)
    atol = ATOL_FACTOR * _scales(y0, speed, rate, float(t.max()))
    with np.errstate(divide="ignore", invalid="ignore"):
        order = np.argsort(np.where(speed > 0, rate / speed, 0.0), kind="stable")
    out = np.empty((len(t), n, batch, width))
    for chunk in np.array_split(order, -(-batch // group)):
        chunk_params = [v[chunk] if np.ndim(v) == 2 and len(v) == batch else v for v in params]
        out[:, :, chunk] = _integrate(field, y0[:, chunk], chunk_params, t, atol[chunk])
    return out


def _integrate(field: BatchField, y0: np.ndarray, params: Sequence[Any], t: np.ndarray, atol: np.ndarray) -> np.ndarray:
    shape = y0.shape
    horizon = float(t.max())
    if horizon == 0:
        return np.broadcast_to(y0, (len(t), *shape)).copy()
    # a start at rest at 0 has scale 0; the smallest normal number keeps its (exactly zero) error finite
    atol = np.broadcast_to(np.maximum(atol, np.finfo(float).tiny)[None, :, None], shape).ravel()

    # the generated field's components joined directly when each has the full (batch, p) shape: per call, the
    # overhead of BatchField's general stacking is comparable to the field's own arithmetic for a few starts
    generated = field.field
    full = all(np.shape(c) == shape[1:] for c in generated(*y0, *params))

    def rhs(_time: float, y: np.ndarray) -> np.ndarray:
        if full:
            return np.concatenate(generated(*y.reshape(shape), *params), axis=None)
        return field(y.reshape(shape), params).ravel()

    times = np.unique(t)  # t_eval must increase strictly: repeated times are evaluated once
    # a rejected trial step of a fast (stiff) flow may overflow; DOP853 then shrinks the step
    with np.errstate(over="ignore", invalid="ignore"):
        sol = solve_ivp(
            rhs, (0.0, horizon), y0.ravel(), method=BatchDOP853, t_eval=times, rtol=RTOL, atol=atol, shape=shape
        )
    if not sol.success:
        raise RuntimeError(f"DOP853 failed: {sol.message}")
    values = sol.y[:, np.searchsorted(times, t)]
    return values.T.reshape(len(t), *shape)
