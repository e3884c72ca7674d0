r"""``method="taylor"``: heyoka's adaptive Taylor integrator (Biscani & Izzo 2021, MNRAS 504, 2614) on the derived
flow, in float64, long double or MPFR precision; an optional dependency (``pip install '.[taylor]'``).

The ODE is compiled from the model's derived unit field (``Model.unit_field``) by ``heyoka.from_sympy``: each
unit's components in its own variables, the sums over units as heyoka sums, and every parameter a runtime
``heyoka.par``, so that one compiled integrator serves every start and parameter value of a width. Precision by
``dps``: float64 without it (or up to 15 digits), the platform's long double up to its digits (18 on x86-64),
MPFR above, at :func:`bits` of precision; the tolerance is heyoka's default, the type's machine epsilon.

Error control: heyoka's is absolute for a state of norm below 1 (``eps * max(1, |y|)``), so the state is
integrated in units of per-component scales (powers of two, heyoka parameters), moved whenever a component's
scaled value leaves [1/4, 2]: the local error of component i is at most about ``eps * (|y_i| + eps M_i)``,
``M_i`` the largest |y| its unit has reached so far (``numerics.error_control`` gives the convention, and the
scale of a component that starts at 0). The starts are integrated one at a time (a rescaling stops the
integration of its start only).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import math
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from .budget import BudgetError
from .compiled import batch_field, to_mpf
from .error_control import Scales, exponent, initial_exponents
from .work import Work

if TYPE_CHECKING:
    import sympy as sp

    from derivations.model import Model

__all__ = ["GUARD_BITS", "MAX_STEPS", "available", "bits", "integrate_taylor", "precision"]

# MPFR precision beyond the requested digits: the global error of many steps exceeds one step's tolerance
GUARD_BITS = 16
# steps per start before the integration stops with an error (raise it here for very long horizons)
MAX_STEPS = 1_000_000
# the longest step, in time units (the inverse of the flow's largest rate in scaled units, see _propagate)
STEP_CAP = 2.0
# steps after which the scales and the time unit are chosen anew even if no component left its window (a flow
# settling onto a fixed point slows down: its time unit must grow with it, else the capped steps stay short)
RELOAD_STEPS = 256
# grid points handed to heyoka at a time (each is converted to the current time unit)
GRID_CHUNK = 64
LONG_DOUBLE_DIGITS = int(np.finfo(np.longdouble).precision)


def available() -> bool:
    """True if heyoka can be imported, i.e. ``method="taylor"`` works."""
    return importlib.util.find_spec("heyoka") is not None


def _heyoka() -> ModuleType:
    try:
        return importlib.import_module("heyoka")
    except ImportError:
        raise ImportError(
            "method='taylor' needs the optional dependency heyoka: pip install 'layerwise-linear-flows[taylor]' "
            "(or pip install heyoka)"
        ) from None


def bits(dps: int) -> int:
    """MPFR precision (bits) for ``dps`` correct digits: ``ceil(dps log2 10)`` plus :data:`GUARD_BITS`."""
    return math.ceil(dps * math.log2(10)) + GUARD_BITS


def precision(dps: int | None) -> str:
    """The floating-point type for ``dps`` digits: ``"float64"`` (None or ≤ 15), ``"long double"`` (up to its
    digits, 18 on x86-64) or ``"mpfr"``."""
    if dps is None or dps <= 15:
        return "float64"
    return "long double" if dps <= LONG_DOUBLE_DIGITS else "mpfr"


@cache
def _system(model: Model, p: int) -> tuple[list[tuple[object, object]], tuple[tuple[str, int | None], ...]]:
    """The width-``p`` ODE in scaled units as heyoka (variable, right-hand side) pairs, states grouped by name
    then unit, and the model parameters it uses in ``heyoka.par`` order: (name, unit) for a unit parameter, (name,
    None) for a shared one (heyoka counts the parameters from the largest index used, so unused ones get none).

    Variable ``k`` is ``u_k = y_k / s_k`` (``numerics.error_control``) and the time is ``t / tau``: after the model
    parameters come the ``n`` scales ``s_k`` and then the factors ``tau / s_k`` (powers of two, exact), and
    ``du_k/d(t/tau) = (tau / s_k) f_k(s * u)``."""
    hy = _heyoka()
    field = model.unit_field
    states = [model.symbol(n) for n in model.state_names]
    summands = {model.symbol(n): q.expr for n, q in model.quantities.items() if q.kind == "sum"}
    used = set().union(*(e.free_symbols for e in field.values()))
    summands = {q: e for q, e in summands.items() if q in used}
    used |= set().union(set(), *(e.free_symbols for e in summands.values()))
    unit_params = [model.symbol(n) for n in model.unit_param_names if model.symbol(n) in used]
    shared = [model.symbol(n) for n in model.shared_param_names if model.symbol(n) in used]
    order = [(str(q), i) for q in unit_params for i in range(p)] + [(str(q), None) for q in shared]
    index = {key: hy.par[k] for k, key in enumerate(order)}
    variables = {s: hy.make_vars(*(f"{s}_{i}" for i in range(p))) for s in states}
    variables = {s: (v,) if p == 1 else tuple(v) for s, v in variables.items()}
    components = [(s, i) for s in states for i in range(p)]
    scale = {c: hy.par[len(order) + k] for k, c in enumerate(components)}
    inverse = {c: hy.par[len(order) + len(components) + k] for k, c in enumerate(components)}

    def unit(i: int) -> dict[sp.Symbol, object]:
        own = {s: scale[s, i] * v[i] for s, v in variables.items()} | {q: index[str(q), i] for q in unit_params}
        return own | {q: index[str(q), None] for q in shared}

    sums = {q: hy.sum([hy.from_sympy(e, unit(i)) for i in range(p)]) for q, e in summands.items()}
    system = [(variables[s][i], inverse[s, i] * hy.from_sympy(field[s], unit(i) | sums)) for s, i in components]
    return system, tuple(order)


@cache
def _integrator(model: Model, p: int, kind: str, prec: int) -> Any:  # a heyoka integrator (untyped)
    """A compiled integrator (heyoka caches the machine code too); its state, time and parameters are reset per
    use."""
    hy = _heyoka()
    system, order = _system(model, p)
    n, m = len(system), len(order) + 2 * len(system)
    if kind == "float64":
        return hy.taylor_adaptive(system, np.zeros(n), pars=np.zeros(m))
    if kind == "long double":
        zeros = np.zeros(n, dtype=np.longdouble)
        return hy.taylor_adaptive(system, zeros, pars=np.zeros(m, dtype=np.longdouble), fp_type=np.longdouble)
    zero = hy.real(0, prec)
    return hy.taylor_adaptive(system, [zero] * n, pars=[zero] * m, fp_type=hy.real, prec=prec)


def _to_type(values: Sequence[Any] | np.ndarray, kind: str, prec: int) -> np.ndarray:
    """Exact (or correctly rounded) conversion of floats and ``mpf`` to the integrator's type."""
    if kind == "float64":
        return np.array([float(v) for v in values])
    # mpf(x) would round an mpf to the working precision: keep mpf entries as they are (floats convert exactly)
    mp = [v if isinstance(v, mpmath.mpf) else mpmath.mpf(float(v)) for v in values]
    if kind == "long double":
        # two float64 halves carry the 64-bit significand; their difference is taken exactly
        with mpmath.workprec(256):
            halves = [(float(v), float(v - mpmath.mpf(float(v)))) for v in mp]
        return np.array([np.longdouble(hi) + np.longdouble(lo) for hi, lo in halves], dtype=np.longdouble)
    hy = _heyoka()
    out = []
    for v in mp:
        sign, man, exp, _ = v._mpf_
        out.append((-1 if sign else 1) * hy.real(int(man), prec) * hy.real(2, prec) ** int(exp))
    return np.array(out, dtype=hy.real)


