"""Regression tests for the SymPy 1.14 bugs that ``derivations`` routes around (tooling notes §1).

Each test asserts the CORRECT behaviour and is ``xfail(strict=True)``: it turns red when upstream fixes
the bug, which is the signal to revisit the work-around (and the ``sympy<1.15`` bound in pyproject.toml).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import sympy as sp

t = sp.Symbol("t")
SYMPY_1_14 = sp.__version__.startswith("1.14")


def test_sympy_version_is_the_one_these_regressions_describe() -> None:
    major, minor = (int(v) for v in sp.__version__.split(".")[:2])
    assert (major, minor) in ((1, 13), (1, 14))


def test_logistic_dsolve_with_bernoulli_hint_is_correct() -> None:
    """The control: the path the engine is cross-checked against does work (tooling notes §1, row (b))."""
    x = sp.Function("x")
    S = sp.Symbol("S", positive=True)
    ode = sp.Eq(x(t).diff(t), 2 * x(t) * (S - x(t)))
    assert sp.checkodesol(ode, sp.dsolve(ode, x(t), hint="Bernoulli"))[0]


@pytest.mark.xfail(
    SYMPY_1_14,  # sympy 1.13.3 returns the correct log form
    strict=True,
    reason="sympy#29081: integrate(1/(y**2-2*S*y+S0**2), y) returns 0 for positive S, S0 in sympy 1.14 "
    "(fixed by PR #28189, not released)",
)
def test_integrate_reciprocal_quadratic_with_positive_symbols() -> None:
    y = sp.Symbol("y")
    S, S0 = sp.symbols("S S0", positive=True)
    integrand = 1 / (y**2 - 2 * S * y + S0**2)
    antiderivative = sp.integrate(integrand, y)
    assert antiderivative != 0
    assert sp.simplify(sp.diff(antiderivative, y) - integrand) == 0


@pytest.mark.xfail(
    strict=True,
    reason="dsolve of g' = -k (g^2 - 2 S g + S0^2) with positive symbols returns Eq(0, C1 + k*t) "
    "(a consequence of sympy#29081)",
)
def test_dsolve_expanded_riccati_with_positive_symbols() -> None:
    g = sp.Function("g")
    S, S0, k = sp.symbols("S S0 k", positive=True)
    ode = sp.Eq(g(t).diff(t), -k * (g(t) ** 2 - 2 * S * g(t) + S0**2))
    solution = sp.dsolve(ode, g(t))
    assert sp.checkodesol(ode, solution)[0]


@pytest.mark.xfail(
    strict=True,
    reason="dsolve hint '1st_rational_riccati' returns x = 1/S for x' = 2x(S - x) with S positive "
    "(sympy#19183 family; PR #30512)",
)
def test_rational_riccati_hint_on_logistic() -> None:
    x = sp.Function("x")
    S = sp.Symbol("S", positive=True)
    ode = sp.Eq(x(t).diff(t), 2 * x(t) * (S - x(t)))
    solution = sp.dsolve(ode, x(t), hint="1st_rational_riccati")
    assert sp.checkodesol(ode, solution)[0]


@pytest.mark.xfail(
    strict=True,
    raises=ValueError,
    reason="dsolve cannot apply ics to g' = -k (g - g+)(g - g-): 'Couldn't solve for initial conditions' "
    "(sympy#15724, #16880, #26595)",
)
def test_dsolve_factored_riccati_with_initial_condition() -> None:
    g = sp.Function("g")
    k = sp.Symbol("k", positive=True)
    gp, gm, g0 = sp.symbols("g_p g_m g_0", real=True)
    ode = sp.Eq(g(t).diff(t), -k * (g(t) - gp) * (g(t) - gm))
    solution = sp.dsolve(ode, g(t), ics={g(0): g0})
    assert sp.checkodesol(ode, solution)[0]
    assert sp.simplify(solution.rhs.subs(t, 0) - g0) == 0


COUPLED_SYSTEM = """
import sympy as sp
t = sp.Symbol("t")
a, b = sp.Function("a"), sp.Function("b")
S = sp.Integer(1)
system = [
    sp.Eq(a(t).diff(t), sp.expand(b(t) * (S - a(t) * b(t)))),
    sp.Eq(b(t).diff(t), sp.expand(a(t) * (S - a(t) * b(t)))),
]
solution = sp.dsolve(system, [a(t), b(t)])
solved = solution != [] and bool(sp.checkodesol(system, solution)[0])
print("SOLVED" if solved else "UNSOLVED", solution)
"""


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True,
    reason="dsolve of the coupled system a' = b (S - ab), b' = a (S - ab) returns [] without raising "
    "(_nonlinear_2eq_order1_type3; sympy#11968, #13060), or, for some hash seeds, does not return at all",
)
def test_dsolve_coupled_two_layer_system() -> None:
    """Run in a subprocess with a fixed hash seed and a timeout: in sympy 1.14 this dsolve returns [] in
    ~3 s for PYTHONHASHSEED=0 but is still running after 40 s for PYTHONHASHSEED=1, 2 or 11, which
    would hang the whole test session."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    try:
        run = subprocess.run(
            [sys.executable, "-c", COUPLED_SYSTEM], capture_output=True, text=True, timeout=30, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail("dsolve did not return within 30 s")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("SOLVED"), run.stdout


@pytest.mark.xfail(
    SYMPY_1_14,
    strict=True,
    reason="SymPy 1.14 returns 0 for the derivative of a sum of traces with respect to a matrix symbol; "
    "derivations.matrix_flow differentiates each trace separately",
)
def test_derivative_of_a_sum_of_traces() -> None:
    d, p, c = sp.symbols("d p c", integer=True, positive=True)
    W1, W2 = sp.MatrixSymbol("W1", d, p), sp.MatrixSymbol("W2", p, c)
    Sxy = sp.MatrixSymbol("Sxy", d, c)
    first, second = sp.Trace(W2.T * W1.T * Sxy), sp.Trace(W2.T * W1.T * W1 * W2)
    assert first.diff(W1) != 0
    assert sp.expand((first + second).diff(W1) - first.diff(W1) - second.diff(W1)) == 0


# --- issue 22: the SymPy behaviours behind the two crashes of solve() (derivations/proof.py, separable.py) ------


@pytest.mark.xfail(
    strict=True,
    raises=sp.polys.polyerrors.CoercionFailed,
    reason="GroebnerBasis.reduce converts its argument to the basis' domain, ZZ for integer relations, and a "
    "coefficient 1/2 raises CoercionFailed; prove_zero builds the basis over a field holding the numerator too",
)
def test_groebner_basis_over_the_integers_reduces_a_rational_polynomial() -> None:
    r, x = sp.symbols("r x")
    basis = sp.groebner([r**2 - 2], r, x, order="grevlex")
    assert basis.reduce(x * r**2 / 2 - x)[1] == 0


def test_groebner_basis_over_the_field_reduces_a_rational_polynomial() -> None:
    """The control: the route prove_zero takes (the domain of the numerator and the relations, as a field)."""
    r, x = sp.symbols("r x")
    _, options = sp.parallel_poly_from_expr([x * r**2 / 2 - x, r**2 - 2], r, x)
    basis = sp.groebner([r**2 - 2], r, x, order="grevlex", domain=options.domain.get_field())
    assert basis.reduce(x * r**2 / 2 - x)[1] == 0
    assert basis.reduce(x * r**2 / 2 - x / 3)[1] != 0


@pytest.mark.xfail(
    strict=True,
    reason="factor_list in one generator with symbolic coefficients does not factor over the algebraic numbers "
    "in them: extension=True leaves (x - sqrt(2) a)(x + a) whole, extension=sqrt(2) raises CoercionFailed (or "
    "TypeError from pslq on larger coefficients); separable._factors takes every symbol as a generator",
)
def test_factor_list_in_one_generator_over_the_algebraic_numbers() -> None:
    x, a = sp.symbols("x a")
    expr = sp.expand((x - sp.sqrt(2) * a) * (x + a))
    for extension in (True, sp.sqrt(2)):
        try:
            factors = sp.factor_list(expr, x, extension=extension)[1]
        except (sp.polys.polyerrors.CoercionFailed, TypeError):
            factors = []
        assert len(factors) == 2, (extension, factors)


def test_factor_list_in_every_generator_over_the_algebraic_numbers() -> None:
    """The control: with every symbol a generator, extension=True splits it. Without the extension sqrt(2) is one
    more indeterminate: (x - sqrt(2) a)(x + a) still splits, but x**2 - 2 sqrt(2) x + 2 = (x - sqrt(2))**2 needs
    sqrt(2)**2 = 2 and stays whole."""
    x, a = sp.symbols("x a")
    assert len(sp.factor_list(sp.expand((x - sp.sqrt(2) * a) * (x + a)), extension=True)[1]) == 2
    square = sp.expand((x - sp.sqrt(2)) ** 2)
    assert sp.factor_list(square, extension=True)[1] == [(x - sp.sqrt(2), 2)]
    assert sp.factor_list(square)[1] == [(square, 1)]


@pytest.mark.xfail(
    strict=True,
    reason="apart leaves 1/((y - S)(y**2 - 2 sqrt(2) y + 2)) whole (not even y - S is split off), also with "
    "extension=True; separable._partial_fractions runs apart's steps over QQ<sqrt(2)>[S]",
)
def test_apart_over_the_algebraic_numbers_in_the_coefficients() -> None:
    y, S = sp.symbols("y S")
    expr = 1 / sp.expand((y - S) * (y - sp.sqrt(2)) ** 2)
    for options in ({}, {"extension": True}):
        assert len(sp.Add.make_args(sp.apart(expr, y, **options))) == 3, options
