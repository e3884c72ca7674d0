"""Property-based fuzz of the public API (issues 13 and 17): bad or extreme inputs, every outcome classified.

Hypothesis draws calls of ``numerics.trajectory`` (every method, eight models including ``linear_network``),
``numerics.reduced_trajectory``, ``numerics.phase``, ``proofs_check.papers.xu_ziyin2025.scaling.e_B``/``e_B_value``, the
``numerics.linear_network`` helpers, ``numerics.riccati_numpy``/``riccati_mpmath``,
``derivations.conservation.conserved_quantities``/``count_conservation_laws``, ``numerics.agf`` and
``proofs_check.papers.nam2025.lazy_rich.lazy_rich_map``, with wrong types and shapes, NaN/inf, complex arrays, empty or
decreasing
times, out-of-range parameters, scales from 1e-300 to 1e300, huge ``dps``, tiny ``lr`` and over-budget requests.
Each call is marked *bad* (outside the documented admissible range or beyond a budget: it must be refused),
*valid* (cheap and well inside the range: it must succeed and be right) or neither (extreme: either), and its
outcome is classified as

- ``clear error``: ``ValueError``/``TypeError``/``OverflowError`` whose message names one of the call's
  arguments (or a budget), for a call that is not *valid*;
- ``correct``: a result that passes the call's checks: against an independent reference where cheap (the same
  closed form at 50 digits for the float64 and mpmath methods, the spec's e_B formula for ``phase``, numpy's
  eigenvalues for moment realizability, mpmath for the Riccati solution, the derived unit field for matrix GD),
  and always finite, within its range, the loss non-increasing along a gradient flow;
- ``silent wrong``: a result for a *bad* call, or one that fails a check;
- ``hang``: no answer within :data:`CASE_SECONDS`;
- ``obscure error``: any other exception, a message naming no argument, a warning not of the package's own
  classes (numpy's ``RuntimeWarning``, an error under ``-W error``), or an error for a *valid* call.

The test fails on any silent wrong, hang or obscure outcome outside :data:`KNOWN` (failures in code owned by other
work in progress, each listed with its owner; ``test_known_failures_still_fail`` fails once they are fixed).
Within-budget draws stay cheap (small widths, few times, small step budgets) and over-budget draws exceed the
default budgets by orders of magnitude, so that a slow answer is a hang and not a legitimately long run. The
default run draws :data:`DEFAULT_EXAMPLES` cases (under a minute); the ``slow`` run :data:`SLOW_EXAMPLES`
(≥ 4,000) and prints the counts per class; ``benchmarks/fuzz_public_api.py`` prints them for any number.

A second surface, *CLI files* (:func:`cli_file_cases`, issue 27), feeds saved reports to ``main(["--from-json",
...])`` in-process: truncated, deeply nested, huge or non-finite numbers, unknown ids, wrong types, lone
surrogates, oversize files and ``/dev/zero``, planted raw LaTeX, with and without ``--claim`` / ``--paper``. A bad
file must be exit 2 with one stderr line naming the file (and the record at fault), a benign one a correct report
(exit status, table and .tex checked against the file's own data). Default run :data:`CLI_FILES_EXAMPLES` cases,
slow run :data:`SLOW_CLI_FILES_EXAMPLES`.

A surface of its own (issue 27), :data:`USER_MODEL_CASES`: generated user ``Model`` definitions (moments negative,
NaN, infinite, complex, a string or not positive semidefinite; unknown domains and learning-rate keys; complex
networks and targets; functions that raise ``KeyError``/``IndexError``/``TypeError`` or return strings or None;
wrong field types), each built and instanced at width 2: a bad one must be a clear error naming a field (the
``Model`` field names), a good one a real, non-negative loss; :data:`USER_MODEL_EXAMPLES` cases in the default
run (about a second), :data:`USER_MODEL_SLOW_EXAMPLES` in the ``slow`` one.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import re
import signal
import tempfile
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from derivations import Model, Quantity, conservation, models
from derivations.closed_form import ClosedForm
from derivations.models.linear_network import linear_network
from numerics import agf, reduced_trajectory, riccati_mpmath, riccati_numpy, taylor, trajectory
from numerics import linear_network as ln
from numerics.budget import BudgetError
from proofs_check.papers.nam2025.lazy_rich import lazy_rich_map
from proofs_check.papers.xu_ziyin2025 import scaling
from proofs_check.papers.xu_ziyin2025.phase import phase

CLEAR, CORRECT, SILENT, HANG, OBSCURE = "clear error", "correct", "silent wrong", "hang", "obscure error"
CLASSES = (CLEAR, CORRECT, SILENT, HANG, OBSCURE)
FAILURES = (SILENT, HANG, OBSCURE)
CASE_SECONDS = 30.0
DEFAULT_EXAMPLES = 600
SLOW_EXAMPLES = 5000

KNOWN: dict[str, str] = {}
"""Targets whose failures are owned by other work in progress (``Case.target`` → owner), reported apart; empty now
that AGF refuses all-zero data and reports its evaluation budgets as ``BudgetError``."""


@dataclass
class Case:
    """One drawn call: ``bad`` must be refused, ``valid`` must succeed; ``check`` returns why a result is wrong."""

    target: str
    call: Callable[[], object]
    names: tuple[str, ...]
    description: str
    bad: bool = False
    valid: bool = False
    check: Callable[[object], str | None] = field(default=lambda result: None)
    budgets: tuple[str, ...] = ()
    """The budget arguments the call sets itself (e.g. ``max_steps=40``): a ``BudgetError`` naming one of them
    is the documented answer of a valid call whose budget is too small, not a refusal of the call."""

    def __repr__(self) -> str:
        return f"{self.target}: {self.description}"


class _Timeout(BaseException):
    pass


PACKAGES = ("derivations", "numerics", "proofs_check")


def _stray(caught: list) -> list:
    """The warnings that are not the package's own (its warning classes are documented outcomes, e.g. AGF's
    ``InitializationScaleWarning`` where the small-initialization assumption fails)."""
    return [w for w in caught if not w.category.__module__.startswith(PACKAGES)]


def _names(message: str, words: tuple[str, ...]) -> bool:
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(w)}(?![A-Za-z0-9_])", message) for w in words)


def _names_an_argument(message: str, names: tuple[str, ...]) -> bool:
    return _names(message, (*names, "max_steps", "max_dps", "max_cost", "max_total", "budget"))


def classify(case: Case) -> tuple[str, str]:
    """The outcome class of ``case`` and a one-line detail."""

    def alarm(_signum: int, _frame: object) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    # numpy's default error handling (warnings, not underflow); a warning is an error under -W error
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="warn", under="ignore"):
        warnings.simplefilter("always")
        try:
            result = case.call()
        except _Timeout:
            return HANG, f"no answer within {CASE_SECONDS} s"
        except (ValueError, TypeError, OverflowError) as error:
            message = f"{type(error).__name__}: {error}"
            if case.valid and isinstance(error, BudgetError) and _names(str(error), case.budgets):
                return CLEAR, f"the call's own budget refused it: {message}"
            if case.valid:
                return OBSCURE, f"a valid call was refused: {message}"
            if _stray(caught):
                stray = _stray(caught)[0]
                return OBSCURE, f"warning {stray.category.__name__}: {stray.message}, then {message}"
            return (CLEAR if _names_an_argument(str(error), case.names) else OBSCURE), message
        except Exception as error:  # every other exception is an outcome to classify
            return OBSCURE, f"{type(error).__name__}: {error}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    if _stray(caught):
        return OBSCURE, f"warning {_stray(caught)[0].category.__name__}: {_stray(caught)[0].message}"
    if case.bad:
        return SILENT, "a bad call was accepted"
    try:
        with np.errstate(all="ignore"):
            wrong = case.check(result)
    except Exception as error:  # a result the checks cannot read is wrong
        wrong = f"unreadable result ({type(error).__name__}: {error})"
    return (SILENT, wrong) if wrong else (CORRECT, "")


# ---------------------------------------------------------------- scalar and array draws
def _magnitude(draw: st.DrawFn, extreme: bool) -> float:
    if extreme and draw(st.integers(0, 2)) == 0:
        return 10.0 ** draw(st.floats(-300, 300))
    return draw(st.floats(0.1, 3.0))


def _values(draw: st.DrawFn, shape: tuple[int, ...], positive: bool, extreme: bool) -> np.ndarray:
    scale = _magnitude(draw, extreme)
    values = np.array(draw(st.lists(st.floats(0.2, 1.0), min_size=math.prod(shape), max_size=math.prod(shape))))
    signs = (
        1
        if positive
        else np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=len(values), max_size=len(values))))
    )
    return (scale * values * signs).reshape(shape)


BAD_VALUES = {
    "nan": lambda v: np.where(np.arange(np.size(v)).reshape(np.shape(v)) == 0, np.nan, v),
    "inf": lambda v: np.full(np.shape(v), -np.inf),
    "complex": lambda v: np.asarray(v) + 1e-3j,
    "bool": lambda v: np.ones(np.shape(v), dtype=bool),
    "string": lambda v: "1.0",
    "none": lambda v: None,
    "ragged": lambda v: [[1.0, 2.0], [3.0]],
    "dict": lambda v: {"x": 1.0},
    "huge int": lambda v: 10**400,
    "3-d": lambda v: np.ones((1, 1, 2)),
}


# ---------------------------------------------------------------- references
def _floats(values: object) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.vectorize(float, otypes=[float])(np.asarray(values, dtype=object))


def _state_matrix(model: object, result: dict) -> np.ndarray:
    return np.concatenate([_floats(result[n]) for n in model.state_names], axis=-1)


def _normwise_error(got: np.ndarray, ref: np.ndarray) -> float:
    if not np.all(np.isfinite(ref)):
        return math.inf
    scale = np.max(np.abs(ref), axis=-1)
    err = np.max(np.abs(got - ref), axis=-1)
    return float(np.max(np.where(scale > 0, err / np.where(scale > 0, scale, 1), err / 1e-300)))


def _sanity(model: object, result: dict, gradient_flow: bool) -> str | None:
    """Finite states, quantities never NaN (beyond float64: an OverflowError), cosines in [-1, 1], loss >= 0 and
    non-increasing along a gradient flow."""
    for name, values in result.items():
        if np.asarray(values).dtype == object:  # mpf: no overflow, finite at any magnitude
            if not all(mpmath.isfinite(v) for v in np.ravel(values)):
                return f"non-finite {name}"
            continue
        values = _floats(values)
        if np.any(np.isnan(values)) or (name in model.state_names and not np.all(np.isfinite(values))):
            return f"non-finite {name}"
        if name.startswith("alignment") and np.any(np.abs(values) > 1 + 1e-12):
            return f"{name} outside [-1, 1]: {values}"
    loss = _floats(result["loss"])
    top = float(np.max(np.abs(loss)))
    # rounding of a loss near its minimum is about 1e-16 of its terms: an absolute 1e-14 for the drawn scales
    if np.any(loss < -1e-9 * top - 1e-14):
        return f"negative loss {loss.min()}"
    if gradient_flow:
        order = np.argsort(result["t"], kind="stable")
        rise = np.diff(loss[order], axis=0)
        if np.any(rise > 1e-9 * top + 1e-14):
            return f"the loss rises along the gradient flow by {rise.max():.3g} (max loss {top:.3g})"
    return None


def _trajectory_check(
    model: object, t: object, params: dict, init: dict, method: str, dps: object, lr: object, extreme: bool
):
    def check(result: dict) -> str | None:
        if not np.array_equal(np.atleast_1d(np.asarray(t, dtype=float)), result["t"]):
            return "result['t'] differs from t"
        bad = _sanity(model, result, method != "gd")
        if bad or not _solved(model):
            return bad
        if method == "gd":
            return _gd_check(model, params, init, lr, result)
        # 700 digits absorb the closed form's cancellation between scales 1e-300 and 1e300
        reference = trajectory(model, t, params, init, dps=700 if extreme else 50)
        tolerance = {"closed_form": 1e-8 if dps is None else 1e-12, "scipy": 1e-6, "mpmath": 1e-10, "taylor": 1e-8}[
            method
        ]
        error = _normwise_error(_state_matrix(model, result), _state_matrix(model, reference))
        return (
            None
            if error <= tolerance
            else f"state error {error:.3g} against the closed form at 50 (700 for extreme scales) digits"
        )

    return check


def _gd_check(model: object, params: dict, init: dict, lr: float, result: dict) -> str | None:
    """linear_model: GD is theta_k = q theta_0 + (1 - q) S with q = (1 - lr lam)^k exactly (k = t / lr)."""
    if model.name != "linear_model":
        return None
    k = np.rint(np.asarray(result["t"]) / lr)
    shape = (-1,) + (1,) * np.ndim(init["theta"])
    S, lam = np.asarray(params["S"], dtype=float), np.asarray(params["lam"], dtype=float)
    q = (1 - lr * lam) ** k.reshape(shape)
    # q θ₀ + (1 − q) S, not S + q (θ₀ − S): with |S| ≫ |θ₀| the latter loses θ₀ to rounding (θ at t = 0 is θ₀)
    expected = q * np.asarray(init["theta"], dtype=float) + (1 - q) * S
    error = _normwise_error(result["theta"], expected)
    return None if error <= 1e-10 else f"GD error {error:.3g} against the exact linear-model GD"


# ---------------------------------------------------------------- trajectory
TRAJECTORY_MODELS = (
    "two_layer_scalar",
    "diagonal_linear_network",
    "linear_model",
    "layerwise_lr_linear",
    "lambda_balanced",
    "uv_model",
    "power_activation",
    "linear_network",
)
TRAJECTORY_NAMES = ("model", "t", "params", "init", "method", "dps", "lr", "max_steps", "max_dps")


def _solved(model: object) -> bool:
    """Solved from every start (linear_network is solved on the aligned set only, which random starts miss)."""
    return isinstance(model.solution, ClosedForm) and model.solution.general is None


def _model(name: str) -> object:
    return linear_network(2, 1) if name == "linear_network" else models.get(name)


def _params(draw: st.DrawFn, model: object, width: int, extreme: bool) -> dict:
    if model.name == "linear_network":
        entries = st.integers(-10, 10).map(lambda k: k / 10)
        A = np.array(draw(st.lists(entries, min_size=4, max_size=4))).reshape(2, 2) + np.eye(2)
        B = np.array(draw(st.lists(entries, min_size=2, max_size=2))).reshape(2, 1)
        # the default Syy = Sxy^T Sxx^+ Sxy of moments near 1e-300 underflows (then refused as inconsistent)
        Sxx = A @ A.T * (10.0 ** draw(st.floats(-100, 100)) if extreme else 1.0)
        return ln.moment_params(Sxx, Sxx @ B)
    params = {}
    for name in (*model.unit_param_names, *model.shared_param_names):
        positive = model.domains.get(name) == "positive"
        per_unit = name in model.unit_param_names and draw(st.booleans())
        values = _values(draw, (width,) if per_unit else (1,), positive, extreme)
        params[name] = values if per_unit else float(values[0])
    return params


def _init(draw: st.DrawFn, model: object, width: int, batch: int | None, extreme: bool) -> dict:
    shape = (width,) if batch is None else (batch, width)
    return {name: _values(draw, shape, False, extreme) for name in model.state_names}


@st.composite
def trajectory_cases(draw: st.DrawFn) -> Case:
    name = draw(st.sampled_from(TRAJECTORY_MODELS))
    model = _model(name)
    methods = ["scipy", "gd", "mpmath"] + (["closed_form"] * 3 if _solved(model) else [])
    methods += ["taylor"] if taylor.available() else []
    method = draw(st.sampled_from(methods))
    extreme = draw(st.integers(0, 3)) == 0 and method != "mpmath"
    width = draw(st.integers(1, 2 if method == "mpmath" else 3))
    batch = draw(st.sampled_from([None, None, 1, 2])) if method != "mpmath" else None
    params, init = _params(draw, model, width, extreme), _init(draw, model, width, batch, extreme)
    kwargs: dict = {"method": method}
    lr = None
    if method == "gd":
        lr = draw(st.sampled_from([0.1, 0.05, 0.01]))
        steps = draw(st.lists(st.integers(0, 60), min_size=1, max_size=3))
        t: object = [k * lr for k in steps]
        kwargs["lr"] = lr
    else:
        horizon = 0.5 if method == "mpmath" else 5.0
        t = draw(st.lists(st.floats(0, horizon), min_size=1, max_size=3))
        if extreme and method == "closed_form" and draw(st.booleans()):
            t = [*t, 10.0 ** draw(st.floats(1, 300))]
    if method == "mpmath":
        kwargs["max_steps"] = draw(st.sampled_from([None, 40, 80]))
        kwargs["dps"] = draw(st.sampled_from([None, 15, 20]))
    if method == "closed_form" and draw(st.booleans()):
        kwargs["dps"] = draw(st.sampled_from([15, 30, 50, 200]))
    label, what, kind = draw(_trajectory_mutation(model, method))
    args = {"model": model, "t": t, "params": params, "init": init, **kwargs}
    if what:
        args = what(args)
    bad, extreme = kind == "bad", extreme or kind == "extreme"
    target = f"trajectory[{method}{', extreme' if extreme and not bad else ''}]"
    call_args = dict(args)

    def call() -> object:
        a = dict(call_args)
        return trajectory(a.pop("model"), a.pop("t"), a.pop("params"), a.pop("init"), **a)

    # a bad call's result is never checked; an extreme change (e.g. init × 1e100) is checked as changed
    check = _trajectory_check(model, args["t"], args["params"], args["init"], method, kwargs.get("dps"), lr, extreme)
    description = f"{name} {method} t={t!r} extreme={extreme} mutation={label or 'none'} kwargs={kwargs}"
    names = (*TRAJECTORY_NAMES, *model.state_names, *model.unit_param_names, *model.shared_param_names)
    # GD may diverge (an OverflowError naming lr) at any scale unless lr is below 2 / curvature: linear_model only
    valid = not bad and not extreme and (method != "gd" or model.name == "linear_model")
    budgets = ("max_steps",) if args.get("max_steps") is not None else ()
    return Case(target, call, names, description, bad=bad, valid=valid, check=check, budgets=budgets)


def _replace(key: str, value: object) -> Callable[[dict], dict]:
    return lambda args: {**args, key: value}


def _in(key: str, inner: str, value: object) -> Callable[[dict], dict]:
    return lambda args: {**args, key: {**args[key], inner: value}}


def _bad_value(key: str, inner: str, kind: str) -> Callable[[dict], dict]:
    return lambda args: {**args, key: {**args[key], inner: BAD_VALUES[kind](args[key][inner])}}


@st.composite
def _trajectory_mutation(draw: st.DrawFn, model: object, method: str) -> tuple[str, Callable | None, str | None]:
    """One change of the arguments (or none): its label, the change, and ``"bad"`` (it must be refused) or
    ``"extreme"`` (either)."""
    state, param = model.state_names[0], (*model.unit_param_names, *model.shared_param_names)[0]
    options: dict[str, Callable[[dict], dict]] = {
        "params None": _replace("params", None),
        "init None": _replace("init", None),
        "init 'ab'": _replace("init", "ab"),
        "params list": _replace("params", [1.0]),
        "model list": _replace("model", ["two_layer_scalar"]),
        "model unknown": _replace("model", "no_such_model"),
        "method None": _replace("method", None),
        "method euler": _replace("method", "euler"),
        "missing init key": lambda a: {**a, "init": {k: v for k, v in a["init"].items() if k != state}},
        "extra param": _in("params", "zzz", 1.0),
        "t empty": _replace("t", []),
        "t negative": _replace("t", [-1.0]),
        "t nan": _replace("t", [0.0, np.nan]),
        "t 2-d": _replace("t", np.ones((2, 2))),
        "t string": _replace("t", "ab"),
        "t complex": _replace("t", np.array([0.5 + 1e-9j])),
        "t bool": _replace("t", True),
        "dps 14": _replace("dps", 14),
        "dps huge": _replace("dps", 10**5),
        "dps float": _replace("dps", 30.5),
        "dps bool": _replace("dps", True),
        "max_steps 0": _replace("max_steps", 0),
        "max_steps float": _replace("max_steps", 2.5),
        "max_dps 14": _replace("max_dps", 14),
    }
    # a width-7 start is wrong only against another state's or a unit parameter's width (a model with one state
    # and shared or scalar parameters, e.g. linear_model with scalar S, lam, takes it as seven units)
    options["init wrong shape"] = lambda a: (
        {**a, "init": {**a["init"], state: np.ones(7)}}
        if len(a["init"]) > 1 or any(np.ndim(v) > 0 for v in a["params"].values())
        else {**a, "init": {**a["init"], state: np.ones((2, 3, 7))}}
    )
    for kind in BAD_VALUES:
        options[f"init {kind}"] = _bad_value("init", state, kind)
        if model.name != "linear_network":
            options[f"params {kind}"] = _bad_value("params", param, kind)
    positive = [n for n in param if model.domains.get(n) == "positive"] if model.name != "linear_network" else []
    if positive:
        options["positive param 0"] = _in("params", positive[0], 0.0)
    if model.name == "linear_network":
        negative = {"Sxx_1_1": -1.0, "Sxx_2_2": -1.0, "Sxx_1_2": 0.0}
        options["Sxx = -I"] = lambda a: {**a, "params": {**a["params"], **negative}}
        options["Syy = 0, Sxy != 0"] = lambda a: {**a, "params": {**a["params"], "Syy_1_1": 0.0, "Sxy_1_1": 1.0}}
    if method == "gd":
        options |= {
            "lr missing": lambda a: {k: v for k, v in a.items() if k != "lr"},
            "lr 0": _replace("lr", 0.0),
            "lr nan": _replace("lr", np.nan),
            "lr string": _replace("lr", "0.1"),
            "lr tiny (5e8 steps)": lambda a: {**a, "lr": 1e-9, "t": [0.5]},
            "t/lr beyond 2^63": lambda a: {**a, "t": [1e20]},
            "t not a multiple of lr": lambda a: {**a, "t": [1.5 * a["lr"]]},
            "dps with gd": _replace("dps", 30),
        }
    else:
        options["lr without gd"] = _replace("lr", 0.1)
    if method == "mpmath":
        options["t = 1e6 (mpmath)"] = lambda a: {**a, "t": [1e6], "max_steps": None}
        options["init 1e100 (mpmath)"] = lambda a: {**a, "init": {k: v * 1e100 for k, v in a["init"].items()}}
    if method in ("scipy", "taylor"):
        options[f"t = 1e12 ({method})"] = _replace("t", [1e12])
    if method == "scipy":
        options["dps with scipy"] = _replace("dps", 30)
    if method == "closed_form":
        options["max_steps with closed form"] = _replace("max_steps", 10)
    label = draw(st.sampled_from([None] * len(options) + sorted(options)))
    if label is None:
        return "", None, None
    # refused by the step estimate when the flow is fast, else integrated (a slow flow): either is right
    return (
        label,
        options[label],
        "extreme" if label in ("init 1e100 (mpmath)", "t = 1e12 (scipy)", "t = 1e12 (taylor)") else "bad",
    )


# ---------------------------------------------------------------- phase and e_B
EXPONENT_NAMES = scaling.NAMES


def _spec_e_B(c: dict) -> Fraction:
    """Spec §4.1, typed in: e_B = -c_gamma - c_d - (c_u + c_w)/2 - |c_eta_w - c_eta_u + c_u - c_w|/2."""
    return (
        -c["c_gamma"]
        - c["c_d"]
        - (c["c_u"] + c["c_w"]) / 2
        - abs(c["c_eta_w"] - c["c_eta_u"] + c["c_u"] - c["c_w"]) / 2
    )


def _spec_phase(c: dict) -> str:
    e = _spec_e_B(c)
    if e == 0:
        return "alignment"
    if e > 0:
        return "rescaling"
    return "kernel" if c["c_d"] > 0 else "disalignment"


def _exact(value: object) -> Fraction:
    return Fraction(value) if isinstance(value, (int, Fraction)) else Fraction(repr(float(value)))


EXPONENT_VALUES = st.one_of(
    st.integers(-3, 3),
    st.fractions(min_value=-3, max_value=3, max_denominator=12),
    st.sampled_from([0.0, 0.5, -0.25, 1e300, -1e-300]),
)
BAD_EXPONENTS = st.sampled_from(
    [float("nan"), float("inf"), "1", "__import__('os').getpid()", None, 1j, True, [1], np.array([1.0, 2.0])]
)


@st.composite
def phase_cases(draw: st.DrawFn) -> Case:
    exponents = {n: draw(EXPONENT_VALUES) for n in EXPONENT_NAMES}
    bad = draw(st.sampled_from([None, None, *EXPONENT_NAMES]))
    if bad:
        exponents[bad] = draw(BAD_EXPONENTS)
    target = draw(st.sampled_from(["phase", "e_B", "e_B_value"]))
    negative_width = not bad and _exact(exponents["c_d"]) < 0
    exact = {n: _exact(v) for n, v in exponents.items()} if not bad else {}

    if target == "phase":

        def call() -> object:
            return phase(**exponents)

        def check(result: object) -> str | None:
            return (
                None
                if result == _spec_phase(exact)
                else f"phase {result!r}, the spec's table gives {_spec_phase(exact)}"
            )

    else:
        function = scaling.e_B if target == "e_B" else scaling.e_B_value

        def call() -> object:
            return function(**exponents)

        def check(result: object) -> str | None:
            expected = _spec_e_B({n: Fraction(v) for n, v in exponents.items()})  # floats at their binary value
            return (
                None
                if abs(float(result) - float(expected)) <= 1e-9 * (1 + abs(float(expected)))
                else f"e_B {result}, spec {expected}"
            )

    return Case(
        target,
        call,
        EXPONENT_NAMES,
        f"{exponents}",
        bad=bool(bad) or (target == "phase" and negative_width),
        valid=not bad and not (target == "phase" and negative_width),
        check=check,
    )


# ---------------------------------------------------------------- linear_network helpers
def _joint_min_correlation(Sxx: np.ndarray, Sxy: np.ndarray, Syy: np.ndarray) -> float:
    joint = np.block([[Sxx, Sxy], [Sxy.T, Syy]])
    diagonal = np.diag(joint)
    if np.any(diagonal < 0):
        return -1.0
    zero = diagonal == 0
    if np.any(np.abs(joint[zero]) > 0):
        return -1.0
    keep = ~zero
    root = np.sqrt(diagonal[keep])
    return float(np.min(np.linalg.eigvalsh(joint[np.ix_(keep, keep)] / np.outer(root, root)))) if keep.any() else 0.0


@st.composite
def moment_cases(draw: st.DrawFn) -> Case:
    d, c = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    entries = st.integers(-20, 20).map(lambda k: k / 10)  # no subnormals: their squares' underflow is its own rule
    A = np.array(draw(st.lists(entries, min_size=d * d, max_size=d * d))).reshape(d, d)
    B = np.array(draw(st.lists(entries, min_size=d * c, max_size=d * c))).reshape(d, c)
    construction = draw(st.sampled_from(["realizable", "default Syy", "random", "Sxx = -I", "Syy = 0"]))
    Sxx = A @ A.T + 0.1 * np.eye(d)
    Sxy, Syy = Sxx @ B, B.T @ Sxx @ B + 0.5 * np.eye(c)
    if construction == "random":
        Sxx, Sxy = (A + A.T) / 2, B
        Syy = np.array(draw(st.lists(entries, min_size=c * c, max_size=c * c))).reshape(c, c)
        Syy = (Syy + Syy.T) / 2
    elif construction == "Sxx = -I":
        Sxx = -np.eye(d)
    elif construction == "Syy = 0":
        Syy, Sxy = np.zeros((c, c)), np.ones((d, c))
    mutation = draw(st.sampled_from([None, None, None, "complex", "nan", "asymmetric", "shape", "string"]))
    arguments = [Sxx, Sxy, None if construction == "default Syy" else Syy]
    if mutation == "complex":
        arguments[1] = Sxy + 1e-3j
    elif mutation == "nan":
        arguments[0] = np.where(np.eye(d) > 0, np.nan, Sxx)
    elif mutation == "asymmetric" and d > 1:
        arguments[0] = Sxx + np.triu(np.ones((d, d)), 1)
    elif mutation == "shape":
        arguments[1] = np.ones((d + 1, c))
    elif mutation == "string":
        arguments[0] = "eye"
    else:
        mutation = None
    smallest = _joint_min_correlation(Sxx, Sxy, Sxy.T @ np.linalg.pinv(Sxx) @ Sxy if arguments[2] is None else Syy)
    bad = mutation is not None or smallest < -1e-6
    valid = mutation is None and (construction in ("realizable", "default Syy") or smallest > 1e-6)

    def call() -> object:
        return ln.moment_params(*arguments)

    def check(params: dict) -> str | None:
        return None if params[f"Sxy_{d}_{c}"] == Sxy[d - 1, c - 1] else "Sxy entry not kept"

    return Case(
        "moment_params", call, ("Sxx", "Sxy", "Syy"), f"{construction} {mutation} d={d} c={c}", bad, valid, check
    )


@st.composite
def network_helper_cases(draw: st.DrawFn) -> Case:
    d, p, c, n = (draw(st.integers(1, 3)) for _ in range(4))
    scale = _magnitude(draw, True)
    W1 = scale * np.array(draw(st.lists(st.floats(-1, 1), min_size=d * p, max_size=d * p))).reshape(d, p)
    W2 = np.array(draw(st.lists(st.floats(-1, 1), min_size=p * c, max_size=p * c))).reshape(p, c)
    X = np.array(draw(st.lists(st.floats(-1, 1), min_size=d * n, max_size=d * n))).reshape(d, n)
    which = draw(st.sampled_from(["round trip", "ntk_gram", "kernel_distance", "lambda_balanced", "matrix_gd"]))
    mutation = draw(st.sampled_from([None, None, "complex", "nan", "orientation", "shape", "string", "lr", "steps"]))
    moderate = 1e-100 < scale < 1e100
    names: tuple[str, ...]
    if which == "round trip":
        first = W1 + 1e-3j if mutation == "complex" else (np.nan * W1 if mutation == "nan" else W1)
        orientation = 3 if mutation == "orientation" else "paper"
        second = np.ones((p + 1, c)) if mutation == "shape" else ("W2" if mutation == "string" else W2)
        bad = mutation in ("complex", "nan", "orientation", "shape", "string")

        def call() -> object:
            return ln.init_to_weights(ln.weights_to_init(first, second, orientation), orientation)

        def check(result: object) -> str | None:
            return None if np.array_equal(result[0], W1) and np.array_equal(result[1], W2) else "round trip changed W"

        names = ("W1", "W2", "orientation", "state")
    elif which == "ntk_gram":
        data = X + 1e-3j if mutation == "complex" else (np.ones((d + 1, n)) if mutation == "shape" else X)
        bad = mutation in ("complex", "shape")

        def call() -> object:
            return ln.ntk_gram(W1, W2, data)

        def check(K: np.ndarray) -> str | None:
            reference = np.kron(np.eye(c), X.T @ W1 @ W1.T @ X) + np.kron(W2.T @ W2, X.T @ X)
            if not np.all(np.isfinite(reference)):
                return "a Gram matrix beyond float64 was returned"
            return None if np.allclose(K, reference, rtol=1e-10, atol=1e-12 * np.max(np.abs(reference))) else "NTK"

        names = ("W1", "W2", "X", "orientation")
    elif which == "kernel_distance":
        K0 = W1 @ W1.T
        Kt = K0 + 1e-3 * np.ones_like(K0) if mutation != "shape" else np.ones((d + 1, d + 1))
        if mutation == "nan":
            Kt = Kt * np.nan
        bad = mutation in ("shape", "nan") or not np.any(K0)

        def call() -> object:
            return ln.kernel_distance(K0, Kt)

        def check(value: object) -> str | None:
            with mpmath.workdps(40):
                a = [mpmath.mpf(float(x)) for x in K0.ravel()]
                b = [mpmath.mpf(float(x)) for x in Kt.ravel()]
                dot = mpmath.fsum(x * y for x, y in zip(a, b, strict=True))
                ref = 1 - dot / mpmath.sqrt(mpmath.fsum(x * x for x in a) * mpmath.fsum(y * y for y in b))
            return None if abs(float(value) - float(ref)) <= 1e-12 else f"kernel distance {value}, 40 digits {ref}"

        names = ("K0", "Kt")
    elif which == "lambda_balanced":
        rho = np.abs(W1[0]) + (1e-300 if mutation != "nan" else np.nan)
        lam = float(X[0, 0]) * scale if mutation != "string" else "1"
        bad = mutation in ("nan", "string")

        def call() -> object:
            return ln.lambda_balanced_singular_values(rho, lam)

        def check(result: object) -> str | None:
            with mpmath.workdps(1000):  # absorbs the cancellation of K - |lam| for rho down to 1e-324
                for r, s1, s2 in zip(rho, result[0], result[1], strict=True):
                    K = mpmath.sqrt(mpmath.mpf(lam) ** 2 + 4 * mpmath.mpf(r) ** 2)
                    # the reference rounded to float64: a value below the smallest subnormal is 0 there
                    e1, e2 = (mpmath.mpf(float(mpmath.sqrt((K + sign * lam) / 2))) for sign in (-1, 1))
                    if abs(s1 - e1) > 1e-13 * e1 or abs(s2 - e2) > 1e-13 * e2:
                        return f"singular values {s1}, {s2}; 1000 digits {mpmath.nstr(e1, 17)}, {mpmath.nstr(e2, 17)}"
            return None

        names = ("rho", "lam")
    else:
        Sxx = np.eye(d)
        Sxy = X[:, :1] @ np.ones((1, c))
        lr = {"lr": -0.1, "steps": 0.01}.get(mutation, 0.01)
        steps = {"steps": 10**9, "lr": 3}.get(mutation, draw(st.integers(0, 20)))
        bad = mutation in ("lr", "steps")

        def call() -> object:
            return ln.matrix_gradient_descent(W1, W2, Sxx, Sxy, lr, steps)

        def check(result: object) -> str | None:
            try:
                unit = trajectory(
                    linear_network(d, c),
                    [lr * steps],
                    ln.moment_params(Sxx, Sxy),
                    ln.weights_to_init(W1, W2),
                    "gd",
                    lr=lr,
                )
            except OverflowError:
                # no float64 reference (the unit field's loss overflows, at a scale GD need not handle, or after
                # a few steps of a diverging run): only finiteness is checked; a non-finite result is wrong
                finite = all(np.all(np.isfinite(w)) for w in result)
                return None if finite else "non-finite matrix GD result"
            reference = ln.init_to_weights({k: v[0] for k, v in unit.items() if k.startswith("W")})
            error = max(_normwise_error(g, r) for g, r in zip(result, reference, strict=True))
            return None if error <= 1e-12 else f"matrix GD error {error:.3g} against GD on the unit field"

        names = ("W1", "W2", "Sxx", "Sxy", "lr", "steps")
    # GD diverges for weights far above 1 (lr beyond 2 / curvature): only unit-scale GD must succeed
    valid = not bad and (0.1 <= scale <= 3 if which == "matrix_gd" else moderate)
    return Case(
        which, call, names, f"{which} d={d} p={p} c={c} scale={scale:.3g} mutation={mutation}", bad, valid, check
    )


# ---------------------------------------------------------------- Riccati
def _riccati_reference(c2: float, c1: float, c0: float, y0: float, t: float) -> mpmath.mpf | None:
    """The textbook solution (roots and the cross-ratio) at 1000 digits, which absorb its cancellation for
    coefficients down to 1e-324, or None at or past a pole."""
    with mpmath.workdps(1000):
        c2, c1, c0, y0, t = (mpmath.mpf(v) for v in (c2, c1, c0, y0, t))
        if c2 == 0:
            if c1 == 0:
                return y0 + c0 * t
            return y0 * mpmath.exp(c1 * t) + c0 * mpmath.expm1(c1 * t) / c1
        k = mpmath.sqrt(c1**2 - 4 * c2 * c0)
        rp, rm = (-c1 - k) / (2 * c2), (-c1 + k) / (2 * c2)
        if k == 0:  # y' = c2 (y - r)^2
            denominator = 1 - c2 * (y0 - rp) * t
            return rp + (y0 - rp) / denominator if denominator > 0 else None
        if y0 == rm:
            return rm
        kappa = (y0 - rp) / (y0 - rm)
        denominator = 1 - kappa * mpmath.exp(-k * t)  # from 1 - kappa at t = 0; a zero in (0, t] is a pole
        if kappa > 1 and denominator >= 0:
            return None
        return (rp - rm * kappa * mpmath.exp(-k * t)) / denominator


@st.composite
def riccati_cases(draw: st.DrawFn) -> Case:
    c2, c1, c0, y0 = (draw(st.floats(-2, 2)) for _ in range(4))
    t = draw(st.floats(0, 5))
    mutation = draw(st.sampled_from([None, None, "complex", "t < 0", "shape", "string"]))
    backend = draw(st.sampled_from(["numpy", "mpmath"]))
    arguments: list = [c2, c1, c0, y0, t]
    if mutation == "complex":
        arguments[0] = complex(c2, 1.0) if backend == "numpy" else mpmath.mpc(c2, 1)
    elif mutation == "t < 0":
        arguments[4] = -1.0
    elif mutation == "shape" and backend == "numpy":
        arguments[0], arguments[3] = np.ones(2), np.ones(3)
    elif mutation == "string":
        arguments[2] = "1"
    else:
        mutation = None
    discriminant = Fraction(c1) ** 2 - 4 * Fraction(c2) * Fraction(c0)
    terms = Fraction(c1) ** 2 + abs(4 * Fraction(c2) * Fraction(c0))
    # near 0 relative to its terms, or below the float64 range, its sign is not decidable in float64
    borderline = discriminant != 0 and (
        abs(discriminant) <= Fraction(1, 10**12) * terms or terms < Fraction(1, 10**290)
    )
    reference = None if mutation or discriminant < 0 else _riccati_reference(c2, c1, c0, y0, t)
    at_pole = mutation is None and discriminant >= 0 and reference is None
    function = riccati_numpy if backend == "numpy" else riccati_mpmath

    def call() -> object:
        return function(*arguments)

    def check(value: object) -> str | None:
        error = abs(mpmath.mpf(float(value)) - reference)
        return (
            None
            if error <= 1e-9 * (1 + abs(reference))
            else f"y(t) = {value}, 1000-digit textbook solution {reference}"
        )

    # near a pole or a zero discriminant the float64 answer is ill-conditioned and the tests may go either way
    unclear = borderline or (reference is not None and abs(reference) > 1e6)
    bad = mutation is not None or ((discriminant < 0 or (at_pole and t > 0)) and not unclear)
    return Case(
        f"riccati_{backend}",
        call,
        ("c2", "c1", "c0", "y0", "t"),
        f"{arguments} {mutation}",
        bad=bad,
        valid=not bad and not unclear and reference is not None,
        check=(lambda value: None) if unclear or reference is None else check,
    )


# ---------------------------------------------------------------- reduced trajectory, conservation, AGF, lazy/rich
@st.composite
def reduced_cases(draw: st.DrawFn) -> Case:
    model = models.get("power_activation")
    width = draw(st.integers(1, 3))
    params, init = _params(draw, model, width, False), _init(draw, model, width, None, False)
    t = draw(st.lists(st.floats(0, 3), min_size=1, max_size=3))
    mutation = draw(st.sampled_from([None, None, "beta 2.5", "beta 0", "complex", "batch", "t nan", "max_steps 0"]))
    beta = {"beta 2.5": 2.5, "beta 0": 0}.get(mutation, 2)
    if mutation == "complex":
        init = {**init, "u": init["u"] + 1e-3j}
    elif mutation == "batch":
        init = {k: np.stack([v, v]) for k, v in init.items()}
    elif mutation == "t nan":
        t = [np.nan]
    max_steps = 0 if mutation == "max_steps 0" else 10**4

    def call() -> object:
        return reduced_trajectory(beta, t, params, init, max_steps=max_steps)

    def check(result: dict) -> str | None:
        full = trajectory(model, t, params, init, method="scipy")
        error = _normwise_error(
            np.concatenate([result["u"], result["w"]], -1), np.concatenate([full["u"], full["w"]], -1)
        )
        return None if error <= 1e-7 else f"reduced vs full DOP853 error {error:.3g}"

    names = ("beta", "t", "params", "init", "max_steps")
    return Case("reduced_trajectory", call, names, f"{mutation} t={t}", bool(mutation), not mutation, check)


@st.composite
def conservation_cases(draw: st.DrawFn) -> Case:
    model = draw(st.sampled_from([*models.names(), 3, None, "no_such_model"]))
    degree = draw(st.sampled_from([1, 2, 2, 3, 0, 2.5, True]))
    counting = draw(st.booleans())
    # p = 40 (counting only): within the budget max_cost (D^3 + fields·D^2 <= 10^6, about 3 s) for the models of one
    # or two states, refused at once beyond (three states or more: D^3 >= 1.7·10^6), never a hang; either is right
    p = draw(st.sampled_from([1, 2, 2, 0, 65, "2", *([40] if counting else [])]))
    loss = draw(st.sampled_from(["given", "all", "none", None]))
    bad = (
        not isinstance(model, str)
        or model == "no_such_model"
        or p not in (1, 2, 40)
        or loss not in ("given", "all")
        or (not counting and degree not in (1, 2, 3))
    )
    if counting:

        def call() -> object:
            return conservation.count_conservation_laws(model, p, loss)

        def check(count: object) -> str | None:
            return None if isinstance(count, int) and count >= 0 else f"count {count!r}"

    else:

        def call() -> object:
            return conservation.conserved_quantities(model, degree, p, loss)

        def check(laws: object) -> str | None:
            return None if all(law.proof.holds for law in laws) else "an unproved law"

    names = ("model", "degree", "p", "loss")
    target = "count_conservation_laws" if counting else "conserved_quantities"
    return Case(target, call, names, f"{model} degree={degree} p={p} loss={loss}", bad, False, check)


@st.composite
def agf_cases(draw: st.DrawFn) -> Case:
    n, d, H = draw(st.integers(2, 4)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    X = np.array(draw(st.lists(st.floats(-2, 2), min_size=n * d, max_size=n * d))).reshape(n, d)
    y = np.array(draw(st.lists(st.floats(-2, 2), min_size=n, max_size=n)))
    a0 = np.full((H, 1), 0.5)
    w0 = np.array(draw(st.lists(st.floats(-0.5, 0.5), min_size=H * d, max_size=H * d))).reshape(H, d)
    alpha = draw(st.sampled_from([1e-6, 1e-3, 1e-2]))
    mutation = draw(st.sampled_from([None, None, "alpha 0", "alpha 2", "nan X", "complex y", "shape", "string"]))
    arguments = [X, y, a0, w0, alpha]
    index, value = {
        "alpha 0": (4, 0.0),
        "alpha 2": (4, 2.0),
        "nan X": (0, X * np.nan),
        "complex y": (1, y + 1e-3j),
        "shape": (3, np.ones((H, d + 1))),
        "string": (0, "X"),
    }.get(mutation, (None, None))
    if index is not None:
        arguments[index] = value

    def call() -> object:
        return agf(*arguments)

    def check(result: object) -> str | None:
        levels = np.asarray(result.loss_levels, dtype=float)
        return None if np.all(np.isfinite(levels)) and np.all(np.isfinite(result.jump_times)) else "non-finite"

    # the budgets (max_cost_time, max_evaluations, at their defaults) are arguments too: a nearly flat loss needs
    # more GF time than the default, and the BudgetError says which to raise
    names = ("X", "Y", "a0", "w0", "alpha", "max_cost_time", "max_evaluations", "gtol")
    return Case("agf", call, names, f"n={n} d={d} H={H} {mutation}", bool(mutation), False, check)


@st.composite
def lazy_rich_cases(draw: st.DrawFn) -> Case:
    lambdas = np.array(draw(st.lists(st.floats(-2, 2), min_size=1, max_size=2)))
    scales = np.array(draw(st.lists(st.floats(0.5, 2), min_size=1, max_size=2)))
    kwargs = {"time": 1.0, "lr": 0.05}
    mutation = draw(st.sampled_from([None, None, "nan", "complex", "negative scale", "lr tiny", "time < 0", "string"]))
    if mutation == "nan":
        lambdas = lambdas * np.nan
    elif mutation == "complex":
        scales = scales + 1e-3j
    elif mutation == "negative scale":
        scales = -scales
    elif mutation == "lr tiny":
        kwargs["lr"] = 1e-12
    elif mutation == "time < 0":
        kwargs["time"] = -1.0
    elif mutation == "string":
        lambdas = "0"

    def call() -> object:
        return lazy_rich_map(lambdas, scales, **kwargs)

    def check(result: object) -> str | None:
        values = np.concatenate([np.ravel(result.gd), np.ravel(result.closed_form), np.ravel(result.aligned_gd)])
        return None if np.all((values >= 0) & (values <= 2)) else "a kernel distance outside [0, 2]"

    names = ("lambdas", "scales", "rho0", "time", "lr", "n", "seed")
    return Case("lazy_rich_map", call, names, f"{mutation} {kwargs}", bool(mutation), False, check)


# ---------------------------------------------------------------- user-built models (issue 27)
MODEL_FIELDS = tuple(Model.__dataclass_fields__)
_A, _B = sp.symbols("a b", real=True)
_MOMENT_VALUES = (1, 2, sp.Rational(1, 3), 0, -1, -1e-300, float("nan"), float("inf"), sp.nan, sp.oo, 1 + sp.I, "1")
_NAME_POOL = ("a", "b", "S", "mu", "c", "eta", "", "b c")


def _user_definition(draw: st.DrawFn) -> tuple[dict, list[str]]:
    """A model f = sum_i a_i b_i x_i (target S_i x_i, or shared S) with drawn moments, domains, learning rates and
    callables, and the reasons it is bad (empty: a valid definition)."""
    bad: list[str] = []
    # about half the definitions valid: each kind of fault drawn now and then
    diagonal = (
        draw(st.sampled_from(_MOMENT_VALUES[:3])) if draw(st.integers(0, 5)) else draw(st.sampled_from(_MOMENT_VALUES))
    )
    off = draw(st.sampled_from((0, 0, 0, sp.Rational(1, 4), sp.Rational(1, 4), 3)))
    two_inputs = draw(st.booleans())
    if isinstance(diagonal, str):
        bad.append("moment a string")
    elif not (isinstance(diagonal, (int, float, sp.Rational)) and math.isfinite(float(diagonal)) and diagonal >= 0):
        bad.append("moment not a finite real >= 0")
    elif abs(off) > diagonal:  # the 2 x 2 moments at width 2 (or width 1 with two inputs per unit)
        bad.append("moment not PSD")
    definition = dict(
        name="fuzzed",
        title="t",
        reference="r",
        state_names=("a", "b"),
        unit_param_names=("S",),
        shared_param_names=("mu",),
        network=lambda s, x: sum(ai * bi * xi for ai, bi, xi in zip(s["a"], s["b"], x, strict=False)),
        target=lambda s, x: sum(si * xi for si, xi in zip(s["S"], x, strict=False)),
        moment=lambda s, i, j: diagonal if i == j else off,
        input_dim=(lambda p: 2 * p) if two_inputs else (lambda p: p),
        quantities={"theta": Quantity("unit", _A * _B, "output")},
        domains={"S": "real", "mu": "positive"},
    )
    domain_key, domain = (
        draw(st.sampled_from(("S", "mu", "a", "zz"))),
        draw(st.sampled_from(("real", "positive", "negative", "", 1))),
    )
    if not draw(st.integers(0, 5)):
        definition["domains"] = {domain_key: domain}
        if domain_key not in ("S", "mu") or domain not in ("real", "positive"):
            bad.append("domain")
    if not draw(st.integers(0, 5)):
        key, rate = draw(st.sampled_from(_NAME_POOL)), draw(st.sampled_from(_NAME_POOL))
        definition["learning_rates"] = {key: rate}
        if key not in ("a", "b") or rate != "mu":
            bad.append("learning rate")
    change = draw(st.sampled_from([None] * 3 * len(_USER_CHANGES) + sorted(_USER_CHANGES)))
    if change is not None:
        definition.update(_USER_CHANGES[change])
        bad.append(change)
    return definition, bad


_USER_CHANGES: dict[str, dict] = {
    "complex network": {"network": lambda s, x: sp.I * s["a"][0] * s["b"][0] * x[0]},
    "complex target": {"target": lambda s, x: 1j * s["S"][0] * x[0]},
    "network KeyError": {"network": lambda s, x: s["w"][0] * x[0]},
    "network IndexError": {"network": lambda s, x: s["a"][3] * x[0]},
    "network returns a string": {"network": lambda s, x: "a*b"},
    "network returns None": {"network": lambda s, x: None},
    "network nonlinear": {"network": lambda s, x: s["a"][0] * x[0] ** 3},
    "network a string": {"network": "a*b"},
    "param_check not callable": {"param_check": 3},
    "regularizer not callable": {"regularizer": "mu"},
    "regularizer KeyError": {"regularizer": lambda s: s["nu"]},
    "input_dim a float": {"input_dim": lambda p: 1.5},
    "input_dim no argument": {"input_dim": lambda: 1},
    "moment two arguments": {"moment": lambda s, i: 1},
    "quantity kind": {"quantities": {"theta": Quantity("units", _A * _B)}},
    "quantity a string": {"quantities": {"theta": Quantity("unit", "a*b")}},
    "quantities a list": {"quantities": [1]},
    "state_names a string": {"state_names": "ab"},
    "state_names empty": {"state_names": ()},
    "name not a string": {"name": 7},
    "tags not strings": {"tags": {"flow": 1}},
    "notes a string": {"notes": "n"},
    "matrix_states rows a string": {"matrix_states": {"W": "a"}},
    "matrix_params a list": {"matrix_params": [1]},
    "repeated names": {"unit_param_names": ("S", "S")},
}


@st.composite
def user_model_cases(draw: st.DrawFn) -> Case:
    """A user's ``Model`` definition, then its instance at width 2: a bad one must be refused naming a field."""
    definition, bad = _user_definition(draw)

    def call() -> object:
        return Model(**definition).instance(2)

    def check(instance: object) -> str | None:
        loss = instance.loss  # ½ Σ moments × (coefficients)²: real and, at real values, never negative
        values = {s: sp.Rational(k % 5 - 2, 3) for k, s in enumerate(sorted(loss.free_symbols, key=str))}
        value = loss.xreplace(values)
        return None if value.is_real and value >= 0 else f"loss {value} at {values}"

    return Case("Model", call, MODEL_FIELDS, ", ".join(bad) or "valid", bool(bad), not bad, check)


