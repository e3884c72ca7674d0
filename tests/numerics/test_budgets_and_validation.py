"""Issue 13: bad input refused before the work (naming the argument), step budgets checked up front (and counted),
and no silent garbage from ``trajectory``, the ``linear_network`` helpers, the Riccati evaluation,
``reduced_trajectory`` and ``width_sweep``."""

from __future__ import annotations

import contextlib
import math
import os
import re

import mpmath
import numpy as np
import pytest

from derivations.models.linear_network import linear_network
from numerics import linear_network as ln
from numerics import reduced_trajectory, riccati_mpmath, riccati_numpy, taylor, trajectory
from numerics.budget import (
    MAX_STEPS,
    TAYLOR_SAMPLE_STEPS,
    TAYLOR_STEP_RATE,
    BudgetError,
    gd_steps,
    mpmath_step_weight,
    taylor_projection,
)
from numerics.methods import dop853 as dop853_method
from numerics.methods import gradient_descent as gradient_descent_method
from numerics.methods import odefun as odefun_method
from numerics.methods import taylor as taylor_method
from proofs_check.papers.xu_ziyin2025.phase import width_sweep

SCALAR = ("two_layer_scalar", {"S": 1.0, "Z": 1.0}, {"a": np.array([0.5, -0.2]), "b": np.array([0.3, 0.4])})
MODEL, PARAMS, INIT = SCALAR


@contextlib.contextmanager
def no_work(monkeypatch):
    """Inside: entering the GD loop, mpmath's, DOP853's or heyoka's integration fails the test (a budget must refuse
    first)."""

    def work(*args, **kwargs):
        raise AssertionError("the work started before the budget refused it")

    with monkeypatch.context() as patch:
        patch.setattr(gradient_descent_method, "gradient_descent", work)
        patch.setattr(odefun_method, "integrate_mpmath", work)
        patch.setattr(dop853_method, "integrate_scipy", work)
        patch.setattr(taylor_method, "integrate_taylor", work)
        patch.setattr(taylor, "_integrator", work)
        yield


LAYERWISE = {"gamma": 1.0, "eta_u": 1.0, "eta_w": 1.0, "a": 1.0, "b": 1.0}


# --- wrong types: a TypeError (also a ValueError) naming the argument, never an error from inside -------------
WRONG_TYPES = {
    "params None": (dict(params=None), r"params must be a mapping"),
    "init None": (dict(init=None), r"init must be a mapping"),
    "init a string": (dict(init="ab"), r"init must be a mapping"),
    "model a list": (dict(model=["two_layer_scalar"]), r"model must be a model name"),
    "complex init": (dict(init={**INIT, "a": INIT["a"] + 1j}), r"init\['a'\].*complex"),
    "complex params": (dict(params={**PARAMS, "S": 1 + 0j}), r"params\['S'\].*complex"),
    "complex t": (dict(t=np.array([1.0 + 0j])), r"\bt\b.*complex"),
    "boolean t": (dict(t=True), r"\bt\b.*booleans"),
    "boolean init": (dict(init={**INIT, "b": np.array([True, False])}), r"init\['b'\].*booleans"),
    "string lr": (dict(method="gd", lr="0.1"), r"\blr\b"),
    "boolean dps": (dict(dps=True), r"\bdps\b"),
    "float max_steps": (dict(method="scipy", max_steps=2.5), r"max_steps"),
}


BAD_VALUES = {
    "empty t (scipy)": (dict(t=[], method="scipy"), r"\bt\b must hold at least one time"),
    "ragged init": (dict(init={**INIT, "a": [[1.0, 2.0], [3.0]]}), r"init\['a'\].*rectangular"),
    "init beyond float64": (dict(init={**INIT, "a": [10**400, 1]}), r"init\['a'\].*finite"),
    "dps 10**5": (dict(dps=10**5), r"\bdps\b.*\[15, 10000\]"),
    "dps above max_dps": (dict(dps=40, max_dps=30), r"\bdps\b.*\[15, 30\]"),
    "max_steps 0": (dict(method="mpmath", max_steps=0), r"max_steps"),
    "max_steps with closed form": (dict(max_steps=10), r"max_steps is only used"),
}


