"""Numerics of the new AGF items: the network's gradient flow (``network_flow``), the kappa = 3 problems and bound
(``quadratic_problems``), modular addition as data, its plateau levels and frequency-aligned neurons
(``modular_network``)."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.alternating.network_flow import two_layer_gradient_flow
from numerics.alternating.two_layer import Network
from proofs_check.papers.kunin2025.modular import maximal_utility
from proofs_check.papers.kunin2025.modular_network import (
    cyclic_neurons,
    fit_neurons,
    frequency_component,
    frequency_order,
    frequency_powers,
    modular_data,
    plateau_levels,
    span_fraction,
    span_neurons,
)
from proofs_check.papers.kunin2025.quadratic_problems import (
    dln_tie_problem,
    jump_bound,
    mirrored_problem,
    quadratic_maximal_utility,
    teacher_problem,
)
from proofs_check.papers.kunin2025.reference_problems import authors_template, modular_template
from proofs_check.papers.kunin2025.settings import modular_utility


def _loss(x, outputs, hidden) -> float:
    X, Y = modular_data(x)
    return Network(X, Y, "quadratic", np.ones(hidden.shape, dtype=bool)).loss(outputs, hidden)


def test_modular_data_is_the_network_of_modular_utility() -> None:
    x = modular_template(p=7, seed=1)
    X, Y = modular_data(x)
    rng = np.random.default_rng(0)
    u, v, w = rng.normal(size=(3, 7))
    net = Network(X, Y, "quadratic", np.ones((1, 14), dtype=bool))
    utility, _, _ = net.utility_gradient(Y, w[None], np.concatenate([u, v])[None], np.arange(1))
    assert np.isclose(utility[0], modular_utility(u, v, w, x), rtol=1e-12)


def test_plateau_levels_are_reached_by_six_cyclic_neurons_per_frequency() -> None:
    x = modular_template(p=7, seed=2)
    levels, order = plateau_levels(x), frequency_order(x)
    assert np.isclose(levels[0], 0.5 * np.sum(x**2)) and np.isclose(np.sum(frequency_powers(x)), np.sum(x**2))
    out, hid = cyclic_neurons(x, int(order[0]))
    assert np.isclose(_loss(x, out, hid), levels[1], rtol=1e-12)
    assert _loss(x, out[:5], hid[:5]) > levels[1] * 1.01  # five of the six leave harmonics uncancelled
    wrong_out, wrong_hid = cyclic_neurons(x, int(order[0]), t=2)
    assert _loss(x, wrong_out, wrong_hid) > levels[1] * 1.01


def test_span_neurons_and_frequency_component() -> None:
    x = modular_template(p=7, seed=2)
    k = int(frequency_order(x)[0])
    assert np.isclose(maximal_utility(frequency_component(x, k)), maximal_utility(x))
    out, hid = span_neurons(x, k, [1.0 + 0.5j], [0.3 - 1j], [0.2j])
    spectrum = np.abs(np.fft.fft(np.vstack([out, hid[:, :7], hid[:, 7:]]), axis=1))
    assert np.allclose(np.delete(spectrum, [k, 7 - k], axis=1), 0, atol=1e-12)
    with pytest.raises(ValueError, match="k must be"):
        frequency_component(x, 4)
    with pytest.raises(ValueError, match="self-conjugate"):
        cyclic_neurons(modular_template(p=6), 3)
    with pytest.raises(ValueError, match="k must be"):
        fit_neurons(modular_template(p=6), 4)


@pytest.mark.parametrize(("p", "seed"), [(8, 2), (20, 13)])
def test_even_p_levels_are_the_network_loss_at_the_fits(p, seed) -> None:
    """Even p (the authors use p = 20): each level is the network's own loss with the dominant frequencies fit, the
    self-conjugate p/2 by two neurons; its power counted twice (the odd-p formula 2|x^[p/2]|²/p) is refuted."""
    x = modular_template(p=p, seed=seed)
    levels, order, powers = plateau_levels(x), frequency_order(x), frequency_powers(x)
    assert len(levels) == p // 2 + 1 and np.isclose(np.sum(powers), np.sum(x**2))
    outputs, hidden = [np.zeros((1, p))], [np.zeros((1, 2 * p))]
    for K, k in enumerate(order, start=1):
        out, hid = fit_neurons(x, int(k))
        outputs.append(out)
        hidden.append(hid)
        assert np.isclose(_loss(x, np.vstack(outputs), np.vstack(hidden)), levels[K], rtol=1e-12, atol=1e-13), K
    nyquist = 2 * np.abs(np.fft.fft(x)[p // 2]) ** 2 / p
    out, hid = fit_neurons(x, p // 2)
    fit_alone = _loss(x, out, hid)
    assert np.isclose(fit_alone, 0.5 * (np.sum(x**2) - nyquist / 2), rtol=1e-12)
    assert abs(fit_alone - 0.5 * (np.sum(x**2) - nyquist)) > 1e-3 * fit_alone


def test_authors_p20_template_levels_by_parseval() -> None:
    """The authors' p = 20 template: ||x||² = (2·10² + 2·5² + 2·2.5²)/20 by Parseval, and fitting frequencies 1, 3, 5
    removes 2·10²/20, 2·5²/20, 2·2.5²/20; the absent frequencies need no neuron."""
    x = authors_template()
    expected = 0.5 * np.array([262.5, 62.5, 12.5, 0.0]) / 20
    assert np.allclose(plateau_levels(x)[:4], expected, rtol=1e-12, atol=1e-12)
    assert np.allclose(plateau_levels(x)[4:], 0, atol=1e-12)
    assert tuple(frequency_order(x)[:3]) == (1, 3, 5)
    out, hid = fit_neurons(x, 2)
    assert out.shape == (0, 20) and hid.shape == (0, 40)
    with pytest.raises(ValueError, match="p must be"):
        authors_template(8)


def test_even_p_self_conjugate_level_by_lbfgs() -> None:
    """Independent of fit_neurons: L-BFGS over neurons in the span of frequency p/2 (the real network's loss) fits
    all of P_{p/2} with two neurons and half of it with one."""
    x = modular_template(p=8, seed=2)
    assert abs(span_fraction(x, 4, 2, starts=2)) < 1e-8
    assert abs(span_fraction(x, 4, 1, starts=2) - 0.5) < 1e-8


def test_single_neuron_fraction_numerically() -> None:
    x = modular_template(p=5, seed=3)
    assert abs(span_fraction(x, int(frequency_order(x)[0]), 1, starts=2) - 8 / 9) < 1e-8
    with pytest.raises(ValueError, match="m"):
        span_fraction(x, 1, 0)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("m", "starts", "expected", "tolerance"), [(3, 40, 0.326, 1e-3), (4, 8, 1 / 6, 1e-3), (5, 4, 0, 1e-5)]
)
def test_spec_fractions_for_three_to_five_neurons(m, starts, expected, tolerance) -> None:
    """Spec §4d [D]: 0.326 (3 neurons), 0.167 (4), an infimum 0 not attained (5)."""
    x = modular_template(p=7, seed=3)
    found = span_fraction(x, int(frequency_order(x)[0]), m, starts=starts, seed=1)
    assert abs(found - expected) < tolerance
    if m == 5:
        assert found > 0


def test_quadratic_maximal_utility_against_projected_ascent() -> None:
    X, Y, _, _ = teacher_problem(1e-2)
    target = quadratic_maximal_utility(X, Y)
    net = Network(X, Y, "quadratic", np.ones((1, 3), dtype=bool))
    theta = np.array([0.5, 0.3, -0.2, 0.1])
    for _ in range(4000):
        theta /= np.linalg.norm(theta)
        u, ga, gw = net.utility_gradient(Y, theta[None, :1], theta[None, 1:], np.arange(1))
        theta = theta + 0.01 * np.concatenate([ga[0], gw[0]])
    assert np.isclose(u[0], target, rtol=1e-8)


def test_jump_bound_and_problems() -> None:
    assert np.isclose(jump_bound(2.0, 0.5, 1e-2), 1e-2 / 3)
    with pytest.raises(ValueError, match="kappa"):
        jump_bound(1.0, 1.0, 1e-2, kappa=2)
    with pytest.raises(ValueError, match="dormant_norm"):
        jump_bound(1.0, 0.0, 1e-2)
    X, _, _, w0 = mirrored_problem(1e-3)
    swapped = X[:, [1, 0, 2]]
    assert {tuple(r) for r in swapped} == {tuple(r) for r in X}
    assert np.array_equal(w0[1], w0[0][[1, 0, 2]]) and w0[2, 0] == w0[2, 1]
    X, _ = dln_tie_problem()
    assert np.allclose(X.T @ X / len(X), np.eye(3))


def test_network_flow_conserves_the_imbalance_and_decreases_the_loss() -> None:
    X, Y, a0, w0 = teacher_problem(1e-2)
    flow = two_layer_gradient_flow(X, Y, a0, w0, 1e-2, 1.0)
    a, w = flow.weights([0.0, 0.5, 1.0])
    imbalance = 2 * np.sum(a**2, axis=2) - np.sum(w**2, axis=2)  # (kappa - 1)|a|² - |w|², conserved by GF
    assert np.allclose(imbalance, imbalance[0], atol=1e-9)
    assert np.all(np.diff(flow.loss(np.linspace(0, 1, 50))) <= 1e-12)
    with pytest.raises(ValueError, match="rtol"):
        two_layer_gradient_flow(X, Y, a0, w0, 1e-2, 1.0, rtol=0.1)
    with pytest.raises(ValueError, match="activation"):
        two_layer_gradient_flow(X, Y, a0, w0, 1e-2, 1.0, activation="relu")
    with pytest.raises(ValueError, match="shapes"):
        two_layer_gradient_flow(X, Y, a0, w0[:, :2], 1e-2, 1.0)
