"""The closed form of the single neuron (Kunin et al. 2024) through ``numerics.linear_flow``: float64 and 30 digits
against the 40-digit integration of the derived flow (``method="mpmath"``, independent of ``derivations.solve``),
over hypothesis-drawn unbalanced starts, among them delta < 0 starts whose a crosses 0 (where z = w/a blows up and
u = expm(K t) x0 does not); the block-exponential integral against quadrature; the loud refusals."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.models.single_neuron import single_neuron
from numerics import trajectory
from numerics.linear_flow import linear_flow_mpmath, linear_flow_numpy

TIMES = [0.0, 0.4, 1.3, 3.0]


@st.composite
def unbalanced(draw, d: int) -> tuple[dict, dict, bool]:
    """Parameters and one start: beta with |beta| >= 0.3, and either delta > 0 (a large, w small) or a start with
    delta < 0, a < 0 and beta^T w > 0, so that a rises through 0. Returns (params, init, crossing)."""
    beta = np.array([draw(st.floats(-1.5, 1.5)) for _ in range(d)])
    if np.linalg.norm(beta) < 0.3:
        beta[0] = 0.3 + abs(beta[0])
    crossing = draw(st.booleans())
    if crossing:
        a0 = -draw(st.floats(0.02, 0.4))
        along = draw(st.floats(1.0, 2.0)) / np.linalg.norm(beta)
        w0 = along * beta + np.array([draw(st.floats(-0.2, 0.2)) for _ in range(d)])
    else:
        a0 = draw(st.floats(1.0, 2.0)) * draw(st.sampled_from([-1.0, 1.0]))
        w0 = np.array([draw(st.floats(-0.3, 0.3)) for _ in range(d)])
    params = {f"beta_{k + 1}": float(beta[k]) for k in range(d)}
    init = {"a": np.array([a0]), **{f"w_{k + 1}": np.array([float(w0[k])]) for k in range(d)}}
    return params, init, crossing


def _errors(model, params, init, crossing, times=TIMES) -> tuple[float, float]:
    """The worst errors of the float64 and the 30-digit closed form against the 40-digit integration, relative to
    the state's scale (its largest magnitude over the trajectory)."""
    reference = trajectory(model, times, params, init, method="mpmath", dps=40, max_steps=20000)
    a = np.asarray(reference["a"], dtype=float)
    if crossing:
        assert a[0, 0] < 0 < a[-1, 0], "the reference does not cross a = 0"
    double = trajectory(model, times, params, init)
    digits = trajectory(model, times, params, init, dps=30)
    scale = max(float(np.max(np.abs(np.asarray(reference[n], dtype=float)))) for n in model.state_names)
    worst64, worst30 = 0.0, mpmath.mpf(0)
    for name in model.state_names:
        ref = np.asarray(reference[name], dtype=object).ravel()
        worst64 = max(worst64, float(np.max(np.abs(np.asarray(double[name], dtype=float).ravel() - ref.astype(float)))))
        worst30 = max(worst30, max(abs(x - y) for x, y in zip(np.ravel(digits[name]), ref, strict=True)))
    return worst64 / scale, float(worst30 / scale)


@pytest.mark.slow  # about 10 s per example (the 40-digit integration)
@pytest.mark.parametrize("d", [2, 3])
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_closed_form_against_40_digit_integration(d: int, data) -> None:
    model = single_neuron(d)
    params, init, crossing = data.draw(unbalanced(d))
    float64, thirty = _errors(model, params, init, crossing)
    assert float64 <= 1e-10
    assert thirty <= 1e-25


PARAMS = {"beta_1": 1.0, "beta_2": -0.5}
CROSSING = {"a": np.array([-0.2]), "w_1": np.array([1.4]), "w_2": np.array([-0.5])}


def test_a_crossing_of_a_zero() -> None:
    """A fixed delta < 0 start whose a crosses 0 (z = w/a is infinite there)."""
    float64, thirty = _errors(single_neuron(2), PARAMS, CROSSING, True, [0.0, 0.5, 1.5])
    assert float64 <= 1e-10 and thirty <= 1e-25


def test_layer_learning_rates() -> None:
    rates = {**PARAMS, "eta_a": 2.0, "eta_w": 0.5}
    float64, thirty = _errors(single_neuron(2, learning_rates=True), rates, CROSSING, True, [0.0, 0.5, 1.5])
    assert float64 <= 1e-10 and thirty <= 1e-25


