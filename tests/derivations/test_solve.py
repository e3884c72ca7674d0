"""``derivations.solve``: each pipeline step on its own, every registered model's outcome, a user's model, and the
``Unsolved`` reasons. Expected values here are the spec's formulas (shared/spec/models-nam2025.md), typed in."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from derivations import models
from derivations.closed_form import ClosedForm, Unsolved
from derivations.model import Model, Quantity
from derivations.pipeline import classify, solve
from derivations.proof import prove_zero
from derivations.reduction import balanced_line, clock_reduction, invariant_subsets, linear_structure
from derivations.separable import implicit_solution

SCALAR = models.get("two_layer_scalar")
S, Z, theta = SCALAR.symbol("S"), SCALAR.symbol("Z"), SCALAR.symbol("theta")
a, b = SCALAR.symbol("a"), SCALAR.symbol("b")
a0, b0 = SCALAR.init_symbol("a"), SCALAR.init_symbol("b")
t, y = sp.Symbol("t", nonnegative=True), sp.Symbol("y", real=True)
NAMES = {"t": t, "clock": sp.Symbol("gamma", positive=True)}


def zero(expr: sp.Expr) -> bool:
    proof = prove_zero(expr)
    return proof.holds and proof.exact


def test_linear_structure_of_the_scalar_network() -> None:
    """The field is g A x with g = (S - theta)/Z up to the gcd's normalisation: g A = (S - theta)/Z [[0,1],[1,0]]."""
    structure = linear_structure(SCALAR)
    assert not isinstance(structure, str)
    gA = structure.g * structure.A + structure.C
    assert all(zero(e) for e in gA - (S - theta) / Z * sp.Matrix([[0, 1], [1, 0]]))
    assert sp.eye(2) == structure.L * structure.R
    assert sorted(structure.lam, key=str) == sorted(structure.A.eigenvals(), key=str)


def test_linear_structure_reasons() -> None:
    chain = linear_structure(models.get("deep_scalar_chain"))
    assert isinstance(chain, str) and "Jacobian depends on a1, a2, a3" in chain
    network = linear_structure(models.get("linear_network"))
    assert isinstance(network, str) and "depends on P_1_1" in network


def test_clock_reduction_reproduces_eqs_82_to_87() -> None:
    """theta = (Sigma0 + S0)/2 gamma - (Sigma0 - S0)/(2 gamma) and the Riccati equation eq 86-87, in the derived
    sums theta[+1] = sum (a0 + b0)^2/(4Z), theta[-1] = -sum (a0 - b0)^2/(4Z)."""
    reduction = clock_reduction(SCALAR, linear_structure(SCALAR), (), NAMES, {})
    assert not isinstance(reduction, str)
    by_name = {str(s): s for s in reduction.sums}
    plus, minus, start = by_name["theta[+1]"], by_name["theta[-1]"], by_name["theta(0)"]
    assert zero(reduction.sums[plus] - (a0 + b0) ** 2 / (4 * Z))
    assert zero(reduction.sums[minus] + (a0 - b0) ** 2 / (4 * Z))
    # the output's start, for the increment form, is the sum of the two
    assert zero(reduction.sums[start] - reduction.sums[plus] - reduction.sums[minus])
    g = reduction.y
    assert zero(reduction.rhs - (2 / Z) * g * (S - (plus * g + minus / g)))
    state = reduction.state["a"].xreplace(reduction.coordinates)
    assert zero(state - ((a0 + b0) / 2 * sp.sqrt(g) + (a0 - b0) / (2 * sp.sqrt(g))))
    assert all(c.proof.holds for c in reduction.derivation.check())


def test_invariant_subsets_drop_the_coordinate_outside_the_output_first() -> None:
    decay = models.get("two_layer_scalar_decay")
    structure = linear_structure(decay)
    first = invariant_subsets(decay, structure)[0]
    reduction = clock_reduction(decay, structure, first, NAMES, {})
    assert reduction.condition == (decay.init_symbol("a") - decay.init_symbol("b"),)
    assert classify(reduction.rhs, reduction.y, t) == "riccati"
    general = clock_reduction(decay, structure, (), NAMES, {})
    assert classify(general.rhs, general.y, t) == "time-dependent"


def test_balanced_line_of_the_chain_and_its_absence() -> None:
    line = balanced_line(models.get("deep_scalar_chain"), NAMES, {})
    assert not isinstance(line, str)
    s, lam, S_ = line.y, sp.Symbol("lam", positive=True), sp.Symbol("S", real=True)
    assert zero(line.rhs - lam * s**2 * (S_ - s**3))
    assert isinstance(balanced_line(SCALAR, NAMES, {}), str)


@pytest.mark.parametrize(
    ("rhs", "kind"),
    [
        (-(y**2) + 3 * y + 4, "riccati"),
        (2 * y, "riccati"),
        (y**2 * (1 - y**3), "separable"),
        (1 / y - y, "separable"),
        (sp.exp(-t) * y**2 + y, "time-dependent"),
        (sp.sqrt(y) + 1, "algebraic"),
        (sp.cbrt(y) + 1, "unsupported"),
        (sp.exp(y), "unsupported"),
    ],
)
def test_classification(rhs, kind) -> None:
    assert classify(rhs, y, t) == kind