CASES = {**{k: (TypeError, *v) for k, v in WRONG_TYPES.items()}, **{k: (ValueError, *v) for k, v in BAD_VALUES.items()}}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_arguments_are_refused_naming_them(case) -> None:
    """Wrong types are ``TypeError`` (also ``ValueError``, for callers that catch one), bad values ``ValueError``."""
    error, changes, pattern = CASES[case]
    kwargs = {"model": MODEL, "t": [0.0, 1.0], "params": PARAMS, "init": INIT, **changes}
    with pytest.raises(error, match=pattern):
        trajectory(kwargs.pop("model"), kwargs.pop("t"), kwargs.pop("params"), kwargs.pop("init"), **kwargs)


HEYOKA = pytest.mark.skipif(not taylor.available(), reason="heyoka (the optional extra [taylor]) is not installed")


@pytest.mark.parametrize(
    "options",
    [
        {"method": "gd", "lr": 0.1},
        {"method": "mpmath"},
        {"method": "scipy"},
        pytest.param({"method": "taylor"}, marks=HEYOKA),
    ],
)
def test_no_work_sees_the_work_of_a_call_within_budget(options, monkeypatch) -> None:
    """The tests of refusals "at once" can fail: a call within its budget does reach the patched work."""
    with no_work(monkeypatch), pytest.raises(AssertionError, match="work started"):
        trajectory(MODEL, [0.2], PARAMS, INIT, **options)


# --- gradient descent: exact step counts or refused ---------------------------------------------------------
def test_gd_times_must_be_multiples_of_lr() -> None:
    with pytest.raises(ValueError, match=r"integer multiples of lr.*1\.5 × lr"):
        trajectory(MODEL, [0.015], PARAMS, INIT, method="gd", lr=0.01)
    # within the relative tolerance (0.3 / 0.1 = 2.9999999999999996) the step count is exact
    np.testing.assert_array_equal(gd_steps(np.array([0.0, 0.3, 0.1 * 7]), 0.1, 10), [0, 3, 7])
    one = trajectory(MODEL, [0.3], PARAMS, INIT, method="gd", lr=0.1)
    steps = trajectory(MODEL, [0.1, 0.2, 0.3], PARAMS, INIT, method="gd", lr=0.1)
    np.testing.assert_array_equal(one["a"][0], steps["a"][2])


@pytest.mark.parametrize(("t", "lr"), [(1e20, 1e-3), (0.5, 1e-9), (1e300, 1e-300)])
def test_gd_beyond_the_step_budget_is_refused_at_once(t, lr, monkeypatch) -> None:
    with no_work(monkeypatch), pytest.raises(BudgetError, match=r"max_steps = 1000000.*pass a larger max_steps"):
        trajectory(MODEL, [t], PARAMS, INIT, method="gd", lr=lr)
    with pytest.raises(BudgetError, match=r"max_steps = 10\b"):
        trajectory(MODEL, [1.1], PARAMS, INIT, method="gd", lr=0.1, max_steps=10)
    assert trajectory(MODEL, [1.0], PARAMS, INIT, method="gd", lr=0.1, max_steps=10)["a"].shape == (1, 2)


def test_gd_divergence_is_an_overflow_error_naming_lr() -> None:
    with pytest.raises(OverflowError, match=r"diverged.*lr = 3\.0"):
        trajectory(MODEL, [300.0], {"S": 1.0, "Z": 1.0}, {"a": np.array([3.0]), "b": np.array([3.0])}, "gd", lr=3.0)


def test_gd_on_the_linear_model_is_exact() -> None:
    """Against θ_k = S + (1 − lr λ)^k (θ_0 − S), typed in (a wrong step count would be off by a factor)."""
    S, lam, theta0, lr = np.array([1.0, -2.0]), np.array([0.5, 2.0]), np.array([0.3, 0.7]), 0.05
    r = trajectory("linear_model", [0.0, 0.35, 1.0], {"S": S, "lam": lam}, {"theta": theta0}, "gd", lr=lr)
    k = np.array([0, 7, 20])[:, None]
    np.testing.assert_allclose(r["theta"], S + (1 - lr * lam) ** k * (theta0 - S), rtol=1e-14)
    assert not np.allclose(r["theta"][1], S + (1 - lr * lam) ** 6 * (theta0 - S), rtol=1e-6)


