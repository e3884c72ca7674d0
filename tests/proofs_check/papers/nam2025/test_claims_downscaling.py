"""Nam et al. 2025, §7.1: target downscaling makes the scalar network lazy, Δθ̇ = O(S²). The claims' statuses, and
wrong variants refuted: a smaller bound, a flipped sign, another total change, and an O(S) law against the
integrated flow."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers.nam2025 import claims_downscaling as ds
from proofs_check.runner import run_check

PAPER = ds.PAPER
S, Z, theta, p = ds.S, ds.Z, ds.theta, ds.p


def test_statuses(check_statuses):
    check_statuses(
        "nam2025",
        ("nam2025.sec7.downscaling.",),
        {"sec7.downscaling.rate", "sec7.downscaling.total"},
        {"sec7.downscaling.numeric"},
    )


@pytest.mark.parametrize(
    "wrong",
    [
        sp.Implies(sp.And(theta >= 0, theta <= S), ds.delta_dot <= S**2 / (4 * Z)),  # a bound too small
        sp.Implies(sp.And(theta >= 0, theta <= S), ds.delta_dot <= 0),  # flipped sign
    ],
)
def test_wrong_rate_bounds_are_refuted(wrong):
    assert run_check(PAPER.variant("sec7.downscaling.rate", wrong)).status is Status.REFUTED


@pytest.mark.parametrize(
    "wrong",
    [
        sp.Matrix([0, S**2 / (2 * Z), Z / p]),  # the total change off by 2
        sp.Matrix([0, S**2 / Z, Z / (2 * p)]),  # the peak rate off by 2
    ],
)
def test_wrong_totals_are_refuted(wrong):
    statement = sp.Eq(sp.Matrix([ds.invariant_dot, ds.peak, ds.total]), wrong, evaluate=False)
    assert run_check(PAPER.variant("sec7.downscaling.total", statement)).status is Status.REFUTED


def test_an_order_S_change_is_refuted_by_the_flow():
    assert ds.downscaling_check(lambda s, width, z: s * z / (2 * width)).status is Status.REFUTED
