"""The aligned-mode closed forms (``lambda_balanced`` by the w-substitution, ``deep_linear_whitened`` by
hyperbolic coordinates) in float64 against DOP853 on the derived mode flow, in every regime: λ of either sign
and 0, target singular value above and below the initial product, tiny and large initializations, negative
entries (a0 = -b0 saddles included), widths 1 to 64 (modes). Tolerance as in ``test_closed_form_vs_scipy``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics import trajectory

TOL = 1e-8
MULTIPLES = np.array([0.0, 0.05, 0.3, 1.0, 3.0, 8.0, 20.0])


@st.composite
def mode_cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    p = draw(st.integers(1, 64))
    scale = 10.0 ** draw(st.floats(-3, 1.5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a0, b0 = scale * rng.standard_normal(p), scale * rng.standard_normal(p)
    regime = draw(st.sampled_from(["above", "below", "mixed"]))
    shift = draw(st.floats(0.05, 3.0)) * np.maximum(np.abs(a0 * b0), 0.1)
    S = {"above": a0 * b0 + shift, "below": a0 * b0 - shift, "mixed": rng.normal(size=p) * 2}[regime]
    return a0, b0, S


def check(model: str, case: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    a0, b0, S = case
    rate = np.max(np.sqrt(S**2 + (a0**2 - b0**2) ** 2 / 4))
    t = MULTIPLES / (2 * max(rate, 1e-2))
    closed = trajectory(model, t, {"S": S}, {"a": a0, "b": b0})
    reference = trajectory(model, t, {"S": S}, {"a": a0, "b": b0}, method="scipy")
    for i in range(len(a0)):
        got = np.stack([closed["a"][:, i], closed["b"][:, i]], axis=-1)
        ref = np.stack([reference["a"][:, i], reference["b"][:, i]], axis=-1)
        assert np.all(np.isfinite(got))
        norm = np.maximum(np.linalg.norm(ref, axis=-1), 1e-300)
        assert np.max(np.max(np.abs(got - ref), axis=-1) / norm) <= TOL


@settings(max_examples=20)
@given(case=mode_cases())
@example(case=(np.array([1e-3, 0.5]), np.array([1e-3, -0.5]), np.array([3.0, 1.0])))  # Saxe balanced; a0 = -b0
@example(case=(np.array([2.0, 0.1]), np.array([0.5, 3.0]), np.array([-1.0, 0.3])))  # lambda < 0 and > 0
@example(case=(np.array([0.7]), np.array([0.7]), np.array([0.49])))  # S = rho0: a fixed point
def test_lambda_balanced_closed_form_vs_dop853(case) -> None:
    check("lambda_balanced", case)


@settings(max_examples=10)
@given(case=mode_cases())
def test_deep_linear_whitened_closed_form_vs_dop853(case) -> None:
    check("deep_linear_whitened", case)


@pytest.mark.slow
@settings(max_examples=100)
@given(case=mode_cases())
def test_lambda_balanced_closed_form_vs_dop853_many(case) -> None:
    check("lambda_balanced", case)