# --- mpmath and DOP853: estimated up front, mpmath also counted -------------------------------------------
@pytest.mark.parametrize(
    ("t", "init", "method"),
    [
        (1e6, INIT, "mpmath"),
        (1.0, {"a": np.array([1e100, 2e100]), "b": np.array([1e100, -1e100])}, "mpmath"),
        (1e12, INIT, "scipy"),
        pytest.param(1e12, INIT, "taylor", marks=HEYOKA),
        pytest.param(1.0, {"a": np.array([1e10, 2e10]), "b": np.array([1e10, -1e10])}, "taylor", marks=HEYOKA),
    ],
)
def test_flow_budgets_refuse_at_once(t, init, method, monkeypatch) -> None:
    expected = rf"method='{method}' would need about .* max_steps = {MAX_STEPS[method]}"
    with no_work(monkeypatch), pytest.raises(BudgetError, match=expected):
        trajectory(MODEL, [t], PARAMS, init, method=method)


def test_mpmath_steps_are_counted_and_weighted_by_dps() -> None:
    """1 Taylor step at 30 digits is the unit; the up-front estimate passes (a budget of 8 for t = 1) but the run
    is counted: with 4 allowed the integration stops inside mpmath.odefun."""
    assert mpmath_step_weight(30) == 1 and mpmath_step_weight(100) > 50
    with pytest.raises(BudgetError, match=r"took more than max_steps = 4"):
        trajectory(MODEL, [1.0], PARAMS, INIT, method="mpmath", max_steps=4, dps=30)
    # at least 2 steps per unit time (mpmath.odefun's steps are at most 1/2), each worth 57 at 30 digits
    with pytest.raises(BudgetError, match=r"one at dps = 100 counts"):
        trajectory(MODEL, [20.0], PARAMS, INIT, method="mpmath", dps=100)
    assert trajectory(MODEL, [1.0], PARAMS, INIT, method="mpmath", max_steps=40, dps=20)["a"].shape == (1, 2)


def test_the_mpmath_budget_is_per_call_summed_over_the_batch(monkeypatch) -> None:
    """Issue 27: four starts of t = 5 are estimated at 4 × 10 Taylor steps (steps of at most 1/2): refused at once
    with max_steps = 20, which one start's estimate (10) passes; while integrating, the count is shared too (one
    start takes 21 to 40 steps: 80 for the batch is too few, 160 enough) and the batch is answered start by start."""
    batch = {k: np.stack([v] * 4) for k, v in INIT.items()}
    with no_work(monkeypatch), pytest.raises(BudgetError, match=r"about 40 .* over the batch of 4 starts .*= 20;"):
        trajectory(MODEL, [5.0], PARAMS, batch, method="mpmath", max_steps=20)
    with no_work(monkeypatch), pytest.raises(AssertionError, match="work started"):
        trajectory(MODEL, [5.0], PARAMS, INIT, method="mpmath", max_steps=20)
    with pytest.raises(BudgetError, match=r"took more than max_steps = 80 .* over the batch of 4 starts"):
        trajectory(MODEL, [5.0], PARAMS, batch, method="mpmath", max_steps=80)
    one = trajectory(MODEL, [5.0], PARAMS, INIT, method="mpmath", max_steps=40)
    four = trajectory(MODEL, [5.0], PARAMS, batch, method="mpmath", max_steps=160)
    assert four["a"].shape == (1, 4, 2) and all(np.array_equal(four["a"][:, j], one["a"]) for j in range(4))


