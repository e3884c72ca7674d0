"""The unaligned λ-balanced solution P = QQ^T (``proofs_check.papers.domine2025.qqt``): against 30-digit integration of
the full matrix
flow, against the authors' formula (typed below as an independent reference), against the aligned closed form, and
its input checks."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from derivations.models.linear_network import linear_network
from numerics import trajectory
from numerics.aligned import aligned_case
from numerics.linear_network import init_to_weights, lambda_balanced_weights, moment_params, weights_to_init
from proofs_check.papers.domine2025 import qqt as qqt_module
from proofs_check.papers.domine2025.qqt import (
    FLOAT64_TOLERANCE,
    MAX_DIGITS,
    qqt,
    qqt_blocks,
    qqt_float64,
    unaligned_start,
)

to_float = np.vectorize(float)


def authors_qqt(W1: np.ndarray, W2: np.ndarray, Syx: np.ndarray, lam: float, t: float) -> np.ndarray:
    """QQ^T at time t by the formula of Nico31415/LinearNetworkDynamics, ``qqt_lambda_balanced.py``
    (``QQT_lambda_balanced.__init__`` and ``forward``, commit 067fffb442acb56377d9e9bfd9c4cc91b47ff5eb), square case
    (d = p = c, lambda != 0), re-typed from the formula, not imported: code orientation f = W2 W1 x, Syx (c x d)."""
    U_t, s_t, Vh_t = np.linalg.svd(Syx)  # task frames
    U0, _, Vh0 = np.linalg.svd(W2 @ W1)  # frames of the initial map
    s1, s2 = np.linalg.svd(W1, compute_uv=False), np.linalg.svd(W2, compute_uv=False)
    X = np.diag((np.sqrt(lam**2 + 4 * s_t**2) - 2 * s_t) / lam)
    A = np.diag(1 / np.sqrt(1 + np.diag(X) ** 2))
    plus, minus = A + X @ A, A - X @ A
    B = np.diag(s2) @ U0.T @ U_t @ plus + np.diag(s1) @ Vh0 @ Vh_t.T @ minus
    C = np.diag(s2) @ U0.T @ U_t @ minus - np.diag(s1) @ Vh0 @ Vh_t.T @ plus
    rate = np.sqrt(s_t**2 + lam**2 / 4)
    decay, decay2 = np.diag(np.exp(-rate * t)), np.diag(np.exp(-2 * rate * t))
    B_inv = np.linalg.inv(B)
    inner = decay @ C.T @ B_inv.T @ decay
    Z = np.vstack([Vh_t.T @ (minus - plus @ inner), U_t @ (plus + minus @ inner)])
    eye, rate_inv = np.eye(len(s_t)), np.diag(1 / rate)
    center = (
        4 * decay @ B_inv @ B_inv.T @ decay
        + (eye - decay2) @ rate_inv
        - decay @ B_inv @ C @ (decay2 - eye) @ rate_inv @ C.T @ B_inv.T @ decay
    )
    return Z @ np.linalg.solve(center, Z.T)


def _flow_P(W1, W2, Sxy, times, dps=30):
    d, c = Sxy.shape
    with mpmath.workdps(dps + 10):
        params = moment_params(np.eye(d, dtype=int) * mpmath.mpf(1), Sxy)
    run = trajectory(linear_network(d, c), times, params, weights_to_init(W1, W2), method="taylor", dps=dps)
    out = []
    with mpmath.workdps(dps):
        for k in range(len(times)):
            A, B = init_to_weights({n: v[k] for n, v in run.items() if n.startswith("W")})
            Q = np.vstack([A, B.T])
            out.append(Q @ Q.T)
    return np.array(out)


def _relative(P: np.ndarray, R: np.ndarray, dps: int = 30):
    with mpmath.workdps(dps):
        return max(abs(x - y) for x, y in zip(P.ravel(), R.ravel(), strict=True)) / max(abs(y) for y in R.ravel())


@pytest.mark.parametrize(("d", "p", "c", "lam"), [(3, 2, 2, 1.3)])
def test_solves_the_full_matrix_flow_to_30_digits(d, p, c, lam) -> None:
    pytest.importorskip("heyoka")
    W1, W2, Sxy = unaligned_start(d, p, c, lam, seed=3)
    times = [0.0, 0.7, 3.0]
    assert _relative(qqt(W1, W2, Sxy, times, dps=30), _flow_P(W1, W2, Sxy, times)) < 1e-27


@pytest.mark.parametrize("lam", [0.7, -1.1])
def test_agrees_with_the_authors_formula(lam) -> None:
    W1, W2, Sxy = (to_float(m) for m in unaligned_start(3, 3, 3, lam, seed=5))
    for t in (0.0, 0.4, 2.5):
        ours = qqt(W1, W2, Sxy, [t])[0]
        theirs = authors_qqt(W1.T, W2.T, Sxy.T, lam, t)
        assert np.max(np.abs(ours - theirs)) < 1e-10 * np.max(np.abs(ours))


def test_the_authors_formula_is_a_discriminating_reference() -> None:
    """The typed reference is not trivially equal: a wrong lambda in it (or a start off its own) moves it by O(1)."""
    W1, W2, Sxy = (to_float(m) for m in unaligned_start(3, 3, 3, 0.7, seed=5))
    ours = qqt(W1, W2, Sxy, [1.0])[0]
    assert np.max(np.abs(ours - authors_qqt(W1.T, W2.T, Sxy.T, -0.7, 1.0))) > 1e-2


def test_reduces_to_the_aligned_closed_form() -> None:
    case = aligned_case(lam=0.9, seed=4)
    W1, W2 = (to_float(m) for m in case.weights())
    U, V = to_float(case.U), to_float(case.V)
    Sxy = U @ np.diag(to_float(case.rho)) @ V.T
    times = [0.5, 2.0]
    modes = trajectory(
        "lambda_balanced", times, {"S": to_float(case.rho)}, {"a": to_float(case.a), "b": to_float(case.b)}
    )
    maps = qqt_blocks(qqt(W1, W2, Sxy, times), 3)["map"]
    for k in range(len(times)):
        expected = V @ np.diag(modes["a"][k] * modes["b"][k]) @ U.T
        assert np.allclose(maps[k], expected, atol=1e-12)


def test_long_times_keep_their_digits() -> None:
    """exp(2 mu t) cancels in M^{-1}: the working precision grows with t, so float64 results stay exact where plain
    float64 arithmetic would lose them (cf. 1e-5 at max|mu| t = 12), and 30 digits stay 30 digits."""
    W1, W2, Sxy = unaligned_start(3, 2, 2, -1.5, seed=7, dps=80)
    times = [6.0, 20.0]
    reference = qqt(W1, W2, Sxy, times, dps=60)
    assert _relative(qqt(W1, W2, Sxy, times, dps=30), reference, dps=60) < 1e-28
    floats = qqt(to_float(W1), to_float(W2), to_float(Sxy), times)
    assert np.max(np.abs(floats - to_float(reference))) < 1e-13 * np.max(np.abs(floats))


def test_code_orientation_is_the_transpose() -> None:
    W1, W2, Sxy = (to_float(m) for m in unaligned_start(3, 2, 2, 0.4, seed=2))
    assert np.allclose(qqt(W1, W2, Sxy, [1.0]), qqt(W1.T, W2.T, Sxy.T, [1.0], orientation="code"))


def test_inputs_are_checked() -> None:
    W1, W2, Sxy = (to_float(m) for m in unaligned_start(3, 2, 2, 0.4, seed=2))
    with pytest.raises(ValueError, match="lambda-balanced"):
        qqt(W1 * 1.1, W2, Sxy, [1.0])
    with pytest.raises(ValueError, match="Sxy must have shape"):
        qqt(W1, W2, Sxy.T, [1.0])
    with pytest.raises(ValueError, match="times must be >= 0"):
        qqt(W1, W2, Sxy, [-1.0])
    with pytest.raises(ValueError, match="MAX_DIGITS"):
        qqt(W1, W2, Sxy, [10.0 * MAX_DIGITS])
    with pytest.raises(ValueError, match="dps"):
        qqt(W1, W2, Sxy, [1.0], dps=5)
    with pytest.raises(ValueError, match="d, c >= p"):
        unaligned_start(2, 3, 3, 0.5)
    rho = np.array([0.5, 1.0])
    U = np.linalg.qr(np.random.default_rng(0).normal(size=(3, 2)))[0]
    balanced = lambda_balanced_weights(rho, 0.4, U, np.eye(2), np.eye(2))
    assert qqt(*balanced, Sxy, [0.0]).shape == (1, 5, 5)


@pytest.mark.parametrize(
    ("d", "p", "c", "lam"),
    [(2, 2, 2, 2.0), (3, 3, 3, 1.0), (3, 3, 3, -0.3), (4, 4, 4, 0.1), (3, 2, 2, 0.4), (2, 2, 3, -0.5)],
)
def test_float64_form_agrees_with_mpmath_on_random_starts(d, p, c, lam) -> None:
    """F with exactly p positive eigenvalues (d = p = c, or p = c < d with lambda > 0, p = d < c with lambda < 0):
    the cancellation-free float64 form against 40 digits, at times up to 50 (where the form as
    written would have lost all digits): within its error estimate, the estimate within FLOAT64_TOLERANCE, so
    qqt(dps=None) returns exactly the float64 values."""
    times = [0.0, 1e-3, 0.5, 3.0, 15.0, 50.0]
    for seed in range(3):
        W1, W2, Sxy = unaligned_start(d, p, c, lam, seed=seed)
        reference = to_float(qqt(W1, W2, Sxy, times, dps=40))
        fast = qqt_float64(to_float(W1), to_float(W2), to_float(Sxy), times)
        scale = np.max(np.abs(reference), axis=(1, 2))
        error = np.max(np.abs(fast.P - reference), axis=(1, 2)) / scale
        assert np.all(error <= fast.estimate), (error, fast.estimate)
        assert np.all(fast.estimate <= FLOAT64_TOLERANCE) and np.all(error < 1e-14)
        assert np.array_equal(qqt(to_float(W1), to_float(W2), to_float(Sxy), times), fast.P)


def _ill_conditioned_start(lam: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """d = p = c = 2, a tiny lambda and one mode with W2 ~ -W1 (as s2 = -sqrt(s1^2 + lambda)): its column of Q
    lies within ~lambda of F's decaying eigenvector, so q_+ has condition ~1/lambda."""
    rng = np.random.default_rng(0)
    U, V, R = (np.linalg.qr(rng.normal(size=(2, 2)))[0] for _ in range(3))
    s1, s2 = np.array([1.0, 0.8]), np.array([-np.sqrt(1 + lam), np.sqrt(0.64 + lam)])
    return U @ np.diag(s1) @ R, R.T @ np.diag(s2) @ V.T, U @ np.diag([1.0, 0.5]) @ V.T


