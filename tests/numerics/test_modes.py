"""The aligned modes of matrix networks evaluated (numerics.modes): the closed form in float64 and at 30 digits
against 40-digit integration of the derived matrix flow (method="mpmath"), from hypothesis-generated aligned
starts; non-aligned starts and non-whitened inputs refused; wrong variants (s -> -s, U's columns swapped) disagree."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.models.linear_network import linear_network
from numerics import trajectory
from numerics.aligned import orthonormal_frame
from numerics.linear_network import moment_params, weights_to_init

DIGITS = 50
"""Working digits of the generated frames and starts (aligned to that many digits)."""


def _case(seed: int, d: int, c: int, p: int, s: list[float], a: list[float], b: list[float]):
    """Frames U (d×r), V (c×r), R (p×r), Sxy = U S V^T and the aligned start W1 = U A R^T, W2^T = V B R^T, all
    ``mpmath.mpf`` at ``DIGITS`` digits (r = c <= d, p >= r)."""
    rng = np.random.default_rng(seed)
    with mpmath.workdps(DIGITS):
        U, V, R = orthonormal_frame(rng, d, c), orthonormal_frame(rng, c, c), orthonormal_frame(rng, p, c)
        S, A, B = (np.diag(np.array([mpmath.mpf(x) for x in v], dtype=object)) for v in (s, a, b))
        Sxy = U @ S @ V.T
        W1, W2T = U @ A @ R.T, V @ B @ R.T
    return U, V, R, Sxy, W1, W2T


def _error(x: dict, y: dict, names) -> float:
    """The largest relative error (normwise over the states at each time)."""
    with mpmath.workdps(DIGITS):
        X = np.stack([np.asarray(x[n]) for n in names], axis=-1).reshape(len(x["t"]), -1)
        Y = np.stack([np.asarray(y[n]) for n in names], axis=-1).reshape(len(y["t"]), -1)
        return max(
            float(
                mpmath.sqrt(
                    sum((mpmath.mpf(u) - mpmath.mpf(v)) ** 2 for u, v in zip(row_x, row_y, strict=True))
                    / sum(mpmath.mpf(v) ** 2 for v in row_y)
                )
            )
            for row_x, row_y in zip(X, Y, strict=True)
        )


modes = st.lists(st.floats(-1.0, 1.0).filter(lambda x: abs(x) > 0.05), min_size=2, max_size=2)
targets = st.lists(st.floats(0.2, 2.0), min_size=2, max_size=2, unique=True).filter(lambda s: abs(s[0] - s[1]) > 0.1)


def _linear_network_inputs(d, c, p, seed, s, a, b, exact: bool):
    _, _, _, Sxy, W1, W2T = _case(seed, d, c, p, s, a, b)
    to = (lambda v: v) if exact else np.vectorize(float)
    params = moment_params(np.eye(d, dtype=int) * (mpmath.mpf(1) if exact else 1.0), to(Sxy))
    return params, weights_to_init(to(W1), to(W2T).T)


@pytest.mark.slow
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**16), s=targets, a=modes, b=modes, size=st.sampled_from([(2, 2, 2), (3, 2, 2), (3, 2, 3)]))
def test_closed_form_vs_40_digit_integration(seed, s, a, b, size) -> None:
    d, c, p = size
    model = linear_network(d, c)
    t = [0.4, 1.0]
    params, init = _linear_network_inputs(d, c, p, seed, s, a, b, exact=True)
    reference = trajectory(model, t, params, init, method="mpmath", dps=40)
    assert _error(trajectory(model, t, params, init, dps=30), reference, model.state_names) <= 1e-25
    params64, init64 = _linear_network_inputs(d, c, p, seed, s, a, b, exact=False)
    assert _error(trajectory(model, t, params64, init64), reference, model.state_names) <= 1e-10


def test_closed_form_float64_vs_integration_2x2() -> None:
    """One fast case: float64 closed form against 30-digit integration of the derived flow (short horizon)."""
    model = linear_network(2, 2)
    params, init = _linear_network_inputs(2, 2, 2, 7, [1.3, 0.4], [0.5, -0.3], [0.2, 0.6], exact=False)
    t = [0.2]
    reference = trajectory(model, t, params, init, method="mpmath", dps=30)
    assert _error(trajectory(model, t, params, init), reference, model.state_names) <= 1e-10


@pytest.mark.slow
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**16), s=targets, a=modes, b=modes)
def test_a_users_network_vs_40_digit_integration(users_network, seed, s, a, b) -> None:
    """A user's W2 W1 x (code orientation, teacher y = T x with T = Sxy^T) from an aligned start."""
    model = users_network(3, 2)
    _, _, _, Sxy, W1, W2T = _case(seed, 3, 2, 2, s, a, b)
    params = {f"T_{m + 1}_{k + 1}": Sxy[k, m] for k in range(3) for m in range(2)}
    init = {**{f"u_{k + 1}": W1[k] for k in range(3)}, **{f"v_{m + 1}": W2T[m] for m in range(2)}}
    t = [0.5]
    reference = trajectory(model, t, params, init, method="mpmath", dps=40)
    assert _error(trajectory(model, t, params, init, dps=30), reference, model.state_names) <= 1e-25
    floats = np.vectorize(float)
    params64 = {k: float(v) for k, v in params.items()}
    init64 = {k: floats(v) for k, v in init.items()}
    assert _error(trajectory(model, t, params64, init64), reference, model.state_names) <= 1e-10


