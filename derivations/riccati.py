r"""The Riccati engine: :math:`\dot y = q(y)` for a model's own quadratic :math:`q`, constant coefficients.

Every step is computed by SymPy from the previous step's object (Nam et al. 2025, App. H, eqs 86–95, done for
whatever quadratic a model's reduction produces): the coefficients of :math:`q` by ``Poly``, the discriminant
by ``Poly.discriminant``, the roots by ``sympy.roots``, the factorization over them, the partial fractions by
``sympy.apart``, the integral term by term by ``sympy.integrate``, the inversion by exponentiating and
``sympy.solve``, and the limit by ``sympy.limit``. The solution is then checked against the ODE and the initial
condition. ``dsolve`` is never used (it returns wrong answers on exactly these equations; see
``tests/derivations/test_sympy_regressions.py``).

Conventions. The *attracting* root :math:`y_+` is the one where :math:`q` has slope :math:`-k`,
:math:`k = -c_2(y_+ - y_-) = \sqrt{\Delta} \ge 0`, :math:`\Delta = c_1^2 - 4c_2c_0`; the other is :math:`y_-`.
The numerics evaluate the engine's numerically stable (Möbius) form, valid on every branch,

.. math:: y(t) = \frac{y_0 e^{-kt} + \tau\,(c_0 + \alpha y_0)}{e^{-kt} + \tau\,(\beta - c_2 y_0)},
          \qquad \tau = \frac{1-e^{-kt}}{k} = t\,\varphi_1(kt),\quad \alpha = \frac{k+c_1}{2},\
          \beta = \frac{k-c_1}{2},\quad \alpha\beta = -c_2c_0,

which the derivation proves equal to the derived solution. Degenerate branches are a case split derived from
the coefficients, each solved by the same steps and each checked against the stable form: the leading
coefficient vanishes (:math:`c_2 = 0`: linear; :math:`c_2 = c_1 = 0`: constant rate), the discriminant vanishes
(a double root), and the start is a root (a fixed point). Each condition is a checked step: under it (modulo the
condition) the equation's own polynomial has the branch's property (:math:`q'' = 0`, :math:`q' = 0`,
:math:`\operatorname{res}(q, q') = 0`, :math:`q(y_0) = 0`), and the branch's solution with the equation's
coefficients solves the equation and its initial condition there. The returned objects (the solution with the
roots and the rate substituted, the roots, the rate :math:`k` with :math:`k^2 = \Delta` and
:math:`q'(y_+) = -k`) are checked as they are returned. A negative discriminant (finite-time blow-up) occurs
in no gradient flow of the package and is rejected.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache

import sympy as sp

from .derivation import Derivation, Step
from .proof import Proof, prove_zero, sample_sign
from .special import phi1

__all__ = ["ALPHA", "BETA", "BRANCHES", "RiccatiSolution", "rate_split", "riccati_solution", "stable_form"]

ALPHA, BETA = sp.symbols("alpha beta", real=True)

BRANCHES = ("generic", "linear", "constant-rate", "double-root", "fixed-point")

_C2, _C1, _C0, _Y0 = sp.symbols("c2 c1 c0 y0", real=True)
_Y, _T = sp.Symbol("y", real=True), sp.Symbol("t", nonnegative=True)


@dataclass(frozen=True)
class RiccatiSolution:
    """A derived solution of ``y' = c2 y^2 + c1 y + c0``, ``y(0) = y0``.

    ``solution`` is y(t) of the branch with every auxiliary symbol substituted; ``r_plus`` (attracting),
    ``r_minus`` and the rate ``k`` are defined in ``definitions``. ``stable`` is the uniform numerically stable
    form in ``c2``, ``c0``, ``y0``, ``k`` and the symbols ``ALPHA``, ``BETA`` (see ``rate_split``). ``cases``
    maps each degenerate condition (an ``Eq`` in the model's symbols) to the branch it selects.
    """

    y: sp.Symbol
    rhs: sp.Expr
    c2: sp.Expr
    c1: sp.Expr
    c0: sp.Expr
    y0: sp.Expr
    t: sp.Symbol
    branch: str
    solution: sp.Expr
    stable: sp.Expr
    definitions: dict[sp.Symbol, sp.Expr]
    r_plus: sp.Symbol
    r_minus: sp.Symbol
    k: sp.Symbol
    derivation: Derivation
    cases: dict[sp.Basic, str] = field(default_factory=dict)

    @property
    def discriminant(self) -> sp.Expr:
        """``c1**2 - 4*c2*c0``."""
        return self.c1**2 - 4 * self.c2 * self.c0

    def rate_split(self) -> tuple[sp.Expr, sp.Expr]:
        """``alpha = (k + c1)/2`` and ``beta = (k - c1)/2`` of the stable form; ``alpha * beta = -c2 c0``.

        Returns:
            ``(alpha, beta)`` in this solution's ``c1`` and rate symbol ``k`` (:func:`rate_split`), the values of
            ``ALPHA`` and ``BETA`` in ``stable``.
        """
        return rate_split(self.c1, self.k)

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        """``(y,)``: the clock this solution gives (``catalogue.ClockSolution``)."""
        return (self.y,)

    @property
    def arguments(self) -> frozenset[sp.Symbol]:
        """The symbols of the coefficients and the start (``catalogue.ClockSolution``)."""
        return frozenset().union(*(sp.sympify(e).free_symbols for e in (self.c2, self.c1, self.c0, self.y0)))

    def __call__(self, t: sp.Expr) -> sp.Expr:
        """The solution at time ``t``."""
        return self.solution.subs(self.t, t)


def rate_split(c1: sp.Expr, k: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """``(alpha, beta) = ((k + c1)/2, (k - c1)/2)`` of the stable form."""
    return (k + c1) / 2, (k - c1) / 2


def stable_form(c2: sp.Expr, c0: sp.Expr, y0: sp.Expr, t: sp.Expr, k: sp.Expr) -> sp.Expr:
    """The Möbius form of the module docstring, in terms of the symbols ``ALPHA`` and ``BETA``."""
    decay, tau = sp.exp(-k * t), t * phi1(k * t)
    return (y0 * decay + tau * (c0 + ALPHA * y0)) / (decay + tau * (BETA - c2 * y0))


def riccati_solution(
    rhs: sp.Expr,
    y: sp.Symbol,
    y0: sp.Expr,
    t: sp.Symbol,
    relations: tuple[sp.Expr, ...] = (),
    tags: Mapping[str, str] | None = None,
) -> RiccatiSolution:
    """Derive the solution of ``y' = rhs`` (a polynomial of degree <= 2 in ``y`` with coefficients free of ``t``),
    ``y(0) = y0``, as a recorded derivation; the roots are named ``{y}_+`` and ``{y}_-``.

    ``tags`` maps step keys (``"ode"``, ``"discriminant"``, ``"roots"``, ``"factor"``, ``"apart"``, ``"log"``,
    ``"exponentiate"``, ``"solution"``, ``"limit"``, ``"verified"``, ``"case"``) to paper equation numbers
    (``Derivation.tagged``); ``relations`` are polynomial side conditions (each = 0) that the checks may use.

    Arguments:
        rhs: the right-hand side, a SymPy polynomial of degree <= 2 in ``y`` with coefficients free of ``t``.
        y: the unknown; its roots are named ``{y}_+`` (attracting) and ``{y}_-``.
        y0: the initial value ``y(0)``.
        t: the time symbol.
        relations: polynomial side conditions (each = 0), the derivation's shared ``relations``.
        tags: step key -> paper equation number; ``None`` or empty: no tags.

    Returns:
        The :class:`RiccatiSolution` of the branch the coefficients force (``BRANCHES``: generic, linear,
        constant-rate, double-root, fixed-point), its derivation checkable step by step; on the generic branch
        ``cases`` holds each degenerate condition on the model's symbols with its branch.

    Raises:
        ValueError: ``rhs`` or ``y0`` is text or not convertible to SymPy (``sympy.SympifyError``, a
            ``ValueError``); ``rhs`` depends on ``t``, is not polynomial in ``y`` or has degree above 2 in it; the
            discriminant ``c1**2 - 4*c2*c0`` is negative by SymPy's assumptions (finite-time blow-up).
        TypeError: ``tags`` is not empty and not a mapping of strings to strings (``Derivation.tagged``).
    """
    rhs, y0 = sp.sympify(rhs, strict=True), sp.sympify(y0, strict=True)
    if t in rhs.free_symbols or not rhs.is_polynomial(y) or sp.degree(rhs, y) > 2:
        raise ValueError(f"not a constant-coefficient Riccati right-hand side in {y}: {rhs}")
    poly = sp.Poly(rhs, y)
    c2, c1, c0 = _coefficients(poly)
    branch = _classify(c2, c1, c0, y0)
    r_plus, r_minus = sp.Symbol(f"{y}_+", real=True), sp.Symbol(f"{y}_-", real=True)
    k = sp.Symbol("k", nonnegative=True)
    derivation = Derivation(f"Riccati equation for {y}", relations=tuple(relations))
    yt = sp.Function(str(y))(t)
    derivation.add(
        sp.Eq(sp.Derivative(yt, t), rhs.subs(y, yt)),
        f"the equation to solve: degree {poly.degree()} in {y}, coefficients free of t",
        key="ode",
        residual=sp.S.Zero,
    )
    solution, definitions, (checked, checked_rhs), facts = _SOLVERS[branch](
        derivation, poly, y, y0, t, (r_plus, r_minus, k)
    )
    derivation.add(
        sp.Eq(sp.Derivative(yt, t), rhs.subs(y, yt)),
        f"check: the solution satisfies the equation ({branch} branch)",
        residual=sp.diff(checked, t) - checked_rhs.subs(y, checked),
        relations=facts,
        key="verified",
    )
    derivation.add(
        sp.Eq(yt.subs(t, 0), y0),
        "check: the initial condition",
        residual=checked.subs(t, 0) - y0,
        relations=facts,
        key="verified",
    )
    derivation.steps.extend(
        _returned_steps(poly, (y0, t), branch, (solution, checked, facts), definitions, (r_plus, r_minus, k))
    )
    cases = _case_split(derivation, poly, y, y0, t) if branch == "generic" else {}
    stable = stable_form(c2, c0, y0, t, k)
    if tags:
        derivation = derivation.tagged(tags)
    return RiccatiSolution(
        y, rhs, c2, c1, c0, y0, t, branch, solution, stable, definitions, r_plus, r_minus, k, derivation, cases
    )


def _returned_steps(
    poly: sp.Poly,
    start: tuple[sp.Expr, sp.Symbol],
    branch: str,
    solutions: tuple[sp.Expr, sp.Expr, tuple[sp.Expr, ...]],
    definitions: Mapping[sp.Symbol, sp.Expr],
    names: tuple[sp.Symbol, sp.Symbol, sp.Symbol],
) -> list[Step]:
    """Checks of what ``riccati_solution`` returns, made on the returned objects themselves (the steps above check
    the branch's derivation in its own symbols): ``solutions`` is (the returned solution, the verified one in the
    root and rate symbols, the relations ``facts`` it was verified under, in the abstract coefficients). The
    returned solution is the verified one with the returned definitions substituted, and those satisfy the
    relations (so the returned solution solves the equation: the "verified" step holds wherever they do); it meets
    the initial condition; each root is a root of ``q``; the rate satisfies ``k^2 = Delta`` (``Delta = c1^2 -
    4 c2 c0`` from the polynomial's coefficients) and, on the generic branch, ``q'(y_+) = -k`` (the attracting
    root, ``k >= 0``), on the double-root branch ``q'(y_+) = 0``."""
    y0, t = start
    solution, checked, facts = solutions
    y, q = poly.gen, poly.as_expr()
    c2, c1, c0 = _coefficients(poly)
    r_plus, r_minus, k = names
    yt = sp.Function(str(y))(t)
    instance = {_C2: c2, _C1: c1, _C0: c0, **definitions}

    def same_exponents(expr: sp.Expr) -> sp.Expr:
        # e^{-kt} with k substituted is one atom for the exact checker only if its exponent is written one way
        return expr.replace(lambda e: isinstance(e, sp.exp), lambda e: sp.exp(sp.expand(e.args[0])))

    def is_the_verified_solution() -> Proof:
        proofs = [
            prove_zero(same_exponents(solution) - same_exponents(checked.xreplace(definitions))),
            *(prove_zero(fact.xreplace(instance)) for fact in facts),
        ]
        return next((p for p in proofs if not p.holds), proofs[0])

    steps = [
        Step(
            sp.Eq(yt, solution),
            "check: the returned solution is the verified one with the returned roots and rate, which satisfy the "
            "relations it was verified under (its sum and product of roots, k = -c2 (y_+ - y_-))",
            verifier=is_the_verified_solution,
            key="returned",
        ),
        Step(
            sp.Eq(yt.subs(t, 0), y0),
            "check: the returned solution meets the initial condition",
            residual=solution.subs(t, 0) - y0,
            key="returned",
        ),
    ]
    for root in (r for r in (r_plus, r_minus) if r in definitions):
        steps.append(
            Step(
                sp.Eq(root, definitions[root]),
                f"check: the returned {root} is a root of the right-hand side",
                residual=q.subs(y, definitions[root]),
                key="returned",
            )
        )
    if k in definitions:
        steps.append(
            Step(
                sp.Eq(k, definitions[k]),
                "check: the returned rate satisfies k^2 = Delta = c1^2 - 4 c2 c0",
                residual=definitions[k] ** 2 - (c1**2 - 4 * c2 * c0),
                key="returned",
            )
        )
    slope = {"generic": -1, "double-root": 0}.get(branch)
    if slope is not None and k in definitions and r_plus in definitions:
        steps.append(
            Step(
                sp.Eq(sp.diff(q, y).subs(y, r_plus), slope * k),
                "check: the returned rate is the slope of -q at the attracting root (k >= 0)"
                if slope
                else "check: the returned root is double, q'(y_+) = 0",
                residual=sp.diff(q, y).subs(y, definitions[r_plus]) - slope * definitions[k],
                key="returned",
            )
        )
    return steps


def _coefficients(poly: sp.Poly) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """``(c2, c1, c0)``, each factored: ``Poly`` expands them, and a square such as ``(a_0 + b_0)^2`` must stay one,
    or it cancels in floating point for nearly anti-balanced units."""
    y = poly.gen
    return tuple(sp.factor(poly.coeff_monomial(y**n)) for n in (2, 1, 0))


def _classify(c2: sp.Expr, c1: sp.Expr, c0: sp.Expr, y0: sp.Expr) -> str:
    """The branch forced by the coefficients themselves (not by a condition on their symbols)."""

    def zero(expr: sp.Expr) -> bool:
        return sp.cancel(sp.together(expr)) == 0

    if zero(c2) and zero(c1):
        return "fixed-point" if zero(c0) else "constant-rate"
    if zero(c2):
        return "linear"
    if zero(c2 * y0**2 + c1 * y0 + c0):
        return "fixed-point"
    delta = sp.cancel(sp.together(c1**2 - 4 * c2 * c0))
    if delta == 0:
        return "double-root"
    if delta.is_negative:
        raise ValueError(f"discriminant {delta} < 0: finite-time blow-up, not a supported Riccati branch")
    return "generic"


@dataclass(frozen=True)
class _Integration:
    """The separated integral of ``dy / q(y)`` (``q`` factored over root symbols) and its inversion."""

    factored: sp.Expr
    partial_fractions: sp.Expr
    antiderivative: sp.Expr
    exponentiated: sp.Eq | None
    solution: sp.Expr


def _integrate_and_invert(
    lead: sp.Expr, roots: Mapping[sp.Symbol, int], y: sp.Symbol, y0: sp.Expr, t: sp.Symbol
) -> _Integration:
    r"""Separate :math:`dy/(\mathrm{lead}\prod (y - r)^m) = dt`, integrate from ``y0`` and solve for ``y``.

    The partial fractions come from ``sympy.apart`` and the antiderivative from ``sympy.integrate`` term by term
    (never of an unfactored quadratic: sympy#29081). With logarithms, both sides are divided by the coefficient
    of the first one and exponentiated, which leaves an equation rational in ``y``; ``sympy.solve`` must return
    exactly one solution."""
    factored = lead * sp.Mul(*((y - r) ** m for r, m in roots.items()))
    partial = sp.apart(1 / factored, y)
    antiderivative = sp.Add(*(sp.integrate(term, y) for term in sp.Add.make_args(partial)))
    # sympy.integrate returns log(c (y - r)) for c/(c (y - r)); an antiderivative may drop the constant log(c)
    antiderivative = antiderivative.replace(
        lambda e: isinstance(e, sp.log),
        lambda e: next((sp.log(y - r) for r in roots if not sp.cancel(e.args[0] / (y - r)).has(y)), e),
    )
    # the first root's logarithm sets the scale: for the attracting root the exponent is then -k t
    logs = {r: antiderivative.coeff(sp.log(y - r)) for r in roots if antiderivative.coeff(sp.log(y - r)) != 0}
    exponentiated = None
    if logs:
        scale = next(iter(logs.values()))
        if sp.expand(antiderivative - sum(c * sp.log(y - r) for r, c in logs.items())) != 0:
            raise RuntimeError(f"the antiderivative {antiderivative} is not a sum of logarithms")
        exponent = sum(sp.cancel(c / scale) * (sp.log(y - r) - sp.log(y0 - r)) for r, c in logs.items())
        exponentiated = sp.Eq(sp.powsimp(sp.exp(exponent)), sp.exp(sp.cancel(t / scale)))
        # solved for y with the exponential as one symbol, so that it stays e^{-kt} in the solution
        decay = sp.Dummy("E", positive=True)
        solved = [_tidy(s, decay).xreplace({decay: exponentiated.rhs}) for s in sp.solve(exponentiated.lhs - decay, y)]
    else:
        solved = sp.solve(antiderivative - antiderivative.subs(y, y0) - t, y)
    if len(solved) != 1:
        raise RuntimeError(f"inverting the integral of dy/({factored}) gave {solved}")
    return _Integration(factored, partial, antiderivative, exponentiated, solved[0])


def _tidy(expr: sp.Expr, decay: sp.Symbol) -> sp.Expr:
    """Numerator and denominator collected in powers of ``decay`` with factored coefficients (display only)."""
    numerator, denominator = sp.fraction(sp.together(expr))
    return sp.collect(sp.expand(numerator), decay, sp.factor) / sp.collect(sp.expand(denominator), decay, sp.factor)


def _record_integration(
    derivation: Derivation,
    step: _Integration,
    y: sp.Symbol,
    y0: sp.Expr,
    t: sp.Symbol,
    prefix: str = "",
) -> None:
    """The partial-fraction, integration, exponentiation and inversion steps of ``step``."""
    derivation.add(
        sp.Eq(1 / step.factored, step.partial_fractions, evaluate=False),
        f"{prefix}partial fractions (sympy.apart)",
        key="apart",
        residual=1 / step.factored - step.partial_fractions,
    )
    y_0 = sp.Symbol(f"{y}_0")
    derivation.add(
        sp.Eq(step.antiderivative - step.antiderivative.subs(y, y_0), t),
        f"{prefix}separate variables and integrate from 0 to t, term by term (sympy.integrate; no factor changes "
        "sign along the flow); checked by differentiating the antiderivative",
        key="log",
        residual=sp.diff(step.antiderivative, y) - 1 / step.factored,
    )
    if step.exponentiated is not None:
        derivation.add(
            step.exponentiated,
            f"{prefix}divide by the coefficient of the first logarithm and exponentiate",
            key="exponentiate",
            residual=(step.exponentiated.lhs - step.exponentiated.rhs).subs(y, step.solution),
        )
        return
    derivation.add(
        sp.Eq(sp.Function(str(y))(t), step.solution),
        f"{prefix}solve for {y} (sympy.solve)",
        key="solution",
        residual=(step.antiderivative - step.antiderivative.subs(y, y0) - t).subs(y, step.solution),
    )


def _generic(derivation, poly, y, y0, t, names):
    r_plus, r_minus, k = names
    c2, c1, c0 = _coefficients(poly)
    delta = sp.factor(poly.discriminant())
    derivation.assumptions = (*derivation.assumptions, "c2 != 0", "Delta > 0", f"{y}(0) is not a root")
    derivation.add(
        sp.Eq(k**2, delta),
        "discriminant of the quadratic (Poly.discriminant); k >= 0 is the rate",
        key="discriminant",
        residual=delta - (c1**2 - 4 * c2 * c0),
    )
    found = sp.roots(poly)
    if sorted(found.values()) != [1, 1]:
        raise RuntimeError(f"sympy.roots found {found} for a quadratic with non-zero discriminant")
    plus, minus = _attracting_first(poly, list(found))
    roots = {r_plus: plus, r_minus: minus}
    for symbol, value in roots.items():
        derivation.add(
            sp.Eq(symbol, value),
            f"root of the quadratic (sympy.roots), {'attracting' if symbol == r_plus else 'repelling'}: "
            f"slope {'-k' if symbol == r_plus else '+k'} there",
            key="roots",
            residual=poly.as_expr().subs(y, value),
        )
    derivation.add(
        sp.Eq(c2 * (y - r_plus) * (y - r_minus), poly.as_expr()),
        "factorization over the two real roots (their sum and product are -c1/c2 and c0/c2)",
        key="factor",
        substitutions=roots,
    )
    rate = -c2 * (r_plus - r_minus)
    derivation.add(
        sp.Eq(k, rate),
        "the rate in terms of the roots: (c2 (y_+ - y_-))^2 = Delta, and k >= 0 at the attracting root",
        key="factor",
        residual=rate**2 - delta,
        substitutions=roots,
    )
    step = _integrate_and_invert(-k / (r_plus - r_minus), {r_plus: 1, r_minus: 1}, y, y0, t)
    _record_integration(derivation, step, y, y0, t)
    derivation.add(
        sp.Eq(sp.Function(str(y))(t), step.solution),
        "solve the exponentiated equation, linear in y (sympy.solve)",
        key="solution",
        residual=sp.diff(step.solution, t)
        - (-k / (r_plus - r_minus)) * (step.solution - r_plus) * (step.solution - r_minus),
    )
    positive = sp.Symbol("k", positive=True)
    limit = sp.limit(step.solution.xreplace({k: positive}), t, sp.oo).xreplace({positive: k})
    derivation.add(
        sp.Eq(sp.Limit(sp.Function(str(y))(t), t, sp.oo), limit),
        "t -> oo with k > 0 (sympy.limit)",
        key="limit",
        residual=limit - r_plus,
    )
    # the checks below hold for every coefficients with these root relations, so they are made with the coefficients
    # as symbols (small Gröbner bases); the model's coefficients are one instance
    C2, C1, C0 = _C2, _C1, _C0
    facts = (C2 * (r_plus + r_minus) + C1, C2 * r_plus * r_minus - C0, k + C2 * (r_plus - r_minus))
    stable = stable_form(C2, C0, y0, t, k).xreplace(dict(zip((ALPHA, BETA), rate_split(C1, k), strict=True)))
    derivation.add(
        sp.Eq(sp.Function(str(y))(t), stable_form(c2, c0, y0, t, k)),
        "numerically stable Möbius form (tau = t phi1(kt) = (1 - e^{-kt})/k, alpha = (k + c1)/2, "
        "beta = (k - c1)/2, alpha beta = -c2 c0): no root and no cancelling sum",
        residual=step.solution - stable,
        relations=facts,
        key="stable",
    )
    definitions = {r_plus: plus, r_minus: minus, k: sp.factor(rate.xreplace(roots))}
    solution = step.solution.xreplace({k: rate}).xreplace(roots)
    return solution, definitions, (step.solution, C2 * y**2 + C1 * y + C0), facts


def _attracting_first(poly: sp.Poly, roots: list[sp.Expr]) -> tuple[sp.Expr, sp.Expr]:
    """The two roots ordered (attracting, repelling): the slope of the quadratic is negative at the first.

    The slope at a root is ``±sqrt(Delta)``; its sign is read off by SymPy's assumptions, else at a random point
    of the symbols' domains (the sign is the same everywhere the discriminant is positive)."""
    slope = sp.diff(poly.as_expr(), poly.gen)
    first = sp.simplify(slope.subs(poly.gen, roots[0]))
    negative = first.is_negative
    if negative is None:
        negative = sample_sign(first) < 0
    return (roots[0], roots[1]) if negative else (roots[1], roots[0])


def _linear(derivation, poly, y, y0, t, names):
    r_plus, _, k = names
    _, c1, c0 = _coefficients(poly)
    derivation.assumptions = (*derivation.assumptions, "c2 = 0")
    if sp.expand(c1) == 0:
        step = _integrate_and_invert(c0, {}, y, y0, t)
        _record_integration(derivation, step, y, y0, t, "constant rate: ")
        return step.solution, {k: sp.S.Zero}, (step.solution, poly.as_expr()), ()
    (root,) = sp.roots(poly)
    derivation.add(
        sp.Eq(r_plus, root),
        "the fixed point (sympy.roots)",
        key="roots",
        residual=poly.as_expr().subs(y, root),
    )
    step = _integrate_and_invert(c1, {r_plus: 1}, y, y0, t)
    _record_integration(derivation, step, y, y0, t, "linear: ")
    solution = step.solution.xreplace({r_plus: root})
    derivation.add(
        sp.Eq(sp.Function(str(y))(t), solution),
        "the solution",
        key="solution",
        residual=sp.diff(solution, t) - poly.as_expr().subs(y, solution),
    )
    return solution, {r_plus: root, k: sp.Abs(c1)}, (solution, poly.as_expr()), ()


def _double_root(derivation, poly, y, y0, t, names):
    r_plus, r_minus, k = names
    c2, _, _ = _coefficients(poly)
    derivation.assumptions = (*derivation.assumptions, "c2 != 0", "Delta = 0")
    ((root, multiplicity),) = sp.roots(poly).items()
    derivation.add(
        sp.Eq(r_plus, root),
        f"the double root (sympy.roots, multiplicity {multiplicity})",
        key="roots",
        residual=poly.as_expr().subs(y, root),
    )
    step = _integrate_and_invert(c2, {r_plus: 2}, y, y0, t)
    _record_integration(derivation, step, y, y0, t, "double root: ")
    solution = step.solution.xreplace({r_plus: root})
    return solution, {r_plus: root, r_minus: root, k: sp.S.Zero}, (solution, poly.as_expr()), ()


def _fixed_point(derivation, poly, y, y0, t, names):
    r_plus, _, k = names
    derivation.assumptions = (*derivation.assumptions, f"{y}(0) is a root")
    # q at y0 kept unevaluated (it vanishes identically here), so that the display shows the relation decided,
    # q(y0) = 0, not its truth value
    derivation.add(
        sp.Eq(sp.Subs(poly.as_expr(), y, y0), 0, evaluate=False),
        f"{y}(0) is a fixed point: the right-hand side vanishes there, so {y} is constant (uniqueness)",
        key="solution",
        residual=poly.as_expr().subs(y, y0),
    )
    constant = y0 + 0 * t
    return constant, {r_plus: y0, k: sp.Abs(sp.diff(poly.as_expr(), y).subs(y, y0))}, (constant, poly.as_expr()), ()


_SOLVERS: dict[str, Callable] = {
    "generic": _generic,
    "linear": _linear,
    "constant-rate": _linear,
    "double-root": _double_root,
    "fixed-point": _fixed_point,
}


def _degenerate_conditions(poly: sp.Poly, y0: sp.Expr) -> tuple[tuple[str, tuple[sp.Expr, ...]], ...]:
    """The conditions (each expression = 0) under which ``y' = q(y)`` leaves the generic branch, read off the
    polynomial object ``q`` itself, with the branch each selects: its leading coefficient (linear), its two
    leading coefficients (constant rate), its discriminant (``Poly.discriminant``: a double root) and its value at
    the start (a fixed point)."""
    c2, c1, _ = _coefficients(poly)
    return (
        ("linear", (c2,)),
        ("constant-rate", (c2, c1)),
        ("double-root", (sp.factor(poly.discriminant()),)),
        ("fixed-point", (sp.factor(poly.as_expr().subs(poly.gen, y0)),)),
    )


def _branch_property(branch: str, poly: sp.Poly, y0: sp.Expr) -> sp.Expr:
    """What a degenerate branch means for the right-hand side ``q``, as an expression computed from ``q`` that
    vanishes exactly on that branch: ``q''`` (degree at most 1), ``q'`` (a constant rate), the resultant of ``q``
    and ``q'`` (a double root, ``c2 != 0``) and ``q(y0)`` (the start is a fixed point)."""
    y, q = poly.gen, poly.as_expr()
    properties = {
        "linear": lambda: sp.diff(q, y, 2),
        "constant-rate": lambda: sp.diff(q, y),
        "double-root": lambda: sp.resultant(q, sp.diff(q, y), y),
        "fixed-point": lambda: q.subs(y, y0),
    }
    return properties[branch]()


_PROPERTY_TEXT = {
    "linear": "q'' = 0: the right-hand side is of degree at most 1",
    "constant-rate": "q' = 0: the right-hand side is a constant",
    "double-root": "resultant(q, q') = 0: q has a double root",
    "fixed-point": "q(y0) = 0: the start is a fixed point",
}


def _condition(exprs: tuple[sp.Expr, ...]) -> sp.Basic:
    """The displayed condition: each expression = 0."""
    equations = [sp.Eq(e, 0) for e in exprs]
    return equations[0] if len(equations) == 1 else sp.And(*equations)


def _vanishing(exprs: tuple[sp.Expr, ...], poly: sp.Poly) -> tuple[sp.Expr, ...]:
    """The condition ``exprs`` (each = 0) as relations for the checks: of each numerator, the product of its distinct
    factors not known to be non-zero (a positive parameter such as ``lam**2`` is dropped, since the condition cannot
    hold through it; a power is taken once, since ``f**m = 0`` iff ``f = 0`` over the reals), a factor that is the
    radicand of a square root in the coefficients of ``poly`` taken as that square root (``f = 0`` iff
    ``sqrt(f) = 0`` over the reals, and the checks see the root, not the radicand)."""
    radicands = {
        sp.expand(e.base)
        for c in poly.all_coeffs()
        for e in sp.sympify(c).atoms(sp.Pow)
        if e.exp == sp.Rational(1, 2) or e.exp == -sp.Rational(1, 2)
    }
    relations = []
    for expr in exprs:
        factors = sp.Mul.make_args(sp.factor(sp.numer(sp.together(expr))))
        bases = {f.base if isinstance(f, sp.Pow) and f.exp.is_positive and f.exp.is_integer else f for f in factors}
        kept = (sp.sqrt(f) if sp.expand(f) in radicands else f for f in bases if f.is_nonzero is not True)
        relations.append(sp.Mul(*kept))
    return tuple(relations)


def _condition_step(poly: sp.Poly, y0: sp.Expr, branch: str, exprs: tuple[sp.Expr, ...]) -> Step:
    """The degenerate condition ``exprs`` (each = 0) as a checked step: under it the right-hand side ``poly`` has
    the branch's property (``_branch_property``), proved modulo the condition (a Gröbner normal form)."""
    return Step(
        _condition(exprs),
        f"degenerate case: under this condition {_PROPERTY_TEXT[branch]} (computed from the equation's polynomial, "
        f"modulo the condition): the {branch} branch",
        residual=_branch_property(branch, poly, y0),
        relations=_vanishing(exprs, poly),
        key="case",
    )


def _instance_steps(
    poly: sp.Poly, y0: sp.Expr, t: sp.Symbol, branch: str, exprs: tuple[sp.Expr, ...], solution: sp.Expr
) -> tuple[Step, Step]:
    """The abstract branch's ``solution`` with the equation's own coefficients solves the equation and its initial
    condition under the condition ``exprs`` (by substitution, modulo the condition)."""
    c2, c1, c0 = _coefficients(poly)
    y = poly.gen
    instance = solution.xreplace({_C2: c2, _C1: c1, _C0: c0, _Y0: y0, _T: t})
    yt = sp.Function(str(y))(t)
    return (
        Step(
            sp.Eq(sp.Derivative(yt, t), poly.as_expr().subs(y, yt)),
            f"check: the {branch} branch's solution with the equation's coefficients satisfies the equation under "
            "the condition (substituted, modulo the condition)",
            residual=sp.diff(instance, t) - poly.as_expr().subs(y, instance),
            relations=_vanishing(exprs, poly),
            key="case",
        ),
        Step(
            sp.Eq(yt.subs(t, 0), y0),
            f"check: the {branch} branch's solution meets the initial condition",
            residual=instance.subs(t, 0) - y0,
            relations=_vanishing(exprs, poly),
            key="case",
        ),
    )


@cache
def _abstract_cases() -> tuple[tuple[str, Derivation, sp.Expr], ...]:
    """The degenerate branches of ``y' = c2 y^2 + c1 y + c0`` for abstract coefficients: each condition of
    ``_degenerate_conditions`` is solved for coefficients (``sympy.solve``), the quadratic so obtained is derived
    by the same steps as a model's equation, and the stable form is proved equal to its solution for every rate
    ``k`` with ``k^2 = Delta`` (``sympy.solve``; the two signs of an absolute value). Returns (branch, steps,
    solution) per condition."""
    c2, c1, c0, y0, y, t = _C2, _C1, _C0, _Y0, _Y, _T
    k = sp.Symbol("k", nonnegative=True)
    generic = sp.Poly(c2 * y**2 + c1 * y + c0, y)
    found = []
    for branch, exprs in _degenerate_conditions(generic, y0):
        unknowns = [s for s in (c0, c2, c1) if any(s in e.free_symbols for e in exprs)][: len(exprs)]
        (solved,) = sp.solve(list(exprs), unknowns, dict=True)
        case_poly = sp.Poly(generic.as_expr().xreplace(solved), y)
        if _classify(*_coefficients(case_poly), y0) != branch:
            raise RuntimeError(f"the condition {exprs} gives the {_classify(*_coefficients(case_poly), y0)} branch")
        label = ", ".join(f"{s} = {sp.sstr(v)}" for s, v in solved.items())
        sub = Derivation(f"case {label}: {branch}")
        sub.add(
            sp.Eq(sp.Derivative(sp.Function("y")(t), t), case_poly.as_expr()),
            f"the condition {', '.join(f'{sp.sstr(e)} = 0' for e in exprs)} solved for {', '.join(map(str, solved))} "
            "(sympy.solve)",
            residual=generic.as_expr() - case_poly.as_expr(),
            relations=tuple(exprs),
            key="stable",
        )
        solution, *_ = _SOLVERS[branch](sub, case_poly, y, y0, t, (*_names(y), k))
        d2, d1, d0 = _coefficients(case_poly)
        stable = stable_form(d2, d0, y0, t, k).xreplace(dict(zip((ALPHA, BETA), rate_split(d1, k), strict=True)))
        plain = sp.Symbol("k")
        for value in sp.solve(plain**2 - sp.factor(d1**2 - 4 * d2 * d0), plain):
            sub.add(
                sp.Eq(sp.Function("y")(t), solution),
                f"the stable form with k = {sp.sstr(value)} (k^2 = Delta) is this branch's solution",
                residual=(stable - solution).xreplace({k: value}),
                key="stable",
            )
        found.append((branch, sub, solution))
    return tuple(found)


def _case_split(derivation: Derivation, poly: sp.Poly, y: sp.Symbol, y0: sp.Expr, t: sp.Symbol) -> dict:
    """The degenerate branches of a generic quadratic: each condition (the leading coefficient, then the
    discriminant, then the start; ``_degenerate_conditions``) is derived from the model's coefficients and recorded
    as a checked step (the branch's property of the equation under it), followed by the abstract case's steps
    (``_abstract_cases``) and the check that its solution, with the equation's coefficients, solves the equation
    under the condition."""
    found = {}
    conditions = _degenerate_conditions(poly, y0)
    for (branch, exprs), (abstract_branch, sub, solution) in zip(conditions, _abstract_cases(), strict=True):
        condition = _condition(exprs)
        if condition is sp.false:
            continue
        if branch != abstract_branch:
            raise RuntimeError(f"the condition {condition} selects {branch}, its abstract case {abstract_branch}")
        derivation.steps.append(_condition_step(poly, y0, branch, exprs))
        for step in sub.steps:
            derivation.steps.append(replace(step, justification=f"{sub.title}: {step.justification}", key="case"))
        derivation.steps.extend(_instance_steps(poly, y0, t, branch, exprs, solution))
        found[condition] = branch
    return found


def _names(y: sp.Symbol) -> tuple[sp.Symbol, sp.Symbol]:
    return sp.Symbol(f"{y}_+", real=True), sp.Symbol(f"{y}_-", real=True)
