"""Conservation laws along the derived flows (spec eq 8, eq 78, §5 'hidden λ-balanced structure')."""

from __future__ import annotations

import pytest
import sympy as sp

from derivations import models

WIDTHS = (1, 2, 3, 4)
PRODUCT_MODELS = ("diagonal_linear_network", "two_layer_scalar")


def unit(name: str, i: int) -> sp.Symbol:
    return sp.Symbol(f"{name}_{i}", real=True)


@pytest.mark.parametrize("name", PRODUCT_MODELS)
@pytest.mark.parametrize("p", WIDTHS)
def test_a_squared_minus_b_squared_is_conserved_for_every_unit(name, p) -> None:
    inst = models.get(name).instance(p)
    for i in range(1, p + 1):
        proof = inst.verify_conserved(unit("a", i) ** 2 - unit("b", i) ** 2)
        assert proof.holds and proof.exact, proof
        assert bool(proof)


@pytest.mark.parametrize("name", PRODUCT_MODELS)
@pytest.mark.parametrize("p", WIDTHS)
def test_non_laws_are_rejected(name, p) -> None:
    inst = models.get(name).instance(p)
    a1, b1 = unit("a", 1), unit("b", 1)
    for candidate in (a1**2 + b1**2, a1 * b1, a1 - b1, a1**2 - 2 * b1**2):
        proof = inst.verify_conserved(candidate)
        assert not proof.holds, candidate
        assert not bool(proof)
        assert proof.residual != "0"


def test_sum_of_balances_and_mixed_balances() -> None:
    """Any combination of the a_i^2 - b_i^2 is conserved; a cross term a_1^2 - b_2^2 is not (p = 2)."""
    inst = models.get("two_layer_scalar").instance(2)
    a1, a2, b1, b2 = unit("a", 1), unit("a", 2), unit("b", 1), unit("b", 2)
    assert inst.verify_conserved(3 * (a1**2 - b1**2) - (a2**2 - b2**2)).holds
    assert inst.verify_conserved((a1**2 - b1**2) * (a2**2 - b2**2)).holds
    assert not inst.verify_conserved(a1**2 - b2**2).holds


def test_hidden_lambda_balanced_invariant() -> None:
    """Spec §5: Sigma(t)^2 - theta(t)^2 is constant, with Sigma = (2Z)^-1 sum (a^2 + b^2), theta = Z^-1 sum ab."""
    inst = models.get("two_layer_scalar").instance(3)
    Z = sp.Symbol("Z", positive=True)
    a = [unit("a", i) for i in (1, 2, 3)]
    b = [unit("b", i) for i in (1, 2, 3)]
    Sigma = sum(x**2 + y**2 for x, y in zip(a, b, strict=True)) / (2 * Z)
    theta = sum(x * y for x, y in zip(a, b, strict=True)) / Z
    assert inst.verify_conserved(Sigma**2 - theta**2).holds
    assert not inst.verify_conserved(Sigma**2 + theta**2).holds


def test_unit_level_conservation() -> None:
    for name in PRODUCT_MODELS:
        model = models.get(name)
        a, b = sp.Symbol("a", real=True), sp.Symbol("b", real=True)
        assert model.verify_unit_conserved(a**2 - b**2).holds
        assert not model.verify_unit_conserved(a**2 + b**2).holds


def test_linear_model_has_no_such_law() -> None:
    inst = models.get("linear_model").instance(2)
    theta1 = unit("theta", 1)
    assert not inst.verify_conserved(theta1).holds
    assert not inst.verify_conserved(theta1**2).holds
    # but an expression of the parameters alone is trivially constant
    assert inst.verify_conserved(sp.Symbol("S_1", real=True) ** 2).holds