@HEYOKA
def test_taylor_refuses_at_once_far_beyond_its_budget(monkeypatch) -> None:
    """Issue 27: taylor counted its steps only, so t = 1e12, which DOP853's estimate refuses at once, ran 10⁶ steps
    (9–30 s) before its refusal. Stage 1 of the estimate (t × rate / TAYLOR_STEP_RATE, per start, no integrator)
    refuses it with no work; t = 1e4 (1e4 × 1.17 / 1000 = 11.7 steps estimated, 272 counted) is refused by it with a
    budget of 2, and by the sample (stage 2: 12 steps short of t) with 12, and integrated within the default budget,
    right against the closed form."""
    assert TAYLOR_STEP_RATE == 1000.0
    for method in ("scipy", "taylor"):
        with no_work(monkeypatch), pytest.raises(BudgetError, match=rf"method='{method}' would need about"):
            trajectory(MODEL, [1e12], PARAMS, INIT, method=method)
    with no_work(monkeypatch), pytest.raises(BudgetError, match=r"would need about 11\.7 heyoka .*max_steps = 2;"):
        trajectory(MODEL, [1e4], PARAMS, INIT, method="taylor", max_steps=2)
    with no_counted_taylor(monkeypatch), pytest.raises(BudgetError, match=r"needs more than max_steps = 12 .*sample"):
        trajectory(MODEL, [1e4], PARAMS, INIT, method="taylor", max_steps=12)
    batch = {k: np.stack([v] * 4) for k, v in INIT.items()}
    with no_work(monkeypatch), pytest.raises(BudgetError, match=r"about 11\.7 .*fastest of the batch of 4 starts"):
        trajectory(MODEL, [1e4], PARAMS, batch, method="taylor", max_steps=2)
    run = trajectory(MODEL, [1e4], PARAMS, batch, method="taylor")
    exact = trajectory(MODEL, [1e4], PARAMS, INIT)
    for j in range(4):
        np.testing.assert_allclose(run["a"][:, j], exact["a"], rtol=1e-12)


@contextlib.contextmanager
def no_counted_taylor(monkeypatch):
    """Inside: heyoka's counted integration (``integrate_taylor``) fails the test, and the sample integrations of
    the estimate are recorded (start, steps) in the list yielded."""
    samples: list[tuple[int, int]] = []
    sample = taylor_method.sample_progress

    def recorded(*args, **kwargs):
        samples.append(args[4:6])
        return sample(*args, **kwargs)

    def work(*args, **kwargs):
        raise AssertionError("the counted integration started before the budget refused it")

    with monkeypatch.context() as patch:
        patch.setattr(taylor_method, "integrate_taylor", work)
        patch.setattr(taylor_method, "sample_progress", recorded)
        yield samples


LAMBDA_BALANCED = (
    "lambda_balanced",
    {"S": np.array([2.0, 1.5])},
    {"a": np.array([1.0, -0.6]), "b": np.array([0.1, 0.4])},
)


@HEYOKA
def test_taylor_refuses_from_a_sample_integration_what_is_clearly_beyond_its_budget(monkeypatch) -> None:
    """Issue 27: λ-balanced to t = 1e7 takes some 0.6 heyoka steps per unit time (5.7e6 steps): stage 1 passes it
    (its rate estimate is a bound for flows that stop stepping), and it ran 10⁶ counted steps (some 20 s) before its
    refusal. The sample (1024 steps, to t ≈ 1760) projects 4.3e6, beyond twice the budget: refused before the
    counted integration. t = 3e4 with max_steps = 6000 (projected 1.6e4) too, while t = 1e4 (5400 steps) runs with
    6000, and t = 2e4 (projected 1.1e4, within the margin of 2) is left to the count, which refuses it."""
    model, params, init = LAMBDA_BALANCED
    for t, budget, projected in ((1e7, None, r"4\.\d+e\+06"), (3e4, 6000, r"1\.\d+e\+04")):
        with no_counted_taylor(monkeypatch) as samples, pytest.raises(BudgetError) as refusal:
            trajectory(model, [t], params, init, method="taylor", max_steps=budget)
        assert samples == [(0, TAYLOR_SAMPLE_STEPS)]
        message = str(refusal.value)
        assert re.search(rf"would need about {projected} heyoka .*sample integration of 1024 steps", message)
        assert re.search(rf"max_steps = {budget or MAX_STEPS['taylor']}; pass a larger max_steps", message)
    with no_counted_taylor(monkeypatch), pytest.raises(AssertionError, match="counted integration started"):
        trajectory(model, [2e4], params, init, method="taylor", max_steps=6000)
    with pytest.raises(BudgetError, match=r"\(float64\) needs more than max_steps = 6000"):
        trajectory(model, [2e4], params, init, method="taylor", max_steps=6000)
    run = trajectory(model, [1e4], params, init, method="taylor", max_steps=6000)
    np.testing.assert_allclose(run["a"], trajectory(model, [1e4], params, init, method="scipy")["a"], rtol=1e-9)


