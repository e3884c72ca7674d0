"""Budgets of ``trajectory``'s unbounded computations, checked before the work (like diffrax's ``max_steps``).

- ``dps`` is at most ``max_dps`` (default :data:`MAX_DPS`).
- ``method="gd"`` takes exactly ``t / lr`` steps: every time must be an integer multiple of ``lr`` (relative
  tolerance :data:`GD_TIME_TOLERANCE`) and the largest step count at most ``max_steps``.
- ``method="taylor"`` estimates its steps per start before the work (:func:`check_taylor_budget`): at once from
  the flow's rate (``t × rate /`` :data:`TAYLOR_STEP_RATE`, for what is surely beyond the budget), then from a
  sample integration of :data:`TAYLOR_SAMPLE_STEPS` steps extrapolated to ``t`` (:func:`taylor_projection`);
  and it counts them while it integrates (heyoka's ``max_steps``).
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

import math
from collections.abc import Callable, Mapping, Sequence
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
    "TAYLOR_MARGIN",
    "TAYLOR_SAMPLE_STEPS",
    "TAYLOR_STEP_RATE",
    "BudgetError",
    "check_dop853_budget",
    "check_mpmath_budget",
    "check_taylor_budget",
    "flow_rate",
    "gd_steps",
    "mpmath_degree",
    "mpmath_step_weight",
    "taylor_projection",
]

MAX_DPS = 10_000
MAX_STEPS = {"gd": 10**6, "scipy": 10**5, "mpmath": 10**3, "taylor": 10**6}
GD_TIME_TOLERANCE = 1e-9
DOP853_STEP_RATE = 6.0
"""DOP853's steps per unit of t × rate are estimated as 1/6 (its stability bound on the decaying modes, which
dominate long runs); measured on the registered models: 0.05 to 6 times t × rate, the most for short runs."""
TAYLOR_SAMPLE_STEPS = 1024
"""The heyoka steps of :func:`check_taylor_budget`'s sample integration (four resumptions of
``numerics.taylor.RELOAD_STEPS``): some 10 to 60 ms in float64 on the registered models."""
TAYLOR_MARGIN = 2.0
""":func:`check_taylor_budget` refuses a projection beyond ``TAYLOR_MARGIN × max_steps`` (up to there the count
decides). Measured on 66 samples of eight registered models that stopped short of t (t = 3e3 and 1e5, starts of
scale 0.1 and 1): the projection was 0.22 to 1.0 times the steps counted, never above them; the margin covers
a flow that slows down after its sample more than the sample's trend says."""
TAYLOR_STEP_RATE = 1000.0
"""heyoka's steps per start are estimated as t × rate / 1000: a bound of what is surely beyond the budget rather
than a likely count (stage 1 of :func:`check_taylor_budget`; the sample of stage 2 refuses the rest). Measured on
six registered models converging exponentially (t = 10³, 10⁴): 0.03 to 0.35 steps
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
    sample: Callable[[int, int], Sequence[tuple[float, int]]] | None = None,
) -> None:
    """Refuse a ``method="taylor"`` request whose heyoka steps to ``t_max`` from its fastest start (the budget is
    per start) are estimated beyond ``max_steps``, in two stages.

    1. At once, from the flow's rate at the starts (in the arithmetic ``ctx``; an mpmath one for a start beyond
       float64): ``t_max × rate /`` :data:`TAYLOR_STEP_RATE`, a bound of what is surely beyond the budget (it needs
       no compiled integrator).
    2. From a sample integration of the fastest start: ``sample(j, steps)`` integrates start ``j`` for at most
       ``steps`` heyoka steps (:data:`TAYLOR_SAMPLE_STEPS`, at most ``max_steps``) and gives its progress (time
       reached, steps so far), e.g. ``numerics.taylor.sample_progress``; :func:`taylor_projection` extrapolates it
       to ``t_max``. Refused if the sample stops at ``max_steps`` short of ``t_max``, or if the projection exceeds
       ``max_steps`` by more than the margin :data:`TAYLOR_MARGIN`.

    A rate beyond float64 in float64 arithmetic, or one that cannot be estimated (NaN), leaves the start to the
    integrator (which reports the overflow) and to the counted budget, which stays the backstop of both stages.

    Arguments:
        cm: the model compiled in ``ctx``, for the rate.
        state, params: the starts (arrays (batch, p)) and the parameters, as ``trajectory`` validated them.
        t_max: the largest time (>= 0).
        max_steps: the step budget per start.
        ctx: the arithmetic of the rate.
        sample: the sample integration (None: stage 1 only).

    Raises:
        BudgetError: (a ``ValueError``) naming ``max_steps`` and how to raise it, if refused.
        OverflowError: from the sample, if the state leaves the integrator's range."""
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
    if sample is None:
        return
    fastest = max(range(batch), key=lambda j: rates[j])
    trace = sample(fastest, min(TAYLOR_SAMPLE_STEPS, max_steps))
    reached, taken = trace[-1] if trace else (0.0, 0)
    if reached >= t_max:
        return
    sampled = f"a sample integration of {taken} steps reached t = {reached:.4g}"
    if taken >= max_steps:
        raise BudgetError(
            f"method='taylor' needs more than max_steps = {max_steps} {unit} to reach t = {t_max:.4g} ({sampled}); "
            "pass a larger max_steps, or use the closed form"
        )
    projected = taylor_projection(trace, t_max)
    if projected > TAYLOR_MARGIN * max_steps:
        raise BudgetError(
            f"method='taylor' would need about {projected:.3g} {unit} to reach t = {t_max:.4g} (projected from "
            f"{sampled}), beyond the budget max_steps = {max_steps}; pass a larger max_steps, or use the closed form"
        )


