"""Evaluate compiled per-unit functions on arrays with units on the last axis (float64 or mpmath)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

import numpy as np

from .arithmetic import Arithmetic, arithmetic, fp, real_array
from .compiled import CompiledModel
from .matrix_field import MatrixCompiled

__all__ = ["CHUNK", "apply", "env_shape", "quantities", "real_array", "unit_reduce", "unit_rhs", "unit_sums"]

CHUNK = 1 << 18
"""Values per array in one block of a blocked evaluation: the temporaries of a block stay in the cache."""
SHORT = 7
"""Unit axes up to this length are reduced by ``unit_reduce`` as elementwise passes over the units (numpy sums
shorter runs than 8 in order, longer ones by 8 partial sums)."""
MAX_EXPONENT = 900
"""A scale-invariant quantity is evaluated without rescaling where its states are at most ``2^L`` and its sums
at least ``2^(-d L)`` in magnitude, ``L = MAX_EXPONENT // reach`` (``_within``): every intermediate is then within
2^±900 (the float64 range is 2^-1022 to 2^1024), and a sum's underflowed terms are below 2^-175 of it."""


def unit_reduce(ufunc: np.ufunc, values: Any) -> Any:
    """``ufunc.reduce`` over the unit (last) axis, kept of length 1. A short axis of machine numbers is reduced as
    ``len - 1`` elementwise passes over strided slices, in the same order as numpy's own reduction there (which
    runs one inner loop per output element over the short axis: 5–10× slower)."""
    values = np.asarray(values)
    width = values.shape[-1] if values.ndim else 0
    if not 2 <= width <= SHORT or values.dtype.kind not in "fc":
        return ufunc.reduce(values, axis=-1, keepdims=True)
    out = ufunc(values[..., 0:1], values[..., 1:2])
    for i in range(2, width):
        ufunc(out, values[..., i : i + 1], out=out)
    return out


def apply(f: Callable[..., object], env: Mapping[str, Any], ctx: Arithmetic | str) -> Any:
    """Call a compiled function of the arithmetic ``ctx`` with the arguments it needs from ``env``."""
    needed = {n: env[n] for n in f.names}  # type: ignore[attr-defined]  # a Lambdified (or alike) has names
    return arithmetic(ctx).call(f, needed)


def unit_sums(
    summands: Mapping[str, Callable[..., object]], env: Mapping[str, Any], ctx: Arithmetic | str
) -> dict[str, Any]:
    """``env`` plus each sum over the unit axis (kept, of length 1), evaluated from its per-unit summand (a sum
    already in ``env``, e.g. from a closed form along its clock, is kept)."""
    env = dict(env)
    shape = env_shape(env)
    ctx = arithmetic(ctx)
    for name, summand in summands.items():
        if name in env:
            continue
        if ctx.machine and len(shape) >= 2 and np.prod(shape) > CHUNK:
            env[name] = _blocked_sum(summand, env, shape, ctx)
            continue
        values = ctx.array(np.broadcast_to(apply(summand, env, ctx), shape))
        env[name] = unit_reduce(np.add, values)
    return env


