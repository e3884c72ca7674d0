"""Acceptance checks of the foundation issue for ``two_layer_scalar``.

References are independent of the closed form: ``method="mpmath"`` integrates the derived vector field with
``mpmath.odefun``; the 50-digit closed form serves as reference only for float64 round-off.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

import numerics


def _rel_err(x: np.ndarray, y: np.ndarray) -> mpmath.mpf:
    with mpmath.workdps(40):
        worst = mpmath.mpf(0)
        for k in range(x.shape[0]):
            diff = mpmath.sqrt(sum((u - v) ** 2 for u, v in zip(np.ravel(x[k]), np.ravel(y[k]), strict=True)))
            norm = mpmath.sqrt(sum(v**2 for v in np.ravel(y[k])))
            worst = max(worst, diff / norm)
        return worst


def _init(rng: np.random.Generator, p: int, scale: float) -> dict[str, np.ndarray]:
    return {"a": rng.normal(size=p) * scale, "b": rng.normal(size=p) * scale}


@pytest.mark.parametrize(("p", "above"), [(1, True), (3, False), (4, True)])
def test_closed_form_30_digits_matches_ode(p: int, above: bool) -> None:
    rng = np.random.default_rng(p)
    init = _init(rng, p, 0.4)
    s0 = float(np.sum(init["a"] * init["b"]) / 1.5)
    params = {"S": s0 + (1.3 if above else -0.6), "Z": 1.5}
    times = [0.0, 0.4, 2.0]
    closed = numerics.trajectory("two_layer_scalar", times, params, init, dps=30)
    flow = numerics.trajectory("two_layer_scalar", times, params, init, method="mpmath", dps=30)
    for name in ("a", "b", "theta"):
        assert _rel_err(closed[name], flow[name]) < 1e-25, name


@pytest.mark.slow
@pytest.mark.parametrize(("p", "above"), [(8, True), (16, True), (16, False)])
def test_closed_form_30_digits_matches_ode_wide(p: int, above: bool) -> None:
    rng = np.random.default_rng(100 + p)
    init = _init(rng, p, 0.3)
    s0 = float(np.sum(init["a"] * init["b"]) / 2.0)
    params = {"S": s0 + (2.0 if above else -0.5), "Z": 2.0}
    times = [0.0, 1.0, 4.0]
    closed = numerics.trajectory("two_layer_scalar", times, params, init, dps=30)
    flow = numerics.trajectory("two_layer_scalar", times, params, init, method="mpmath", dps=30)
    assert _rel_err(closed["a"], flow["a"]) < 1e-25
    assert _rel_err(closed["b"], flow["b"]) < 1e-25


@pytest.mark.parametrize("scale", [1e-8, 1e-4, 1e-1, 1.0, 1e2, 1e4])
@pytest.mark.parametrize("target", [1.0, -0.7, 1e-3, 50.0])
def test_float64_closed_form_is_stable(scale: float, target: float) -> None:
    rng = np.random.default_rng(abs(int(np.log10(scale) * 7 + target * 10)))
    times = np.array([0.0, 1e-3, 0.1, 1.0, 10.0, 1e2, 1e4, 1e6])
    for p in (1, 5, 16):
        init = _init(rng, p, scale)
        params = {"S": target, "Z": float(rng.uniform(0.5, 3.0))}
        fast = numerics.trajectory("two_layer_scalar", times, params, init)
        ref = numerics.trajectory("two_layer_scalar", times, params, init, dps=50)
        state = np.concatenate([fast["a"], fast["b"]], axis=-1)
        ref_state = np.concatenate([ref["a"], ref["b"]], axis=-1).astype(float)
        assert np.all(np.isfinite(state))
        err = np.linalg.norm(state - ref_state, axis=-1) / np.linalg.norm(ref_state, axis=-1)
        assert np.max(err) < 1e-10, (p, np.max(err))


def test_gradient_descent_converges_linearly_in_lr() -> None:
    rng = np.random.default_rng(5)
    init = _init(rng, 6, 0.3)
    params = {"S": 1.5, "Z": 1.0}
    exact = numerics.trajectory("two_layer_scalar", [2.0], params, init)
    errors = []
    for lr in (0.02, 0.01, 0.005):
        gd = numerics.trajectory("two_layer_scalar", [2.0], params, init, method="gd", lr=lr)
        errors.append(max(np.max(np.abs(gd[n] - exact[n])) for n in ("a", "b")))
    ratios = [errors[0] / errors[1], errors[1] / errors[2]]
    assert all(1.6 < r < 2.5 for r in ratios), (errors, ratios)
