"""``method="taylor"`` (heyoka, optional extra ``[taylor]``) against the spec's closed forms typed in
``conftest.py`` (Theorem 3 at 100 digits, eq 10 at 60), DOP853 and ``mpmath.odefun`` of the derived flow."""

from __future__ import annotations

import sys

import mpmath
import numpy as np
import pytest

from derivations import models
from numerics import taylor, trajectory

T = np.array([0.0, 0.3, 1.0, 4.0])


def test_without_heyoka_the_error_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "heyoka", None)
    assert not taylor.available()
    with pytest.raises(ImportError, match=r"\[taylor\]"):
        trajectory("two_layer_scalar", T, {"S": 1.0, "Z": 1.0}, {"a": [0.1], "b": [0.2]}, method="taylor")


def test_precision_by_digits() -> None:
    assert [taylor.precision(d) for d in (None, 15, 16, 18, 19, 30)] == [
        "float64",
        "float64",
        "long double",
        "long double",
        "mpfr",
        "mpfr",
    ]
    assert taylor.bits(30) == 100 + taylor.GUARD_BITS  # ceil(30 log2 10) = 100


def test_dps_below_15_is_refused() -> None:
    with pytest.raises(ValueError, match=r"\bdps\b"):
        trajectory("two_layer_scalar", T, {"S": 1.0, "Z": 1.0}, {"a": [0.1], "b": [0.2]}, method="taylor", dps=14)


@pytest.fixture
def heyoka():
    return pytest.importorskip("heyoka")


def scalar_case() -> tuple[np.ndarray, np.ndarray, float]:
    rng = np.random.default_rng(7)
    return 0.4 * rng.standard_normal((11, 3)), 0.4 * rng.standard_normal((11, 3)), 1.3


@pytest.mark.usefixtures("heyoka")
def test_float64_batch_against_theorem_3(spec) -> None:
    """11 starts in one call, each against Theorem 3 and against its own call."""
    a0, b0, S = scalar_case()
    result = trajectory("two_layer_scalar", T, {"S": S, "Z": 1.0}, {"a": a0, "b": b0}, method="taylor")
    assert result["a"].shape == (len(T), 11, 3) and result["a"].dtype == float
    for j in range(11):
        exact = spec.scalar_state_mp(a0[j], b0[j], S, 1.0, T)
        got = np.concatenate([result["a"][:, j], result["b"][:, j]], axis=-1)
        assert spec.relative_error(got, exact) <= 1e-14
        single = trajectory("two_layer_scalar", T, {"S": S, "Z": 1.0}, {"a": a0[j], "b": b0[j]}, method="taylor")
        np.testing.assert_allclose(single["a"], result["a"][:, j], rtol=1e-14, atol=1e-15)


@pytest.mark.usefixtures("heyoka")
@pytest.mark.parametrize(("dps", "tol", "coarser"), [(18, 1e-17, None), (30, 1e-28, 18), (50, 1e-48, 30)])
def test_extended_precisions_against_theorem_3(dps, tol, coarser, spec) -> None:
    """Long double at 18 digits, MPFR at 30 and 50: each meets its tolerance and the coarser type does not."""
    a0, b0, S = np.array([0.3, -0.8]), np.array([0.5, 0.4]), 1.5
    exact = spec.scalar_state_mp(a0, b0, S, 1.0, T)
    result = trajectory("two_layer_scalar", T, {"S": S, "Z": 1.0}, {"a": a0, "b": b0}, method="taylor", dps=dps)
    got = np.concatenate([result["a"], result["b"]], axis=-1)
    assert all(isinstance(x, mpmath.mpf) for x in got.ravel())
    assert spec.relative_error(got, exact) <= tol
    lower = trajectory("two_layer_scalar", T, {"S": S, "Z": 1.0}, {"a": a0, "b": b0}, method="taylor", dps=coarser)
    assert spec.relative_error(np.concatenate([lower["a"], lower["b"]], axis=-1), exact) > tol


@pytest.mark.usefixtures("heyoka")
def test_mpf_inputs_keep_their_digits() -> None:
    """A start of 40 digits (1/3, 1/7) is integrated from those digits, not from their float64 roundings."""
    with mpmath.workdps(40):
        a0, b0 = [mpmath.mpf(1) / 3], [mpmath.mpf(1) / 7]
    params = {"S": 2.0, "Z": 1.0}
    exact = trajectory("two_layer_scalar", T, params, {"a": a0, "b": b0}, dps=40)
    result = trajectory("two_layer_scalar", T, params, {"a": a0, "b": b0}, method="taylor", dps=30)
    rounded = trajectory("two_layer_scalar", T, params, {"a": [1 / 3], "b": [1 / 7]}, method="taylor", dps=30)
    with mpmath.workdps(40):
        error = max(abs(x - y) for x, y in zip(result["a"].ravel(), exact["a"].ravel(), strict=True))
        rounding = max(abs(x - y) for x, y in zip(rounded["a"].ravel(), exact["a"].ravel(), strict=True))
    assert error <= 1e-28 < 1e-20 <= rounding


