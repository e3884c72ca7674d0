r"""Riccati equations with exponential forcing, :math:`\dot y = c_2y^2 + c_1y + c_0 + c_3e^{kt}`, solved through
modified Bessel functions (the weight-decay clock: Nam et al. 2025, §7 setting with an :math:`\ell_2` regularizer).

Every step is computed by SymPy from the previous one and checked (the coefficients are abstract symbols in the
checks, the model's coefficients one instance of them, as in ``derivations.riccati``):

1. the match: ``rhs`` expanded, its time-dependent terms each a coefficient free of :math:`y` times
   :math:`e^{kt}` (one rate :math:`k \ne 0`), the rest a polynomial of degree 2 in :math:`y` (``sympy.Poly``);
2. linearization: :math:`y = -\varphi'/(c_2\varphi)` turns the equation into
   :math:`\varphi'' - c_1\varphi' + c_2(c_0 + c_3e^{kt})\varphi = 0`;
3. :math:`\varphi = e^{c_1t/2}\psi` removes the first derivative:
   :math:`\psi'' - (\Delta/4 - c_2c_3e^{kt})\psi = 0`, :math:`\Delta = c_1^2 - 4c_2c_0`;
4. the argument :math:`s = s_0e^{kt/2}` with :math:`k^2s_0^2 = -4c_2c_3` and the order :math:`k^2\nu^2 = \Delta` give
   the modified Bessel equation :math:`s^2\psi_{ss} + s\psi_s - (s^2 + \nu^2)\psi = 0` when :math:`c_2c_3 \le 0`
   (decided from the signs of the coefficients' symbols, e.g. of the sums over the units; :math:`c_2c_3 > 0` gives
   the ordinary Bessel equation, whose oscillating solutions reach a pole of :math:`y` in finite time, and is
   refused);
5. :math:`I_\nu` and :math:`K_\nu` solve it (``sympy.diff`` of ``besseli``/``besselk``, the orders reduced by the
   recurrences, DLMF 10.29.1, as ``sympy.expand_func`` applies them), so
   :math:`y = -\varphi'/(c_2\varphi)` with :math:`\psi = A I_\nu(s) + B K_\nu(s)` solves the Riccati equation;
6. the ratio :math:`B/A` from :math:`y(0) = y_0` (``sympy.solve``), the solution checked against the equation and
   the start, and the numerically stable form that ``numerics.bessel`` evaluates proved equal to it.

The order :math:`\nu = \sqrt\Delta/|k|` and the start :math:`s_0 = 2\sqrt{-c_2c_3}/|k|` are symbols tied by the
relations above (``definitions`` gives their values). One degenerate case is split off (``cases``):
:math:`c_3 = 0` (no forcing, e.g. weight decay from a balanced start) is the constant-coefficient Riccati equation,
solved by ``riccati.riccati_solution`` (its steps appended; the case step proves that the equation is that one
where :math:`c_3 = 0`, and ``numerics.bessel`` evaluates the Riccati solution there).
No case split is needed for an integer order: :math:`I_\nu` and :math:`K_\nu` are independent for every real
:math:`\nu`.

Stable form (what the numerics evaluate): with :math:`L_I(x) = xI_\nu'(x)/I_\nu(x)`,
:math:`L_K(x) = xK_\nu'(x)/K_\nu(x)`, :math:`w_0 = -(2c_2y_0 + c_1)/k`, :math:`p = L_K(s_0) - w_0`,
:math:`q = L_I(s_0) - w_0`, :math:`\rho_I = I_\nu(s)/I_\nu(s_0)`, :math:`\rho_K = K_\nu(s)/K_\nu(s_0)` and a sign
:math:`\sigma = \pm1`,

.. math:: y = -\frac{(c_1 + \sigma k\nu) + kX_\sigma}{2c_2},\qquad
          X_\sigma = \frac{p\,\rho_I\,sI_{\nu+\sigma}(s)/I_\nu(s) + q\,\rho_K\,sK_{\nu+\sigma}(s)/K_\nu(s)}
          {p\,\rho_I - q\,\rho_K};

the numerics pick :math:`\sigma = -\operatorname{sign}(c_1k)`, for which :math:`c_1 + \sigma k\nu` is the small one
of :math:`c_1 \pm k\nu` (computed as :math:`4c_2c_0/(c_1 - \sigma k\nu)`, exactly 0 for weight decay), so that a
decaying clock keeps its relative accuracy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

import sympy as sp

from .derivation import Derivation, Step
from .proof import Proof, prove_zero
from .riccati import RICCATI_METHOD, riccati_solution

__all__ = [
    "BesselSolution",
    "ForcingMatch",
    "bessel_solution",
    "forcing_branch",
    "match_forcing",
    "reduce_orders",
    "stable_form",
    "start_ratios",
]

# the abstract coefficients of the checks (the model's coefficients are one instance of them)
_C2, _C1, _C0, _C3, _K, _Y0 = sp.symbols("c2 c1 c0 c3 k y0", real=True)
NU = sp.Symbol("nu", nonnegative=True)
"""The order of the Bessel functions, :math:`k^2\\nu^2 = c_1^2 - 4c_2c_0`."""
S0 = sp.Symbol("s0", positive=True)
"""The start of their argument, :math:`k^2s_0^2 = -4c_2c_3`."""
# e^{kt/2} and e^{c1 t/2} in the checks, as symbols (sympy merges powers of exponentials into new atoms):
# d/dt acts on them as (k/2) E d/dE and (c1/2) F d/dF
_E, _F = sp.Symbol("E", positive=True), sp.Symbol("F", positive=True)
_BESSEL = (sp.besseli, sp.besselk)


@dataclass(frozen=True)
class ForcingMatch:
    """``rhs = c2 y^2 + c1 y + c0 + c3 e^{k t}`` (each coefficient free of ``y`` and ``t``)."""

    c2: sp.Expr
    c1: sp.Expr
    c0: sp.Expr
    c3: sp.Expr
    k: sp.Expr

    @property
    def form(self) -> Callable[[sp.Expr, sp.Expr], sp.Expr]:
        """``(y, t) -> c2 y^2 + c1 y + c0 + c3 e^{k t}``."""
        return lambda y, t: self.c2 * y**2 + self.c1 * y + self.c0 + self.c3 * sp.exp(self.k * t)


@dataclass(frozen=True)
class BesselSolution:
    """The derived solution of ``y' = c2 y^2 + c1 y + c0 + c3 e^{k t}``, ``y(0) = y0``, for ``c2 c3 <= 0``.

    ``psi`` is ``A I_nu(s) + B K_nu(s)`` with the ``constants`` ``(A, B)`` (only their ratio matters) and the
    ``argument`` ``s(t) = s0 e^{k t / 2}``; ``solution`` is ``y(t) = -phi'/(c2 phi)``, ``phi = e^{c1 t/2} psi``, in
    the symbols ``nu`` and ``s0`` whose values are ``definitions`` (``nu = sqrt(Delta)/|k|``,
    ``s0 = 2 sqrt(-c2 c3)/|k|``). ``cases`` maps each degenerate condition to its branch (``"unforced"``: ``c3 = 0``,
    the constant-coefficient Riccati solution ``unforced``)."""

    y: sp.Symbol
    rhs: sp.Expr
    t: sp.Symbol
    y0: sp.Expr
    c2: sp.Expr
    c1: sp.Expr
    c0: sp.Expr
    c3: sp.Expr
    k: sp.Expr
    nu: sp.Symbol
    s0: sp.Symbol
    argument: sp.Expr
    constants: tuple[sp.Expr, sp.Expr]
    psi: sp.Expr
    solution: sp.Expr
    definitions: dict[sp.Symbol, sp.Expr]
    derivation: Derivation
    cases: dict[sp.Basic, str] = field(default_factory=dict)
    unforced: object | None = None

    @property
    def coefficients(self) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
        """``(c2, c1, c0, c3, k)``."""
        return self.c2, self.c1, self.c0, self.c3, self.k

    @property
    def discriminant(self) -> sp.Expr:
        """``c1**2 - 4*c2*c0`` (``= k**2 nu**2``)."""
        return self.c1**2 - 4 * self.c2 * self.c0

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        """``(y,)``: the clock this solution gives (``catalogue.ClockSolution``)."""
        return (self.y,)

    @property
    def arguments(self) -> frozenset[sp.Symbol]:
        """The symbols of the coefficients and the start (``catalogue.ClockSolution``)."""
        return frozenset().union(*(sp.sympify(e).free_symbols for e in (*self.coefficients, self.y0)))


def match_forcing(rhs: sp.Expr, y: sp.Symbol, t: sp.Symbol) -> ForcingMatch | str:
    """``rhs`` as ``c2 y^2 + c1 y + c0 + c3 e^{k t}``, or the reason it is not of that form.

    Arguments:
        rhs: the right-hand side of ``y' = rhs``.
        y: the unknown.
        t: the time.

    Returns:
        The coefficients (``c2 != 0``, ``c3 != 0``, ``k != 0``, all free of ``y`` and ``t``), or a reason.
    """
    expanded = sp.expand(sp.sympify(rhs, strict=True))
    forcing, rates, rest = sp.S.Zero, set(), []
    for term in sp.Add.make_args(expanded):
        if t not in term.free_symbols:
            rest.append(term)
            continue
        coefficient, factor = term.as_independent(t, as_Add=False)
        if y in coefficient.free_symbols:
            return f"the time-dependent term {term} multiplies {y} (not an additive forcing c3 e^(k t))"
        factor = sp.powsimp(factor)
        if not isinstance(factor, sp.exp):
            return f"time enters through {factor}, not through an exponential e^(k t)"
        exponent = sp.expand(factor.args[0])
        rate = sp.diff(exponent, t)
        if t in rate.free_symbols:
            return f"the exponent {exponent} of the forcing is not linear in t"
        rates.add(rate)
        forcing += coefficient * sp.exp(sp.expand(exponent - rate * t))
    if not rates:
        return "no time-dependent forcing"
    if len(rates) > 1:
        return f"several exponential rates {sorted(map(str, rates))} in the forcing"
    (k,) = rates
    polynomial = sp.Add(*rest)
    if not polynomial.is_polynomial(y) or sp.degree(polynomial, y) > 2:
        return f"the part without t, {polynomial}, is not a polynomial of degree at most 2 in {y}"
    poly = sp.Poly(polynomial, y)
    c2, c1, c0 = (sp.factor(poly.coeff_monomial(y**n)) for n in (2, 1, 0))
    c3 = sp.factor(forcing)
    if c2 == 0:
        return f"the coefficient of {y}^2 vanishes: a linear equation, not a Riccati one"
    if c3 == 0 or k == 0:
        return "the forcing vanishes"
    return ForcingMatch(c2, c1, c0, c3, sp.factor(k))


def reduce_orders(expr: sp.Expr, nu: sp.Symbol = NU) -> tuple[sp.Expr, dict[sp.Symbol, sp.Expr]]:
    """``expr`` with every ``besseli``/``besselk`` of order ``nu + n`` (integer ``n``) written through the two
    lowest orders per argument, by the recurrences (DLMF 10.29.1) as ``sympy.expand_func`` applies them: the order
    is written ``nu = m - lowest`` with a positive base order ``m`` (``expand_func`` lowers an order ``m + n`` only
    while ``m + n - 1`` is positive), so that only orders ``m`` and ``m + 1`` remain. The identity so obtained is
    polynomial in ``m``: proved for every positive ``m``, it holds for every ``m``.

    Arguments:
        expr: an expression in Bessel functions of orders ``nu + n``.
        nu: the symbolic order.

    Returns:
        The reduced expression and the substitution ``{nu: m - lowest}`` (to apply to relations in ``nu``).
    """
    offsets = [sp.expand(f.args[0] - nu) for f in expr.atoms(*_BESSEL)]
    lowest = min((n for n in offsets if n.is_integer), default=sp.S.Zero)
    shift = {nu: sp.Dummy("m", positive=True) - lowest}
    return sp.expand_func(expr.xreplace(shift)), shift


def _reduced_zero(expr: sp.Expr, relations: Iterable[sp.Expr]) -> Proof:
    """``prove_zero`` of ``expr`` with the Bessel orders reduced (``reduce_orders``) and the order's relations
    shifted likewise."""
    reduced, shift = reduce_orders(expr)
    return prove_zero(reduced, relations=[sp.sympify(r).xreplace(shift) for r in relations])


def _d_dt(expr: sp.Expr, t: sp.Symbol, k: sp.Expr, c1: sp.Expr = _C1) -> sp.Expr:
    """The time derivative of ``expr`` in ``t``, ``E = e^{k t/2}`` and ``F = e^{c1 t/2}`` (``dE/dt = (k/2) E``,
    ``dF/dt = (c1/2) F``), by ``sympy.diff``."""
    return sp.diff(expr, t) + k / 2 * _E * sp.diff(expr, _E) + c1 / 2 * _F * sp.diff(expr, _F)


def start_ratios(coefficients: tuple[sp.Expr, ...], y0: sp.Expr, s0: sp.Expr, nu: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """``(p, q) = (L_K(s0) - w0, L_I(s0) - w0)`` of the stable form (module docstring), ``w0 = -(2 c2 y0 + c1)/k``,
    with the log-derivatives written by the recurrences so that ``nu`` does not cancel against ``w0``.

    Arguments:
        coefficients: ``(c2, c1, c0, c3, k)``.
        y0: the start.
        s0: the argument at 0.
        nu: the order.

    Returns:
        ``(p, q)``.
    """
    c2, c1, _, _, k = coefficients
    # L_K(s0) = -nu - s0 K_{nu-1}/K_nu and L_I(s0) = nu + s0 I_{nu+1}/I_nu (recurrences): w0 then enters only
    # through c1 -+ k nu + 2 c2 y0, which the numerics compute without cancelling nu against w0
    p = (c1 - k * nu + 2 * c2 * y0) / k - s0 * sp.besselk(nu - 1, s0) / sp.besselk(nu, s0)
    q = (c1 + k * nu + 2 * c2 * y0) / k + s0 * sp.besseli(nu + 1, s0) / sp.besseli(nu, s0)
    return p, q


def stable_form(
    sigma: int,
    coefficients: tuple[sp.Expr, ...],
    ratios: tuple[sp.Expr, sp.Expr],
    s: sp.Expr,
    s0: sp.Expr,
    nu: sp.Expr,
) -> sp.Expr:
    """The stable form of the module docstring with the sign ``sigma`` (``+1`` or ``-1``), in ``besseli``,
    ``besselk`` of ``s`` and ``s0``.

    Arguments:
        sigma: ``+1`` or ``-1``.
        coefficients: ``(c2, c1, c0, c3, k)``.
        ratios: ``(p, q)`` (``start_ratios``).
        s: the argument at time t.
        s0: the argument at 0.
        nu: the order.

    Returns:
        y(t) in that form.
    """
    c2, c1, _, _, k = coefficients
    p, q = ratios
    bi, bk = sp.besseli, sp.besselk
    rho_I, rho_K = bi(nu, s) / bi(nu, s0), bk(nu, s) / bk(nu, s0)
    X = (p * rho_I * s * bi(nu + sigma, s) / bi(nu, s) + q * rho_K * s * bk(nu + sigma, s) / bk(nu, s)) / (
        p * rho_I - q * rho_K
    )
    return -((c1 + sigma * k * nu) + k * X) / (2 * c2)


def bessel_solution(
    rhs: sp.Expr,
    y: sp.Symbol,
    y0: sp.Expr,
    t: sp.Symbol,
    signs: Mapping[sp.Symbol, sp.Symbol] | None = None,
    tags: Mapping[str, str] | None = None,
) -> BesselSolution:
    """Derive the solution of ``y' = rhs = c2 y^2 + c1 y + c0 + c3 e^{k t}``, ``y(0) = y0``, through modified
    Bessel functions (module docstring), every step recorded and checked.

    Arguments:
        rhs: the right-hand side (``match_forcing`` must match it).
        y: the unknown.
        y0: its start.
        t: the time.
        signs: symbols of the coefficients mapped to symbols with their sign assumptions (e.g. a sum over the
            units of non-positive summands to a non-positive symbol), used to decide the sign of ``c2 c3``.
        tags: step keys -> paper equation numbers (``Derivation.tagged``).

    Returns:
        The ``BesselSolution``.

    Raises:
        ValueError: ``rhs`` is not of that form, or ``c2 c3 <= 0`` cannot be decided (the ordinary Bessel
            equation for ``c2 c3 > 0`` is not supported).
    """
    rhs, y0 = sp.sympify(rhs, strict=True), sp.sympify(y0, strict=True)
    found = match_forcing(rhs, y, t)
    if isinstance(found, str):
        raise ValueError(f"not a Riccati equation with exponential forcing in {y}: {found}")
    branch = forcing_branch(found, signs or {})
    if branch != "modified":
        raise ValueError(branch)
    c2, c1, c0, c3, k = found.c2, found.c1, found.c0, found.c3, found.k
    C2, C1, C0, C3, K = _C2, _C1, _C0, _C3, _K
    delta = C1**2 - 4 * C2 * C0
    facts = (K**2 * NU**2 - delta, K**2 * S0**2 + 4 * C2 * C3)
    d = Derivation(f"Riccati equation with exponential forcing for {y}")
    d.assumptions = (
        f"c2 = {c2} != 0",
        f"k = {k} != 0",
        "c2 c3 <= 0",
        "Delta = c1^2 - 4 c2 c0 >= 0 (a real order)",
        "phi has no zero on the trajectory (no blow-up)",
    )
    yt = sp.Function(str(y))(t)
    d.add(
        sp.Eq(sp.Derivative(yt, t), found.form(yt, t)),
        "the equation: a quadratic in y with coefficients free of t plus one exponential forcing (sympy.Poly)",
        residual=rhs - found.form(y, t),
        key="ode",
    )
    for symbol, value in zip((C2, C1, C0, C3, K), (c2, c1, c0, c3, k), strict=True):
        d.add(
            sp.Eq(symbol, value),
            "a coefficient, a symbol of the steps below (the checks hold for every value of it)",
            residual=sp.S.Zero,
            key="coefficients",
        )
    abstract = ForcingMatch(C2, C1, C0, C3, K)
    _linearization_steps(d, abstract, t)
    _bessel_steps(d, abstract, t, facts, signs_text=_branch_text(found, signs or {}))
    general, A, B = _general_solution_step(d, abstract, t, facts)
    solution, constants = _constants_steps(d, abstract, general, (A, B), t, facts)
    s_t = S0 * sp.exp(K * t / 2)
    at_E = {_E: sp.exp(K * t / 2)}
    in_model = {C2: c2, C1: c1, C0: c0, C3: c3, K: k, _Y0: y0}
    _stable_steps(d, (C2, C1, C0, C3, K), general, (A, B), constants, facts)
    unforced = riccati_solution(c2 * y**2 + c1 * y + c0, y, y0, t, signs=signs)
    d.steps.append(_unforced_case_step(rhs, unforced.rhs, c3))
    # the unforced case (c3 = 0) is a degenerate case of this equation: all of its steps are generic steps of the
    # Riccati method, its own ones (equation, coefficients, branch, closed form) included
    d.extend(replace(unforced.derivation, steps=[replace(s, method=RICCATI_METHOD) for s in unforced.derivation.steps]))
    definitions = {NU: sp.sqrt(found.c1**2 - 4 * c2 * c0) / sp.Abs(k), S0: 2 * sp.sqrt(-c2 * c3) / sp.Abs(k)}
    if tags:
        d = d.tagged(tags)
    return BesselSolution(
        y,
        rhs,
        t,
        y0,
        c2,
        c1,
        c0,
        c3,
        k,
        NU,
        S0,
        (S0 * sp.exp(k * t / 2)),
        tuple(sp.sympify(c).xreplace(in_model) for c in constants),
        (constants[0] * sp.besseli(NU, s_t) + constants[1] * sp.besselk(NU, s_t)).xreplace(in_model),
        solution.xreplace(at_E).xreplace(in_model),
        definitions,
        d,
        {sp.Eq(c3, 0): "unforced"},
        unforced,
    )


def _unforced_case_step(rhs: sp.Expr, unforced_rhs: sp.Expr, condition: sp.Expr) -> Step:
    """The degenerate case ``condition = 0`` (the forcing coefficient ``c3``) as a checked step: under it the
    equation's right-hand side ``rhs`` is the constant-coefficient one ``unforced_rhs``, whose solution the Riccati
    engine derives (its steps are appended after this one); proved modulo the condition.

    Arguments:
        rhs: the forced right-hand side ``c2 y^2 + c1 y + c0 + c3 e^{k t}``.
        unforced_rhs: ``c2 y^2 + c1 y + c0``.
        condition: the expression that vanishes in the case (``c3``).

    Returns:
        The step (key ``"case"``); its check fails unless ``rhs - unforced_rhs`` vanishes where ``condition`` does.
    """
    return Step(
        sp.Eq(condition, 0, evaluate=False),
        "case: without forcing the equation has constant coefficients (rhs - (c2 y^2 + c1 y + c0) vanishes modulo "
        "this condition): the Riccati engine's solution, whose steps follow, solves it (numerics.bessel evaluates "
        "it there)",
        residual=rhs - unforced_rhs,
        relations=(condition,),
        key="case",
    )


def _stable_steps(
    d: Derivation,
    coefficients: tuple[sp.Expr, ...],
    general: sp.Expr,
    symbols: tuple[sp.Symbol, sp.Symbol],
    constants: tuple[sp.Expr, sp.Expr],
    facts: tuple[sp.Expr, ...],
) -> None:
    """The stable forms (both signs) equal the general solution with ``A = K_nu(s0) p``, ``B = -I_nu(s0) q``, and
    the derived constants are proportional to those."""
    A, B = symbols
    I0, K0 = sp.besseli(NU, S0), sp.besselk(NU, S0)
    ratios = (A / K0, -B / I0)
    for sigma in (1, -1):
        form = stable_form(sigma, coefficients, ratios, S0 * _E, S0, NU)
        d.add(
            sp.Eq(sp.Symbol("y"), stable_form(sigma, coefficients, sp.symbols("p q"), sp.Symbol("s"), S0, NU)),
            f"stable form, sigma = {sigma:+d}: the general solution with A = K_nu(s0) p, B = -I_nu(s0) q, written "
            "through the log-derivatives and ratios of I_nu, K_nu (numerics.bessel)",
            verifier=lambda form=form: _reduced_zero(general - form, facts),
            key="stable",
        )
    p, q = start_ratios(coefficients, _Y0, S0, NU)
    names = sp.symbols("p q")
    for name, value in zip(names, (p, q), strict=True):
        d.add(
            sp.Eq(name, value),
            "a constant of the stable form, from the start: L(s0) - w0, w0 = -(2 c2 y0 + c1)/k",
            residual=sp.S.Zero,
            key="stable",
        )
    d.add(
        sp.Eq(B / A, -I0 * names[1] / (K0 * names[0])),
        "the stable form's constants: the derived (A, B) is proportional to (K_nu(s0) p, -I_nu(s0) q)",
        verifier=lambda: _reduced_zero(constants[0] * (-I0 * q) - constants[1] * (K0 * p), facts),
        key="stable",
    )


def forcing_branch(found: ForcingMatch, signs: Mapping[sp.Symbol, sp.Symbol]) -> str:
    """``"modified"`` if ``c2 c3 <= 0`` follows from the symbols' assumptions (with ``signs`` substituted), else the
    reason the equation is not solved here."""
    product = sp.factor(-found.c2 * found.c3).xreplace(dict(signs))
    if product.is_nonnegative:
        return "modified"
    if product.is_negative:
        return (
            f"c2 c3 = {sp.factor(found.c2 * found.c3)} > 0: the ordinary Bessel equation (J_nu, Y_nu oscillate, so "
            "the solution reaches a pole in finite time); not supported"
        )
    return f"the sign of c2 c3 = {sp.factor(found.c2 * found.c3)} is not decided by the symbols' assumptions"


def _branch_text(found: ForcingMatch, signs: Mapping[sp.Symbol, sp.Symbol]) -> str:
    named = ", ".join(f"{s} {'>= 0' if v.is_nonnegative else '<= 0'}" for s, v in signs.items() if v.is_real)
    return "-c2 c3 >= 0" + (f" ({named})" if named else "")


def _jets(expr: sp.Expr, f: sp.Expr, t: sp.Symbol, names: tuple[sp.Symbol, ...]) -> sp.Expr:
    """``expr`` with ``f``, ``f'``, ``f''`` replaced by the symbols ``names`` (highest derivative first)."""
    return expr.xreplace({sp.Derivative(f, (t, 2)): names[2], sp.Derivative(f, t): names[1]}).xreplace({f: names[0]})


