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
from .inputs import expression
from .naming import symbol_latex
from .proof import Proof, prove_zero
from .quadrature import time_to_reach

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
    def integral(self) -> sp.Eq:
        r"""The solution as the integral it evaluates, ``t = \int_{y_0}^{y} dy'/G(y')`` (unevaluated;
        :func:`derivations.quadrature.time_to_reach`)."""
        return time_to_reach(1 / self.rhs, self.y, self.y0, self.t)

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


def _log_abs(antiderivative: sp.Expr, y: sp.Symbol) -> sp.Expr:
    """``log(f)`` of each factor ``f`` of degree 1 or 2 in ``y`` written ``log|f|``: ratint leaves ``log(f)``, which
    is not real between the real roots of ``f``, where a motion towards one of them runs (``(1 + mu) y^2 - S`` for
    ``S > 0``)."""
    return antiderivative.replace(
        lambda e: isinstance(e, sp.log) and sp.degree(e.args[0], y) in (1, 2),
        lambda e: sp.log(sp.Abs(e.args[0])),
    )


def _solves_on_intervals(antiderivative: sp.Expr, y: sp.Symbol, rhs: sp.Expr, relations: tuple = ()) -> Proof:
    """``d/dy antiderivative = 1/rhs`` on every interval where each ``|f|`` of the antiderivative has a constant sign:
    each ``|f|`` is written ``s f`` with a new constant ``s``, ``s^2 = 1``, then differentiated (``prove_zero``
    modulo ``relations`` and the signs' relations)."""
    signs = {a: sp.Dummy("s", real=True) for a in antiderivative.atoms(sp.Abs) if a.has(y)}
    on_interval = antiderivative.xreplace({a: s * a.args[0] for a, s in signs.items()})
    return prove_zero(sp.diff(on_interval, y) - 1 / rhs, relations=(*relations, *(s**2 - 1 for s in signs.values())))


def _back_substitution(radicals: dict[sp.Symbol, tuple[sp.Symbol, int]]) -> dict[sp.Symbol, sp.Expr]:
    """Each new symbol's value: the real root of its parameter (``sympy.real_root``), as the numerics substitute it."""
    return {symbol: sp.real_root(base, q) for symbol, (base, q) in radicals.items()}


def implicit_solution(rhs: sp.Expr, y: sp.Symbol, y0: sp.Expr, t: sp.Symbol, tag: str = "") -> ImplicitSolution:
    """Derive ``t(y)`` for the autonomous equation ``y' = rhs(y)`` (``rhs`` rational in ``y``, free of ``t``); every
    step is recorded under the key ``"separable"`` and carries ``tag``.

    Arguments:
        rhs: the right-hand side ``G(y)``, rational in ``y`` without a pole in it, free of ``t``.
        y: the unknown.
        y0: its initial value ``y(0)`` (an expression, written into the solution's ``y0``; the recorded steps use
            the symbol ``{y}_0``).
        t: the time symbol.
        tag: the paper equation number stamped on every step (``""``: none).

    Returns:
        The :class:`ImplicitSolution`: the antiderivative ``F`` with ``t = F(y) - F(y0)`` (logarithms of linear
        and quadratic factors as ``log|.|``), the real fixed points, the radicals introduced with their
        back-substitutions, the checked derivation and the parameter factors the partial fractions divide by
        (``nonzero``).

    Raises:
        ValueError: ``rhs`` depends on ``t``, or the engine cannot solve it (``unsupported`` says why).
        TypeError: ``rhs`` or ``y0`` is not a SymPy expression (text is never parsed).
    """
    rhs, y0 = expression(rhs, "rhs"), expression(y0, "y0")
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
    powers = tuple(c**q - base for c, (base, q) in radicals.items())
    for symbol, (base, q) in radicals.items():
        derivation.add(
            sp.Eq(base, symbol**q),
            f"write {base} as the power {q} of its real root, so that the factors of the right-hand side split "
            "(checked: the new right-hand side is the old one where every such power holds)",
            tag,
            key="separable",
            residual=split - rhs,
            relations=powers,
        )
    partial = _partial_fractions(1 / split, y)
    derivation.add(
        sp.Eq(1 / split, partial, evaluate=False),
        "partial fractions (sympy.apart)",
        tag,
        key="separable",
        residual=1 / split - partial,
    )
    integral = sp.Add(*(ratint(term, y, real=True) for term in sp.Add.make_args(partial)))
    y_0 = sp.Symbol(f"{y}_0")
    derivation.add(
        sp.Eq(t, integral - integral.subs(y, y_0)),
        "integrate term by term over the reals (ratint, real=True); checked by differentiating the antiderivative",
        tag,
        key="separable",
        verifier=lambda: prove_zero(sp.diff(integral, y) - 1 / split),
    )
    antiderivative = _log_abs(integral, y)
    derivation.add(
        sp.Eq(t, antiderivative - antiderivative.subs(y, y_0)),
        "log|.| of linear and quadratic factors (real between the real roots, where a motion runs): on each such "
        "interval a factor f keeps its sign s, |f| = s f with s^2 = 1; checked by differentiating the rewritten "
        "antiderivative there",
        tag,
        key="separable",
        verifier=lambda: _solves_on_intervals(antiderivative, y, split),
    )
    back = _back_substitution(radicals)
    for symbol, (base, q) in radicals.items():
        derivation.add(
            sp.Eq(symbol, back[symbol]),
            f"back-substitution: {symbol} is the real root of {base} (sympy.real_root), so {symbol}^{q} = {base}",
            tag,
            key="separable",
            verifier=lambda symbol=symbol, base=base, q=q: prove_zero(back[symbol] ** q - base),
        )
    derivation.add(
        sp.Eq(t, antiderivative - antiderivative.subs(y, y_0)),
        f"check: the returned t({y}) solves the equation's own right-hand side, {y}' = {sp.sstr(rhs)} (differentiated "
        "on each interval" + (", modulo " + ", ".join(f"{sp.sstr(r)} = 0" for r in powers) if powers else "") + ")",
        tag,
        key="separable",
        verifier=lambda: _solves_on_intervals(antiderivative, y, rhs, powers),
    )
    fixed = _real_roots(split, y)
    name = symbol_latex(y.name)
    derivation.add(
        # the set of fixed points as a set (an Eq of a symbol and a set would evaluate to False)
        sp.Eq(sp.Symbol(rf"\{{{name} : \dot{{{name}}} = 0\}}"), sp.FiniteSet(*fixed), evaluate=False),
        "roots of the right-hand side (linear factors, and quadratic ones where real): the solution stays between "
        "consecutive real ones",
        tag,
        key="separable",
        verifier=lambda: prove_zero(sp.Add(*(rhs.subs(y, r) ** 2 for r in fixed)), relations=powers),
    )
    # the partial fractions divide by parameter factors (e.g. S through its cube root): assumed non-zero
    divisors = {f for term in sp.Add.make_args(partial) for f in sp.Mul.make_args(sp.fraction(term)[1])}
    parameters = {f.base if isinstance(f, sp.Pow) else f for f in divisors if f.free_symbols and not f.has(y)}
    nonzero = tuple(sorted((p.xreplace({c: base for c, (base, _) in radicals.items()}) for p in parameters), key=str))
    return ImplicitSolution(y, rhs, y0, t, antiderivative, fixed, back, derivation, nonzero)
