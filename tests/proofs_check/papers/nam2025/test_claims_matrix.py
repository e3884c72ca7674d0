"""Claims on matrix linear networks: Nam et al. App. C.3, §6, §7, Fig. 6a (``nam2025_matrix``), Saxe et al. 2014
and Dominé et al. 2025: ids, statuses, citations and the CLI."""

from __future__ import annotations

import pytest

from proofs_check.claims import Status
from proofs_check.cli import main
from proofs_check.papers import load_papers
from proofs_check.runner import run_check, run_claims

NUMERIC = {"nam2025.fig6a.lazy_rich_map", "nam2025.fig6a.scale_axis"}
SLOW = {
    "saxe2014.full_matrix_flow",
    "domine2025.full_matrix_flow",
    "saxe2014.appA.numeric",
    "domine2025.theorem2.numeric",
    "domine2025.unaligned.full_flow",
    "domine2025.unaligned.aligned_limit",
}


MATRIX_PREFIXES = (
    "nam2025.appC3.",
    "nam2025.sec6.ntk_table",
    "nam2025.sec6.ntk_gram",
    "nam2025.sec6.kernel",
    "nam2025.fig6a.",
    "nam2025.sec7.table.",
)


def test_nam2025_matrix_claims_are_proved_except_the_map() -> None:
    claims = [c for c in load_papers(["nam2025"]).claims("nam2025") if c.id.startswith(MATRIX_PREFIXES)]
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
    assert "uncertain" in claim.statement


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


def test_wrong_variants_of_saxe_and_domine_are_refuted(registry) -> None:
    import sympy as sp

    from proofs_check.checkers import identities
    from proofs_check.papers.domine2025.lambda_balanced import SYMBOLS as L
    from proofs_check.papers.domine2025.lambda_balanced import transition_function
    from proofs_check.papers.saxe2014 import claims as saxe

    # a flipped sign in the exponent of eq 12, and in the balanced mode's flow
    growing = sp.Eq(saxe.alpha_sq / saxe.rho, 1 / (1 + (saxe.rho / saxe.alpha0**2 - 1) * sp.exp(2 * saxe.rho * saxe.t)))
    assert run_check(saxe.PAPER.variant("eq12", growing)).status is Status.REFUTED
    flow = sp.Eq(
        sp.Matrix([saxe.alpha_dot, saxe.gap_dot]),
        sp.Matrix([saxe.a * (saxe.a**2 - saxe.S), -(saxe.S - saxe.a * saxe.b) * (saxe.a - saxe.b)]),
        evaluate=False,
    )
    assert run_check(saxe.PAPER.variant("eq12.flow", flow)).status is Status.REFUTED
    # Dominé et al.'s transition function starts at 0, not 1
    S = sp.Symbol("S", positive=True)
    assert identities([transition_function(S, L.rho0, L.ell, 0) - 1])().status is Status.REFUTED


def test_unaligned_claims_and_their_wrong_variants(registry, monkeypatch) -> None:
    """The QQ^T claims: the derivation steps are proved (above); the 30-digit comparison refutes a solution evaluated
    with a 1 % wrong lambda."""
    import proofs_check.papers.domine2025.qqt as unaligned

    paper = registry.paper("domine2025")
    ids = {c.id for c in paper.claims() if c.id.startswith("domine2025.unaligned.")}
    assert ids == {
        f"domine2025.unaligned.{n}" for n in ("flow", "riccati", "solution", "spectrum", "full_flow", "aligned_limit")
    }
    correct = unaligned.balance
    monkeypatch.setattr(unaligned, "balance", lambda W1, W2, dps=None: correct(W1, W2, dps) * 1.01)
    outcome = run_check(paper["unaligned.aligned_limit"])
    assert outcome.status is Status.REFUTED
