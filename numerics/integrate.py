"""Reference integrators of the derived gradient flow: mpmath (Taylor series), SciPy DOP853, and discrete GD.

All integrate the vector field derived by ``derivations`` (never the closed form), so they are independent
checks of it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import mpmath
import numpy as np

from .budget import BudgetError, mpmath_degree, mpmath_step_weight
from .compiled import CompiledModel, batch_field, to_mpf
from .dop853 import integrate_batch
from .evaluate import unit_rhs

__all__ = ["gradient_descent", "integrate_mpmath", "integrate_scipy"]


def _pack(state: Mapping[str, np.ndarray]) -> np.ndarray:
    return np.concatenate([np.asarray(v).ravel() for v in state.values()])


def _unpack(y: Any, names: tuple[str, ...], width: int) -> dict[str, Any]:
    return {n: np.asarray(y[i * width : (i + 1) * width])[None, :] for i, n in enumerate(names)}


def integrate_scipy(
    cm: CompiledModel, state: Mapping[str, np.ndarray], params: Mapping[str, Any], t: np.ndarray
) -> dict[str, np.ndarray]:
    """DOP853 at rtol 1e-13 on the batch as one vectorized system, each start under its own error control
    (:func:`numerics.dop853.integrate_batch`); arrays (T, batch, p)."""
    field = batch_field(cm.model)
    names = cm.model.state_names
    y0 = np.stack([np.asarray(state[n], dtype=float) for n in names])
    values = integrate_batch(field, y0, [params[k] for k in field.param_names], t)
    return {n: values[:, i] for i, n in enumerate(names)}


def integrate_mpmath(
    cm: CompiledModel,
    state: Mapping[str, np.ndarray],
    params: Mapping[str, Any],
    t: np.ndarray,
    dps: int,
    max_steps: int,
) -> dict[str, np.ndarray]:
    """``mpmath.odefun`` (Taylor series) at ``dps`` digits; object arrays of mpf, shape (T, batch, p).

    Each batch element may take at most ``max_steps`` Taylor steps counted at 30 digits (``budget``): every step
    evaluates the field ``mpmath_degree(dps)`` times, so the evaluations are counted and ``BudgetError`` is raised
    beyond the budget.
    """
    names = cm.model.state_names
    batch, width = next(iter(state.values())).shape
    out = {n: np.empty((len(t), batch, width), dtype=object) for n in names}
    allowed = int(max_steps / mpmath_step_weight(dps)) * mpmath_degree(dps)
    with mpmath.workdps(dps):
        for j in range(batch):
            env = {k: (to_mpf(v[j : j + 1]) if isinstance(v, np.ndarray) else mpmath.mpf(v)) for k, v in params.items()}
            calls = iter(range(allowed))

            def rhs(_time: mpmath.mpf, y: list, env: dict = env, calls: Iterator[int] = calls) -> list:
                if next(calls, None) is None:
                    raise BudgetError(
                        f"method='mpmath' took more than max_steps = {max_steps} Taylor steps of mpmath.odefun "
                        f"(counted at 30 digits; one at dps = {dps} counts {mpmath_step_weight(dps):.3g}) before "
                        f"t = {float(t.max()):.4g}; pass a larger max_steps, or use the closed form"
                    )
                return list(
                    _pack(unit_rhs(cm, {**env, **_unpack(np.asarray(y, dtype=object), names, width)}, "mpmath"))
                )

            y0 = list(to_mpf(_pack({n: state[n][j] for n in names})))
            solution = mpmath.odefun(rhs, 0, y0)
            for ti, time in enumerate(t):
                values = solution(mpmath.mpf(float(time)))
                for i, n in enumerate(names):
                    out[n][ti, j, :] = values[i * width : (i + 1) * width]
    return out


def gradient_descent(
    cm: CompiledModel, state: Mapping[str, np.ndarray], params: Mapping[str, Any], steps: np.ndarray, lr: float
) -> dict[str, np.ndarray]:
    """Full-batch GD on the network's own weights, ``w <- w - lr * grad L``: the states after ``steps[i]`` steps
    (``budget.gd_steps`` gives them for times t = steps × lr); ``OverflowError`` naming ``lr`` if they diverge
    beyond the float64 range."""
    current = {n: np.array(v, dtype=float) for n, v in state.items()}
    out = {n: np.empty((len(steps), *v.shape)) for n, v in current.items()}
    done = 0
    for index in np.argsort(steps):
        while done < steps[index]:
            try:
                with np.errstate(over="raise", invalid="raise"):
                    update = unit_rhs(cm, {**params, **current})
                    current = {n: current[n] + lr * update[n] for n in current}
            except FloatingPointError as exc:
                raise OverflowError(
                    f"method='gd' diverged: the state left the float64 range at step {done + 1} with lr = {lr!r} "
                    "(GD is stable only for lr below about 2 / the loss curvature); lower lr"
                ) from exc
            done += 1
        for n in current:
            out[n][index] = current[n]
    return out
