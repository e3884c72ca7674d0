"""Degenerate initialisations: Sigma0 + S0 = 0, S = S0 (fixed point), all-zero init, M0 = 0 with S < 0.

Expected values are derived by hand from eq 86–87 (gamma' = [-(Sigma0+S0) gamma^2 + 2 S gamma +
(Sigma0-S0)]/Z) in each degenerate case, plus the DOP853 integration of the derived flow.
"""

from __future__ import annotations

import numpy as np
import pytest

from numerics import trajectory

LONG = np.array([0.0, 0.5, 2.0, 10.0, 100.0, 1e3, 1e6])
SHORT = np.array([0.0, 0.25, 1.0, 3.0])


def state(r: dict, names: tuple[str, ...]) -> np.ndarray:
    return np.concatenate([r[n] for n in names], axis=-1)


def assert_finite(r: dict) -> None:
    for name, value in r.items():
        assert np.all(np.isfinite(np.asarray(value, dtype=float))), name


# --- Sigma0 + S0 = 0: all a_i(0) = -b_i(0) ------------------------------------------------------------------


def antialigned_gamma(M0: float, S: float, Z: float, t: np.ndarray) -> np.ndarray:
    """Sigma0 + S0 = 0 (so Sigma0 - S0 = M0): gamma' = (2 S gamma + M0)/Z, gamma(0) = 1, solved by hand."""
    if S == 0:
        return 1 + M0 * t / Z
    return np.exp(2 * S * t / Z) * (1 + M0 / (2 * S)) - M0 / (2 * S)


@pytest.mark.parametrize("S", [2.0, 0.0, -1.5])
def test_two_layer_scalar_antialigned_init(S) -> None:
    a0 = np.array([0.3, -1.2, 0.5])
    b0 = -a0
    Z = 1.0
    r = trajectory("two_layer_scalar", LONG, {"S": S, "Z": Z}, {"a": a0, "b": b0})
    assert_finite(r)
    # a_i + b_i = 0 is preserved (u_i(0) = 0), so theta = -sum a_i^2 / Z <= 0 and never reaches S > 0
    np.testing.assert_allclose(r["a"], -r["b"], rtol=0, atol=1e-15)
    assert np.all(r["theta"] <= 0)
    if S > 0:
        assert np.all(r["theta"] < S)
    # hand solution in the short window: a = v0 / sqrt(gamma), with v0 = (a0 - b0)/2 = a0
    M0 = np.sum((a0 - b0) ** 2) / (2 * Z)
    gamma = antialigned_gamma(M0, S, Z, SHORT)
    short = trajectory("two_layer_scalar", SHORT, {"S": S, "Z": Z}, {"a": a0, "b": b0})
    np.testing.assert_allclose(short["a"], a0 / np.sqrt(gamma)[:, None], rtol=1e-12)
    # agreement with DOP853
    scipy = trajectory("two_layer_scalar", SHORT, {"S": S, "Z": Z}, {"a": a0, "b": b0}, method="scipy")
    np.testing.assert_allclose(state(short, ("a", "b")), state(scipy, ("a", "b")), rtol=0, atol=1e-10)
    # limits: S > 0 drives theta -> 0^-, S < 0 to the target, S = 0 slowly to 0
    if S < 0:
        assert r["theta"][-1] == pytest.approx(S, rel=1e-12)
    else:
        assert abs(r["theta"][-1]) < 1e-5


def test_diagonal_antialigned_modes() -> None:
    a0 = np.array([0.5, -1.0, 2.0])
    S, lam = np.array([1.0, -0.5, 0.0]), np.array([1.0, 2.0, 0.5])
    r = trajectory("diagonal_linear_network", LONG, {"S": S, "lam": lam}, {"a": a0, "b": -a0})
    assert_finite(r)
    np.testing.assert_allclose(r["a"], -r["b"], rtol=0, atol=1e-15)
    assert np.all(r["theta"] <= 0)
    scipy = trajectory("diagonal_linear_network", SHORT, {"S": S, "lam": lam}, {"a": a0, "b": -a0}, method="scipy")
    short = trajectory("diagonal_linear_network", SHORT, {"S": S, "lam": lam}, {"a": a0, "b": -a0})
    np.testing.assert_allclose(state(short, ("a", "b")), state(scipy, ("a", "b")), rtol=0, atol=1e-10)
    # per mode (p = 1, Z = 1, time lam t): a = a0 / sqrt(gamma), with M0 = (a0 - b0)^2 / 2 = 2 a0^2
    for i in range(3):
        gamma = antialigned_gamma(2 * a0[i] ** 2, S[i], 1.0, lam[i] * SHORT)
        np.testing.assert_allclose(short["a"][:, i], a0[i] / np.sqrt(gamma), rtol=1e-12)


# --- S = S0 exactly: a fixed point ------------------------------------------------------------------------


