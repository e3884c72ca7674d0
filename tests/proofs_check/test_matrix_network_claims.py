"""Claims on matrix linear networks: Nam et al. App. C.3, §6, §7, Fig. 6a (``nam2025_matrix``), Saxe et al. 2014
and Dominé et al. 2025: ids, statuses, citations and the CLI."""

from __future__ import annotations

import pytest

from proofs_check.claims import Status
from proofs_check.cli import main
from proofs_check.papers import load_papers, nam2025_matrix
from proofs_check.runner import run_claims

NUMERIC = {"nam2025.fig6a.lazy_rich_map", "nam2025.fig6a.scale_axis"}
SLOW = {
    "saxe2014.full_matrix_flow",
    "domine2025.full_matrix_flow",
    "saxe2014.appA.numeric",
    "domine2025.theorem2.numeric",
}


def test_nam2025_matrix_claims_are_proved_except_the_map() -> None:
    claims = nam2025_matrix.claims()
    ids = [c.id for c in claims]
    assert len(ids) == len(set(ids)) == 17
    assert {f"nam2025.sec7.table.{m}" for m in ("linear_model", "two_layer_scalar", "lambda_balanced")} <= set(ids)
    records = run_claims(claims)
    for record in records:
        expected = Status.NUMERIC if record.claim.id in NUMERIC else Status.PROVED
        assert record.outcome.status is expected, (record.claim.id, record.outcome.detail)
        assert record.claim.citation.paper == "nam2025"


@pytest.fixture(scope="module")
def registry():
    return load_papers(["nam2025", "saxe2014", "domine2025"])


@pytest.mark.parametrize("paper", ["saxe2014", "domine2025"])
def test_exact_claims_of_saxe_and_domine_are_proved(registry, paper) -> None:
    claims = [c for c in registry.claims(paper) if c.id not in SLOW]
    assert len(claims) >= 3
    for record in run_claims(claims):
        assert record.outcome.status is Status.PROVED, (record.claim.id, record.outcome.detail)
        assert record.claim.citation.paper == paper


def test_uncertain_form_of_theorem2_is_labelled(registry) -> None:
    (claim,) = [c for c in registry.claims("domine2025") if c.id == "domine2025.theorem2.transition"]
    assert "uncertain" in claim.title


@pytest.mark.slow
def test_numeric_claims_of_saxe_and_domine(registry) -> None:
    claims = [c for paper in ("saxe2014", "domine2025") for c in registry.claims(paper) if c.id in SLOW]
    assert len(claims) == len(SLOW)
    for record in run_claims(claims):
        assert record.outcome.status is Status.NUMERIC, (record.claim.id, record.outcome.detail)


def test_cli_lists_the_new_papers(capsys) -> None:
    assert main(["--list", "--paper", "saxe2014", "--paper", "domine2025"]) == 0
    out = capsys.readouterr().out
    assert "saxe2014.eq12" in out and "domine2025.theorem2.limit_zero" in out
