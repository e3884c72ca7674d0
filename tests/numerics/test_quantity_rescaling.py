"""Issue 25: the scale-invariant quantities (``layerwise_lr_linear``'s cosines) are rescaled only where the states
leave the range in which every intermediate stays normal (``numerics.evaluate.MAX_EXPONENT``), and the short unit
axis is reduced as elementwise passes (``unit_reduce``) in numpy's own order."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from numerics import evaluate, trajectory
from numerics.compiled import compiled, scaling_reach
from numerics.evaluate import unit_reduce

PARAMS = {"gamma": 1.0, "eta_u": 2.0, "eta_w": 0.5, "a": 1.0, "b": 1.0}


@pytest.mark.parametrize("width", range(1, 13))
@pytest.mark.parametrize("ufunc", [np.add, np.maximum, np.minimum])
def test_unit_reduce_is_numpys_reduction_bit_for_bit(width: int, ufunc: np.ufunc) -> None:
    rng = np.random.default_rng(width)
    values = rng.standard_normal((7, 5, width)) * 10.0 ** rng.integers(-30, 30, (7, 5, width))
    values[0, 0, 0] = np.nan
    got, expected = unit_reduce(ufunc, values), ufunc.reduce(values, axis=-1, keepdims=True)
    assert got.shape == expected.shape == (7, 5, 1)
    assert np.array_equal(got, expected, equal_nan=True)
    # the check tells orders apart: the sum in the reverse order differs somewhere (rounding)
    if ufunc is np.add and 3 <= width <= evaluate.SHORT:
        plain = rng.standard_normal((50, 40, width))
        reversed_sum = plain[..., -1:].copy()
        for i in range(width - 2, -1, -1):
            reversed_sum += plain[..., i : i + 1]
        assert not np.array_equal(reversed_sum, unit_reduce(np.add, plain))


def test_the_cosines_degree_bound() -> None:
    from derivations import models

    model = models.get("layerwise_lr_linear")
    # alignment = uw / (sqrt(uu) sqrt(ww)): degree 2 + 1 + 1 in the states; the loss is not scale invariant
    assert scaling_reach(model, "alignment") == 4 and scaling_reach(model, "alignment_weighted") == 4
    assert compiled("layerwise_lr_linear").scaling_reach == {"alignment": 4, "alignment_weighted": 4}


def exact_alignment(u: np.ndarray, w: np.ndarray) -> float:
    with mpmath.workdps(60):
        U, W = [mpmath.mpf(float(x)) for x in u], [mpmath.mpf(float(x)) for x in w]
        uw, uu, ww = (mpmath.fsum(x * y for x, y in zip(a, b, strict=True)) for a, b in ((U, W), (U, U), (W, W)))
        return float(uw / mpmath.sqrt(uu * ww))


def cosines_at_start(u: np.ndarray, w: np.ndarray) -> np.ndarray:
    return trajectory("layerwise_lr_linear", [0.0], PARAMS, {"u": u, "w": w}, method="scipy")["alignment"][0]


def starts() -> tuple[np.ndarray, np.ndarray]:
    """Three starts: ordinary, a layer far below the range of its square, and one just inside the bound."""
    u = np.array([[0.3, -0.2, 0.5], [1e-200, 2e-200, -3e-201], [3e-60, 1e-60, 2e-60]])
    w = np.array([[0.1, 0.4, -0.7], [1.0, 0.5, 0.25], [1.0, -2.0, 0.5]])
    return u, w


def test_rescaling_only_where_needed_and_exact_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    original = evaluate._rescaled
    monkeypatch.setattr(evaluate, "_rescaled", lambda env, groups: calls.append(groups) or original(env, groups))
    u, w = starts()
    ordinary = cosines_at_start(u[[0, 2]], w[[0, 2]])
    assert [g for g in calls if g] == []  # within the bound: the plain sums are shared by both cosines
    mixed = cosines_at_start(u, w)
    assert [g for g in calls if g] != []  # a tiny layer: rescaled
    for got in (mixed, np.array([ordinary[0], np.nan, ordinary[1]])):
        for i in (0, 2) if np.isnan(got[1]) else range(3):
            assert got[i] == pytest.approx(exact_alignment(u[i], w[i]), rel=1e-14, abs=0)


def test_a_bound_too_wide_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wrong variant: a bound that lets |u| = 1e-200 through unrescaled gives a wrong (non-finite) cosine."""
    u, w = starts()
    monkeypatch.setattr(evaluate, "MAX_EXPONENT", 4 * 1000)
    with np.errstate(all="ignore"):
        got = cosines_at_start(u[1:2], w[1:2])
    assert not (np.isfinite(got[0]) and got[0] == pytest.approx(exact_alignment(u[1], w[1]), rel=1e-14, abs=0))