def test_the_block_exponential_integral_against_quadrature() -> None:
    """J(t) = int_0^t u^T Q u against mpmath.quad of the same integrand (u by mpmath.expm), and u itself."""
    rng = np.random.default_rng(3)
    K = rng.normal(size=(1, 3, 3))
    Q = rng.normal(size=(1, 3, 3))
    Q = -(Q @ np.swapaxes(Q, -1, -2))  # negative semidefinite: 1 - 2 J >= 1
    x0 = rng.normal(size=(1, 3))
    t = np.array([0.0, 0.7, 2.0])
    u, kappa = linear_flow_numpy(K, Q, x0, t)
    with mpmath.workdps(30):
        Km, Qm, xm = mpmath.matrix(K[0].tolist()), mpmath.matrix(Q[0].tolist()), mpmath.matrix(x0[0].tolist())

        def s(tau):
            v = mpmath.expm(Km * tau) * xm
            return (v.T * Qm * v)[0, 0]

        for index, time in enumerate(t):
            J = mpmath.quad(s, [0, time])
            assert abs(kappa[index, 0] - 1 / mpmath.sqrt(1 - 2 * J)) <= 1e-12
            v = mpmath.expm(Km * time) * xm
            assert max(abs(u[index, 0, i] - v[i]) for i in range(3)) <= 1e-12 * mpmath.mnorm(v, 1)
        mu, mkappa = linear_flow_mpmath(K.astype(object), Q.astype(object), x0.astype(object), t.astype(object))
        J = mpmath.quad(s, [0, 2])
        assert abs(mkappa[2, 0] - 1 / mpmath.sqrt(1 - 2 * J)) <= mpmath.mpf(10) ** -25
        v = mpmath.expm(Km * 2) * xm
        assert max(abs(mu[2, 0, i] - v[i]) for i in range(3)) <= mpmath.mpf(10) ** -25 * mpmath.mnorm(v, 1)


CASES = {
    # a unit of the single neuron whose start lies close to the decaying modes (x0^T W x0 cancels 1e5-fold)
    "eigenbasis": (
        [[-0.4404, 2.4375, -1.75], [2.4375, 0, 0], [-1.75, 0, 0]],
        [[-1, 0, 0], [0, 0, 0], [0, 0, 0]],
        [-0.03251437, -0.35843275, -0.55599791],
    ),
    # a Jordan block (no eigenbasis): the block exponentials
    "blocks": ([[0.5, 1, 0], [0, 0.5, 0], [0, 0, -1]], [[-1, 0.2, 0], [0.2, -0.5, 0], [0, 0, -1]], [0.3, -0.2, 1.0]),
}


@pytest.mark.parametrize("case", CASES)
def test_both_float64_paths_against_quadrature(case: str) -> None:
    """u against mpmath.expm and kappa against mpmath.quad of u^T Q u, relative 1e-13 of the state's scale."""
    import numerics.linear_flow as lf

    K, Q, x0 = (np.array(v, dtype=float) for v in CASES[case])
    t = np.array([0.5, 6.0])
    V = np.linalg.eig(K)[1]
    assert (np.linalg.cond(V) <= lf.EIGEN_CONDITION) == (case == "eigenbasis")
    u, kappa = linear_flow_numpy(K[None], Q[None], x0[None], t)
    with mpmath.workdps(25):
        Km, Qm, xm = mpmath.matrix(K.tolist()), mpmath.matrix(Q.tolist()), mpmath.matrix(x0.tolist())

        def s(tau):
            v = mpmath.expm(Km * tau) * xm
            return (v.T * Qm * v)[0, 0]

        for index, time in enumerate(t):
            v = mpmath.expm(Km * time) * xm
            J = mpmath.quad(s, mpmath.linspace(0, time, 4), method="gauss-legendre")
            k = 1 / mpmath.sqrt(1 - 2 * J)
            state = [k * v[i] for i in range(3)]
            scale = max(max(abs(x) for x in state), max(abs(x) for x in x0))
            error = max(abs(kappa[index, 0] * u[index, 0, i] - state[i]) for i in range(3))
            assert error <= 1e-13 * scale, (case, time, float(error / scale))


def test_a_finite_time_blow_up_is_refused() -> None:
    """s > 0 (not a gradient flow of a loss bounded below): 1 - 2 J reaches 0 at t = 1/2, refused, never NaN."""
    K, Q, x0 = np.zeros((1, 1, 1)), np.ones((1, 1, 1)), np.ones((1, 1))
    with pytest.raises(ValueError, match="finite-time blow-up"):
        linear_flow_numpy(K, Q, x0, np.array([0.0, 1.0]))
    with mpmath.workdps(20), pytest.raises(ValueError, match="finite-time blow-up"):
        linear_flow_mpmath(K.astype(object), Q.astype(object), x0.astype(object), np.array([0, 1], dtype=object))
    # before the blow-up it is the exact kappa = (1 - t)^(-1/2)
    _, kappa = linear_flow_numpy(K, Q, x0, np.array([0.25]))
    assert abs(kappa[0, 0] - 1 / np.sqrt(0.5)) <= 1e-15


def test_an_overflow_is_refused() -> None:
    with pytest.raises(ValueError, match="overflows float64"):
        linear_flow_numpy(np.full((1, 1, 1), 800.0), -np.ones((1, 1, 1)), np.ones((1, 1)), np.array([1.0]))