def _blocked_sum(
    summand: Callable[..., object], env: Mapping[str, Any], shape: tuple[int, ...], ctx: Arithmetic
) -> Any:
    """The sum over the units of ``summand`` in blocks of about ``CHUNK`` values along the leading axis, into one
    preallocated array: the summand's values never exist at full size (a fresh array of that size costs its page
    faults, several times the arithmetic)."""
    arguments = {n: env[n] for n in summand.names}  # type: ignore[attr-defined]  # a Lambdified has names
    step = max(1, CHUNK // max(1, int(np.prod(shape[1:]))))
    out = None
    for start in range(0, shape[0], step):
        rows = slice(start, start + step)
        block = _leading(arguments, rows, shape)
        values = np.broadcast_to(apply(summand, block, ctx), (len(range(*rows.indices(shape[0]))), *shape[1:]))
        value = unit_reduce(np.add, ctx.array(values))
        if out is None:
            out = np.empty((*shape[:-1], 1), dtype=value.dtype)
        out[rows] = value
    return out


def _leading(arguments: Mapping[str, Any], rows: slice, shape: tuple[int, ...]) -> dict[str, Any]:
    """``arguments`` at the indices ``rows`` of the leading axis, where they have the full leading axis of
    ``shape``."""
    return {
        n: (v[rows] if isinstance(v, np.ndarray) and v.ndim == len(shape) and v.shape[0] == shape[0] else v)
        for n, v in arguments.items()
    }


def unit_rhs(cm: CompiledModel | MatrixCompiled, env: Mapping[str, Any], ctx: Arithmetic | str = fp) -> dict[str, Any]:
    """The derived vector field at the states in ``env`` (arrays (..., p)), one entry per state name (as matrix
    products for a model with a matrix field, ``numerics.matrix_field``)."""
    if isinstance(cm, MatrixCompiled):
        return cm.rhs(env)
    env = unit_sums(cm.sum_summands, env, ctx)
    return {name: apply(f, env, ctx) for name, f in cm.field.items()}


def quantities(
    cm: CompiledModel, env: Mapping[str, Any], ctx: Arithmetic | str, names: Collection[str] | None = None
) -> dict[str, Any]:
    """The model's named quantities along a trajectory (those in ``names``, all if None): unit ones keep the unit
    axis, sums drop it.

    In float64, a scalar quantity invariant under scaling groups of states (``CompiledModel.scalar_scaling``)
    is evaluated on the states scaled by powers of two to a largest entry in [1/2, 1) per group, and on the sums
    of those, so that its sums neither underflow nor overflow; at its undefined points it takes the model's
    documented values (``Piecewise``).
    """
    ctx = arithmetic(ctx)
    shape = env_shape(env)
    summed: dict[tuple[tuple[str, ...], ...], dict[str, Any]] = {(): unit_sums(cm.sum_summands, env, ctx)}
    bounded: dict[tuple[str, float], bool] = {}  # the cheap bound of each state, shared between quantities
    plain: dict[str, Any] | None = None  # the sums from the unscaled states (not from a closed form's clock)
    out: dict[str, Any] = {name: summed[()][name][..., 0] for name in cm.sum_summands}
    if names is not None:
        out = {name: value for name, value in out.items() if name in names}
    for name, f in _chosen(cm.unit_quantities, names).items():
        out[name] = np.broadcast_to(_blocked(f, summed[()], ctx), shape)
    for name, f in _chosen(cm.scalar_quantities, names).items():
        # only a bounded exponent range needs the rescaling: within it, the plain sums are shared
        groups = cm.scalar_scaling.get(name, ()) if ctx.machine else ()
        if groups and name in cm.scaling_reach:
            if plain is None:  # only the sums given in env (a closed form's, along its clock) summed again
                given = {n: f for n, f in cm.sum_summands.items() if n in env}
                unsummed = {k: v for k, v in env.items() if k not in given}
                plain = {**summed[()], **{n: unit_sums({n: f}, unsummed, ctx)[n] for n, f in given.items()}}
            if _within(cm, name, env, plain, groups, bounded):
                summed[groups] = plain
        if groups not in summed:
            scaled = {k: v for k, v in _rescaled(env, groups).items() if k not in cm.sum_summands}
            summed[groups] = unit_sums(cm.sum_summands, scaled, ctx)
        # a Piecewise is evaluated on every branch, including the undefined ones it discards
        with np.errstate(divide="ignore", invalid="ignore"):
            # numbers of the arithmetic: a branch's constant (e.g. 0) is a Python number
            value = ctx.numbers(_blocked(f, summed[groups], ctx))
        out[name] = np.broadcast_to(value, (*shape[:-1], 1))[..., 0]
    return out


def _chosen(
    functions: Mapping[str, Callable[..., object]], names: Collection[str] | None
) -> dict[str, Callable[..., object]]:
    return dict(functions) if names is None else {n: f for n, f in functions.items() if n in names}


def _blocked(f: Callable[..., object], env: Mapping[str, Any], ctx: Arithmetic) -> Any:
    """``apply(f, env, ctx)``, for machine numbers in blocks of the leading (time) axis of ``CHUNK`` values,
    written into one preallocated array: the temporaries of the generated code stay in the cache."""
    arguments = {n: env[n] for n in f.names}  # type: ignore[attr-defined]  # a Lambdified has names
    shape = env_shape(arguments) if any(isinstance(v, np.ndarray) for v in arguments.values()) else ()
    size = int(np.prod(shape[1:]))
    if not ctx.machine or len(shape) < 2 or shape[0] * size <= CHUNK:
        return apply(f, arguments, ctx)
    step = max(1, CHUNK // max(1, size))
    out = None
    for start in range(0, shape[0], step):
        rows = slice(start, start + step)
        value = apply(f, _leading(arguments, rows, shape), ctx)
        if out is None:
            out = np.empty(shape, dtype=value.dtype)
        out[rows] = value
    return out


def _within(
    cm: CompiledModel,
    name: str,
    env: Mapping[str, Any],
    plain: Mapping[str, Any],
    groups: tuple[tuple[str, ...], ...],
    bounded: dict[tuple[str, float], bool],
) -> bool:
    """Whether the scale-invariant quantity ``name`` needs no rescaling (``MAX_EXPONENT``): with
    ``L = MAX_EXPONENT // reach``, every entry of its groups' states is at most ``2^L`` in magnitude (global
    extremes, memoized in ``bounded``) and every sum it reads, in ``plain`` (from the unscaled states), is at least
    ``2^(-d L)`` in magnitude at every time and start, ``d`` the sum's degree in the states (a zero sum is
    rescaled: it may have underflowed). Then no term or intermediate overflows, each sum's underflowed terms
    change it by less than ``p 2^-175`` relative, and every intermediate of the quantity stays normal."""
    reach = cm.scaling_reach.get(name)
    sums = [n for n in cm.scalar_quantities[name].names if n in cm.sum_summands]  # type: ignore[attr-defined]
    if reach is None or any(n not in cm.sum_degrees for n in sums):
        return False
    exponent = MAX_EXPONENT // reach
    limit = 2.0**exponent
    if not all(_bounded(env, v, limit, bounded) for group in groups for v in group):
        return False
    with np.errstate(invalid="ignore"):
        return all(bool(np.all(np.abs(plain[n]) >= 2.0 ** (-cm.sum_degrees[n] * exponent))) for n in sums)


def _bounded(env: Mapping[str, Any], name: str, limit: float, bounded: dict[tuple[str, float], bool]) -> bool:
    """Whether every entry of the state ``name`` is at most ``limit`` in magnitude (False if one is NaN or the
    state is not float): two global reductions, memoized in ``bounded``."""
    if (name, limit) not in bounded:
        v = np.asarray(env[name])
        bounded[name, limit] = v.dtype.kind == "f" and (v.size == 0 or bool(v.max() <= limit and -v.min() <= limit))
    return bounded[name, limit]


def _largest(env: Mapping[str, Any], group: tuple[str, ...]) -> Any:
    """The largest |entry| of the states ``group`` over the units (kept, of length 1), NaN if any is NaN."""
    # from each state's extremes: two reductions, no temporary of the states' size
    extremes = [unit_reduce(np.maximum, env[v]) for v in group]
    extremes += [-unit_reduce(np.minimum, env[v]) for v in group]
    return np.maximum.reduce(np.broadcast_arrays(*extremes))


def _rescaled(env: Mapping[str, Any], groups: tuple[tuple[str, ...], ...]) -> dict[str, Any]:
    """``env`` with each group of states divided by 2^e, e the binary exponent of the group's largest |entry|
    over the units (exact: no rounding; a zero group stays zero)."""
    env = dict(env)
    for group in groups:
        exponent = np.frexp(_largest(env, group))[1]
        for v in group:
            env[v] = np.ldexp(env[v], -exponent)
    return env


def env_shape(env: Mapping[str, Any]) -> tuple[int, ...]:
    """The broadcast shape of the arrays among ``env``'s values."""
    return np.broadcast_shapes(*(np.shape(v) for v in env.values() if isinstance(v, np.ndarray)))