def _linearization_steps(d: Derivation, found: ForcingMatch, t: sp.Symbol) -> None:
    """Steps 2 and 3: the linear second-order equation of ``phi`` and, with ``phi = e^{c1 t/2} psi``, of ``psi``."""
    c2, c1, c0, c3, k = found.c2, found.c1, found.c0, found.c3, found.k
    phi, psi = sp.Function("phi")(t), sp.Function("psi")(t)
    P = sp.symbols("P0:3")
    y_phi = -sp.diff(phi, t) / (c2 * phi)
    riccati_residual = sp.diff(y_phi, t) - found.form(y_phi, t)
    linear = sp.diff(phi, t, 2) - c1 * sp.diff(phi, t) + c2 * (c0 + c3 * sp.exp(k * t)) * phi
    d.add(
        sp.Eq(linear, 0),
        "y = -phi'/(c2 phi) (sympy.diff): the equation times -c2 phi is linear of second order in phi",
        residual=_jets(-c2 * phi * riccati_residual - linear, phi, t, P),
        key="linearize",
    )
    shifted = sp.exp(c1 * t / 2) * psi
    in_psi = linear.subs(phi, shifted).doit() / sp.exp(c1 * t / 2)
    delta = c1**2 - 4 * c2 * c0
    normal = sp.diff(psi, t, 2) - (delta / 4 - c2 * c3 * sp.exp(k * t)) * psi
    d.add(
        sp.Eq(normal, 0),
        "phi = e^{c1 t/2} psi removes the first derivative (Delta = c1^2 - 4 c2 c0)",
        residual=_jets(sp.expand(in_psi) - normal, psi, t, P),
        key="shift",
    )


