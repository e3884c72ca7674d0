"""The errata of Nam et al. 2025 registered for issue 24: each is an erratum (printed form refuted with a
counterexample inside the paper's assumptions, corrected form proved), and a wrong variant of each correction (a
flipped inequality, another constant, another form) is refuted, which makes the erratum an error."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.papers.nam2025 import claims_errata as errata
from proofs_check.papers.nam2025.claims import PAPER, gp
from proofs_check.runner import run_check, run_claims

S, S0, Sigma0, P0 = errata.S, errata.S0, errata.Sigma0, errata.P0
ERRATA = {
    "nam2025.errata.appH.gamma_range",
    "nam2025.errata.remark4.concavity_boundary",
    "nam2025.errata.theorem3.hypothesis",
    "nam2025.errata.sec7_1.feature_motion",
    "nam2025.errata.sec5_1.alpha_squared",
    "nam2025.errata.appC3.init_dimensions",
}


@pytest.fixture(scope="module")
def records():
    claims = [c for c in load_papers(["nam2025"]).claims("nam2025") if c.id.startswith("nam2025.errata.")]
    return {r.claim.id: r for r in run_claims(claims)}


def _corrected_refuted(outcome) -> bool:
    """An erratum whose corrected half is refuted comes out as an error naming that half."""
    return outcome.status is Status.ERROR and "corrected form not verified (status refuted)" in outcome.detail


def test_every_erratum_has_both_halves(records):
    assert set(records) == ERRATA
    for cid, record in records.items():
        outcome = record.outcome
        assert outcome.status is Status.ERRATUM, (cid, outcome.detail)
        assert outcome.counterexample and outcome.printed and outcome.corrected, cid


def test_gamma_range_counterexample_is_the_issue_s_point(records):
    witness = records["nam2025.errata.appH.gamma_range"].outcome.counterexample
    assert (witness["S"], witness["S_0"], witness["Sigma_0"]) == ("1/2", "1", "3/2")
    assert witness["gamma_+"] == "0.689898"
    # independently of z3: at t = 0 (E = 1) the derived clock is 1, above γ₊ = (S + D0)/(Σ0 + 𝒮0) there
    point = {S: sp.Rational(1, 2), S0: 1, Sigma0: sp.Rational(3, 2), errata.Z: 1}
    point[errata.D0] = sp.sqrt(S**2 + Sigma0**2 - S0**2).xreplace(point)
    assert sp.simplify(errata.clock_in_E()[0].xreplace({errata.E: 1}).xreplace(point)) == 1
    assert abs(sp.N(PAPER.definition("gamma_+").xreplace(point)) - mpmath.mpf("0.6898979")) < 1e-6


def test_gamma_range_flipped_correction_is_refuted():
    g = errata.gamma_t
    flipped = sp.And(g > errata.gm, sp.Implies(S < S0, g < gp))
    assert _corrected_refuted(errata.gamma_range_check(flipped))
    # the printed range as the "correction" is refuted too
    assert _corrected_refuted(errata.gamma_range_check(errata.GAMMA_RANGE_PRINTED))


def test_remark4_boundary_witness_and_wrong_bounds(records):
    witness = records["nam2025.errata.remark4.concavity_boundary"].outcome.counterexample
    assert witness["S"] == "3/2" and witness["gamma_ddot(t=0)"] == "0"
    assert float(witness["gamma_ddot(t=1)"]) < 0 and float(witness["gamma_ddot(t=3)"]) < 0
    for bound in (2 * P0, Sigma0, P0 / 2):
        assert _corrected_refuted(errata.remark4_check(bound)), bound


def test_theorem3_needs_the_hypothesis_and_the_limit_is_S(records):
    witness = records["nam2025.errata.theorem3.hypothesis"].outcome.counterexample
    assert witness["theta(oo)"] == "0" and float(witness["max theta"]) <= 0
    for wrong in (S / 2, 2 * S, S0):
        assert _corrected_refuted(errata.theorem3_check(wrong)), wrong


def test_feature_motion_limits_and_wrong_scalings():
    limits = errata.feature_motion()
    assert sp.simplify(limits["weight"] - S / 2) == 0
    assert limits["feature sqrt(p) aligned"] == 0 and limits["feature sqrt(p) opposed"] == 0
    assert sp.simplify(limits["feature p aligned"] - S) == 0 and sp.simplify(limits["feature p opposed"] - S) == 0
    assert _corrected_refuted(errata.feature_check(S / 2))
    assert _corrected_refuted(errata.feature_check(S, power="sqrt(p)"))
    with pytest.raises(ValueError, match="power"):
        errata.feature_check(S, power="p^2")
    with pytest.raises(TypeError, match="corrected"):
        errata.gamma_range_check("γ < γ+")  # type: ignore[arg-type]


def test_alpha_definition_printed_refuted_and_wrong_rate_refuted():
    claim = PAPER["errata.sec5_1.alpha_squared"]
    assert run_check(PAPER.variant(claim.id, claim.statement)).status is Status.REFUTED
    assert run_check(PAPER.variant(claim.id, claim.corrected)).status is Status.PROVED
    q_t, q_0, rho = errata.q_t, errata.q_0, errata.rho
    wrong_rate = sp.Eq(q_t / rho, 1 / (1 + (rho / q_0 - 1) * sp.exp(-rho * errata.H.t)))
    assert _corrected_refuted(run_check(PAPER.variant(claim.id, claim.statement, corrected=wrong_rate)))


def test_whitened_init_wrong_form_is_refuted():
    assert errata.whitened_init_check().status is Status.ERRATUM
    assert _corrected_refuted(errata.whitened_init_check("U A R^T"))
    with pytest.raises(ValueError, match="corrected"):
        errata.whitened_init_check("U R A")