def test_blocked_unit_sums_are_the_unblocked_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    cm = compiled("two_layer_scalar")
    rng = np.random.default_rng(7)
    env = {"a": rng.standard_normal((50, 7, 3)), "b": rng.standard_normal((50, 7, 3)), "Z": 1.5}
    whole = evaluate.unit_sums(cm.sum_summands, env, "numpy")["theta"]
    monkeypatch.setattr(evaluate, "CHUNK", 16)  # blocks of one time each (21 values per time)
    blocked = evaluate.unit_sums(cm.sum_summands, env, "numpy")["theta"]
    assert blocked.shape == whole.shape == (50, 7, 1)
    assert np.array_equal(blocked, whole)
    expected = np.sum(env["a"] * env["b"] / 1.5, axis=-1, keepdims=True)
    assert np.allclose(whole, expected, rtol=1e-15, atol=0)
    assert not np.array_equal(np.roll(blocked, 1, axis=0), whole)  # a misplaced block would be seen


def test_layers_of_far_apart_scales_are_rescaled() -> None:
    """A joint group (u, w) whose largest entry is ordinary while w is 1e-300: the weighted cosine is 4e-288 and
    exact only if rescaled (its sums |w|^2 and u.w underflow unscaled; found by the hypothesis test of
    test_alignment_extremes against a bound on the states alone)."""
    u, w = np.array([1e-12, 0.0, 0.0]), np.array([1e-300, 0.0, 0.0])
    r = trajectory("layerwise_lr_linear", [0.0], PARAMS, {"u": u, "w": w}, method="scipy")
    with mpmath.workdps(60):
        eu, ew = mpmath.mpf(PARAMS["eta_u"]), mpmath.mpf(PARAMS["eta_w"])
        U, W = mpmath.mpf(1e-12), mpmath.mpf(1e-300)
        weighted = float(2 * mpmath.sqrt(eu * ew) * U * W / (ew * U**2 + eu * W**2))
    assert r["alignment_weighted"][0] == pytest.approx(weighted, rel=1e-14, abs=0)
    # the wrong variant, the quantity on the plain sums, is off by far more
    with np.errstate(all="ignore"):
        plain = (
            2
            * np.sqrt(PARAMS["eta_u"] * PARAMS["eta_w"])
            * (u @ w)
            / (PARAMS["eta_w"] * (u @ u) + PARAMS["eta_u"] * (w @ w))
        )
    assert plain != pytest.approx(weighted, rel=1e-13, abs=0)


def test_the_cosines_read_the_sums_of_the_returned_states() -> None:
    """Along a closed form, ``uw`` is the closed form's own (along its clock); the cosines read ``u . w`` summed
    from the returned states, as the rescaled evaluation does: bit for bit the formula on numpy's sums."""
    rng = np.random.default_rng(2)
    init = {"u": 0.3 * rng.standard_normal((20, 4)), "w": 0.3 * rng.standard_normal((20, 4))}
    r = trajectory("layerwise_lr_linear", np.linspace(0.0, 3.0, 50), PARAMS, init)
    u, w = r["u"], r["w"]
    uw, uu, ww = (np.sum(x * y, axis=-1) for x, y in ((u, w), (u, u), (w, w)))
    expected = np.clip(uw / (np.sqrt(uu) * np.sqrt(ww)), -1, 1)
    assert np.array_equal(r["alignment"], expected)
    # the wrong variant, the closed form's u . w, differs somewhere
    along = np.clip(r["uw"] / (np.sqrt(uu) * np.sqrt(ww)), -1, 1)
    assert not np.array_equal(along, expected)
