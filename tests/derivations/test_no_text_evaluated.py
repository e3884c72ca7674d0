"""No public argument that takes an expression parses text: ``sympify`` would ``eval`` it (issue 27). A string
that would plant a side effect, if run, goes into each such argument; each call is refused with a TypeError naming
the argument, and the side effect never happens."""

from __future__ import annotations

import builtins

import pytest
import sympy as sp

from derivations import Model, expression, implicit_solution, numeric_evidence, prove_equal, prove_zero
from derivations.models.emergence import skill_frequencies
from derivations.projective import decompose
from proofs_check.papers.nam2025.features import feature_loss, finite_expectation

PLANT = "__import__('builtins').__setattr__('planted_by_a_test', 1) or 0"
"""Text that, if evaluated, sets ``builtins.planted_by_a_test``."""

y, t, x = sp.Symbol("y"), sp.Symbol("t"), sp.Symbol("x", real=True)


def _instance() -> object:
    model = Model(
        name="toy_text",
        title="toy",
        reference="tests",
        state_names=("a", "w"),
        unit_param_names=(),
        quantities={},
        shared_param_names=("S",),
        network=lambda s, x: sum(ai * wi for ai, wi in zip(s["a"], s["w"], strict=True)) * x[0],
        target=lambda s, x: s["S"] * x[0],
        moment=lambda s, i, j: sp.S.One,
        input_dim=lambda p: 1,
    )
    return model.instance(1)


CALLS = {
    "expression": (lambda: expression(PLANT, "alpha"), "alpha"),
    "skill_frequencies alpha": (lambda: skill_frequencies(3, PLANT), "alpha"),
    "implicit_solution rhs": (lambda: implicit_solution(PLANT, y, sp.Integer(1), t), "rhs"),
    "implicit_solution y0": (lambda: implicit_solution(y * (1 - y), y, PLANT, t), "y0"),
    "numeric_evidence expr": (lambda: numeric_evidence(PLANT, {}), "expr"),
    "projective.decompose field": (lambda: decompose([PLANT], [x], [], []), "field"),
    "projective.decompose laws": (lambda: decompose([x], [x], [PLANT], [y]), "laws"),
    "Instance.time_derivative expr": (lambda: _instance().time_derivative(PLANT), "expr"),
    "Instance.verify_conserved expr": (lambda: _instance().verify_conserved(PLANT), "expr"),
    "Model.unit_time_derivative expr": (lambda: _instance().model.unit_time_derivative(PLANT), "expr"),
    "Model.verify_unit_conserved expr": (lambda: _instance().model.verify_unit_conserved(PLANT), "expr"),
    "finite_expectation expr": (lambda: finite_expectation([(sp.Integer(1), {x: 1})])(PLANT), "expr"),
    "feature_loss target": (lambda: feature_loss(_instance(), [x], finite_expectation([(1, {x: 1})]), PLANT), "target"),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_text_is_refused_and_never_run(name) -> None:
    call, argument = CALLS[name]
    with pytest.raises(TypeError, match=rf"\b{argument}\b.*never parsed"):
        call()
    assert not hasattr(builtins, "planted_by_a_test")


def test_the_plant_does_run_when_text_is_parsed() -> None:
    """The test above can fail: parsing the planted text (what non-strict ``sympify`` does) runs it."""
    try:
        sp.sympify(PLANT)
        assert getattr(builtins, "planted_by_a_test", None) == 1
    finally:
        if hasattr(builtins, "planted_by_a_test"):
            delattr(builtins, "planted_by_a_test")


@pytest.mark.parametrize("call", [lambda: prove_zero(PLANT), lambda: prove_equal(PLANT, 0)])
def test_the_proof_checkers_refuse_text(call) -> None:
    with pytest.raises((TypeError, sp.SympifyError)):
        call()
    assert not hasattr(builtins, "planted_by_a_test")


def test_numbers_and_expressions_still_pass() -> None:
    inst = _instance()
    a1, w1 = inst.sym["a"][0], inst.sym["w"][0]
    assert sp.expand(inst.time_derivative(a1**2 - w1**2)) == 0  # the balance is conserved
    assert inst.time_derivative(3) == 0
    assert expression(0.5, "alpha") == sp.Float(0.5)
    assert expression(sp.Rational(1, 2) + x, "alpha") == sp.Rational(1, 2) + x
    assert sp.simplify(sum(skill_frequencies(3, sp.Rational(1, 2)))) == 1


@pytest.mark.parametrize(("i", "error"), [(-1, ValueError), (1, ValueError), (0.0, TypeError), (True, TypeError)])
def test_a_unit_index_outside_the_width_is_refused(i, error) -> None:
    """``unit_renaming(-1)`` took the last unit Python-style (a silent other unit); now only ``0 <= i < p``."""
    inst = _instance()
    with pytest.raises(error, match=r"\bi must be"):
        inst.unit_renaming(i)
    with pytest.raises(error, match=r"\bi must be"):
        inst.unit_expr(inst.model.symbol("a"), i)
    assert inst.unit_expr(inst.model.symbol("a"), 0) == inst.sym["a"][0]
