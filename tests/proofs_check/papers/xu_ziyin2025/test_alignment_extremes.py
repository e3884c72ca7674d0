"""Issue 17: ``layerwise_lr_linear``'s cosines ``alignment`` (u, w) and ``alignment_weighted`` (tanh θ) are 0 at a
zero vector (documented), never outside [-1, 1], exact to rounding when a layer is far below the float64 range of
its square (they are evaluated on rescaled states), and the exact (mpmath) path raises nothing at a valid start."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import trajectory

PARAMS = {"gamma": 1.0, "eta_u": 2.0, "eta_w": 0.5, "a": 1.0, "b": 1.0}


def cosines(u: np.ndarray, w: np.ndarray, eta_u: float, eta_w: float) -> tuple[float, float]:
    """Both cosines at 60 digits from the exact values of the float64 weights (typed in, spec §2.4)."""
    with mpmath.workdps(60):
        U, W = [mpmath.mpf(float(x)) for x in u], [mpmath.mpf(float(x)) for x in w]
        uw, uu, ww = (mpmath.fsum(x * y for x, y in zip(a, b, strict=True)) for a, b in ((U, W), (U, U), (W, W)))
        eu, ew = mpmath.mpf(eta_u), mpmath.mpf(eta_w)
        plain = uw / mpmath.sqrt(uu * ww) if uu * ww > 0 else mpmath.mpf(0)
        weighted = 2 * mpmath.sqrt(eu * ew) * uw / (ew * uu + eu * ww) if uu + ww > 0 else mpmath.mpf(0)
        return float(plain), float(weighted)


def at_start(u: np.ndarray, w: np.ndarray, **kwargs: object) -> dict:
    return trajectory("layerwise_lr_linear", [0.0], PARAMS, {"u": u, "w": w}, method="scipy", **kwargs)


def test_zero_vectors_give_the_documented_zero() -> None:
    zero, one = np.zeros(3), np.array([1.0, -2.0, 0.5])
    for u, w in ((zero, zero), (zero, one), (one, zero)):
        r = at_start(u, w)
        assert r["alignment"][0] == 0 and r["alignment_weighted"][0] == 0
    exact = trajectory("layerwise_lr_linear", [0.0, 1.0], PARAMS, {"u": zero, "w": zero}, dps=30)
    assert all(isinstance(v, mpmath.mpf) and v == 0 for v in exact["alignment"])


def test_the_exact_path_raises_nothing_at_valid_starts() -> None:
    """The issue's reproducers raised a bare ZeroDivisionError with dps=30: an all-zero start, and a zero target
    (p = 1, t = 100, u = 1, w = 0.5)."""
    params = {"gamma": 1.0, "eta_u": 1.0, "eta_w": 1.0, "a": 1.0}
    zero = trajectory(
        "layerwise_lr_linear", [100.0], {**params, "b": 1.0}, {"u": np.zeros(2), "w": np.zeros(2)}, dps=30
    )
    target = trajectory("layerwise_lr_linear", [100.0], {**params, "b": 0.0}, {"u": [1.0], "w": [0.5]}, dps=30)
    for r in (zero, target):
        assert all(-1 <= v <= 1 for v in (*r["alignment"], *r["alignment_weighted"]))


@pytest.mark.parametrize(
    ("u", "w"),
    [
        (np.array([1e-200, 2e-200]), np.array([1.0, 0.5])),  # |u|² underflows: the raw cosine is inf
        (np.array([1e-170, 2e-170]), np.array([3e-170, -1e-170])),  # every sum underflows: the raw ones are NaN
        (np.array([3e-300, -1e-310]), np.array([1.0, 1.0])),
    ],
)
def test_cosines_of_tiny_layers_are_exact(u, w) -> None:
    r = at_start(u, w)
    plain, weighted = cosines(u, w, PARAMS["eta_u"], PARAMS["eta_w"])
    assert r["alignment"][0] == pytest.approx(plain, rel=1e-14, abs=1e-300)
    assert r["alignment_weighted"][0] == pytest.approx(weighted, rel=1e-14, abs=1e-300)
    # the wrong variant, the defining expression on the raw float64 sums, is not finite or not in range here
    with np.errstate(all="ignore"):
        raw = np.sum(u * w) / np.sqrt(np.sum(u * u) * np.sum(w * w))
    assert not (np.isfinite(raw) and raw == pytest.approx(plain, rel=1e-14))


@settings(max_examples=60)
@given(
    st.lists(st.floats(-1, 1), min_size=3, max_size=3),
    st.lists(st.floats(-1, 1), min_size=3, max_size=3),
    st.integers(-300, 150),
    st.integers(-300, 0),
)
def test_cosines_stay_in_range_and_exact_at_every_scale(u, w, eu, ew) -> None:
    u, w = np.array(u) * 10.0**eu, np.array(w) * 10.0**ew
    r = at_start(u, w)
    plain, weighted = cosines(u, w, PARAMS["eta_u"], PARAMS["eta_w"])
    for name, expected in (("alignment", plain), ("alignment_weighted", weighted)):
        value = r[name][0]
        assert -1 <= value <= 1
        assert value == pytest.approx(expected, rel=1e-12, abs=1e-300), (name, value, expected)
