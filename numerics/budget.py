"""Budgets of ``trajectory``'s unbounded computations, checked before the work (like diffrax's ``max_steps``).

- ``dps`` is at most ``max_dps`` (default :data:`MAX_DPS`).
- ``method="gd"`` takes exactly ``t / lr`` steps: every time must be an integer multiple of ``lr`` (relative
  tolerance :data:`GD_TIME_TOLERANCE`) and the largest step count at most ``max_steps``.
- ``method="taylor"`` estimates its steps per start before the work, like DOP853 (``t × rate /``
  :data:`TAYLOR_STEP_RATE`, :func:`check_taylor_budget`), and counts them while it integrates (heyoka's
  ``max_steps``).
- ``method="mpmath"`` and ``method="scipy"`` take a number of steps set by the flow's time scale: it is estimated
  from the rate of the flow at the start (:func:`flow_rate`) times the largest time, and refused beyond
  ``max_steps``; ``method="mpmath"`` also counts its steps while it integrates (``integrate.integrate_mpmath``),
  and its budget is per call: the steps of every start of the batch count against it (they run one by one).
  A Taylor step of ``mpmath.odefun`` at ``dps`` digits counts as :func:`mpmath_step_weight` steps at 30 digits,
  its cost measured to grow as the 3.5th power of the Taylor degree.

Defaults (:data:`MAX_STEPS`): 10⁶ GD steps, 10⁵ DOP853 steps, 10³ Taylor steps of ``mpmath.odefun`` at 30
digits and 10⁶ heyoka steps, each a few minutes of work at most for a small model on one core. The estimates are
rough (within a factor of about 10 on the registered models); they refuse requests that are orders of magnitude
beyond the budget, such as ``t = 1e6`` or an initialization of 1e100 with ``"mpmath"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath
import numpy as np

from .arithmetic import Arithmetic, arithmetic, fp, mp
from .compiled import CompiledModel
from .evaluate import unit_rhs
from .matrix_field import MatrixCompiled

__all__ = [
    "GD_TIME_TOLERANCE",
    "MAX_DPS",
    "MAX_STEPS",
    "TAYLOR_STEP_RATE",
    "BudgetError",
    "check_dop853_budget",
    "check_mpmath_budget",
    "check_taylor_budget",
    "flow_rate",
    "gd_steps",
    "mpmath_degree",
    "mpmath_step_weight",
]

MAX_DPS = 10_000
MAX_STEPS = {"gd": 10**6, "scipy": 10**5, "mpmath": 10**3, "taylor": 10**6}
GD_TIME_TOLERANCE = 1e-9
DOP853_STEP_RATE = 6.0
"""DOP853's steps per unit of t × rate are estimated as 1/6 (its stability bound on the decaying modes, which
dominate long runs); measured on the registered models: 0.05 to 6 times t × rate, the most for short runs."""
TAYLOR_STEP_RATE = 1000.0
"""heyoka's steps per start are estimated as t × rate / 1000: a bound of what is surely beyond the budget rather
than a likely count. Measured on six registered models converging exponentially (t = 10³, 10⁴): 0.03 to 0.35 steps
per unit of t × rate, so such requests are refused at once only some 30 to 300 times beyond the budget (in between,
the count stops them); but a flow that slows down on its way (the deep chain settling like 1/t: 10⁹ × 0.23 in well
under 10⁶ steps) or that reaches its fixed point exactly in float64 (its field then 0: ``two_layer_scalar`` from a
small start to t = 10¹² in 272 steps) needs far fewer, and a tighter estimate (DOP853's 1/6) would refuse them.
Requests such as t = 10¹² on a flow of rate 1 (10⁶ counted steps, 9 to 30 s, before this estimate) are refused at
once."""
_REFERENCE_DEGREE = 48  # mpmath.odefun's Taylor degree at 30 digits


class BudgetError(ValueError):
    """A request beyond its declared budget (``max_steps``); the message says how to raise it."""


def gd_steps(t: np.ndarray, lr: float, max_steps: int) -> np.ndarray:
    """The number of gradient-descent steps ``t / lr`` to each time (``int64``).

    ``BudgetError`` if the largest is beyond ``max_steps``; ``ValueError`` unless every time is an integer
    multiple of ``lr`` within the relative tolerance :data:`GD_TIME_TOLERANCE` (GD has no state between steps).
    """
    with np.errstate(over="ignore"):
        ratio = np.asarray(t, dtype=float) / lr
    largest = float(np.max(ratio))
    if not largest <= max_steps:
        raise BudgetError(
            f"method='gd' needs t/lr = {largest:.4g} steps to reach t = {float(np.max(t)):.4g} with lr = {lr!r}, "
            f"beyond the budget max_steps = {max_steps}; pass a larger max_steps (or a larger lr)"
        )
    steps = np.rint(ratio)
    off = np.abs(ratio - steps) > GD_TIME_TOLERANCE * np.maximum(steps, 1.0)
    if np.any(off):
        bad = float(np.asarray(t, dtype=float)[off][0])
        raise ValueError(
            f"t must be integer multiples of lr for method='gd' (t = steps × lr, relative tolerance "
            f"{GD_TIME_TOLERANCE:g}); t = {bad!r} is {bad / lr:.6g} × lr = {lr!r}"
        )
    return steps.astype(np.int64)


def mpmath_degree(dps: int) -> int:
    """The Taylor degree ``mpmath.odefun`` uses at ``dps`` digits (its default, ``3 + int(1.5 dps)``)."""
    return 3 + int(3 * dps / 2)


def mpmath_step_weight(dps: int) -> float:
    """The cost of one ``mpmath.odefun`` step at ``dps`` digits, in steps at 30 digits: (degree / 48)^3.5."""
    return (mpmath_degree(dps) / _REFERENCE_DEGREE) ** 3.5


def _amax(arrays: Mapping[str, np.ndarray]) -> np.ndarray:
    """The largest |entry| over the state names and units, per batch element (float or mpf objects)."""
    return np.max(np.abs(np.concatenate(list(arrays.values()), axis=-1)), axis=-1)


def flow_rate(
    cm: CompiledModel | MatrixCompiled,
    state: Mapping[str, np.ndarray],
    params: Mapping[str, Any],
    ctx: Arithmetic | str,
) -> np.ndarray:
    """An estimate of the flow's rate at the start (inverse time scale), per batch element: the largest
    ``|J v|_∞ / |v|_∞`` of the field's Jacobian ``J`` over the directions of the state, of the field and of an
    alternating ±1 pattern, by forward differences in the arithmetic ``ctx`` (float64: inf past an overflow)."""
    ctx = arithmetic(ctx)
    state = {k: ctx.numbers(v) for k, v in state.items()}
    params = ctx.env(dict(params))
    with np.errstate(all="ignore"):
        field = unit_rhs(cm, {**params, **state}, ctx)
        scale = _amax(state)
        step = np.where(scale > 1, scale, 1) * 2.0**-20
        pattern = {k: np.ones(v.shape) * (-1.0) ** np.arange(v.shape[-1]) for k, v in state.items()}
        rate = ctx.zeros(len(scale))
        for direction in (state, field, pattern):
            size = _amax(direction)
            unit = np.where(size > 0, size, 1)[:, None]
            shifted = {k: v + step[:, None] * direction[k] / unit for k, v in state.items()}
            moved = unit_rhs(cm, {**params, **shifted}, ctx)
            change = _amax({k: moved[k] - field[k] for k in field}) / step
            rate = np.maximum(rate, np.where(size > 0, change, 0))
        return rate


def check_dop853_budget(
    cm: CompiledModel | MatrixCompiled,
    state: Mapping[str, np.ndarray],
    params: Mapping[str, Any],
    t_max: float,
    max_steps: int,
) -> None:
    """``BudgetError`` if DOP853's estimated steps to ``t_max`` (``t_max × rate / DOP853_STEP_RATE``) exceed
    ``max_steps``; ``OverflowError`` if the flow's rate at the start is beyond float64."""
    if t_max == 0:
        return
    rate = float(np.max(flow_rate(cm, state, params, fp)))
    if not np.isfinite(rate):
        raise OverflowError(
            "method='scipy': the flow's rate at the start is beyond the float64 range for these init and params; "
            "use the closed form (with dps for the mpmath evaluation) or method='mpmath'"
        )
    _refuse("scipy", t_max * rate / DOP853_STEP_RATE, "DOP853 steps", t_max, rate, max_steps)


def check_mpmath_budget(
    cm: CompiledModel | MatrixCompiled,
    state: Mapping[str, np.ndarray],
    params: Mapping[str, Any],
    t_max: float,
    max_steps: int,
    dps: int = 30,
) -> None:
    """``BudgetError`` if the estimated Taylor steps of ``mpmath.odefun`` at ``dps`` digits to ``t_max`` (each
    weighted by :func:`mpmath_step_weight`), summed over the batch of starts (they are integrated one after the
    other), exceed ``max_steps``: the budget is per call, not per start."""
    if t_max == 0:
        return
    with mpmath.workdps(dps):
        rates = flow_rate(cm, state, params, mp)
        degree = mpmath_degree(dps)
        tolerance = mpmath.ldexp(1, -(mpmath.mp.prec + 10))
        # the integrator works in units of each component's own scale (numerics.error_control): a state of size 1
        reach = (tolerance * mpmath.factorial(degree)) ** (mpmath.mpf(1) / degree)
        weight = mpmath_step_weight(dps)
        # mpmath.odefun's step: at most 1/2
        steps = float(sum(t_max / (min(1, reach / rate if rate > 0 else 1) / 2) * weight for rate in rates))
        rate = max(rates)
    batch = len(rates)
    unit = f"Taylor steps of mpmath.odefun (counted at 30 digits; one at dps = {dps} counts {weight:.3g})"
    where = f" over the batch of {batch} starts" if batch > 1 else ""
    _refuse("mpmath", steps, unit + where, t_max, float(rate), max_steps)


def check_taylor_budget(
    cm: CompiledModel,
    state: Mapping[str, np.ndarray],
    params: Mapping[str, Any],
    t_max: float,
    max_steps: int,
    ctx: Arithmetic | str = fp,
) -> None:
    """``BudgetError`` if heyoka's estimated steps to ``t_max`` from the fastest start (``t_max × rate /``
    :data:`TAYLOR_STEP_RATE`, the budget being per start) exceed ``max_steps``; the rate is estimated in the
    arithmetic ``ctx`` (an mpmath one for a start beyond float64). A rate beyond float64 in float64 arithmetic, or
    one that cannot be estimated (NaN), leaves the start to the integrator (which reports the overflow) and to the
    counted budget."""
    if t_max == 0:
        return
    rates = flow_rate(cm, state, params, ctx)
    if not all(mpmath.isfinite(r) for r in rates):
        return
    with mpmath.workdps(30):
        rate = max(rates)
        steps = float(t_max * rate / TAYLOR_STEP_RATE)
    batch = len(rates)
    unit = "heyoka Taylor steps" + (
        f" for the fastest of the batch of {batch} starts (the budget is per start)" if batch > 1 else ""
    )
    _refuse("taylor", steps, unit, t_max, float(rate), max_steps)


def _refuse(method: str, steps: float, unit: str, t_max: float, rate: float, max_steps: int) -> None:
    if steps > max_steps:
        raise BudgetError(
            f"method={method!r} would need about {steps:.3g} {unit} to reach t = {t_max:.4g} (the flow's time scale "
            f"at the start is {1 / rate if rate else float('inf'):.3g}), beyond the budget max_steps = "
            f"{max_steps}; pass a larger max_steps, or use the closed form"
        )