USER_MODEL_CASES = user_model_cases()


ALL_CASES = st.one_of(
    trajectory_cases(),
    trajectory_cases(),
    trajectory_cases(),
    phase_cases(),
    moment_cases(),
    network_helper_cases(),
    riccati_cases(),
    reduced_cases(),
    conservation_cases(),
    agf_cases(),
    lazy_rich_cases(),
)


# ---------------------------------------------------------------- CLI files: saved reports read by --from-json
CLI_NAMES = ("--from-json", "--claim", "--paper")
TOY_IDS = ("p1.a", "p1.b", "p1.r", "p2.a")
FAILING_STATUSES = ("refuted", "error")
REQUIRED = ("id", "paper", "status", "seconds")
"""The fields a saved claim record cannot do without (the others default, as in reports of older versions)."""
STRING_FIELDS = ("reference", "section", "equation", "statement", "latex", "method", "detail", "printed", "corrected")
"""Free-text fields of a claim record: any string is admissible (the report escapes or re-renders them)."""
TYPED_FIELDS = {
    **dict.fromkeys(("id", "paper", "status", *STRING_FIELDS), "string"),
    "derived": "bool",
    "self_referential": "bool",
    "assumptions": "strings",
    "routes": "routes",
    "counterexample": "witness",
    "seconds": "seconds",
}
WRONG_VALUES = (1, 2.5, True, None, [], ["x"], {}, {"x": "y"}, "text", "1.5", [1])
PLANTED_LATEX = (r"\input{/etc/passwd}", r"\write18{touch /tmp/pwned}", r"\catcode`\^^@=11 $x$ }{ \end{document}")
ROUTE_NAMES = ("sympy-eq", "z3", "numeric-mpmath-30")


