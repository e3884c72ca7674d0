"""Numerics of the matrix linear network: state/matrix conversion, moments, NTK Gram (against finite
differences of the network), kernel distance, matrix GD against the derived unit field, and the aligned
closed-form modes against the full matrix flow."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from derivations.models.linear_network import linear_network
from numerics import trajectory
from numerics.aligned import aligned_case, full_flow_error, gd_errors
from numerics.linear_network import (
    init_to_weights,
    kernel_distance,
    lambda_balanced_weights,
    matrix_gradient_descent,
    moment_params,
    ntk_gram,
    weights_to_init,
)

RNG = np.random.default_rng(42)


def test_state_matrix_round_trip_in_both_orientations() -> None:
    W1, W2 = RNG.normal(size=(4, 3, 2)), RNG.normal(size=(4, 2, 5))
    init = weights_to_init(W1, W2)
    assert set(init) == {"W1_1", "W1_2", "W1_3", "W2T_1", "W2T_2", "W2T_3", "W2T_4", "W2T_5"}
    assert init["W1_2"].shape == (4, 2) and np.array_equal(init["W2T_3"], W2[:, :, 2])
    back = init_to_weights(init)
    assert np.array_equal(back[0], W1) and np.array_equal(back[1], W2)
    code = weights_to_init(np.swapaxes(W1, -1, -2), np.swapaxes(W2, -1, -2), orientation="code")
    assert all(np.array_equal(code[k], init[k]) for k in init)
    W1c, W2c = init_to_weights(init, orientation="code")
    assert np.array_equal(W1c, np.swapaxes(W1, -1, -2)) and np.array_equal(W2c, np.swapaxes(W2, -1, -2))
    with pytest.raises(ValueError, match="matching hidden width"):
        weights_to_init(W1, RNG.normal(size=(4, 3, 5)))
    with pytest.raises(ValueError, match="orientation"):
        weights_to_init(W1, W2, orientation="rows")
    with pytest.raises(ValueError, match="W1_1"):
        init_to_weights({"a": np.ones(2)})


def test_realizable_moments_make_the_teacher_a_zero_of_the_loss() -> None:
    Sxx = np.array([[2.0, 0.5, 0.0], [0.5, 1.0, 0.2], [0.0, 0.2, 1.5]])
    teacher = RNG.normal(size=(3, 2))
    params = moment_params(Sxx, Sxx @ teacher)
    # a width-3 network whose product W1 W2 is the teacher
    W1 = np.eye(3)
    W2 = teacher
    result = trajectory(linear_network(3, 2), [0.0, 1.0], params, weights_to_init(W1, W2), method="scipy")
    assert abs(result["loss"][0]) < 1e-12
    assert np.allclose(result["P_2_1"], teacher[1, 0], rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="symmetric"):
        moment_params(np.array([[1.0, 0.1], [0.0, 1.0]]), np.ones((2, 2)))
    with pytest.raises(ValueError, match="Sxy must have shape"):
        moment_params(np.eye(2), np.ones((3, 2)))


def network_outputs(W1: np.ndarray, W2: np.ndarray, X: np.ndarray) -> np.ndarray:
    """f(X) = W2^T W1^T X stacked output-major: vec of the c x N output matrix."""
    return (W2.T @ W1.T @ X).ravel()


def test_ntk_gram_is_the_jacobian_gram_by_finite_differences() -> None:
    d, p, c, n = 3, 4, 2, 5
    W1, W2, X = RNG.normal(size=(d, p)), RNG.normal(size=(p, c)), RNG.normal(size=(d, n))
    theta = np.concatenate([W1.ravel(), W2.ravel()])
    h = 1e-6

    def f(th: np.ndarray) -> np.ndarray:
        return network_outputs(th[: d * p].reshape(d, p), th[d * p :].reshape(p, c), X)

    J = np.stack([(f(theta + h * e) - f(theta - h * e)) / (2 * h) for e in np.eye(theta.size)], axis=1)
    assert np.allclose(ntk_gram(W1, W2, X), J @ J.T, rtol=1e-7, atol=1e-7)
    assert np.allclose(ntk_gram(W1.T, W2.T, X, orientation="code"), J @ J.T, rtol=1e-7, atol=1e-7)
    with pytest.raises(ValueError, match="X must have shape"):
        ntk_gram(W1, W2, X.T)


def test_kernel_distance() -> None:
    K = RNG.normal(size=(6, 6))
    K = K @ K.T
    assert abs(kernel_distance(K, 3.5 * K)) < 1e-15
    L = RNG.normal(size=(6, 6))
    assert 0 < kernel_distance(K, L @ L.T) < 1
    batch = kernel_distance(np.stack([K, K]), np.stack([K, L @ L.T]))
    assert batch.shape == (2,) and batch[0] < 1e-15 < batch[1]
    with pytest.raises(ValueError, match="non-zero"):
        kernel_distance(K, np.zeros((6, 6)))


def test_matrix_gd_equals_gd_on_the_derived_unit_field() -> None:
    Sxx = np.array([[1.5, 0.3], [0.3, 0.8]])
    Sxy = RNG.normal(size=(2, 3))
    W1, W2 = 0.3 * RNG.normal(size=(2, 4)), 0.3 * RNG.normal(size=(4, 3))
    lr, steps = 0.01, 250
    ours = matrix_gradient_descent(W1, W2, Sxx, Sxy, lr, steps)
    unit = trajectory(linear_network(2, 3), [lr * steps], moment_params(Sxx, Sxy), weights_to_init(W1, W2), "gd", lr=lr)
    reference = init_to_weights({k: v[0] for k, v in unit.items() if k.startswith("W")})
    assert np.allclose(ours[0], reference[0], rtol=1e-12, atol=1e-14)
    assert np.allclose(ours[1], reference[1], rtol=1e-12, atol=1e-14)
    with pytest.raises(ValueError, match="lr"):
        matrix_gradient_descent(W1, W2, Sxx, Sxy, 0.0, 1)
    with pytest.raises(ValueError, match="steps"):
        matrix_gradient_descent(W1, W2, Sxx, Sxy, 0.1, -1)


def test_eleven_outputs_given_as_arrays_run_as_matrix_gd() -> None:
    """End to end at c = 11 (issue 23): the moments and weights go into ``trajectory`` as arrays, through the
    model's 1 + 11 + 66 named entries and the derived unit field, and come back as the matrices that NumPy GD on
    the matrices gives (``matrix_gradient_descent``, an independent route); the loss against the matrix formula.
    d = 1: the unit field of linear_network(d, 11) takes minutes to derive for d >= 2 (its final ``sp.factor``)."""
    d, c, p, lr, steps = 1, 11, 3, 0.02, 30
    Sxx = np.array([[1.7]])
    Sxy = np.linspace(-1.0, 1.5, c)[None, :] + 0.01 * RNG.normal(size=(d, c))  # all entries distinct
    Syy = Sxy.T @ Sxy / Sxx[0, 0] + np.eye(c)
    W1, W2 = 0.4 * RNG.normal(size=(d, p)), 0.4 * RNG.normal(size=(p, c))
    moments = {"Sxx": Sxx, "Sxy": Sxy, "Syy": Syy}
    run = trajectory(linear_network(d, c), [0.0, lr * steps], moments, {"W1": W1, "W2T": W2.T}, "gd", lr=lr)
    W1_end, W2_end = matrix_gradient_descent(W1, W2, Sxx, Sxy, lr, steps)
    np.testing.assert_allclose(run.W1[-1], W1_end, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(run.W2T[-1], W2_end.T, rtol=1e-12, atol=1e-14)
    P = W1_end @ W2_end
    loss = np.trace(Syy) / 2 - np.trace(P.T @ Sxy) + np.trace(P.T @ Sxx @ P) / 2
    np.testing.assert_allclose(run["loss"][-1], loss, rtol=1e-12)
    np.testing.assert_allclose(run["P_1_11"][-1], P[0, 10], rtol=1e-12, atol=1e-14)
    # refuted: the same GD with two entries of Sxy swapped, which a naming that merged them could not tell apart
    swapped = Sxy.copy()
    swapped[0, [0, 10]] = swapped[0, [10, 0]]
    wrong = matrix_gradient_descent(W1, W2, Sxx, swapped, lr, steps)[1]
    assert np.max(np.abs(run.W2T[-1] - wrong.T)) > 1e-3


def test_lambda_balanced_weights_are_lambda_balanced() -> None:
    U = np.linalg.qr(RNG.normal(size=(3, 2)))[0]
    V, R = np.linalg.qr(RNG.normal(size=(2, 2)))[0], np.linalg.qr(RNG.normal(size=(2, 2)))[0]
    for lam in (-1.7, 0.0, 2.3):
        W1, W2 = lambda_balanced_weights(np.array([0.4, 1.2]), lam, U, V, R)
        assert np.allclose(W2 @ W2.T - W1.T @ W1, lam * np.eye(2), atol=1e-13)
        assert np.allclose(np.linalg.svd(W1 @ W2, compute_uv=False), [1.2, 0.4])
    with pytest.raises(ValueError, match="rho must be > 0"):
        lambda_balanced_weights(np.array([0.0, 1.0]), 1.0, U, V, R)


def test_closed_form_needs_a_solver() -> None:
    # solved on the aligned set only (derivations.modes): a start off it is refused, naming init
    W2 = np.array([[1.0, 1.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match=r"init: .*aligned set"):
        trajectory(
            linear_network(2, 2), [1.0], moment_params(np.eye(2), np.diag([2.0, 1.0])), weights_to_init(np.eye(2), W2)
        )


def test_mpf_initial_values_keep_their_digits() -> None:
    with mpmath.workdps(50):
        a = np.array([mpmath.mpf(1) / 3, mpmath.sqrt(2)], dtype=object)
    result = trajectory("lambda_balanced", [0.0], {"S": np.array([1.0, 2.0])}, {"a": a, "b": a}, dps=40)
    with mpmath.workdps(50):
        assert abs(result["a"][0][0] - mpmath.mpf(1) / 3) < mpmath.mpf(10) ** -38
    with pytest.raises(ValueError, match="finite"):
        trajectory("lambda_balanced", [0.0], {"S": 1.0}, {"a": [mpmath.inf, 1], "b": [1, 1]}, method="mpmath")


def test_aligned_closed_form_matches_the_full_matrix_flow_to_25_digits() -> None:
    """Done-when of issue 4: d = 3, p = c = 2, a random aligned λ-balanced start, 30-digit odefun."""
    case = aligned_case(lam=None, seed=7)
    assert full_flow_error(case, [1.2]) < 1e-25


@pytest.mark.slow
@pytest.mark.parametrize(("lam", "seed"), [(0.0, 1), (-1.9, 2), (1.4, 3), (None, 4)])
def test_aligned_closed_form_matches_the_full_matrix_flow_slow(lam, seed) -> None:
    case = aligned_case(lam=lam, seed=seed)
    assert full_flow_error(case, [0.5, 2.0, 4.0]) < 1e-25
    assert full_flow_error(case, [2.0], model="deep_linear_whitened") < 1e-25


def test_gd_on_full_matrices_converges_to_the_closed_form_like_lr() -> None:
    errors = gd_errors(aligned_case(lam=-0.6, seed=9), [0.02, 0.01, 0.005], 2.0)
    assert errors[-1] < 1e-3
    assert all(1.8 < errors[i] / errors[i + 1] < 2.2 for i in range(2))


def test_aligned_case_rejects_bad_sizes() -> None:
    with pytest.raises(ValueError, match="1 <= c <= d"):
        aligned_case(d=2, c=3)
