"""``trajectory``'s final check of float64 outputs (``_valid``): the shortcut through the sum never accepts a
non-finite state or a NaN quantity, also where the sum itself overflows or is NaN from opposite infinities."""

from __future__ import annotations

import numpy as np
import pytest

from numerics._trajectory import _valid


@pytest.mark.parametrize(
    ("values", "finite", "valid"),
    [
        ([1.0, -2.0], True, True),
        ([1e308, 1e308], True, True),  # the sum overflows, every value is finite
        ([1.0, np.inf], True, False),
        ([np.inf, -np.inf], True, False),
        ([1.0, np.nan], True, False),
        ([np.inf, -np.inf], False, True),  # the sum is NaN, no value is: a quantity may be ±inf
        ([np.inf, np.nan], False, False),
        ([1.0, np.nan], False, False),
        ([1e308, -1e308, np.nan], False, False),
    ],
)
def test_valid(values: list[float], finite: bool, valid: bool) -> None:
    assert _valid(np.array(values), finite) is valid
    assert _valid(np.array(values).reshape(-1, 1)[::-1], finite) is valid
