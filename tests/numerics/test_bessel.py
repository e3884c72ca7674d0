"""numerics.bessel: the Bessel clock y' = c2 y^2 + c1 y + c0 + c3 e^{kt} in float64 and at 30 digits against an
independent integration (mpmath.odefun of the scalar equation; for weight decay, method="mpmath" at 40 digits of
the model's derived flow), from unbalanced starts with S > Z mu and S < Z mu; large arguments and orders; bad input
refused; wrong variants refuted."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import trajectory
from numerics.bessel import bessel_mpmath, bessel_numpy
from numerics.riccati import riccati_numpy

MODEL = "two_layer_scalar_decay"


def integrated(c2, c1, c0, c3, k, y0, times, dps=30):
    """y' = c2 y^2 + c1 y + c0 + c3 e^{kt} by mpmath.odefun (Taylor series) at ``dps`` digits."""
    with mpmath.workdps(dps):
        C2, C1, C0, C3, K = (mpmath.mpf(v) for v in (c2, c1, c0, c3, k))
        f = mpmath.odefun(lambda s, u: C2 * u**2 + C1 * u + C0 + C3 * mpmath.exp(K * s), 0, mpmath.mpf(y0))
        return [f(mpmath.mpf(t)) for t in times]


coefficients = st.tuples(
    st.floats(-2.5, -0.05),  # c2 < 0
    st.floats(-3.0, 3.0),  # c1
    st.floats(0.0, 1.0),  # c0 >= 0, so that c1^2 - 4 c2 c0 >= 0
    st.floats(0.01, 3.0),  # c3 > 0: c2 c3 < 0
    st.sampled_from((-1.0, 1.0)).flatmap(lambda sign: st.floats(0.2, 3.0).map(lambda k: sign * k)),
    st.floats(0.1, 3.0),  # y0
)


def check_against_integration(values) -> None:
    c2, c1, c0, c3, k, y0 = values
    times = [0.0, 0.4, 1.7]
    reference = integrated(*values, times, dps=35)
    closed = bessel_numpy(c2, c1, c0, c3, k, y0, np.array(times))
    with mpmath.workdps(30):
        high = [bessel_mpmath(c2, c1, c0, c3, k, y0, t) for t in times]
        for x, h, r in zip(closed, high, reference, strict=True):
            assert abs(x - r) <= 1e-10 * abs(r)
            assert abs(h - r) <= mpmath.mpf(10) ** -25 * abs(r)


@settings(max_examples=3, deadline=None)
@given(coefficients)
def test_float64_and_30_digits_against_integration(values) -> None:
    check_against_integration(values)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(coefficients)
def test_float64_and_30_digits_against_integration_more_starts(values) -> None:
    check_against_integration(values)


def test_no_forcing_is_the_riccati_solution() -> None:
    t = np.array([0.0, 0.5, 2.0])
    assert np.allclose(bessel_numpy(-0.5, 0.3, 0.1, 0.0, -1.0, 0.7, t), riccati_numpy(-0.5, 0.3, 0.1, 0.7, t), 0, 1e-15)


def test_large_arguments_and_orders() -> None:
    """s0 = 2 sqrt(-c2 c3)/|k| up to 1e4 (I_nu, K_nu out of float64's range: the scaled forms keep the ratio), and a
    large order at a small argument (the scaled values underflow: the mpmath fallback), against 40 digits."""
    t = np.array([0.0, 0.1, 1.0, 5.0])
    for values in (
        (-1.0, 0.5, 0.0, 2.5e7, -1.0, 1.0),
        (-1.0, 0.5, 0.0, 2.5e7, 1.0, 1.0),
        (-0.1, 120.0, 0.0, 1e-8, -0.5, 1.0),
    ):
        closed = bessel_numpy(*values, t)
        with mpmath.workdps(40):
            for x, ti in zip(closed, t, strict=True):
                exact = bessel_mpmath(*values, ti)
                assert abs(x - exact) <= 1e-10 * abs(exact), (values, ti, x, exact)


def test_bad_input_is_refused() -> None:
    t = np.array([0.0, 1.0])
    with pytest.raises(ValueError, match="c2 must be non-zero"):
        bessel_numpy(0.0, 1.0, 0.0, 1.0, -1.0, 1.0, t)
    with pytest.raises(ValueError, match="c2 c3 must be <= 0"):
        bessel_numpy(1.0, 1.0, 0.0, 1.0, -1.0, 1.0, t)
    with pytest.raises(ValueError, match="k must be non-zero"):
        bessel_numpy(-1.0, 1.0, 0.0, 1.0, 0.0, 1.0, t)
    with pytest.raises(ValueError, match="imaginary Bessel order"):
        bessel_numpy(-1.0, 0.1, -1.0, 1.0, -1.0, 1.0, t)
    with pytest.raises(ValueError, match="t must be >= 0"):
        bessel_numpy(-1.0, 1.0, 0.0, 1.0, -1.0, 1.0, np.array([-1.0]))
    with pytest.raises(TypeError, match="c1 must be real"):
        bessel_numpy(-1.0, 1j, 0.0, 1.0, -1.0, 1.0, t)
    with pytest.raises(ValueError, match="y0 must be finite"):
        bessel_numpy(-1.0, 1.0, 0.0, 1.0, -1.0, np.nan, t)