@HEYOKA
def test_taylor_runs_what_its_sample_sees_stop_stepping(monkeypatch) -> None:
    """A flow reaching its fixed point exactly in float64 (two_layer_scalar: 272 steps to any t) and one settling
    like 1/t (the deep chain: some 11 steps per factor 4 of t, 148 steps to t = 1e9) are integrated within budgets
    that their rate of steps at the start would break a thousandfold (stage 1 passes them, 1.17e5 < 2e5 and
    2.3e5 < 10⁶): their samples reach t_max."""
    chain = ("deep_scalar_chain", {"S": -0.492, "lam": 0.69}, {k: [0.3] for k in ("a1", "a2", "a3")})
    for (model, params, init), t, budget in ((SCALAR, 1e8, 200_000), (chain, 1e9, None)):
        with no_counted_taylor(monkeypatch) as samples, pytest.raises(AssertionError, match="counted integration"):
            trajectory(model, [t], params, init, method="taylor", max_steps=budget)
        assert samples == [(0, TAYLOR_SAMPLE_STEPS)]
        run = trajectory(model, [t], params, init, method="taylor", max_steps=budget)
        assert all(np.isfinite(run[name]).all() for name in init)


def test_the_taylor_projection_follows_the_rate_of_steps_as_the_sample_saw_it() -> None:
    """taylor_projection on synthetic samples, against their own laws of steps: a constant rate of 2 steps per unit
    time (512 steps to t = 256) projects 2 × 10⁴ steps to t = 10⁴; a rate falling like 1/t (10 steps per doubling
    of t from t = 1: n = 10 log2 t) projects 10 log2(1e30) = 996.6 to t = 1e30, where the last half's rate taken
    as constant (the wrong variant) gives some 10²⁸; a rate falling like t^-1/2 (n = 40 √t) projects 40 √t_max; a
    flow speeding up is projected at the last half's rate (from (2, 300) to (3, 700): 400 per unit time)."""
    constant = [(k / 2, k) for k in range(64, 513, 64)]
    assert taylor_projection(constant, 1e4) == pytest.approx(2e4, rel=1e-12)
    settling = [(2.0**k, 10 * k) for k in range(1, 11)]
    projected = taylor_projection(settling, 1e30)
    assert projected == pytest.approx(10 * math.log2(1e30), rel=1e-6)
    assert 1e25 * projected < (100 - 50) / (2.0**10 - 2.0**5) * 1e30
    root = [(float(k * k), 40 * k) for k in range(1, 33)]
    assert taylor_projection(root, 1e8) == pytest.approx(40 * 1e4, rel=1e-6)
    speeding = [(1.0, 100), (2.0, 300), (3.0, 700)]
    assert taylor_projection(speeding, 10.0) == pytest.approx(700 + 400 * 7, rel=1e-12)


def test_dps_at_its_maximum_is_answered_and_above_is_refused() -> None:
    """dps = 10 000 is answered (its first 45 digits those of dps = 50); one digit more is refused."""
    high = trajectory(MODEL, [1.0], PARAMS, INIT, dps=10_000)["a"][0, 0]
    low = trajectory(MODEL, [1.0], PARAMS, INIT, dps=50)["a"][0, 0]
    with mpmath.workdps(60):
        assert abs(mpmath.mpf(high) - mpmath.mpf(low)) <= mpmath.mpf(10) ** -45 * abs(mpmath.mpf(low))
    with pytest.raises(ValueError, match=r"\bdps\b"):
        trajectory(MODEL, [1.0], PARAMS, INIT, dps=10**5)


