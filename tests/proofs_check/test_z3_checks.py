"""The z3 checker: true inequalities are proved, false ones refuted with a model that really violates them,
definedness (denominators, radicands) is part of the proof, and the registered inequality claims are proved."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.papers.nam2025.hyperbolic import SYMBOLS as H
from proofs_check.runner import run_claims

pytest.importorskip("z3", reason="z3-solver is the [verify] extra")

from proofs_check.z3_checks import METHOD, decide, inequality

a, b, x = sp.symbols("a b x", real=True)
S, Sigma0, S0, D0, gp, gm = sp.Symbol("S", real=True), H.Sigma0, H.S0, H.D0, H.gamma_plus, H.gamma_minus
ROOTS = {gp: (S + D0) / (Sigma0 + S0), gm: (S - D0) / (Sigma0 + S0)}
APP_H = (sp.Eq(D0**2, S**2 + Sigma0**2 - S0**2), Sigma0 + S0 > 0, Sigma0 >= sp.Abs(S0))
INEQUALITY_CLAIMS = (
    "nam2025.appH.eq76.product",
    "nam2025.appH.monotone",
    "nam2025.remark4.concavity",
    "nam2025.remark4.decreasing",
    "nam2025.remark5.bounds",
)


def violates(claim: sp.Basic, model: dict[str, str]) -> bool:
    """Whether the z3 model, read back as exact rationals, makes ``claim`` false."""
    values = {s: sp.Rational(model[s.name]) for s in claim.free_symbols}
    return bool(claim.xreplace(values)) is False


def test_sum_of_squares_bound_is_proved():
    outcome = inequality((a**2 + b**2) / 2 >= sp.Abs(a * b))()
    assert outcome.status is Status.PROVED
    assert outcome.method == METHOD


def test_false_inequality_is_refuted_by_a_real_counterexample():
    claim = S**2 >= S0**2
    outcome = inequality(claim)()
    assert outcome.status is Status.REFUTED
    assert violates(claim, outcome.counterexample)


def test_logic_connectives():
    assert decide(sp.Implies(x > 1, x**2 > 1)).holds
    assert decide(sp.Equivalent(x > 0, x**3 > 0)).holds
    assert decide(sp.Or(x >= 0, x < 0)).holds
    assert decide(sp.Not(sp.And(x > 0, x < 0))).holds
    assert decide(sp.Equivalent(x > 0, x**2 > 0)).holds is False


def test_definedness_is_proved_too():
    assert decide(sp.sqrt(a) >= 0).holds is False  # a < 0: the radicand obligation fails
    assert decide(sp.sqrt(a) >= 0, [a >= 0]).holds
    assert decide(sp.Ne(1 / x, 0, evaluate=False)).holds is False  # x = 0 is a model
    assert decide(1 / x > 0, [x > 0]).holds
    assert decide(1 / sp.Symbol("y", positive=True) > 0).holds  # symbol assumptions are hypotheses


def test_square_root_atom_carries_its_definition():
    r = sp.sqrt(S**2 + Sigma0**2)
    assert decide(r >= sp.Abs(S)).holds
    assert decide(r > sp.Abs(S)).holds is False  # Sigma0 = 0


def test_untranslatable_claim_is_an_error_not_a_verdict():
    with pytest.raises(ValueError, match="claim"):
        decide(sp.log(x) > 0, [x > 1])
    with pytest.raises(ValueError, match="claim"):
        decide(sp.Symbol("n", integer=True) > 0)


def test_remark5_bounds_and_monotonicity():
    remark5 = sp.And(
        sp.Implies(S > 0, sp.And(gp >= 2 * S / (Sigma0 + S0), 2 * S / (Sigma0 + S0) >= S / Sigma0)),
        sp.Implies(sp.And(S > 0, S0 >= 0), gp <= 1 + 2 * S / Sigma0),
    )
    assert inequality(remark5, APP_H, ROOTS)().status is Status.PROVED
    assert inequality(sp.Equivalent(gp > 1, S > S0), APP_H, ROOTS)().status is Status.PROVED


def test_degenerate_double_root_breaks_the_kappa_bound():
    """Without D0 > 0 the claim 0 < kappa < 1 fails at D0 = 0 (S = 0, Sigma0 = S0), where kappa = 1."""
    kappa = (1 - gp) / (1 - gm)
    claim = sp.Implies(S < S0, sp.And(kappa > 0, kappa < 1))
    refuted = inequality(claim, APP_H, ROOTS)()
    assert refuted.status is Status.REFUTED
    assert refuted.counterexample["D_0"] == "0"
    assert inequality(claim, (*APP_H, D0 > 0), ROOTS)().status is Status.PROVED


def test_registered_inequality_claims_are_proved_by_z3_not_sampled():
    registry = load_papers(["nam2025"])
    records = run_claims([c for c in registry.claims("nam2025") if c.id in INEQUALITY_CLAIMS])
    assert len(records) == len(INEQUALITY_CLAIMS)
    for record in records:
        assert record.outcome.status is Status.PROVED, (record.claim.id, record.outcome)
        assert METHOD in record.outcome.method
        assert "sampling" not in record.outcome.method
