"""The deep chain's closed form on the balanced line with S < 0 (issue 23): the reproducer
``trajectory('deep_scalar_chain', [0, 1], {'S': -0.492, 'lam': 0.69}, {k: [1e-100] for k in ('a1', 'a2', 'a3')})``
was reported to give 0.75 a0; on main the float64 closed form refused every such start ("the quadrature meets a
zero or a non-real value of its rate") and a batch of them ("operands could not be broadcast"). Root cause: the
eliminated states' squares ``a1**2 - a1_0**2 + a2_0**2`` cancel (``a2_0 = a1_0``: the whole value is ``a1**2``,
lost once it is below the rounding of ``a1_0**2``), and the quadrature's stop ``a1 = 0``, a double zero of the rate
approached like 1/t, lies exactly there. The references integrate the derived flow: DOP853 at rtol 1e-13, and
heyoka or ``mpmath.odefun`` at 30 to 40 digits."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics import taylor, trajectory
from numerics.quadrature import factored_radicands

PARAMS = {"S": -0.492, "lam": 0.69}
NAMES = ("a1", "a2", "a3")


def balanced(scales: list[float]) -> dict[str, np.ndarray]:
    return {k: np.array(scales)[:, None] for k in NAMES}


def relative(got: dict, reference: dict) -> float:
    return max(
        float(
            np.max(
                np.abs(np.asarray(got[k], dtype=float) - np.asarray(reference[k], dtype=float))
                / np.abs(np.asarray(reference[k], dtype=float))
            )
        )
        for k in NAMES
    )


def test_balanced_starts_with_a_negative_target_against_dop853() -> None:
    """Float64, one batched call, starts from 0.3 down to 1e-70 (the float64 range of the closed form)."""
    init, t = balanced([0.3, 1e-3, 1e-10, 1e-40, 1e-70]), np.array([0.0, 0.5, 1.0])
    closed = trajectory("deep_scalar_chain", t, PARAMS, init)
    assert relative(closed, trajectory("deep_scalar_chain", t, PARAMS, init, method="scipy")) <= 1e-12
    # the reported symptom: the tiny starts barely move (a1' ~ lam S a1^2), far from 0.75 a0
    np.testing.assert_allclose(closed["a1"][-1, 1:, 0], init["a1"][1:, 0], rtol=1e-3)


def test_the_chain_settling_like_1_over_t_keeps_its_balance() -> None:
    """At t = 1e9 the states are ~3e-9 of a start of 0.3: a2 and a3 equal a1 (the balanced line is invariant),
    where the unfactored square root gave 3.7e-9 (2^-28, the root of the rounding of 0.09) and at 1e12 gave 0;
    a1 against the 30-digit Taylor integration where heyoka is installed."""
    init, t = balanced([0.3, 1e-3]), np.array([0.0, 1e3, 1e9, 1e12])
    closed = trajectory("deep_scalar_chain", t, PARAMS, init)
    for k in ("a2", "a3"):
        np.testing.assert_allclose(closed[k], closed["a1"], rtol=1e-14)
    assert 2.9e-12 < closed["a1"][-1, 0, 0] < 3.0e-12  # ~ 1 / (lam |S| t)
    if taylor.available():
        flow = trajectory("deep_scalar_chain", t[:3], PARAMS, init, method="taylor", dps=30)
        assert relative({k: closed[k][:3] for k in NAMES}, flow) <= 1e-14


def test_the_factored_radicand_is_the_root_cause() -> None:
    """The radicand as derived cancels in float64 near the stop; with its conserved difference of squares as a
    product (``factored_radicands``) it is exact at a balanced start. The unfactored form is the refuted one."""
    a1, a1_0, a2_0 = sp.symbols("a1 a1_0 a2_0")
    expr = sp.sqrt(a1**2 - a1_0**2 + a2_0**2)
    stable = factored_radicands(expr, a1)
    assert sp.simplify(stable - expr) == 0
    values = {a1: 1e-10, a1_0: 0.3, a2_0: 0.3}
    as_derived = sp.lambdify(list(values), expr, "numpy")(*values.values())
    factored = sp.lambdify(list(values), stable, "numpy")(*values.values())
    assert factored == 1e-10
    assert not abs(as_derived - 1e-10) <= 1e-3 * 1e-10  # 0, NaN or 2^-28-sized: nothing of a1 left


@pytest.mark.slow
def test_the_reported_starts_against_the_40_digit_integration() -> None:
    """1e-80, 1e-100, 1e-150: float64 (evaluated again in mpmath beyond 1e±75) and 30 digits, against
    ``mpmath.odefun`` of the derived flow at 40 digits."""
    init, t = balanced([1e-80, 1e-100, 1e-150]), np.array([0.0, 0.5, 1.0])
    flow = trajectory("deep_scalar_chain", t, PARAMS, init, method="mpmath", dps=40)
    assert relative(trajectory("deep_scalar_chain", t, PARAMS, init), flow) <= 1e-14
    one = {k: v[1] for k, v in init.items()}  # 1e-100 (the closed form at 30 digits takes ~30 s per start)
    exact = trajectory("deep_scalar_chain", t, PARAMS, one, dps=30)
    with mpmath.workdps(40):
        for k in NAMES:
            for x, y in zip(exact[k].ravel(), flow[k][:, 1].ravel(), strict=True):
                assert abs(x - y) <= mpmath.mpf(10) ** -28 * abs(y)
