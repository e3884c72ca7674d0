"""Derived flows, conservation, the Riccati engine's branches and the SymPy bugs we route around.

Expected values are the spec's printed formulas (models-nam2025.md §1, §2, §5), typed here.
"""

from __future__ import annotations

import pytest
import sympy as sp

from derivations import models, riccati_solution
from derivations.proof import prove_zero

t = sp.Symbol("t")


@pytest.mark.parametrize("p", [1, 2, 4])
def test_two_layer_scalar_flow_is_eq77(p: int) -> None:
    inst = models.get("two_layer_scalar").instance(p)
    S, Z = inst.sym["S"], inst.sym["Z"]
    theta = sum(a * b for a, b in zip(inst.sym["a"], inst.sym["b"], strict=True)) / Z
    for i in range(p):
        a, b = inst.sym["a"][i], inst.sym["b"][i]
        assert sp.simplify(inst.vector_field[a] - b * (S - theta) / Z) == 0
        assert sp.simplify(inst.vector_field[b] - a * (S - theta) / Z) == 0


@pytest.mark.parametrize("p", [1, 3])
def test_diagonal_flow_is_eq6_and_linear_flow_is_eq7(p: int) -> None:
    inst = models.get("diagonal_linear_network").instance(p)
    lin = models.get("linear_model").instance(p)
    for i in range(p):
        a, b, S, lam = (inst.sym[k][i] for k in ("a", "b", "S", "lam"))
        assert sp.expand(inst.vector_field[a] - b * lam * (S - a * b)) == 0
        assert sp.expand(inst.vector_field[b] - a * lam * (S - a * b)) == 0
        th, S, lam = (lin.sym[k][i] for k in ("theta", "S", "lam"))
        assert sp.expand(lin.vector_field[th] - lam * (S - th)) == 0


def test_unit_field_matches_every_unit_of_the_explicit_model() -> None:
    model = models.get("two_layer_scalar")
    inst = model.instance(3)
    theta = inst.quantity("theta")
    for i in range(3):
        rename = {v: k for k, v in inst.unit_renaming(i).items()}
        for sym, expr in model.unit_field.items():
            explicit = inst.vector_field[rename[sym]]
            generic = expr.xreplace(rename).subs(model.symbol("theta"), theta)
            assert sp.simplify(explicit - generic) == 0


def test_conserved_quantities_and_a_non_law() -> None:
    inst = models.get("two_layer_scalar").instance(3)
    a, b = inst.sym["a"], inst.sym["b"]
    for i in range(3):
        assert inst.verify_conserved(a[i] ** 2 - b[i] ** 2).holds
    assert not inst.verify_conserved(a[0] ** 2 + b[0] ** 2).holds
    assert not inst.verify_conserved(a[0] * b[0]).holds


def test_ntk_of_the_scalar_network() -> None:
    inst = models.get("two_layer_scalar").instance(2)
    x, xp = sp.Symbol("x_1", real=True), sp.Symbol("x_1'", real=True)
    expected = sum(a**2 + b**2 for a, b in zip(inst.sym["a"], inst.sym["b"], strict=True)) * x * xp / inst.sym["Z"] ** 2
    assert sp.simplify(inst.ntk() - expected) == 0


@pytest.mark.parametrize(
    ("coefficients", "branch"),
    [
        ((-1, 2, 1, 1), "generic"),
        ((sp.Rational(1, 3), -2, 1, 0), "generic"),
        ((0, -2, 3, 1), "linear"),
        ((0, 2, 3, 1), "linear"),
        ((0, 0, 3, 1), "constant-rate"),
        ((-1, 2, -1, 3), "double-root"),
        ((-1, 2, -1, 1), "fixed-point"),
    ],
)
def test_riccati_branches_satisfy_the_ode(coefficients: tuple, branch: str) -> None:
    c2, c1, c0, y0 = coefficients
    sol = riccati_solution(c2, c1, c0, y0, t)
    assert sol.branch == branch
    y = sol.solution
    assert sp.simplify(sp.diff(y, t) - (c2 * y**2 + c1 * y + c0)) == 0
    assert sp.simplify(y.subs(t, 0) - y0) == 0
    assert all(c.proof.holds and c.proof.exact for c in sol.derivation.check())


def test_riccati_generic_matches_the_logistic_by_hand() -> None:
    S, x0 = sp.symbols("S x0", positive=True)
    sol = riccati_solution(-2, 2 * S, 0, x0, t, branch="generic")
    logistic = S * x0 * sp.exp(2 * S * t) / (S + x0 * sp.exp(2 * S * t) - x0)
    assert prove_zero(sol.solution - logistic).holds


def test_negative_discriminant_is_rejected() -> None:
    with pytest.raises(ValueError, match="discriminant"):
        riccati_solution(1, 0, 1, 0, t)


def test_prove_zero_methods_and_failure() -> None:
    S, S0, k = sp.symbols("S S0 k")
    r = sp.sqrt(S**2 - S0**2)
    assert prove_zero(sp.diff(sp.exp(-k * t), t) + k * sp.exp(-k * t)).method == "rational identity"
    assert prove_zero((S + r) * (S - r) - S0**2).method == "Gröbner normal form"
    assert not prove_zero((S + r) * (S - r) - S0).holds


def test_derivations_of_all_models_check_exactly() -> None:
    for name in models.names():
        checks = models.get(name).closed_form.derivation.check()
        assert checks and all(c.proof.holds and c.proof.exact for c in checks), name
    latex = models.get("two_layer_scalar").closed_form.derivation.latex()
    assert latex.startswith("\\begin{align}") and all(f"\\tag{{{tag}}}" in latex for tag in ("74", "76", "96"))


def test_unknown_model_name() -> None:
    with pytest.raises(ValueError, match="unknown model"):
        models.get("three_layer_magic")


@pytest.mark.xfail(strict=True, reason="sympy 1.14 regression (sympy#29081): integrate(1/quadratic) is 0")
def test_sympy_integrate_quadratic_with_positive_symbols() -> None:
    y = sp.Symbol("y")
    S, S0 = sp.symbols("S S0", positive=True)
    assert sp.integrate(1 / (y**2 - 2 * S * y + S0**2), y) != 0


@pytest.mark.xfail(strict=True, reason="sympy 1.14 dsolve returns [] for the coupled two-layer system (#11968)")
def test_sympy_dsolve_coupled_system() -> None:
    a, b = sp.Function("a"), sp.Function("b")
    S = sp.Symbol("S")
    eqs = [sp.Eq(a(t).diff(t), b(t) * (S - a(t) * b(t))), sp.Eq(b(t).diff(t), a(t) * (S - a(t) * b(t)))]
    assert sp.dsolve(eqs, [a(t), b(t)]) != []
