"""A closed form that holds on an invariant set only: a user's two-layer network with quartic weight decay,
``f = sum_i a_i b_i x_i``, ``L = sum_i (S_i - a_i b_i)^2 / 2 + mu/4 sum_i (a_i^4 + b_i^4)``, conserves no law, so
``derivations.solve`` solves it on the balanced line ``a = b`` only (``ClosedForm.condition``), where
``y' = y (S - (1 + mu) y^2)`` is integrated by the separable method (``derivations.separable``: a quadratic factor
whose real roots ``±sqrt(S / (1 + mu))`` are fixed points).

Checked against DOP853 on the derived flow (independent of ``solve``): starts on the line on both sides of the
fixed point and of 0, a start one ulp off the line (within ``numerics.closed_form.CONDITION_TOLERANCE``, relative
to the unit's scale), and a start 5 % off the line, which the closed form must refuse: DOP853 shows that the flow
from there leaves the line, so no value on it would be right."""

from __future__ import annotations

import numpy as np
import pytest

from numerics import trajectory
from tests.user_models import quartic_decay

QUARTIC = quartic_decay("quartic_decay_balanced_line")
T = np.array([0.0, 0.3, 1.0, 3.0])
# units with the fixed point sqrt(S / (1 + mu)) = 0.953 (S = 1), 0.674 (S = 0.5) and none but 0 (S = -0.5)
PARAMS = {"S": np.array([1.0, 0.5, 1.0, 0.5, -0.5]), "mu": 0.1}
ON_THE_LINE = np.array([0.4, -1.6, 1.5, 0.2, 0.7])
"""Below the fixed point, beyond its negative, above it, near 0, and decaying to 0 (S < 0)."""


def test_the_closed_form_holds_on_the_balanced_line_only() -> None:
    cf = QUARTIC.closed_form
    assert cf.condition and cf.general is not None
    assert cf.method == "separable"


def test_on_the_line_on_either_side_of_the_fixed_points_against_dop853() -> None:
    init = {"a": ON_THE_LINE, "b": ON_THE_LINE.copy()}
    closed = trajectory(QUARTIC, T, PARAMS, init)
    flow = trajectory(QUARTIC, T, PARAMS, init, method="scipy")
    for name in ("a", "b"):
        np.testing.assert_allclose(closed[name], flow[name], rtol=1e-11, atol=0, err_msg=name)


def test_a_start_one_ulp_off_the_line_is_accepted_and_right() -> None:
    init = {"a": ON_THE_LINE, "b": ON_THE_LINE * (1 + np.finfo(float).eps)}
    closed = trajectory(QUARTIC, T, PARAMS, init)
    flow = trajectory(QUARTIC, T, PARAMS, init, method="scipy")
    for name in ("a", "b"):
        np.testing.assert_allclose(closed[name], flow[name], rtol=1e-11, atol=0, err_msg=name)


def test_a_start_5_percent_off_the_line_is_refused() -> None:
    init = {"a": ON_THE_LINE, "b": ON_THE_LINE * np.array([1.0, 1.0, 1.05, 1.0, 1.0])}
    with pytest.raises(
        ValueError, match=r"^init: the closed form of quartic_decay_balanced_line holds only for starts"
    ):
        trajectory(QUARTIC, T, PARAMS, init)
    with pytest.raises(ValueError, match=r"holds only for starts with -a_0 \+ b_0 = 0"):
        trajectory(QUARTIC, T, PARAMS, init, dps=30)
    # why it must be: the flow from there leaves the line (a - b stays of the order of the offset, 0.075)
    flow = trajectory(QUARTIC, T, PARAMS, init, method="scipy")
    gap = np.abs(flow["a"][:, 2] - flow["b"][:, 2])
    assert np.all(gap > 1e-3), gap
