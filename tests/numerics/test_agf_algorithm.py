"""Algorithm 1 (``numerics.agf``): the clarified rules of spec §3 on small cases, and reference tests A/B (spec §5).

Expected values are the spec's figures or closed forms typed in here (PF's first jump 1/max|grad L(0)|, the
finite-alpha activation |x| = ½ arccosh(1/(2 alpha²)) of spec §4a), never outputs of the code under test.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from numerics import agf
from numerics.alternating import InitializationScaleWarning, gaussian_init


def _dln(X: np.ndarray, y: np.ndarray, alpha: float, **kwargs):
    d = X.shape[1]
    return agf(X, y, np.full(d, np.sqrt(2) * alpha), np.zeros((d, d)), alpha, support=np.eye(d, dtype=bool), **kwargs)


def _problem_a() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(10)
    X = rng.normal(size=(20, 5)) * np.sqrt(1 / np.arange(1, 6))
    return X, X @ (10 * rng.normal(size=5))


def _problem_b() -> tuple[np.ndarray, np.ndarray]:
    R = np.array(
        [[np.cos(np.deg2rad(150)), -np.sin(np.deg2rad(150))], [np.sin(np.deg2rad(150)), np.cos(np.deg2rad(150))]]
    )
    X = np.linalg.cholesky(R @ np.diag([1.0, 25.0]) @ R.T)
    return X, X @ np.array([-0.2, 2.0])


def test_reference_a_staircase_matches_the_spec() -> None:
    result = _dln(*_problem_a(), 1e-16)
    assert np.allclose(result.jump_times, [0.329, 0.535, 0.954, 5.83, 16.1], rtol=5e-3)
    assert np.allclose(result.loss_levels, [27.96, 12.98, 2.244, 0.181, 0.0409, 0.0], rtol=5e-3, atol=1e-9)
    order = [next(iter(set(b) - set(a))) + 1 for a, b in zip(result.active_sets, result.active_sets[1:], strict=False)]
    assert order == [2, 4, 1, 3, 5]
    assert result.halted == "all neurons active"


def test_first_jump_is_the_finite_alpha_activation_time() -> None:
    """One dormant phase is exact: |x| = ½ arccosh(1/(2 alpha²)) at rate |grad L(0)|, t~ = |x| / (|g| log(1/alpha))."""
    X, y = _problem_a()
    g = np.abs(X.T @ y / len(y))
    for alpha in (1e-2, 1e-6):
        expected = 0.5 * np.arccosh(1 / (2 * alpha**2)) / (g.max() * np.log(1 / alpha))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InitializationScaleWarning)  # alpha = 1e-2 is not small (tested below)
            result = _dln(X, y, alpha)
        assert result.jump_times[0] == pytest.approx(expected, rel=1e-9)
        assert result.jumps[1].activated == (int(np.argmax(g)),)


def test_simultaneous_activation_of_identical_neurons() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(30, 1))
    X = np.hstack([x, x, rng.normal(size=(30, 1))])
    y = X @ np.array([1.0, 1.0, 0.3])
    result = _dln(X, y, 1e-8)
    assert result.jumps[1].activated == (0, 1)
    assert result.jump_times[0] == pytest.approx(1 / np.max(np.abs(X.T @ y / 30)), rel=1e-6)
    assert np.allclose(result.jumps[1].accumulated_utility[:2], result.thresholds[:2])


def test_collapse_returns_the_neuron_to_dormancy_with_s_equal_c() -> None:
    """Spec §5B: beta_1 activates positive at 0.193, collapses at 0.600 (saddle (0, 1.584)), reactivates negative."""
    result = _dln(*_problem_b(), 1e-16)
    assert np.allclose(result.jump_times, [0.193, 0.600, 3.457], atol=1e-3)
    first, collapse, last = result.jumps[1:]
    assert first.a[0, 0] * first.w[0, 0] > 0
    assert collapse.collapsed == (0,) and collapse.active == (1,)
    assert collapse.accumulated_utility[0] == pytest.approx(result.thresholds[0], rel=1e-12)
    assert np.allclose(collapse.a[:, 0] * collapse.w.sum(axis=1), [0.0, 1.584], atol=1e-3)
    assert last.activated == (0,) and last.a[0, 0] * last.w[0, 0] < 0
    assert np.allclose(last.a[:, 0] * last.w.sum(axis=1), [-0.2, 2.0], atol=1e-6)


def test_without_the_balance_memory_a_collapsed_neuron_never_returns() -> None:
    """A perfectly balanced init (||a||² = ||w||²) has no opposite-sign component: GF keeps u = v, so the neuron
    stays collapsed and AGF halts with the constrained optimum (the Pesme–Flammarion sign constraint)."""
    X, y = _problem_b()
    alpha = 1e-8
    result = agf(X, y, np.full(2, alpha), np.diag([alpha, alpha]), alpha, support=np.eye(2, dtype=bool))
    assert result.halted.startswith("no dormant neuron")
    assert result.jumps[-1].active == (1,)
    assert result.jumps[-1].a[1, 0] * result.jumps[-1].w[1, 1] == pytest.approx(1.584, abs=1e-3)


def test_halting_when_dormant_neurons_have_zero_utility_gradient() -> None:
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    y = 2.0 * X[:, 0]
    result = _dln(X, y, 1e-6)
    assert result.halted.startswith("no dormant neuron")
    assert [j.active for j in result.jumps] == [(), (0,)]
    assert result.loss_levels[-1] == pytest.approx(0.0, abs=1e-12)
    assert result.jump_times[0] == pytest.approx(0.5 * np.arccosh(0.5e12) / (1.0 * np.log(1e6)), rel=1e-9)


def test_max_jumps_and_loss_curve() -> None:
    result = _dln(*_problem_a(), 1e-8, max_jumps=2)
    assert result.halted == "max_jumps reached" and len(result.jumps) == 3
    t = result.jump_times
    curve = result.loss_curve([0.0, t[0] - 1e-9, t[0], (t[0] + t[1]) / 2, t[1] + 1.0])
    levels = result.loss_levels
    assert np.array_equal(curve, [levels[0], levels[0], levels[1], levels[1], levels[2]])


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"alpha": 0.0}, ValueError, "alpha must be in the open interval"),
        ({"alpha": 1.5}, ValueError, "alpha"),
        ({"alpha": float("nan")}, ValueError, "alpha"),
        ({"alpha": "1e-3"}, TypeError, "alpha"),
        ({"alpha": 1e-3 + 0j}, TypeError, "alpha"),
        ({"activation": "relu"}, ValueError, "activation"),
        ({"activation": None}, ValueError, "activation"),
        ({"eta": -1.0}, ValueError, "eta"),
        ({"eta": float("inf")}, ValueError, "eta"),
        ({"max_jumps": 0}, ValueError, "max_jumps must be an integer >= 1"),
        ({"max_jumps": 2.0}, TypeError, "max_jumps"),
        ({"max_jumps": True}, TypeError, "max_jumps"),
        ({"collapse_tol": 2.0}, ValueError, "collapse_tol"),
        ({"collapse_tol": None}, TypeError, "collapse_tol"),
        ({"gtol": 0.0}, ValueError, "gtol"),
        ({"horizon": -1.0}, ValueError, "horizon"),
        ({"max_cost_time": float("nan")}, ValueError, "max_cost_time"),
        ({"a0": np.full(2, 2.0)}, ValueError, "norms"),
        ({"a0": np.ones((3, 1))}, ValueError, "a0"),
        ({"a0": np.full(2, 1e-3) + 1e-3j}, TypeError, "a0"),
        ({"a0": None}, TypeError, "a0"),
        ({"w0": np.ones((2, 2)) * 1e-3}, ValueError, "support"),
        ({"w0": "ab"}, TypeError, "w0"),
        ({"Y": np.ones(5)}, ValueError, "Y"),
        ({"Y": np.ones((2, 0))}, ValueError, "Y"),
        ({"X": np.full((2, 2), np.nan)}, ValueError, "X"),
        ({"X": np.full((2, 2), 1e200)}, ValueError, "finite in float64"),
        ({"X": np.ones(2)}, ValueError, "X must be 2-dimensional"),
        ({"Y": 1e-6 * np.ones(2)}, ValueError, "collapse_tol must be in \\(0, N/10\\)"),
        ({"support": np.full((2, 2), 0.5)}, ValueError, "support must be an array of booleans"),
        ({"support": np.eye(3, dtype=bool)}, ValueError, "support"),
    ],
)
def test_bad_input_names_the_argument(kwargs: dict, error: type, match: str) -> None:
    X, y = _problem_b()
    args = {"X": X, "Y": y, "a0": np.full(2, 1e-3), "w0": np.zeros((2, 2)), "alpha": 1e-3}
    args |= {"support": np.eye(2, dtype=bool)} | kwargs
    with pytest.raises(error, match=match):
        agf(args.pop("X"), args.pop("Y"), args.pop("a0"), args.pop("w0"), **args)


def test_gaussian_init_checks_its_integers() -> None:
    with pytest.raises(TypeError, match="H must be an integer"):
        gaussian_init(2.0, 1, 1, 1e-3)
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        gaussian_init(2, 1, 1, 1e-3, seed=-1)


def test_horizon_budget_is_reported() -> None:
    """A utility phase longer than ``horizon`` halts with the reason and how to raise it (kappa = 2 and 3)."""
    X, y = _problem_a()
    assert _dln(X, y, 1e-8, horizon=0.1).halted.endswith("raise horizon")
    rng = np.random.default_rng(1)
    Xq = rng.normal(size=(20, 2))
    result = agf(Xq, (Xq @ [1.0, 0.0]) ** 2, [1e-4, 1e-4], 1e-4 * np.eye(2), 1e-4, activation="quadratic", horizon=1e-3)
    assert result.halted.endswith("raise horizon") and len(result.jumps) == 1
