"""Evaluate compiled per-unit functions on arrays with units on the last axis (float64 or mpmath)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from .compiled import CompiledModel, mp_vectorize

__all__ = ["apply", "quantities", "unit_rhs", "unit_sums"]


def apply(f: Callable[..., object], env: Mapping[str, object], backend: str) -> object:
    """Call a compiled function with the arguments it needs from ``env``."""
    needed = {n: env[n] for n in f.names}  # type: ignore[attr-defined]
    if backend == "numpy":
        with np.errstate(over="ignore"):
            return np.asarray(f(**needed), dtype=float)
    return mp_vectorize(f)(**needed)


def unit_sums(
    summands: Mapping[str, Callable[..., object]], env: Mapping[str, object], backend: str
) -> dict[str, object]:
    """``env`` plus each sum over the unit axis (kept, of length 1), evaluated from its per-unit summand (a sum
    already in ``env``, e.g. from a closed form along its clock, is kept)."""
    env = dict(env)
    shape = _shape(env)
    for name, summand in summands.items():
        if name in env:
            continue
        values = np.broadcast_to(apply(summand, env, backend), shape)
        env[name] = np.sum(np.asarray(values, dtype=float if backend == "numpy" else object), axis=-1, keepdims=True)
    return env


def unit_rhs(cm: CompiledModel, env: Mapping[str, object], backend: str = "numpy") -> dict[str, object]:
    """The derived vector field at the states in ``env`` (arrays (..., p)), one entry per state name."""
    env = unit_sums(cm.sum_summands, env, backend)
    return {name: apply(f, env, backend) for name, f in cm.field.items()}


def quantities(cm: CompiledModel, env: Mapping[str, object], backend: str) -> dict[str, object]:
    """The model's named quantities along a trajectory: unit ones keep the unit axis, sums drop it."""
    shape = _shape(env)
    env = unit_sums(cm.sum_summands, env, backend)
    out: dict[str, object] = {name: env[name][..., 0] for name in cm.sum_summands}
    for name, f in cm.unit_quantities.items():
        out[name] = np.broadcast_to(apply(f, env, backend), shape)
    for name, f in cm.scalar_quantities.items():
        out[name] = np.broadcast_to(apply(f, env, backend), (*shape[:-1], 1))[..., 0]
    return out


def _shape(env: Mapping[str, object]) -> tuple[int, ...]:
    return np.broadcast_shapes(*(np.shape(v) for v in env.values() if isinstance(v, np.ndarray)))
