"""The registered Xu & Ziyin 2025 claims: none refuted or in error, erratum 2 reported as an erratum."""

from __future__ import annotations

import pytest

from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.runner import run_claims


@pytest.fixture(scope="module")
def records():
    return {r.claim.id: r for r in run_claims(load_papers(["xu_ziyin2025"]).claims("xu_ziyin2025"))}


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
        "sec2.riccati",
        "sec2.roots",
        "sec2.closed_form",
        "sec2.ntk",
        "sec2.alignment_cosine",
        "equiv.two_layer_scalar",
        "equiv.uv_model",
        "sec4.abc_symmetry",
    ):
        assert records[f"xu_ziyin2025.{cid}"].outcome.status is Status.PROVED, cid


def test_citations_say_the_paper_text_is_reconstructed(records):
    assert all(
        "reconstructed" in r.claim.citation.reference or "spec" in r.claim.citation.reference for r in records.values()
    )
