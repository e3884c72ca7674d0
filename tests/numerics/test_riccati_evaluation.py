"""``numerics.riccati_numpy`` / ``riccati_mpmath`` against the textbook Riccati solution at 80 digits.

Reference (typed here): y' = c2 (y - u)(y - v), u <= v, solved by partial fractions,
y = (r+ - r- kappa e^{-kt}) / (1 - kappa e^{-kt}), kappa = (y0 - r+)/(y0 - r-), k = |c2| (v - u);
the linear (c2 = 0), constant-rate (c2 = c1 = 0) and double-root cases are the elementary solutions.
Initial values are drawn in the basin of the attracting root so that no solution blows up.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from numerics import riccati_mpmath, riccati_numpy

TIMES = np.array([0.0, 1e-3, 0.1, 0.5, 1.0, 3.0, 10.0])


def reference(c2: float, c1: float, c0: float, y0: float, t: float, dps: int = 80) -> mpmath.mpf:
    with mpmath.workdps(dps):
        c2, c1, c0, y0, t = (mpmath.mpf(float(x)) for x in (c2, c1, c0, y0, t))
        if c2 == 0 and c1 == 0:
            return y0 + c0 * t
        if c2 == 0:
            fixed = -c0 / c1
            return fixed + (y0 - fixed) * mpmath.exp(c1 * t)
        delta = c1**2 - 4 * c2 * c0
        if delta < 0:  # the float coefficients of a drawn double root can round to complex roots
            return mpmath.nan
        if delta == 0:
            r = -c1 / (2 * c2)
            return r + (y0 - r) / (1 - c2 * (y0 - r) * t)
        k = mpmath.sqrt(delta)
        rp, rm = (-c1 - k) / (2 * c2), (-c1 + k) / (2 * c2)
        if y0 == rm:
            return rm
        kappa = (y0 - rp) / (y0 - rm)
        E = mpmath.exp(-k * t)
        return (rp - rm * kappa * E) / (1 - kappa * E)


@st.composite
def quadratic_cases(draw: st.DrawFn) -> tuple[float, float, float, float]:
    """c2 != 0 with real roots u <= v; y0 on the attracting side of the repelling root."""
    c2 = draw(st.sampled_from([-1.0, 1.0])) * draw(st.floats(0.05, 3.0))
    u = draw(st.integers(-500, 500)) / 100
    v = u + draw(st.one_of(st.just(0.0), st.floats(1e-6, 5.0)))  # a double root, or well separated
    c1, c0 = -c2 * (u + v), c2 * u * v
    repelling = u if c2 < 0 else v
    away = draw(st.floats(0.1, 6.0)) * (1 + abs(repelling))
    y0 = repelling + away if c2 < 0 else repelling - away
    return c2, c1, c0, y0


def check(c2: float, c1: float, c0: float, y0: float) -> None:
    assume(c1 * c1 - 4 * c2 * c0 >= 0)
    got = riccati_numpy(c2, c1, c0, y0, TIMES)
    assert got.shape == TIMES.shape
    assert np.all(np.isfinite(got))
    for g, time in zip(got, TIMES, strict=True):
        exact = reference(c2, c1, c0, y0, time)
        assume(mpmath.isfinite(exact))  # also rejects a rounded-to-complex double root
        scale = max(abs(float(exact)), abs(y0), 1e-300)
        assert abs(g - float(exact)) <= 1e-10 * scale, (time, g, exact)
        with mpmath.workdps(40):
            args = (mpmath.mpf(c2), mpmath.mpf(c1), mpmath.mpf(c0), mpmath.mpf(y0), mpmath.mpf(float(time)))
            high = riccati_mpmath(*args)
            assert abs(high - exact) <= mpmath.mpf(10) ** -32 * scale, (time, high, exact)


@settings(max_examples=60)
@given(case=quadratic_cases())
@example(case=(-1.0, 2.0, -1.0, 3.0))  # double root at 1, from above
@example(case=(1.0, -2.0, 1.0, -3.0))  # double root at 1 (c2 > 0), from below
@example(case=(-1e-12, 2.0, 0.5, 1.0))  # c2 -> 0: attracting root near -c0/c1 < 0, repelling ~ 2e12
@example(case=(-2.0, 6.0, 0.0, 0.5))  # logistic x' = 2x(3 - x)
@example(case=(-1.0, 3.0, 4.0, 4.0))  # y0 at the attracting root
@example(case=(-1.0, 3.0, 4.0, -1.0))  # y0 at the repelling root
def test_riccati_quadratic_cases(case) -> None:
    check(*case)


@pytest.mark.parametrize(
    ("c1", "c0", "y0"),
    [(-2.0, 3.0, 5.0), (2.0, 3.0, 5.0), (0.0, 3.0, 5.0), (0.0, 0.0, -1.0), (-0.5, 0.0, 2.0), (1.0, -1.0, 1.0)],
)
def test_riccati_linear_and_constant_rate(c1, c0, y0) -> None:
    """c2 = 0: y = -c0/c1 + (y0 + c0/c1) e^{c1 t}; c1 = c2 = 0: y = y0 + c0 t (hand formulas)."""
    got = riccati_numpy(0.0, c1, c0, y0, TIMES)
    expected = y0 + c0 * TIMES if c1 == 0 else -c0 / c1 + (y0 + c0 / c1) * np.exp(c1 * TIMES)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)
    for time, e in zip(TIMES, expected, strict=True):
        with mpmath.workdps(30):
            value = riccati_mpmath(mpmath.mpf(0), mpmath.mpf(c1), mpmath.mpf(c0), mpmath.mpf(y0), mpmath.mpf(time))
            assert abs(value - reference(0.0, c1, c0, y0, time)) <= 1e-25 * max(1.0, abs(e))


def test_riccati_broadcasts() -> None:
    c2 = np.array([[-1.0], [-2.0]])
    t = np.array([[0.0, 1.0, 2.0]])
    got = riccati_numpy(c2, 3.0, 4.0, 0.0, t)
    assert got.shape == (2, 3)
    for i in range(2):
        for j in range(3):
            assert got[i, j] == pytest.approx(float(reference(c2[i, 0], 3.0, 4.0, 0.0, t[0, j])), rel=1e-13)


def test_riccati_negative_discriminant_is_rejected() -> None:
    with pytest.raises(ValueError, match="discriminant"):
        riccati_numpy(1.0, 0.0, 1.0, 0.0, TIMES)
    with pytest.raises(ValueError, match="discriminant"):
        riccati_numpy(np.array([-1.0, 1.0]), 0.0, np.array([1.0, 1.0]), 0.0, 1.0)
    with mpmath.workdps(20), pytest.raises(ValueError, match="discriminant"):
        riccati_mpmath(mpmath.mpf(1), mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(0), mpmath.mpf(1))
