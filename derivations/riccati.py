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

The method is stated once (``RICCATI_METHOD``, whose section ``method_section`` builds by running this engine on
symbolic coefficients, its degenerate cases and the complex-root branch included). A model's derivation keeps as
its own steps the equation, its coefficients :math:`c_2, c_1, c_0`, the branch that applies and why (on the
generic branch :math:`\Delta \ge 0`, proved from the symbols' assumptions with the sums' signs, ``signs``) and the
returned closed form; every other step is marked ``method=RICCATI_METHOD`` (``Step.method``), still checked, and
``Derivation.latex(mode="condensed")`` prints each run of them as a reference to the section.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache

import sympy as sp

from .derivation import Derivation, MethodReference, Step
from .proof import Proof, prove_zero, sample_sign
from .prose import text_latex
from .special import phi1

__all__ = [
    "ALPHA",
    "BETA",
    "BRANCHES",
    "RICCATI_METHOD",
    "RiccatiSolution",
    "discriminant_sign",
    "method_section",
    "rate_split",
    "riccati_solution",
    "stable_form",
]

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
    signs: Mapping[sp.Symbol, sp.Symbol] | None = None,
) -> RiccatiSolution:
    """Derive the solution of ``y' = rhs`` (a polynomial of degree <= 2 in ``y`` with coefficients free of ``t``),
    ``y(0) = y0``, as a recorded derivation; the roots are named ``{y}_+`` and ``{y}_-``.

    The derivation's own steps are the equation (``"ode"``), its coefficients (``"coefficients"``), the branch that
    applies and why (``"branch"``: on the generic branch, the sign of the discriminant proved from the symbols'
    assumptions with ``signs`` substituted) and the returned closed form (``"closed_form"``); every other step is a
    generic step of ``RICCATI_METHOD`` (``Step.method``), stated once in its section (``method_section``).

    Arguments:
        rhs: the right-hand side, a SymPy polynomial of degree <= 2 in ``y`` with coefficients free of ``t``.
        y: the unknown; its roots are named ``{y}_+`` (attracting) and ``{y}_-``.
        y0: the initial value ``y(0)``.
        t: the time symbol.
        relations: polynomial side conditions (each = 0), the derivation's shared ``relations``.
        tags: step keys (``"ode"``, ``"discriminant"``, ``"roots"``, ``"factor"``, ``"apart"``, ``"log"``,
            ``"exponentiate"``, ``"solution"``, ``"limit"``, ``"verified"``, ``"case"``, …) -> paper equation
            numbers (``Derivation.tagged``); ``None`` or empty: no tags.
        signs: symbols of the coefficients mapped to symbols with their sign assumptions (e.g. a sum over the units
            of non-positive summands to a non-positive symbol), with which the sign of the discriminant is decided.

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
    derivation.steps.extend(_coefficient_steps(poly))
    derivation.steps.append(_branch_step(poly, y0, branch, signs or {}))
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
    derivation.steps[:] = _generic_marked(derivation.steps)
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
            key="closed_form",
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


# ---------------------------------------------------------------- the method, stated once; a model's own steps
_OWN_KEYS = ("ode", "coefficients", "branch", "closed_form")
"""The keys of the steps a model's derivation shows in condensed form: its equation, its coefficients, the branch
that applies to it and its closed form. Every other step of the engine is generic (``RICCATI_METHOD``)."""


def _generic_marked(steps: list[Step]) -> list[Step]:
    """``steps`` with every step not of ``_OWN_KEYS`` (and not yet of a method) marked as a generic step of the
    Riccati method."""
    return [s if s.key in _OWN_KEYS or s.method is not None else replace(s, method=RICCATI_METHOD) for s in steps]


def _coefficient_steps(poly: sp.Poly) -> list[Step]:
    """``c2``, ``c1``, ``c0`` of the equation's polynomial, each a step: the method's symbols for this model."""
    y = poly.gen
    return [
        Step(
            sp.Eq(symbol, value, evaluate=False),
            f"the coefficient of {y}{'^2' if n == 2 else ''} in the right-hand side (sympy.Poly): a symbol of the "
            "Riccati method"
            if n
            else "the constant term of the right-hand side (sympy.Poly): a symbol of the Riccati method",
            residual=poly.coeff_monomial(y**n) - value,
            key="coefficients",
        )
        for symbol, value, n in zip((_C2, _C1, _C0), _coefficients(poly), (2, 1, 0), strict=True)
    ]


def discriminant_sign(
    c2: sp.Expr, c1: sp.Expr, c0: sp.Expr, signs: Mapping[sp.Symbol, sp.Symbol] | None = None
) -> bool | None:
    """Whether ``Delta = c1**2 - 4 c2 c0 >= 0`` follows from the symbols' assumptions, ``signs`` substituted.

    Arguments:
        c2: the coefficient of the square.
        c1: the linear coefficient.
        c0: the constant term.
        signs: symbols mapped to symbols with their sign assumptions (``catalogue._sum_signs``).

    Returns:
        True if ``Delta`` (factored), or both ``c1**2`` and ``-c2 c0``, are non-negative by SymPy's assumptions;
        False if ``Delta`` is negative by them; None if they do not decide it.
    """
    given = dict(signs or {})
    delta = sp.factor(c1**2 - 4 * c2 * c0).xreplace(given)
    if delta.is_nonnegative:
        return True
    if delta.is_negative:
        return False
    # a sum of a square and a product of known sign (e.g. 4 S^2 + (a_0^2 - b_0^2)^2 is not seen as one, factored)
    if sp.sympify(c1**2).xreplace(given).is_nonnegative and sp.factor(-c2 * c0).xreplace(given).is_nonnegative:
        return True
    return None


def _branch_step(poly: sp.Poly, y0: sp.Expr, branch: str, signs: Mapping[sp.Symbol, sp.Symbol]) -> Step:
    """Which branch of the Riccati method applies to ``poly`` and why, as a checked step.

    A degenerate branch forced by the coefficients shows its condition in the method's symbols and is checked by
    the branch's property of the equation's polynomial vanishing identically (``_branch_property``). The generic
    branch shows the discriminant's sign, proved from the symbols' assumptions (``discriminant_sign``); if they do
    not decide it, the step only names the discriminant and the generic branch is taken for ``Delta > 0``, an
    assumption of the derivation."""
    c2, c1, c0 = _coefficients(poly)
    if branch != "generic":
        abstract = sp.Poly(_C2 * _Y**2 + _C1 * _Y + _C0, _Y)
        exprs = dict(_degenerate_conditions(abstract, _Y0))[branch]
        return Step(
            _condition(exprs),
            f"{_PROPERTY_TEXT[branch]}, identically for these coefficients: the {branch} branch of the Riccati method",
            residual=_branch_property(branch, poly, y0),
            key="branch",
        )
    delta = sp.factor(c1**2 - 4 * c2 * c0)
    cases = (
        "the conditions Delta = 0, c2 = 0 and a start at a root select the method's other branches, each a checked step"
    )
    if discriminant_sign(c2, c1, c0, signs) is None:
        return Step(
            sp.Eq(sp.Symbol("Delta"), delta, evaluate=False),
            "the discriminant c1^2 - 4 c2 c0 of these coefficients; its sign is not decided by the symbols' "
            f"assumptions: the generic branch (two real roots) is taken for Delta > 0, an assumption; {cases}",
            residual=sp.Symbol("Delta") - delta,
            substitutions={sp.Symbol("Delta"): c1**2 - 4 * c2 * c0},
            key="branch",
        )
    named = " (with the signs of the sums over the units, from their summands)" if signs else ""

    def nonnegative() -> Proof:
        if discriminant_sign(c2, c1, c0, signs):
            return Proof(True, f"SymPy's assumptions{named}", True)
        return Proof(False, "the sign of the discriminant is not decided by the symbols' assumptions", True, str(delta))

    return Step(
        sp.GreaterThan(delta, 0, evaluate=False),
        f"the discriminant c1^2 - 4 c2 c0 of these coefficients is >= 0 by the symbols' assumptions{named}: two "
        f"real roots, the generic branch of the Riccati method where Delta > 0; {cases}",
        verifier=nonnegative,
        key="branch",
    )


RICCATI_TOPICS: dict[str, str] = {
    "discriminant": "the discriminant",
    "roots": "the roots",
    "factor": "the factorization over the roots",
    "apart": "the partial fractions",
    "log": "the integration",
    "exponentiate": "the exponentiation",
    "solution": "the inversion",
    "limit": "the limit",
    "stable": "the stable form",
    "verified": "the checks against the equation",
    "returned": "the checks of the returned roots and rate",
    "case": "the degenerate cases (each condition and its branch's solution checked for these coefficients)",
}
"""What each generic step of the engine does, by key, for the line that stands for a run of them."""


@cache
def method_section() -> str:
    r"""The LaTeX section stating the Riccati method once, for symbolic coefficients ``y' = c2 y^2 + c1 y + c0``.

    Every display is a step of the engine itself run on the symbolic quadratic (``riccati_solution``: the
    discriminant, the roots, the factorization, the partial fractions, the integration, the inversion, the limit
    and the stable form, each computed from the previous object and checked), of its degenerate cases
    (``_abstract_cases``: linear, constant rate, double root, fixed point, each solved by the same steps), and of
    the complex-root branch obtained from the stable form with an imaginary rate (``_complex_roots``), printed by
    ``Derivation.latex``.

    Returns:
        The ``\section`` (labelled ``RICCATI_METHOD.label``) and its subsections.
    """
    c2, c1, c0, y0, y, t = _C2, _C1, _C0, _Y0, _Y, _T
    general = riccati_solution(c2 * y**2 + c1 * y + c0, y, y0, t)
    # the symbolic run's own steps are trivial here (c2 = c2, an undecided sign): the method's steps are the others
    two_roots = Derivation(
        general.derivation.title,
        steps=[
            s
            for s in general.derivation.steps
            if s.key not in ("coefficients", "branch", "case", "returned", "closed_form")
        ],
    )
    parts = [
        f"\\section{{The Riccati method}}\\label{{{RICCATI_METHOD.label}}}",
        "A model whose derivation reaches a scalar equation with constant coefficients, of degree at most 2 in its "
        "unknown, is solved by the steps below, derived here once for symbolic coefficients "
        f"{_math(sp.Eq(sp.Derivative(sp.Function('y')(t), t), c0 + c1 * y + c2 * y**2))}. Each display is computed "
        "by SymPy from the one before it and checked. A model's derivation shows its own coefficients, which branch "
        "applies to it and why, and its closed form; it refers here for the steps in between, which are the same "
        "steps, checked again with its coefficients.",
        "\\subsection{Two real roots: a positive discriminant}",
        text_latex(
            "The discriminant Delta = c1^2 - 4 c2 c0 = k^2 is positive, c2 != 0 and the start is not a root: the "
            "factorization over the two roots (the attracting y_+, where q'(y_+) = -k, and y_-), partial fractions, "
            "term-by-term integration and the inversion of the exponentiated equation."
        ),
        two_roots.latex(),
        "\\subsection{Degenerate branches}",
        text_latex(
            "Each condition of the generic branch failing, solved for a coefficient and derived by the same steps; "
            "each branch's solution is the stable form with k^2 = Delta, so that the stable form holds on every "
            "branch. In a model's derivation each condition is a checked step in the model's own symbols."
        ),
    ]
    for branch, sub, _ in _abstract_cases():
        parts += [f"\\paragraph{{{text_latex(branch.capitalize())} branch.}}", sub.latex()]
    parts += [
        "\\subsection{Complex roots: a negative discriminant}",
        text_latex(
            "No gradient flow of the package reaches it, and the engine rejects an equation whose discriminant is "
            "negative; the closed form follows from the stable form, which depends on k through k^2 only, with the "
            "imaginary rate k = i omega. Its denominator vanishes in finite time: the solution blows up."
        ),
        _complex_roots().latex(),
    ]
    return "\n\n".join(parts)


RICCATI_METHOD = MethodReference("the Riccati method", "sec:riccati-method", method_section, {**RICCATI_TOPICS})
"""The engine's generic steps, stated once for symbolic coefficients in the section ``method_section`` builds."""


