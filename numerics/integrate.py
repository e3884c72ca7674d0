"""Reference integrators of the derived gradient flow: mpmath (Taylor series), SciPy DOP853, and discrete GD.

All integrate the vector field derived by ``derivations`` (never the closed form), so they are independent
checks of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import mpmath
import numpy as np
from mpmath.calculus.odes import ode_taylor

from .budget import BudgetError, mpmath_degree, mpmath_step_weight
from .compiled import CompiledModel, batch_field, to_mpf
from .dop853 import integrate_batch
from .error_control import Scales, exponent, initial_exponents
from .evaluate import unit_rhs
from .matrix_field import MatrixCompiled, matrix_descent, parameter_matrices
from .matrix_field import batch_field as matrix_batch_field
from .work import Work

__all__ = [
    "first_time_unit",
    "gradient_descent",
    "integrate_mpmath",
    "integrate_scipy",
    "next_time_unit",
    "odefun_scaled",
]


def _pack(state: Mapping[str, np.ndarray]) -> np.ndarray:
    return np.concatenate([np.asarray(v).ravel() for v in state.values()])


def _unpack(y: Any, names: tuple[str, ...], width: int) -> dict[str, Any]:
    return {n: np.asarray(y[i * width : (i + 1) * width])[None, :] for i, n in enumerate(names)}


def integrate_scipy(
    cm: CompiledModel | MatrixCompiled,
    state: Mapping[str, np.ndarray],
    params: Mapping[str, Any],
    t: np.ndarray,
    work: Work | None = None,
) -> dict[str, np.ndarray]:
    """DOP853 at rtol 1e-13 on the batch as one vectorized system, each start under its own error control
    (:func:`numerics.dop853.integrate_batch`), the field as matrix products for a model with a matrix field;
    arrays (T, batch, p). ``work``, if given, counts the steps and field evaluations (:class:`numerics.work.Work`)."""
    names = cm.model.state_names
    y0 = np.stack([np.asarray(state[n], dtype=float) for n in names])
    if isinstance(cm, MatrixCompiled):
        values = integrate_batch(matrix_batch_field(cm), y0, parameter_matrices(cm, params), t, work=work)
        return {n: values[:, i] for i, n in enumerate(names)}
    field = batch_field(cm.model)
    values = integrate_batch(field, y0, [params[k] for k in field.param_names], t, work=work)
    return {n: values[:, i] for i, n in enumerate(names)}


def integrate_mpmath(
    cm: CompiledModel | MatrixCompiled,
    state: Mapping[str, np.ndarray],
    params: Mapping[str, Any],
    t: np.ndarray,
    dps: int,
    max_steps: int,
    work: Work | None = None,
) -> dict[str, np.ndarray]:
    """``mpmath.odefun``'s Taylor method at ``dps`` digits, each component in units of its own scale
    (:func:`odefun_scaled`); object arrays of mpf, shape (T, batch, p). ``work``, if given, counts each start's
    Taylor steps and field evaluations (:class:`numerics.work.Work`).

    The whole batch may take at most ``max_steps`` Taylor steps counted at 30 digits (the budget is per call, the
    starts run one after the other): every step evaluates the field ``mpmath_degree(dps)`` times, so the
    evaluations are counted over the batch and ``BudgetError`` is raised beyond the budget.
    """
    names = cm.model.state_names
    batch, width = next(iter(state.values())).shape
    out = {n: np.empty((len(t), batch, width), dtype=object) for n in names}
    allowed = int(max_steps / mpmath_step_weight(dps)) * mpmath_degree(dps)
    budget = iter(range(allowed))  # shared by the starts: one budget per call
    where = f" over the batch of {batch} starts" if batch > 1 else ""
    with mpmath.workdps(dps):
        for j in range(batch):
            env = {k: (to_mpf(v[j : j + 1]) if isinstance(v, np.ndarray) else mpmath.mpf(v)) for k, v in params.items()}
            if isinstance(cm, MatrixCompiled):  # the parameter matrices assembled once, not at every evaluation
                env.update(zip(cm.param_matrices, parameter_matrices(cm, env), strict=True))
            calls = [0]  # the field evaluations of this start

            def field(y: list, env: dict = env, calls: list[int] = calls) -> list:
                calls[0] += 1
                if next(budget, None) is None:
                    raise BudgetError(
                        f"method='mpmath' took more than max_steps = {max_steps} Taylor steps of mpmath.odefun "
                        f"(counted at 30 digits; one at dps = {dps} counts {mpmath_step_weight(dps):.3g}){where} "
                        f"before t = {float(t.max()):.4g}; pass a larger max_steps, or use the closed form"
                    )
                return list(
                    _pack(unit_rhs(cm, {**env, **_unpack(np.asarray(y, dtype=object), names, width)}, "mpmath"))
                )

            y0 = list(to_mpf(_pack({n: state[n][j] for n in names})))
            steps: list[int] = []
            values = odefun_scaled(field, y0, width, [mpmath.mpf(float(time)) for time in t], steps_taken=steps)
            if work is not None:
                work.record(steps[0], calls[0])
            for ti, row in enumerate(values):
                for i, n in enumerate(names):
                    out[n][ti, j, :] = row[i * width : (i + 1) * width]
    return out


def odefun_scaled(
    field: Callable[[list], list],
    y0: list,
    width: int,
    times: list,
    degree: int | None = None,
    steps_taken: list[int] | None = None,
) -> list[list]:
    """The solution of ``y' = field(y)`` from ``y0`` at ``times`` (≥ 0) at the working precision: the Taylor
    method of ``mpmath.odefun`` (its step ``mpmath.calculus.odes.ode_taylor``, with odefun's degree, tolerance
    and working precision), on the state in units of per-component scales (``numerics.error_control``).

    odefun's step radius ``(tol / |c_n|)^(1/n)`` is absolute in the state: a start of 1e-66 would take steps of 1/2
    whatever its rate, and its digits would be lost. In scaled units (rescaled after every step) the local error of
    component i is at most about ``tol * (|y_i| + 2^-prec M_i)``, ``M_i`` the largest |y| its unit has reached so
    far, ``tol`` odefun's ``2^-(prec + 10)`` (``error_control.Scales``). ``width`` is the number of units
    (component ``k`` is in unit ``k % width``); ``degree`` defaults to odefun's ``3 + int(1.5 dps)``. If
    ``steps_taken`` is given, the number of Taylor steps (``ode_taylor`` calls, a trial step included) is appended
    to it."""
    ctx = mpmath.mp
    taken = 0
    tol_prec = ctx.prec + 10
    degree = degree or mpmath_degree(ctx.dps)
    # odefun computes its series (after the first) and evaluates them at 40 more bits: the series' finite
    # differences of Euler steps need about degree * tol_prec bits, which ode_taylor's (1 + degree) * prec lacks
    # at the working precision (its last coefficient, and so the step radius, would be rounding noise)
    workprec = ctx.prec + 40
    exponents: list[int] = [0] * len(y0)
    unit = [0]  # the time unit 2^unit[0] of the next step

    def scaled(_x: object, u: list) -> list:
        y = [mpmath.ldexp(v, e) for v, e in zip(u, exponents, strict=True)]
        return [mpmath.ldexp(v, unit[0] - e) for v, e in zip(field(y), exponents, strict=True)]

    def series_at(series: list, x: object) -> list:
        return [ctx.polyval(coefficients[::-1], x) for coefficients in series]

    order = sorted(range(len(times)), key=lambda i: times[i])
    values: dict[int, list] = {i: list(y0) for i in order if times[i] == 0}
    pending = [i for i in order if times[i] > 0]
    with mpmath.workprec(workprec):
        start = initial_exponents(y0, width)
        if start is None and pending:  # a start at zero: the scales of the state one trial step reaches
            series, end = ode_taylor(ctx, scaled, ctx.zero, y0, tol_prec, degree)
            taken += 1
            start = initial_exponents(series_at(series, end), width)
        scales = Scales(start or [0] * len(y0), y0, width, tol_prec - 10, (-(2**60), 2**60))
        exponents[:] = [int(e) for e in scales.exponents]
        x, u = ctx.zero, [mpmath.ldexp(v, -e) for v, e in zip(y0, exponents, strict=True)]
        # time in units of the flow's time scale too: ode_taylor's series are finite differences of Euler steps
        # of length tol (in its time), accurate only to tol times the rate (a start of 1e10, rate 1e20: 1e-14)
        unit[0] = first_time_unit(max((abs(v) for v in scaled(x, u)), default=ctx.zero))
        while pending:
            series, reach = ode_taylor(ctx, scaled, ctx.zero, u, tol_prec, degree)
            taken += 1
            end = x + mpmath.ldexp(reach, unit[0])
            while pending and times[pending[0]] <= end:
                i = pending.pop(0)
                row = series_at(series, mpmath.ldexp(times[i] - x, -unit[0]))
                values[i] = [mpmath.ldexp(v, e) for v, e in zip(row, exponents, strict=True)]
            x, u = end, series_at(series, reach)
            shifts = scales.update(u)  # after every step: the next one in units of the values reached
            u = [mpmath.ldexp(v, -int(d)) for v, d in zip(u, shifts, strict=True)]
            exponents[:] = [int(e) for e in scales.exponents]
            unit[0] = next_time_unit(unit[0], reach)
    if steps_taken is not None:
        steps_taken.append(taken)
    # rounded to the working precision, as odefun returns them
    values = {i: [+v for v in row] for i, row in values.items()}
    return [values[i] for i in range(len(times))]


def first_time_unit(rate: Any) -> int:
    """The exponent of the first step's time unit: the inverse of the start's largest rate in scaled units (0
    where it is 0 or not finite)."""
    return -exponent(rate) if rate > 0 and mpmath.isfinite(rate) else 0


def next_time_unit(unit: int, reach: Any) -> int:
    """The next step's time-unit exponent after a step of ``reach`` (in the units of ``unit``): odefun's radius is
    at most 1/2, and where it was the unit doubles; else it follows the radius (the next step about 1/2 again)."""
    return unit + 1 if reach >= mpmath.mpf(1) / 2 else unit + exponent(reach) + 1


def gradient_descent(
    cm: CompiledModel | MatrixCompiled,
    state: Mapping[str, np.ndarray],
    params: Mapping[str, Any],
    steps: np.ndarray,
    lr: float,
) -> dict[str, np.ndarray]:
    """Full-batch GD on the network's own weights, ``w <- w - lr * grad L``: the states after ``steps[i]`` steps
    (``budget.gd_steps`` gives them for times t = steps × lr), on the matrices for a model with a matrix field
    (:func:`numerics.matrix_field.matrix_descent`); ``OverflowError`` naming ``lr`` if they diverge beyond the
    float64 range."""
    if isinstance(cm, MatrixCompiled):
        return matrix_descent(cm, state, params, steps, lr)
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
