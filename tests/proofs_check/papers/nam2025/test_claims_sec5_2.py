"""Nam et al. 2025, §5.2: class-mean orthogonality of the collapsed features and the depth claims of the balanced
deep chain. The claims' statuses, and wrong variants refuted: a far-from-balanced start (class means not
orthogonal), another exponent or prefactor of the balanced product's rate, another leading order of the half-time,
and the reversed depth trend."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers.nam2025 import claims_sec5_2 as sec
from proofs_check.runner import run_check

PAPER = sec.PAPER
S, lam, theta = sec._S, sec._lam, sec.theta
S_pos = sec._S_pos


@pytest.mark.slow  # all four checks: about 6 s
def test_statuses(check_statuses):
    check_statuses(
        "nam2025",
        ("nam2025.sec5_2.",),
        {"sec5_2.depth.rate", "sec5_2.depth.half_time"},
        {"sec5_2.mean_orthogonality", "sec5_2.depth.numeric"},
    )


def test_a_far_from_balanced_start_refutes_orthogonal_class_means(wrong_experiment):
    claim = wrong_experiment(lambda: sec.mean_cosine_measure((0.5, 1e-4)), 1e-3)
    assert run_check(claim).status is Status.REFUTED


def _rates(rate):
    return sp.Eq(sp.Matrix(sec.rates), sp.Matrix([rate(L) for L in sec.DEPTHS]), evaluate=False)


@pytest.mark.parametrize(
    "rate",
    [
        lambda L: L * lam * theta ** (2 - sp.Rational(1, L)) * (S - theta),  # exponent 2 − 1/L
        lambda L: lam * theta ** (2 - sp.Rational(2, L)) * (S - theta),  # without the factor L
        lambda L: 2 * lam * theta * (S - theta),  # the two-layer (logistic) rate at every depth
    ],
)
def test_wrong_product_rates_are_refuted(rate):
    assert run_check(PAPER.variant("sec5_2.depth.rate", _rates(rate))).status is Status.REFUTED


@pytest.mark.parametrize(
    "leading",
    [
        lambda L: 1 / (lam * S_pos * (L - 1)),  # the exponent's factor L − 1
        lambda L: 1 / (lam * S_pos),  # depth-independent
        lambda L: 1 / (lam * S_pos**2 * (L - 2)),  # the strength squared (the ratio would grow with depth)
    ],
)
def test_wrong_half_time_leading_orders_are_refuted(leading):
    wrong = sp.Eq(sp.Matrix(sec.leading), sp.Matrix([leading(L) for L in sec.HALF_DEPTHS]), evaluate=False)
    assert run_check(PAPER.variant("sec5_2.depth.half_time", wrong)).status is Status.REFUTED


def test_the_reversed_depth_trend_is_refuted():
    assert sec.depth_check(-1).status is Status.REFUTED


def test_depth_check_refuses_a_bad_direction():
    with pytest.raises(ValueError, match="direction"):
        sec.depth_check(0)
