"""The mixed error control of the Taylor integrators (``numerics.error_control``, issue 23): a start of any
magnitude, 1e-200 to 1e150, is integrated to its requested digits by ``method="taylor"`` (float64, MPFR) and
``method="mpmath"``, against the closed form at 50 digits (an independent solution of the same flow: it
integrates nothing). Every part of the control is shown to matter: a wrong variant (no scaling, a floor far too
loose, a growth threshold far too loose, no time unit) fails at least one check here."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

import numerics.error_control as error_control
import numerics.integrate as integrate
from numerics import taylor, trajectory
from numerics.budget import BudgetError

needs_heyoka = pytest.mark.skipif(not taylor.available(), reason="heyoka (the [taylor] extra) is not installed")

SCALES = [1e-200, 1e-100, 1e-40, 1e-10, 1.0, 1e10, 1e50, 1e150]
MODELS = {"two_layer_scalar": {"S": 2.0, "Z": 1.0}, "lambda_balanced": {"S": np.array([2.0, 1.5])}}
DIRECTION = {"a": np.array([1.0, -0.6]), "b": np.array([0.0, 0.4])}
"""Starts ``scale * DIRECTION``: unit 1 at the saddle (b = 0, its growth driven by a alone), unit 2 generic."""
# requested relative accuracy per method: float64 and MPFR at 30 digits (taylor), 15 and 30 digits (mpmath)
METHODS = {
    "taylor float64": ("taylor", {}, 1e-14),
    "taylor dps=30": ("taylor", {"dps": 30}, 1e-29),
    "mpmath dps=15": ("mpmath", {"dps": 15}, 1e-14),
    "mpmath dps=30": ("mpmath", {"dps": 30}, 1e-29),
}


def times(scale: float) -> np.ndarray:
    """A small start: its escape from the saddle (about ln(1/scale)/S) and its settling; a large one: five of its
    initial time scales 1/scale² (the solution stays finite; the float64 field of 1e150, ~1e450, does not)."""
    horizon = 0.8 * np.log(1 / scale) + 3 if scale <= 1 else 5 / scale**2
    return horizon * np.array([0.0, 0.1, 0.25, 0.5, 1.0])


def worst_error(got: dict, reference: dict, names: tuple[str, ...] = ("a", "b")) -> float:
    """The largest error over the times of each component, relative to that component's largest |value|."""
    worst = mpmath.mpf(0)
    with mpmath.workdps(60):
        for name in names:
            rows = len(reference[name])
            pairs = np.asarray(got[name]).reshape(rows, -1).T, np.asarray(reference[name]).reshape(rows, -1).T
            columns = zip(*pairs, strict=True)
            for g, r in columns:
                exact = [mpmath.mpf(x) for x in r]
                scale = max(abs(x) for x in exact)
                worst = max(worst, max(abs(mpmath.mpf(x) - y) for x, y in zip(g, exact, strict=True)) / scale)
    return float(worst)


def error_of(model: str, scale: float, method: str) -> float:
    name, options, _ = METHODS[method]
    t, init = times(scale), {k: scale * v for k, v in DIRECTION.items()}
    reference = trajectory(model, t, MODELS[model], init, dps=50)
    return worst_error(trajectory(model, t, MODELS[model], init, method=name, **options), reference)


# --- the reproducers ----------------------------------------------------------------------------------------


@needs_heyoka
@pytest.mark.parametrize(("dps", "tolerance"), [(None, 1e-14), (30, 1e-29)])
def test_the_saddle_of_the_scalar_network_is_left(dps: int | None, tolerance: float) -> None:
    """a = 1e-40, b = 0 at S = 10: heyoka's absolute control (below 1) kept the state at the saddle, a(10) =
    4.3e-19 instead of 3.16 (and 1.6e-5 off at 30 digits)."""
    params, init, t = {"S": 10.0, "Z": 1.0}, {"a": np.array([1e-40]), "b": np.array([0.0])}, np.array([0.0, 5, 10])
    reference = trajectory("two_layer_scalar", t, params, init, dps=50)
    run = trajectory("two_layer_scalar", t, params, init, method="taylor", dps=dps)
    assert abs(float(run["a"][-1, 0]) - 3.1622689) < 1e-6
    assert worst_error(run, reference) <= tolerance