# --- no silent garbage ----------------------------------------------------------------------------------------
def test_states_beyond_float64_are_an_overflow_error_and_so_are_quantities() -> None:
    """Weights of 1e150: the states are representable (and right), their squares (the loss) are not: an
    OverflowError naming the loss (issue 23; it was +inf), while the states alone are returned. GD from there
    overflows its states: an OverflowError naming lr."""
    init = {"u": np.array([1e150, 2e150]), "w": np.array([3e150, -1e150])}
    with pytest.raises(OverflowError, match=r"'loss'"):
        trajectory("layerwise_lr_linear", [0.0, 1.0], LAYERWISE, init)
    r = trajectory("layerwise_lr_linear", [0.0, 1.0], LAYERWISE, init, quantities=("output",))
    exact = trajectory("layerwise_lr_linear", [0.0, 1.0], LAYERWISE, init, dps=30)
    np.testing.assert_allclose(r["u"], np.vectorize(float)(exact["u"]), rtol=1e-13)
    assert exact["loss"][0] > mpmath.mpf(10) ** 599
    with pytest.raises(OverflowError, match=r"lr = 0\.1"):
        trajectory("layerwise_lr_linear", [1.0], LAYERWISE, init, method="gd", lr=0.1)


def test_repeated_times_are_one_evaluation() -> None:
    for method in ("scipy", "closed_form"):
        r = trajectory(MODEL, [0.0, 0.0, 1.0, 1.0], PARAMS, INIT, method=method)
        np.testing.assert_array_equal(r["a"][0], r["a"][1])
        np.testing.assert_array_equal(r["a"][2], r["a"][3])


# --- linear_network: realizable moments ---------------------------------------------------------------------
def _network_init() -> dict:
    return ln.weights_to_init(np.full((3, 2), 0.1), np.full((2, 2), 0.1))


@pytest.mark.parametrize(
    ("Sxx", "Sxy", "Syy", "pattern"),
    [
        (-np.eye(3), np.ones((3, 2)), None, r"Sxx must have a diagonal >= 0"),
        (np.eye(3), np.ones((3, 2)), np.zeros((2, 2)), r"Syy has Syy_1_1 = 0 but Sxy_1_1 = 1\.0"),
        (np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), np.ones((3, 2)), None, r"Sxx must be positive"),
        (np.eye(3), np.ones((3, 2)), np.eye(2), r"Sxy must be realizable with Sxx and Syy"),
    ],
)
def test_unrealizable_moments_are_refused_naming_the_block(Sxx, Sxy, Syy, pattern) -> None:
    with pytest.raises(ValueError, match=pattern):
        ln.moment_params(Sxx, Sxy, Syy)


def test_trajectory_refuses_unrealizable_moments_and_keeps_the_loss_nonnegative() -> None:
    """Issue 17: Σxx = −I was integrated and reported a loss of −3.97 at t = 0. The model's ``param_check``
    refuses it in ``trajectory`` too (params written by hand); the realizable default Syy (rank-deficient joint
    moments) is accepted and the loss at the teacher is 0."""
    params = ln.moment_params(np.eye(3), np.ones((3, 2)))
    bad = {**params, "Sxx_1_1": -1.0, "Sxx_2_2": -1.0, "Sxx_3_3": -1.0}
    with pytest.raises(ValueError, match=r"Sxx must have a diagonal >= 0"):
        trajectory(linear_network(3, 2), [0.0], bad, _network_init(), method="scipy")
    with pytest.raises(ValueError, match=r"Syy has Syy_1_1 = 0"):
        trajectory(linear_network(3, 2), [0.0], {**params, "Syy_1_1": 0.0}, _network_init(), method="scipy")
    run = trajectory(linear_network(3, 2), [0.0, 20.0], params, _network_init(), method="scipy")
    assert np.all(run["loss"] >= -1e-14) and run["loss"][-1] < 1e-10


def test_moments_whose_forced_moment_underflows_are_accepted() -> None:
    """Sxy = 1e-200 forces E[y²] >= 1e-400, which float64 rounds to the 0 of the default Syy."""
    params = ln.moment_params(np.eye(1), np.array([[1e-200]]))
    assert params["Syy_1_1"] == 0.0
    with pytest.raises(ValueError, match=r"Syy has Syy_1_1 = 0"):
        ln.moment_params(np.eye(1), np.array([[1e-150]]), np.zeros((1, 1)))


