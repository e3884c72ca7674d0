"""The Xu & Ziyin 2025 claims: none refuted or in error, erratum 2 an erratum, and wrong variants refuted (the
weighted cosine in place of the plain one, flipped signs, a quantity that is not conserved)."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.papers.xu_ziyin2025 import claims as xz
from proofs_check.papers.xu_ziyin2025 import claims_power as power
from proofs_check.runner import run_check, run_claims

SLOW = ("phase.table.", "theorem1.numeric", "rank_one.numeric")
OWN_TESTS = ("xu_ziyin2025.alignment.", "xu_ziyin2025.disalignment.")
"""Claims tested in test_xu_ziyin2025_alignment."""


@pytest.fixture(scope="module")
def records():
    claims = [
        c
        for c in load_papers(["xu_ziyin2025"]).claims("xu_ziyin2025")
        if not any(s in c.id for s in SLOW) and not c.id.startswith(OWN_TESTS)
    ]
    return {r.claim.id: r for r in run_claims(claims)}


def test_no_claim_refuted_or_error(records):
    bad = {cid: r.outcome.detail for cid, r in records.items() if r.outcome.status in (Status.REFUTED, Status.ERROR)}
    assert bad == {}


def test_erratum_two_is_the_only_erratum(records):
    assert {cid for cid, r in records.items() if r.outcome.status is Status.ERRATUM} == {"xu_ziyin2025.power.erratum2"}


def test_exact_results_are_proved(records):
    for cid in (
        "sec1.flow",
        "prop1.rank_one",
        "sec2.decoupling",
        "sec2.conserved",
        "sec2.PQ",
        "sec2.riccati",
        "sec2.roots",
        "sec2.closed_form",
        "sec2.ntk",
        "sec2.alignment_cosine",
        "sec2.alignment_differs",
        "equiv.two_layer_scalar",
        "equiv.uv_model",
        "sec4.abc_symmetry",
    ):
        assert records[f"xu_ziyin2025.{cid}"].outcome.status is Status.PROVED, cid


def test_citations_say_the_paper_text_is_reconstructed(records):
    assert all("reconstructed" in r.claim.citation.reference for r in records.values())


def test_the_weighted_cosine_is_not_the_papers_zeta():
    weighted = sp.Eq(
        sp.Matrix([xz.zeta_w**2, xz.zeta_w]),
        sp.Matrix([sp.sinh(xz.theta) ** 2 / (sp.cosh(xz.theta) ** 2 - xz.S_pq**2 / (xz.P * xz.Q)), sp.tanh(xz.theta)]),
        evaluate=False,
    )
    assert run_check(xz.PAPER.variant("sec2.alignment_cosine", weighted)).status is Status.REFUTED


def test_the_alignments_differ_only_for_nonzero_imbalance():
    assert run_check(xz.PAPER.variant("sec2.alignment_differs", xz.zeta_sq > xz.tanh_sq)).status is Status.REFUTED


def test_a_quantity_that_is_not_conserved_is_refuted():
    assert run_check(xz.PAPER.variant("sec2.PQ", sp.Eq(xz.PQ_dot, 1))).status is Status.REFUTED
    pp_dot = xz.PAPER.symbol("test_P_dot", r"\tfrac{d}{dt}\sum p_i^2", _p_rate)
    assert run_check(xz.PAPER.variant("sec2.PQ", sp.Eq(pp_dot, 0))).status is Status.REFUTED


def _p_rate() -> sp.Expr:
    """d/dt Σ p_i² = -2 g Σ p_i², not zero: only the product with Σ q_i² is conserved."""
    inst = xz.LW.instance(3)
    pi = [sp.sqrt(xz.eta_w) * x + sp.sqrt(xz.eta_u) * y for x, y in zip(inst.state["u"], inst.state["w"], strict=True)]
    return inst.time_derivative(sum(x**2 for x in pi))


@pytest.mark.parametrize(
    ("claim_id", "wrong"),
    [
        (
            "sec1.flow",
            sp.Eq(
                sp.Matrix([xz.u_dot, xz.w_dot]),
                sp.Matrix([xz.eta_u * xz.gamma * xz.E * xz.w, -xz.eta_w * xz.gamma * xz.E * xz.u]),
                evaluate=False,
            ),
        ),
        (
            "sec2.decoupling",
            sp.Eq(sp.Matrix([xz.p_dot, xz.q_dot]), sp.Matrix([xz.g * xz.p, xz.g * xz.q]), evaluate=False),
        ),
        ("sec2.riccati", sp.Eq(xz.phi_dot, -xz.PHI_RHS)),
    ],
)
def test_flipped_signs_are_refuted(claim_id, wrong):
    assert run_check(xz.PAPER.variant(claim_id, wrong)).status is Status.REFUTED


def test_erratum_two_needs_the_printed_form_refuted():
    both_correct = sp.Eq(power.corrected_rate, -power.tau_rate)
    outcome = run_check(xz.PAPER.variant("power.erratum2", both_correct, corrected=both_correct))
    assert outcome.status is Status.ERROR and "no erratum" in outcome.detail
