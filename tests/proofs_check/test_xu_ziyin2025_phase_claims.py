"""The Xu & Ziyin 2025 phase-diagram claims (``proofs_check.papers.xu_ziyin2025_phase.claims``)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from numerics.phase import PARAMETRIZATIONS
from proofs_check.claims import REGISTRY, Claim, Status
from proofs_check.papers import xu_ziyin2025_phase as phase_claims
from proofs_check.runner import run_check

PROVED = ("e_B", "boundary", "abc_exponents", "balanced")
TABLE = ("ntk", "mean_field", "xavier", "kaiming_fan_in", "small_init")


@pytest.fixture(scope="module")
def by_id() -> dict[str, Claim]:
    return {c.id.removeprefix("xu_ziyin2025.phase."): c for c in phase_claims.claims()}


def test_ids_and_citations(by_id):
    assert set(by_id) == {*PROVED, *(f"table.{k}" for k in TABLE)}
    for claim in by_id.values():
        assert claim.citation.paper == "xu_ziyin2025"
        assert claim.citation.reference.startswith("Xu & Ziyin 2025 (spec §4")
        assert claim.citation.reference.endswith("; reconstructed)")
        assert any("equation number is unknown" in a for a in claim.assumptions)


def test_claims_are_built_without_registering():
    before = len(REGISTRY)
    first, second = phase_claims.claims(), phase_claims.claims()
    assert len(REGISTRY) == before
    assert [c.id for c in first] == [c.id for c in second]


@pytest.mark.parametrize("cid", PROVED)
def test_exact_claims_are_proved(by_id, cid):
    outcome = run_check(by_id[cid])
    assert outcome.status is Status.PROVED, outcome


def test_a_missed_table_exponent_is_refuted(monkeypatch):
    p = PARAMETRIZATIONS["ntk"]
    wrong = dataclasses.replace(p, predicted={**p.predicted, "dK/K": Fraction(-1, 2)})
    monkeypatch.setitem(phase_claims.PARAMETRIZATIONS, "ntk", wrong)
    monkeypatch.setattr(phase_claims, "TABLE_WIDTHS", (100, 400, 1600))
    monkeypatch.setattr(phase_claims, "TABLE_SEEDS", range(200))
    claim = next(c for c in phase_claims.claims() if c.id.endswith("table.ntk"))
    outcome = run_check(claim)
    assert outcome.status is Status.REFUTED
    assert set(outcome.counterexample) == {"dK/K"}


@pytest.mark.slow
@pytest.mark.parametrize("key", TABLE)
def test_table_rows_are_numerically_supported(by_id, key):
    outcome = run_check(by_id[f"table.{key}"])
    assert outcome.status is Status.NUMERIC, outcome
