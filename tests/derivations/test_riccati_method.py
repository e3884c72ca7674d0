"""The Riccati method stated once (issue 26): ``riccati.method_section`` derives it for symbolic coefficients by
running the engine itself, every branch included; a model's derivation keeps its own steps (equation,
coefficients, branch and why, closed form) and marks every other step of the engine as a generic step of
``RICCATI_METHOD``, still checked. Each test shows a wrong variant refuted."""

from __future__ import annotations

from dataclasses import replace

import pytest
import sympy as sp

from derivations import models
from derivations.catalogue import Context, SharedClock, _sum_signs
from derivations.prose import text_latex
from derivations.riccati import (
    RICCATI_METHOD,
    _complex_roots,
    discriminant_sign,
    method_section,
    riccati_solution,
)

OWN = ("ode", "coefficients", "branch", "closed_form")


def _shared_clock(name: str):
    model = models.get(name)
    context = Context(model, sp.Symbol("t", nonnegative=True), sp.Symbol("gamma"))
    (reduction,) = [c for c in SharedClock().candidates(context) if not isinstance(c, str)]
    return reduction, context


def test_the_section_is_labelled_once_and_states_every_branch() -> None:
    tex = method_section()
    assert tex.count(rf"\label{{{RICCATI_METHOD.label}}}") == 1
    assert tex.startswith(r"\section{The Riccati method}")
    for heading in (
        "Two real roots: a positive discriminant",
        "Degenerate branches",
        "Complex roots: a negative discriminant",
    ):
        assert rf"\subsection{{{heading}}}" in tex, heading
    for branch in ("Linear", "Constant-rate", "Double-root", "Fixed-point"):
        assert rf"\paragraph{{{branch} branch.}}" in tex, branch
    # the displays are the engine's own steps: the factorization over the roots and the partial fractions
    assert r"c_2 \left(y - y_+\right) \left(y - y_-\right) = c_0 + c_1 y + c_2 y^{2}" in tex
    assert "partial fractions (sympy.apart)" in tex
    assert r"\ref{" not in tex  # stated in full, not referring to itself


def test_the_complex_root_branch_is_checked_and_a_wrong_form_is_refuted() -> None:
    derived = _complex_roots()
    assert all(c.proof.holds and c.proof.exact for c in derived.check())
    ode = next(s for s in derived.steps if s.justification.startswith("check: it satisfies the equation"))
    # without the relation omega^2 = 4 c2 c0 - c1^2 the check cannot close: it uses the branch's condition
    assert not ode.check().holds
    (solution,) = [s.relation.rhs for s in derived.steps if "real ratio" in s.justification]
    t = sp.Symbol("t", nonnegative=True)
    c2, c1, c0 = sp.symbols("c2 c1 c0", real=True)
    wrong = solution.xreplace({c1: -c1})  # the linear coefficient's sign flipped
    assert not replace(ode, residual=sp.diff(wrong, t) - (c2 * wrong**2 + c1 * wrong + c0)).check(derived.relations)


def test_a_models_derivation_keeps_its_own_steps_and_marks_the_others_generic() -> None:
    reduction, context = _shared_clock("two_layer_scalar")
    clock = riccati_solution(reduction.rhs, reduction.y, reduction.y0, context.t, signs=_sum_signs(reduction))
    steps = clock.derivation.steps
    assert [s.key for s in steps if s.method is None] == [
        "ode",
        "coefficients",
        "coefficients",
        "coefficients",
        "branch",
        "closed_form",
    ]
    assert all(s.method is RICCATI_METHOD for s in steps if s.key not in OWN)
    assert {s.key for s in steps if s.method is not None} <= set(RICCATI_METHOD.topics)
    assert clock.derivation.methods() == (RICCATI_METHOD,)
    assert all(c.proof.holds and c.proof.exact for c in clock.derivation.check())


def test_the_discriminants_sign_needs_the_sums_signs() -> None:
    reduction, context = _shared_clock("two_layer_scalar")
    poly = sp.Poly(reduction.rhs, reduction.y)
    c2, c1, c0 = (poly.coeff_monomial(reduction.y**n) for n in (2, 1, 0))
    assert discriminant_sign(c2, c1, c0, _sum_signs(reduction)) is True
    assert discriminant_sign(c2, c1, c0) is None  # theta[-1] <= 0 is known only from its summands
    x = sp.Symbol("x", positive=True)
    assert discriminant_sign(sp.S.One, sp.S.Zero, x) is False  # y' = y^2 + x: complex roots
    with_signs = riccati_solution(reduction.rhs, reduction.y, reduction.y0, context.t, signs=_sum_signs(reduction))
    without = riccati_solution(reduction.rhs, reduction.y, reduction.y0, context.t)
    (proved,) = with_signs.derivation.by_key("branch")
    (named,) = without.derivation.by_key("branch")
    assert isinstance(proved.relation, sp.GreaterThan) and proved.check().holds
    assert isinstance(named.relation, sp.Equality) and "not decided" in named.justification


def test_a_forced_branch_is_named_and_checked() -> None:
    y, lam, S = sp.Symbol("theta"), sp.Symbol("lam", positive=True), sp.Symbol("S", real=True)
    clock = riccati_solution(lam * (S - y), y, sp.Symbol("theta0"), sp.Symbol("t", nonnegative=True))
    (branch,) = clock.derivation.by_key("branch")
    assert clock.branch == "linear" and "linear branch" in branch.justification
    assert branch.relation == sp.Eq(sp.Symbol("c2", real=True), 0)
    assert branch.check().holds
    # the same step for a quadratic right-hand side is refuted: q'' does not vanish
    assert not replace(branch, residual=sp.diff(y**2 + lam * (S - y), y, 2)).check().holds


@pytest.mark.parametrize("name", ["linear_model", "two_layer_scalar", "lambda_balanced"])
def test_every_step_of_a_riccati_models_derivation_still_checks(name: str) -> None:
    derivation = models.get(name).closed_form.derivation
    assert RICCATI_METHOD in derivation.methods()
    assert all(c.proof.holds and c.proof.exact for c in derivation.check())
    # a wrong coefficient is refuted by its step's check
    step = next(s for s in derivation.steps if s.key == "coefficients")
    wrong = replace(step, residual=step.residual + 1)
    assert not wrong.check(derivation.relations, derivation.definitions).holds


def test_condensed_shows_the_coefficients_and_refers_to_the_section() -> None:
    derivation = models.get("two_layer_scalar").closed_form.derivation
    condensed, full = derivation.latex(mode="condensed"), derivation.latex()
    assert rf"\ref{{{RICCATI_METHOD.label}}}" in condensed and r"\ref{" not in full
    for symbol in ("c_2 = ", "c_1 = ", "c_0 = "):
        assert f"&{symbol}" in condensed, symbol
    generic = [text_latex(s.justification) for s in derivation.steps if s.method is not None]
    assert not [j for j in generic if j in condensed]
    assert [j for j in generic if j in full]  # the full form shows them: the scan above can fail
