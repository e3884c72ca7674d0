"""Power activation (spec models-xu-ziyin2025.md §3): conservation along the full flow, Δ_i = −τ for every neuron,
and the one-dimensional reduction ``numerics.power_activation.reduced_trajectory`` against the full flow.

Expected values are independent of the package: the spec's flow typed in below and integrated by SciPy with the
clock τ as an extra state, and the spec's F_i by mpmath quadrature or its explicit forms (β = 1, 2).
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from derivations.models.power_activation import power_activation
from numerics import trajectory
from numerics.power_activation import reduced_trajectory

PARAMS = {"gamma": 1.3, "eta_u": 0.7, "eta_w": 1.1, "a": 1.5, "b": 0.9}
# c_i = beta eta_w u_i^2 - eta_u w_i^2 > 0 for every neuron, so u_i never vanishes and F_i is regular
CASES = {
    1: {"u": np.array([0.5, -0.6, 0.4]), "w": np.array([0.3, 0.2, -0.35])},
    2: {"u": np.array([0.5, 0.8, -0.4]), "w": np.array([0.4, 0.3, 0.2])},
    3: {"u": np.array([0.9, 0.8, -0.6]), "w": np.array([0.7, 0.5, 0.4])},
}
# beta = 2 with u_i, w_i > 0: the domain of the explicit asinh form
POSITIVE_BETA2 = {"u": np.array([0.5, 0.8, 0.6]), "w": np.array([0.4, 0.3, 0.5])}
TIMES = np.linspace(0.0, 6.0, 7)


def spec_flow(beta: int, params: dict, init: dict, t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Spec §3 typed in: u̇ = −η_u γ E w^β, ẇ = −η_w γ E β u w^{β−1}, τ̇ = γE, E = γ a Σ u w^β − b (DOP853)."""
    g, eu, ew, a, b = (params[k] for k in ("gamma", "eta_u", "eta_w", "a", "b"))
    p = len(init["u"])

    def rhs(_t: float, y: np.ndarray) -> np.ndarray:
        u, w = y[:p], y[p : 2 * p]
        E = g * a * np.sum(u * w**beta) - b
        return np.concatenate([-eu * g * E * w**beta, -ew * g * E * beta * u * w ** (beta - 1), [g * E]])

    y0 = np.concatenate([init["u"], init["w"], [0.0]])
    sol = solve_ivp(rhs, (0, t[-1]), y0, method="DOP853", t_eval=t, rtol=1e-13, atol=1e-15)
    assert sol.success
    return sol.y[:p].T, sol.y[p : 2 * p].T, sol.y[2 * p]


def spec_delta(beta: int, params: dict, u0: float, w0: float, w_t: float) -> mpmath.mpf:
    """Spec §3: F_i(w(t)) − F_i(w(0)) = ∫ dz / (η_w β u(z) z^{β−1}), u(z) = sgn(u_0) sqrt((c + η_u z²)/(β η_w))."""
    with mpmath.workdps(30):
        eu, ew = mpmath.mpf(params["eta_u"]), mpmath.mpf(params["eta_w"])
        u0, w0, w_t = mpmath.mpf(u0), mpmath.mpf(w0), mpmath.mpf(w_t)
        c = beta * ew * u0**2 - eu * w0**2
        sign = mpmath.sign(u0)

        def integrand(z: mpmath.mpf) -> mpmath.mpf:
            return 1 / (ew * beta * sign * mpmath.sqrt((c + eu * z**2) / (beta * ew)) * z ** (beta - 1))

        return mpmath.quad(integrand, [w0, w_t])


def relative_error(got: np.ndarray, expected: np.ndarray) -> float:
    """max over rows of max |got − expected| / ||expected||."""
    return float(np.max(np.max(np.abs(got - expected), axis=-1) / np.linalg.norm(expected, axis=-1)))


def states(result: dict) -> np.ndarray:
    return np.concatenate([result["u"], result["w"]], axis=-1)


# --- conservation and Δ_i = −τ ---------------------------------------------------------------------------------


