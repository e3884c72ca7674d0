"""Matrix networks reduced to modes (derivations.modes): the product structure read off the derived field, the
whitening requirement, and the aligned-set derivation, each step exact; wrong variants are refuted."""

from __future__ import annotations

import pytest
import sympy as sp

from derivations import solve
from derivations.closed_form import ClosedForm, Unsolved
from derivations.models.linear_network import linear_network
from derivations.modes import product_structure
from derivations.proof import prove_zero

SIZES = [(2, 2), (3, 2)]


@pytest.mark.parametrize(("d", "c"), SIZES)
def test_structure_of_linear_network(d: int, c: int) -> None:
    model = linear_network(d, c)
    structure = product_structure(model)
    assert not isinstance(structure, str), structure
    assert structure.first == model.matrix_states["W1"] and structure.second == model.matrix_states["W2T"]
    # the coefficients are the model's own moment parameters (its documented layout)
    entries = model.matrix_params
    assert structure.sxy == sp.Matrix(entries["Sxy"]).applyfunc(lambda n: sp.Symbol(str(n), real=True))
    assert structure.sxx == sp.Matrix(entries["Sxx"]).applyfunc(lambda n: sp.Symbol(str(n), real=True))


@pytest.mark.parametrize(("d", "c"), SIZES)
def test_structure_of_a_users_network(users_network, d: int, c: int) -> None:
    model = users_network(d, c)
    structure = product_structure(model)
    assert not isinstance(structure, str), structure
    assert structure.first == tuple(f"u_{k + 1}" for k in range(d))
    assert structure.second == tuple(f"v_{m + 1}" for m in range(c))
    # Sxy = E[x y^T] = T^T for the teacher y = T x, and the input is whitened
    assert structure.sxy == sp.Matrix(d, c, lambda k, m: sp.Symbol(f"T_{m + 1}_{k + 1}", real=True))
    assert structure.sxx == sp.eye(d)


def test_models_that_are_no_matrix_network_say_why() -> None:
    from derivations import models

    assert "no sum is a product" in product_structure(models.get("two_layer_scalar"))
    assert isinstance(product_structure(models.get("diagonal_linear_network")), str)


# each case derives a matrix network's closed form anew (several seconds): the default suite solves the square
# network as built in and the rectangular one as a user's, the slow step the other two of the four
ALIGNED_CASES = [
    pytest.param(2, 2, False, id="2x2-builtin"),
    pytest.param(3, 2, True, id="3x2-users"),
    pytest.param(2, 2, True, id="2x2-users", marks=pytest.mark.slow),
    pytest.param(3, 2, False, id="3x2-builtin", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("d", "c", "users"), ALIGNED_CASES)
def test_solved_on_the_aligned_set_every_step_exact(users_network, d: int, c: int, users: bool) -> None:
    for model in (users_network(d, c) if users else linear_network(d, c),):
        result = solve(model)
        assert isinstance(result, ClosedForm), result
        checks = result.derivation.check()
        assert checks and all(x.proof.holds and x.proof.exact for x in checks)
        keys = {s.key for s in result.derivation.steps}
        assert {"structure", "sums", "aligned", "modes", "mode_solution"} <= keys
        # off the aligned set: the reason of the general start is kept
        assert isinstance(result.general, Unsolved) and "Jacobian depends on" in result.general.reason
        assert any("aligned start" in a for a in result.derivation.assumptions)
    assert users or any("Sxx = I" in a for a in solve(linear_network(d, c)).derivation.assumptions)


def test_correlated_input_is_refused_with_the_reason(users_network) -> None:
    correlated = users_network(2, 2, lambda i, j: sp.S.One if i == j else sp.Rational(1, 2))
    result = solve(correlated)
    assert isinstance(result, Unsolved)
    assert "not whitened" in result.reason


def _residuals(model, result: ClosedForm, s_sign: int = 1, transpose_U: bool = False) -> list[sp.Expr]:
    """Independently of the derivation's own steps: d/dt of the closed form's state along the mode flow
    a' = b (s - ab), b' = a (s - ab) minus the model's derived field at it (sums along the set, Sxy = U S V^T,
    Sxx = I), one residual per state; with a wrong sign of s or a transposed U for the refuted variants."""
    clock = next(iter(result.clocks.values()))
    U, V = sp.Matrix(clock.U), sp.Matrix(clock.V)
    r = len(clock.s)
    svd = U * sp.diag(*clock.s) * V.T
    moments = {}
    for (k, m), expr in zip(((k, m) for k in range(U.rows) for m in range(V.rows)), svd, strict=True):
        moments[sp.Symbol(f"Sxy_{k + 1}_{m + 1}", real=True)] = expr
    for k in range(U.rows):
        for j in range(k, U.rows):
            moments[sp.Symbol(f"Sxx_{k + 1}_{j + 1}", real=True)] = sp.S.One if k == j else sp.S.Zero
    flip = {U[i, j]: U[j, i] for i in range(r) for j in range(r)} if transpose_U else {}
    state = {model.symbol(n): e.xreplace(flip) for n, e in result.state.items()}
    values = {**state, **{q: e.xreplace(flip) for q, e in result.along.items()}, **moments}
    rates = {}
    for a, b, s in zip(clock.a, clock.b, clock.s, strict=True):
        rates[a] = b * (s_sign * s - a * b)
        rates[b] = a * (s_sign * s - a * b)
    relations = [sp.expand(g) for M in (U, V) for row in (M.T * M - sp.eye(r)).tolist() for g in row]
    out = []
    for name, expr in state.items():
        moved = sum(sp.diff(expr, x) * rate for x, rate in rates.items())
        out.append((sp.expand(moved - model.unit_field[name].xreplace(values)), relations))
    return out


def test_closed_form_satisfies_the_derived_flow_and_wrong_variants_do_not() -> None:
    model = linear_network(2, 2)
    result = solve(model)
    assert all(prove_zero(e, relations=rel).holds for e, rel in _residuals(model, result))
    assert not all(prove_zero(e, relations=rel).holds for e, rel in _residuals(model, result, s_sign=-1))
    assert not all(prove_zero(e, relations=rel).holds for e, rel in _residuals(model, result, transpose_U=True))


def test_the_modes_are_the_registered_closed_forms() -> None:
    """The matrix closed form's modes follow deep_linear_whitened's derivation, step for step, and
    lambda_balanced's closed form is the same mode solution (so their claims keep their status)."""
    mode = solve("deep_linear_whitened")
    steps = [s for s in solve(linear_network(2, 2)).derivation.steps if s.key.startswith("mode_") or s.key == "mode"]
    assert [s.relation for s in steps] == [s.relation for s in mode.derivation.steps]
    assert solve("lambda_balanced").state == mode.state
