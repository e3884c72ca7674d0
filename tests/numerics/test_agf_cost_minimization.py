"""Cost minimization on ill-conditioned modes (issue 13, item 2): GF to |grad L| <= gtol needs a time
log(|grad L|/gtol)/lambda, lambda the weakest curvature; a fixed horizon of 1e4 failed once lambda < ~2e-3.

Ground truth: in the commuting case the jump times are tau_k = 1/sigma_k(Syx) up to O(1/log(1/alpha))
(``whitened_jump_times``, spec §4b), so (tau_k - 1/sigma_k) log(1/alpha) is the same at every alpha; the loss levels
are the reduced-rank regression levels (``rrr_saddles``).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import ortho_group

from numerics import agf
from numerics.alternating import cost_minimization, gaussian_init
from numerics.alternating.cost_minimization import relaxation_rate
from numerics.alternating.two_layer import Network
from numerics.budget import BudgetError
from proofs_check.papers.kunin2025.settings import pesme_flammarion, rrr_saddles, whitened_jump_times


def _commuting(singular_values: list[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Whitened data (X^T X / n = I, n = d) with Syx = U diag(singular_values) V^T; returns (X, Y, Syx)."""
    d = len(singular_values)
    U, V = ortho_group.rvs(d, random_state=1), ortho_group.rvs(d, random_state=2)
    Syx = U @ np.diag(singular_values) @ V.T
    X = np.sqrt(d) * np.eye(d)
    return X, X @ Syx.T, Syx


def test_weak_mode_converges_by_default() -> None:
    """sigma_3 = 3e-4: the last cost minimization relaxes at rate ~6e-4, i.e. over a GF time ~4e4 > 1e4."""
    X, Y, Syx = _commuting([1.0, 0.3, 3e-4])
    predicted = whitened_jump_times(Syx)
    _, levels = rrr_saddles(np.eye(3), Syx, Syx @ Syx.T)
    scaled = []
    for alpha in (1e-15, 1e-30):
        result = agf(X, Y, *gaussian_init(3, 3, 3, alpha, seed=0), alpha)
        assert result.halted == "all neurons active"
        assert np.allclose(result.loss_levels, levels, rtol=1e-9, atol=1e-12 * levels[0])
        scaled.append((result.jump_times - predicted) * np.log(1 / alpha))
    # constant to 1e-5 relative: the differences are the init's O(1) log-norms, not numerical error
    assert np.allclose(scaled[0], scaled[1], rtol=1e-5), scaled


def test_relaxation_rate_is_the_weak_curvature() -> None:
    """One active neuron at the zero-loss minimum a = w = sqrt(sigma) e_1 of L = ½ |diag(sigma, 0) - a w^T|²
    (whitened). By hand, d(a w^T) = [[sqrt(sigma)(da_1 + dw_1), sqrt(sigma) dw_2], [sqrt(sigma) da_2, 0]]: curvature
    2 sigma along da_1 = dw_1, sigma along dw_2 and da_2, and 0 along the scaling orbit (a t, w / t), which is
    excluded. The slowest rate is sigma."""
    X = np.sqrt(2) * np.eye(2)
    sigma = 3e-4
    net = Network(X, X @ np.diag([sigma, 0.0]), "linear", np.ones((1, 2), dtype=bool))
    a, w = np.array([[np.sqrt(sigma), 0.0]]), np.array([[np.sqrt(sigma), 0.0]])
    assert relaxation_rate(net, a, w, np.array([0])) == pytest.approx(sigma, rel=1e-9)
    grad_a, grad_w = net.gradient(a, w, np.array([0]))
    assert np.allclose(grad_a, 0) and np.allclose(grad_w, 0)


def test_budget_error_says_how_to_raise_it() -> None:
    X, Y, _ = _commuting([1.0, 0.3, 3e-4])
    with pytest.raises(BudgetError, match="raise max_cost_time"):
        agf(X, Y, *gaussian_init(3, 3, 3, 1e-15, seed=0), 1e-15, max_cost_time=1e3)


