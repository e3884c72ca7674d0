"""The float64 closed form of ``numerics.trajectory`` against the spec's formulas typed in by hand.

Expected values: eq 10 (linear model), eq 9 (balanced diagonal network), Theorem 3 / eqs 72–76 (scalar
network, and each mode of the diagonal network with p = 1, Z = 1, time lam_i t), all in
``tests/numerics/conftest.py``; and the quantities theta, loss from their definitions (spec §1, §5).
The hypothesis tests evaluate the spec formulas at 60 digits (so that near-degenerate draws, e.g. S ~ 0 with
a = b, test the code and not the conditioning of the textbook formula); fixed well-conditioned cases use the
float64 (NumPy) versions.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from numerics import trajectory

TIMES = np.array([0.0, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 40.0])
TOL = 1e-10


def floats(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False, allow_subnormal=False)


def vectors(p: int, lo: float, hi: float) -> st.SearchStrategy[np.ndarray]:
    return st.lists(floats(lo, hi), min_size=p, max_size=p).map(np.array)


@st.composite
def linear_cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    p = draw(st.integers(1, 6))
    return draw(vectors(p, -5, 5)), draw(vectors(p, -5, 5)), draw(vectors(p, 0.05, 3))


@settings(max_examples=30)
@given(case=linear_cases())
@example(case=(np.array([0.5, -3.0]), np.array([-1.0, 2.0]), np.array([1.0, 0.5])))  # negative theta and S
def test_linear_model_matches_eq10(case, spec) -> None:
    theta0, S, lam = case
    r = trajectory("linear_model", TIMES, {"S": S, "lam": lam}, {"theta": theta0})
    exact = spec.linear_theta_mp(theta0, S, lam, TIMES)
    assert r["theta"].shape == exact.shape
    assert spec.relative_error(r["theta"], exact) <= 1e-12
    expected = exact.astype(float)
    loss = 0.5 * np.sum(lam * (S - expected) ** 2, axis=-1)
    np.testing.assert_allclose(r["loss"], loss, rtol=1e-10, atol=1e-12 * (1 + np.max(loss)))


def test_linear_model_eq10_from_zero_is_one_minus_exponential() -> None:
    """Hand values: theta(0) = 0 gives theta/S = 1 - e^{-lam t} (spec §2)."""
    t = np.array([0.0, np.log(2.0), np.log(4.0)])
    r = trajectory("linear_model", t, {"S": [2.0, -6.0], "lam": [1.0, 0.5]}, {"theta": [0.0, 0.0]})
    expected = np.array([[0.0, 0.0], [1.0, -6.0 * (1 - 2**-0.5)], [1.5, -3.0]])
    np.testing.assert_allclose(r["theta"], expected, rtol=1e-14, atol=1e-15)


@st.composite
def sigmoid_cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    p = draw(st.integers(1, 5))
    S = draw(vectors(p, 0.1, 4))
    fraction = draw(vectors(p, 1e-3, 0.999))
    signs = draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=p, max_size=p).map(np.array))
    a0 = signs * np.sqrt(fraction * S)  # a(0) = b(0), 0 < a(0) b(0) < S
    return a0, S, draw(vectors(p, 0.1, 2)), fraction


@settings(max_examples=30)
@given(case=sigmoid_cases())
def test_diagonal_balanced_matches_eq9_sigmoid(case, spec) -> None:
    a0, S, lam, _ = case
    r = trajectory("diagonal_linear_network", TIMES, {"S": S, "lam": lam}, {"a": a0, "b": a0.copy()})
    ab0 = a0 * a0
    w = spec.sigmoid_product(ab0, S, lam, TIMES)
    np.testing.assert_allclose(r["a"] * r["b"], w, rtol=1e-10)
    np.testing.assert_allclose(r["theta"], w, rtol=1e-10)
    # a = b is preserved (C_i = 0) and a keeps its sign: a = sign(a0) sqrt(w)
    np.testing.assert_allclose(r["a"], r["b"], rtol=1e-12)
    np.testing.assert_allclose(r["a"], np.sign(a0) * np.sqrt(w), rtol=1e-10)
    np.testing.assert_allclose(r["loss"], 0.5 * np.sum(lam * (S - w) ** 2, axis=-1), rtol=1e-9, atol=1e-14)


def test_diagonal_eq9_half_time() -> None:
    """Spec §2: the mode reaches S/2 at t_1/2 = ln(S/w0 - 1) / (2 S lam)."""
    S, lam, w0 = np.array([2.0, 0.5]), np.array([1.0, 3.0]), np.array([1e-3, 1e-2])
    half = np.log(S / w0 - 1) / (2 * S * lam)
    for i in range(2):
        a0 = np.sqrt(w0)
        r = trajectory("diagonal_linear_network", [half[i]], {"S": S, "lam": lam}, {"a": a0, "b": a0})
        assert r["theta"][0, i] == pytest.approx(S[i] / 2, rel=1e-12)


@st.composite
def scalar_cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, float, float]:
    p = draw(st.integers(1, 8))
    a0, b0 = draw(vectors(p, -3, 3)), draw(vectors(p, -3, 3))
    Z = draw(st.sampled_from([1.0, float(np.sqrt(p)), float(p), 0.5]))
    S0 = float(np.sum(a0 * b0) / Z)
    side = draw(st.sampled_from([1.0, -1.0]))
    S = S0 + side * draw(floats(0.05, 4))  # both sides of S = S0 = theta(0)
    return a0, b0, S, Z


@settings(max_examples=40)
@given(case=scalar_cases())
@example(case=(np.array([0.1]), np.array([0.1]), 2.0, 1.0))  # small balanced init, rich regime
@example(case=(np.array([2.0, -1.0]), np.array([1.5, 0.5]), -1.0, 1.0))  # S < S0, S < 0
def test_two_layer_scalar_matches_theorem3(case, spec) -> None:
    a0, b0, S, Z = case
    Sigma0, S0 = np.sum(a0**2 + b0**2) / (2 * Z), np.sum(a0 * b0) / Z
    assume(Sigma0 + S0 > 1e-3)  # Theorem 3's hypothesis
    r = trajectory("two_layer_scalar", TIMES, {"S": S, "Z": Z}, {"a": a0, "b": b0})
    exact = spec.scalar_state_mp(a0, b0, S, Z, TIMES, dps=60)
    got = np.concatenate([r["a"], r["b"]], axis=-1)
    assert spec.relative_error(got, exact) <= TOL
    a, b = np.split(exact.astype(float), 2, axis=-1)
    theta = np.sum(a * b, axis=-1) / Z
    np.testing.assert_allclose(r["theta"], theta, rtol=1e-8, atol=TOL * (1 + Sigma0))
    np.testing.assert_allclose(r["loss"], 0.5 * (S - theta) ** 2, rtol=1e-8, atol=TOL * (1 + Sigma0 + abs(S)) ** 2)


NUMPY_CASES = {
    "rich, p=3": (np.array([0.1, -0.05, 0.2]), np.array([0.15, 0.1, 0.05]), 2.0, 1.0),
    "S < S0": (np.array([1.5, -0.4]), np.array([1.2, 0.3]), 0.5, 1.0),
    "S < 0, Z = sqrt(p)": (np.array([0.6, -0.2, 0.9, 0.3]), np.array([0.4, 0.8, -0.5, 0.2]), -1.3, 2.0),
    "lazy": (np.array([3.0, -2.0, 4.0]), np.array([-1.0, 2.5, 3.0]), 0.3, 1.0),
}


@pytest.mark.parametrize("case", list(NUMPY_CASES))
def test_two_layer_scalar_matches_theorem3_numpy(case, spec) -> None:
    """gamma(t) from eqs 74–76 in float64 (NumPy), a_i(t), b_i(t) from eqs 72–73."""
    a0, b0, S, Z = NUMPY_CASES[case]
    r = trajectory("two_layer_scalar", TIMES, {"S": S, "Z": Z}, {"a": a0, "b": b0})
    a, b = spec.scalar_state(a0, b0, S, Z, TIMES)
    got, expected = np.concatenate([r["a"], r["b"]], axis=-1), np.concatenate([a, b], axis=-1)
    assert spec.relative_error_np(got, expected) <= 1e-12
    np.testing.assert_allclose(r["theta"], np.sum(a * b, axis=-1) / Z, rtol=1e-11)


def test_two_layer_scalar_hand_example(spec) -> None:
    """Hand computation: p = 1, Z = 1, a(0) = b(0) = 1, S = 3, so Sigma0 = S0 = 1 and D0 = 3.

    gamma_± = (3 ± 3)/2 = (3, 0); kappa = (1 - 3)/(1 - 0) = -2; gamma(t) = 3/(1 + 2 e^{-6t}), so
    a(t) = b(t) = sqrt(gamma(t)) and theta = gamma(t) (the logistic of eq 9 with w0 = 1, S = 3, lam = 1).
    """
    t = np.array([0.0, np.log(2.0) / 6, 1.0])
    r = trajectory("two_layer_scalar", t, {"S": 3.0, "Z": 1.0}, {"a": [1.0], "b": [1.0]})
    gamma = 3 / (1 + 2 * np.exp(-6 * t))
    np.testing.assert_allclose(gamma[:2], [1.0, 1.5], rtol=1e-15)
    np.testing.assert_allclose(r["theta"], gamma, rtol=1e-13)
    np.testing.assert_allclose(r["a"][:, 0], np.sqrt(gamma), rtol=1e-13)
    np.testing.assert_allclose(r["b"][:, 0], np.sqrt(gamma), rtol=1e-13)


def test_two_layer_scalar_limit_eq96(spec) -> None:
    """Eq 96: a_i b_i -> (a_i(0)+b_i(0))^2 gamma_+/4 - (a_i(0)-b_i(0))^2/(4 gamma_+), and theta -> S."""
    a0, b0, S, Z = np.array([0.3, -0.2, 0.5]), np.array([0.1, 0.4, -0.6]), 1.7, 2.0
    Sigma0, S0 = np.sum(a0**2 + b0**2) / (2 * Z), np.sum(a0 * b0) / Z
    D0 = np.sqrt(S**2 + Sigma0**2 - S0**2)
    gp = (S + D0) / (Sigma0 + S0)
    r = trajectory("two_layer_scalar", [1e4], {"S": S, "Z": Z}, {"a": a0, "b": b0})
    expected = (a0 + b0) ** 2 * gp / 4 - (a0 - b0) ** 2 / (4 * gp)
    np.testing.assert_allclose(r["a"][0] * r["b"][0], expected, rtol=1e-12)
    assert r["theta"][0] == pytest.approx(S, rel=1e-13)


@st.composite
def diagonal_cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    p = draw(st.integers(1, 6))
    a0, b0 = draw(vectors(p, -3, 3)), draw(vectors(p, -3, 3))
    return a0, b0, draw(vectors(p, -3, 3)), draw(vectors(p, 0.1, 2))


@settings(max_examples=40)
@given(case=diagonal_cases())
def test_diagonal_general_matches_theorem3_per_mode(case, spec) -> None:
    a0, b0, S, lam = case
    assume(np.all((a0 + b0) ** 2 > 1e-3))  # Sigma0 + S0 > 0 for every mode
    r = trajectory("diagonal_linear_network", TIMES, {"S": S, "lam": lam}, {"a": a0, "b": b0})
    exact = spec.diagonal_state_mp(a0, b0, S, lam, TIMES, dps=60)
    got = np.concatenate([r["a"], r["b"]], axis=-1)
    assert spec.relative_error(got, exact) <= TOL
    a, b = np.split(exact.astype(float), 2, axis=-1)
    scale = 1 + np.max(np.abs(a0 * b0)) + np.max(np.abs(S))
    np.testing.assert_allclose(r["theta"], a * b, rtol=1e-8, atol=TOL * scale)
    # conservation (eq 8): a_i^2 - b_i^2 is constant along the closed form
    np.testing.assert_allclose(r["a"] ** 2 - r["b"] ** 2, np.broadcast_to(a0**2 - b0**2, a.shape), atol=1e-9 * scale)
