"""Log-coordinate dormant dynamics (spec §3 pitfall): exact norms, first crossings, and survival of tiny components."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import expm
from scipy.optimize import brentq

from numerics.alternating.log_modes import LogModes, first_crossing, log_norm


def _generator(g: float) -> np.ndarray:
    return np.array([[0.0, g], [g, 0.0]])


def test_log_norm_is_the_norm_of_the_matrix_exponential() -> None:
    rng = np.random.default_rng(0)
    B = rng.normal(size=(4, 4))
    B = B + B.T
    theta = rng.normal(size=4) * 1e-3
    modes = LogModes.from_vector(theta, B)
    for t in (0.0, 0.7, 3.0):
        assert log_norm(modes, t) == pytest.approx(np.log(np.linalg.norm(expm(t * B) @ theta)), abs=1e-10)


def test_first_crossing_matches_root_of_the_exact_norm() -> None:
    theta = np.array([1e-4, 3e-5])
    B = _generator(1.5)
    expected = brentq(lambda t: np.linalg.norm(expm(t * B) @ theta) - 1, 0, 20, xtol=1e-14)
    assert first_crossing(LogModes.from_vector(theta, B)) == pytest.approx(expected, rel=1e-10)


def test_decaying_then_growing_mode_crosses_after_its_minimum() -> None:
    """Norm 1 along the decaying mode and 1e-20 along the growing one (a collapsed DLN neuron, spec §4a):
    the norm falls, then crosses 1 again when the small mode has grown by 1e20, at t = 20 log(10) / g."""
    e, p = np.array([1.0, 1.0]) / np.sqrt(2), np.array([1.0, -1.0]) / np.sqrt(2)
    modes = LogModes(np.column_stack([e, p]), np.array([0.0, np.log(1e-20)]), np.ones(2), np.array([-2.0, 2.0]))
    assert first_crossing(modes) == pytest.approx(20 * np.log(10) / 2, rel=1e-12)
    assert first_crossing(LogModes(e[:, None], np.zeros(1), np.ones(1), np.array([-2.0]))) == np.inf


def test_rebasing_keeps_components_far_below_float_resolution() -> None:
    e, p = np.array([1.0, 1.0]) / np.sqrt(2), np.array([1.0, -1.0]) / np.sqrt(2)
    modes = LogModes(np.column_stack([e, p]), np.array([0.0, -200.0]), np.array([1.0, -1.0]), np.zeros(2))
    kept = modes.rebased(_generator(-0.7))
    assert np.array_equal(kept.log_abs, [0.0, -200.0]) and np.array_equal(kept.sign, [1.0, -1.0])
    assert np.allclose(kept.rates, [-0.7, 0.7])
    # in float64 the same vector has lost its small component entirely
    assert np.array_equal(e - np.exp(-200.0) * p, e)


def test_rebasing_onto_a_new_eigenbasis_preserves_the_vector() -> None:
    rng = np.random.default_rng(1)
    theta = rng.normal(size=3)
    A, B = (rng.normal(size=(3, 3)) for _ in range(2))
    modes = LogModes.from_vector(theta, A + A.T).rebased(B + B.T)
    vector = modes.basis @ (modes.sign * np.exp(modes.log_abs))
    assert np.allclose(vector, theta, atol=1e-13)