def test_two_layer_scalar_fixed_point_is_constant() -> None:
    a0, b0 = np.array([1.0, 2.0]), np.array([3.0, -1.0])  # theta(0) = (3 - 2)/1 = 1 exactly
    r = trajectory("two_layer_scalar", LONG, {"S": 1.0, "Z": 1.0}, {"a": a0, "b": b0})
    assert_finite(r)
    np.testing.assert_allclose(r["a"], np.broadcast_to(a0, r["a"].shape), rtol=1e-14)
    np.testing.assert_allclose(r["b"], np.broadcast_to(b0, r["b"].shape), rtol=1e-14)
    np.testing.assert_allclose(r["loss"], 0.0, atol=1e-28)
    mp = trajectory("two_layer_scalar", LONG, {"S": 1.0, "Z": 1.0}, {"a": a0, "b": b0}, dps=30)
    assert all(abs(x - y) < 1e-28 for x, y in zip(np.ravel(mp["a"]), np.ravel(r["a"]), strict=True))


def test_diagonal_fixed_point_is_constant() -> None:
    a0, b0 = np.array([1.5, -2.0, 0.25]), np.array([2.0, 0.5, -4.0])
    S = a0 * b0  # exactly representable: 3, -1, -1
    r = trajectory("diagonal_linear_network", LONG, {"S": S, "lam": [1.0, 0.3, 2.0]}, {"a": a0, "b": b0})
    np.testing.assert_allclose(r["a"], np.broadcast_to(a0, r["a"].shape), rtol=1e-14)
    np.testing.assert_allclose(r["b"], np.broadcast_to(b0, r["b"].shape), rtol=1e-14)


def test_linear_model_fixed_point_is_constant() -> None:
    theta0 = np.array([-1.0, 0.0, 2.5])
    r = trajectory("linear_model", LONG, {"S": theta0, "lam": [1.0, 0.3, 2.0]}, {"theta": theta0})
    np.testing.assert_allclose(r["theta"], np.broadcast_to(theta0, r["theta"].shape), rtol=1e-14, atol=0)


# --- all-zero init: the origin is a fixed point -------------------------------------------------------------


@pytest.mark.parametrize("S", [1.5, -2.0, 0.0])
@pytest.mark.parametrize("dps", [None, 30])
def test_zero_init_stays_zero(S, dps) -> None:
    zeros = np.zeros(3)
    for model, params in (
        ("two_layer_scalar", {"S": S, "Z": 1.0}),
        ("diagonal_linear_network", {"S": np.full(3, S), "lam": np.ones(3)}),
    ):
        r = trajectory(model, LONG, params, {"a": zeros, "b": zeros}, dps=dps)
        for name in ("a", "b", "theta"):
            values = np.asarray(r[name], dtype=float)
            assert np.all(np.isfinite(values)), (model, name)
            assert np.all(values == 0), (model, name)
        loss = 0.5 * S**2 if model == "two_layer_scalar" else 3 * 0.5 * S**2  # lam = 1 for the 3 modes
        np.testing.assert_allclose(np.asarray(r["loss"], dtype=float), loss, rtol=1e-15)


@pytest.mark.parametrize("dps", [None, 30])
def test_linear_model_zero_init_and_target_stays_zero(dps) -> None:
    zeros = np.zeros(3)
    r = trajectory("linear_model", LONG, {"S": np.zeros(3), "lam": np.ones(3)}, {"theta": zeros}, dps=dps)
    assert np.all(np.asarray(r["theta"], dtype=float) == 0)


# --- M0 = 0 (a = b) with S < 0: theta >= 0 cannot reach S and decays to the saddle at 0 ------------------


def test_balanced_init_with_negative_target(spec) -> None:
    a0 = np.array([0.3, -1.2, 0.5])
    S, Z = -1.0, 1.0
    r = trajectory("two_layer_scalar", LONG, {"S": S, "Z": Z}, {"a": a0, "b": a0})
    assert_finite(r)
    np.testing.assert_allclose(r["a"], r["b"], rtol=1e-15)
    assert np.all(r["theta"] >= 0)
    assert np.all(np.diff(r["theta"]) <= 0)
    assert r["theta"][-1] < 1e-300
    # by hand: with a = b, theta obeys the logistic theta' = 2 theta (S - theta)/Z (eq 9's ODE), so
    # theta = S / (1 + (S/theta0 - 1) e^{-2 S t / Z}), and a_i = a_i(0) sqrt(theta/theta0)
    theta0 = np.sum(a0 * a0) / Z
    theta = S / (1 + (S / theta0 - 1) * np.exp(-2 * S * SHORT / Z))
    short = trajectory("two_layer_scalar", SHORT, {"S": S, "Z": Z}, {"a": a0, "b": a0})
    np.testing.assert_allclose(short["theta"], theta, rtol=1e-12)
    np.testing.assert_allclose(short["a"], a0 * np.sqrt(theta / theta0)[:, None], rtol=1e-12)
    # DOP853 agrees while the (unstable) saddle has not amplified round-off
    scipy = trajectory("two_layer_scalar", SHORT, {"S": S, "Z": Z}, {"a": a0, "b": a0}, method="scipy")
    np.testing.assert_allclose(state(short, ("a", "b")), state(scipy, ("a", "b")), rtol=0, atol=1e-10)
    # the diagonal network, each mode alone
    r = trajectory(
        "diagonal_linear_network", LONG, {"S": [-1.0, -0.2], "lam": [1.0, 3.0]}, {"a": [0.7, -0.1], "b": [0.7, -0.1]}
    )
    assert_finite(r)
    assert np.all(r["theta"] >= 0) and np.all(np.diff(r["theta"], axis=0) <= 0)
