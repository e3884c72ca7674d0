"""Gradient descent converges to the gradient flow at first order in the learning rate.

Reference GF: the spec's closed forms (eq 10; Theorem 3 for the scalar network and for each diagonal mode)
typed in ``conftest.py``. Forward Euler has global error C*lr + O(lr^2), so halving lr should halve the
error at a fixed time: the ratio must lie in [1.6, 2.5].
"""

from __future__ import annotations

import numpy as np
import pytest

from numerics import trajectory

T = 2.0
LEARNING_RATES = (0.02, 0.01, 0.005)

CASES = {
    "two_layer_scalar": (
        {"S": 2.0, "Z": 1.0},
        {"a": np.array([0.6, -0.3, 0.2]), "b": np.array([0.4, 0.5, -0.7])},
    ),
    "two_layer_scalar_below": (
        {"S": -1.0, "Z": 2.0},
        {"a": np.array([1.2, -0.3]), "b": np.array([0.9, 0.5])},
    ),
    "diagonal_linear_network": (
        {"S": np.array([1.0, -2.0, 0.5]), "lam": np.array([1.0, 0.5, 2.0])},
        {"a": np.array([0.3, 0.8, -0.6]), "b": np.array([0.5, -0.2, 0.4])},
    ),
    "linear_model": (
        {"S": np.array([1.0, -2.0, 0.5]), "lam": np.array([1.0, 0.5, 2.0])},
        {"theta": np.array([0.3, 0.8, -0.6])},
    ),
}


def gradient_flow(model: str, params: dict, init: dict, spec) -> np.ndarray:
    t = np.array([T])
    if model == "two_layer_scalar":
        a, b = spec.scalar_state(init["a"], init["b"], params["S"], params["Z"], t)
        return np.concatenate([a, b], axis=-1)[0]
    if model == "diagonal_linear_network":
        a, b = spec.diagonal_state(init["a"], init["b"], params["S"], params["lam"], t)
        return np.concatenate([a, b], axis=-1)[0]
    return spec.linear_theta(init["theta"], params["S"], params["lam"], t)[0]


@pytest.mark.parametrize("case", list(CASES))
def test_gd_error_is_first_order_in_lr(case, spec) -> None:
    model = case.removesuffix("_below")
    params, init = CASES[case]
    exact = gradient_flow(model, params, init, spec)
    errors = []
    for lr in LEARNING_RATES:
        r = trajectory(model, [T], params, init, method="gd", lr=lr)
        got = np.concatenate([r[n][0] for n in init])
        assert got.shape == exact.shape
        errors.append(np.max(np.abs(got - exact)))
    assert errors[0] < 0.1 * np.linalg.norm(exact)  # GD is close to GF at all
    ratios = [errors[0] / errors[1], errors[1] / errors[2]]
    assert all(1.6 <= q <= 2.5 for q in ratios), (errors, ratios)


def test_gd_single_step_is_explicit_euler() -> None:
    """Hand computation of one step of w <- w - lr grad L for the scalar network (eq 77 with lr = 0.1).

    a = (1, 2), b = (3, -1), Z = 1, S = 2: theta = 3 - 2 = 1, S - theta = 1, so
    a_1 <- 1 + 0.1 * 3 = 1.3, a_2 <- 2 - 0.1 = 1.9, b_1 <- 3 + 0.1 = 3.1, b_2 <- -1 + 0.2 = -0.8.
    """
    r = trajectory(
        "two_layer_scalar", [0.0, 0.1], {"S": 2.0, "Z": 1.0}, {"a": [1.0, 2.0], "b": [3.0, -1.0]}, method="gd", lr=0.1
    )
    np.testing.assert_allclose(r["a"], [[1.0, 2.0], [1.3, 1.9]], rtol=1e-15)
    np.testing.assert_allclose(r["b"], [[3.0, -1.0], [3.1, -0.8]], rtol=1e-15)
    np.testing.assert_allclose(r["theta"], [1.0, 1.3 * 3.1 - 1.9 * 0.8], rtol=1e-15)


def test_gd_reports_states_after_round_t_over_lr_steps() -> None:
    """Linear model, lam = 1, S = 1, theta(0) = 0, lr = 0.5: theta_n = 1 - 0.5**n (hand computation)."""
    t = np.array([1.5, 0.0, 0.5, 1.0])  # unsorted on purpose: 3, 0, 1, 2 steps
    r = trajectory("linear_model", t, {"S": [1.0], "lam": [1.0]}, {"theta": [0.0]}, method="gd", lr=0.5)
    np.testing.assert_allclose(r["theta"][:, 0], [0.875, 0.0, 0.5, 0.75], rtol=1e-15)
