r"""Autonomous scalar ODEs that are not Riccati: the implicit closed form :math:`t(y) = \int_{y_0}^{y} dy/G(y)`.

The integrand's partial fractions come from ``sympy.apart`` and each term is integrated over the reals by
``sympy.integrals.rationaltools.ratint(..., real=True)`` (logarithms and arctangents). SymPy cannot split a
factor such as :math:`S - y^3` over the reals while :math:`S` is a symbol, and its real integrator then drops
terms (``tests/derivations/test_sympy_regressions.py``); a parameter under the real root of such a factor is
therefore written as a power of a new real symbol (:math:`S = c^3`, :math:`c` the real cube root), after which
the factor splits over :math:`\mathbb Q(c)`. Logarithms of linear factors become logarithms of absolute values
(an antiderivative on each interval between fixed points). The result is checked by differentiation.

Between consecutive real roots of :math:`G` the solution is monotone and never reaches a root in finite time,
so :math:`t(y)` is inverted numerically by a bracketed root solve between :math:`y_0` and the next fixed point
in the direction of motion (``numerics.implicit``).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp
from sympy.integrals.rationaltools import ratint
from sympy.polys.partfrac import apart_undetermined_coeffs

from .derivation import Derivation
from .proof import prove_zero

__all__ = ["ImplicitSolution", "implicit_solution", "unsplit_factor", "unsupported"]


@dataclass(frozen=True)
class ImplicitSolution:
    """``t = antiderivative(y) - antiderivative(y0)`` for ``y' = rhs(y)``; ``fixed_points`` are the real roots of
    ``rhs`` (in the model's symbols), ``radicals`` the new symbols with their definitions (e.g. ``c`` → the real
    cube root of ``S``), to be substituted before evaluation."""

    y: sp.Symbol
    rhs: sp.Expr
    y0: sp.Expr
    t: sp.Symbol
    antiderivative: sp.Expr
    fixed_points: tuple[sp.Expr, ...]
    radicals: dict[sp.Symbol, sp.Expr]
    derivation: Derivation
    nonzero: tuple[sp.Expr, ...] = ()

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        """``(y,)``: the clock this solution gives (``catalogue.ClockSolution``)."""
        return (self.y,)

    @property
    def arguments(self) -> frozenset[sp.Symbol]:
        """The symbols of the right-hand side and the start, ``y`` excluded (``catalogue.ClockSolution``)."""
        return frozenset((sp.sympify(self.rhs).free_symbols | sp.sympify(self.y0).free_symbols) - {self.y})

    @property
    def implicit(self) -> sp.Eq:
        """The implicit closed form ``t = F(y) - F(y0)``."""
        return sp.Eq(self.t, self.antiderivative - self.antiderivative.subs(self.y, self.y0))


def _factors(expr: sp.Expr, y: sp.Symbol) -> tuple[sp.Expr, ...]:
    """The irreducible factors of the polynomial ``expr`` that involve ``y``, over the algebraic numbers in its
    coefficients (``extension=True``): ``x**2 - 2*sqrt(2)*x + 2`` is ``(x - sqrt(2))**2``, which ``sympy.factor_list``
    without the extension leaves whole, and with the extension but ``y`` alone as generator cannot compute (a
    ``TypeError`` from ``pslq``; ``tests/derivations/test_sympy_regressions.py``). Every symbol is a generator, and
    so is every function of the parameters (``sign(a_0)`` of an eliminated state's branch): ``factor_list`` with an
    extension refuses those (``PolificationFailed``), so they are factored as stand-in symbols."""
    atoms = {f: sp.Dummy("g", real=True) for f in expr.atoms(sp.Function) if not f.has(y)}
    back = {v: k for k, v in atoms.items()}
    return tuple(f.xreplace(back) for f, _ in sp.factor_list(expr.xreplace(atoms), extension=True)[1] if f.has(y))


def _partial_fractions(expr: sp.Expr, y: sp.Symbol) -> sp.Expr:
    """``sympy.apart(expr, y)``, with the denominator factored over the algebraic numbers in the coefficients:
    ``apart`` itself leaves ``1/((y - S)(y**2 - 2*sqrt(2)*y + 2))`` whole (``tests/derivations/
    test_sympy_regressions.py``), so the steps of ``apart`` are taken here over ``QQ<sqrt(2)>[S]`` (division, then
    undetermined coefficients on the factors ``Poly.factor_list`` finds over that domain)."""
    numerator, denominator = sp.fraction(sp.together(expr))
    _, options = sp.parallel_poly_from_expr((numerator, denominator), extension=True)
    if not options.domain.is_Algebraic:
        return sp.apart(expr, y)
    others = [g for g in options.gens if g != y]
    domain = options.domain[tuple(others)] if others else options.domain
    P, Q = sp.Poly(numerator, y, domain=domain), sp.Poly(denominator, y, domain=domain)
    common, P, Q = P.cancel(Q)
    polynomial, P = P.div(Q)
    P, Q = P.rat_clear_denoms(Q)
    partial = P.as_expr() / Q.as_expr() if Q.degree() <= 1 else apart_undetermined_coeffs(P, Q)
    return common * (polynomial.as_expr() + sp.Add(*(sp.factor_terms(term) for term in sp.Add.make_args(partial))))


def unsupported(rhs: sp.Expr, y: sp.Symbol) -> str:
    """Why ``implicit_solution`` cannot solve ``y' = rhs`` (``rhs`` rational in ``y``), or ``""`` if it can.

    It cannot (i) when ``rhs`` has a pole in ``y`` (the inversion brackets ``y`` between fixed points only, and a
    pole may be reached in finite time), or (ii) when, after writing parameters under real roots as powers
    (``_radical_substitution``), a factor of degree above 2 in ``y`` is left: its partial fraction integrates to a
    ``RootSum`` over roots that have no closed form (and ``ratint`` on it can run for minutes)."""
    numerator, denominator = sp.fraction(sp.together(rhs))
    if denominator.has(y):
        return f"the right-hand side has a pole in {y} (denominator {sp.factor(denominator)})"
    split, _ = _radical_substitution(numerator, y)
    high = [f for f in _factors(split, y) if sp.degree(f, y) > 2]
    if high:
        degrees = ", ".join(str(sp.degree(f, y)) for f in high)
        return (
            f"the right-hand side has an irreducible factor of degree {degrees} in {y} (over the algebraic numbers "
            "in its coefficients): its roots, hence t(y), have no closed form"
        )
    return ""


def _radical_substitution(rhs: sp.Expr, y: sp.Symbol) -> tuple[sp.Expr, dict[sp.Symbol, tuple[sp.Symbol, int]]]:
    """Write each parameter under a real root of a factor of ``rhs`` as a power of a new real symbol, so that the
    factor splits over the rationals in that symbol; returns the new ``rhs`` and {new symbol: (parameter, q)}."""
    radicals: dict[sp.Symbol, tuple[sp.Symbol, int]] = {}
    for factor in _factors(sp.numer(sp.together(rhs)), y):
        if sp.degree(factor, y) < 3:
            continue
        for root in sp.roots(sp.Poly(factor, y)):
            for power in sp.preorder_traversal(root):
                if (
                    isinstance(power, sp.Pow)
                    and isinstance(power.exp, sp.Rational)
                    and power.exp.q > 1
                    and isinstance(power.base, sp.Symbol)
                    and power.base not in (base for base, _ in radicals.values())
                ):
                    q = int(power.exp.q)
                    c = sp.Symbol(f"{power.base}^(1/{q})", real=True)
                    radicals[c] = (power.base, q)
                    rhs = rhs.xreplace({power.base: c**q})
    return rhs, radicals


def unsplit_factor(rhs: sp.Expr, y: sp.Symbol) -> sp.Expr | None:
    """A factor of ``rhs`` of degree at least 3 in ``y`` with symbolic coefficients that stays irreducible after
    the radical substitution, or None. SymPy's real integrator does not terminate on such a factor (a cubic with two
    parameters: ``ratint_logpart`` inverts over the expression domain without end), so the implicit solution is
    not attempted for it (``catalogue.RationalSeparable``)."""
    split, _ = _radical_substitution(sp.factor(rhs), y)
    for factor, _ in sp.factor_list(split, y)[1]:
        if sp.degree(factor, y) >= 3 and factor.free_symbols - {y}:
            return factor
    return None


def _real_roots(rhs: sp.Expr, y: sp.Symbol) -> tuple[sp.Expr, ...]:
    """The roots of ``rhs`` that can be real: those of its linear factors (real for every value of the symbols) and
    of its quadratic factors (real where the discriminant is not negative: ``(1 + mu) y^2 - S`` has the fixed points
    ``±sqrt(S/(1 + mu))`` for S > 0, none for S < 0). The numerics keep the roots that are real at the parameters'
    values (``numerics.implicit``): without the quadratic ones a motion towards them had no bracket."""
    roots = []
    for factor in _factors(rhs, y):
        if sp.degree(factor, y) in (1, 2):
            roots.extend(sp.roots(sp.Poly(factor, y)))
    return tuple(roots)


def implicit_solution(rhs: sp.Expr, y: sp.Symbol, y0: sp.Expr, t: sp.Symbol, tag: str = "") -> ImplicitSolution:
    """Derive ``t(y)`` for the autonomous equation ``y' = rhs(y)`` (``rhs`` rational in ``y``, free of ``t``); every
    step is recorded under the key ``"separable"`` and carries ``tag``.

    Raises:
        ValueError: ``rhs`` depends on ``t``, or the engine cannot solve it (``unsupported`` says why).
    """
    if t in rhs.free_symbols:
        raise ValueError(f"not autonomous: {rhs}")
    why = unsupported(rhs, y)
    if why:
        raise ValueError(f"implicit_solution: {why}")
    split, radicals = _radical_substitution(sp.factor(rhs), y)
    derivation = Derivation(f"separable equation for {y}")
    yt = sp.Function(str(y))(t)
    derivation.add(
        sp.Eq(sp.Derivative(yt, t), rhs.subs(y, yt)),
        f"autonomous in {y}, not a Riccati equation",
        tag,
        key="separable",
        residual=sp.S.Zero,
    )
    for symbol, (base, q) in radicals.items():
        derivation.add(
            sp.Eq(base, symbol**q),
            f"write {base} as the power {q} of its real root, so that the factors of the right-hand side split",
            tag,
            key="separable",
            residual=sp.S.Zero,
        )
    partial = _partial_fractions(1 / split, y)
    derivation.add(
        sp.Eq(1 / split, partial, evaluate=False),
        "partial fractions (sympy.apart)",
        tag,
        key="separable",
        residual=1 / split - partial,
    )
    terms = [ratint(term, y, real=True) for term in sp.Add.make_args(partial)]
    antiderivative = sp.Add(*terms).replace(
        # log|q| also for a quadratic q: ratint leaves log(q), which is not real between q's real roots, where a
        # motion towards one of them runs ((1 + mu) y^2 - S for S > 0)
        lambda e: isinstance(e, sp.log) and sp.degree(e.args[0], y) in (1, 2),
        lambda e: sp.log(sp.Abs(e.args[0])),
    )
    derivation.add(
        sp.Eq(t, antiderivative - antiderivative.subs(y, sp.Symbol(f"{y}_0"))),
        "integrate term by term over the reals (ratint, real=True); log|.| of linear and quadratic factors; checked by "
        "differentiating the antiderivative",
        tag,
        key="separable",
        verifier=lambda: prove_zero(sp.diff(sp.Add(*terms), y) - 1 / split),
    )
    fixed = _real_roots(split, y)
    derivation.add(
        sp.Eq(sp.Symbol("fixed points"), sp.FiniteSet(*fixed)),
        "roots of the right-hand side (linear factors, and quadratic ones where real): the solution stays between "
        "consecutive real ones",
        tag,
        key="separable",
        verifier=lambda: prove_zero(sp.Add(*(split.subs(y, r) ** 2 for r in fixed))),
    )
    back = {symbol: sp.real_root(base, q) for symbol, (base, q) in radicals.items()}
    # the partial fractions divide by parameter factors (e.g. S through its cube root): assumed non-zero
    divisors = {f for term in sp.Add.make_args(partial) for f in sp.Mul.make_args(sp.fraction(term)[1])}
    parameters = {f.base if isinstance(f, sp.Pow) else f for f in divisors if f.free_symbols and not f.has(y)}
    nonzero = tuple(sorted((p.xreplace({c: base for c, (base, _) in radicals.items()}) for p in parameters), key=str))
    return ImplicitSolution(y, rhs, y0, t, antiderivative, fixed, back, derivation, nonzero)