def _math(relation: sp.Basic) -> str:
    """A relation in running text, through the renderer of the derivations."""
    from .naming import latex

    return f"${latex(relation)}$"


def _complex_roots() -> Derivation:
    r"""The branch :math:`\Delta = -\omega^2 < 0` from the engine's stable form: written with exponentials
    (``phi1`` rewritten), numerator and denominator multiplied by :math:`e^{-kt/2}/(2i)` at :math:`k = i\omega`
    and rewritten with cosines (``rewrite(cos)``), which leaves a real ratio; checked against the equation
    (modulo :math:`\omega^2 = 4c_2c_0 - c_1^2`) and the initial condition."""
    c2, c1, c0, y0, t = _C2, _C1, _C0, _Y0, _T
    k, omega = sp.Symbol("k", nonnegative=True), sp.Symbol("omega", positive=True)
    yt = sp.Function("y")(t)
    facts = (omega**2 + c1**2 - 4 * c2 * c0,)
    d = Derivation("complex roots", assumptions=("Delta = -omega^2 < 0",), relations=facts)
    stable = stable_form(c2, c0, y0, t, k).xreplace(dict(zip((ALPHA, BETA), rate_split(c1, k), strict=True)))
    exponential = sp.together(stable.rewrite(sp.exp))
    d.add(
        sp.Eq(yt, exponential),
        "the stable form of the generic branch with tau = (1 - e^{-kt})/k written out",
        residual=stable - exponential,
        substitutions={phi1(k * t): (1 - sp.exp(-k * t)) / (k * t)},
    )
    d.add(
        sp.Eq(k, sp.I * omega, evaluate=False),
        "Delta = -omega^2 < 0 (omega > 0): k^2 = Delta at k = i omega",
        residual=(sp.I * omega) ** 2 - (c1**2 - 4 * c2 * c0),
    )
    numerator, denominator = sp.fraction(exponential)
    waves = (sp.cos(omega * t / 2), sp.sin(omega * t / 2))

    def real(part: sp.Expr) -> sp.Expr:
        at_i = sp.expand(sp.expand(part * sp.exp(-k * t / 2)).xreplace({k: sp.I * omega})).rewrite(sp.cos)
        return sp.collect(sp.expand(at_i / (2 * sp.I)), waves, sp.factor)

    solution = real(numerator) / real(denominator)
    d.add(
        sp.Eq(yt, solution),
        "numerator and denominator times e^{-kt/2}/(2 i) at k = i omega, with cosines and sines (rewrite(cos)): a "
        "real ratio; its denominator vanishes at a finite time (blow-up)",
        verifier=lambda: prove_zero(sp.simplify((exponential.xreplace({k: sp.I * omega}) - solution).rewrite(sp.exp))),
    )
    d.add(
        sp.Eq(sp.Derivative(yt, t), c0 + c1 * yt + c2 * yt**2),
        "check: it satisfies the equation (modulo omega^2 = 4 c2 c0 - c1^2)",
        residual=sp.diff(solution, t) - (c2 * solution**2 + c1 * solution + c0),
    )
    d.add(sp.Eq(yt.subs(t, 0), y0), "check: the initial condition", residual=solution.subs(t, 0) - y0)
    return d
