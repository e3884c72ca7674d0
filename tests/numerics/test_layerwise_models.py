"""Numerics of the Xu & Ziyin models: closed form vs 30-digit integration, the rank-1 effect under GD, the
uv model, and the function-space identities along trajectories."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import trajectory


def _rel_err(x: np.ndarray, y: np.ndarray) -> mpmath.mpf:
    with mpmath.workdps(40):
        worst = mpmath.mpf(0)
        for k in range(x.shape[0]):
            diff = mpmath.sqrt(sum((p - q) ** 2 for p, q in zip(np.ravel(x[k]), np.ravel(y[k]), strict=True)))
            worst = max(worst, diff / mpmath.sqrt(sum(q**2 for q in np.ravel(y[k]))))
        return worst


def _case(seed: int, d: int, above: bool) -> tuple[dict, dict]:
    rng = np.random.default_rng(seed)
    init = {"u": rng.normal(size=d) * 0.5, "w": rng.normal(size=d) * 0.5}
    gamma, a = rng.uniform(0.3, 1.5), rng.uniform(0.5, 2.0)
    current = gamma * float(init["u"] @ init["w"])
    target = current + (1.0 if above else -1.0) * rng.uniform(0.3, 1.5)
    params = {"gamma": gamma, "eta_u": rng.uniform(0.2, 3), "eta_w": rng.uniform(0.2, 3), "a": a, "b": target * a}
    return params, init


@pytest.mark.parametrize(("d", "above"), [(1, True), (3, False), (4, True)])
def test_layerwise_closed_form_30_digits(d: int, above: bool) -> None:
    params, init = _case(d, d, above)
    times = [0.0, 0.5, 2.0]
    closed = trajectory("layerwise_lr_linear", times, params, init, dps=30)
    flow = trajectory("layerwise_lr_linear", times, params, init, method="mpmath", dps=30)
    for name in ("u", "w"):
        assert _rel_err(closed[name], flow[name]) < 1e-25


@pytest.mark.slow
@pytest.mark.parametrize(("d", "above"), [(16, False), (32, True), (32, False)])
def test_layerwise_closed_form_30_digits_wide(d: int, above: bool) -> None:
    params, init = _case(100 + d, d, above)
    times = [0.0, 1.0]
    closed = trajectory("layerwise_lr_linear", times, params, init, dps=30)
    flow = trajectory("layerwise_lr_linear", times, params, init, method="mpmath", dps=30)
    for name in ("u", "w"):
        assert _rel_err(closed[name], flow[name]) < 1e-25


def test_layerwise_limits_and_function_space_identity() -> None:
    params, init = _case(7, 6, True)
    r = trajectory("layerwise_lr_linear", [0.0, 0.3, 1e4], params, init)
    assert r["output"][-1] == pytest.approx(params["b"] / params["a"], rel=1e-12)
    # K_t = gamma^2 (eta_u |w|^2 + eta_w |u|^2) from the state arrays
    u, w = r["u"], r["w"]
    kernel = params["gamma"] ** 2 * (params["eta_u"] * (w**2).sum(-1) + params["eta_w"] * (u**2).sum(-1))
    np.testing.assert_allclose(r["ntk"], kernel, rtol=1e-13)
    cosine = (u * w).sum(-1) / np.sqrt((u**2).sum(-1) * (w**2).sum(-1))
    np.testing.assert_allclose(r["alignment"], cosine, rtol=1e-12)
    scipy = trajectory("layerwise_lr_linear", [0.0, 0.3], params, init, method="scipy")
    np.testing.assert_allclose(r["u"][:2], scipy["u"], atol=1e-10)


def test_rank_one_effect_under_gradient_descent() -> None:
    rng = np.random.default_rng(3)
    d = 6
    init = {"u": rng.normal(size=d), **{f"W_{k}": rng.normal(size=d) for k in (1, 2, 3)}}
    n = rng.normal(size=3)
    n /= np.linalg.norm(n)
    params = {"gamma": 0.9, "eta_u": 0.7, "eta_w": 1.6, "a": 1.2, "b": 2.5, **{f"n_{k}": n[k - 1] for k in (1, 2, 3)}}
    r = trajectory("layerwise_lr_matrix", [0.0, 1.0, 3.0], params, init, method="gd", lr=2e-3)
    W = np.stack([r[f"W_{k}"] for k in (1, 2, 3)], axis=-1)
    for k in (1, 2):
        sigma = np.linalg.svd(W[k] - W[0], compute_uv=False)
        assert sigma[1] / np.linalg.norm(W[0]) < 1e-12
        assert sigma[0] > 1e-3
    # the projection w = W n follows layerwise_lr_linear's GD exactly (same iteration)
    reduced = trajectory(
        "layerwise_lr_linear",
        [0.0, 1.0, 3.0],
        {k: params[k] for k in ("gamma", "eta_u", "eta_w", "a", "b")},
        {"u": init["u"], "w": W[0] @ n},
        method="gd",
        lr=2e-3,
    )
    np.testing.assert_allclose(W @ n, reduced["w"], atol=1e-12)


def test_uv_model_closed_form_against_its_flow() -> None:
    rng = np.random.default_rng(5)
    init = {"u": rng.normal(size=8), "v": rng.normal(size=8)}
    params = {"n": 8.0, "a": 1.0, "b": 3.0}
    closed = trajectory("uv_model", [0.0, 0.5, 2.0, 200.0], params, init)
    flow = trajectory("uv_model", [0.0, 0.5, 2.0], params, init, method="scipy")
    np.testing.assert_allclose(closed["u"][:3], flow["u"], atol=1e-10)
    np.testing.assert_allclose(closed["v"][:3], flow["v"], atol=1e-10)
    assert closed["output"][-1] == pytest.approx(3.0, rel=1e-12)


@pytest.mark.parametrize(
    ("params", "word"),
    [
        ({"gamma": -1.0, "eta_u": 1.0, "eta_w": 1.0, "a": 1.0, "b": 1.0}, "gamma"),
        ({"gamma": 1.0, "eta_u": 0.0, "eta_w": 1.0, "a": 1.0, "b": 1.0}, "eta_u"),
        ({"gamma": 1.0, "eta_u": 1.0, "eta_w": 1.0, "a": -2.0, "b": 1.0}, "'a'"),
        ({"gamma": 1.0, "eta_u": 1.0, "eta_w": 1.0, "a": 1.0}, "params"),
    ],
)
def test_layerwise_bad_parameters(params: dict, word: str) -> None:
    with pytest.raises(ValueError, match=word):
        trajectory("layerwise_lr_linear", [0.0, 1.0], params, {"u": [1.0, 2.0], "w": [0.5, 0.1]})


@st.composite
def layerwise_cases(draw: st.DrawFn) -> tuple[dict, dict]:
    d = draw(st.integers(1, 64))
    scale = 10.0 ** draw(st.floats(-3, 1))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    init = {"u": rng.normal(size=d) * scale, "w": rng.normal(size=d) * scale}
    gamma, a = 10.0 ** draw(st.floats(-0.5, 0.5)), 10.0 ** draw(st.floats(-0.5, 0.5))
    # target output on either side of the initial output
    target = gamma * float(init["u"] @ init["w"]) + draw(st.sampled_from([-1.0, 1.0])) * 10.0 ** draw(
        st.floats(-2, 0.5)
    )
    params = {"gamma": gamma, "eta_u": 10.0 ** draw(st.floats(-1, 1)), "eta_w": 10.0 ** draw(st.floats(-1, 1))}
    return {**params, "a": a, "b": target * a}, init


@settings(max_examples=30)
@given(case=layerwise_cases())
def test_layerwise_closed_form_against_dop853_in_every_regime(case: tuple[dict, dict]) -> None:
    params, init = case
    times = np.array([0.0, 0.05, 0.3, 1.0])
    closed = trajectory("layerwise_lr_linear", times, params, init)
    flow = trajectory("layerwise_lr_linear", times, params, init, method="scipy")
    state, ref = (np.concatenate([r["u"], r["w"]], axis=-1) for r in (closed, flow))
    assert np.all(np.isfinite(state))
    assert np.max(np.linalg.norm(state - ref, axis=-1) / np.linalg.norm(ref, axis=-1)) < 1e-8


def test_uv_model_closed_form_30_digits() -> None:
    rng = np.random.default_rng(9)
    init = {"u": rng.normal(size=3), "v": rng.normal(size=3)}
    params = {"n": 3.0, "a": 1.4, "b": -0.8}
    closed = trajectory("uv_model", [0.0, 0.5, 2.0], params, init, dps=30)
    flow = trajectory("uv_model", [0.0, 0.5, 2.0], params, init, method="mpmath", dps=30)
    for name in ("u", "v"):
        assert _rel_err(closed[name], flow[name]) < 1e-25
