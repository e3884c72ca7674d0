"""Float64 closed forms at the extremes (issue 17): componentwise error against the closed form at 400 digits,
relative to the input's conditioning (the high-precision change when the start is perturbed by 4 ulp), across
scales from 1e-200 to 1e150; and the reported reproducers."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations import models
from derivations.closed_form import ClosedForm
from numerics import trajectory

EPS = np.finfo(float).eps
FACTOR = 64
"""Allowed error: FACTOR times (rounding + the input's conditioning), componentwise."""
TWO_LAYER = ["two_layer_scalar", "diagonal_linear_network", "layerwise_lr_linear", "uv_model", "lambda_balanced"]


def exact(model: str, times, params: dict, init: dict, dps: int = 400) -> dict[str, np.ndarray]:
    """The closed form at ``dps`` digits: enough for terms up to 1e150 (the drawn scales) cancelling to a settled
    value down to 1e-150 (a conservation law at that scale), 300 orders and 16 digits."""
    return trajectory(model, times, params, init, dps=dps)


def componentwise(model: str, times, params: dict, init: dict, seed: int) -> float:
    """The largest float64 error over the states, divided by FACTOR (rounding + the 4-ulp conditioning)."""
    got = trajectory(model, times, params, init, quantities=())  # the states (a loss of 1e600 is an OverflowError)
    reference = exact(model, times, params, init)
    rng = np.random.default_rng(seed)
    perturbed = {k: v * (1 + 4 * EPS * rng.choice((-1.0, 1.0), size=np.shape(v))) for k, v in init.items()}
    moved = exact(model, times, params, perturbed)
    worst = 0.0
    with mpmath.workdps(400):
        for name in models.get(model).state_names:
            for x, y, z in zip(np.ravel(got[name]), np.ravel(reference[name]), np.ravel(moved[name]), strict=True):
                if y == 0:
                    assert x == 0 or abs(x) < 1e-300, (name, x)
                    continue
                condition = float(abs((z - y) / y))
                error = float(abs((mpmath.mpf(x) - y) / y))
                worst = max(worst, error / (FACTOR * (EPS + condition)))
    return worst


@st.composite
def extreme_cases(draw: st.DrawFn) -> tuple[str, dict, dict]:
    name = draw(st.sampled_from(TWO_LAYER))
    model = models.get(name)
    width = draw(st.integers(1, 3))
    scale = 10.0 ** draw(st.integers(-200, 150))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    init = {n: scale * rng.standard_normal(width) for n in model.state_names}
    params = {}
    for p in (*model.unit_param_names, *model.shared_param_names):
        value = 10.0 ** draw(st.floats(-1, 1)) * (1 if model.domains.get(p) == "positive" else rng.choice((-1, 1)))
        params[p] = np.full(width, value) if p in model.unit_param_names else value
    return name, params, init


@settings(max_examples=6)
@given(case=extreme_cases(), seed=st.integers(0, 100))
def test_componentwise_error_within_the_conditioning(case, seed) -> None:
    name, params, init = case
    assert isinstance(models.get(name).solution, ClosedForm)
    assert componentwise(name, [0.0, 0.5, 5.0, 1e3], params, init, seed) <= 1


@pytest.mark.slow
@settings(max_examples=60)
@given(case=extreme_cases(), seed=st.integers(0, 100))
def test_componentwise_error_within_the_conditioning_many(case, seed) -> None:
    name, params, init = case
    assert componentwise(name, [0.0, 0.5, 5.0, 1e3], params, init, seed) <= 1


REPRODUCERS = [
    ("two_layer_scalar", [0.0, 1e6], {"S": 1.0, "Z": 1.0}, {"a": [1e-160], "b": [1e-160]}),
    ("two_layer_scalar", [0.0, 1e6], {"S": 1.0, "Z": 1.0}, {"a": [1e-200], "b": [2e-200]}),
    ("two_layer_scalar", [0.0, 1.0], {"S": 1.0, "Z": 1.0}, {"a": [1e149], "b": [1e149]}),
    ("two_layer_scalar", [0.0, 1.0], {"S": 1e300, "Z": 1.0}, {"a": [0.1], "b": [0.2]}),
    ("two_layer_scalar", [0.0, 1.0], {"S": 1.0, "Z": 1e-300}, {"a": [0.1], "b": [0.2]}),
    (
        "layerwise_lr_linear",
        [0.001, 100.0],
        {
            "gamma": 1.0000000002302585,
            "eta_u": 0.01,
            "eta_w": 0.2066583663945817,
            "a": 1000.0,
            "b": -2.508354556176327e-13,
        },
        {"u": [0.8203966330350361], "w": [0.0]},
    ),
]


@pytest.mark.parametrize(("model", "times", "params", "init"), REPRODUCERS)
def test_reproducers_within_1e_13_of_50_digits(model, times, params, init) -> None:
    init = {k: np.array(v) for k, v in init.items()}
    got = trajectory(model, times, params, init, quantities=())  # the states (a loss of 1e600 is an OverflowError)
    reference = exact(model, times, params, init, dps=400)
    with mpmath.workdps(400):
        for name in models.get(model).state_names:
            for x, y in zip(np.ravel(got[name]), np.ravel(reference[name]), strict=True):
                assert abs(mpmath.mpf(x) - y) <= mpmath.mpf(1e-13) * abs(y), (name, x, y)