@pytest.mark.usefixtures("heyoka")
def test_mpf_inputs_keep_their_digits_in_long_double() -> None:
    """At 18 digits (long double) a start of 40 digits (1/3, 1/7) is rounded to long double, not to float64: the
    state at t = 0 is the start to long double's rounding (1.1e-19 relative; float64's is 100 times coarser), and
    at later times the error against the 40-digit closed form stays at long double's level."""
    with mpmath.workdps(40):
        a0, b0 = [mpmath.mpf(1) / 3], [mpmath.mpf(1) / 7]
    params = {"S": 2.0, "Z": 1.0}
    exact = trajectory("two_layer_scalar", T, params, {"a": a0, "b": b0}, dps=40)
    result = trajectory("two_layer_scalar", T, params, {"a": a0, "b": b0}, method="taylor", dps=18)
    rounded = trajectory("two_layer_scalar", T, params, {"a": [1 / 3], "b": [1 / 7]}, method="taylor", dps=18)
    with mpmath.workdps(40):
        for name in ("a", "b"):
            start = abs(result[name][0, 0] - exact[name][0, 0]) / abs(exact[name][0, 0])
            assert start <= 1.1e-19 and abs(rounded[name][0, 0] - exact[name][0, 0]) >= 1e-18, (name, start)
            error = max(abs(x - y) / abs(y) for x, y in zip(result[name].ravel(), exact[name].ravel(), strict=True))
            assert error <= 1e-17, (name, error)


@pytest.mark.usefixtures("heyoka")
def test_unit_parameters_and_a_zero_start(spec) -> None:
    """linear_model from 0 (a valid start, issue 17) with per-unit S, lam, against eq 10 at 60 digits."""
    S, lam = np.array([1.0, -2.0, 0.5]), np.array([1.0, 0.5, 3.0])
    result = trajectory("linear_model", T, {"S": S, "lam": lam}, {"theta": np.zeros(3)}, method="taylor", dps=30)
    assert spec.relative_error(result["theta"], spec.linear_theta_mp(np.zeros(3), S, lam, T)) <= 1e-28


@pytest.mark.usefixtures("heyoka")
def test_agrees_with_odefun_at_30_digits() -> None:
    """The two high-precision integrators of the derived flow (Taylor series both, independent codes)."""
    params = {"S": np.array([1.3, -0.4]), "lam": np.array([1.0, 0.6])}
    init = {"a": np.array([0.4, -1.1]), "b": np.array([0.9, 0.6])}
    t = np.array([0.0, 0.7, 2.0])
    fast = trajectory("diagonal_linear_network", t, params, init, method="taylor", dps=30)
    slow = trajectory("diagonal_linear_network", t, params, init, method="mpmath", dps=30)
    with mpmath.workdps(40):
        for name in ("a", "b", "loss"):
            assert max(abs(x - y) for x, y in zip(fast[name].ravel(), slow[name].ravel(), strict=True)) <= 1e-26


@pytest.mark.usefixtures("heyoka")
@pytest.mark.parametrize("name", models.names())
def test_every_model_against_dop853(name) -> None:
    model = models.get(name)
    rng = np.random.default_rng(11)
    params = {n: rng.uniform(0.5, 2.0, 3) for n in model.unit_param_names}
    # diagonal moments (linear_network) keep the second-moment matrix realizable
    params |= {n: 1.0 if n.startswith(("Sxx", "Syy")) and n[-1] == n[-2] else 0.3 for n in model.shared_param_names}
    init = {n: 0.5 * rng.standard_normal((2, 3)) for n in model.state_names}
    fast = trajectory(name, T, params, init, method="taylor")
    reference = trajectory(name, T, params, init, method="scipy")
    for n in model.state_names:
        np.testing.assert_allclose(fast[n], reference[n], rtol=1e-10, atol=1e-12)


@pytest.mark.usefixtures("heyoka")
def test_step_budget() -> None:
    with pytest.raises(ValueError, match="max_steps = 3"):
        trajectory("two_layer_scalar", T, {"S": 1.0, "Z": 1.0}, {"a": [0.1], "b": [0.2]}, method="taylor", max_steps=3)
