"""Elimination through the conservation laws (``derivations.elimination``, the catalogue's ``elimination``): the tied
layer and deep chains of depth 3 and 4 written as a user would, each step checked, and wrong variants refuted
(the wrong square-root branch, a changed law constant)."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from derivations import models
from derivations.closed_form import ClosedForm
from derivations.derivation import Derivation
from derivations.elimination import _plan, _reduction, eliminate
from derivations.model import Model, Quantity
from derivations.pipeline import _back_substitution_steps, _law_steps, solve

t = sp.Symbol("t", nonnegative=True)
NAMES = {"t": t, "clock": sp.Symbol("gamma", positive=True)}


def chain(depth: int) -> Model:
    """A user's chain f = sum_i a1_i a2_i ... aL_i x_i with target sum_i S_i x_i, whitened inputs (not registered):
    one chain a1 ... aL x with target S x per unit, the units on their own inputs."""
    layers = tuple(f"a{k + 1}" for k in range(depth))
    symbols = sp.symbols(layers, real=True)
    return Model(
        name=f"users_chain_{depth}",
        title=f"a {depth}-layer scalar chain",
        reference="a user's model",
        state_names=layers,
        unit_param_names=("S",),
        shared_param_names=(),
        network=lambda s, x: sum(
            sp.Mul(*column) * xi for column, xi in zip(zip(*(s[n] for n in layers), strict=True), x, strict=True)
        ),
        target=lambda s, x: sum(si * xi for si, xi in zip(s["S"], x, strict=True)),
        moment=lambda s, i, j: sp.S.One if i == j else sp.S.Zero,
        input_dim=lambda p: p,
        quantities={"theta": Quantity("unit", sp.Mul(*symbols), "output")},
        domains={"S": "real"},
    )


def laws_of(model: Model) -> tuple[sp.Expr, ...]:
    return _law_steps(model, Derivation("laws"))[0]


def proved(derivation: Derivation) -> bool:
    return all(c.proof.holds and c.proof.exact for c in derivation.check())


def test_the_tied_layer_is_solved_by_eliminating_a() -> None:
    tied = models.get("tied_layer")
    a, b = tied.symbol("a"), tied.symbol("b")
    a0, b0 = tied.init_symbol("a"), tied.init_symbol("b")
    laws = laws_of(tied)
    assert any(sp.expand(law - (a**2 - 2 * b**2)) == 0 or sp.expand(law + (a**2 - 2 * b**2)) == 0 for law in laws)
    closed = solve(tied)
    assert isinstance(closed, ClosedForm) and closed.condition == ()
    assert "elimination of a" in closed.notes[0] and "keeping b" in closed.notes[0]
    assert proved(closed.derivation)
    # the law's square, through the initial values: a^2 = a_0^2 + 2 (b^2 - b_0^2); a keeps its sign (a' = 2ab(..))
    assert sp.expand(closed.state["a"] ** 2 - sp.sign(a0) ** 2 * (a0**2 + 2 * (b**2 - b0**2))) == 0
    steps = closed.derivation.by_key("elimination")
    assert any("proportional to a" in s.justification for s in steps)
    # the reduced equation is rational in b: b' = a^2 (S - a^2 b) with a^2 eliminated
    rhs = closed.clocks[b].rhs
    assert rhs.is_rational_function(b)
    S = tied.symbol("S")
    assert (
        sp.expand((rhs - (a**2 * (S - a**2 * b))).xreplace({a: sp.sqrt(a0**2 + 2 * (b**2 - b0**2))})).xreplace(
            {sp.sign(a0): 1}
        )
        == 0
    )


@pytest.mark.parametrize("depth", [3, 4])
def test_a_users_chain_is_solved_from_every_start(depth: int) -> None:
    model = chain(depth)
    closed = solve(model)
    assert isinstance(closed, ClosedForm), closed
    assert closed.condition == () and closed.general is None
    assert proved(closed.derivation)
    others = ", ".join(f"a{k}" for k in range(2, depth + 1))
    assert f"elimination of {others}" in closed.notes[0]
    a1 = model.symbol("a1")
    a10 = model.init_symbol("a1")
    for k in range(2, depth + 1):
        ak0 = model.init_symbol(f"a{k}")
        assert closed.state[f"a{k}"] == sp.sign(ak0) * sp.sqrt(a1**2 - a10**2 + ak0**2)
    assert closed.derivation.assumptions  # the eliminated layers may cross 0: recorded


def test_the_registered_chain_is_no_longer_solved_on_the_balanced_line_only() -> None:
    closed = solve("deep_scalar_chain")
    assert isinstance(closed, ClosedForm) and closed.condition == ()
    assert "elimination" in closed.notes[0]


def test_the_wrong_branch_is_refuted_by_the_back_substitution() -> None:
    model = chain(3)
    (reduction, *_) = [r for r in eliminate(model, laws_of(model), NAMES) if not isinstance(r, str)]
    a2 = reduction.state["a2"]
    for wrong in ({**reduction.state, "a2": -a2}, {**reduction.state, "a2": sp.sqrt(a2**2)}):
        d = Derivation("wrong branch", relations=reduction.derivation.relations)
        _back_substitution_steps(model, d, dataclasses.replace(reduction, state=wrong))
        assert not proved(d)
    right = Derivation("right branch", relations=reduction.derivation.relations)
    _back_substitution_steps(model, right, reduction)
    assert proved(right)


def test_a_changed_law_constant_is_refuted() -> None:
    tied = models.get("tied_layer")
    laws = laws_of(tied)
    plan = _plan(tied, laws, tied.symbol("b"))
    assert not isinstance(plan, str)
    assert proved(_reduction(tied, laws, plan, t).derivation)
    a = tied.symbol("a")
    changed = dataclasses.replace(plan, squares={a: plan.squares[a] + 1})
    d = _reduction(tied, laws, changed, t).derivation
    failing = [c.step.justification for c in d.check() if not c.proof.holds]
    assert any("solved from the laws" in j for j in failing) and any("at the start" in j for j in failing)


def test_coupled_units_and_too_few_laws_are_refused_with_the_reason() -> None:
    scalar = models.get("two_layer_scalar")
    assert any("couple through sums" in r for r in eliminate(scalar, laws_of(scalar), NAMES) if isinstance(r, str))
    model = chain(3)
    (one, _) = laws_of(model)
    reasons = list(eliminate(model, (one,), NAMES))
    assert reasons == ["1 conservation law(s) for 3 states: at least 2 are needed"]


def test_a_law_odd_in_the_eliminated_state_is_refused() -> None:
    model = chain(3)
    a1, a2, a3 = (model.symbol(n) for n in ("a1", "a2", "a3"))
    reasons = [r for r in eliminate(model, (a1**2 - a2**2, a1 * a3), NAMES) if isinstance(r, str)]
    assert any("not even in" in r for r in reasons)
