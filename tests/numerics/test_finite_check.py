"""``trajectory``'s final check of float64 outputs (``_valid``): the shortcut through the sum never accepts a
non-finite value (a state or a quantity), also where the sum itself overflows or is NaN from opposite
infinities; and ``trajectory`` raises an ``OverflowError`` naming the quantity whose true value float64 cannot
hold, for every float64 method (issue 23: the loss of weights near 1e150 was returned as inf)."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from numerics import trajectory
from numerics._trajectory import _valid


@pytest.mark.parametrize(
    ("values", "valid"),
    [
        ([1.0, -2.0], True),
        ([1e308, 1e308], True),  # the sum overflows, every value is finite
        ([1e308, -1e308, 1e308], True),
        ([1.0, np.inf], False),
        ([np.inf, -np.inf], False),  # the sum is NaN
        ([1.0, np.nan], False),
        ([1e308, -1e308, np.nan], False),
    ],
)
def test_valid(values: list[float], valid: bool) -> None:
    assert _valid(np.array(values)) is valid
    assert _valid(np.array(values).reshape(-1, 1)[::-1]) is valid


HUGE = {"a": 1e150 * np.array([0.06, -0.07]), "b": 1e150 * np.array([0.3, 0.05])}
"""The issue's reproducer: weights near 1e150, theta about 1.5e298 (representable), loss about 1e596 (not)."""


@pytest.mark.parametrize(("method", "options"), [("closed_form", {}), ("gd", {"lr": 0.5})])
def test_a_quantity_beyond_float64_is_an_overflow_error_naming_it(method: str, options: dict) -> None:
    with pytest.raises(OverflowError, match=r"not finite in \[.*'loss'.*\]"):
        trajectory("two_layer_scalar", [0.0, 0.5], {"S": 0.8, "Z": 1.0}, HUGE, method=method, **options)


def test_the_quantities_float64_holds_are_returned() -> None:
    """Asked for theta alone, the closed form returns it, right against 30 digits (while theta is ~1e298: by
    t = 0.5 it is S = 0.8, a sum of products ~1e297 that cancel, beyond the conditioning of any fixed precision),
    and the loss is indeed beyond float64."""
    times, params = [0.0, 1e-300], {"S": 0.8, "Z": 1.0}
    run = trajectory("two_layer_scalar", times, params, HUGE, quantities=("theta",))
    exact = trajectory("two_layer_scalar", times, params, HUGE, dps=30)
    np.testing.assert_allclose(run["theta"], np.vectorize(float)(exact["theta"]), rtol=1e-13)
    assert exact["loss"][0] > mpmath.mpf(10) ** 595


@pytest.mark.parametrize("method", ["scipy", "taylor"])
def test_an_integrator_whose_field_overflows_says_so(method: str) -> None:
    """The field at 1e150 (about 1e450) is beyond float64: the integrators refuse with an OverflowError, never a
    silent inf."""
    if method == "taylor":
        pytest.importorskip("heyoka")
    with pytest.raises(OverflowError):
        trajectory("two_layer_scalar", [0.0, 0.5], {"S": 0.8, "Z": 1.0}, HUGE, method=method)