def _admissible(kind: str, value: object) -> bool:
    """Whether ``value`` is of the documented type of a field of ``kind`` (the spec, not the validator's code)."""
    if kind == "string":
        return isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "strings":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "routes":
        return isinstance(value, list) and all(v in ROUTE_NAMES for v in value)
    if kind == "witness":
        return (
            value is None
            or value == {}
            or (isinstance(value, dict) and all(isinstance(v, str) for v in value.values()))
        )
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return number and math.isfinite(float(value)) and float(value) >= 0  # seconds


FIELD_NAMED = ("wrong type", "missing field", "bad status", "unknown id", "wrong paper", "lone surrogate")
"""Mutations of one claim record whose refusal must name that record (``claims[k]``)."""


@dataclass
class CliRun:
    """What ``main`` did: exit code, stdout, stderr, the .tex written (or "")."""

    code: int
    out: str
    err: str
    tex: str


class _CliFiles:
    """The toy registry, its saved report and a scratch directory, made once per process."""

    registry = None
    report: dict | None = None
    directory: Path | None = None

    @classmethod
    def ready(cls) -> tuple[object, dict, Path]:
        if cls.registry is None:
            from tests.proofs_check.saved_reports import saved_report, toy_registry

            cls.registry, cls.report = toy_registry(), saved_report()
            cls.directory = Path(tempfile.mkdtemp(prefix="fuzz-cli-files-"))
        return cls.registry, copy.deepcopy(cls.report), cls.directory


