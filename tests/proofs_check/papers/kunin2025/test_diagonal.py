"""Diagonal linear networks (spec §4a): Pesme–Flammarion and the exact GF against the spec's reference tests A, B."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.alternating.ground_truth import agreement, first_exceedances, sign_changes
from proofs_check.papers.kunin2025.diagonal import dln_gradient_descent, dln_gradient_flow, pesme_flammarion

SPEC_A_TIMES = [0.329, 0.535, 0.954, 5.83, 16.1]
SPEC_A_LEVELS = [27.96, 12.98, 2.244, 0.181, 0.0409, 0.0]
# spec §5A: max relative jump-time error over the five jumps at alpha = 1e-4, 1e-8, 1e-16, 1e-32
SPEC_A_MAX_RELATIVE = {1e-4: 0.21, 1e-8: 0.105, 1e-16: 0.053, 1e-32: 0.026}


@pytest.fixture(scope="module")
def problem_a() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(10)
    X = rng.normal(size=(20, 5)) * np.sqrt(1 / np.arange(1, 6))
    return X, X @ (10 * rng.normal(size=5))


@pytest.fixture(scope="module")
def problem_b() -> tuple[np.ndarray, np.ndarray]:
    angle = np.deg2rad(150)
    R = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    X = np.linalg.cholesky(R @ np.diag([1.0, 25.0]) @ R.T)
    return X, X @ np.array([-0.2, 2.0])


def test_pf_reproduces_reference_a(problem_a) -> None:
    saddles = pesme_flammarion(*problem_a)
    assert np.allclose([s.time for s in saddles[1:]], SPEC_A_TIMES, rtol=5e-3)
    assert np.allclose([s.loss for s in saddles], SPEC_A_LEVELS, rtol=5e-3, atol=1e-12)
    assert [s.active for s in saddles] == [(), (1,), (1, 3), (0, 1, 3), (0, 1, 2, 3), (0, 1, 2, 3, 4)]


def test_pf_reproduces_reference_b(problem_b) -> None:
    saddles = pesme_flammarion(*problem_b)
    assert np.allclose([s.time for s in saddles[1:]], [0.193, 0.600, 3.457], atol=1e-3)
    assert np.allclose(saddles[2].beta, [0.0, 1.584], atol=1e-3) and saddles[2].s[0] == 1.0
    assert (saddles[2].time + saddles[3].time) / 2 == pytest.approx(2.029, abs=1e-3)


@pytest.mark.parametrize("alpha", [1e-4, 1e-8, 1e-16, 1e-32])
def test_gf_jumps_converge_like_one_over_log(problem_a, alpha: float) -> None:
    """Spec §5A: all GF jumps late, max relative error within the spec's figure (ours: 0.18, 0.090, 0.045, 0.0225;
    the spec's 0.21 … 0.026 use an unstated rule for the final zero level), relative error x log(1/alpha) in
    [0.6, 2], plateau midpoints at the PF levels."""
    saddles = pesme_flammarion(*problem_a)
    run = agreement(
        dln_gradient_flow(*problem_a, alpha, 26.0), [s.time for s in saddles[1:]], [s.loss for s in saddles], alpha
    )
    relative_log = run.relative_errors * np.log(1 / alpha)
    assert np.all(run.relative_errors > 0)
    assert np.max(run.relative_errors) <= SPEC_A_MAX_RELATIVE[alpha]
    assert np.all((relative_log > 0.6) & (relative_log < 2.0)), relative_log
    assert np.max(run.plateau_errors) < 0.05


def test_gf_activation_order_and_final_point(problem_a) -> None:
    path = dln_gradient_flow(*problem_a, 1e-16, 26.0)
    assert list(np.argsort(first_exceedances(path, 1e-3)) + 1) == [2, 4, 1, 3, 5]
    beta_star = np.linalg.lstsq(*problem_a, rcond=None)[0]
    assert np.allclose(path.state(np.array([26.0]))[0], beta_star, atol=1e-9)


def test_gd_follows_the_gf_staircase(problem_a) -> None:
    """Spec §5A: plain GD with lr 1e-3 (t = lr steps) also works; its jumps match GF's to O(lr)."""
    saddles = pesme_flammarion(*problem_a)
    predicted, levels = [s.time for s in saddles[1:]], [s.loss for s in saddles]
    gd = agreement(dln_gradient_descent(*problem_a, 1e-4, 26.0), predicted, levels, 1e-4)
    gf = agreement(dln_gradient_flow(*problem_a, 1e-4, 26.0), predicted, levels, 1e-4)
    assert np.allclose(gd.jump_times, gf.jump_times, rtol=5e-3)
    assert not np.allclose(gd.jump_times, gf.jump_times, rtol=1e-6)  # GD is a different process, not GF relabelled


def test_gf_sign_flip_matches_the_spec(problem_b) -> None:
    """Spec §5B: exact-GF sign change of beta_1 at 2.042, 2.035, 2.032, 2.030 for alpha = 1e-4 … 1e-32."""
    flips = [sign_changes(dln_gradient_flow(*problem_b, alpha, 6.0), 0)[0] for alpha in (1e-4, 1e-8, 1e-16, 1e-32)]
    assert np.allclose(flips, [2.042, 2.035, 2.032, 2.030], atol=1e-3)


def test_bad_input(problem_a) -> None:
    X, y = problem_a
    with pytest.raises(ValueError, match="alpha"):
        dln_gradient_flow(X, y, 0.0, 1.0)
    with pytest.raises(ValueError, match="t_end"):
        dln_gradient_flow(X, y, 1e-3, -1.0)
    with pytest.raises(ValueError, match="X must have shape"):
        pesme_flammarion(X, y[:-1])
    with pytest.raises(ValueError, match="max_steps"):
        pesme_flammarion(X, y, max_steps=0)
    with pytest.raises(ValueError, match="lr"):
        dln_gradient_descent(X, y, 1e-3, 1.0, lr=0.0)
    with pytest.raises(RuntimeError, match="max_steps"):
        pesme_flammarion(X, y, max_steps=2)
