"""The power-activation claims of Xu & Ziyin 2025 (spec §3, §8 erratum 2): statuses, erratum halves, no registration."""

from __future__ import annotations

import time

import pytest

from proofs_check.claims import REGISTRY, Status
from proofs_check.papers import xu_ziyin2025_power
from proofs_check.runner import run_claims

EXPECTED = {
    "xu_ziyin2025.power.conserved.beta1": Status.PROVED,
    "xu_ziyin2025.power.conserved.beta2": Status.PROVED,
    "xu_ziyin2025.power.conserved.beta3": Status.PROVED,
    "xu_ziyin2025.power.clock": Status.PROVED,
    "xu_ziyin2025.power.delta": Status.PROVED,
    "xu_ziyin2025.power.F_beta2": Status.PROVED,
    "xu_ziyin2025.power.log_p_beta1": Status.PROVED,
    "xu_ziyin2025.power.erratum2": Status.ERRATUM,
    "xu_ziyin2025.power.reduction": Status.NUMERIC,
}


@pytest.fixture(scope="module")
def power_records():
    start = time.perf_counter()
    records = run_claims(xu_ziyin2025_power.claims())
    return {r.claim.id: r for r in records}, time.perf_counter() - start


def test_power_claims_statuses_and_budget(power_records) -> None:
    records, seconds = power_records
    assert {cid: r.outcome.status for cid, r in records.items()} == EXPECTED, {
        cid: (r.outcome.status, r.outcome.detail) for cid, r in records.items()
    }
    assert seconds < 15
    for record in records.values():
        assert record.claim.citation.paper == "xu_ziyin2025"
        assert "spec" in record.claim.citation.reference


def test_power_erratum2_has_both_halves(power_records) -> None:
    outcome = power_records[0]["xu_ziyin2025.power.erratum2"].outcome
    assert outcome.counterexample and "residual" in outcome.counterexample
    assert "e^x" in outcome.printed and "ln x" in outcome.corrected
    assert "corrected:" in outcome.method


def test_power_claims_are_not_registered() -> None:
    before = len(REGISTRY)
    xu_ziyin2025_power.claims()
    assert len(REGISTRY) == before