def _run_main(
    argv: list[str], registry: object, limit: int | None, tex_path: Path | None, named: tuple[str, ...], field: str
) -> CliRun:
    """``main(argv)`` in-process; a refusal (exit 2) becomes the ValueError of its single stderr line, provided
    the line names one of ``named`` (the file, or the selection at fault) and the ``field`` at fault (if given);
    anything else that is not a one-line answer is an exception that classifies as obscure."""
    from proofs_check import saved
    from proofs_check.cli import main

    out, err = io.StringIO(), io.StringIO()
    previous = saved.MAX_BYTES
    if limit is not None:
        saved.MAX_BYTES = limit
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv, registry=registry)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    except BaseException as error:
        if isinstance(error, _Timeout):
            raise
        raise RuntimeError(f"main raised {type(error).__name__}: {error}") from error
    finally:
        saved.MAX_BYTES = previous
    lines = err.getvalue().splitlines()
    if "Traceback" in err.getvalue():
        raise RuntimeError(f"a traceback on stderr: {lines[-1] if lines else ''}")
    if code == 2:
        if len(lines) != 1:
            raise RuntimeError(f"exit 2 with {len(lines)} lines on stderr: {err.getvalue()[:200]!r}")
        if not any(name in lines[0] for name in named):
            raise RuntimeError(f"exit 2 naming neither the file nor the selection: {lines[0]}")
        if field and f"{field}" not in lines[0] and "file:" not in lines[0]:
            raise RuntimeError(f"exit 2 not naming the field {field}: {lines[0]}")
        raise ValueError(lines[0])
    tex = tex_path.read_text(encoding="utf-8") if tex_path is not None and tex_path.exists() else ""
    return CliRun(code, out.getvalue(), err.getvalue(), tex)