def test_off_the_aligned_set_and_correlated_inputs_are_refused() -> None:
    model = linear_network(2, 2)
    params, init = _linear_network_inputs(2, 2, 2, 3, [1.3, 0.4], [0.5, -0.3], [0.2, 0.6], exact=False)
    moved = {**init, "W1_1": init["W1_1"] + np.array([1e-6, 0.0])}
    with pytest.raises(ValueError, match=r"init: .*aligned set"):
        trajectory(model, [0.5], params, moved)
    # Syy raised so that the moments stay realizable with the correlated Sxx
    correlated = {**params, "Sxx_1_2": 0.1, "Syy_1_1": params["Syy_1_1"] + 1, "Syy_2_2": params["Syy_2_2"] + 1}
    with pytest.raises(ValueError, match=r"params: .*whitened"):
        trajectory(model, [0.5], correlated, init)
    # the closed form holds there: tiny violations of the alignment (rounding) are accepted
    trajectory(model, [0.5], params, {**init, "W1_1": init["W1_1"] * (1 + 1e-15)})


def test_wrong_variants_disagree_with_the_integration() -> None:
    """W1 = U A(t) R^T from the mode closed form with s -> -s, or with U's columns swapped, is far from the
    derived flow, while the right one agrees: the comparison can fail."""
    d = c = p = 2
    U, V, R, Sxy, W1, W2T = _case(11, d, c, p, [1.3, 0.4], [0.5, -0.3], [0.2, 0.6])
    floats = np.vectorize(float)
    U, V, R, Sxy, W1, W2T = (floats(x) for x in (U, V, R, Sxy, W1, W2T))
    model = linear_network(d, c)
    t = [1.0]
    reference = trajectory(model, t, moment_params(np.eye(d), Sxy), weights_to_init(W1, W2T.T), method="scipy")
    flow = np.stack([reference[f"W1_{k + 1}"][0] for k in range(d)])

    def rebuilt(s, frame):
        modes = trajectory("deep_linear_whitened", t, {"S": np.array(s)}, {"a": [0.5, -0.3], "b": [0.2, 0.6]})
        return frame @ np.diag(modes["a"][0]) @ R.T

    right = rebuilt([1.3, 0.4], U)
    assert np.max(np.abs(right - flow)) <= 1e-9
    assert np.max(np.abs(rebuilt([-1.3, -0.4], U) - flow)) > 1e-2
    assert np.max(np.abs(rebuilt([1.3, 0.4], U[:, ::-1]) - flow)) > 1e-2


def _float_case(seed: int, d: int, c: int, p: int, a: list[float], b: list[float]):
    """An aligned float64 case with len(a) <= min(d, c, p) nonzero modes (the others zero)."""
    rng = np.random.default_rng(seed)
    r = min(d, c)
    U, V = np.linalg.qr(rng.normal(size=(d, r)))[0], np.linalg.qr(rng.normal(size=(c, r)))[0]
    Sxy = U @ np.diag(np.sort(rng.uniform(0.3, 2.0, size=r))[::-1]) @ V.T
    R = np.linalg.qr(rng.normal(size=(p, p)))[0][:, : len(a)]
    A, B = np.zeros((r, len(a))), np.zeros((r, len(a)))
    A[: len(a)], B[: len(a)] = np.diag(a), np.diag(b)
    return moment_params(np.eye(d), Sxy), weights_to_init(U @ A @ R.T, (V @ B @ R.T).T)


@pytest.mark.parametrize(
    ("d", "c", "p", "a", "b"),
    [
        (2, 3, 2, [0.3, 0.1], [0.2, -0.4]),  # d < c
        (3, 2, 1, [0.3], [0.2]),  # fewer units than modes: one mode zero
        (2, 2, 3, [0.0, 0.3], [0.0, 0.2]),  # a zero mode, more units than modes
        (2, 2, 2, [0.0, 0.3], [0.5, 0.2]),  # a mode with a = 0 that grows
    ],
)
def test_shapes_and_zero_modes_vs_dop853(d, c, p, a, b) -> None:
    model = linear_network(d, c)
    params, init = _float_case(d + 10 * c + 100 * p, d, c, p, a, b)
    t = [0.0, 0.7, 2.0]
    closed, reference = trajectory(model, t, params, init), trajectory(model, t, params, init, method="scipy")
    assert max(np.max(np.abs(closed[n] - reference[n])) for n in model.state_names) <= 1e-9
    exact = trajectory(model, t, params, init, dps=30)
    pairs = [(x, y) for n in model.state_names for x, y in zip(exact[n].ravel(), closed[n].ravel(), strict=True)]
    assert max(float(abs(x - y)) for x, y in pairs) <= 1e-14