def _to_mpf(values: np.ndarray, kind: str, prec: int) -> np.ndarray:
    """Exact conversion back to ``mpf`` (MPFR's shortest round-trip string read at its precision)."""
    with mpmath.workprec(max(prec, 113)):
        if kind == "long double":
            hi = values.astype(float)
            convert = [mpmath.mpf(h) + mpmath.mpf(float(v - np.longdouble(h))) for h, v in zip(hi, values, strict=True)]
        else:
            convert = [mpmath.mpf(str(v)) for v in values]
    return np.array(convert, dtype=object)


def integrate_taylor(
    model: Model,
    state: Mapping[str, np.ndarray],
    params: Mapping[str, Any],
    t: np.ndarray,
    dps: int | None = None,
    max_steps: int = MAX_STEPS,
    work: Work | None = None,
) -> dict[str, np.ndarray]:
    """The derived flow from each start (``state`` arrays (batch, p); unit ``params`` (batch, p), shared ones
    numbers or arrays (batch, 1)) at times ``t`` (≥ 0): arrays (T, batch, p), float64 without ``dps``, ``mpf``
    objects with it (in :func:`precision`'s type).

    Error control (``numerics.error_control``): each component is integrated in units of its own magnitude, at
    least ``eps`` times the largest |value| its unit has reached so far (``M_i``; a zero component keeps the
    smallest nonzero value of its unit at the start), so the local error of component i is at most about
    ``eps * (|y_i| + eps M_i)``, ``eps`` the type's epsilon: a start of any magnitude keeps its digits (heyoka's
    own control, ``eps * max(1, |y|)``, is absolute below 1). ``work``, if given, counts each start's heyoka steps
    (:class:`numerics.work.Work`; heyoka evaluates Taylor coefficients, not the field, so ``nfev`` stays None).

    Raises:
        BudgetError: (a ``ValueError``) if a start needs more than ``max_steps`` steps.
        OverflowError: if its state stops being finite (beyond the type's range)."""
    _heyoka()
    kind = precision(dps)
    prec = bits(dps) if kind == "mpfr" and dps is not None else 0
    names = model.state_names
    batch, p = next(iter(state.values())).shape
    grid_times = np.unique(np.concatenate([[0.0], np.asarray(t, dtype=float)]))
    rows = np.searchsorted(grid_times, t)
    _, order = _system(model, p)
    values = np.empty((len(t), len(names), batch, p), dtype=float if kind == "float64" else object)
    speeds = _speeds(model, state, params)
    for j in range(batch):
        y0, speed_at, pars = _start(model, state, params, order, j)
        out, steps = _propagate(model, p, kind, prec, y0, speeds[:, j].ravel(), speed_at, pars, grid_times, max_steps)
        if work is not None:
            work.record(steps)
        values[:, :, j, :] = out[rows].reshape(len(t), len(names), p)
    if dps is not None and kind == "float64":
        values = to_mpf(values)
    return {n: values[:, i] for i, n in enumerate(names)}