def test_an_ill_conditioned_start_goes_to_mpmath() -> None:
    """Where the estimate exceeds FLOAT64_TOLERANCE the float64 form is in fact off (3e-9 at t = 0 here), and qqt
    evaluates in mpmath instead: within 1e-15 of 40 digits on the same float64 inputs."""
    W1, W2, Sxy = _ill_conditioned_start(1e-8)
    times = [0.0, 0.5]
    fast = qqt_float64(W1, W2, Sxy, times)
    assert np.all(fast.estimate > FLOAT64_TOLERANCE)
    lam = float(qqt_module.balance(W1, W2))
    exact = np.vectorize(mpmath.mpf, otypes=[object])
    with mpmath.workdps(50):
        reference = to_float(qqt_module._qqt_mpmath(exact(W1), exact(W2), exact(Sxy), mpmath.mpf(lam), times, 40))
    scale = np.max(np.abs(reference))
    assert np.max(np.abs(fast.P - reference)) > 1e-10 * scale  # always float64 would be wrong here
    assert np.max(np.abs(qqt(W1, W2, Sxy, times) - reference)) < 1e-15 * scale


def test_float64_form_refuses_where_it_does_not_apply() -> None:
    """p < min(d, c), or p = c < d with lambda < 0: F has more than p positive eigenvalues; qqt evaluates in
    mpmath."""
    for d, p, c, lam in ((3, 2, 3, 0.4), (3, 2, 2, -1.5)):
        W1, W2, Sxy = (to_float(m) for m in unaligned_start(d, p, c, lam, seed=2))
        with pytest.raises(ValueError, match="exactly p positive eigenvalues"):
            qqt_float64(W1, W2, Sxy, [1.0])
        assert qqt(W1, W2, Sxy, [1.0]).shape == (1, d + c, d + c)
    W1, W2, Sxy = (to_float(m) for m in unaligned_start(3, 2, 2, 0.4, seed=2))
    with pytest.raises(ValueError, match="times must be >= 0"):
        qqt_float64(W1, W2, Sxy, [-1.0])
    with pytest.raises(ValueError, match="lambda-balanced"):
        qqt_float64(W1 * 1.1, W2, Sxy, [1.0])