def test_batched_starts_and_moments() -> None:
    model = linear_network(2, 2)
    cases = [
        _float_case(seed, 2, 2, 2, a, b) for seed, a, b in ((1, [0.3, 0.1], [0.2, 0.4]), (2, [0.1, -0.5], [0.6, 0.1]))
    ]
    params = {k: np.array([cases[0][0][k], cases[1][0][k]]) for k in cases[0][0]}
    init = {k: np.stack([cases[0][1][k], cases[1][1][k]]) for k in cases[0][1]}
    closed, reference = (
        trajectory(model, [0.5, 1.5], params, init),
        trajectory(model, [0.5, 1.5], params, init, "scipy"),
    )
    assert closed["W1_1"].shape == (2, 2, 2)
    assert max(np.max(np.abs(closed[n] - reference[n])) for n in model.state_names) <= 1e-9
    assert np.max(np.abs(closed["loss"] - reference["loss"])) <= 1e-9


def _lambda_balanced_aligned(a: list[float], lam: float, signs: list[int]) -> list[float]:
    """The output modes of an aligned lambda-balanced start: b_alpha^2 - a_alpha^2 = lam for every mode."""
    return [sg * float(np.sqrt(x**2 + lam)) for x, sg in zip(a, signs, strict=True)]


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    s=targets,
    a=modes,
    lam=st.floats(-0.002, 0.8),
    signs=st.lists(st.sampled_from([1, -1]), min_size=2, max_size=2),
    size=st.sampled_from([(2, 2, 2), (3, 2, 2)]),
)
def test_lambda_balanced_aligned_starts_vs_30_digit_integration(seed, s, a, lam, signs, size) -> None:
    """Matrix networks 2x2 and 3x2 from aligned lambda-balanced starts (W2 W2^T - W1^T W1 = lam I on the modes,
    Dominé et al. 2025; the convention of the registered ``lambda_balanced``), solved by ``solve`` on the matrix
    model, against the 30-digit integration of the derived matrix flow (the wrong variants of the mode solution are
    refuted by ``test_wrong_variants_disagree_with_the_integration``)."""
    d, c, p = size
    model = linear_network(d, c)
    b = _lambda_balanced_aligned(a, lam, signs)
    params, init = _linear_network_inputs(d, c, p, seed, s, a, b, exact=False)
    t = [0.3, 1.0]
    reference = trajectory(model, t, params, init, method="mpmath", dps=30)
    assert _error(trajectory(model, t, params, init), reference, model.state_names) <= 1e-10
    W1, W2T = (np.stack([init[f"{m}_{k + 1}"] for k in range(n)]) for m, n in (("W1", d), ("W2T", c)))
    assert np.allclose(W2T.T @ W2T - W1.T @ W1, lam * np.eye(p), atol=1e-12) or p > c  # lambda-balanced


def test_an_unaligned_lambda_balanced_start_is_refused_and_its_units_are_not_closed() -> None:
    """Off the aligned set a lambda-balanced start is refused with the reason; the reason is checked: the stacked
    weights Q(t) = e^{Ft} Q0 G(t) (from an independent scipy integration of the flow) have G G^T = M^-1, as the
    products' Riccati solution says, but G is not the symmetric M^(-1/2): a rotation of the units remains."""
    from scipy.integrate import quad_vec, solve_ivp
    from scipy.linalg import expm, sqrtm

    from derivations import solve

    d, c, p, lam = 3, 2, 2, 0.7
    model = linear_network(d, c)
    assert "lambda-balanced" in solve(model).general.reason
    rng = np.random.default_rng(1)
    Sxy = rng.normal(size=(d, c))
    W1 = 0.5 * rng.normal(size=(d, p))
    frame, _ = np.linalg.qr(rng.normal(size=(c, p)))
    W2T = frame @ np.real(sqrtm(W1.T @ W1 + lam * np.eye(p)))  # W2 W2^T - W1^T W1 = lam I
    with pytest.raises(ValueError, match=r"init: .*aligned set"):
        trajectory(model, [0.5], moment_params(np.eye(d), Sxy), weights_to_init(W1, W2T.T))
    Q0 = np.vstack([W1, W2T])
    F = np.block([[-lam / 2 * np.eye(d), Sxy], [Sxy.T, lam / 2 * np.eye(c)]])

    def flow(_, q):
        Q = q.reshape(d + c, p)
        P = Q[:d] @ Q[d:].T
        return np.vstack([(Sxy - P) @ Q[d:], (Sxy - P).T @ Q[:d]]).ravel()

    t = 2.0
    Q = solve_ivp(flow, (0, t), Q0.ravel(), rtol=1e-12, atol=1e-14).y[:, -1].reshape(d + c, p)
    M = np.eye(p) + Q0.T @ quad_vec(lambda s: expm(2 * F * s), 0, t, epsrel=1e-12)[0] @ Q0
    G = np.linalg.lstsq(expm(F * t) @ Q0, Q, rcond=None)[0]
    assert np.abs(G @ G.T - np.linalg.inv(M)).max() < 1e-9  # the products Q Q^T are closed
    assert np.abs(G - np.real(sqrtm(np.linalg.inv(M)))).max() > 1e-3  # the units' own states are not (2.9e-3 here)