# --- linear_network helpers -----------------------------------------------------------------------------------
HELPER_CALLS = {
    "complex W1": (lambda: ln.weights_to_init(np.ones((2, 2)) + 1j, np.ones((2, 1))), TypeError, r"\bW1\b"),
    "orientation not a string": (lambda: ln.weights_to_init(np.ones((2, 2)), np.ones((2, 1)), 3), ValueError, "orient"),
    "batch axes differ": (lambda: ln.weights_to_init(np.ones((3, 2, 2)), np.ones((2, 1))), ValueError, "batch axes"),
    "a gap in the rows": (
        lambda: ln.init_to_weights({"W1_1": np.ones(2), "W1_3": np.ones(2), "W2T_1": np.ones(2)}),
        ValueError,
        r"W1_1 … W1_n without gaps",
    ),
    "a bad row key": (lambda: ln.init_to_weights({"W1_x": np.ones(2)}), ValueError, r"'W1_x'"),
    "state not a mapping": (lambda: ln.init_to_weights([1.0]), TypeError, r"\bstate\b"),
    "nan rho": (lambda: ln.lambda_balanced_singular_values(np.array([np.nan]), 1.0), ValueError, r"\brho\b"),
    "frames not orthonormal": (
        lambda: ln.aligned_weights(np.ones((2, 1)), np.eye(1), np.eye(1), np.ones(1), np.ones(1)),
        ValueError,
        r"\bU\b must have orthonormal columns",
    ),
    "X with complex entries": (lambda: ln.ntk_gram(np.eye(2), np.eye(2), np.eye(2) + 1j), TypeError, r"\bX\b"),
    "Gram beyond float64": (lambda: ln.ntk_gram(np.full((1, 1), 1e200), np.eye(1), np.eye(1)), OverflowError, "W1"),
    "kernels of two shapes": (lambda: ln.kernel_distance(np.eye(2), np.eye(3)), ValueError, r"K0 and Kt"),
    "steps beyond the budget": (
        lambda: ln.matrix_gradient_descent(np.eye(2), np.eye(2), np.eye(2), np.eye(2), 0.01, 10**9),
        ValueError,
        r"\bsteps\b.*1000000",
    ),
    "GD diverges": (
        lambda: ln.matrix_gradient_descent(np.full((1, 1), 10.0), np.full((1, 1), 10.0), np.eye(1), np.eye(1), 1.0, 50),
        OverflowError,
        r"\blr = 1\.0",
    ),
}


@pytest.mark.parametrize("case", list(HELPER_CALLS))
def test_linear_network_helpers_refuse_bad_input(case) -> None:
    call, error, pattern = HELPER_CALLS[case]
    with pytest.raises(error, match=pattern):
        call()


def test_singular_values_and_kernel_distance_without_cancellation() -> None:
    """λ ≫ ρ: the old form sqrt((sqrt(λ² + 4ρ²) − λ)/2) gives 0 for the small singular value; it is ρ/λ^{1/2}.
    Nearly parallel kernels: 1 − cos cancels to 0 or rounding noise; ½|K̂₀ − K̂ₜ|² keeps the digits."""
    s1, s2 = ln.lambda_balanced_singular_values(np.array([1e-10, 1e200]), 1e10)
    np.testing.assert_allclose(s1 * s2, [1e-10, 1e200], rtol=1e-15)
    np.testing.assert_allclose(s2**2 - s1**2, [1e10, s2[1] ** 2 - s1[1] ** 2], rtol=1e-15)
    assert s1[0] == pytest.approx(1e-15, rel=1e-15)
    K = np.array([[2.0, 0.5], [0.5, 1.0]])
    Kt = K + np.array([[0.0, 1e-9], [1e-9, 0.0]])
    with mpmath.workdps(50):
        dot = mpmath.fsum(mpmath.mpf(a) * mpmath.mpf(b) for a, b in zip(K.ravel(), Kt.ravel(), strict=True))
        n0 = mpmath.sqrt(mpmath.fsum(mpmath.mpf(a) ** 2 for a in K.ravel()))
        nt = mpmath.sqrt(mpmath.fsum(mpmath.mpf(b) ** 2 for b in Kt.ravel()))
        expected = 1 - dot / (n0 * nt)
    assert float(ln.kernel_distance(K, Kt)) == pytest.approx(float(expected), rel=1e-6)
    naive = 1 - np.sum(K * Kt) / (np.linalg.norm(K) * np.linalg.norm(Kt))
    assert abs(naive - float(expected)) > 1e-3 * float(expected)  # the cancelling form is off
    assert ln.kernel_distance(1e200 * K, 1e200 * Kt) == ln.kernel_distance(K, Kt)


