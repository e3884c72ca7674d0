"""A paper's misuse gets an error naming the claim and the fix (issue 26), and the helpers that avoid it:
``Paper.symbols`` (several symbols at once) and ``Paper.eq`` (an equation left undecided, shapes checked)."""

from __future__ import annotations

import pytest
import sympy as sp

from derivations import models
from proofs_check import Paper
from proofs_check.claims import Status

MODEL = models.get("two_layer_scalar")  # its Z is positive


def _paper() -> Paper:
    return Paper("misuse2026", "Misuse", ("A. User",), "arXiv", 2026, models=(MODEL,))


def test_a_claim_symbol_with_other_assumptions_than_the_models_is_named_with_the_fix() -> None:
    paper = _paper()
    a, b = MODEL.symbol("a"), MODEL.symbol("b")
    theta = paper.symbol("th", definition=lambda: a * b / MODEL.symbol("Z"))
    Z = sp.Symbol("Z", real=True)  # not the model's (positive) Z
    claim = paper.claim("z", sp.Eq(theta, a * b / Z), where="§1")
    with pytest.raises(ValueError, match=r"claim misuse2026\.z: the symbol 'Z' appears with different SymPy") as error:
        paper.decide(claim)
    message = str(error.value)
    assert "positive=True; real=True" in message and "models.get('two_layer_scalar').symbol('Z')" in message
    # the fix the message gives: the model's own symbol, and the claim is proved
    fixed = paper.claim("z_fixed", sp.Eq(theta, a * b / MODEL.symbol("Z")), where="§1")
    assert paper.decide(fixed).status is Status.PROVED


def test_a_clash_between_two_claim_symbols_is_caught_too() -> None:
    paper = _paper()
    x, y = sp.Symbol("x", real=True), sp.Symbol("x", positive=True)
    paper.symbols("x")
    claim = paper.claim("xx", sp.Eq(x + y, 2 * x, evaluate=False), where="§1")
    with pytest.raises(ValueError, match="'x' appears with different SymPy assumptions"):
        paper.decide(claim)


def test_a_matrix_equated_to_a_scalar_is_a_shape_error() -> None:
    paper = _paper()
    a, b = MODEL.symbol("a"), MODEL.symbol("b")
    with pytest.raises(ValueError, match=r"different shapes \(lhs \(2, 1\), rhs scalar\)"):
        paper.eq(sp.Matrix([a, b]), a)
    with pytest.raises(ValueError, match="different shapes") as error:  # SymPy's False: both causes and the helper
        paper.claim("m", sp.Eq(sp.Matrix([a, b]), a), where="§1")
    assert "Paper.eq(lhs, rhs)" in str(error.value)
    with pytest.raises(ValueError, match=r"different shapes \(\(2, 1\) and scalar\)"):
        paper.claim("m2", sp.Eq(sp.Matrix([a, b]), a, evaluate=False), where="§1")


def test_eq_keeps_an_equation_sympy_would_decide_so_it_is_checked() -> None:
    paper = _paper()
    assert sp.Eq(sp.Integer(1), 2) is sp.false
    wrong = paper.eq(sp.Integer(1), 2)
    assert isinstance(wrong, sp.Equality) and (wrong.lhs, wrong.rhs) == (1, 2)
    assert paper.decide(paper.claim("one_two", wrong, where="§1")).status is Status.REFUTED
    assert paper.eq(sp.Matrix([1, 2]), sp.Matrix([1, 2])).lhs.shape == (2, 1)
    with pytest.raises(TypeError, match="lhs must be a SymPy expression"):
        paper.eq("x", 1)


def test_symbols_declares_several_with_one_set_of_assumptions() -> None:
    paper = _paper()
    x, y = paper.symbols("x y", real=True)
    assert (x.name, y.name) == ("x", "y") and x.is_real and y.is_real and x.is_positive is None
    (u,) = paper.symbols("u", positive=True)
    assert u.is_positive and {"x", "y", "u"} <= paper.known_symbols()
    assert paper.symbols("w:3") == tuple(sp.symbols("w:3"))
    claim = paper.claim("square", sp.Ge(x**2 - 2 * x * y + y**2, 0), where="§1")  # usable at once (z3)
    assert paper.decide(claim).status is Status.PROVED
    with pytest.raises(TypeError, match="names must be a string"):
        paper.symbols(["x"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="names no symbol"):
        paper.symbols("  ")