def _bessel_steps(
    d: Derivation, found: ForcingMatch, t: sp.Symbol, facts: tuple[sp.Expr, ...], signs_text: str
) -> None:
    """Step 4 and 5: the change of variables to the modified Bessel equation, and its solutions I_nu, K_nu."""
    c2, c1, c0, c3, k = found.c2, found.c1, found.c0, found.c3, found.k
    s = sp.Symbol("s", positive=True)
    U = sp.symbols("U0:3")
    d.add(
        sp.Eq(k**2 * NU**2, c1**2 - 4 * c2 * c0),
        "the order nu >= 0 (a relation of the checks below)",
        residual=facts[0],
        relations=facts,
        key="order",
    )
    d.add(
        sp.Eq(k**2 * S0**2, -4 * c2 * c3),
        f"the argument's start s0 > 0, real since {signs_text}: the modified (not the ordinary) Bessel equation",
        residual=facts[1],
        relations=facts,
        key="branch",
    )
    s_t = S0 * sp.exp(k * t / 2)
    # psi(t) = u(s(t)): the chain rule with s'(t), s''(t) from sympy.diff
    psi_2 = U[2] * sp.diff(s_t, t) ** 2 + U[1] * sp.diff(s_t, t, 2)
    delta = c1**2 - 4 * c2 * c0
    in_t = psi_2 - (delta / 4 - c2 * c3 * sp.exp(k * t)) * U[0]
    in_s = sp.expand(4 / k**2 * in_t.subs(sp.exp(k * t / 2), s / S0))
    bessel = s**2 * U[2] + s * U[1] - (s**2 + NU**2) * U[0]
    d.add(
        sp.Eq(s**2 * sp.Symbol("u''") + s * sp.Symbol("u'") - (s**2 + NU**2) * sp.Symbol("u"), 0),
        "s = s0 e^{k t/2}, psi(t) = u(s) (chain rule, times 4/k^2): the modified Bessel equation of order nu",
        residual=in_s - bessel,
        relations=facts,
        key="bessel",
    )
    for f in _BESSEL:
        u = f(NU, s)
        d.add(
            sp.Eq(s**2 * sp.diff(u, s, 2) + s * sp.diff(u, s) - (s**2 + NU**2) * u, 0),
            f"{f.__name__}(nu, s) solves it (sympy.diff; orders reduced by the recurrences, sympy.expand_func)",
            verifier=lambda u=u: _reduced_zero(s**2 * sp.diff(u, s, 2) + s * sp.diff(u, s) - (s**2 + NU**2) * u, ()),
            key="bessel_solutions",
        )


