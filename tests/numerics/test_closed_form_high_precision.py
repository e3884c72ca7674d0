"""High precision: the dps=30 closed form against a 30-digit integration of the derived flow, and the float64
closed form against Theorem 3 evaluated at 100 digits, far into the future and over twelve decades of
initial scale.

The integration of the derived vector field (independent of the closed form) is the ``reference_flow``
fixture: heyoka's MPFR Taylor integrator when the ``[taylor]`` extra is installed (~10-80 ms per example),
else ``mpmath.odefun`` (~1 s per unit pair at t ~ 10), where the default suite uses widths ≤ 4 and a handful
of examples; with heyoka the same time affords ten times as many examples.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics import trajectory
from numerics.taylor import available as taylor_available

# max_examples against the reference integrator: (with heyoka, with mpmath only)
EXAMPLES = 40 if taylor_available() else 3
EXAMPLES_WIDE = 60 if taylor_available() else 6
LONG_TIMES = np.array([0.0, 1e-6, 1e-3, 0.1, 1.0, 3.0, 10.0, 30.0, 100.0, 1e3, 1e4, 1e5, 1e6])


def as_mpf_matrix(result: dict, names: tuple[str, ...]) -> np.ndarray:
    return np.concatenate([np.asarray(result[n], dtype=object) for n in names], axis=-1)


def assert_all_mpf(array: np.ndarray) -> None:
    assert array.dtype == object
    assert all(isinstance(x, mpmath.mpf) for x in np.ravel(array))


@st.composite
def scalar_cases(draw: st.DrawFn, max_width: int, sides: tuple[str, ...]) -> tuple:
    p = draw(st.integers(1, max_width))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = 10.0 ** draw(st.floats(-0.5, 0.3))
    a0, b0 = scale * rng.standard_normal(p), scale * rng.standard_normal(p)
    S0 = float(np.sum(a0 * b0))
    side = draw(st.sampled_from(sides))
    S = S0 + (1.0 if side == "above" else -1.0) * draw(st.floats(0.1, 2.0))
    return a0, b0, S


def check_integrated_agreement(a0: np.ndarray, b0: np.ndarray, S: float, t: np.ndarray, spec, reference_flow) -> None:
    params, init = {"S": S, "Z": 1.0}, {"a": a0, "b": b0}
    closed = trajectory("two_layer_scalar", t, params, init, dps=30)
    integrated = reference_flow("two_layer_scalar", t, params, init, dps=30)
    got, ref = as_mpf_matrix(closed, ("a", "b")), as_mpf_matrix(integrated, ("a", "b"))
    assert_all_mpf(got)
    assert_all_mpf(ref)
    assert spec.relative_error(got, ref) <= 1e-25
    assert spec.relative_error(closed["theta"][:, None], integrated["theta"][:, None]) <= 1e-25


@settings(max_examples=EXAMPLES)
@given(case=scalar_cases(max_width=4, sides=("above", "below")))
@example(case=(np.array([0.3, -0.8]), np.array([0.5, 0.4]), 1.5))
def test_two_layer_scalar_dps30_closed_form_vs_integrated(case, spec, reference_flow) -> None:
    a0, b0, S = case
    check_integrated_agreement(a0, b0, S, np.array([0.0, 0.5, 2.0]), spec, reference_flow)


@pytest.mark.slow
@settings(max_examples=EXAMPLES_WIDE)
@given(case=scalar_cases(max_width=16, sides=("above", "below")))
@example(case=(np.linspace(-1, 1, 16), np.linspace(0.5, -0.7, 16), -0.5))  # width 16, S < S0
@example(case=(np.linspace(-1, 1, 16) * 0.3, np.cos(np.arange(16.0)) * 0.3, 2.0))  # width 16, S > S0
def test_two_layer_scalar_dps30_closed_form_vs_integrated_wide(case, spec, reference_flow) -> None:
    a0, b0, S = case
    check_integrated_agreement(a0, b0, S, np.array([0.0, 1.0, 4.0]), spec, reference_flow)


def test_diagonal_and_linear_dps30_closed_form_vs_odefun(spec) -> None:
    t = np.array([0.0, 0.7, 2.0])
    a0, b0 = np.array([0.4, -1.1]), np.array([0.9, 0.6])
    params = {"S": np.array([1.3, -0.4]), "lam": np.array([1.0, 0.6])}
    closed = trajectory("diagonal_linear_network", t, params, {"a": a0, "b": b0}, dps=30)
    integrated = trajectory("diagonal_linear_network", t, params, {"a": a0, "b": b0}, method="mpmath", dps=30)
    assert spec.relative_error(as_mpf_matrix(closed, ("a", "b")), as_mpf_matrix(integrated, ("a", "b"))) <= 1e-25
    theta0 = np.array([0.5, -3.0, 0.0])
    lin = {"S": np.array([-1.0, 2.0, 0.25]), "lam": np.array([1.0, 0.5, 2.0])}
    closed = trajectory("linear_model", t, lin, {"theta": theta0}, dps=30)
    integrated = trajectory("linear_model", t, lin, {"theta": theta0}, method="mpmath", dps=30)
    assert spec.relative_error(closed["theta"], integrated["theta"]) <= 1e-25
    # and both agree with eq 10 at 60 digits
    assert spec.relative_error(closed["theta"], spec.linear_theta_mp(theta0, lin["S"], lin["lam"], t)) <= 1e-28


def test_dps_closed_form_matches_theorem3_at_more_digits(spec) -> None:
    """The dps=50 closed form against eqs 72–76 at 100 digits: ~50 correct digits, all the way to t = 1e6."""
    a0, b0 = np.array([1e-6, -2e-6, 3e-6]), np.array([2e-6, 1e-6, 1e-6])
    for S in (2.0, -1.0):
        closed = trajectory("two_layer_scalar", LONG_TIMES, {"S": S, "Z": 1.0}, {"a": a0, "b": b0}, dps=50)
        ref = spec.scalar_state_mp(a0, b0, S, 1.0, LONG_TIMES, dps=100)
        assert spec.relative_error(as_mpf_matrix(closed, ("a", "b")), ref) <= 1e-40


# --- float64 over twelve decades of scale and up to t = 1e6 -------------------------------------------------


@st.composite
def wide_range_scalar(draw: st.DrawFn) -> tuple:
    p = draw(st.integers(1, 16))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = 10.0 ** draw(st.floats(-8, 4))
    a0, b0 = scale * rng.standard_normal(p), scale * rng.standard_normal(p)
    S = draw(st.sampled_from([-1.0, 1.0])) * 10.0 ** draw(st.floats(-2, 1))
    Z = draw(st.sampled_from([1.0, float(np.sqrt(p))]))
    return a0, b0, S, Z


@settings(max_examples=30)
@given(case=wide_range_scalar())
@example(case=(np.array([1e-8]), np.array([1e-8]), 1.0, 1.0))  # gamma_+ ~ 1e16
@example(case=(np.array([1e-8, -2e-8, 3e-8, 5e-9]), np.array([-5e-9, 4e-8, 1.3e-8, 9e-9]), 1.3, 1.0))
@example(case=(np.array([1e4, -2e4]), np.array([3e4, 1e4]), 0.5, 1.0))  # lazy
@example(case=(np.array([1e-8, 2e-8]), np.array([3e-8, -1e-8]), -1.0, 1.0))  # S < 0, tiny init
def test_two_layer_scalar_float64_vs_100_digits(case, spec) -> None:
    check_scalar_float64(case, spec)


@pytest.mark.slow
@settings(max_examples=300)
@given(case=wide_range_scalar())
def test_two_layer_scalar_float64_vs_100_digits_many(case, spec) -> None:
    check_scalar_float64(case, spec)


def check_scalar_float64(case: tuple, spec) -> None:
    a0, b0, S, Z = case
    params, init = {"S": S, "Z": Z}, {"a": a0, "b": b0}
    r = trajectory("two_layer_scalar", LONG_TIMES, params, init)
    got = np.concatenate([r["a"], r["b"]], axis=-1)
    assert np.all(np.isfinite(got)) and np.all(np.isfinite(r["theta"])) and np.all(np.isfinite(r["loss"]))
    assert spec.relative_error(got, spec.scalar_state_mp(a0, b0, S, Z, LONG_TIMES)) <= 1e-10
    # and against the package's own closed form at 50 digits (itself checked against Theorem 3 above)
    r50 = trajectory("two_layer_scalar", LONG_TIMES, params, init, dps=50)
    assert spec.relative_error(got, as_mpf_matrix(r50, ("a", "b"))) <= 1e-10


@st.composite
def wide_range_diagonal(draw: st.DrawFn) -> tuple:
    p = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = 10.0 ** draw(st.floats(-8, 4))
    a0, b0 = scale * rng.standard_normal(p), scale * rng.standard_normal(p)
    S = rng.choice([-1.0, 1.0], p) * 10.0 ** rng.uniform(-2, 1, p)
    return a0, b0, S, rng.uniform(0.1, 3.0, p)


@settings(max_examples=20)
@given(case=wide_range_diagonal())
@example(case=(np.array([1e-8, 1e4]), np.array([1e-8, -3e4]), np.array([1.0, -0.5]), np.array([1.0, 2.0])))
def test_diagonal_float64_vs_100_digits(case, spec) -> None:
    check_diagonal_float64(case, spec)


@pytest.mark.slow
@settings(max_examples=200)
@given(case=wide_range_diagonal())
def test_diagonal_float64_vs_100_digits_many(case, spec) -> None:
    check_diagonal_float64(case, spec)


def check_diagonal_float64(case: tuple, spec) -> None:
    a0, b0, S, lam = case
    r = trajectory("diagonal_linear_network", LONG_TIMES, {"S": S, "lam": lam}, {"a": a0, "b": b0})
    got = np.concatenate([r["a"], r["b"]], axis=-1)
    assert np.all(np.isfinite(got)) and np.all(np.isfinite(r["loss"]))
    assert spec.relative_error(got, spec.diagonal_state_mp(a0, b0, S, lam, LONG_TIMES)) <= 1e-10


@settings(max_examples=20)
@given(
    scale=st.floats(-8, 4),
    seed=st.integers(0, 2**32 - 1),
    p=st.integers(1, 6),
)
def test_linear_model_float64_vs_60_digits(scale, seed, p, spec) -> None:
    rng = np.random.default_rng(seed)
    theta0 = 10.0**scale * rng.standard_normal(p)
    S, lam = rng.standard_normal(p) * 10.0 ** rng.uniform(-2, 1, p), rng.uniform(0.1, 3.0, p)
    r = trajectory("linear_model", LONG_TIMES, {"S": S, "lam": lam}, {"theta": theta0})
    assert np.all(np.isfinite(r["theta"])) and np.all(np.isfinite(r["loss"]))
    assert spec.relative_error(r["theta"], spec.linear_theta_mp(theta0, S, lam, LONG_TIMES)) <= 1e-10