def test_a_tiny_lambda_balanced_start_by_mpmath() -> None:
    """A lambda_balanced start of 1e-66 (b = 0): mpmath.odefun's absolute step radius made it 1e17 times off."""
    params, init, t = {"S": np.array([2.0])}, {"a": np.array([1e-66]), "b": np.array([0.0])}, np.array([0.0, 5, 20])
    reference = trajectory("lambda_balanced", t, params, init, dps=50)
    assert worst_error(trajectory("lambda_balanced", t, params, init, method="mpmath"), reference) <= 1e-29


# --- magnitudes, fast: the extremes of the grid (all of it in the slow test) --------------------------------


@needs_heyoka
@pytest.mark.parametrize("model", list(MODELS))
@pytest.mark.parametrize("scale", [1e-200, 1e-40, 1e50])
@pytest.mark.parametrize("method", ["taylor float64", "taylor dps=30"])
def test_taylor_keeps_its_digits_at_every_magnitude(model: str, scale: float, method: str) -> None:
    assert error_of(model, scale, method) <= METHODS[method][2]


@pytest.mark.parametrize("model", list(MODELS))
@pytest.mark.parametrize("scale", [1e-10, 1e50])
def test_mpmath_keeps_its_digits_at_every_magnitude(model: str, scale: float) -> None:
    assert error_of(model, scale, "mpmath dps=15") <= METHODS["mpmath dps=15"][2]


@needs_heyoka
def test_float64_taylor_at_1e150_is_an_overflow_error() -> None:
    """Its field there (~1e450) is beyond float64: an OverflowError, never a silent inf."""
    with pytest.raises(OverflowError):
        error_of("two_layer_scalar", 1e150, "taylor float64")


@pytest.mark.slow
def test_the_table_of_worst_errors(capsys: pytest.CaptureFixture[str]) -> None:
    """The worst relative error per model, magnitude and method (printed with ``-s``), each within the method's
    requested accuracy; float64 at 1e150 is an OverflowError (its field is beyond float64)."""
    lines, failures = [], []
    for model in MODELS:
        for scale in SCALES:
            row = []
            for method, (name, _, tolerance) in METHODS.items():
                if name == "taylor" and not taylor.available():
                    row.append("-")
                    continue
                if method == "taylor float64" and scale == 1e150:
                    with pytest.raises(OverflowError):
                        error_of(model, scale, method)
                    row.append("OverflowError")
                    continue
                error = error_of(model, scale, method)
                row.append(f"{error:.1e}")
                if not error <= tolerance:
                    failures.append((model, scale, method, error))
            lines.append(f"{model:18s} {scale:7.0e} " + " ".join(f"{r:>14s}" for r in row))
    with capsys.disabled():
        print("\n" + " " * 26 + " ".join(f"{m:>14s}" for m in METHODS) + "\n" + "\n".join(lines))
    assert not failures


# --- every part of the control matters: wrong variants are caught ---------------------------------------------


def _chain_decay(method: str, options: dict) -> float:
    """The balanced deep chain with S < 0 settling like 1/t from 0.3 to 3e-9 (a whole unit decaying, each
    component to be resolved relative to its own size), against the float64 closed form (within 4e-15 of the
    30-digit integration here)."""
    params, init = {"S": -0.492, "lam": 0.69}, {k: np.array([[0.3], [1e-3]]) for k in ("a1", "a2", "a3")}
    t = np.array([0.0, 1e3, 1e9])
    reference = trajectory("deep_scalar_chain", t, params, init)
    run = trajectory("deep_scalar_chain", t, params, init, method=method, **options)
    return float(np.max(np.abs(np.asarray(run["a1"], dtype=float) - reference["a1"]) / np.abs(reference["a1"])))