def sample_progress(
    model: Model,
    state: Mapping[str, np.ndarray],
    params: Mapping[str, Any],
    t_max: float,
    j: int,
    steps: int,
    dps: int | None = None,
) -> list[tuple[float, int]]:
    """The progress of start ``j``'s integration toward ``t_max`` in its first ``steps`` heyoka steps (or fewer,
    if it gets there): (time reached, steps taken so far) at every resumption of :func:`_propagate` (after at most
    :data:`RELOAD_STEPS` steps), the last with the time reached at the stop. The same integration as
    :func:`integrate_taylor`'s, cut short (for ``budget.check_taylor_budget``'s estimate).

    Raises:
        OverflowError: if the state stops being finite on the way."""
    _heyoka()
    kind = precision(dps)
    prec = bits(dps) if kind == "mpfr" and dps is not None else 0
    p = next(iter(state.values())).shape[1]
    _, order = _system(model, p)
    y0, speed_at, pars = _start(model, state, params, order, j)
    trace: list[tuple[float, int]] = []
    with contextlib.suppress(BudgetError):  # the sample's end: the trace says how far it got
        _propagate(model, p, kind, prec, y0, speed_at(y0), speed_at, pars, np.array([0.0, t_max]), steps, trace)
    return trace


def _start(
    model: Model,
    state: Mapping[str, np.ndarray],
    params: Mapping[str, Any],
    order: Sequence[tuple[str, int | None]],
    j: int,
) -> tuple[list, Callable[[Sequence[Any]], np.ndarray], list[object]]:
    """Start ``j`` of the batch for :func:`_propagate`: its state (states then units), the field at a state of it
    (float64, for the time scale) and its parameters in ``heyoka.par`` order."""
    names = model.state_names
    p = next(iter(state.values())).shape[1]
    y0 = list(np.concatenate([np.asarray(state[n][j]).ravel() for n in names]))
    own = {k: v[j : j + 1] if isinstance(v, np.ndarray) else v for k, v in params.items()}

    def speed_at(values: Sequence[Any]) -> np.ndarray:
        with np.errstate(all="ignore"):
            rows = np.array([float(v) for v in values]).reshape(len(names), 1, p)
        return _speeds(model, {n: rows[i] for i, n in enumerate(names)}, own).ravel()

    return y0, speed_at, _parameters(params, order, j)


