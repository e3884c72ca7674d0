"""Nam et al. 2025: the emergence model (eq 11), the greedy mode ordering (§5.1) and general features (App. B): every
claim's status, and a wrong variant of each refuted (another constant, another formula, other features)."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers.nam2025 import claims_appB as appB
from proofs_check.papers.nam2025 import claims_emergence as em
from proofs_check.papers.nam2025.features import feature_loss
from proofs_check.runner import run_check

PREFIXES = ("nam2025.emergence.", "nam2025.sec5.ordering", "nam2025.appB.")
PROVED = {
    "emergence.skills",
    "emergence.sigmoid",
    "emergence.time",
    "emergence.parameter",
    "sec5.ordering",
    "appB.eq18",
    "appB.eq19",
    "appB.closed_form",
}
NUMERIC = {"emergence.time.numeric", "emergence.data.exact", "emergence.data.simulation", "sec5.ordering.numeric"}
PAPER = em.PAPER


def test_statuses(check_statuses):
    check_statuses("nam2025", PREFIXES, PROVED, NUMERIC)


def test_exponent_convention_is_stated():
    assert "k^{-(\\alpha+1)}" in em.__doc__ and any("α+1" in str(a) for a in PAPER["emergence.time"].assumptions)


def test_skills_without_their_indicator_are_not_the_model():
    """Pure parities (no skill index) are orthogonal too, but E[g_k²] = 1, not P_k: the loss differs."""

    def parity_loss():
        skills = em._skills()
        parities = [g.xreplace({e: 1 for e in skills.indicators}) for g in skills.functions]
        inst = em.EMERGENCE.instance(em.SKILLS)
        return feature_loss(inst, parities, skills.expectation)

    wrong = PAPER.symbol("L_parity", r"\mathcal L_{\mathrm{parity}}", parity_loss)
    assert run_check(PAPER.variant("emergence.skills", sp.Eq(wrong, em.L_model))).status is Status.REFUTED


@pytest.mark.parametrize(
    ("claim_id", "wrong"),
    [
        ("emergence.sigmoid", sp.Eq(em.R_t / em.S, 1 / (1 + (em.S / em.w0 - 1) * sp.exp(-em.S * em.P * em.t)))),
        ("emergence.time", sp.Eq(em.t_k / em.t_1, em.k**em.alpha)),
        (
            "emergence.parameter",
            sp.Eq(
                sp.Matrix([em.R_1, em.R_4, em.dL, em.R_inf]),
                sp.Matrix([em.a_1 * em.b_1, em.S, em.S**2 * em.P_4 / 2, em.S]),
                evaluate=False,
            ),
        ),
        ("sec5.ordering", sp.Eq(sp.Limit(em.t_i / em.t_j, em.w0, 0), em.S_i * em.lam_i / (em.S_j * em.lam_j))),
        ("appB.eq18", sp.Eq(appB.L_phi, 2 * appB.L_lin)),
    ],
)
def test_wrong_variants_are_refuted(claim_id, wrong):
    assert run_check(PAPER.variant(claim_id, wrong)).status is Status.REFUTED


def test_two_shot_learning_is_refuted_exactly():
    def two_shot(p, n):
        return 1 - (1 - p) ** n - n * p * (1 - p) ** (n - 1)

    assert em.data_enumeration(two_shot).status is Status.REFUTED


def test_data_emergence_is_supported_on_its_sample_not_proved():
    """The enumeration covers n ≤ 4 draws of 4 skills only: exact there, but no proof for every n (issue 24)."""
    outcome = em.data_enumeration(em.paper_formula)
    assert outcome.status is Status.NUMERIC and f"n = 1 … {em.ENUMERATED} only" in outcome.detail


def test_data_simulation_refutes_another_formula(wrong_experiment):
    def proportional(p, n):
        return min(1.0, n * p)

    claim = wrong_experiment(lambda: em.data_deviation(proportional), em.DATA_TOLERANCE)
    assert run_check(claim).status is Status.REFUTED


def test_half_times_refute_another_exponent(wrong_experiment):
    claim = wrong_experiment(lambda: em.half_time_ratios(lambda alpha: alpha), 1e-3, expected=1.0)
    assert run_check(claim).status is Status.REFUTED


def test_modes_are_not_learned_in_the_order_of_their_rates_alone():
    assert em.mode_order(lambda target, rate: rate).status is Status.REFUTED
    assert em.mode_order(lambda target, rate: target).status is Status.REFUTED


def test_non_orthogonal_features_break_the_identification():
    monomials = (appB.X, appB.X**2, appB.X**3)
    for model in ("linear_model", "diagonal_linear_network"):
        feature, own, _ = appB.feature_identity(model, monomials)
        left = PAPER.symbol(f"L_mono_{model}", r"\mathcal L_{x^k}", feature)
        right = PAPER.symbol(f"L_mono_lin_{model}", r"\mathcal L", own)
        claim = "appB.eq18" if model == "linear_model" else "appB.eq19"
        assert run_check(PAPER.variant(claim, sp.Eq(left, right))).status is Status.REFUTED