def _tiny_beside_fast() -> float:
    """lambda_balanced: a slow unit at 1e-40 (at the saddle, S = 2) growing to ~1 beside a fast one (S = 50,
    relaxing at rate ~100) of ~7: each resolved relative to its own size, within 5000 steps (inf beyond)."""
    params, init = {"S": np.array([2.0, 50.0])}, {"a": np.array([1e-40, 1e-3]), "b": np.array([0.0, 2e-3])}
    t = np.array([0.0, 10.0, 30.0, 60.0])
    reference = trajectory("lambda_balanced", t, params, init, dps=50)
    try:
        run = trajectory("lambda_balanced", t, params, init, method="taylor", max_steps=5000)
    except BudgetError:
        return float("inf")
    return worst_error(run, reference)


def _exponential_decay() -> float:
    """linear_model at S = 0: theta = e^-t from 1 to 9e-14 (t = 30), the largest error relative to theta itself
    (the control: 2e-15)."""
    params, init, t = {"S": 0.0, "lam": 1.0}, {"theta": np.array([1.0])}, np.array([0.0, 10.0, 20.0, 30.0])
    run = trajectory("linear_model", t, params, init, method="taylor")
    exact = np.exp(-t)
    return float(np.max(np.abs(np.asarray(run["theta"], dtype=float)[:, 0] / exact - 1)))


def _slow_beside_tiny() -> float:
    params = {"gamma": 1.3958251123739507, "eta_u": 0.37616430528669176, "eta_w": 0.1852715379186675}
    params |= {"a": 0.11349597326507055, "b": 0.3}
    init, t = {"u": np.array([1.36821167]), "w": np.array([-9.05230607e-243])}, np.array([1.9344992362139308, 4.17])
    reference = trajectory("layerwise_lr_linear", t, params, init, dps=50)
    return worst_error(trajectory("layerwise_lr_linear", t, params, init, method="taylor"), reference, ("u", "w"))


def _fast_start(method: str, options: dict) -> float:
    return error_of("two_layer_scalar", 1e10, "taylor float64" if method == "taylor" else "mpmath dps=30")


@needs_heyoka
def test_the_right_variant_passes_the_checks_of_the_wrong_ones() -> None:
    assert _chain_decay("taylor", {}) <= 2e-14
    assert _exponential_decay() <= 1e-14
    assert _tiny_beside_fast() <= 1e-14
    assert _fast_start("taylor", {}) <= 1e-14
    assert _fast_start("mpmath", {}) <= 1e-29


class _Frozen(error_control.Scales):
    """No rescaling: the scales of the start throughout (the slow unit's scaled value grows by 1e40, and heyoka's
    control, relative to the largest, steps the fast unit by the slow one's time scale: it falls apart)."""

    def outside(self, sizes: np.ndarray) -> bool:
        return False

    def update(self, values: object) -> np.ndarray:
        return np.zeros_like(self.exponents)


