"""The Nam et al. 2025 claims: statuses, the errata's both halves, and wrong variants of central claims refuted."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.papers.nam2025 import claims as nam
from proofs_check.runner import run_check, run_claims

ERRATA = {"nam2025.appH.gamma0", "nam2025.remark4.delta0"}
MATRIX = {
    c.id
    for c in load_papers(["nam2025"]).claims("nam2025")
    if c.id.startswith(("nam2025.appC3.", "nam2025.sec6.ntk_table", "nam2025.sec6.ntk_gram", "nam2025.sec7.table."))
    or "kernel_distance" in c.id
}
"""The matrix-network claims, tested in test_matrix_network_claims."""
OWN_TESTS = (
    "nam2025.emergence.",
    "nam2025.sec5.ordering",
    "nam2025.appB.",
    "nam2025.grokking.",
    "nam2025.sec7.ntk_scaling",
    "nam2025.collapse.",
    "nam2025.errata.",
    "nam2025.scaling.",
    "nam2025.staircase.",
    "nam2025.sec5.rho_ordering",
    "nam2025.sec7.downscaling.",
    "nam2025.fig6b.",
    "nam2025.appF3.",
    "nam2025.sec5_2.",
)
"""Claims tested in test_claims_emergence, test_claims_regimes, test_errata, test_claims_scaling,
test_claims_staircase, test_claims_downscaling, test_claims_lazy_ratio, test_claims_funnel and test_claims_sec5_2."""


@pytest.fixture(scope="module")
def records():
    claims = [
        c
        for c in load_papers(["nam2025"]).claims("nam2025")
        if c.id not in MATRIX and "fig6a" not in c.id and not c.id.startswith(OWN_TESTS)
    ]
    return {r.claim.id: r for r in run_claims(claims)}


def test_no_claim_refuted_or_error(records):
    bad = {cid: r.outcome.detail for cid, r in records.items() if r.outcome.status in (Status.REFUTED, Status.ERROR)}
    assert bad == {}


def test_only_the_documented_errata_with_counterexamples(records):
    assert {cid for cid, r in records.items() if r.outcome.status is Status.ERRATUM} == ERRATA
    for cid in ERRATA:
        assert records[cid].outcome.counterexample and r"\emph{Corrected:}" in records[cid].claim.latex


def test_theorem3_equations_are_proved_exactly(records):
    for tag in ("72-73", "74", "76", "77", "78", "79-81", "82-85", "86-87", "88", "89-90", "91-93", "96"):
        assert records[f"nam2025.appH.eq{tag}"].outcome.status is Status.PROVED, tag


def test_numeric_claims_say_so(records):
    numeric = {cid for cid, r in records.items() if r.outcome.status is Status.NUMERIC}
    assert numeric == {"nam2025.appH.theorem3.numeric"}


@pytest.mark.parametrize(
    ("claim_id", "wrong"),
    [
        # a flipped sign in the derived flow
        (
            "eq6",
            sp.Eq(
                sp.Matrix([nam.a_dot, nam.b_dot]),
                sp.Matrix([nam.b * nam.lam * (nam.a * nam.b - nam.S_i), nam.a * nam.lam * (nam.S_i - nam.a * nam.b)]),
                evaluate=False,
            ),
        ),
        ("eq7", sp.Eq(nam.theta_dot, nam.lam * (nam.theta - nam.S_i))),
        # a changed constant in the closed form and in the roots' product
        ("eq10", sp.Eq(nam.theta_t, nam.S_i + (nam.theta0 - nam.S_i) * sp.exp(-2 * nam.lam * nam.t))),
        (
            "appH.eq76.product",
            sp.And(sp.Eq(nam.gp * nam.gm, (nam.Sigma0 - nam.S0) / (nam.Sigma0 + nam.S0)), nam.gp * nam.gm <= 0),
        ),
        ("remark4.center", sp.Eq((nam.gp + nam.gm) / 2, nam.S / (nam.Sigma0 + nam.D0))),
        (
            "appH.monotone",
            sp.And(sp.Eq(nam.gdot0, 2 * (nam.S - nam.S0) / nam.Z), sp.Equivalent(nam.gp > 1, nam.S < nam.S0)),
        ),
        # the limits of the derived root: lazy limit 2 instead of 1
        (
            "sec7.limits",
            sp.Eq(
                sp.Matrix(
                    [
                        sp.Limit(nam.gp_derived, nam.Sig_pos, sp.oo),
                        sp.Limit(nam.gp_derived * nam.Sig_pos / (2 * nam.S_pos), nam.Sig_pos, 0),
                    ]
                ),
                sp.Matrix([2, 1]),
                evaluate=False,
            ),
        ),
    ],
)
def test_wrong_variants_are_refuted(claim_id, wrong):
    assert run_check(nam.PAPER.variant(claim_id, wrong)).status is Status.REFUTED


def test_app_h_claims_compare_the_printed_formula_with_the_derived_step():
    """eqs 79-81: the printed clock rate is the derived one (tests/proofs_check/test_appendix_h.py shows the same
    printed formula refuted for variants of the model, whose derived steps differ)."""
    printed, check = nam._appendix_h("79–81")
    assert printed.rhs.has(nam.g) and check().status is Status.PROVED


def test_an_erratum_whose_printed_form_is_true_is_an_error():
    wrong = nam.PAPER.variant("appH.gamma0", sp.Eq(nam.gamma_0, 1), corrected=sp.Eq(nam.gamma_0, 1))
    outcome = run_check(wrong)
    assert outcome.status is Status.ERROR and "nam2025.appH.gamma0~variant" in outcome.detail


# --- issue 23: the initial rates are derived, and a model whose derived rates differ refutes the claims ----------

RATE_CLAIMS = ("appH.monotone", "remark4.concavity", "appH.degenerate.fixed_point")


def test_the_initial_rates_are_the_derivation_s():
    """γ̇(0) is the closed form's initial rate (a checked step of its derivation), γ̈(0) the derived clock equation
    differentiated along the flow; neither is the printed formula it is compared with."""
    from proofs_check.papers.nam2025.claims_appH import derived_sums

    cf = nam.SCALAR.closed_form
    ((gamma, clock),) = cf.riccati.items()
    rate = cf.initial_rates[gamma]
    assert any(s.relation.rhs == rate for s in cf.derivation.by_key("returned")), "the rate is a checked step"
    notation = derived_sums(nam.SCALAR, cf)
    assert sp.simplify(nam.PAPER.definition("gamma_dot(0)") - rate.xreplace(notation)) == 0
    acceleration = (sp.diff(clock.rhs, gamma) * clock.rhs).xreplace({gamma: 1}).xreplace(notation)
    assert sp.simplify(nam.PAPER.definition("gamma_ddot(0)") - acceleration) == 0
    assert not nam.PAPER.definition("gamma_dot(0)").has(nam.gdot0_printed)


@pytest.mark.parametrize("claim_id", RATE_CLAIMS)
def test_a_model_with_other_derived_rates_refutes_the_rate_claims(claim_id, monkeypatch):
    """With E x² = 3 the derived flow runs three times faster: its derived γ̇(0), γ̈(0) and fixed-point condition
    differ from the printed formulas, and each claim is refuted (it compares the printed with the derived)."""
    import dataclasses

    assert run_check(nam.PAPER[claim_id]).status is Status.PROVED
    faster = dataclasses.replace(nam.SCALAR, moment=lambda s, i, j: sp.Integer(3))
    monkeypatch.setattr(nam, "SCALAR", faster)
    monkeypatch.setattr(nam.PAPER, "_resolved", {})
    assert run_check(nam.PAPER[claim_id]).status is Status.REFUTED


@pytest.mark.parametrize("claim_id", sorted(ERRATA))
def test_errata_counterexamples_lie_inside_the_papers_assumptions(claim_id):
    """The paper assumes S > 0 (and Σ0 + 𝒮0 > 0, Σ0 ≥ |𝒮0|): the printed form's counterexample must satisfy them
    (it was S = −4.88 before issue 24)."""
    outcome = run_check(nam.PAPER[claim_id])
    witness = outcome.counterexample
    target, s0, sigma0 = (float(witness[name]) for name in ("S", "S_0", "Sigma_0"))
    assert outcome.status is Status.ERRATUM, outcome.detail
    assert target > 0 and sigma0 + s0 > 0 and sigma0 >= abs(s0), witness
