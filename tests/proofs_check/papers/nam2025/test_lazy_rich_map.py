"""The lazy/rich map of Nam et al. Fig. 6a (spec §8) as data."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.linear_network import (
    aligned_weights,
    kernel_distance,
    lambda_balanced_singular_values,
    matrix_gradient_descent,
    ntk_gram,
)
from proofs_check.papers.nam2025.lazy_rich import lazy_rich_map, whitened_regression


def test_whitened_regression_is_whitened() -> None:
    X, Y = whitened_regression(n=10, seed=3)
    assert X.shape == (2, 10) and Y.shape == (2, 10)
    assert np.allclose(X @ X.T / 10, np.eye(2), atol=1e-12)
    with pytest.raises(ValueError, match="n must be an integer >= 3"):
        whitened_regression(n=2)


def test_map_shapes_and_lazy_limit() -> None:
    lambdas, scales = np.array([-8.0, 0.0, 8.0]), np.array([1.0, 10.0])
    data = lazy_rich_map(lambdas, scales)
    assert data.gd.shape == data.closed_form.shape == data.aligned_gd.shape == (3, 2)
    assert np.all(data.gd >= -1e-15) and np.all(data.closed_form >= -1e-15)
    for values in (data.gd, data.closed_form):
        assert np.all(values[[0, 2]] < values[1] / 30)
    assert np.all(np.diff(data.ratio) > 0)


def test_both_distances_vanish_at_time_zero() -> None:
    """At t = 0 neither kernel has moved: the closed form starts from the aligned start's own singular values."""
    data = lazy_rich_map(np.array([-4.0, 0.0, 3.0]), np.array([1.0, 2.0]), time=0.0)
    assert np.all(np.abs(data.gd) < 1e-14) and np.all(np.abs(data.closed_form) < 1e-14)


def test_gd_and_closed_form_agree_early_in_training() -> None:
    """After a short time both kernels have moved only a little."""
    data = lazy_rich_map(np.array([0.0, 3.0]), np.array([2.0]), time=0.01, lr=0.01)
    assert np.all(np.abs(data.gd) < 1e-3) and np.all(np.abs(data.closed_form) < 1e-3)


def test_bad_grid_is_rejected() -> None:
    with pytest.raises(ValueError, match="scales must be > 0"):
        lazy_rich_map(np.array([0.0]), np.array([0.0]))
    with pytest.raises(ValueError, match="lambdas must be finite"):
        lazy_rich_map(np.array([np.nan]), np.array([1.0]))
    with pytest.raises(ValueError, match="lambdas must be 1-dimensional"):
        lazy_rich_map(np.zeros((2, 2)), np.array([1.0]))
    with pytest.raises(ValueError, match="time must be >= 0"):
        lazy_rich_map(np.array([0.0]), np.array([1.0]), time=-1.0)
    with pytest.raises(ValueError, match="rho0 must be a finite number > 0"):
        lazy_rich_map(np.array([0.0]), np.array([1.0]), rho0=0.0)
    with pytest.raises(ValueError, match="lr must be a finite number > 0"):
        lazy_rich_map(np.array([0.0]), np.array([1.0]), lr=float("nan"))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"lambdas": np.array([1j])}, TypeError, "lambdas"),
        ({"lambdas": None}, TypeError, "lambdas"),
        ({"lambdas": "ab"}, TypeError, "lambdas"),
        ({"lambdas": np.array([])}, ValueError, "non-empty"),
        ({"scales": np.array([np.inf])}, ValueError, "scales must be finite"),
        ({"rho0": "1"}, TypeError, "rho0"),
        ({"rho0": True}, TypeError, "rho0"),
        ({"rho0": 1.0, "setting": "authors"}, ValueError, "rho0 must be None"),
        ({"setting": "paper"}, ValueError, "setting must be one of"),
        ({"time": complex(1, 1)}, TypeError, "time"),
        ({"time": 0.015, "lr": 0.01}, ValueError, "time must be a multiple of lr"),
        ({"lr": 1e-300}, ValueError, "raise max_updates"),
        ({"time": 1e6}, ValueError, "raise max_updates"),
        ({"lr": 1.0}, ValueError, "admissible lr <"),
        ({"lambdas": np.array([1e200])}, ValueError, "admissible lr <"),
        ({"n": 10.5}, TypeError, "n must be an integer"),
        ({"n": 2}, ValueError, "n must be an integer >= 3"),
        ({"seed": -1}, ValueError, "seed must be an integer >= 0"),
        ({"max_updates": 0.5}, TypeError, "max_updates"),
    ],
)
def test_every_bad_argument_is_named_before_training(kwargs: dict, error: type, match: str) -> None:
    args = {"lambdas": np.array([0.0]), "scales": np.array([1.0])} | kwargs
    with pytest.raises(error, match=match):
        lazy_rich_map(args.pop("lambdas"), args.pop("scales"), **args)


def test_authors_setting_starts_at_sqrt_scale() -> None:
    """setting="authors": the initial product singular values are sqrt(scale) (the authors' get_lambda_balanced with
    ``scale``: s_{2,1} = sqrt((sqrt(λ² + 4 scale) ± λ)/2), product sqrt(scale)), the ratio scale^{3/2}/sigma_1."""
    scales = np.array([1.0, 4.0, 9.0])
    fixed = lazy_rich_map(np.array([0.0, 3.0]), scales, time=0.1)
    authors = lazy_rich_map(np.array([0.0, 3.0]), scales, time=0.1, setting="authors")
    assert fixed.setting == "fixed" and np.array_equal(fixed.rho0, [1.0, 1.0, 1.0])
    assert authors.setting == "authors" and np.array_equal(authors.rho0, [1.0, 2.0, 3.0])
    assert np.allclose(authors.ratio / fixed.ratio, [1.0, 2.0, 3.0])
    # at scale 1 the two settings coincide; elsewhere they differ
    assert np.array_equal(authors.gd[:, 0], fixed.gd[:, 0])
    assert not np.allclose(authors.gd[:, 1:], fixed.gd[:, 1:], rtol=1e-3)


def test_closed_form_map_is_gd_on_the_aligned_start_as_lr_goes_to_zero() -> None:
    """The closed-form entry against GD on the full matrices from the same aligned λ-balanced start."""
    lambdas, scales, time = np.array([-1.5, 0.5]), np.array([1.0, 3.0]), 2.0
    data = lazy_rich_map(lambdas, scales, time=time)
    X, Y = whitened_regression()
    Sxy = X @ Y.T / X.shape[1]
    U, _, Vt = np.linalg.svd(Sxy)
    for i, lam in enumerate(lambdas):
        for j, scale in enumerate(scales):
            start = aligned_weights(U, Vt.T, np.eye(2), *lambda_balanced_singular_values(np.ones(2), lam))
            end = matrix_gradient_descent(*start, np.eye(2), Sxy / scale, 1e-4, round(time / 1e-4))
            gd = kernel_distance(ntk_gram(*start, X), ntk_gram(*end, X))
            assert abs(data.closed_form[i, j] - gd) <= 1e-3 * gd
