"""``trajectory``: closed form, high-precision integration, DOP853, or gradient descent, one interface."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import mpmath
import numpy as np

from .budget import MAX_DPS, MAX_STEPS, check_flow_budget, gd_steps
from .closed_form import (
    CLOCK,
    OUT_OF_RANGE,
    check_condition,
    closed_form_numpy,
    closed_form_state,
    compiled_closed_form,
)
from .compiled import compiled, to_mpf
from .evaluate import quantities
from .integrate import gradient_descent, integrate_mpmath, integrate_scipy
from .model_spec import ModelSpec, spec_of
from .result import Trajectory
from .taylor import integrate_taylor
from .validation import DPS_METHODS, METHODS, Inputs, integer, positive_number, validate

if TYPE_CHECKING:
    from derivations.model import Model

__all__ = ["trajectory"]


def trajectory(
    model: str | Model,
    t: object,
    params: Mapping[str, object],
    init: Mapping[str, object],
    method: str = "closed_form",
    dps: int | None = None,
    lr: float | None = None,
    max_steps: int | None = None,
    max_dps: int = MAX_DPS,
    refine: bool = True,
    quantities: Sequence[str] | None = None,
) -> Trajectory:
    """States and derived quantities of ``model`` at times ``t``: a :class:`numerics.result.Trajectory` (a dict of
    arrays, with ``.t``, ``.clocks``, ``.method``, ``.stats`` and matrix states such as ``.W1``).

    ``params`` and ``init`` are keyed by the model's symbol names (e.g. ``two_layer_scalar``: params ``S``,
    ``Z``; init ``a``, ``b`` of shape (p,) or (batch, p)). Every parameter may carry the batch axis, for every
    method: a shared parameter (``S``) is a number or an array (batch,), a unit parameter a number, an array
    (p,) or (batch, p); a sweep over ``S`` is one call, ``params={"S": np.array([0.5, 1.0, 2.0]), "Z": 1.0}``.
    The batch axes broadcast as numpy's: a length of 1 stretches, and an ``init`` without a batch axis is
    repeated over the parameters' batch (the same start for each parameter value); lengths that differ otherwise
    are a ``ValueError`` naming the argument and its admissible shapes, raised before any work.

    ``method``: ``"closed_form"`` (lambdified numpy; with ``dps``, the same closed form in mpmath), ``"mpmath"``
    (the derived ODE by ``mpmath.odefun`` at ``dps`` digits, default 30), ``"scipy"`` (DOP853, rtol 1e-13, the
    batch as one vectorized system),
    ``"taylor"`` (heyoka's Taylor integrator of the derived ODE, optional extra ``[taylor]``: float64, or with
    ``dps`` long double up to 18 digits and MPFR above; see ``numerics.taylor``) or ``"gd"`` (gradient descent
    with learning rate ``lr``, t = steps × lr: every time must be an integer multiple of ``lr``, to a relative
    1e-9). With ``dps`` (and for ``"mpmath"``), ``init`` and ``params`` may hold ``mpmath.mpf`` numbers, which
    keep their precision (e.g. an initialization aligned to 30 digits).
    The result maps each state name and quantity (``theta``, ``loss``, …) to an array with time as the first
    axis, then batch (if ``init`` or a parameter had one), then units for per-unit quantities; ``"t"`` holds the
    times. With ``dps`` the arrays hold ``mpmath.mpf`` objects.

    Budgets (``numerics.budget``), checked before the work: ``dps <= max_dps`` (default 10⁴); ``max_steps`` per
    batch element, default 10⁶ GD steps (``"gd"``, exactly t/lr), 10⁵ DOP853 steps (``"scipy"``, estimated from
    the flow's rate at the start), 10³ Taylor steps of ``mpmath.odefun`` counted at 30 digits (``"mpmath"``,
    estimated likewise and counted while integrating) or 10⁶ heyoka steps (``"taylor"``, counted). Beyond a
    budget the error names it and how to raise it.

    Bad arguments are a ``TypeError`` or ``ValueError`` naming them (complex values are refused). In float64 a
    state that is not finite although the inputs are, or a quantity that is NaN, is an ``OverflowError``; a
    quantity beyond the float64 range (e.g. the loss of weights near 1e150) is ±inf.

    ``refine`` (float64 closed form only): re-evaluate at rising precision the units that settle to a value whose
    float64 sum cancels beyond its conditioning (a unit driven to a small value by a conservation law loses up to
    all its digits otherwise). ``refine=False`` keeps their float64 values (error up to eps times the cancellation
    factor): for sweeps that reduce over many wide starts, where nearly every start has such a unit and the
    refinement would dominate the cost. Starts beyond the float64-safe range are evaluated in mpmath either way.

    ``quantities``: the names of the derived quantities to compute (default: all of the model's), e.g.
    ``("ntk",)`` in a sweep that reads only the NTK; the states are always returned (and, for the closed form, the
    sums it evaluates along its clocks).
    """
    started = time.perf_counter()
    model = spec_of(model)
    method, dps, lr, max_steps = _options(method, dps, lr, max_steps, max_dps)
    if not isinstance(refine, bool):
        raise TypeError(f"refine must be True or False, got {refine!r}")
    if not refine and (method != "closed_form" or dps is not None):
        raise ValueError("refine=False is only used by the float64 closed form (method='closed_form', no dps)")
    chosen = _quantity_names(model, quantities)
    if method == "closed_form":
        compiled_closed_form(model)  # ValueError quoting Unsolved.reason before any other work
    exact = method == "mpmath" or (method in DPS_METHODS and dps is not None)
    inputs = validate(model, t, params, init, exact)
    backend = "numpy" if dps is None and method != "mpmath" else "mpmath"
    params_env: dict[str, object] = {**inputs.unit_params, **inputs.shared_params}
    t_max = float(inputs.t.max())
    stats: dict[str, object] = {}
    # a non-finite float64 value is reported once, by _check_finite, not as numpy warnings on the way
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if method == "closed_form":
            states = _closed_form(model, inputs, params_env, backend, dps, refine)
        elif method == "gd":
            steps = gd_steps(inputs.t, lr, max_steps)
            stats["steps"] = int(steps.max())
            states = gradient_descent(compiled(model, "numpy"), inputs.state, params_env, steps, lr)
        elif method == "mpmath":
            cm = compiled(model, "mpmath")
            check_flow_budget(method, cm, inputs.state, params_env, t_max, max_steps, dps or 30)
            states = integrate_mpmath(cm, inputs.state, params_env, inputs.t, dps or 30, max_steps)
        elif method == "taylor":
            states = integrate_taylor(model.model, inputs.state, params_env, inputs.t, dps, max_steps)
        else:
            check_flow_budget(method, compiled(model, "numpy"), inputs.state, params_env, t_max, max_steps)
            states = integrate_scipy(compiled(model, "numpy"), inputs.state, params_env, inputs.t)
        clocks = {k[len(CLOCK) :]: states.pop(k) for k in list(states) if k.startswith(CLOCK)}
        result = _with_quantities(model, states, params_env, backend, dps or 30, chosen)
    if backend == "numpy":
        _check_finite(model, method, result)
    if not inputs.batched:
        result = {k: v[:, 0] for k, v in result.items()}
        clocks = {k: v[:, 0] for k, v in clocks.items()}
    result["t"] = inputs.t
    stats["seconds"] = time.perf_counter() - started
    return Trajectory(result, model.state_names, method, stats, clocks)


def _options(
    method: object, dps: object, lr: object, max_steps: object, max_dps: object
) -> tuple[str, int | None, float | None, int]:
    """The checked ``method``, ``dps``, ``lr`` and step budget (``MAX_STEPS[method]`` unless given)."""
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    max_dps = integer("max_dps", max_dps, 15)
    if dps is not None:
        if method not in DPS_METHODS:
            raise ValueError(f"dps is only used by {DPS_METHODS}, not {method!r}")
        dps = integer("dps", dps, 15, max_dps)
    if lr is not None and method != "gd":
        raise ValueError(f"lr is only used by method='gd', not {method!r}")
    if method == "gd":
        if lr is None:
            raise ValueError("method='gd' needs a learning rate lr > 0 (admissible range: (0, inf))")
        lr = positive_number("lr", lr)
    if max_steps is not None and method not in MAX_STEPS:
        raise ValueError(f"max_steps is only used by the methods {list(MAX_STEPS)}, not {method!r}")
    budget = MAX_STEPS.get(method, 0) if max_steps is None else integer("max_steps", max_steps, 1, 2**62)
    return method, dps, lr, budget


def _check_finite(model: ModelSpec, method: str, result: Mapping[str, np.ndarray]) -> None:
    """``OverflowError`` naming the outputs of a float64 run from finite inputs that are not finite: a state
    that is not finite, or a quantity that is NaN (a quantity beyond the float64 range is ±inf, e.g. the loss of
    weights near 1e150)."""
    states = set(model.state_names)
    bad = [name for name, values in result.items() if not _valid(values, finite=name in states)]
    if bad:
        raise OverflowError(
            f"the float64 {method} of {model.name!r} is not finite in {bad} although init and params are: the "
            "values (or intermediate ones) are beyond the float64 range for these inputs; use dps (mpmath) for "
            "the closed form, or rescale the problem"
        )


def _valid(values: np.ndarray, finite: bool) -> bool:
    """Whether every value is finite (``finite``) or not NaN: at once if their sum (a reduction without
    temporaries) is finite, as it is only if every value is; else value by value (the sum of finite values may
    overflow, that of infinities be NaN)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if values.dtype != object and np.isfinite(np.sum(values)):
            return True
    return bool(np.all(np.isfinite(values) if finite else ~np.isnan(values)))


def _closed_form(
    model: ModelSpec, inputs: Inputs, params_env: dict[str, object], backend: str, dps: int | None, refine: bool
) -> dict[str, np.ndarray]:
    ccf = compiled_closed_form(model, backend)
    init_env = {str(model.init_symbol(n)): v for n, v in inputs.state.items()}
    check_condition(ccf, init_env, params_env)
    if backend == "numpy":
        states = closed_form_numpy(ccf, {**init_env, **params_env}, inputs.t, refine)
        flagged = states.pop(OUT_OF_RANGE)
        if np.any(flagged):
            states = _in_extended_range(model, states, init_env, params_env, inputs.t, flagged)
        return states
    return _exact_to(model, init_env, params_env, inputs.t, dps or 30)


ZERO_DIGITS = 640
"""A zero is believed from this working precision on: the rounding error of a sum of terms below 1.8e308 is then
below float64's smallest subnormal, so a nonzero float64 value cannot cancel to an exact 0 (at lower precisions a
sum of terms near 1e84 settling to 1e-84 does, at three precisions in a row)."""


def _agree(history: list[dict[str, np.ndarray]], name: str, digits: int) -> bool:
    """Whether the last two precisions agree on ``name`` (``digits``: the one before the last): to 1e-15 relative,
    or both 0 from ``ZERO_DIGITS`` on (a value that underflows float64, e.g. a unit decaying to 1e-2000, is 0
    however many digits are added)."""
    last, before = history[-1][name], history[-2][name]
    close = np.abs(last - before) <= 1e-15 * np.abs(last)
    zero = (last == 0) & (before == 0) & (digits >= ZERO_DIGITS)
    return bool(np.all(np.where(last == 0, zero, close)))


def _exact(
    model: ModelSpec, init_env: dict, params_env: dict, t: np.ndarray, dps: int, units: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """The closed form in mpmath at ``dps`` digits (object arrays of mpf, any exponent); ``units`` as in
    ``closed_form_state``."""
    ccf = compiled_closed_form(model, "mpmath")
    with mpmath.workdps(dps):
        env = {
            k: (to_mpf(v) if isinstance(v, np.ndarray) else mpmath.mpf(v))
            for k, v in {**init_env, **params_env}.items()
        }
        return closed_form_state(ccf, env, to_mpf(t), "mpmath", units)


GUARD_DIGITS = 10
"""Working digits above the requested ``dps`` for the first mpmath evaluation of the closed form."""
DOUBLINGS = 7
"""How many times the working precision of the mpmath closed form is doubled before it gives up."""


def _exact_to(model: ModelSpec, init_env: dict, params_env: dict, t: np.ndarray, dps: int) -> dict[str, np.ndarray]:
    """The closed form in mpmath correct to ``dps`` digits: evaluated at working precisions ``dps + GUARD_DIGITS``,
    then doubling, until two consecutive ones agree to ``10^-dps`` relative element by element (a sum that
    cancels, e.g. a start of 1e150 settling near 0, needs more working digits than it returns); a zero is believed
    from ``ZERO_DIGITS`` working digits on. ``ArithmeticError`` after ``DOUBLINGS`` doublings."""
    history: list[dict[str, np.ndarray]] = []
    digits = dps + GUARD_DIGITS
    for _ in range(DOUBLINGS + 1):
        history.append(_exact(model, init_env, params_env, t, digits))
        with mpmath.workdps(digits):
            if len(history) >= 2 and all(_agree_to(history, n, dps, digits // 2) for n in model.state_names):
                return history[-1]
        digits *= 2
    raise ArithmeticError(
        f"the closed form of {model.name} does not settle to {dps} digits at {digits // 2} working digits here"
    )


def _agree_to(history: list[dict[str, np.ndarray]], name: str, dps: int, digits: int) -> bool:
    """``_agree`` for mpmath values at ``dps`` digits (``digits``: the precision before the last)."""
    tolerance = mpmath.mpf(10) ** -dps
    for x, y in zip(np.ravel(history[-1][name]), np.ravel(history[-2][name]), strict=True):
        if (x == 0 and (y != 0 or digits < ZERO_DIGITS)) or (x != 0 and abs(x - y) > tolerance * abs(x)):
            return False
    return True


def _in_extended_range(
    model: ModelSpec, states: dict, init_env: dict, params_env: dict, t: np.ndarray, flagged: np.ndarray
) -> dict[str, np.ndarray]:
    """The units (``flagged``, batch x p) whose float64 evaluation left the safe range, evaluated again in mpmath
    (whose exponent range is unbounded; each start's sums and clocks from all its units) and rounded to float64;
    ``OverflowError`` if a value is beyond float64. The sums along the clocks are dropped, so that the quantities
    are summed from the states."""
    out = {name: np.array(states[name], dtype=float) for name in model.state_names}
    for row in np.flatnonzero(np.any(flagged, axis=-1)):
        units = np.flatnonzero(flagged[row])
        pick = {
            k: (v[row : row + 1] if isinstance(v, np.ndarray) and v.ndim == 2 else v) for k, v in params_env.items()
        }
        rounded = _settled(model, {k: v[row : row + 1] for k, v in init_env.items()}, pick, t, units)
        for name in model.state_names:
            if not np.all(np.isfinite(rounded[name])):
                raise OverflowError(
                    f"the closed form of {model.name} reaches values beyond the float64 range (|x| > 1.8e308) for "
                    f"{name}: evaluate it with dps=30 for mpmath numbers"
                )
            out[name][:, row, units] = rounded[name][:, 0, :]
    return out


EXACT_DIGITS = (20, 40, 80, 160, 320, 640, 1280)
"""Working precisions tried, in turn, for starts whose float64 evaluation left the safe range."""


def _settled(model: ModelSpec, init: dict, params: dict, t: np.ndarray, units: np.ndarray) -> dict[str, np.ndarray]:
    """The closed form rounded to float64 from mpmath at rising precisions (``EXACT_DIGITS``) until consecutive
    ones agree to 1e-15 relative, element by element (a value that cancels needs more digits; a zero is believed
    from ``ZERO_DIGITS`` on). ``ArithmeticError`` if the highest precision still does not settle."""
    history: list[dict[str, np.ndarray]] = []
    for step, digits in enumerate(EXACT_DIGITS):
        exact = _exact(model, init, params, t, digits, units)
        with mpmath.workdps(digits):
            history.append({n: np.array([float(x) for x in np.ravel(v)]).reshape(v.shape) for n, v in exact.items()})
        if len(history) >= 2 and all(_agree(history, n, EXACT_DIGITS[step - 1]) for n in model.state_names):
            return history[-1]
    raise ArithmeticError(
        f"the closed form of {model.name} does not settle to float64 accuracy at {EXACT_DIGITS[-1]} digits here; "
        "use dps= for mpmath numbers"
    )


def _quantity_names(model: ModelSpec, names: object) -> frozenset[str] | None:
    """The checked ``quantities`` argument of ``trajectory``: None (all) or a set of the model's quantity names."""
    if names is None:
        return None
    known = list(model.quantity_kinds)
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise TypeError(f"quantities must be None or a sequence of names among {known}, got {names!r}")
    chosen = list(names)
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise ValueError(f"quantities: {unknown} are not quantities of {model.name!r}; admissible names: {known}")
    return frozenset(chosen)


def _with_quantities(
    model: ModelSpec,
    states: dict[str, np.ndarray],
    params_env: dict[str, object],
    backend: str,
    dps: int,
    names: frozenset[str] | None = None,
) -> dict[str, np.ndarray]:
    cm = compiled(model, backend)
    # unit parameters gain a leading time axis to broadcast against the (T, batch, p) states
    env = {k: (v[None] if isinstance(v, np.ndarray) else v) for k, v in params_env.items()}
    if backend == "numpy":
        return {**states, **quantities(cm, {**env, **states}, backend, names)}
    with mpmath.workdps(dps):
        env = {k: (to_mpf(v) if isinstance(v, np.ndarray) else mpmath.mpf(v)) for k, v in env.items()}
        return {**states, **quantities(cm, {**env, **states}, backend, names)}