def _parameters(params: Mapping[str, Any], order: Sequence[tuple[str, int | None]], j: int) -> list[object]:
    """Start ``j``'s parameter values in ``heyoka.par`` order: a unit parameter's entry of unit ``unit``, a shared
    one's value (its row ``j`` if batched, an array (batch, 1))."""
    return [
        params[name][j, unit or 0] if isinstance(params[name], np.ndarray) else params[name] for name, unit in order
    ]


def _exponent_range(kind: str) -> tuple[int, int]:
    """The scales' exponents the type holds with their inverses (a subnormal scale's inverse would overflow)."""
    if kind == "mpfr":
        return -(2**60), 2**60
    info = np.finfo(np.float64 if kind == "float64" else np.longdouble)
    return int(info.minexp) + 1, int(info.maxexp) - 1


def _bits(kind: str, prec: int) -> int:
    """The significant bits of the type."""
    return prec if kind == "mpfr" else int(np.finfo(np.float64 if kind == "float64" else np.longdouble).nmant) + 1


def _speeds(model: Model, state: Mapping[str, np.ndarray], params: Mapping[str, Any]) -> np.ndarray:
    """The field at the starts in float64 (states, batch, p), for their time scales (NaN or inf where the starts
    or the field are beyond float64: time unit 1 there)."""
    field = batch_field(model)
    with np.errstate(all="ignore"):
        y = np.stack([np.asarray(state[n], dtype=float) for n in model.state_names])
        values = [
            np.asarray(params[k], dtype=float) if isinstance(params[k], np.ndarray) else float(params[k])
            for k in field.param_names
        ]
        return field(y, values)


def _rate(speed: np.ndarray, exponents: np.ndarray) -> float:
    """The start's largest rate in scaled units, ``max |f_k| / s_k`` (NaN or inf where the field is beyond
    float64)."""
    with np.errstate(all="ignore"):
        return float(np.max(np.abs(speed) * np.ldexp(1.0, -np.clip(exponents, -1000, 1000))))


def _time_unit(speed: np.ndarray, exponents: np.ndarray) -> int:
    """The exponent of the start's time scale: the inverse of its largest rate in scaled units, |f_k| / s_k
    (0 where that is 0 or not finite)."""
    rate = _rate(speed, exponents)
    return int(np.clip(-exponent(rate), -1000, 1000)) if rate > 0 and np.isfinite(rate) else 0


