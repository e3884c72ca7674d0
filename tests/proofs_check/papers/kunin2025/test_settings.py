"""Closed-form predictions of spec §4b–d against independent formulas, Monte Carlo and gradient flow."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.alternating.ground_truth import agreement, jump_thresholds, measured_jumps
from proofs_check.papers.kunin2025.attention import (
    attention_gradient_flow,
    attention_jump_bound,
    attention_loss,
    attention_loss_levels,
)
from proofs_check.papers.kunin2025.fully_connected import (
    conjectured_jump_times,
    fcn_gradient_flow,
    rrr_saddles,
    whitened_jump_times,
)
from proofs_check.papers.kunin2025.modular import (
    dominant_frequency,
    fourier_utility,
    maximal_utility,
    modular_utility,
    theorem51_neuron,
    utility_ascent,
)
from proofs_check.papers.kunin2025.reference_problems import fcn_problem, modular_template

# --------------------------------------------------------------------------------------------- (b) FCN


def test_whitened_jump_times_and_levels_by_hand() -> None:
    """Syx = diag(4, 2, 1), Sxx = I: tau = 1/4, 1/2, 1 and l_k = ½(tr Syy - sum_{j<=k} s_j²)."""
    Syx = np.diag([4.0, 2.0, 1.0])
    Syy = Syx @ Syx.T + 0.5 * np.eye(3)
    assert np.allclose(whitened_jump_times(Syx), [0.25, 0.5, 1.0])
    assert np.allclose(conjectured_jump_times(np.eye(3), Syx), [0.25, 0.5, 1.0])
    betas, levels = rrr_saddles(np.eye(3), Syx, Syy)
    assert np.allclose(levels, 0.5 * (22.5 - np.array([0.0, 16.0, 20.0, 21.0])))
    assert np.allclose(betas[1], np.diag([4.0, 0.0, 0.0]))


def test_conjecture_4_1_two_modes_by_hand() -> None:
    """Sxx = diag(1, 4), Syx = I: mu = (1, 1/4) with U = (e_1, e_2), sigma^(0) = (1, 1), sigma^(1) = (1, 0):
    tau_1 = 1 and tau_2 = tau_1 + (1 - sigma^(0)_2 tau_1) / sigma^(1)_1 = 1 (both modes at once)."""
    Sxx, Syx = np.diag([1.0, 4.0]), np.eye(2)
    assert np.allclose(conjectured_jump_times(Sxx, Syx), [1.0, 1.0])
    # levels ½(tr Syy - sum mu_j) with tr Syy = 2
    _, levels = rrr_saddles(Sxx, Syx, np.eye(2))
    assert np.allclose(levels, [1.0, 0.5, 0.375])


@pytest.mark.parametrize("whitened", [True, False])
def test_fcn_gf_converges_to_the_predicted_staircase(whitened: bool) -> None:
    Sxx, Syx, Syy = fcn_problem(whitened)
    _, levels = rrr_saddles(Sxx, Syx, Syy)
    predicted = whitened_jump_times(Syx) if whitened else conjectured_jump_times(Sxx, Syx)
    runs = [agreement(fcn_gradient_flow(Sxx, Syx, Syy, a, 4, 22.0), predicted, levels, a) for a in (1e-4, 1e-8)]
    assert np.allclose(runs[0].scaled_errors, runs[1].scaled_errors, rtol=0.01, atol=0.01)
    assert np.all(np.abs(runs[1].relative_errors) < np.abs(runs[0].relative_errors))
    assert np.max(runs[1].plateau_errors) < 1e-3


def test_fcn_bad_input() -> None:
    Sxx, Syx, Syy = fcn_problem(True)
    with pytest.raises(ValueError, match="Sxx"):
        rrr_saddles(-Sxx, Syx, Syy)
    with pytest.raises(ValueError, match="width"):
        fcn_gradient_flow(Sxx, Syx, Syy, 1e-3, 0, 1.0)
    with pytest.raises(ValueError, match="alpha"):
        fcn_gradient_flow(Sxx, Syx, Syy, 2.0, 4, 1.0)


# --------------------------------------------------------------------------------------------- (c) attention


def test_attention_loss_matches_monte_carlo() -> None:
    """The Wishart closed form of the population loss against 4e5 sampled prompts (3 standard errors)."""
    rng = np.random.default_rng(0)
    lam, N, D = np.array([1.0, 0.6, 0.3]), 4, 3
    Gamma = rng.normal(size=(D, D)) * 0.2
    samples = 400_000
    x = rng.normal(size=(samples, N, D)) * np.sqrt(lam)
    w = rng.normal(size=(samples, D))
    xq = rng.normal(size=(samples, D)) * np.sqrt(lam)
    z = np.einsum("snd,sn->sd", x, np.einsum("snd,sd->sn", x, w))
    errors = 0.5 * (np.einsum("sd,sd->s", xq, w) - np.einsum("sd,de,se->s", xq, Gamma, z)) ** 2
    assert attention_loss(Gamma, lam, N) == pytest.approx(errors.mean(), abs=3 * errors.std() / np.sqrt(samples))


def test_attention_levels_by_hand() -> None:
    """lam = (2, 1), N = 1: tr = 3, gains 4/7 and 1/5."""
    assert np.allclose(attention_loss_levels([2.0, 1.0], 1), [1.5, 1.5 - 2 / 7, 1.5 - 2 / 7 - 1 / 10])


def test_attention_gf_plateaus_and_bound() -> None:
    lam, N, alpha = np.array([1.0, 0.6, 0.3]), 5, 1e-3
    levels = attention_loss_levels(lam, N)
    path, norms = attention_gradient_flow(lam, N, 3, alpha, 40.0)
    jumps = measured_jumps(path, levels)
    edges = np.concatenate([[0.0], jumps])
    assert np.allclose(path.loss((edges[:-1] + edges[1:]) / 2), levels[:-1], rtol=1e-6)
    assert path.loss(np.array([40.0]))[0] == pytest.approx(levels[-1], rel=1e-8)
    first_bound = attention_jump_bound(lam[0], N, float(norms(np.array([0.0]))[0].max()), alpha)
    assert first_bound < jumps[0]


def test_attention_bad_input() -> None:
    with pytest.raises(ValueError, match="lam"):
        attention_loss_levels([0.3, 1.0], 5)
    with pytest.raises(ValueError, match="N"):
        attention_loss_levels([1.0], 0)
    with pytest.raises(ValueError, match="heads"):
        attention_gradient_flow([1.0], 2, 0, 1e-2, 1.0)


# --------------------------------------------------------------------------------------------- (d) modular


def test_fourier_form_equals_direct_sum() -> None:
    x = modular_template()
    u, v, w = np.random.default_rng(2).normal(size=(3, 13))
    assert fourier_utility(u, v, w, x) == pytest.approx(modular_utility(u, v, w, x), rel=1e-12)


def test_theorem51_neuron_attains_the_formula() -> None:
    x = modular_template()
    theta = theorem51_neuron(x, -0.4, 2.0)
    xh = np.abs(np.fft.fft(x))
    k = int(np.argmax(xh[1:7])) + 1
    assert dominant_frequency(x) == k
    assert np.linalg.norm(theta) == pytest.approx(1.0)
    expected = 0.5 * (2 / 39) ** 1.5 * xh[k] ** 3
    assert modular_utility(*theta.reshape(3, 13), x) == pytest.approx(expected, rel=1e-12)
    assert maximal_utility(x) == pytest.approx(expected, rel=1e-12)
    # a wrong phase relation loses utility
    assert modular_utility(*theorem51_neuron(x, -0.4, 2.0, 1.0).reshape(3, 13), x) < 0.99 * expected


def test_gradient_ascent_finds_the_cosine_at_k_star() -> None:
    x = modular_template()
    best = max((utility_ascent(x, seed=s, steps=2000) for s in (2, 3)), key=lambda m: m.utility)
    assert best.utility == pytest.approx(maximal_utility(x), rel=1e-6)
    assert best.energy_at_dominant == pytest.approx(1.0, abs=1e-9)
    assert np.allclose(best.squared_norms, 1 / 3, atol=1e-6)


def test_modular_bad_input() -> None:
    with pytest.raises(ValueError, match="mean-centred"):
        modular_utility(np.ones(5), np.ones(5), np.ones(5), np.arange(5.0))
    with pytest.raises(ValueError, match="unique dominant"):
        dominant_frequency(np.cos(2 * np.pi * np.arange(8) / 8) + np.cos(4 * np.pi * np.arange(8) / 8))


# --------------------------------------------------------------------------------------------- ground truth


def test_jump_thresholds() -> None:
    assert np.allclose(jump_thresholds([4.0, 1.0, 0.0]), [2.0, 0.01])
    with pytest.raises(ValueError, match="decreasing"):
        jump_thresholds([1.0, 2.0])