def taylor_projection(trace: Sequence[tuple[float, int]], t_max: float) -> float:
    """The heyoka steps to ``t_max`` projected from a sample integration's progress ``trace`` ((time reached,
    steps so far), increasing, from time 0 and 0 steps; its last point short of ``t_max``).

    The steps so far are fitted, through the sample's end ``(t_b, n_b)``, the point half its steps in
    ``(t_a, n_a)`` and the point a quarter in ``(t_c, n_c)``, by ``n(t) = n_b + C (t^β - t_b^β) / β`` (the rate of
    steps falling as a power of the time, ``t^-(1 - β)``; ``β → 0`` is the log), and extrapolated to ``t_max``.
    ``β = 1`` (a constant rate of steps) is a flow converging exponentially, heyoka's steps then keeping their
    length, set by the linearised flow; ``β = 0`` one settling like ``1/t`` (the deep chain: a fixed number of steps
    per doubling of t). ``β`` is at most 1 (a flow speeding up is projected at the last half's rate) and at least
    :data:`_LEAST_POWER`; a flow that reaches its fixed point exactly in float64 stops stepping, which the sample
    sees only when it happens within it.

    Arguments:
        trace: the sample's progress, at least one point.
        t_max: the time to reach (beyond the last point's).

    Returns:
        The projected steps (inf for a sample that did not move)."""
    points = [(0.0, 0), *trace]
    t_b, n_b = points[-1]

    def back_to(steps: float) -> tuple[float, int]:  # the last point at most ``steps`` steps in
        return [(t, n) for t, n in points if n <= steps][-1]

    t_a, n_a = back_to(n_b / 2)
    t_c, n_c = back_to(n_b / 4)
    if not t_b > t_a:
        return float("inf")
    power = 1.0
    if t_a > t_c and n_a > n_c:
        # the fitted power: the ratio of the two windows' steps, increasing in beta
        def ratio(beta: float) -> float:
            return -_power(t_a / t_b, beta) / (_power(t_a / t_b, beta) - _power(t_c / t_b, beta))

        observed = (n_b - n_a) / (n_a - n_c)
        low, high = _LEAST_POWER, 1.0
        if observed < ratio(high):
            for _ in range(60):
                middle = (low + high) / 2
                low, high = (middle, high) if ratio(middle) < observed else (low, middle)
            power = low
    return n_b + (n_b - n_a) * _power(t_max / t_b, power) / -_power(t_a / t_b, power)


_LEAST_POWER = -4.0
"""The least power ``β`` of :func:`taylor_projection` (a rate of steps falling like ``t^-5``)."""


def _power(x: float, beta: float) -> float:
    """``(x^β - 1) / β`` (``ln x`` at ``β = 0``), for ``x >= 0``: -inf at ``x = 0`` for ``β <= 0``."""
    if x == 0:
        return -1 / beta if beta > 0 else float("-inf")
    if abs(beta) < 1e-12:
        return math.log(x)
    try:
        return (x**beta - 1) / beta
    except OverflowError:
        return float("inf") if beta > 0 else float("-inf")


def _refuse(method: str, steps: float, unit: str, t_max: float, rate: float, max_steps: int) -> None:
    if steps > max_steps:
        raise BudgetError(
            f"method={method!r} would need about {steps:.3g} {unit} to reach t = {t_max:.4g} (the flow's time scale "
            f"at the start is {1 / rate if rate else float('inf'):.3g}), beyond the budget max_steps = "
            f"{max_steps}; pass a larger max_steps, or use the closed form"
        )