# --- Riccati evaluation ---------------------------------------------------------------------------------------
def test_riccati_refuses_times_past_a_blow_up() -> None:
    """y' = y², y(0) = 1 is 1/(1 − t): defined for t < 1 only."""
    assert float(riccati_numpy(1.0, 0.0, 0.0, 1.0, 0.5)) == pytest.approx(2.0, rel=1e-15)
    assert riccati_mpmath(1, 0, 0, 1, mpmath.mpf("0.5")) == 2
    for evaluate in (riccati_numpy, riccati_mpmath):
        with pytest.raises(ValueError, match=r"\bt\b must be before the blow-up"):
            evaluate(1.0, 0.0, 0.0, 1.0, 1.5)
        with pytest.raises(ValueError, match=r"\bt\b must be >= 0"):
            evaluate(1.0, 0.0, 0.0, 1.0, -0.5)
        with pytest.raises(ValueError, match=r"c1\*\*2 - 4 c2 c0 must be >= 0"):
            evaluate(1.0, 0.0, 1.0, 0.0, 0.5)
    with pytest.raises(TypeError, match=r"\bc0\b"):
        riccati_mpmath(1.0, 0.0, "1", 0.0, 0.5)
    with pytest.raises(ValueError, match=r"broadcast"):
        riccati_numpy(np.ones(2), 0.0, 0.0, np.ones(3), 0.5)


# --- reduced trajectory and width sweeps ----------------------------------------------------------------------
POWER = {"gamma": 1.0, "eta_u": 1.0, "eta_w": 1.0, "a": 1.0, "b": 1.0}
POWER_INIT = {"u": np.array([0.3, 0.2]), "w": np.array([0.5, -0.1])}


def test_reduced_trajectory_budget_and_edge_times() -> None:
    with pytest.raises(BudgetError, match=r"max_steps = 2\b"):
        reduced_trajectory(2, [3.0], POWER, POWER_INIT, max_steps=2)
    with pytest.raises(ValueError, match=r"\bbeta\b"):
        reduced_trajectory(2.5, [1.0], POWER, POWER_INIT)
    repeated = reduced_trajectory(2, [1.0, 0.0, 1.0], POWER, POWER_INIT)
    np.testing.assert_array_equal(repeated["u"][0], repeated["u"][2])
    tiny = reduced_trajectory(2, [1e-307], POWER, POWER_INIT)
    np.testing.assert_allclose(tiny["u"][0], POWER_INIT["u"], rtol=1e-15)


def test_width_sweep_budget_and_arguments() -> None:
    with pytest.raises(BudgetError, match=r"max_total = 1000"):
        width_sweep("ntk", [100, 400], range(3), max_total=1000)
    with pytest.raises(ValueError, match=r"widths must be <= max_elements"):
        width_sweep("ntk", [10**9], range(1))
    with pytest.raises(TypeError, match=r"parametrization"):
        width_sweep(3, [100], range(1))
    with pytest.raises(TypeError, match=r"\bseeds\b"):
        width_sweep("ntk", [100], 5)


@pytest.mark.skipif(os.name != "posix", reason="budget timing on POSIX")
def test_every_refusal_above_is_made_before_the_work(monkeypatch) -> None:
    """The budgets refuse before the work: no integrator or GD loop is entered."""
    for call in (
        lambda: trajectory(MODEL, [1e6], PARAMS, INIT, method="mpmath"),
        lambda: trajectory(MODEL, [0.5], PARAMS, INIT, method="gd", lr=1e-9),
        lambda: trajectory(MODEL, [1.0], PARAMS, INIT, dps=10**5),
    ):
        with no_work(monkeypatch), pytest.raises(ValueError):
            call()