def _propagate(
    model: Model,
    p: int,
    kind: str,
    prec: int,
    y0: list,
    speed: np.ndarray,
    speed_at: Callable[[Sequence[Any]], np.ndarray],
    pars: list,
    grid_times: np.ndarray,
    max_steps: int,
    trace: list[tuple[float, int]] | None = None,
) -> tuple[np.ndarray, int]:
    """One start: its states on the grid (T, n), floats (float64) or ``mpf``, and the steps heyoka took, integrated
    in scaled units
    (``numerics.error_control``): heyoka runs until a component's scaled value leaves [1/4, 2] (or for
    :data:`RELOAD_STEPS` steps), the scales are then moved (exactly, by powers of two) and the integration resumed
    from there.

    Its time is in units of the flow's current time scale (``2^unit``, exact; ``speed_at`` gives the field at a
    state, ``speed`` at the start), chosen anew at every resumption: the Taylor coefficients of a fast start (rate
    1e20 at weights of 1e10) in the time itself would overflow float64 by order 20, and those of a slow component
    beside a fast tiny one (w = 1e-243 growing at a relative rate of 1e240 beside u = 1) underflow in the fast
    one's time. For the same reason a step is at most :data:`STEP_CAP` time units: in float64 the slow
    component's coefficients vanish there, and heyoka, reading a series that looks exactly linear, would take one
    step across the whole horizon while the tiny component grows by 2^800 (seen: u never moved from 1.37)."""
    ta = _integrator(model, p, kind, prec)
    start = initial_exponents(y0, p)
    unit = 0 if start is None else _time_unit(speed, np.array(start))
    rate = 0.0 if start is None else _rate(speed, np.array(start))
    if start is None:
        start = _trial_exponents(ta, kind, prec, pars, len(y0), p, float(grid_times[-1]))
    scales = Scales(start, y0, p, _bits(kind, prec), _exponent_range(kind))
    ta.time = _to_type([0.0], kind, prec)[0]
    exponents = scales.exponents
    scaled = [mpmath.ldexp(_mpf(v), -int(e)) for v, e in zip(y0, exponents, strict=True)]
    _load(ta, kind, prec, pars, exponents, scaled, unit)
    steps_since = [0]

    def within(ta: Any) -> bool:  # heyoka's step callback (after every step): False stops the integration
        steps_since[0] += 1
        if steps_since[0] >= RELOAD_STEPS:
            return False
        if kind == "float64" and len(y0) <= 16:
            return not scales.outside(ta.state.tolist())
        return not scales.outside(np.abs(ta.state.astype(float)))

    rows: list[np.ndarray] = []
    done, used = 0, 0
    hy = _heyoka()
    while done < len(grid_times):
        if max_steps - used <= 0:
            _check("step_limit", kind, max_steps)
        # a few grid points at a time, in the current time unit; those that coincide there (subnormal times
        # rounded together) are one point of the grid, which heyoka wants strictly increasing
        pending = grid_times[done : done + GRID_CHUNK]
        tau = _scaled_times(pending, unit, kind, prec)
        first = [0] + [i for i in range(1, len(tau)) if tau[i] != tau[i - 1]]
        owner = np.cumsum([i in first for i in range(len(tau))]) - 1
        distinct = tau[first]
        offset = 0 if distinct[0] == ta.time else 1  # the grid must begin at the integrator's time
        segment = distinct if offset == 0 else np.concatenate([np.array([ta.time], dtype=tau.dtype), distinct])
        # no cap at a start at rest or beyond float64 (heyoka's default, no limit)
        cap = {"max_delta_t": _to_type([STEP_CAP], kind, prec)[0]} if rate > 0 and np.isfinite(rate) else {}
        steps_since[0] = 0
        outcome, _, _, steps, *_, states = ta.propagate_grid(
            segment, max_steps=max_steps - used, callback=within, **cap
        )
        used += steps
        if trace is not None:  # the real time reached and the steps taken so far (for budget.taylor_sample)
            trace.append((math.ldexp(float(ta.time), unit), used))
        reached = np.asarray(states)[offset:]
        covered = int(np.searchsorted(owner, len(reached)))  # the grid points whose distinct time was reached
        rows.append(_unscaled(reached[owner[:covered]], kind, prec, scales.exponents))
        done += covered
        if outcome == hy.taylor_outcome.cb_stop:
            values = _state_values(ta, kind, prec)
            shifts = scales.update(values)
            scaled = [mpmath.ldexp(v, -int(d)) for v, d in zip(values, shifts, strict=True)]
            real = [mpmath.ldexp(v, int(e)) for v, e in zip(values, scales.exponents - shifts, strict=True)]
            speed_now = speed_at(real)
            rate_now = _rate(speed_now, scales.exponents)
            if np.isfinite(rate_now):  # beyond float64 (an mpfr state): the unit stays
                new = _time_unit(speed_now, scales.exponents) if rate_now > 0 else unit
                ta.time = _rescaled_time(ta.time, unit - new, kind, prec)
                unit, rate = new, rate_now
            _load(ta, kind, prec, pars, scales.exponents, scaled, unit)
        elif outcome != hy.taylor_outcome.time_limit:
            _check(outcome, kind, max_steps)
    return np.concatenate(rows), used