@pytest.mark.parametrize("beta", [1, 2, 3])
def test_c_i_conserved_along_the_full_flow(beta) -> None:
    init = CASES[beta]
    full = trajectory(power_activation(beta), TIMES, PARAMS, init, method="scipy")
    c = beta * PARAMS["eta_w"] * full["u"] ** 2 - PARAMS["eta_u"] * full["w"] ** 2
    c0 = beta * PARAMS["eta_w"] * init["u"] ** 2 - PARAMS["eta_u"] * init["w"] ** 2
    assert np.max(np.abs(c - c0)) <= 1e-11 * np.max(np.abs(c0))
    assert np.max(np.abs(states(full)[-1] - states(full)[0])) > 1e-2  # the weights did move


@pytest.mark.parametrize("beta", [1, 2, 3])
def test_delta_i_equals_minus_tau_for_every_neuron(beta) -> None:
    init = CASES[beta]
    _, w, tau = spec_flow(beta, PARAMS, init, TIMES)
    assert np.max(np.abs(tau)) > 1e-2
    for k in range(1, len(TIMES)):
        for i in range(len(init["u"])):
            delta = spec_delta(beta, PARAMS, init["u"][i], init["w"][i], w[k, i])
            assert abs(float(delta) + tau[k]) <= 1e-10 * max(1.0, abs(tau[k])), (k, i)


def test_beta1_log_p() -> None:
    """Spec §3: ln p_i(t) − ln p_i(0) = −sqrt(η_u η_w) τ(t), p_i = sqrt(η_w) u_i + sqrt(η_u) w_i (sign of p kept)."""
    init = CASES[1]
    u, w, tau = spec_flow(1, PARAMS, init, TIMES)
    p = np.sqrt(PARAMS["eta_w"]) * u + np.sqrt(PARAMS["eta_u"]) * w
    assert np.all(np.sign(p) == np.sign(p[0]))
    lhs = np.log(np.abs(p)) - np.log(np.abs(p[0]))
    expected = np.broadcast_to(-np.sqrt(PARAMS["eta_u"] * PARAMS["eta_w"]) * tau[:, None], lhs.shape)
    np.testing.assert_allclose(lhs, expected, rtol=0, atol=1e-11)


def test_beta2_explicit_F() -> None:
    """Spec §3, c_i > 0, u_i, w_i > 0: F_i(w) = −asinh(sqrt(c_i)/(sqrt(η_u) w)) / sqrt(2 η_w c_i)."""
    init, eu, ew = POSITIVE_BETA2, PARAMS["eta_u"], PARAMS["eta_w"]
    u, w, tau = spec_flow(2, PARAMS, init, TIMES)
    c = 2 * ew * init["u"] ** 2 - eu * init["w"] ** 2
    assert np.all(c > 0) and np.all(u > 0) and np.all(w > 0)

    def F(x: np.ndarray) -> np.ndarray:
        return -np.arcsinh(np.sqrt(c) / (np.sqrt(eu) * x)) / np.sqrt(2 * ew * c)

    np.testing.assert_allclose(F(w) - F(w[0]), np.broadcast_to(-tau[:, None], w.shape), rtol=0, atol=1e-11)


# --- the one-dimensional reduction -----------------------------------------------------------------------------


@pytest.mark.parametrize("beta", [1, 2, 3])
@pytest.mark.parametrize("b", [0.9, -0.4, 2.5])
def test_reduction_matches_full_flow(beta, b) -> None:
    params = {**PARAMS, "b": b}
    init = CASES[beta]
    reduced = reduced_trajectory(beta, TIMES, params, init)
    full = trajectory(power_activation(beta), TIMES, params, init, method="scipy")
    assert relative_error(states(reduced), states(full)) <= 1e-8
    np.testing.assert_allclose(reduced["output"], full["output"], rtol=1e-8, atol=1e-12)
    _, _, tau = spec_flow(beta, params, init, TIMES)
    np.testing.assert_allclose(reduced["tau"], tau, rtol=1e-8, atol=1e-12)
    np.testing.assert_array_equal(reduced["t"], TIMES)


@pytest.mark.parametrize("beta", [1, 2, 3])
def test_reduction_converges_to_the_minimiser(beta) -> None:
    reduced = reduced_trajectory(beta, [0.0, 60.0], PARAMS, CASES[beta])
    assert reduced["output"][-1] == pytest.approx(PARAMS["b"] / PARAMS["a"], rel=1e-10)


