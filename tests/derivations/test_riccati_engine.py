"""The Riccati engine ``riccati_solution``: every branch solves its ODE and initial condition (checked here
with ``sympy.diff`` + ``simplify``/``cancel``, independently of the derivation's own check), its recorded
derivation re-checks, a negative discriminant is rejected, and the generic branch agrees with ``dsolve``
where ``dsolve`` works (the logistic equation with hint 'Bernoulli', tooling notes §1)."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from derivations import riccati_solution
from derivations.riccati import ALPHA, BETA

t = sp.Symbol("t", nonnegative=True)
Y = sp.Symbol("y", real=True)
R = sp.Rational


def solve_q(c2: object, c1: object, c0: object, y0: object):
    """The engine on y' = c2 y^2 + c1 y + c0 (it takes the model's right-hand side as a polynomial in y)."""
    return riccati_solution(sp.sympify(c2) * Y**2 + sp.sympify(c1) * Y + sp.sympify(c0), Y, y0, t)


def ode_residual(solution: sp.Expr, c2: sp.Expr, c1: sp.Expr, c0: sp.Expr) -> sp.Expr:
    return sp.diff(solution, t) - (c2 * solution**2 + c1 * solution + c0)


def vanishes(expr: sp.Expr) -> bool:
    """Our own exact check: exp(.) -> symbols (with the chain rule already applied by diff), then cancel;
    sympy.simplify as a fallback."""
    expr = sp.sympify(expr)
    exps = sorted(expr.atoms(sp.exp), key=sp.default_sort_key)
    replaced = expr.xreplace({e: sp.Dummy(f"E{i}", positive=True) for i, e in enumerate(exps)})
    return sp.cancel(sp.together(replaced)) == 0 or sp.simplify(expr) == 0


def assert_solves(sol, c2, c1, c0, y0) -> None:
    assert vanishes(ode_residual(sol.solution, c2, c1, c0)), sol.solution
    assert sp.simplify(sol.solution.subs(t, 0) - y0) == 0
    checks = sol.derivation.check()
    assert checks, "the derivation records steps"
    for c in checks:
        assert c.proof.holds and c.proof.exact, (c.step.justification, c.proof)


# (c2, c1, c0, y0, expected branch, the solution by hand)
BRANCH_CASES = {
    # y' = -(y - 4)(y + 1), y(0) = 0: k = 5, kappa = (0-4)/(0+1) = -4: y = (4 - 4 e^{-5t}) / (1 + 4 e^{-5t})
    "generic": (-1, 3, 4, 0, "generic", (4 - 4 * sp.exp(-5 * t)) / (1 + 4 * sp.exp(-5 * t))),
    # logistic x' = 2x(3 - x), x(0) = 1/2: 3 / (1 + 5 e^{-6t})
    "logistic": (-2, 6, 0, R(1, 2), "generic", 3 / (1 + 5 * sp.exp(-6 * t))),
    # c2 > 0: y' = (y - 1)(y - 3) = y^2 - 4y + 3, y(0) = 0 -> attracted to 1: y = (3 - 3 e^{-2t})/(3 - e^{-2t})
    "generic, c2 > 0": (1, -4, 3, 0, "generic", (3 - 3 * sp.exp(-2 * t)) / (3 - sp.exp(-2 * t))),
    # c2 = 0: y' = -2y + 3, y(0) = 5: 3/2 + 7/2 e^{-2t}
    "linear, decaying": (0, -2, 3, 5, "linear", R(3, 2) + R(7, 2) * sp.exp(-2 * t)),
    # c2 = 0, c1 > 0 (repelling): y' = 2y + 3: -3/2 + 13/2 e^{2t}
    "linear, growing": (0, 2, 3, 5, "linear", -R(3, 2) + R(13, 2) * sp.exp(2 * t)),
    "constant rate": (0, 0, 3, 5, "constant-rate", 5 + 3 * t),
    # double root at 1: y' = -(y-1)^2, y(0) = 3: 1 + 2/(1 + 2t)
    "double root": (-1, 2, -1, 3, "double-root", 1 + 2 / (1 + 2 * t)),
    "fixed point (attracting root)": (-1, 3, 4, 4, "fixed-point", sp.Integer(4)),
    "fixed point (repelling root)": (-1, 3, 4, -1, "fixed-point", sp.Integer(-1)),
    "fixed point (double root)": (-1, 2, -1, 1, "fixed-point", sp.Integer(1)),
}


@pytest.mark.parametrize("case", list(BRANCH_CASES))
def test_every_branch_solves_the_ode(case) -> None:
    c2, c1, c0, y0, branch, by_hand = BRANCH_CASES[case]
    sol = solve_q(c2, c1, c0, y0)
    assert sol.branch == branch
    assert_solves(sol, c2, c1, c0, y0)
    assert vanishes(sol.solution - by_hand), (sol.solution, by_hand)
    assert sol(0) == sp.sympify(y0) or sp.simplify(sol(0) - y0) == 0


def test_symbolic_linear_and_constant_branches() -> None:
    lam, S, theta0 = sp.Symbol("lam", positive=True), sp.Symbol("S", real=True), sp.Symbol("theta_0", real=True)
    sol = solve_q(0, -lam, lam * S, theta0)
    assert sol.branch == "linear"
    assert_solves(sol, 0, -lam, lam * S, theta0)
    assert vanishes(sol.solution - (S + (theta0 - S) * sp.exp(-lam * t)))  # eq 10
    c0 = sp.Symbol("c0", real=True)
    sol = solve_q(0, 0, c0, theta0)
    assert sol.branch == "constant-rate"
    assert sp.expand(sol.solution - (theta0 + c0 * t)) == 0


def test_symbolic_generic_branch() -> None:
    """Fully symbolic coefficients: check with k = sqrt(Delta) as a symbol and reduce modulo k^2 - Delta."""
    c2, c1, c0, y0 = sp.symbols("c2 c1 c0 y0", real=True)
    sol = solve_q(c2, c1, c0, y0)
    assert sol.branch == "generic"
    for c in sol.derivation.check():
        assert c.proof.holds and c.proof.exact, (c.step.justification, c.proof)
    delta = c1**2 - 4 * c2 * c0
    K, E = sp.symbols("K E", positive=True)
    with_k = sol.solution.xreplace({sp.sqrt(delta): K})
    assert not with_k.has(sp.sqrt(delta))
    with_e = with_k.xreplace({sp.exp(-K * t): E})
    assert not with_e.has(t), "y depends on t only through e^{-kt}"
    derivative = sp.diff(with_e, E) * (-K * E)  # chain rule: dE/dt = -K E
    residual = sp.numer(sp.together(derivative - (c2 * with_e**2 + c1 * with_e + c0)))
    assert sp.rem(sp.expand(residual), K**2 - delta, K) == 0
    assert sp.cancel(with_e.subs(E, 1) - y0) == 0
    # the roots: r+ is attracting (slope -k), r- repelling (slope +k)
    rp, rm = sol.definitions[sol.r_plus], sol.definitions[sol.r_minus]
    for root, slope in ((rp, -1), (rm, 1)):
        r = root.xreplace({sp.sqrt(delta): K})
        assert sp.rem(sp.numer(sp.together(c2 * r**2 + c1 * r + c0)), K**2 - delta, K) == 0
        assert sp.rem(sp.numer(sp.together(2 * c2 * r + c1 - slope * K)), K**2 - delta, K) == 0


def stable_as_function(sol, c2, c1, c0):
    """The numerically stable Möbius form with alpha = (k + c1)/2, beta = (k - c1)/2, phi1 expanded."""
    k = sp.sqrt(c1**2 - 4 * c2 * c0)
    expr = sol.stable.xreplace({ALPHA: (k + c1) / 2, BETA: (k - c1) / 2, sol.k: k})
    return expr.rewrite(sp.exp)


@pytest.mark.parametrize("case", ["generic", "logistic", "generic, c2 > 0"])
def test_stable_form_equals_the_solution(case) -> None:
    c2, c1, c0, y0, _, by_hand = BRANCH_CASES[case]
    sol = solve_q(c2, c1, c0, y0)
    assert vanishes(stable_as_function(sol, c2, c1, c0) - by_hand)
    # alpha * beta = -c2 c0 (the identity the numerics use to avoid cancellation)
    k = sp.sqrt(c1**2 - 4 * c2 * c0)
    assert sp.expand((k + c1) / 2 * (k - c1) / 2 + c2 * c0) == 0


GENERIC_CASES = {
    "c2": st.integers(-4, 4).filter(bool),
    "roots": st.tuples(st.integers(-6, 6), st.integers(-6, 6)),
    "y0_offset": st.integers(1, 5),
}


# each example derives and lambdifies a solution (about 0.5 s): a few in the default suite, many in the slow step
@settings(max_examples=8)
@given(**GENERIC_CASES)
def test_generic_branch_numerically_on_rational_coefficients(c2, roots, y0_offset) -> None:
    """Random integer roots u < v: the solution (and the stable form) satisfy the ODE at 40 digits."""
    check_generic_branch(c2, roots, y0_offset)


@pytest.mark.slow
@settings(max_examples=60)
@given(**GENERIC_CASES)
def test_generic_branch_numerically_on_rational_coefficients_many(c2, roots, y0_offset) -> None:
    check_generic_branch(c2, roots, y0_offset)


def check_generic_branch(c2: int, roots: tuple[int, int], y0_offset: int) -> None:
    u, v = sorted(roots)
    assume(u < v)
    c1, c0 = -c2 * (u + v), c2 * u * v
    repelling = u if c2 < 0 else v
    y0 = repelling + y0_offset if c2 < 0 else repelling - y0_offset
    assume(y0 not in (u, v))
    sol = solve_q(c2, c1, c0, y0)
    assert sol.branch == "generic"
    residual = ode_residual(sol.solution, c2, c1, c0)
    f = sp.lambdify(t, residual, "mpmath")
    y = sp.lambdify(t, sol.solution, "mpmath")
    stable = sp.lambdify(t, stable_as_function(sol, c2, c1, c0), "mpmath")
    with mpmath.workdps(40):
        assert abs(y(mpmath.mpf(0)) - y0) < mpmath.mpf(10) ** -35
        for time in ("0.01", "0.3", "1", "4"):
            assert abs(f(mpmath.mpf(time))) < mpmath.mpf(10) ** -30
            assert abs(stable(mpmath.mpf(time)) - y(mpmath.mpf(time))) < mpmath.mpf(10) ** -30
        # and y -> the attracting root
        attracting = v if c2 < 0 else u
        assert abs(y(mpmath.mpf(60)) - attracting) < mpmath.mpf(10) ** -10


@pytest.mark.parametrize(("c2", "c1", "c0"), [(1, 0, 1), (1, 2, 3), (-1, 1, -1), (R(1, 2), 1, 1)])
def test_negative_discriminant_is_rejected(c2, c1, c0) -> None:
    with pytest.raises(ValueError, match="discriminant"):
        solve_q(c2, c1, c0, 0)


@pytest.mark.parametrize("rhs", [Y**3 - Y, t * Y**2 + 1, sp.sqrt(Y)])
def test_a_right_hand_side_that_is_not_riccati_is_rejected(rhs) -> None:
    with pytest.raises(ValueError, match="Riccati"):
        riccati_solution(rhs, Y, 0, t)


def test_generic_solution_agrees_with_dsolve_bernoulli() -> None:
    """Logistic x' = 2x(S - x) at S = 3, x(0) = 1/2: dsolve(hint='Bernoulli') then fit C1 to x(0)."""
    x = sp.Function("x")
    ode = sp.Eq(x(t).diff(t), 2 * x(t) * (3 - x(t)))
    general = sp.dsolve(ode, x(t), hint="Bernoulli")
    assert sp.checkodesol(ode, general)[0]
    (C1,) = general.rhs.free_symbols - {t}
    constant = sp.solve(sp.Eq(general.rhs.subs(t, 0), R(1, 2)), C1)
    assert len(constant) == 1
    reference = general.rhs.subs(C1, constant[0])
    ours = solve_q(-2, 6, 0, R(1, 2)).solution
    assert sp.simplify(ours - reference) == 0
    # and the package's double-root branch against dsolve's separable answer
    y = sp.Function("y")
    ode = sp.Eq(y(t).diff(t), -((y(t) - 1) ** 2))
    general = sp.dsolve(ode, y(t), hint="separable")
    general = general[0] if isinstance(general, list) else general
    (C1,) = general.free_symbols - {t}
    solved = sp.solve(general.subs(y(t), sp.Symbol("Y")), sp.Symbol("Y"))
    candidates = [s.subs(C1, c) for s in solved for c in sp.solve(sp.Eq(s.subs(t, 0), 3), C1)]
    ours = solve_q(-1, 2, -1, 3).solution
    assert any(sp.simplify(ours - c) == 0 for c in candidates)