def _dump(data: object, token: str | None) -> bytes:
    """``data`` as JSON; a string ``"@TOKEN@"`` in it replaced by the raw ``token`` (NaN, 1e999, a 5000-digit
    integer: what ``json.dumps`` will not write)."""
    text = json.dumps(data, allow_nan=True)
    if token is not None:
        text = text.replace('"@TOKEN@"', token)
    return text.encode("utf-8", "surrogatepass")


def _cli_check(selected: list[str], data: dict, planted: bool) -> Callable[[object], str | None]:
    """A correct report of the ``selected`` saved claims: exit 1 iff one of them is refuted or in error (the saved
    statuses), its table lists exactly them in order, nothing on stderr, and no planted LaTeX in the .tex."""
    statuses = {c["id"]: c["status"] for c in data["claims"]}
    expected_code = 1 if any(statuses[i] in FAILING_STATUSES for i in selected) else 0

    def check(run: object) -> str | None:
        assert isinstance(run, CliRun)
        if run.code != expected_code:
            return f"exit {run.code}, expected {expected_code}"
        rows = [line.split()[0] for line in run.out.splitlines()[2:] if line.split() and line.split()[0] in TOY_IDS]
        if rows[: len(selected)] != selected or f"{len(selected)} claim" not in run.out:
            return f"the table shows {rows}, expected {selected}"
        if run.err:
            return f"stderr not empty: {run.err[:200]!r}"
        if planted and (not run.tex or any(p in run.tex for p in (r"\input{", r"\write18", r"\catcode"))):
            return "planted LaTeX reached the .tex" if run.tex else "no .tex written"
        return None

    return check


