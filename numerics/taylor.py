r"""``method="taylor"``: heyoka's adaptive Taylor integrator (Biscani & Izzo 2021, MNRAS 504, 2614) on the derived
flow, in float64, long double or MPFR precision; an optional dependency (``pip install '.[taylor]'``).

The ODE is compiled from the model's derived unit field (``Model.unit_field``) by ``heyoka.from_sympy``: each
unit's components in its own variables, the sums over units as heyoka sums, and every parameter a runtime
``heyoka.par``, so that one compiled integrator serves every start and parameter value of a width. Precision by
``dps``: float64 without it (or up to 15 digits), the platform's long double up to its digits (18 on x86-64),
MPFR above, at :func:`bits` of precision; the tolerance is heyoka's default, the type's machine epsilon.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections.abc import Mapping, Sequence
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from .budget import BudgetError
from .compiled import to_mpf

if TYPE_CHECKING:
    import sympy as sp

    from derivations.model import Model

__all__ = ["GUARD_BITS", "MAX_STEPS", "available", "bits", "integrate_taylor", "precision"]

# MPFR precision beyond the requested digits: the global error of many steps exceeds one step's tolerance
GUARD_BITS = 16
# steps per start before the integration stops with an error (raise it here for very long horizons)
MAX_STEPS = 1_000_000
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
    """The width-``p`` ODE as heyoka (variable, right-hand side) pairs, states grouped by name then unit, and
    the parameters it uses in ``heyoka.par`` order: (name, unit) for a unit parameter, (name, None) for a shared
    one (heyoka counts the parameters from the largest index used, so unused ones get none)."""
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

    def unit(i: int) -> dict[sp.Symbol, object]:
        own = {s: v[i] for s, v in variables.items()} | {q: index[str(q), i] for q in unit_params}
        return own | {q: index[str(q), None] for q in shared}

    sums = {q: hy.sum([hy.from_sympy(e, unit(i)) for i in range(p)]) for q, e in summands.items()}
    system = [(variables[s][i], hy.from_sympy(field[s], unit(i) | sums)) for s in states for i in range(p)]
    return system, tuple(order)


@cache
def _integrator(model: Model, p: int, kind: str, prec: int, batch: int) -> Any:  # a heyoka integrator (untyped)
    """A compiled integrator (heyoka caches the machine code too); its state, time and parameters are reset per
    use. ``batch`` > 1: heyoka's batch mode (SIMD lanes, float64 only)."""
    hy = _heyoka()
    system, order = _system(model, p)
    n, m = len(system), len(order)
    if batch > 1:
        return hy.taylor_adaptive_batch(system, np.zeros((n, batch)), pars=np.zeros((m, batch)))
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
) -> dict[str, np.ndarray]:
    """The derived flow from each start (``state`` arrays (batch, p); unit ``params`` (batch, p), shared ones
    numbers or arrays (batch, 1)) at times ``t`` (≥ 0): arrays (T, batch, p), float64 without ``dps``, ``mpf``
    objects with it (in :func:`precision`'s type).

    ``BudgetError`` (a ``ValueError``) if a start needs more than ``max_steps`` steps, ``OverflowError`` if its
    state stops being finite (beyond the type's range)."""
    hy = _heyoka()
    kind = precision(dps)
    prec = bits(dps) if kind == "mpfr" and dps is not None else 0
    names = model.state_names
    batch, p = next(iter(state.values())).shape
    grid_times = np.unique(np.concatenate([[0.0], np.asarray(t, dtype=float)]))
    rows = np.searchsorted(grid_times, t)
    _, order = _system(model, p)
    values = np.empty((len(t), len(names), batch, p), dtype=float if kind == "float64" else object)
    lanes = hy.recommended_simd_size() if kind == "float64" and batch > 1 else 1
    for start in range(0, batch, lanes):
        rows_of = np.minimum(np.arange(start, start + lanes), batch - 1)  # the last lanes repeat the last start
        y0 = [np.concatenate([np.asarray(state[n][j]).ravel() for n in names]) for j in rows_of]
        pars = [_parameters(params, order, j) for j in rows_of]
        out = _propagate(model, p, kind, prec, y0, pars, grid_times, max_steps)
        for lane, j in enumerate(rows_of[: batch - start]):
            values[:, :, j, :] = out[lane][rows].reshape(len(t), len(names), p)
    if dps is not None and kind == "float64":
        values = to_mpf(values)
    return {n: values[:, i] for i, n in enumerate(names)}


def _parameters(params: Mapping[str, Any], order: Sequence[tuple[str, int | None]], j: int) -> list[object]:
    """Start ``j``'s parameter values in ``heyoka.par`` order: a unit parameter's entry of unit ``unit``, a shared
    one's value (its row ``j`` if batched, an array (batch, 1))."""
    return [
        params[name][j, unit or 0] if isinstance(params[name], np.ndarray) else params[name] for name, unit in order
    ]


def _propagate(
    model: Model, p: int, kind: str, prec: int, y0: list, pars: list, grid_times: np.ndarray, max_steps: int
) -> list[np.ndarray]:
    """One integrator run per start (or per SIMD batch of starts): the states on the grid, per start (T, n)."""
    lanes = len(y0)
    ta = _integrator(model, p, kind, prec, lanes)
    if lanes > 1:
        ta.set_time(0.0)
        ta.state[:] = np.array(y0).T
        ta.pars[:] = np.array(pars).T
        _, states = ta.propagate_grid(np.repeat(grid_times[:, None], lanes, axis=1), max_steps=max_steps)
        _check([outcome for outcome, *_ in ta.propagate_res], kind, max_steps)
        return [states[:, :, lane] for lane in range(lanes)]
    ta.time = _to_type([0.0], kind, prec)[0]
    ta.state[:] = _to_type(y0[0], kind, prec)
    if len(pars[0]):
        ta.pars[:] = _to_type(pars[0], kind, prec)
    outcome, *_, states = ta.propagate_grid(_to_type(grid_times, kind, prec), max_steps=max_steps)
    _check([outcome], kind, max_steps)
    if kind == "float64":
        return [np.asarray(states, dtype=float)]
    return [_to_mpf(states.ravel(), kind, prec).reshape(states.shape)]


def _check(outcomes: Sequence[object], kind: str, max_steps: int) -> None:
    hy = _heyoka()
    if all(outcome == hy.taylor_outcome.time_limit for outcome in outcomes):
        return
    if any(outcome == hy.taylor_outcome.step_limit for outcome in outcomes):
        raise BudgetError(
            f"method='taylor' ({kind}) needs more than max_steps = {max_steps} steps; pass a larger max_steps"
        )
    stopped = sorted({str(outcome) for outcome in outcomes})
    raise OverflowError(
        f"method='taylor' ({kind}) stopped before the last time: {stopped}: a state left the {kind} range for these "
        "init and params"
    )