def _general_solution_step(
    d: Derivation, found: ForcingMatch, t: sp.Symbol, facts: tuple[sp.Expr, ...]
) -> tuple[sp.Expr, sp.Symbol, sp.Symbol]:
    """Step 5, continued: y = -phi'/(c2 phi) with psi = A I_nu(s) + B K_nu(s) solves the Riccati equation for any
    constants A, B. Returns y in E = e^{kt/2} and the constants."""
    c2, c1, k = found.c2, found.c1, found.k
    A, B = sp.symbols("A B")
    phi = _F * (A * sp.besseli(NU, S0 * _E) + B * sp.besselk(NU, S0 * _E))
    general = sp.cancel(-_d_dt(phi, t, k, c1) / (c2 * phi))
    if _F in general.free_symbols:
        raise RuntimeError(f"e^(c1 t/2) does not cancel from -phi'/(c2 phi): {general}")
    residual = _d_dt(general, t, k, c1) - found.form(general, t).subs(sp.exp(k * t), _E**2)
    d.add(
        sp.Eq(
            sp.Function("y")(t),
            (-_d_dt(phi, t, k, c1) / (c2 * phi)).xreplace({_E: sp.exp(k * t / 2), _F: sp.exp(c1 * t / 2)}),
            evaluate=False,
        ),
        "general solution: phi = e^{c1 t/2} (A I_nu(s) + B K_nu(s)); it solves the Riccati equation for every A, B "
        "(checked with the relations of nu and s0)",
        verifier=lambda: _reduced_zero(residual, facts),
        key="general",
    )
    return general, A, B