@st.composite
def cli_file_cases(draw: st.DrawFn) -> Case:
    """A saved report, intact or made hostile in one way, and a selection, through ``main(["--from-json", ...])``.

    ``bad`` is decided from the documented format (:data:`TYPED_FIELDS`, :data:`REQUIRED`, the 32-deep and
    size limits, registered ids), never by the validator; a benign change (planted LaTeX, unknown extra keys,
    a deep but admissible extra value, a size within the limit, a valid selection) must give a correct report."""
    registry, data, directory = _CliFiles.ready()
    path, tex_path = directory / "report.json", directory / "report.tex"
    token, raw, limit, bad = None, None, None, False
    planted, argv_extra = False, []
    kind = draw(
        st.sampled_from(
            (
                "intact",
                "wrong type",
                "missing field",
                "bad status",
                "unknown id",
                "unknown paper",
                "wrong paper",
                "unknown control",
                "raw token",
                "huge integer",
                "nested extra",
                "truncated",
                "planted latex",
                "size",
                "duplicate",
                "lone surrogate",
                "not an object",
                "unknown route",
                "stream",
            )
        )
    )
    k = draw(st.integers(0, len(data["claims"]) - 1))
    record = data["claims"][k]
    if kind == "wrong type":
        key = draw(st.sampled_from(sorted(TYPED_FIELDS)))
        value = draw(st.sampled_from(WRONG_VALUES))
        record[key] = value
        bad = not _admissible(TYPED_FIELDS[key], value) or key in ("id", "paper", "status")
        # an admissible id/paper/status would still have to be the registered one: "text" never is
    elif kind == "missing field":
        key = draw(st.sampled_from(sorted(TYPED_FIELDS)))
        record.pop(key)
        bad = key in REQUIRED
    elif kind == "bad status":
        record["status"] = draw(st.sampled_from(("PROVED", "maybe", "", "proved ", "erratum?")))
        bad = True
    elif kind == "unknown id":
        record["id"] = draw(st.sampled_from(("p1.zz", "p3.a", "", "p1.a ", "P1.A", "control.eq.flow_sign")))
        bad = True
    elif kind == "unknown paper":
        data["papers"][draw(st.integers(0, len(data["papers"]) - 1))]["key"] = draw(st.sampled_from(("p3", "", "P1")))
        bad = True
    elif kind == "wrong paper":
        record["paper"] = "p2" if record["paper"] == "p1" else "p1"
        bad = True
    elif kind == "unknown control":
        data["control"]["claims"][draw(st.integers(0, 5))]["id"] = draw(st.sampled_from(("control.x", "p1.a")))
        bad = True
    elif kind == "raw token":
        token = draw(st.sampled_from(("NaN", "Infinity", "-Infinity", "1e999", "-1", "1e308", "0", "2.5e-300")))
        where = draw(st.sampled_from(("seconds", "versions")))
        if where == "seconds":
            record["seconds"] = "@TOKEN@"
            bad = token in ("NaN", "Infinity", "-Infinity", "1e999", "-1")
        else:
            data["versions"]["python"] = "@TOKEN@"  # a field the report does not use: any JSON number will do
    elif kind == "huge integer":
        digits = draw(st.sampled_from((1, 300, 308, 309, 310, 400, 4300, 4301, 20000)))
        token = "1" + "0" * (digits - 1)
        record["seconds"] = "@TOKEN@"
        bad = digits > 309  # 10**308 is a float, 10**309 beyond (an infinity); over 4300 digits not even parsed
    elif kind == "nested extra":
        depth = draw(st.one_of(st.integers(1, 40), st.sampled_from((31, 32, 1000, 100_000))))
        data["extra"] = "@TOKEN@"
        token = "[" * depth + "]" * depth
        bad = 1 + depth > 32  # the top-level object is one level
    elif kind == "truncated":
        raw = _dump(data, None)
        raw = raw[: draw(st.integers(0, len(raw) - 2))]
        bad = True
    elif kind == "planted latex":
        latex = draw(st.sampled_from(PLANTED_LATEX))
        for chosen in draw(st.lists(st.sampled_from(STRING_FIELDS), min_size=1, max_size=4)):
            record[chosen] = latex
        data["papers"][0]["title"] = latex
        data["control"]["claims"][0]["latex"] = latex
        planted = True
    elif kind == "size":
        size = len(_dump(data, None))
        limit = draw(st.integers(size - 3, size + 3))
        bad = size > limit
    elif kind == "duplicate":
        data["claims"].append(copy.deepcopy(record))
        bad = True
    elif kind == "lone surrogate":
        record[draw(st.sampled_from(STRING_FIELDS))] = "x\ud800y"
        bad = True
    elif kind == "not an object":
        raw = draw(st.sampled_from((b"", b"[]", b"null", b"42", b'"report"', b"\xff\xfe", b"{", b"NaN")))
        bad = True
    elif kind == "unknown route":
        record["routes"] = [draw(st.sampled_from(("oracle", "Z3", "")))]
        bad = True
    elif kind == "stream":
        limit = 1 << 16
        bad = True
    selection = draw(
        st.sampled_from(((), ("--claim", "p1"), ("--claim", "p1.r"), ("--paper", "p2"), ("--claim", "p3")))
    )
    if selection == ("--claim", "p3"):
        bad = True  # no claim id starts with it
    selected = [c["id"] for c in data["claims"] if c.get("id") in TOY_IDS]
    if selection:
        prefix = selection[1] + ("." if selection[0] == "--paper" else "")
        selected = [i for i in selected if i.startswith(prefix)]
    if planted:
        argv_extra = ["--latex", str(tex_path)]
    source = "/dev/zero" if kind == "stream" else str(path)

    def call() -> CliRun:
        if kind != "stream":
            path.write_bytes(raw if raw is not None else _dump(data, token))
        tex_path.unlink(missing_ok=True)
        named = (f"--from-json {source!r}", *(repr(v) for v in selection[1:]))
        # a bad selection may be refused first (the file's structure is checked before, its ids after it)
        field = f"claims[{k}]" if kind in FIELD_NAMED and selection != ("--claim", "p3") else ""
        return _run_main(["--from-json", source, *selection, *argv_extra], registry, limit, tex_path, named, field)

    check = _cli_check(selected, data, planted) if not bad else (lambda run: None)
    names = (*CLI_NAMES, *selection[1:])
    return Case("cli --from-json", call, names, f"{kind} (record {k}) {' '.join(selection)}", bad, not bad, check)