def _scaled_times(times: np.ndarray, unit: int, kind: str, prec: int) -> np.ndarray:
    """Real times ``times`` (floats) in time units ``2^unit``, in the integrator's type (exact but for float64's
    underflow below 2^-1074)."""
    if kind == "float64":
        return np.ldexp(np.asarray(times, dtype=float), -unit)
    return _to_type([mpmath.ldexp(mpmath.mpf(float(v)), -unit) for v in times], kind, prec)


def _rescaled_time(time: Any, shift: int, kind: str, prec: int) -> Any:
    """The integrator's time ``time`` after the time unit's exponent moves down by ``shift``: ``time 2^shift``."""
    if kind == "float64":
        return math.ldexp(float(time), shift)
    value = _to_mpf(np.array([time], dtype=np.longdouble if kind == "long double" else object), kind, prec)[0]
    return _to_type([mpmath.ldexp(value, shift)], kind, prec)[0]


def _mpf(value: Any) -> mpmath.mpf:
    """``value`` as an mpf without rounding (an mpf is kept; ``mpf(x)`` would round it to the working precision)."""
    return value if isinstance(value, mpmath.mpf) else mpmath.mpf(float(value))


def _load(
    ta: Any, kind: str, prec: int, pars: list, exponents: np.ndarray, scaled: Sequence[Any], unit: int = 0
) -> None:
    """Set the integrator's state (in scaled units) and parameters: the model's, the scales ``2^e_k`` and the
    factors ``2^(unit - e_k)`` of the scaled field (the time unit times the inverse scale)."""
    ta.state[:] = _to_type(scaled, kind, prec)
    powers = [mpmath.ldexp(1, int(e)) for e in exponents] + [mpmath.ldexp(1, unit - int(e)) for e in exponents]
    ta.pars[:] = _to_type([*pars, *powers], kind, prec)


def _trial_exponents(ta: Any, kind: str, prec: int, pars: list, n: int, width: int, horizon: float) -> list[int]:
    """The scales of a start at zero: from the state one trial step (at scale 1, at most to ``horizon``)
    reaches, the distance it moves; 0 (scale 1) if it stays at zero (a start at rest)."""
    if horizon == 0:
        return [0] * n
    ta.time = _to_type([0.0], kind, prec)[0]
    _load(ta, kind, prec, pars, np.zeros(n, dtype=int), [mpmath.mpf(0)] * n)
    ta.step(max_delta_t=_to_type([horizon], kind, prec)[0])
    reached = _state_values(ta, kind, prec)
    exponents = initial_exponents([v if mpmath.isfinite(v) else 0 for v in reached], width)
    return [0] * n if exponents is None else exponents


def _state_values(ta: Any, kind: str, prec: int) -> list[mpmath.mpf]:
    """The integrator's state as exact mpf values."""
    state = np.array(ta.state)
    if kind == "float64":
        return [mpmath.mpf(float(v)) for v in state]
    return list(_to_mpf(state, kind, prec))


def _unscaled(states: np.ndarray, kind: str, prec: int, exponents: np.ndarray) -> np.ndarray:
    """Grid rows (R, n) in scaled units back to the states: floats (float64) or mpf, exactly."""
    if kind == "float64":
        return np.ldexp(np.asarray(states, dtype=float), exponents[None, :])
    values = _to_mpf(states.ravel(), kind, prec).reshape(states.shape)
    return np.array(
        [[mpmath.ldexp(v, int(e)) for v, e in zip(row, exponents, strict=True)] for row in values], dtype=object
    ).reshape(states.shape)


def _check(outcome: object, kind: str, max_steps: int) -> None:
    """``BudgetError`` for heyoka's step limit (or the string ``"step_limit"``), else ``OverflowError``."""
    hy = _heyoka()
    if outcome == "step_limit" or outcome == hy.taylor_outcome.step_limit:
        raise BudgetError(
            f"method='taylor' ({kind}) needs more than max_steps = {max_steps} steps; pass a larger max_steps"
        )
    raise OverflowError(
        f"method='taylor' ({kind}) stopped before the last time: {outcome}: a state left the {kind} range for these "
        "init and params"
    )
