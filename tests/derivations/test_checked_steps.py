"""Issue 23 (derivation trust): the steps a mutation study found unchecked are now checked on the objects the
engines return, and each check refutes a wrong variant.

* the Riccati engine's degenerate-case split: each condition is a step whose check proves the branch's property of
  the equation's own polynomial modulo the condition (q'' = 0, q' = 0, resultant(q, q') = 0, q(y0) = 0), followed
  by the check that the branch's solution with the equation's coefficients solves the equation there; a flipped or
  changed condition fails both;
* the forced (Bessel) engine's unforced case c3 = 0, likewise;
* what ``riccati_solution`` returns (the solution with every definition substituted, the roots, the rate k);
* ``ClosedForm.initial_rates`` (the clock equation at t = 0, with the sums' linear relations from their summands);
* the separable engine's log|.| rewrite and its radical back-substitution.

Every mutant is put where the engine computes the object (a monkeypatched helper), or passed to the step builder
that the engine calls, and the check that must catch it is the engine's own recorded check.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import sympy as sp

from derivations import forced_riccati as forced
from derivations import models, pipeline, riccati, riccati_solution, separable
from derivations.closed_form import ClosedForm, Unsolved
from derivations.separable import implicit_solution

t = sp.Symbol("t", nonnegative=True)
y = sp.Symbol("y", real=True)


def failing(derivation) -> list[str]:
    """The justifications of the steps whose check does not hold exactly."""
    return [c.step.justification for c in derivation.check() if not (c.proof.holds and c.proof.exact)]


@pytest.fixture(scope="module")
def clock():
    """The two-layer scalar network's derived clock (its Riccati solution): gamma' = q(gamma), gamma(0) = 1."""
    ((_, solution),) = models.get("two_layer_scalar").closed_form.riccati.items()
    return solution


# --- 1. the degenerate-case split ------------------------------------------------------------------------------


def test_every_degenerate_condition_is_recorded_and_proved(clock) -> None:
    steps = [s for s in clock.derivation.by_key("case") if s.justification.startswith("degenerate case")]
    assert [s.relation for s in steps] == list(clock.cases)
    assert set(clock.cases.values()) == {"linear", "constant-rate", "double-root", "fixed-point"}
    for step in steps:
        assert step.residual != 0 and step.relations, step.justification  # a property to prove, not 0 by fiat
        proof = step.check()
        assert proof.holds and proof.exact, (step.justification, proof)


def _model_poly(clock) -> sp.Poly:
    return sp.Poly(clock.rhs, clock.y)


def mutants(clock) -> dict[str, tuple[sp.Expr, ...]]:
    """For each branch, a wrong condition (a flipped sign or a changed constant) in the clock's coefficients."""
    c2, c1, c0, y0 = clock.c2, clock.c1, clock.c0, clock.y0
    return {
        "linear": (c2 + 1,),
        "constant-rate": (c2, c0),
        "double-root": (c1**2 + 4 * c2 * c0,),
        "fixed-point": (c2 * y0**2 - c1 * y0 + c0,),
    }


@pytest.mark.parametrize("branch", ["linear", "constant-rate", "double-root", "fixed-point"])
def test_a_wrong_degenerate_condition_fails_its_check(clock, branch) -> None:
    poly = _model_poly(clock)
    right = dict(riccati._degenerate_conditions(poly, clock.y0))[branch]
    solution = next(s for b, _, s in riccati._abstract_cases() if b == branch)
    for exprs, holds in ((right, True), (mutants(clock)[branch], False)):
        condition = riccati._condition_step(poly, clock.y0, branch, exprs).check()
        ode, start = (s.check() for s in riccati._instance_steps(poly, clock.y0, t, branch, exprs, solution))
        assert condition.holds is holds, (branch, exprs, condition)
        if holds:
            assert ode.holds and start.holds
    # the branch's solution solves the equation only under the right condition (the fixed point and the constant
    # rate also meet the initial condition under a wrong one)
    wrong = riccati._instance_steps(poly, clock.y0, t, branch, mutants(clock)[branch], solution)[0]
    assert not wrong.check().holds, branch


def test_a_wrong_fixed_point_condition_in_the_engine_is_caught(clock, monkeypatch) -> None:
    """The mutant of the study: the engine's fixed-point condition with a flipped sign. It used to pass every
    check; the engine's own derivation now fails at that condition."""
    original = riccati._degenerate_conditions

    def flipped(poly: sp.Poly, y0: sp.Expr):
        found = original(poly, y0)
        if poly.gen == riccati._Y:  # the abstract cases (cached) keep the right conditions
            return found
        c2, c1, c0 = riccati._coefficients(poly)
        return (*found[:3], ("fixed-point", (sp.factor(c2 * y0**2 - c1 * y0 + c0),)))

    monkeypatch.setattr(riccati, "_degenerate_conditions", flipped)
    mutated = riccati_solution(clock.rhs, clock.y, clock.y0, t)
    assert any("q(y0) = 0: the start is a fixed point" in j for j in failing(mutated.derivation))
    monkeypatch.undo()
    assert not failing(riccati_solution(clock.rhs, clock.y, clock.y0, t).derivation)


def test_the_unforced_case_of_the_bessel_engine_is_checked() -> None:
    a, b, mu = sp.symbols("a b mu", positive=True)
    c = sp.Symbol("c", real=True)
    rhs = -a * y**2 + c * y + b * sp.exp(-4 * mu * t)
    unforced = -a * y**2 + c * y
    assert forced._unforced_case_step(rhs, unforced, b).check().holds
    for wrong in (b + 1, a, -b * c + 1):  # a changed constant, another coefficient
        assert not forced._unforced_case_step(rhs, unforced, wrong).check().holds, wrong
    solved = forced.bessel_solution(rhs, y, sp.S.One, t)
    (step,) = [s for s in solved.derivation.by_key("case") if s.relation == sp.Eq(b, 0, evaluate=False)]
    assert step.relations == (b,) and step.check().holds


