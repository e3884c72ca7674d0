"""Separable equations with algebraic right-hand sides (``derivations.quadrature``, the catalogue's
``algebraic-separable``): what counts as algebraic, the checked steps, the stop factors, the elementary
antiderivative where SymPy finds one, and wrong variants refuted."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from derivations.catalogue import AlgebraicSeparable, Context, RationalSeparable, classify
from derivations.derivation import Derivation
from derivations.models import get
from derivations.proof import prove_zero
from derivations.quadrature import _norm, _rationalized, quadrature_solution, radicands
from derivations.reduction import ScalarReduction

t = sp.Symbol("t", nonnegative=True)
y, c, S = sp.symbols("y c S", real=True)
y0 = sp.Symbol("y_0", real=True)


def proved(derivation: Derivation) -> bool:
    return all(x.proof.holds and x.proof.exact for x in derivation.check())


@pytest.mark.parametrize(
    ("rhs", "expected"),
    [
        (y * sp.sqrt(y**2 + c), (y**2 + c,)),
        ((S - y**3) * y, ()),
        (sp.sqrt(y) / sp.sqrt(1 + y) + (1 + y) ** sp.Rational(3, 2), (y, y + 1)),
        (sp.cbrt(y), None),
        (sp.exp(y), None),
        (sp.sqrt(1 + sp.sqrt(y)), None),
    ],
)
def test_radicands(rhs, expected) -> None:
    assert radicands(rhs, y) == expected


def chain_rhs() -> sp.Expr:
    """The equation of the kept layer of a depth-3 chain: y' = s sqrt(R2 R3) (S - y s sqrt(R2 R3))."""
    r2, r3 = y**2 + c, y**2 + 2 * c
    return sp.sqrt(r2) * sp.sqrt(r3) * (S - y * sp.sqrt(r2) * sp.sqrt(r3))


def test_the_quadrature_of_a_chain_equation_is_checked() -> None:
    rhs = chain_rhs()
    solution = quadrature_solution(rhs, y, y0, t)
    assert proved(solution.derivation)
    assert solution.antiderivative is None  # elliptic-like: no elementary antiderivative attempted
    assert solution.implicit.rhs.has(sp.Integral)
    # the stop factors: both radicands, and the norm of S - y sqrt(R2 R3), i.e. S^2 - y^2 R2 R3
    expanded = [sp.expand(f) for f in solution.stops]
    for factor in (y**2 + c, y**2 + 2 * c, sp.expand(S**2 - y**2 * (y**2 + c) * (y**2 + 2 * c))):
        assert any(sp.expand(f - factor) == 0 or sp.expand(f + factor) == 0 for f in expanded), factor
    assert solution.symbols == (y,) and solution.arguments == {S, c, y0}


def test_the_norm_is_the_product_of_the_conjugates_and_a_wrong_one_is_refuted() -> None:
    rhs = chain_rhs()
    bases = radicands(rhs, y)
    rational, roots = _rationalized(rhs, y, bases)
    numerator = sp.fraction(sp.together(rational))[0]
    norm, conjugates = _norm(numerator, roots, bases)
    to_roots = {r: sp.sqrt(b) for r, b in zip(roots, bases, strict=True)}
    assert prove_zero(sp.Mul(*conjugates).xreplace(to_roots) - norm)
    assert not prove_zero(sp.Mul(*conjugates).xreplace(to_roots) - (norm + y))
    assert len(conjugates) == 2  # only the product of the two roots enters: two distinct conjugates


def test_a_wrong_separation_or_stop_factor_fails_its_check() -> None:
    solution = quadrature_solution(chain_rhs(), y, y0, t)
    d = solution.derivation
    separation = next(s for s in d.steps if "separation" in s.justification)
    assert separation.check()
    assert not dataclasses.replace(separation, residual=chain_rhs() * (2 * solution.integrand) - 1).check()
    quotient = next(s for s in d.steps if "quotient" in s.justification)
    assert not dataclasses.replace(quotient, residual=quotient.residual + sp.sqrt(y**2 + c)).check()


def test_an_elementary_antiderivative_is_found_and_checked() -> None:
    solution = quadrature_solution(sp.sqrt(y**2 + 1), y, y0, t)
    assert solution.antiderivative is not None
    assert proved(solution.derivation)
    assert prove_zero(sp.diff(solution.antiderivative, y) - 1 / sp.sqrt(y**2 + 1))
    assert not prove_zero(sp.diff(solution.antiderivative + y, y) - 1 / sp.sqrt(y**2 + 1))


def test_not_algebraic_or_time_dependent_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="rhs: not algebraic"):
        quadrature_solution(sp.exp(y), y, y0, t)
    with pytest.raises(ValueError, match="rhs: not autonomous"):
        quadrature_solution(t * y, y, y0, t)


def test_the_tied_layers_rational_equation_goes_to_the_quadrature() -> None:
    """A cubic factor with two parameters: the real integrator would not terminate, so the separable method
    refuses it with the reason and the algebraic one applies."""
    tied = get("tied_layer")
    b, a0, b0 = tied.symbol("b"), tied.init_symbol("a"), tied.init_symbol("b")
    q = a0**2 + 2 * b**2 - 2 * b0**2
    rhs = q * (tied.symbol("S") - q * b)
    assert classify(rhs, b, t) == "separable"
    reduction = ScalarReduction(b, rhs, b0, {"b": b}, {}, (), Derivation(""), "test", False)
    context = Context(tied, t, sp.Symbol("gamma", positive=True))
    reason = RationalSeparable().applies(reduction, context)
    assert reason is not None and "degree 3" in reason
    assert AlgebraicSeparable().applies(reduction, context) is None
    assert AlgebraicSeparable().applies(dataclasses.replace(reduction, rhs=sp.exp(b)), context) is not None
