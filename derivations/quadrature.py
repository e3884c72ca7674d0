r"""Autonomous scalar ODEs with algebraic right-hand sides: :math:`t(y) = \int_{y_0}^{y} dy/G(y)` as a quadrature.

:math:`G` is *algebraic* in :math:`y` when it is rational in :math:`y` and in square roots :math:`\sqrt{R_j(y)}`
of polynomials :math:`R_j` (``radicands``); the eliminations through conservation laws of
``derivations.elimination`` reach such equations (a deep chain :math:`a_1a_2a_3` from an unbalanced start gives
:math:`\dot a_1 = \lambda s_2s_3\sqrt{R_2R_3}\,(S - a_1 s_2s_3\sqrt{R_2R_3})`). The derivation records, each step
checked exactly:

1. the separation :math:`dt/dy = 1/G(y)` (an identity, :math:`G\cdot(1/G) = 1`);
2. an elementary antiderivative where SymPy finds one quickly (only for one radicand of degree at most 2 and
   a denominator of linear factors; ``sympy.integrate`` has no time limit, so nothing else is tried), checked
   by differentiation; otherwise the exact statement :math:`t = \int_{y_0}^{y} dy/G`, which is not an identity
   to check but the definition the numerics evaluate (``numerics.quadrature``);
3. :math:`G = N/D` with :math:`N`, :math:`D` polynomial in :math:`y` and the radicals, and the *stop polynomial*
   :math:`P`, the product of the distinct irreducible factors of :math:`\mathrm{Norm}(N)`,
   :math:`\mathrm{Norm}(D)` and the :math:`R_j`, the norms being products over the distinct conjugates (each
   radical's sign flipped), proved equal to those products and to their factorizations: every real zero of
   :math:`G`, every pole and every branch point (a root of a radicand) is a root of :math:`P`, so the motion of
   :math:`y` from :math:`y_0` stops at or before the next real root of :math:`P` at which :math:`G` vanishes.

Between :math:`y_0` and that stop :math:`y` is monotone. A stop that is a root of a radicand is reached in finite
time (there :math:`G \sim \sqrt{y_* - y}`): the closed form then holds only before that time (an eliminated
state's sign may change there), and the numerics refuse later times.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy as sp

from .derivation import Derivation
from .naming import symbol_latex
from .proof import Proof, prove_zero

__all__ = ["QuadratureSolution", "quadrature_solution", "radicands", "time_to_reach"]

ELEMENTARY_MAX_OPS = 60
"""Largest ``count_ops`` of an integrand handed to ``sympy.integrate`` (which has no time limit)."""


@dataclass(frozen=True)
class QuadratureSolution:
    r"""``t = \int_{y_0}^{y} dy/G`` for ``y' = rhs = G(y)``: ``integrand`` is ``1/G``, ``antiderivative`` an
    elementary one checked by differentiation (None if none was found), ``radicands`` the polynomials under the
    square roots, ``stops`` the factors of the stop polynomial (module docstring, item 3), whose real roots include
    every point where ``y`` can stop, ``conjugates`` ``G`` with the radicals' signs flipped (the numerics tell a
    zero of ``G`` from a zero of a conjugate by them) and ``fixed_points`` the real roots of ``G`` that SymPy finds
    as linear stop factors (informative; the numerics use ``stops``)."""

    y: sp.Symbol
    rhs: sp.Expr
    y0: sp.Expr
    t: sp.Symbol
    integrand: sp.Expr
    radicands: tuple[sp.Expr, ...]
    stops: tuple[sp.Expr, ...]
    conjugates: tuple[sp.Expr, ...]
    fixed_points: tuple[sp.Expr, ...]
    derivation: Derivation
    antiderivative: sp.Expr | None = None
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
        r"""The exact statement ``t = \int_{y_0}^{y} dy'/G(y')`` (:func:`time_to_reach`)."""
        return time_to_reach(self.integrand, self.y, self.y0, self.t)

    @property
    def implicit(self) -> sp.Eq:
        """The implicit closed form: :attr:`integral`, the integral unevaluated."""
        return self.integral


def time_to_reach(integrand: sp.Expr, y: sp.Symbol, y0: sp.Expr, t: sp.Symbol, upper: sp.Expr | None = None) -> sp.Eq:
    r"""The implicit solution of an autonomous equation :math:`\dot y = G(y)` from :math:`y(0) = y_0`:
    :math:`t = \int_{y_0}^{y} dy'/G(y')`, the integral unevaluated.

    Arguments:
        integrand: :math:`1/G` as an expression in ``y``.
        y: the unknown (also the upper limit, unless ``upper`` is given).
        y0: its start, the lower limit.
        t: the time.
        upper: the upper limit, e.g. :math:`y(t)` for a display (default ``y``).

    Returns:
        ``Eq(t, Integral(integrand(y'), (y', y0, upper)))``; the variable of integration ``y'`` is a dummy
        printed as ``y`` primed, so that it is never read as the limit ``y``.

    Raises:
        TypeError: ``y`` is not a SymPy symbol.
    """
    if not isinstance(y, sp.Symbol):
        raise TypeError(f"y must be a SymPy symbol, got {type(y).__name__}")
    s = sp.Dummy(f"{y.name}'", **y.assumptions0)
    integral = sp.Integral(sp.sympify(integrand).xreplace({y: s}), (s, y0, y if upper is None else upper))
    return sp.Eq(t, integral, evaluate=False)


def radicands(rhs: sp.Expr, y: sp.Symbol) -> tuple[sp.Expr, ...] | None:
    """The polynomials under the square roots of ``rhs`` that depend on ``y`` (sorted), or None if ``rhs`` is not
    algebraic in ``y`` in this sense (a function of ``y``, a root other than a square root, a nested radical).

    Arguments:
        rhs: the expression.
        y: the variable.

    Returns:
        The radicands (an empty tuple for a rational ``rhs``), or None.
    """
    found: set[sp.Expr] = set()
    for node in sp.preorder_traversal(rhs):
        if not (isinstance(node, sp.Basic) and node.has(y)):
            continue
        if isinstance(node, sp.Function):
            return None
        if isinstance(node, sp.Pow) and not node.exp.is_Integer:
            if node.exp.has(y) or not isinstance(node.exp, sp.Rational) or node.exp.q != 2:
                return None
            if not node.base.is_polynomial(y):
                return None
            found.add(node.base)
    return tuple(sorted(found, key=sp.default_sort_key))


def _rationalized(rhs: sp.Expr, y: sp.Symbol, bases: tuple[sp.Expr, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
    """``rhs`` with each ``base**(m/2)`` written ``r_j**m`` (``r_j`` a new symbol for the square root)."""
    roots = tuple(sp.Dummy(f"r{j}") for j in range(len(bases)))
    expr = rhs
    for base, root in zip(bases, roots, strict=True):

        def same(e: sp.Basic, base: sp.Expr = base) -> bool:
            return isinstance(e, sp.Pow) and e.base == base and isinstance(e.exp, sp.Rational) and e.exp.q == 2

        expr = expr.replace(same, lambda e, root=root: root ** (2 * e.exp))
    return expr, roots


def _norm(poly: sp.Expr, roots: tuple[sp.Symbol, ...], bases: tuple[sp.Expr, ...]) -> tuple[sp.Expr, list[sp.Expr]]:
    """The product of the distinct conjugates of ``poly`` (each root's sign flipped), with ``r_j**2 = base_j``
    substituted: a polynomial free of the roots; and the conjugates themselves."""
    conjugates: list[sp.Expr] = []
    for signs in itertools.product((1, -1), repeat=len(roots)):
        conjugate = sp.expand(poly.xreplace({r: s * r for r, s in zip(roots, signs, strict=True)}))
        if all(sp.expand(conjugate - known) != 0 for known in conjugates):
            conjugates.append(conjugate)
    product = sp.expand(sp.Mul(*conjugates))
    if roots:
        terms = sp.Poly(product, *roots).terms()
        if any(e % 2 for monomial, _ in terms for e in monomial):
            raise ValueError("the product of the conjugates is not even in the radicals")
        product = sp.expand(
            sp.Add(*(c * sp.Mul(*(b ** (e // 2) for b, e in zip(bases, m, strict=True))) for m, c in terms))
        )
    return product, conjugates


def _elementary(integrand: sp.Expr, y: sp.Symbol, bases: tuple[sp.Expr, ...]) -> sp.Expr | None:
    """An antiderivative of ``integrand`` by ``sympy.integrate`` on the cases it handles quickly (one radicand of
    degree at most 2, a denominator of linear factors, a small integrand), checked by differentiation; else None."""
    if len(bases) > 1 or any(sp.degree(b, y) > 2 for b in bases) or sp.count_ops(integrand) > ELEMENTARY_MAX_OPS:
        return None
    rational, roots = _rationalized(integrand, y, bases)
    denominator = sp.fraction(sp.together(rational))[1]
    plain = sp.sympify(sp.sympify(denominator).xreplace({r: sp.S.One for r in roots}))
    if not plain.is_polynomial(y) or any(sp.degree(f, y) > 1 for f, _ in sp.factor_list(plain, y)[1]):
        return None
    result = sp.integrate(integrand, y)
    if result.has(sp.Integral) or result.has(sp.Piecewise) or result.has(sp.I):
        return None
    if not prove_zero(sp.diff(result, y) - integrand):
        return None
    return result


def quadrature_solution(rhs: sp.Expr, y: sp.Symbol, y0: sp.Expr, t: sp.Symbol, tag: str = "") -> QuadratureSolution:
    r"""Derive ``t(y)`` for the autonomous equation ``y' = rhs`` (``rhs`` algebraic in ``y``, module docstring).

    Arguments:
        rhs: ``G(y)``, free of ``t``.
        y: the unknown.
        y0: its start.
        t: the time.
        tag: the equation tag carried by every step (recorded under the key ``"quadrature"``).

    Returns:
        The ``QuadratureSolution``; every step of its derivation is proved exactly.

    Raises:
        ValueError: ``rhs`` depends on ``t`` or is not algebraic in ``y``.
    """
    if t in rhs.free_symbols:
        raise ValueError(f"rhs: not autonomous, it depends on {t}: {rhs}")
    bases = radicands(rhs, y)
    if bases is None:
        raise ValueError(f"rhs: not algebraic in {y} (rational in it and square roots of polynomials): {rhs}")
    d = Derivation(f"separable equation for {y}, algebraic right-hand side")
    yt = sp.Function(str(y))(t)
    d.add(
        sp.Eq(sp.Derivative(yt, t), rhs.xreplace({y: yt})),
        f"autonomous and algebraic in {y}" + (f" (square roots of {', '.join(map(str, bases))})" if bases else ""),
        tag,
        residual=sp.S.Zero,
        key="quadrature",
    )
    integrand = sp.together(1 / rhs)
    d.add(
        sp.Eq(sp.Derivative(sp.Function("t")(y), y), integrand),
        "separation of variables: dt/dy = 1/G on the interval of motion (G does not vanish there)",
        tag,
        residual=rhs * integrand - 1,
        key="quadrature",
    )
    antiderivative = _elementary(integrand, y, bases)
    if antiderivative is not None:
        d.add(
            sp.Eq(t, antiderivative - antiderivative.xreplace({y: y0})),
            "an elementary antiderivative (sympy.integrate), checked by differentiation",
            tag,
            verifier=lambda: prove_zero(sp.diff(antiderivative, y) - integrand),
            key="quadrature",
        )
    d.add(
        time_to_reach(integrand, y, y0, t),
        "the time to reach y: the integral of the previous steps from the start (t(y0) = 0); the exact statement, "
        "evaluated by quadrature in numerics.quadrature",
        tag,
        residual=sp.S.Zero,
        key="quadrature",
    )
    rational, roots = _rationalized(rhs, y, bases)
    numerator, denominator = sp.fraction(sp.together(rational))
    to_roots = {r: sp.sqrt(b) for r, b in zip(roots, bases, strict=True)}
    d.add(
        sp.Eq(
            sp.Symbol("G"),
            numerator.xreplace(to_roots)
            if denominator == 1
            else sp.Mul(numerator.xreplace(to_roots), 1 / denominator.xreplace(to_roots), evaluate=False),
        ),
        "G as a quotient N/D of polynomials in y and the square roots",
        tag,
        residual=rhs - (numerator / denominator).xreplace(to_roots),
        key="quadrature",
    )
    norm_n, conj_n = _norm(numerator, roots, bases)
    norm_d, conj_d = _norm(denominator, roots, bases)
    factors = _stop_factors((norm_n, norm_d, *bases), y)

    def norms() -> Proof:
        for norm, conjugates in ((norm_n, conj_n), (norm_d, conj_d)):
            proof = prove_zero(sp.Mul(*conjugates).xreplace(to_roots) - norm)
            if not proof:
                return proof
        for poly in (norm_n, norm_d, *bases):
            # each one is a constant times a product of powers of the factors (the factorization of sympy)
            constant, parts = sp.factor_list(poly, y)
            if any(all(sp.expand(f - g) != 0 and sp.expand(f + g) != 0 for g in factors) for f, _ in parts):
                return Proof(False, "a factor is missing from the stop factors", True, str(poly))
            proof = prove_zero(poly - constant * sp.Mul(*(f**m for f, m in parts)))
            if not proof:
                return proof
        return Proof(True, "entrywise", True)

    d.add(
        sp.Eq(sp.Symbol("P"), sp.Mul(*factors)),
        "the stop polynomial: the distinct irreducible factors (sympy.factor_list) of the products of the "
        "distinct conjugates of N and of D (each square root's sign flipped) and of the radicands, so every zero, "
        "pole and branch point of G is a root of one of them",
        tag,
        verifier=norms,
        key="quadrature",
    )
    conjugates = tuple((c / denominator).xreplace(to_roots) for c in conj_n if sp.expand(c - sp.expand(numerator)) != 0)
    fixed = tuple(r for f in factors if sp.degree(f, y) == 1 for r in sp.roots(sp.Poly(f, y)) if _vanishes(rhs, y, r))
    if fixed:
        d.add(
            # the set of fixed points as a set (an Eq of a symbol and a set would evaluate to False)
            sp.Eq(sp.Symbol(rf"\{{{symbol_latex(y.name)} : G = 0\}}"), sp.FiniteSet(*fixed), evaluate=False),
            "real roots of G found as linear factors of the stop polynomial",
            tag,
            verifier=lambda: prove_zero(sp.Add(*(rhs.xreplace({y: r}) ** 2 for r in fixed))),
            key="quadrature",
        )
    return QuadratureSolution(y, rhs, y0, t, integrand, bases, factors, conjugates, fixed, d, antiderivative)


def _vanishes(rhs: sp.Expr, y: sp.Symbol, root: sp.Expr) -> bool:
    """Whether ``rhs`` vanishes identically at ``y = root`` (a radical of a negative radicand does not count)."""
    try:
        return bool(prove_zero(rhs.xreplace({y: root})))
    except (ZeroDivisionError, ValueError):
        return False


def _stop_factors(polys: tuple[sp.Expr, ...], y: sp.Symbol) -> tuple[sp.Expr, ...]:
    """The distinct irreducible factors of degree >= 1 in ``y`` of ``polys`` (up to sign), each with its
    coefficients in ``y`` factored (so that the numerics evaluate them without cancellation where they can)."""
    factors: list[sp.Expr] = []
    for poly in polys:
        for factor, _ in sp.factor_list(poly, y)[1]:
            if sp.degree(factor, y) < 1:
                continue
            if all(sp.expand(factor - f) != 0 and sp.expand(factor + f) != 0 for f in factors):
                factors.append(factor)
    return tuple(
        sp.Add(*(_factored(c) * y**k for k, c in enumerate(reversed(sp.Poly(f, y).all_coeffs())))) for f in factors
    )


_FACTOR_TERMS = 16
"""Coefficients of more terms are kept as they are: factoring a large multivariate coefficient (Wang's algorithm)
can run for minutes on some hash seeds (seen on the depth-4 chain), and factoring only helps the numerics' rounding."""


def _factored(coefficient: sp.Expr) -> sp.Expr:
    """``coefficient`` factored if it has at most ``_FACTOR_TERMS`` terms when expanded, else unchanged."""
    if len(sp.Add.make_args(sp.expand(coefficient))) > _FACTOR_TERMS:
        return coefficient
    return sp.factor(coefficient)