def test_reduction_small_init_plateau() -> None:
    """β = 2 from a small initialization: a long plateau, then the jump to b/a (τ runs far negative)."""
    init = {"u": np.array([0.02, 0.01, 0.015]), "w": np.array([0.01, 0.02, 0.01])}
    params = {"gamma": 1.0, "eta_u": 1.0, "eta_w": 1.0, "a": 1.0, "b": 1.0}
    t = np.linspace(0, 400, 21)
    reduced = reduced_trajectory(2, t, params, init)
    full = trajectory(power_activation(2), t, params, init, method="scipy")
    assert relative_error(states(reduced), states(full)) <= 1e-8
    assert reduced["tau"][-1] < -10 and reduced["output"][-1] == pytest.approx(1.0, rel=1e-10)


def test_reduction_at_a_fixed_point_and_at_t0() -> None:
    init = {"u": np.array([0.5, 0.5]), "w": np.array([0.5, 1.0])}
    params = {**PARAMS, "gamma": 1.0, "a": 1.0, "b": 0.5625}  # E(0) = V(0) - b = 0 exactly in binary
    reduced = reduced_trajectory(3, [0.0, 1.0, 5.0], params, init)
    np.testing.assert_array_equal(reduced["tau"], 0.0)
    np.testing.assert_array_equal(reduced["u"], np.tile(init["u"], (3, 1)))
    start = reduced_trajectory(3, [0.0], PARAMS, CASES[3])
    np.testing.assert_array_equal(states(start)[0], np.concatenate([CASES[3]["u"], CASES[3]["w"]]))


def test_reduction_keeps_the_order_of_times() -> None:
    t = np.array([3.0, 0.5, 2.0, 0.0])
    shuffled = reduced_trajectory(3, t, PARAMS, CASES[3])
    ordered = reduced_trajectory(3, np.sort(t), PARAMS, CASES[3])
    order = np.argsort(t)
    np.testing.assert_allclose(shuffled["u"][order], ordered["u"], rtol=1e-12)
    np.testing.assert_allclose(shuffled["tau"][order], ordered["tau"], rtol=1e-12)


@pytest.mark.parametrize("bad", [0, -2, 1.5, True])
def test_reduction_bad_beta(bad) -> None:
    with pytest.raises(ValueError, match="beta"):
        reduced_trajectory(bad, TIMES, PARAMS, CASES[1])


def test_reduction_bad_inputs() -> None:
    with pytest.raises(ValueError, match="eta_u"):
        reduced_trajectory(2, TIMES, {**PARAMS, "eta_u": -1.0}, CASES[2])
    with pytest.raises(ValueError, match="batch"):
        reduced_trajectory(2, TIMES, PARAMS, {"u": np.ones((2, 3)), "w": np.ones((2, 3))})
    with pytest.raises(ValueError, match="init"):
        reduced_trajectory(2, TIMES, PARAMS, {"u": np.ones(3)})


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(60))
def test_reduction_matches_full_flow_random(seed) -> None:
    """β = 1 … 5, widths 1 … 8, random scales: reduced vs full flow, and Δ_i = −τ on the reduced states."""
    rng = np.random.default_rng(seed)
    beta, p = int(rng.integers(1, 6)), int(rng.integers(1, 9))
    params = {
        "gamma": float(rng.uniform(0.5, 2)),
        "eta_u": float(rng.uniform(0.3, 3)),
        "eta_w": float(rng.uniform(0.3, 3)),
        "a": float(rng.uniform(0.5, 2)),
        "b": float(rng.uniform(-2, 2)),
    }
    scale = 10 ** rng.uniform(-1, 0.2)
    init = {"u": scale * rng.uniform(0.5, 1.5, p) * rng.choice([-1, 1], p), "w": scale * rng.uniform(0.1, 0.8, p)}
    t = np.linspace(0, 30, 16)
    reduced = reduced_trajectory(beta, t, params, init)
    full = trajectory(power_activation(beta), t, params, init, method="scipy")
    assert relative_error(states(reduced), states(full)) <= 1e-8
    c = beta * params["eta_w"] * init["u"] ** 2 - params["eta_u"] * init["w"] ** 2
    for i in np.flatnonzero(c > 0)[:2]:
        for k in (5, 15):
            delta = spec_delta(beta, params, init["u"][i], init["w"][i], reduced["w"][k, i])
            assert abs(float(delta) + reduced["tau"][k]) <= 1e-8 * max(1.0, abs(reduced["tau"][k]))
