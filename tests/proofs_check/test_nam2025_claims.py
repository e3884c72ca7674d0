"""The registered Nam et al. 2025 claims: statuses as the issue requires, and the errata's both halves."""

from __future__ import annotations

import json

import pytest

from proofs_check.claims import Status
from proofs_check.cli import main
from proofs_check.papers import load_papers
from proofs_check.runner import run_claims

ERRATA = {"nam2025.appH.gamma0", "nam2025.remark4.delta0"}


@pytest.fixture(scope="module")
def records():
    return {r.claim.id: r for r in run_claims(load_papers(["nam2025"]).claims("nam2025"))}


def test_no_claim_refuted_or_error(records):
    bad = {
        cid: (r.outcome.status, r.outcome.detail)
        for cid, r in records.items()
        if r.outcome.status in (Status.REFUTED, Status.ERROR)
    }
    assert bad == {}


def test_errata_are_errata_with_counterexamples(records):
    for cid in ERRATA:
        outcome = records[cid].outcome
        assert outcome.status is Status.ERRATUM, (cid, outcome)
        assert outcome.counterexample, cid
        assert outcome.printed and outcome.corrected


def test_only_the_documented_errata(records):
    assert {cid for cid, r in records.items() if r.outcome.status is Status.ERRATUM} == ERRATA


def test_theorem3_equations_are_proved_exactly(records):
    for tag in ("72-73", "74", "76", "77", "78", "79-81", "82-85", "86-87", "88", "89-90", "91-93", "96"):
        assert records[f"nam2025.appH.eq{tag}"].outcome.status is Status.PROVED, tag


def test_numeric_claims_say_so(records):
    numeric = {cid for cid, r in records.items() if r.outcome.status is Status.NUMERIC}
    assert "nam2025.appH.theorem3.numeric" in numeric
    for cid in numeric:
        assert any(word in records[cid].outcome.method for word in ("sampling", "mpmath", "GD")), cid


def test_cli_main_job_json(tmp_path, capsys):
    out = tmp_path / "report.json"
    assert main(["--paper", "nam2025", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["summary"]["refuted"] == 0 and data["summary"]["error"] == 0
    assert data["summary"]["erratum"] == 2
    assert "claims:" in capsys.readouterr().out.strip().splitlines()[-1]