def test_implicit_solution_of_a_separable_equation() -> None:
    """t(y) for y' = y^2 (c - y^3) over the reals (log, arctan; the cube root of c as a symbol): its derivative is
    1/G, and a wrong antiderivative (one partial fraction dropped, as sympy's ratint does) is caught."""
    c = sp.Symbol("c", positive=True)
    solution = implicit_solution(y**2 * (c - y**3), y, sp.Symbol("y_0"), t)
    assert all(x.proof.holds and x.proof.exact for x in solution.derivation.check())
    G = y**2 * (c - y**3)
    antiderivative = solution.antiderivative.xreplace({r: c ** sp.Rational(1, 3) for r in solution.radicals})
    # d/dy log|x| = 1/x on each interval: differentiate log x instead
    antiderivative = antiderivative.replace(sp.Abs, lambda x: x)
    assert zero(sp.diff(antiderivative, y) - 1 / G)
    assert any(isinstance(a, sp.atan) for a in sp.preorder_traversal(solution.antiderivative))
    dropped = antiderivative - sp.Add.make_args(sp.expand(antiderivative))[0]
    assert not zero(sp.diff(dropped, y) - 1 / G)


def test_implicit_solution_with_a_quadratic_factor_that_has_real_roots() -> None:
    """y' = y (S - y^2): the quadratic factor's real roots ±sqrt(S) are fixed points, and t(y) is real on every
    interval between fixed points, also beyond sqrt(S) where S - y^2 < 0 (log|S - y^2|, not log(S - y^2)): at
    S = 1, t from y0 to y against mpmath.quad of 1/G on (0.2, 0.7) and on (3, 1.5)."""
    import mpmath

    S = sp.Symbol("S", positive=True)
    G = y * (S - y**2)
    solution = implicit_solution(G, y, sp.Symbol("y_0"), t)
    assert set(solution.fixed_points) == {0, sp.sqrt(S), -sp.sqrt(S)}
    assert all(x.proof.holds and x.proof.exact for x in solution.derivation.check())
    F = sp.lambdify(y, solution.antiderivative.subs(S, 1), "mpmath")
    with mpmath.workdps(30):
        for start, end in (("0.2", "0.7"), ("3", "1.5")):
            start, end = mpmath.mpf(start), mpmath.mpf(end)
            elapsed = F(end) - F(start)
            assert isinstance(elapsed, mpmath.mpf), elapsed  # real, not complex
            expected = mpmath.quad(lambda v: 1 / (v * (1 - v**2)), [start, end])
            assert abs(elapsed - expected) <= mpmath.mpf(10) ** -25 * abs(expected)


def test_every_registered_model_is_solved_or_says_why() -> None:
    expected_unsolved = {"power_activation": "one clock per unit"}
    for name in models.names():
        result = solve(name)
        if name == "linear_network":  # solved on the aligned set only (derivations.modes); the general reason kept
            assert isinstance(result, ClosedForm) and "not (g A + C) x" in result.general.reason, (name, result)
        elif name in expected_unsolved:
            assert isinstance(result, Unsolved) and expected_unsolved[name] in result.reason, (name, result)
            assert result.derivation.by_key("flow"), "the steps reached so far are kept"
        else:
            assert isinstance(result, ClosedForm), (name, result)


def test_solve_never_returns_a_failing_derivation() -> None:
    for name in ("two_layer_scalar", "deep_scalar_chain", "two_layer_scalar_decay"):
        checks = solve(name).derivation.check()
        assert checks and all(c.proof.holds and c.proof.exact for c in checks)


def test_conditions_and_reasons_of_the_new_models() -> None:
    chain = solve("deep_scalar_chain")
    # solved from every start by elimination through the laws a1^2 - a2^2, a1^2 - a3^2 (no longer on the
    # balanced line only: tests/derivations/test_elimination.py)
    assert chain.condition == () and chain.general is None
    assert "elimination of a2, a3" in chain.notes[0]
    # weight decay: the shared clock's equation has the forcing theta[-1] e^{-4 mu t}, solved from every start by
    # modified Bessel functions (tests/derivations/test_forced_riccati.py, tests/numerics/test_bessel.py)
    decay = solve("two_layer_scalar_decay")
    assert decay.condition == () and decay.general is None
    assert [type(c).__name__ for c in decay.clocks.values()] == ["BesselSolution"]


def chain_model() -> Model:
    """A user's three-layer chain f = a b c x, written from scratch (not registered)."""
    s_a, s_b, s_c = sp.symbols("a b c", real=True)
    return Model(
        name="users_chain",
        title="three-layer scalar chain",
        reference="a user's model",
        state_names=("a", "b", "c"),
        unit_param_names=(),
        shared_param_names=("S",),
        network=lambda s, x: sum(ai * bi * ci for ai, bi, ci in zip(s["a"], s["b"], s["c"], strict=True)) * x[0],
        target=lambda s, x: s["S"] * x[0],
        moment=lambda s, i, j: sp.S.One,
        input_dim=lambda p: 1,
        quantities={"theta": Quantity("sum", s_a * s_b * s_c, "output")},
        domains={"S": "positive"},
    )


def test_a_users_coupled_chain_is_unsolved_with_reasons() -> None:
    result = solve(chain_model())
    assert isinstance(result, Unsolved)
    assert "Jacobian depends on" in result.reason and "couple through sums" in result.reason


def test_variants_are_derived_anew() -> None:
    """dataclasses.replace gives a new model with its own derivation: E x^2 = 3 triples the clock's rate."""
    variant = dataclasses.replace(SCALAR, moment=lambda s, i, j: sp.Integer(3))
    rhs, original = solve(variant).clocks, solve(SCALAR).clocks
    (_, mine), (_, theirs) = next(iter(rhs.items())), next(iter(original.items()))
    assert zero(mine.rhs - 3 * theirs.rhs)
