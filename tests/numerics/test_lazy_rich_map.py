"""The lazy/rich map of Nam et al. Fig. 6a (spec §8) as data."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.lazy_rich import lazy_rich_map, whitened_regression


def test_whitened_regression_is_whitened() -> None:
    X, Y = whitened_regression(n=10, seed=3)
    assert X.shape == (2, 10) and Y.shape == (2, 10)
    assert np.allclose(X @ X.T / 10, np.eye(2), atol=1e-12)
    with pytest.raises(ValueError, match="n must be > d"):
        whitened_regression(n=2)


def test_map_shapes_and_lazy_limit() -> None:
    lambdas, scales = np.array([-8.0, 0.0, 8.0]), np.array([1.0, 10.0])
    data = lazy_rich_map(lambdas, scales)
    assert data.gd.shape == data.closed_form.shape == (3, 2)
    assert np.all(data.gd >= -1e-15) and np.all(data.closed_form >= -1e-15)
    for values in (data.gd, data.closed_form):
        assert np.all(values[[0, 2]] < values[1] / 30)
    assert np.all(np.diff(data.ratio) > 0)


def test_gd_and_closed_form_agree_at_the_start_of_training() -> None:
    """At time ~0 neither kernel has moved: both distances vanish."""
    data = lazy_rich_map(np.array([0.0, 3.0]), np.array([2.0]), time=0.01, lr=0.01)
    assert np.all(np.abs(data.gd) < 1e-3) and np.all(np.abs(data.closed_form) < 1e-3)


def test_bad_grid_is_rejected() -> None:
    with pytest.raises(ValueError, match="scales > 0"):
        lazy_rich_map(np.array([0.0]), np.array([0.0]))
