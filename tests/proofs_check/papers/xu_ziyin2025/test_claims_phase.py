"""The Xu & Ziyin 2025 phase-diagram claims (``xu_ziyin2025.phase.*``)."""

from __future__ import annotations

import dataclasses
import importlib
from fractions import Fraction

import pytest

from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.papers.xu_ziyin2025.phase import PARAMETRIZATIONS
from proofs_check.runner import run_check

PROVED = ("e_B", "boundary", "abc_exponents", "balanced")
TABLE = ("ntk", "mean_field", "xavier", "kaiming_fan_in", "small_init")


@pytest.fixture(scope="module")
def paper():
    return load_papers(["xu_ziyin2025"]).paper("xu_ziyin2025")


def test_ids_and_citations(paper):
    ids = {c.id.removeprefix("xu_ziyin2025.phase.") for c in paper.claims() if ".phase." in c.id}
    assert ids == {*PROVED, *(f"table.{k}" for k in TABLE)}
    for claim in (c for c in paper.claims() if ".phase." in c.id):
        assert claim.citation.reference.startswith(("Xu & Ziyin 2025, phase diagram", "Xu & Ziyin 2025, abc-symmetry"))
        assert claim.citation.reference.endswith("(reconstructed)")
        assert any("equation number is unknown" in str(a) for a in claim.assumptions)


@pytest.mark.parametrize("cid", PROVED)
def test_exact_claims_are_proved(paper, cid):
    outcome = run_check(paper[f"phase.{cid}"])
    assert outcome.status is Status.PROVED, outcome


def test_a_missed_table_exponent_is_refuted(paper, monkeypatch):
    p = PARAMETRIZATIONS["ntk"]
    wrong = dataclasses.replace(p, predicted={**p.predicted, "dK/K": Fraction(-1, 2)})
    monkeypatch.setitem(PARAMETRIZATIONS, "ntk", wrong)
    phases = importlib.import_module("proofs_check.papers.xu_ziyin2025.phase")
    monkeypatch.setattr(phases, "TABLE_WIDTHS", (100, 400, 1600))
    monkeypatch.setattr(phases, "TABLE_SEEDS", range(200))
    outcome = run_check(paper["phase.table.ntk"])
    assert outcome.status is Status.REFUTED
    assert set(outcome.counterexample) == {"dK/K"}


@pytest.mark.slow
@pytest.mark.parametrize("key", TABLE)
def test_table_rows_are_numerically_supported(paper, key):
    outcome = run_check(paper[f"phase.table.{key}"])
    assert outcome.status is Status.NUMERIC, outcome
