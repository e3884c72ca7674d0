"""The Xu & Ziyin 2025 power-activation claims (``xu_ziyin2025.power.*``)."""

from __future__ import annotations

import pytest

from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.runner import run_check

IDS = ("conserved.beta1", "conserved.beta2", "conserved.beta3", "clock", "delta", "F_beta2", "log_p_beta1")


@pytest.fixture(scope="module")
def paper():
    return load_papers(["xu_ziyin2025"]).paper("xu_ziyin2025")


@pytest.mark.parametrize("cid", IDS)
def test_exact_claims_are_proved(paper, cid):
    outcome = run_check(paper[f"power.{cid}"])
    assert outcome.status is Status.PROVED, outcome


def test_erratum_two(paper):
    outcome = run_check(paper["power.erratum2"])
    assert outcome.status is Status.ERRATUM, outcome
    assert outcome.counterexample


def test_reduction_is_numerically_supported(paper):
    outcome = run_check(paper["power.reduction"])
    assert outcome.status is Status.NUMERIC, outcome
    assert "tolerance 1e-08" in outcome.detail