@needs_heyoka
def test_no_scaling_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scale 1 and time unit 1 throughout (heyoka's own control): the saddle is never left."""
    monkeypatch.setattr(taylor, "Scales", _Frozen)
    monkeypatch.setattr(taylor, "initial_exponents", lambda values, width: [0] * len(values))
    monkeypatch.setattr(taylor, "_time_unit", lambda speed, exponents: 0)
    params, init, t = {"S": 10.0, "Z": 1.0}, {"a": np.array([1e-40]), "b": np.array([0.0])}, np.array([0.0, 10.0])
    reference = trajectory("two_layer_scalar", t, params, init, dps=50)
    # since the steps are capped at two time units heyoka leaves the saddle, but only to heyoka's absolute 1e-16
    # at the start's 1e-40: 1e-4 off (the control: 1e-15)
    assert worst_error(trajectory("two_layer_scalar", t, params, init, method="taylor"), reference) > 1e-8


@needs_heyoka
def test_frozen_scales_are_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The start's scales kept (no rescaling): refuted by the slow tiny unit beside the fast one, and by the
    decaying chain (resolved then relative to its start only)."""
    monkeypatch.setattr(taylor, "Scales", _Frozen)
    assert _tiny_beside_fast() > 1e-6
    assert _chain_decay("taylor", {}) > 1e-13


@needs_heyoka
def test_a_floor_far_too_loose_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A floor of the unit's largest value so far (0 bits below it: the absolute tolerance rtol * max |y|): the
    decaying chain keeps only the digits of its start."""
    monkeypatch.setattr(taylor, "_bits", lambda kind, prec: 0)
    assert _chain_decay("taylor", {}) > 1e-13


@needs_heyoka
def test_a_scale_that_never_shrinks_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the periodic resumptions (every ``RELOAD_STEPS`` steps) move the scales then: the exponential decay
    reaches its floor (2^-53 of its start) in about 25 steps, integrated to heyoka's absolute 1e-16 of its start."""
    monkeypatch.setattr(error_control, "SHRINK", 0.0)
    assert _exponential_decay() > 5e-13


@needs_heyoka
def test_a_growth_threshold_far_too_loose_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(error_control, "GROWTH", 1e30)
    assert _tiny_beside_fast() > 1e-10


@needs_heyoka
def test_a_slow_component_beside_a_tiny_fast_one() -> None:
    """The fuzz's reproducer (layerwise_lr_linear, u = 1.37 beside w = -9e-243 growing at a relative rate of
    1e240): u never moved (2.5e-2 off at t = 1.93, no error) when one step of the fast component's time unit,
    read off float64 coefficients that vanish for u, crossed the whole horizon."""
    assert _slow_beside_tiny() <= 1e-14


@needs_heyoka
def test_steps_without_a_cap_are_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(taylor, "STEP_CAP", float("inf"))
    assert _slow_beside_tiny() > 1e-3


@needs_heyoka
def test_times_that_coincide_in_the_time_unit() -> None:
    """t = 5e-324 and 0 are one time in a start's unit of 2^k (k > 0, a slow start): heyoka refused the grid
    (``ValueError: A non-monotonic time grid``), a valid call refused; now one point, the start's state."""
    params, init = {"S": -0.5192031673232229, "Z": 1.4260698817160662e86}, {"a": np.array([2.2]), "b": np.array([-1.0])}
    t = np.array([3.494670058911295, 2.771611418325445e-249, 0.6838490975419055, 5e-324, 0.0])
    reference = trajectory("two_layer_scalar", t, params, init, dps=50)
    run = trajectory("two_layer_scalar", t, params, init, method="taylor")
    assert np.array_equal(run["t"], t)
    assert worst_error(run, reference) <= 1e-14


@needs_heyoka
def test_no_time_unit_is_refuted_in_heyoka(monkeypatch: pytest.MonkeyPatch) -> None:
    """Time 1 for a start of 1e10 (rate ~1e20): its Taylor coefficients overflow float64."""
    monkeypatch.setattr(taylor, "_time_unit", lambda speed, exponents: 0)
    with pytest.raises(OverflowError):
        _fast_start("taylor", {})


def test_no_time_unit_is_refuted_in_mpmath(monkeypatch: pytest.MonkeyPatch) -> None:
    """Time 1 for a start of 1e10: odefun's finite differences of Euler steps of length tol are then accurate to
    tol times the rate, 1e-14."""
    monkeypatch.setattr(integrate, "first_time_unit", lambda rate: 0)
    monkeypatch.setattr(integrate, "next_time_unit", lambda unit, reach: 0)
    assert _fast_start("mpmath", {}) > 1e-20


def test_mpmath_without_scaling_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scale 1 and time unit 1 (odefun's control, its series at 40 more bits): a fast start of 1e-66 (S = 50)
    takes odefun's steps of 1/2, 25 time scales, and is 3e-5 off; with the control, 2.5e-32."""
    params, init, t = {"S": np.array([50.0])}, {"a": np.array([1e-66]), "b": np.array([0.0])}, np.array([0.0, 0.5, 1])
    reference = trajectory("lambda_balanced", t, params, init, dps=50)
    assert worst_error(trajectory("lambda_balanced", t, params, init, method="mpmath"), reference) <= 1e-29
    monkeypatch.setattr(integrate, "Scales", _Frozen)
    monkeypatch.setattr(integrate, "initial_exponents", lambda values, width: [0] * len(values))
    monkeypatch.setattr(integrate, "first_time_unit", lambda rate: 0)
    monkeypatch.setattr(integrate, "next_time_unit", lambda unit, reach: 0)
    assert worst_error(trajectory("lambda_balanced", t, params, init, method="mpmath"), reference) > 1e-10
