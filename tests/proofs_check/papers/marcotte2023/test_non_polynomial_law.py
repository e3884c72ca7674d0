"""marcotte2023.completeness.power_activation: the non-polynomial law is derived and proved, not counted by fiat.

The claim used to add a typed "+1 non-polynomial law" to the two polynomial laws. Now the law Delta_1 - Delta_2 is
built from the checked antiderivative of eq. 30 (derivations.power_activation.F_BETA2), proved conserved along
every field and independent of the polynomial laws (an exact non-zero minor), and only then counted; a wrong law
(a flipped sign, a changed constant) or a dependent one leaves the count at 2 < 3 and the claim is refuted."""

from __future__ import annotations

import pytest
import sympy as sp

from derivations import models
from derivations.models.power_activation import u, w
from derivations.power_activation import F_BETA2, c_pos, conserved_quantity, w_pos
from proofs_check.claims import Status
from proofs_check.papers.marcotte2023 import checks

MODEL = models.get("power_activation")
u1, u2, w1, w2 = MODEL.instance(checks.WIDTH).variables


def law(ui: sp.Symbol, wi: sp.Symbol, scale: int = 1) -> sp.Expr:
    """F(w_i; c_i) with the asinh's argument scaled by ``scale`` (1: the derived one)."""
    c = conserved_quantity(2).xreplace({u: ui, w: wi})
    return F_BETA2.xreplace({c_pos: c, w_pos: wi}).replace(sp.asinh, lambda x: sp.asinh(scale * x))


def test_the_non_polynomial_law_is_proved_and_counted() -> None:
    (built,) = checks.power_activation_laws(MODEL)
    assert sp.simplify(built - (law(u1, w1) - law(u2, w2))) == 0
    outcome = checks.completeness(MODEL)()
    assert outcome.status is Status.PROVED, outcome
    assert "1 non-polynomial law(s)" in outcome.detail and "proved conserved" in outcome.detail
    assert "independent of the polynomial laws" in outcome.detail


@pytest.mark.parametrize(
    ("wrong", "why"),
    [
        (lambda: (law(u1, w1) + law(u2, w2),), "not conserved"),  # a flipped sign
        (lambda: (law(u1, w1, 2) - law(u2, w2, 2),), "not conserved"),  # a changed constant
        (lambda: (sp.sqrt(conserved_quantity(2).xreplace({u: u1, w: w1})),), "not independent"),  # a function of c_1
        (lambda: (), ""),  # no law: the count is short by one
    ],
)
def test_a_wrong_or_dependent_law_is_not_counted(monkeypatch, wrong, why) -> None:
    monkeypatch.setitem(checks.NON_POLYNOMIAL, "power_activation", lambda model: wrong())
    outcome = checks.completeness(MODEL)()
    assert outcome.status is Status.REFUTED, outcome
    assert outcome.counterexample["non-polynomial laws proved"] == "0"
    assert why in outcome.detail