@pytest.mark.slow
def test_issue_setting_fully_connected_d_c_h_10() -> None:
    """The failing case of issue 13: the authors' FCN notebook data (np.random.seed(0), power-law Sxx with
    singular values 1/k², B Gaussian, Syx = B Sxx) realized as n = d = 10 samples, H = 10, alpha = 1e-15, defaults.

    It used to stop at jump 10 (gradient above gtol after time 1e4). Now all 10 modes are learned, at the
    reduced-rank regression levels. (Per-neuron Algorithm 1 does not follow Conjecture 4.1 in the non-commuting
    case; see claim kunin2025.fcn.agf_commuting. Its first jump is 1/sigma_1 up to the init's O(1/log(1/alpha)).)
    """
    rng = np.random.RandomState(0)

    def power_law(dim: int) -> np.ndarray:
        U, _ = np.linalg.qr(rng.randn(dim, dim))
        V, _ = np.linalg.qr(rng.randn(dim, dim))
        return U @ np.diag(1.0 / np.arange(1, dim + 1)) @ V

    rng.randn(10, 10)  # the notebook draws (and discards) a first Sigma_xx
    root = power_law(10)
    Sxx = root @ root.T
    B = rng.randn(10, 10)
    X = np.sqrt(10) * np.linalg.cholesky(Sxx).T
    alpha = 1e-15
    result = agf(X, X @ B.T, *gaussian_init(10, 10, 10, alpha, seed=0), alpha)
    _, levels = rrr_saddles(Sxx, B @ Sxx, B @ Sxx @ B.T)
    assert result.halted == "all neurons active" and len(result.jump_times) == 10
    assert np.allclose(result.loss_levels, levels, rtol=1e-9, atol=1e-12 * levels[0])
    sigma_1 = np.linalg.svd(B @ Sxx, compute_uv=False)[0]
    assert abs(result.jump_times[0] - 1 / sigma_1) * np.log(1 / alpha) < 2 / sigma_1


def _weak_coordinate(max_jumps: int = 10):
    """DLN with beta* = (1, 0.5, 1e-7) on orthogonal data: the third neuron fits its coordinate at norm
    sqrt(2e-7) = 4.5e-4, below collapse_tol = 1e-3, with positive utility throughout."""
    X = np.sqrt(3) * np.eye(3)
    y = X @ np.array([1.0, 0.5, 1e-7])
    start = (np.full(3, np.sqrt(2) * 1e-30), np.zeros((3, 3)), 1e-30)
    return X, y, agf(X, y, *start, support=np.eye(3, dtype=bool), horizon=1e8, max_jumps=max_jumps)


def test_a_small_neuron_with_positive_utility_stays_active() -> None:
    """Pesme–Flammarion (the alpha -> 0 limit): jumps at 1/|grad_i L(0)| = 1, 2, 1e7 and levels to 0."""
    X, y, result = _weak_coordinate()
    saddles = pesme_flammarion(X, y)
    assert result.halted == "all neurons active" and not any(jump.collapsed for jump in result.jumps)
    assert np.allclose(result.jump_times, [s.time for s in saddles[1:]], rtol=1e-9)
    assert np.allclose(result.loss_levels, [s.loss for s in saddles], rtol=1e-6, atol=1e-20)


def test_collapse_without_the_utility_test_cycles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wrong variant, refuted: collapsing every neuron that comes near the origin (utility ignored) sends the
    weak neuron back to dormancy at every jump, and AGF cycles until max_jumps."""
    monkeypatch.setattr(cost_minimization, "_utilities_of_the_rest", lambda net, a, w: -np.ones(len(a)))
    _, _, result = _weak_coordinate(max_jumps=5)
    assert result.halted == "max_jumps reached" and result.jumps[-1].collapsed == (2,)


@pytest.mark.parametrize("activation", ["linear", "quadratic"])
def test_utilities_of_the_rest_in_one_pass_equal_the_per_neuron_residuals(activation: str) -> None:
    """Network.utilities_of_the_rest (all neurons at once) against U_j computed neuron by neuron from the residual
    of the other neurons, built explicitly; dropping the neuron's own contribution (the residual of all) is caught."""
    rng = np.random.default_rng(4)
    X, Y = rng.normal(size=(12, 3)), rng.normal(size=(12, 2))
    net = Network(X, Y, activation, np.ones((4, 3), dtype=bool))
    a, w = rng.normal(size=(4, 2)), rng.normal(size=(4, 3))
    idx = np.arange(4)
    expected = []
    for j in range(4):
        others = np.delete(idx, j)
        rest = Y - net.output(a[others], w[others])
        expected.append(net.utility_gradient(rest, a[j : j + 1], w[j : j + 1], idx[j : j + 1])[0][0])
    assert np.allclose(net.utilities_of_the_rest(a, w), expected, rtol=1e-12, atol=1e-14)
    of_all = net.utility_gradient(net.residual(a, w), a, w, idx)[0]
    assert not np.allclose(of_all, expected, rtol=1e-3)