def test_a_pole_is_refused() -> None:
    """y0 far below the repelling branch: y reaches -inf in finite time; the stable form's denominator changes sign
    there and the evaluation refuses rather than returning a wrong finite value."""
    with pytest.raises(ValueError, match="pole"):
        bessel_numpy(-1.0, 0.0, 0.0, 0.5, -1.0, -3.0, np.array([0.0, 5.0]))


def test_wrong_variants_disagree_with_integration() -> None:
    values = (-0.8, 0.6, 0.2, 0.9, -1.2, 0.5)
    c2, c1, c0, c3, k, y0 = values
    reference = float(integrated(*values, [1.5])[0])
    assert abs(bessel_numpy(*values, np.array([1.5]))[0] - reference) < 1e-12
    assert abs(bessel_numpy(c2, c1, c0, c3, k / 2, y0, np.array([1.5]))[0] - reference) > 1e-4
    assert abs(bessel_numpy(c2, -c1, c0, c3, k, y0, np.array([1.5]))[0] - reference) > 1e-4


def relative(x, r) -> float:
    """Normwise relative error over a trajectory (as tests/numerics/test_solved_models_high_precision.py): a state
    that passes near 0 is not a relative-error test of the clock."""
    with mpmath.workdps(40):
        scale = max(abs(mpmath.mpf(v)) for v in r)
        return max(float(abs(mpmath.mpf(u) - mpmath.mpf(v)) / scale) for u, v in zip(x, r, strict=True))


magnitudes = st.tuples(st.floats(0.05, 1.5), st.sampled_from((1.0, -1.0))).map(lambda pair: pair[0] * pair[1])
decay_starts = st.tuples(
    st.lists(magnitudes, min_size=2, max_size=2),
    st.lists(magnitudes, min_size=2, max_size=2),
    st.floats(0.05, 1.0),  # mu
    st.floats(0.3, 2.0),  # Z
    st.floats(0.05, 3.0),  # how far S is from Z mu, relative to Z mu
)


@pytest.mark.slow
@pytest.mark.parametrize("above", [True, False], ids=["S>Z*mu", "S<Z*mu"])
@settings(max_examples=3, deadline=None)
@given(case=decay_starts)
def test_weight_decay_from_unbalanced_starts(above, case) -> None:
    """The decay model's closed form (float64 and dps=30) against the 40-digit integration of its derived flow
    (method="mpmath"), from unbalanced starts (theta[-1] < 0), with S above and below Z mu."""
    a, b, mu, Z, margin = case
    if any(abs(u - v) < 1e-3 for u, v in zip(a, b, strict=True)) or any(
        abs(u + v) < 1e-2 for u, v in zip(a, b, strict=True)
    ):
        return  # nearly balanced or anti-balanced units are other tests' business
    S = Z * mu * (1 + margin) if above else Z * mu * (1 - margin) - 0.1
    params, init = {"S": S, "Z": Z, "mu": mu}, {"a": np.array(a), "b": np.array(b)}
    times = [0.0, 0.7, 3.0]
    reference = trajectory(MODEL, times, params, init, method="mpmath", dps=40)
    closed = trajectory(MODEL, times, params, init)
    high = trajectory(MODEL, times, params, init, dps=30)
    for name in ("a", "b"):
        r = np.ravel(reference[name])
        assert relative(np.ravel(closed[name]), r) <= 1e-10
        assert relative(np.ravel(high[name]), r) <= 1e-25


@pytest.mark.parametrize("S", [1.5, -0.4], ids=["S>Z*mu", "S<Z*mu"])
def test_weight_decay_one_unbalanced_start(S) -> None:
    params, init = {"S": S, "Z": 1.0, "mu": 0.3}, {"a": np.array([0.4, -0.2]), "b": np.array([-0.1, 0.5])}
    times = [0.0, 0.5, 2.0]
    reference = trajectory(MODEL, times, params, init, method="mpmath", dps=40)
    closed = trajectory(MODEL, times, params, init)
    high = trajectory(MODEL, times, params, init, dps=30)
    for name in ("a", "b"):
        r = np.ravel(reference[name])
        assert relative(np.ravel(closed[name]), r) <= 1e-10
        assert relative(np.ravel(high[name]), r) <= 1e-25