# ---------------------------------------------------------------- the run
@dataclass
class FuzzReport:
    """Counts per class, per target and class, and the failing cases."""

    counts: Counter = field(default_factory=Counter)
    by_target: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)

    def add(self, case: Case, outcome: str, detail: str) -> None:
        self.counts[outcome] += 1
        self.by_target[case.target, outcome] += 1
        if outcome in FAILURES:
            self.failures.append((case.target, outcome, detail, repr(case)))

    def unexpected(self) -> list:
        return [f for f in self.failures if f[0] not in KNOWN]

    def known(self) -> list:
        return [f for f in self.failures if f[0] in KNOWN]

    def summary(self) -> str:
        lines = [f"{sum(self.counts.values())} cases: " + ", ".join(f"{c} {self.counts[c]}" for c in CLASSES)]
        for target in sorted({t for t, _ in self.by_target}):
            row = ", ".join(f"{c} {self.by_target[target, c]}" for c in CLASSES if self.by_target[target, c])
            lines.append(f"  {target}: {row}")
        for target, outcome, detail, case in self.failures[:40]:
            owner = f" [known: {KNOWN[target]}]" if target in KNOWN else ""
            lines.append(f"  {outcome}{owner}: {case} -> {detail[:200]}")
        return "\n".join(lines)


