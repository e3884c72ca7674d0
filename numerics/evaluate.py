"""Evaluate compiled per-unit functions on arrays with units on the last axis (float64 or mpmath)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import mpmath
import numpy as np

from .compiled import CompiledModel, mp_vectorize, to_mpf
from .riccati import riccati_mpmath, riccati_numpy

__all__ = ["apply", "closed_form_state", "quantities", "unit_rhs"]

# A Riccati variable declared positive (the clock gamma) is clipped to the normal float64 range: it only
# reaches 0 or inf in degenerate branches (P0 = 0 or M0 = 0), where the factor it multiplies is exactly zero.
GAMMA_RANGE = (np.finfo(float).tiny, np.finfo(float).max)


def apply(f: Callable[..., object], env: Mapping[str, object], backend: str) -> object:
    """Call a compiled function with the arguments it needs from ``env``."""
    needed = {n: env[n] for n in f.names}  # type: ignore[attr-defined]
    if backend == "numpy":
        with np.errstate(over="ignore"):
            return np.asarray(f(**needed), dtype=float)
    return mp_vectorize(f)(**needed)


def _with_sums(
    summands: Mapping[str, Callable[..., object]], env: Mapping[str, object], backend: str
) -> dict[str, object]:
    """``env`` plus each sum over the unit axis (kept, of length 1), evaluated from its per-unit summand."""
    env = dict(env)
    shape = _shape(env)
    for name, summand in summands.items():
        values = np.broadcast_to(apply(summand, env, backend), shape)
        env[name] = np.sum(np.asarray(values, dtype=float if backend == "numpy" else object), axis=-1, keepdims=True)
    return env


def unit_rhs(cm: CompiledModel, env: Mapping[str, object], backend: str = "numpy") -> dict[str, object]:
    """The derived vector field at the states in ``env`` (arrays (..., p)), one entry per state name."""
    env = _with_sums(cm.sum_summands, env, backend)
    return {name: apply(f, env, backend) for name, f in cm.field.items()}


def quantities(cm: CompiledModel, env: Mapping[str, object], backend: str) -> dict[str, object]:
    """The model's named quantities along a trajectory: unit ones keep the unit axis, sums drop it.

    In float64, a scalar quantity invariant under scaling groups of states (``CompiledModel.scalar_scaling``)
    is evaluated on the states scaled by powers of two to a largest entry in [1/2, 1) per group, so that its sums
    neither underflow nor overflow; its undefined points are the model's documented values (``Piecewise``).
    """
    shape = _shape(env)
    summed = {(): _with_sums(cm.sum_summands, env, backend)}
    out: dict[str, object] = {name: summed[()][name][..., 0] for name in cm.sum_summands}
    for name, f in cm.unit_quantities.items():
        out[name] = np.broadcast_to(apply(f, summed[()], backend), shape)
    for name, f in cm.scalar_quantities.items():
        groups = cm.scalar_scaling.get(name, ()) if backend == "numpy" else ()
        if groups not in summed:
            summed[groups] = _with_sums(cm.sum_summands, _rescaled(env, groups), backend)
        # a Piecewise is evaluated on every branch, including the undefined ones it discards
        with np.errstate(divide="ignore", invalid="ignore"):
            value = apply(f, summed[groups], backend)
        if backend == "mpmath":
            value = to_mpf(value)  # a branch's constant (e.g. 0) is a Python number
        out[name] = np.broadcast_to(value, (*shape[:-1], 1))[..., 0]
    return out


def _rescaled(env: Mapping[str, object], groups: tuple[tuple[str, ...], ...]) -> dict[str, object]:
    """``env`` with each group of states divided by 2^e, e the binary exponent of the group's largest |entry|
    over the units (exact: no rounding; a zero group stays zero)."""
    env = dict(env)
    for group in groups:
        largest = np.max(np.abs(np.concatenate([env[v] for v in group], axis=-1)), axis=-1, keepdims=True)
        exponent = np.frexp(largest)[1]
        for v in group:
            env[v] = np.ldexp(env[v], -exponent)
    return env


def closed_form_state(cm: CompiledModel, env: Mapping[str, object], t: np.ndarray, backend: str) -> dict[str, object]:
    """The closed-form states at times ``t``: arrays (T, batch, p)."""
    env = {k: v[None, ...] if isinstance(v, np.ndarray) else v for k, v in env.items()}
    shape = _shape(env)
    env = _with_sums(cm.cf_sums, env, backend)
    times = t.reshape(-1, 1, 1) if backend == "numpy" else np.asarray(t, dtype=object).reshape(-1, 1, 1)
    env["t"] = times
    for name, coefficient_fns in cm.cf_riccati.items():
        c2, c1, c0, y0 = (apply(f, env, backend) if f.names else _constant(f, backend) for f in coefficient_fns)
        if backend == "numpy":
            values = riccati_numpy(c2, c1, c0, y0, times)
            env[name] = np.clip(values, *GAMMA_RANGE) if name in cm.cf_positive else values
        else:
            env[name] = np.frompyfunc(riccati_mpmath, 5, 1)(c2, c1, c0, y0, times)
    full = (len(t), *shape[1:])
    return {n: np.broadcast_to(apply(f, env, backend), full) for n, f in cm.cf_state.items()}


def _constant(f: Callable[..., object], backend: str) -> object:
    value = f()
    return float(value) if backend == "numpy" else mpmath.mpf(value)


def _shape(env: Mapping[str, object]) -> tuple[int, ...]:
    return np.broadcast_shapes(*(np.shape(v) for v in env.values() if isinstance(v, np.ndarray)))
