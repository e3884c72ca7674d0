"""The public input checks of the AGF modules (numerics.alternating.validate) and their typed terminal events."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from numerics.alternating._events import StopFalling
from numerics.alternating.validate import count, init_scale, neuron_norms, nonnegative, open_unit, positive, real_array


def test_numbers_are_normalised_and_bad_ones_name_the_argument():
    assert positive("eta", 2) == 2.0 and isinstance(positive("eta", 2), float)
    assert nonnegative("tol", 0) == 0.0
    assert open_unit("q", 0.5) == 0.5 and init_scale(1e-300) == 1e-300
    assert count("H", np.int64(3)) == 3 and isinstance(count("H", np.int64(3)), int)
    with pytest.raises(ValueError, match="eta"):
        positive("eta", 0.0)
    with pytest.raises(ValueError, match="tol"):
        nonnegative("tol", -1e-9)
    with pytest.raises(ValueError, match="alpha"):
        init_scale(1.0)
    with pytest.raises(ValueError, match="H"):
        count("H", 0)
    with pytest.raises(TypeError, match="eta"):
        positive("eta", True)
    with pytest.raises(TypeError, match="H"):
        count("H", 2.0)


def test_real_array_refuses_complex_none_and_non_finite():
    assert real_array("X", [[1, 2]], ndim=2).dtype == float
    with pytest.raises(TypeError, match="X"):
        real_array("X", [1 + 1j])
    with pytest.raises(TypeError, match="X"):
        real_array("X", None)
    with pytest.raises(ValueError, match="X"):
        real_array("X", [1.0, np.nan])
    with pytest.raises(ValueError, match="X"):
        real_array("X", [1.0, 2.0], ndim=2)


def test_neuron_norms_do_not_underflow():
    # |(3, 4) 1e-300| = 5e-300, although its squares underflow to 0
    assert neuron_norms(np.array([[3e-300, 4e-300], [0.0, 0.0]])) == pytest.approx([5e-300, 0.0], rel=1e-15)


def test_stop_falling_ends_the_integration_at_the_downward_crossing():
    # y = 1 - t crosses 0.5 downward at t = 0.5; an upward crossing (y = t at 0.25) must not stop it
    down = StopFalling(lambda _t, y: y[0] - 0.5)
    up = StopFalling(lambda _t, y: y[1] - 0.25)
    sol = solve_ivp(lambda _t, _y: np.array([-1.0, 1.0]), (0, 2), [1.0, 0.0], events=[down, up], rtol=1e-10)
    assert sol.status == 1
    assert sol.t[-1] == pytest.approx(0.5, rel=1e-9)
    assert sol.t_events[1].size == 0