def _constants_steps(
    d: Derivation,
    found: ForcingMatch,
    general: sp.Expr,
    constants: tuple[sp.Symbol, sp.Symbol],
    t: sp.Symbol,
    facts: tuple[sp.Expr, ...],
) -> tuple[sp.Expr, tuple[sp.Expr, sp.Expr]]:
    """Step 6: the ratio B/A from y(0) = y0 (sympy.solve, A = 1, then cleared of denominators), and the checks of
    the solution. Returns y (in E) and (A, B)."""
    A, B = constants
    at_start = general.xreplace({_E: sp.S.One, t: sp.S.Zero})
    ratios = sp.solve(at_start.xreplace({A: sp.S.One}) - _Y0, B)
    if len(ratios) != 1:
        raise RuntimeError(f"the initial condition gave {ratios} for B/A")
    numerator, denominator = sp.fraction(sp.together(ratios[0]))
    values = {A: denominator, B: numerator}
    d.add(
        sp.Eq(B / A, ratios[0]),
        "the constants from y(0) = y0 (sympy.solve; only the ratio B/A enters y)",
        verifier=lambda: _reduced_zero(at_start.xreplace({A: sp.S.One, B: ratios[0]}) - _Y0, facts),
        key="constants",
    )
    solution = general.xreplace(values)
    k = found.k
    independent = not set().union(*(sp.sympify(v).free_symbols for v in values.values())) & {t, _E}
    d.add(
        sp.Eq(sp.Function("y")(t), solution.xreplace({_E: sp.exp(k * t / 2)})),
        "check: the solution satisfies the equation (the general solution's identity, with constants free of t)",
        verifier=lambda: Proof(independent, "the general identity with constants free of t", True),
        key="verified",
    )
    d.add(
        sp.Eq(sp.Function("y")(0), _Y0),
        "check: the initial condition",
        verifier=lambda: _reduced_zero(solution.xreplace({_E: sp.S.One, t: sp.S.Zero}) - _Y0, facts),
        key="verified",
    )
    return solution, (denominator, numerator)
