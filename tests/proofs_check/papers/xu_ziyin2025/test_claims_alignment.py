"""Xu & Ziyin 2025: the alignment headline, disalignment, the initial alignment's width dependence and the δ table:
statuses, and wrong variants refuted — above all the weighted cosine tanh θ passed off as the plain cosine ζ."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers.xu_ziyin2025 import claims_alignment as al
from proofs_check.runner import run_check

PROVED = {
    "alignment.cauchy_schwarz",
    "alignment.derivative",
    "alignment.monotone",
    "alignment.limit",
    "disalignment.condition",
    "disalignment.ntk",
}
NUMERIC = {"alignment.phases", "alignment.width", "disalignment.numeric"}
PAPER = al.PAPER


def test_statuses(check_statuses):
    check_statuses(
        "xu_ziyin2025",
        ("xu_ziyin2025.alignment.", "xu_ziyin2025.disalignment."),
        PROVED,
        NUMERIC,
        ("alignment.delta_table",),
    )


def test_the_weighted_cosine_does_not_pass_as_zeta():
    slope = PAPER.symbol(
        "dzeta_w/dtheta", r"\partial_\theta\zeta_\eta", lambda: sp.diff(al._in_theta("alignment_weighted"), al.th)
    )
    statement = PAPER["alignment.derivative"].statement
    assert run_check(PAPER.variant("alignment.derivative", sp.Eq(slope, statement.rhs))).status is Status.REFUTED
    weighted_limit = sp.Eq(al.zeta_limit**2, al.B**2 / (1 + al.B**2))
    assert run_check(PAPER.variant("alignment.limit", weighted_limit)).status is Status.REFUTED


@pytest.mark.parametrize(
    ("claim_id", "wrong"),
    [
        ("alignment.cauchy_schwarz", sp.Eq(al.gap, 2 * al.squares)),
        ("alignment.monotone", sp.Implies(al.phi < al.alpha_plus, al.theta_dot < 0)),
        (
            "disalignment.condition",
            sp.Equivalent((al.phi - 1) * al.theta_dot < 0, (al.phi - 1) * (al.phi - al.alpha_plus) < 0),
        ),
        (
            "disalignment.ntk",
            sp.Eq(
                sp.Matrix([al.K_ratio, sp.Limit(al.K_ratio, al.B, 0), sp.Limit(al.zeta_limit, al.B, 0)]),
                sp.Matrix([sp.sqrt(1 + al.B**2) / sp.cosh(al.th0), sp.cosh(al.th0), 0]),
                evaluate=False,
            ),
        ),
    ],
)
def test_wrong_variants_are_refuted(claim_id, wrong):
    assert run_check(PAPER.variant(claim_id, wrong)).status is Status.REFUTED


def test_swapped_phases_are_refuted():
    assert al.zeta_across_phases({"alignment": "stays", "kernel": "rises"}).status is Status.REFUTED


def test_another_width_exponent_is_refuted(wrong_experiment):
    claim = wrong_experiment(lambda: al.initial_alignment_scaled(1.0), 0.1, expected=1.0)
    assert run_check(claim).status is Status.REFUTED


def test_another_disalignment_condition_is_refuted():
    outcome = al.disalignment_paths(lambda start, end: abs(end) < abs(start))
    assert outcome.status is Status.REFUTED and "mismatches" in outcome.counterexample


def test_the_quoted_deltas_are_not_the_derived_ones(monkeypatch):
    monkeypatch.setattr(al, "DELTA_WIDTHS", (100, 400, 1600))
    monkeypatch.setattr(al, "DELTA_SEEDS", range(60))
    outcome = al.delta_table(al.QUOTED_DELTA)
    assert outcome.status is Status.REFUTED and set(outcome.counterexample) == {"xavier", "kaiming_fan_in"}


@pytest.mark.slow
def test_delta_table_is_supported():
    outcome = run_check(PAPER["alignment.delta_table"])
    assert outcome.status is Status.NUMERIC, outcome.detail
