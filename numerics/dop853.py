r"""DOP853 (Hairer, Nørsett & Wanner, *Solving ODEs I*, §II.10) on a whole batch of starts, each with its own steps.

One system for the batch replaces a Python loop of per-start integrations: every right-hand side evaluation is
one vectorized call of the derived field (:class:`numerics.compiled.BatchField`). A shared step would couple the
starts: under SciPy's error norm (the RMS over *all* components) one hard start hides among many easy ones (its
error divided by :math:`\sqrt{\text{batch}}`), and even under the largest per-start norm each start takes the
smallest step of its batch, a different step sequence whose global error differs from its own (either way, by
factors up to ten on the same start). :class:`BatchDOP853` therefore runs SciPy's DOP853 *per start* (a lane): its
tableau, error estimator and norm, step-size controller, initial step and dense output, with a time, a step
size, an error norm and an acceptance per lane, vectorized across the lanes. Each start takes exactly the steps
it takes alone, so it is exactly as accurate as alone (to the rounding of the vectorized arithmetic); a finished
start leaves the vectorized calls. The starts are still integrated in groups of similar rate
(:func:`integrate_batch`), so that a group's lanes finish together.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy.integrate import DOP853

from .compiled import BatchField
from .work import Work

__all__ = ["ATOL_FACTOR", "GROUP", "RTOL", "BatchDOP853", "integrate_batch", "start_scales"]

RTOL = 1e-13
# absolute tolerance per start, relative to its scale (start_scales): rounding level of that scale
ATOL_FACTOR = 1e-16
# starts per system (measured in benchmarks/run.py): small groups pay the per-call overhead, large ones arrays
# beyond the cache
GROUP = 256
# SciPy's step-size controller (scipy/integrate/_ivp/rk.py)
SAFETY, MIN_FACTOR, MAX_FACTOR = 0.9, 0.2, 10.0
ERROR_EXPONENT = -1 / (DOP853.error_estimator_order + 1)
STAGES = DOP853.n_stages


class BatchDOP853:
    """SciPy's DOP853 on each of a batch of starts (lanes), vectorized across them: per lane its own time, step
    size, error norm (the DOP853 norm over that start's components only) and acceptance.

    ``fun(y, rows)`` is the field at ``y`` (states, lanes, p) for the lanes ``rows`` (indices into the batch);
    ``y0`` (states, batch, p) the starts; ``atol`` (batch,) each start's absolute tolerance; ``rtol`` the relative
    one. :meth:`solve` integrates to given times."""

    def __init__(
        self, fun: Callable[[np.ndarray, np.ndarray], np.ndarray], y0: np.ndarray, atol: np.ndarray, rtol: float = RTOL
    ):
        self._fun, self.y0, self.rtol = fun, np.asarray(y0, dtype=float), rtol
        self.atol = np.asarray(atol, dtype=float)
        self.size = self.y0.shape[0] * self.y0.shape[2]  # components per start
        self.nfev = np.zeros(self.y0.shape[1], dtype=np.int64)
        """Field evaluations of each lane so far."""
        self.nsteps = np.zeros(self.y0.shape[1], dtype=np.int64)
        """Accepted steps of each lane so far."""

    def fun(self, y: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The field for the lanes ``rows``, counted in :attr:`nfev`."""
        self.nfev[rows] += 1
        return self._fun(y, rows)

    def _norm(self, values: np.ndarray) -> np.ndarray:
        """SciPy's RMS norm, per lane: (states, lanes, p) -> (lanes,)."""
        return np.sqrt(_lane_sum(values**2) / self.size)

    def _initial_step(self, y: np.ndarray, f: np.ndarray, rows: np.ndarray, horizon: float) -> np.ndarray:
        """SciPy's ``select_initial_step`` (Hairer et al. §II.4), per lane."""
        scale = self.atol[None, :, None] + np.abs(y) * self.rtol
        d0, d1 = self._norm(y / scale), self._norm(f / scale)
        with np.errstate(divide="ignore", invalid="ignore"):
            h0 = np.minimum(np.where((d0 < 1e-5) | (d1 < 1e-5), 1e-6, 0.01 * d0 / d1), horizon)
        f1 = self.fun(y + h0[None, :, None] * f, rows)
        d2 = self._norm((f1 - f) / scale) / h0
        with np.errstate(divide="ignore", invalid="ignore"):
            h1 = np.where(
                (d1 <= 1e-15) & (d2 <= 1e-15),
                np.maximum(1e-6, h0 * 1e-3),
                (0.01 / np.maximum(d1, d2)) ** (1 / (DOP853.error_estimator_order + 1)),
            )
        return np.minimum(np.minimum(100 * h0, h1), horizon)

    def solve(self, times: np.ndarray) -> np.ndarray:
        """The solution at ``times`` (increasing strictly, ≥ 0): (T, states, batch, p). ``RuntimeError`` if a
        start's step falls below the spacing of the floats at its time (SciPy's failure)."""
        n, batch, width = self.y0.shape
        horizon = float(times[-1])
        # written start by start (each (start, time) a contiguous block), returned as (T, states, batch, p)
        out = np.empty((batch, len(times), n, width))
        out[:, times == 0] = self.y0.transpose(1, 0, 2)[:, None]
        if horizon == 0:
            return out.transpose(1, 2, 0, 3)
        every = np.arange(batch)
        t, y = np.zeros(batch), self.y0.copy()
        f = self.fun(y, every)
        h_abs = self._initial_step(y, f, every, horizon)
        rejected = np.zeros(batch, dtype=bool)
        written = np.full(batch, int(np.searchsorted(times, 0.0, side="right")))
        active = every
        while active.size:
            step = self._attempt(
                t[active], y[:, active], f[:, active], h_abs[active], rejected[active], active, horizon
            )
            t_new, y_new, f_new, K, accept, h_abs[active], rejected[active] = step
            done = active[accept]
            self.nsteps[done] += 1
            ends = (t[done], t_new[accept], y[:, done], y_new[:, accept], f_new[:, accept], K[:, :, accept])
            self._dense(times, out, written, done, *ends)
            t[done], y[:, done], f[:, done] = t_new[accept], y_new[:, accept], f_new[:, accept]
            active = active[t[active] < horizon]
        return out.transpose(1, 2, 0, 3)

    def _attempt(self, t, y, f, h_abs, rejected, rows, horizon):
        """One step attempt of every active lane (SciPy's ``RungeKutta._step_impl`` loop body): the new times,
        states and fields, the stages, which lanes accept, and their next step sizes and rejection flags."""
        min_step = 10 * np.abs(np.nextafter(t, np.inf) - t)
        h_abs = np.where(~rejected & (h_abs < min_step), min_step, h_abs)  # a new step starts at least there
        if np.any(h_abs < min_step):
            raise RuntimeError("DOP853 failed: Required step size is less than spacing between numbers.")
        t_new = np.minimum(t + h_abs, horizon)
        h = t_new - t
        H = h[None, :, None]
        K = np.empty((STAGES + 1 + len(DOP853.A_EXTRA), *y.shape))  # the stages, with the dense output's
        K[0] = f
        for s in range(1, STAGES):
            K[s] = self.fun(y + _combination(DOP853.A[s, :s], K) * H, rows)
        y_new = y + H * _combination(DOP853.B, K)
        f_new = self.fun(y_new, rows)
        K[STAGES] = f_new
        scale = self.atol[rows][None, :, None] + np.maximum(np.abs(y), np.abs(y_new)) * self.rtol
        err5 = _lane_sum((_combination(DOP853.E5, K) / scale) ** 2)
        err3 = _lane_sum((_combination(DOP853.E3, K) / scale) ** 2)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            norm = np.where((err5 == 0) & (err3 == 0), 0.0, h * err5 / np.sqrt((err5 + 0.01 * err3) * self.size))
            norm = np.where(np.isfinite(norm), norm, np.inf)  # an overflowed trial step is rejected, never accepted
            grow = np.where(norm == 0, MAX_FACTOR, np.minimum(MAX_FACTOR, SAFETY * norm**ERROR_EXPONENT))
            shrink = np.maximum(MIN_FACTOR, SAFETY * norm**ERROR_EXPONENT)
        accept = norm < 1
        factor = np.where(accept, np.where(rejected, np.minimum(1.0, grow), grow), shrink)
        return t_new, y_new, f_new, K, accept, h * factor, ~accept

    def _dense(self, times, out, written, rows, t_old, t_new, y_old, y_new, f_new, K) -> None:
        """Write the times inside each accepted step (after ``written[lane]``, up to its end) by SciPy's DOP853
        dense output (three more stages, the 7th-degree interpolant)."""
        inside = (written[rows] < len(times)) & (times[np.minimum(written[rows], len(times) - 1)] <= t_new)
        if not np.any(inside):
            return
        rows, t_old, t_new = rows[inside], t_old[inside], t_new[inside]
        y_old, y_new, f_new, K = y_old[:, inside], y_new[:, inside], f_new[:, inside], K[:, :, inside]
        h = t_new - t_old
        H = h[None, :, None]
        for s, a in enumerate(DOP853.A_EXTRA, start=STAGES + 1):  # autonomous: C_EXTRA is not needed
            K[s] = self.fun(y_old + _combination(a[:s], K) * H, rows)
        delta = y_new - y_old
        F = [delta, H * K[0] - delta, 2 * delta - H * (f_new + K[0]), *(H * _combination(d, K) for d in DOP853.D)]
        # every (lane, time) pair of the step at once: the lane's times after those written, up to its end
        first, last = written[rows], np.searchsorted(times, t_new, side="right")
        lanes = np.repeat(np.arange(len(rows)), last - first)
        index = np.arange(len(lanes)) - np.repeat(np.cumsum(last - first) - (last - first), last - first)
        index += first[lanes]
        x = ((times[index] - t_old[lanes]) / h[lanes])[None, :, None]
        x = x[0, :, :, None]  # (pairs, 1, 1)
        value = np.zeros((len(lanes), y_old.shape[0], y_old.shape[2]))
        for i, term in enumerate(reversed(F)):
            value += term.transpose(1, 0, 2)[lanes]
            value *= x if i % 2 == 0 else 1 - x
        out[rows[lanes], index] = value + y_old.transpose(1, 0, 2)[lanes]
        written[rows] = last


def _combination(coefficients: np.ndarray, K: np.ndarray) -> np.ndarray:
    """``sum_j coefficients[j] K[j]`` term by term in a fixed order (a matrix product's rounding would depend on
    the number of lanes, and a start's steps on its batch); zero coefficients skipped."""
    total = np.zeros(K.shape[1:])
    for c, stage in zip(coefficients, K, strict=False):
        if c != 0:
            total += c * stage
    return total


def _lane_sum(values: np.ndarray) -> np.ndarray:
    """The sum over each lane's components, (states, lanes, p) -> (lanes,), in an order that is the same for every
    number of lanes."""
    total = np.zeros(values.shape[1])
    for state in values:
        for column in state.T:
            total += column
    return total


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
    field: BatchField,
    y0: np.ndarray,
    params: Sequence[Any],
    t: np.ndarray,
    group: int = GROUP,
    work: Work | None = None,
) -> np.ndarray:
    """The flow of ``field`` from ``y0`` (states, batch, p) at times ``t`` (≥ 0, any order): (T, states, batch, p).

    Unit parameters in ``params`` are arrays (batch, p). Each start takes its own steps (:class:`BatchDOP853`);
    the starts are sorted by their initial rate ``‖J f‖ / ‖f‖`` and integrated in groups of at most ``group``,
    so that a group's lanes need similar numbers of steps (few iterations with only a few lanes left). ``work``,
    if given, counts each start's accepted steps and field evaluations (:class:`numerics.work.Work`)."""
    n, batch, width = y0.shape
    with np.errstate(over="ignore", invalid="ignore"):  # a start beyond the float64 range has an infinite scale
        speed, rate = _motion(field, y0, params)
    atol = ATOL_FACTOR * _scales(y0, speed, rate, float(t.max()))
    with np.errstate(divide="ignore", invalid="ignore"):
        order = np.argsort(np.where(speed > 0, rate / speed, 0.0), kind="stable")
    out = np.empty((len(t), n, batch, width))
    # a parameter with a batch axis: a unit or shared one (batch, p or 1), or a matrix one (batch, r, c)
    for chunk in np.array_split(order, -(-batch // group)):
        chunk_params = [v[chunk] if np.ndim(v) >= 2 and len(v) == batch else v for v in params]
        out[:, :, chunk] = _integrate(field, y0[:, chunk], chunk_params, t, atol[chunk], work)
    return out


def _integrate(
    field: BatchField, y0: np.ndarray, params: Sequence[Any], t: np.ndarray, atol: np.ndarray, work: Work | None
) -> np.ndarray:
    """One group: ``BatchDOP853`` on the starts ``y0`` (states, group, p) at the times ``t`` (any order, repeats)."""
    # a start at rest at 0 has scale 0; the smallest normal number keeps its (exactly zero) error finite
    atol = np.maximum(atol, np.finfo(float).tiny)

    def fun(y: np.ndarray, rows: np.ndarray) -> np.ndarray:
        if len(rows) == y0.shape[1]:
            return field(y, params)
        return field(y, [v[rows] if np.ndim(v) >= 2 and len(v) == y0.shape[1] else v for v in params])

    times = np.unique(t)  # evaluated once per distinct time
    # a rejected trial step of a fast (stiff) flow may overflow; the step then shrinks
    with np.errstate(over="ignore", invalid="ignore"):
        solver = BatchDOP853(fun, y0, atol)
        values = solver.solve(times)
    if work is not None:
        for nsteps, nfev in zip(solver.nsteps, solver.nfev, strict=True):
            work.record(int(nsteps), int(nfev))
    return values if np.array_equal(times, t) else values[np.searchsorted(times, t)]
