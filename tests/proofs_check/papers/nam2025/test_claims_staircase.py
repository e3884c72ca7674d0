"""Nam et al. 2025, §4.2: the loss staircase of the diagonal network. The claims' statuses, and wrong variants
refuted: another threshold or plateau level against the derived mode limits, and other levels or another mode
order against the integrated loss."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers.nam2025 import claims_staircase as st
from proofs_check.runner import run_check

PAPER = st.PAPER
S, lam = st.S, st.lam


def test_statuses(check_statuses):
    check_statuses("nam2025", ("nam2025.staircase.",), {"staircase.plateaus"}, {"staircase.numeric"})


def _limits(threshold, level_before, level_after):
    return sp.Eq(
        sp.Matrix([st.tau_i, st.before, st.after]),
        sp.Matrix([threshold, level_before, level_after]),
        evaluate=False,
    )


@pytest.mark.parametrize(
    "wrong",
    [
        _limits(1 / (S * lam), lam * S**2 / 2, 0),  # the threshold off by 2
        _limits(1 / (2 * S * lam), S**2 / 2, 0),  # the level without λ
        _limits(1 / (2 * S * lam), 0, lam * S**2 / 2),  # before and after swapped
    ],
)
def test_wrong_mode_limits_are_refuted(wrong):
    assert run_check(PAPER.variant("staircase.plateaus", wrong)).status is Status.REFUTED


@pytest.mark.parametrize(
    "variant",
    [
        {"level": lambda s, r: s**2 / 2},  # levels without λ
        {"level": lambda s, r: r * s**2},  # without the ½
        {"key": lambda s, r: s},  # modes ordered by S alone
        {"key": lambda s, r: r},  # modes ordered by λ alone
    ],
)
def test_the_integrated_loss_refutes_other_levels_and_orders(variant):
    assert st.plateau_check(**variant).status is Status.REFUTED


def test_rho_ordering_statuses(check_statuses):
    check_statuses("nam2025", ("nam2025.sec5.rho_ordering",), {"sec5.rho_ordering"}, {"sec5.rho_ordering.numeric"})


def test_the_inverse_half_time_ratio_is_refuted():
    wrong = sp.Eq(sp.Limit(st.t_rho_i / st.t_rho_j, st.w0, 0), st.rho_i / st.rho_j)
    assert run_check(PAPER.variant("sec5.rho_ordering", wrong)).status is Status.REFUTED


def test_gradient_descent_refutes_the_reversed_order():
    assert st.rho_order(lambda rho: -rho).status is Status.REFUTED
