"""The simulations behind the emergence, collapse and alignment claims: bad input rejected, budgets enforced, and
results that can fail (a sharp level crossing, the one-shot law of a single skill, collapse only near balance)."""

from __future__ import annotations

import numpy as np
import pytest

from proofs_check.papers.nam2025.collapse import collapse_runs, one_hot_data
from proofs_check.papers.nam2025.emergence import crossing_times, data_emergence, skill_probabilities
from proofs_check.papers.xu_ziyin2025.alignment import alignment_paths, initial_alignment, parameter_change


def test_crossing_times_interpolate():
    t = np.linspace(0, 1, 11)
    values = np.stack([t, 2 * t], axis=1)
    assert np.allclose(crossing_times(t, values, 0.55), [0.55, 0.275])
    with pytest.raises(ValueError, match="reach level"):
        crossing_times(t, values, 1.5)


def test_one_shot_law_for_two_skills():
    p = np.array([0.9, 0.1])
    simulated = data_emergence(p, (1, 3), trials=3000, seed=1)
    predicted = np.array([1 - (1 - p) ** n for n in (1, 3)])
    assert np.abs(simulated - predicted).max() < 0.05
    two_shot = predicted - np.array([n * p * (1 - p) ** (n - 1) for n in (1, 3)])
    assert np.abs(simulated - two_shot).max() > 0.3


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"frequencies": [0.5, 0.6]}, "summing to 1"),
        ({"n_samples": (0,)}, "n_samples"),
        ({"trials": 0}, "trials"),
        ({"w0": 0.9}, "w0"),
        ({"lr": 1.0}, "lr"),
        ({"n_samples": (10**6,)}, "max_steps"),
    ],
)
def test_data_emergence_rejects_bad_input(kwargs, match):
    arguments = {"frequencies": skill_probabilities(3, 1), "n_samples": (2,), "trials": 2, **kwargs}
    with pytest.raises(ValueError, match=match):
        data_emergence(**arguments)


def test_collapse_only_near_balance():
    near, far = collapse_runs(range(3)), collapse_runs(range(3), scales=(0.5, 1e-4))
    assert near.rank_gap(3).max() < 1e-2 and near.within_between.max() < 1e-4
    assert far.rank_gap(3).min() > 0.1 and far.within_between.min() > 0.1
    assert near.residual.max() < 1e-6 and far.residual.max() < 1e-6
    with pytest.raises(ValueError, match="rank"):
        near.rank_gap(8)
    with pytest.raises(ValueError, match="d must be"):
        one_hot_data(3, 3, 5, np.random.default_rng(0))
    with pytest.raises(ValueError, match="scales"):
        collapse_runs(range(1), scales=(0.0, 1.0))


def test_alignment_paths_are_monotone_and_start_small():
    paths = alignment_paths("mean_field", 256, range(8), points=12)
    steps = np.diff(paths.zeta, axis=0)
    assert np.all(steps >= -1e-12)
    assert np.all(np.abs(paths.zeta[0]) < 0.3) and np.all(paths.zeta[-1] > 0.6)
    assert np.mean(initial_alignment(64, 400) ** 2) == pytest.approx(1 / 64, rel=0.25)
    assert np.all(parameter_change("ntk", 256, range(4)) < 0.2)