def run_fuzz(examples: int, cases: st.SearchStrategy[Case] | None = None) -> FuzzReport:
    """Classify ``examples`` drawn cases of ``cases`` (default :data:`ALL_CASES`; hypothesis, the loaded profile's
    seed policy)."""
    report = FuzzReport()

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=ALL_CASES if cases is None else cases)
    def fuzz(case: Case) -> None:
        report.add(case, *classify(case))

    with np.errstate(all="ignore"):  # the draws' own arithmetic may overflow (extreme scales)
        fuzz()
    return report


def run_cli_files_fuzz(examples: int) -> FuzzReport:
    """Classify ``examples`` drawn hostile or benign saved reports read by ``--from-json``."""
    report = FuzzReport()

    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=cli_file_cases())
    def fuzz(case: Case) -> None:
        report.add(case, *classify(case))

    fuzz()
    return report


def test_agf_all_zero_data_is_refused() -> None:
    """The reproducer of a bare ZeroDivisionError from inside AGF that this fuzz found (all-zero data)."""
    outcome, detail = classify(
        Case(
            "agf",
            lambda: agf(np.zeros((2, 1)), np.zeros(2), np.array([[0.5]]), np.zeros((1, 1)), 1e-6),
            ("X", "Y", "a0", "w0", "alpha"),
            "all-zero data",
            bad=True,
        )
    )
    assert outcome == CLEAR, detail


def test_a_valid_call_refused_by_its_own_budget_is_a_clear_error() -> None:
    """``max_steps=40`` on a fast flow: the BudgetError naming it answers the call; the default budget must not."""
    model = models.get("two_layer_scalar")
    init = {"a": np.array([3.0, 2.0]), "b": np.array([3.0, -1.0])}

    def call(**budget: object) -> object:
        return trajectory(model, [0.2], {"S": 3.0, "Z": 0.1}, init, method="mpmath", **budget)

    names = (*TRAJECTORY_NAMES, "a", "b", "S", "Z")
    own = Case(
        "trajectory[mpmath]", lambda: call(max_steps=40), names, "max_steps=40", valid=True, budgets=("max_steps",)
    )
    assert classify(own)[0] == CLEAR, classify(own)
    unasked = Case("trajectory[mpmath]", lambda: call(max_steps=40), names, "max_steps=40", valid=True)
    assert classify(unasked)[0] == OBSCURE, classify(unasked)


def test_fuzz_public_api() -> None:
    report = run_fuzz(DEFAULT_EXAMPLES)
    print(report.summary())
    assert not report.unexpected(), report.summary()


USER_MODEL_EXAMPLES = 150
USER_MODEL_SLOW_EXAMPLES = 3000


def test_fuzz_user_models() -> None:
    """Issue 27: generated user ``Model`` definitions, good and bad: every bad one a clear error at construction
    (or when its instance is built) naming a field, every good one built with a real, non-negative loss."""
    report = run_fuzz(USER_MODEL_EXAMPLES, USER_MODEL_CASES)
    print(report.summary())
    assert report.counts[CLEAR] and report.counts[CORRECT], report.summary()
    assert not report.unexpected(), report.summary()


def test_a_wrongly_accepted_user_model_is_caught() -> None:
    """The user-model surface can fail: a bad definition that builds (checked here past the validation) is a
    silent wrong, and a raw KeyError from inside is obscure."""
    accepted = Case("Model", lambda: object(), MODEL_FIELDS, "bad but built", bad=True)
    assert classify(accepted)[0] == SILENT
    raw = Case("Model", lambda: {}["a"], MODEL_FIELDS, "raw KeyError", bad=True)
    assert classify(raw)[0] == OBSCURE


@pytest.mark.slow
def test_fuzz_user_models_large() -> None:
    report = run_fuzz(USER_MODEL_SLOW_EXAMPLES, USER_MODEL_CASES)
    print(report.summary())
    assert sum(report.counts.values()) >= USER_MODEL_SLOW_EXAMPLES
    assert not report.unexpected(), report.summary()


@pytest.mark.slow
def test_fuzz_public_api_large() -> None:
    report = run_fuzz(SLOW_EXAMPLES)
    print(report.summary())
    assert sum(report.counts.values()) >= 4000
    assert not report.unexpected(), report.summary()


CLI_FILES_EXAMPLES = 60
SLOW_CLI_FILES_EXAMPLES = 3000


def test_fuzz_cli_files() -> None:
    report = run_cli_files_fuzz(CLI_FILES_EXAMPLES)
    print(report.summary())
    assert not report.unexpected(), report.summary()


@pytest.mark.slow
def test_fuzz_cli_files_large() -> None:
    report = run_cli_files_fuzz(SLOW_CLI_FILES_EXAMPLES)
    print(report.summary())
    assert sum(report.counts.values()) >= SLOW_CLI_FILES_EXAMPLES
    assert report.counts[CORRECT] > 0 and report.counts[CLEAR] > 0
    assert not report.unexpected(), report.summary()


@pytest.mark.slow
def test_fuzz_cli_files_catches_a_lax_validator(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wrong variant, seconds taken unchecked (NaN, inf, -1 accepted), is caught as silent wrong results."""
    from proofs_check import saved

    monkeypatch.setattr(saved, "_seconds", lambda data, where: 0.0)
    report = run_cli_files_fuzz(300)
    assert report.counts[SILENT] > 0, report.summary()