# --- 3. what the engines return --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "perturb",
    [
        lambda d, k: {**d, k: 2 * d[k]},  # a wrong rate
        lambda d, k: {**d, k: -d[k]},  # the repelling root's rate (k < 0)
        lambda d, k: {**d, sp.Symbol("gamma_+", real=True): d[sp.Symbol("gamma_+", real=True)] + 1},  # a wrong root
    ],
)
def test_a_wrong_returned_rate_or_root_fails_the_returned_checks(clock, monkeypatch, perturb) -> None:
    generic = riccati._SOLVERS["generic"]

    def mutant(*args):
        solution, definitions, checked, facts = generic(*args)
        return solution, perturb(definitions, args[-1][2]), checked, facts

    monkeypatch.setitem(riccati._SOLVERS, "generic", mutant)
    found = failing(riccati_solution(clock.rhs, clock.y, clock.y0, t).derivation)
    assert found and all(j.startswith("check: the returned") for j in found), found


def test_a_wrong_returned_solution_fails_the_returned_checks(clock, monkeypatch) -> None:
    generic = riccati._SOLVERS["generic"]

    def mutant(*args):
        solution, definitions, checked, facts = generic(*args)
        return solution.xreplace({t: 2 * t}), definitions, checked, facts  # the returned rate doubled

    monkeypatch.setitem(riccati._SOLVERS, "generic", mutant)
    wrong = riccati_solution(clock.rhs, clock.y, clock.y0, t)
    assert wrong.solution == clock.solution.xreplace({t: 2 * t}), "the mutant reaches the returned solution"
    (found,) = failing(wrong.derivation)
    assert found.startswith("check: the returned solution is the verified one")


def test_initial_rates_are_checked_against_the_clock_equation_at_the_start() -> None:
    cf = models.get("two_layer_scalar").closed_form
    ((_, rate),) = cf.initial_rates.items()
    (step,) = [s for s in cf.derivation.by_key("returned") if "initial rate" in s.justification]
    theta0, plus, minus = (next(s for s in cf.sums if str(s) == n) for n in ("theta(0)", "theta[+1]", "theta[-1]"))
    # the relation among the sums comes from their summands (a changed summand gives none)
    assert step.relations == (theta0 - plus - minus,)
    a0 = cf.init["a"]
    changed = {**cf.sums, theta0: a0**2 / models.get("two_layer_scalar").symbol("Z")}
    assert pipeline._sum_relations(changed, tuple(cf.init.values())) == ()
    assert step.check().holds
    assert rate.has(theta0), "the rate is in the initial values' sum, not the clock equation's coefficients"


@pytest.mark.parametrize(
    ("name", "perturb"),
    [
        ("linear_model", lambda rate: -rate),
        ("two_layer_scalar", lambda rate: rate + 1),
        ("two_layer_scalar", lambda rate: rate.xreplace({s: 2 * s for s in rate.free_symbols if str(s) == "theta(0)"})),
    ],
)
def test_a_wrong_initial_rate_makes_solve_refuse(monkeypatch, name, perturb) -> None:
    original = pipeline._from_scalar

    def mutant(*args) -> ClosedForm:
        closed = original(*args)
        return replace(closed, initial_rates={g: perturb(r) for g, r in closed.initial_rates.items()})

    monkeypatch.setattr(pipeline, "_from_scalar", mutant)
    result = pipeline._solve.__wrapped__(models.get(name))
    assert isinstance(result, Unsolved) and result.step == "check", result
    assert "the returned initial rate" in result.reason


# --- the separable engine --------------------------------------------------------------------------------------


def _separable():
    S = sp.Symbol("S", real=True)
    return implicit_solution(y**2 * (S - y**3), y, sp.Symbol("y_0"), t)


def test_the_separable_engine_checks_its_returned_antiderivative() -> None:
    solution = _separable()
    assert not failing(solution.derivation)
    rewrite = [s for s in solution.derivation.steps if s.justification.startswith("log|.|")]
    assert len(rewrite) == 1 and solution.antiderivative.has(sp.Abs)
    assert solution.derivation.steps[-2].justification.startswith("check: the returned t(y) solves")


@pytest.mark.parametrize(
    "wrong",
    [
        lambda e: -sp.log(sp.Abs(e.args[0])),  # the log rewrite with a flipped sign
        lambda e: sp.log(sp.Abs(2 * e.args[0] + 1)),  # a changed argument
    ],
)
def test_a_wrong_log_abs_rewrite_is_caught(monkeypatch, wrong) -> None:
    def mutant(antiderivative: sp.Expr, var: sp.Symbol) -> sp.Expr:
        return antiderivative.replace(lambda e: isinstance(e, sp.log) and sp.degree(e.args[0], var) in (1, 2), wrong)

    monkeypatch.setattr(separable, "_log_abs", mutant)
    found = failing(_separable().derivation)
    assert any(j.startswith("log|.|") for j in found) and any(j.startswith("check: the returned t(y)") for j in found)


def test_a_wrong_radical_back_substitution_is_caught(monkeypatch) -> None:
    original = separable._back_substitution
    # (-c)^3 = -S: the negated real cube root is not a cube root of S
    negated = lambda radicals: {c: -v for c, v in original(radicals).items()}  # noqa: E731
    monkeypatch.setattr(separable, "_back_substitution", negated)
    solution = _separable()
    assert any(j.startswith("back-substitution") for j in failing(solution.derivation))
