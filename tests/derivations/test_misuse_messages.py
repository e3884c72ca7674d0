"""Misuse of a model gets an error that names the object at fault and the fix, and following the fix works
(issue 26); a reason for no closed form is written as mathematics."""

from __future__ import annotations

import re

import pytest
import sympy as sp

from derivations import Model, Quantity, models
from derivations.prose import plain_math

a, b = sp.symbols("a b", real=True)


def _model(**changes: object) -> Model:
    """f = (sum_i a_i b_i) x, target S x: the units couple through sum_i a_i b_i."""
    definition: dict[str, object] = dict(
        name="coupled",
        title="a coupled scalar model",
        reference="a user's model",
        state_names=("a", "b"),
        unit_param_names=(),
        shared_param_names=("S",),
        network=lambda s, x: sum(ai * bi for ai, bi in zip(s["a"], s["b"], strict=True)) * x[0],
        target=lambda s, x: s["S"] * x[0],
        moment=lambda s, i, j: sp.S.One,
        input_dim=lambda p: 1,
        quantities={},
        domains={"S": "real"},
    )
    definition.update(changes)
    return Model(**definition)  # type: ignore[arg-type]


def test_a_coupled_model_without_its_sum_is_told_which_quantity_to_declare() -> None:
    with pytest.raises(ValueError, match=r"beyond the sums \(declared: none\)") as error:
        _ = _model().unit_field
    message = str(error.value)
    declaration = re.search(r"quantities=\{'Q1': Quantity\('sum', ([^)]*)\)\}", message)
    assert declaration is not None, message
    assert sp.sympify(declaration.group(1), locals={"a": a, "b": b}) == a * b
    # the declaration the message proposes makes the field expressible through the sum
    fixed = _model(quantities={"Q1": Quantity("sum", a * b)})
    S, Q1 = fixed.symbol("S"), fixed.symbol("Q1")
    # by hand: L = (Q1 - S)^2 / 2, so a' = -dL/da = (S - Q1) b
    assert sp.expand(fixed.unit_field[a] - (S - Q1) * b) == 0


@pytest.mark.parametrize("target", [lambda s, x: s["S"] * x[0] ** 3, lambda s, x: sp.sin(x[0])])
def test_a_nonlinear_target_is_named_as_the_target_with_the_fix(target) -> None:
    with pytest.raises(ValueError, match="the target is not linear in the inputs") as error:
        _ = _model(target=target).unit_field
    assert "pass the feature as an input of its own" in str(error.value)


def test_a_nonlinear_network_is_not_given_the_targets_fix() -> None:
    def quadratic(s, x):  # the Model's network signature
        return sum(ai * bi for ai, bi in zip(s["a"], s["b"], strict=True)) * x[0] ** 2

    with pytest.raises(ValueError, match="the network is not linear in the inputs") as error:
        _ = _model(network=quadratic).unit_field
    assert "feature" not in str(error.value)


@pytest.mark.parametrize(
    ("code", "mathematics"),
    [
        ("g = V*a*gamma**2*w - b*gamma*w", "g = V a gamma^2 w - b gamma w"),
        ("couple through ['V', 'theta']", "couple through V, theta"),
        ("k >= 0, t -> oo, a != b", "k ≥ 0, t → ∞, a ≠ b"),
    ],
)
def test_plain_math_rewrites_code_spellings(code: str, mathematics: str) -> None:
    assert plain_math(code) == mathematics


def test_the_reason_for_no_closed_form_is_mathematics() -> None:
    reason = models.get("power_activation").solution.reason
    assert "one clock per unit" in reason
    for code in ("**", "*", "['"):
        assert code not in reason, reason
