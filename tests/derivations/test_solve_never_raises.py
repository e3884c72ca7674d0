"""Issue 22: ``derivations.solve`` never raises on a valid model; a definition outside the model class is a
``ValueError`` naming the function (network or target) and the fix.

The models are odd but valid, written as a user would (``derivations.Model``). Those solved today must stay
solved (``ClosedForm``); the others must answer, ``ClosedForm`` or ``Unsolved``, never raise. The root causes of
the two crashes of the issue are tested on their own: the Gröbner step of ``prove_zero`` over a numerator with
rational coefficients (weight decay without a width scale ``Z``), and the separable engine on a right-hand side
with a pole and with coefficients in QQ(sqrt(2)) (the tied layer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import sympy as sp

from derivations import ClosedForm, Model, Quantity, Unsolved, population_loss, prove_zero, solve
from derivations.separable import implicit_solution, unsupported

a, b, c, w, w1, w2 = sp.symbols("a b c w w1 w2", real=True)
Z = sp.Symbol("Z", positive=True)
ONE = sp.S.One


def _units(s: dict, *names: str) -> zip:
    return zip(*(s[n] for n in names), strict=True)


def _whitened(s: dict, i: int, j: int) -> sp.Expr:
    return ONE if i == j else sp.S.Zero


def _two_layer(name: str, **fields: object) -> Model:
    """``f = sum_i a_i b_i x`` (unless ``network`` is given), target ``S x``, ``E[x^2] = 1``, ``theta = sum a b``."""
    spec: dict[str, Any] = {
        "state_names": ("a", "b"),
        "unit_param_names": (),
        "shared_param_names": ("S",),
        "network": lambda s, x: sum(ai * bi for ai, bi in _units(s, "a", "b")) * x[0],
        "target": lambda s, x: s["S"] * x[0],
        "moment": lambda s, i, j: ONE,
        "input_dim": lambda p: 1,
        "quantities": {"theta": Quantity("sum", a * b)},
    }
    spec.update(fields)
    return Model(name=name, title=name, reference="test only", **spec)


def _decay(with_z: bool) -> Model:
    """Weight decay (mu/2) sum (a_i^2 + b_i^2), with or without the width scale Z (issue 22's first crash)."""
    scale: Callable[[dict], sp.Expr] = (lambda s: s["Z"]) if with_z else (lambda s: ONE)
    return _two_layer(
        "decay_z" if with_z else "decay_no_z",
        network=lambda s, x: sum(ai * bi for ai, bi in _units(s, "a", "b")) * x[0] / scale(s),
        shared_param_names=("S", "Z", "mu") if with_z else ("S", "mu"),
        quantities={"theta": Quantity("sum", a * b / Z if with_z else a * b)},
        domains={"mu": "positive", **({"Z": "positive"} if with_z else {})},
        regularizer=lambda s: s["mu"] * sum(ai**2 + bi**2 for ai, bi in _units(s, "a", "b")) / 2,
    )


def _tied() -> Model:
    """f = sum_i a_i^2 b_i x_i, whitened inputs, target sum S_i x_i (issue 22's second crash, sqrt(2))."""
    return _two_layer(
        "tied",
        unit_param_names=("S",),
        shared_param_names=(),
        network=lambda s, x: sum(ai**2 * bi * xi for ai, bi, xi in zip(s["a"], s["b"], x, strict=True)),
        target=lambda s, x: sum(si * xi for si, xi in zip(s["S"], x, strict=True)),
        moment=_whitened,
        input_dim=lambda p: p,
        quantities={},
    )


def _tanh() -> Model:
    """f = sum_i a_i tanh(b_i) x: linear in the input, a nonlinearity in the parameters."""
    return _two_layer(
        "tanh_network",
        network=lambda s, x: sum(ai * sp.tanh(bi) for ai, bi in _units(s, "a", "b")) * x[0],
        quantities={"theta": Quantity("sum", a * sp.tanh(b))},
    )


def _one_state(name: str, network: Callable, **fields: object) -> Model:
    spec: dict[str, Any] = {
        "state_names": ("w",),
        "unit_param_names": ("S",),
        "shared_param_names": (),
        "network": network,
        "target": lambda s, x: sum(si * xi for si, xi in zip(s["S"], x, strict=True)),
        "moment": _whitened,
        "input_dim": lambda p: p,
        "quantities": {},
    }
    spec.update(fields)
    return Model(name=name, title=name, reference="test only", **spec)


VALID: dict[str, Callable[[], Model]] = {
    "decay_no_z": lambda: _decay(False),
    "decay_z": lambda: _decay(True),
    "tied": _tied,
    "tanh_network": _tanh,
    "sqrt2_target": lambda: _two_layer("sqrt2_target", shared_param_names=(), target=lambda s, x: sp.sqrt(2) * x[0]),
    "rational_constants": lambda: _two_layer(
        "rational_constants",
        shared_param_names=(),
        target=lambda s, x: sp.Rational(2, 3) * x[0],
        moment=lambda s, i, j: sp.Rational(1, 3),
    ),
    "pi_target": lambda: _two_layer("pi_target", shared_param_names=(), target=lambda s, x: sp.pi * x[0]),
    "sqrt2_moment": lambda: _two_layer("sqrt2_moment", moment=lambda s, i, j: sp.sqrt(2)),
    "sqrt_of_parameter": lambda: _two_layer(
        "sqrt_of_parameter", target=lambda s, x: sp.sqrt(s["S"]) * x[0], domains={"S": "positive"}
    ),
    "sqrt2_scale": lambda: _two_layer(
        "sqrt2_scale",
        network=lambda s, x: sum(ai * bi for ai, bi in _units(s, "a", "b")) * x[0] / sp.sqrt(2),
        quantities={"theta": Quantity("sum", a * b / sp.sqrt(2))},
    ),
    "sqrt2_decay": lambda: _two_layer(
        "sqrt2_decay", regularizer=lambda s: sp.sqrt(2) * sum(ai**2 + bi**2 for ai, bi in _units(s, "a", "b")) / 4
    ),
    "unit_parameter": lambda: _two_layer(
        "unit_parameter",
        unit_param_names=("S",),
        shared_param_names=(),
        network=lambda s, x: sum(ai * bi * xi for ai, bi, xi in zip(s["a"], s["b"], x, strict=True)),
        target=lambda s, x: sum(si * xi for si, xi in zip(s["S"], x, strict=True)),
        moment=_whitened,
        input_dim=lambda p: p,
        quantities={},
    ),
    "chain3": lambda: _two_layer(
        "chain3",
        state_names=("a", "b", "c"),
        network=lambda s, x: sum(ai * bi * ci for ai, bi, ci in _units(s, "a", "b", "c")) * x[0],
        quantities={"theta": Quantity("sum", a * b * c)},
    ),
    "single_neuron": lambda: _two_layer(
        "single_neuron",
        state_names=("a", "w1", "w2"),
        shared_param_names=("S1", "S2"),
        network=lambda s, x: sum(ai * (u * x[0] + v * x[1]) for ai, u, v in _units(s, "a", "w1", "w2")),
        target=lambda s, x: s["S1"] * x[0] + s["S2"] * x[1],
        moment=_whitened,
        input_dim=lambda p: 2,
        quantities={"v1": Quantity("sum", a * w1), "v2": Quantity("sum", a * w2)},
    ),
    "correlated_inputs": lambda: _two_layer(
        "correlated_inputs",
        target=lambda s, x: s["S"] * x[1],
        moment=lambda s, i, j: sp.Matrix([[2, 1], [1, 3]])[i, j],
        input_dim=lambda p: 2,
    ),
    "two_outputs": lambda: _two_layer(
        "two_outputs",
        state_names=("a", "b", "c"),
        shared_param_names=("S1", "S2"),
        network=lambda s, x: (
            sum(ai * bi for ai, bi in _units(s, "a", "b")) * x[0],
            sum(ai * ci for ai, ci in _units(s, "a", "c")) * x[0],
        ),
        target=lambda s, x: (s["S1"] * x[0], s["S2"] * x[0]),
        quantities={"u": Quantity("sum", a * b), "v": Quantity("sum", a * c)},
    ),
    "learning_rates": lambda: _two_layer(
        "learning_rates", shared_param_names=("S", "eta"), learning_rates={"a": "eta"}, domains={"eta": "positive"}
    ),
    "zero_field": lambda: _one_state(
        "zero_field", lambda s, x: x[0], unit_param_names=(), shared_param_names=("S",), target=lambda s, x: x[0]
    ),
    "one_state": lambda: _one_state("one_state", lambda s, x: sum(wi * xi for wi, xi in zip(s["w"], x, strict=True))),
    "one_state_decay": lambda: _one_state(
        "one_state_decay",
        lambda s, x: sum(wi**2 * xi for wi, xi in zip(s["w"], x, strict=True)),
        shared_param_names=("mu",),
        domains={"mu": "positive"},
        regularizer=lambda s: s["mu"] * sum(wi**2 for wi in s["w"]) / 2,
    ),
    "one_state_coupled": lambda: _one_state(
        "one_state_coupled",
        lambda s, x: sum(s["w"]) * x[0],
        unit_param_names=(),
        shared_param_names=("S",),
        target=lambda s, x: s["S"] * x[0],
        moment=lambda s, i, j: ONE,
        input_dim=lambda p: 1,
        quantities={"theta": Quantity("sum", w)},
    ),
    "ratio_network": lambda: _two_layer(
        "ratio_network",
        network=lambda s, x: sum(ai / bi for ai, bi in _units(s, "a", "b")) * x[0],
        quantities={"theta": Quantity("sum", a / b)},
    ),
}

# solved today: these must stay solved (the others may become solved; they must answer)
SOLVED = {
    "decay_no_z",
    "decay_z",
    "sqrt2_target",
    "rational_constants",
    "pi_target",
    "sqrt2_moment",
    "sqrt_of_parameter",
    "sqrt2_scale",
    "sqrt2_decay",
    "unit_parameter",
    "correlated_inputs",
    "learning_rates",
    "zero_field",
    "one_state",
    "one_state_decay",
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_solve_answers_on_a_valid_model(name: str) -> None:
    result = solve(VALID[name]())
    assert isinstance(result, (ClosedForm, Unsolved)), result
    if name in SOLVED:
        assert isinstance(result, ClosedForm), str(result)
    if isinstance(result, Unsolved):
        assert result.model == name and result.step and result.reason


def test_the_two_crashes_of_the_issue_now_answer_with_their_reasons() -> None:
    """The tied layer (it raised ``PolynomialError``) is solved: the shared clock stops at the scalar methods (a
    pole in gamma), and the elimination keeping b, whose equation has a sign(a_0)**2 coefficient and a cubic factor,
    goes to the quadrature; the tanh network stops at the reduction (its field is not polynomial)."""
    tied, tanh = solve(_tied()), solve(_tanh())
    assert isinstance(tied, ClosedForm), str(tied)
    assert (tied.reduction, tied.method) == ("elimination", "algebraic-separable")
    assert set(tied.clocks) == {_tied().symbol("b")} and tied.condition == ()
    assert isinstance(tanh, Unsolved) and "not polynomial" in tanh.reason


def test_decay_without_z_is_the_decay_with_z_at_z_1() -> None:
    """The first crash: the same model with Z = 1 solved, without Z it raised. Both clocks, at Z = 1, are one
    Riccati equation (a changed constant in either would differ)."""
    with_z, without_z = solve(_decay(True)), solve(_decay(False))
    assert isinstance(with_z, ClosedForm) and isinstance(without_z, ClosedForm)
    ((y1, clock1),) = with_z.clocks.items()
    ((y2, clock2),) = without_z.clocks.items()
    assert sp.expand(clock1.rhs.subs(Z, 1) - clock2.rhs.xreplace({y2: y1})) == 0
    assert sp.expand(clock1.rhs.subs(Z, 2) - clock2.rhs.xreplace({y2: y1})) != 0


def test_prove_zero_reduces_a_numerator_with_rational_coefficients_modulo_a_radical() -> None:
    """The root of the first crash: sqrt(g) becomes r with r**2 = g, the numerator has the coefficient 1/2, and the
    Gröbner basis of r**2 - g alone is over ZZ; the basis is now over a field holding both."""
    S, g = sp.Symbol("S", real=True), sp.Symbol("g", positive=True)
    proof = prove_zero(S * sp.sqrt(g) / 2 + g * sp.sqrt(g) / 2 - (S + g) * g / (2 * sp.sqrt(g)))
    assert proof.holds and proof.exact and proof.method == "Gröbner normal form"
    wrong = prove_zero(S * sp.sqrt(g) / 2 + g * sp.sqrt(g) / 2 - (S + g) * g / (3 * sp.sqrt(g)))
    assert not wrong.holds and wrong.exact


def test_separable_engine_says_why_it_cannot_instead_of_raising_a_sympy_error() -> None:
    """The root of the second crash: ``factor_list`` of a right-hand side with a pole raised PolynomialError. A
    pole and an irreducible cubic are now reasons; a cubic that splits once S is written as a cube is solved."""
    y, t, S = sp.Symbol("y", positive=True), sp.Symbol("t", nonnegative=True), sp.Symbol("S", real=True)
    assert "pole in y" in unsupported(S - y + 1 / y**3, y)
    with pytest.raises(ValueError, match="pole in y"):
        implicit_solution(S - y + 1 / y**3, y, sp.Symbol("y_0"), t)
    assert "degree 3" in unsupported(y**3 + S * y + 1, y)
    assert unsupported(y**2 * (S - y**3), y) == ""
    assert unsupported(y * (y - S), y) == ""


def test_separable_engine_factors_over_the_algebraic_numbers_of_its_coefficients() -> None:
    """(y - sqrt(2))**2 (y - S): over QQ the quadratic is irreducible, over QQ(sqrt(2)) it is a square, so the
    fixed points are sqrt(2) and S (a fixed point missed would let the inversion step over it)."""
    y, t, S = sp.Symbol("y", real=True), sp.Symbol("t", nonnegative=True), sp.Symbol("S", real=True)
    rhs = sp.expand((y - sp.sqrt(2)) ** 2 * (S - y))
    solution = implicit_solution(rhs, y, sp.Symbol("y_0"), t)
    assert set(solution.fixed_points) == {sp.sqrt(2), S}
    assert all(c.proof.holds and c.proof.exact for c in solution.derivation.check())


def test_unit_field_with_reciprocal_and_tanh_of_the_other_unit() -> None:
    """1/b_2 and tanh(b_2) are indeterminates of the division, so the sums are divided out; by hand (L = (S -
    theta)^2/2): f = sum a/b x gives a' = (S - theta)/b, b' = -a (S - theta)/b^2; f = sum a tanh(b) x gives
    a' = (S - theta) tanh(b), b' = a (S - theta)(1 - tanh(b)^2)."""
    S, theta = sp.Symbol("S", real=True), sp.Symbol("theta", real=True)
    ratio = VALID["ratio_network"]().unit_field
    assert sp.simplify(ratio[a] - (S - theta) / b) == 0
    assert sp.simplify(ratio[b] + a * (S - theta) / b**2) == 0
    field = _tanh().unit_field
    assert sp.simplify(field[a] - (S - theta) * sp.tanh(b)) == 0
    assert sp.simplify(field[b] - a * (S - theta) * (1 - sp.tanh(b) ** 2)) == 0
    assert sp.simplify(field[b] - a * (S + theta) * (1 - sp.tanh(b) ** 2)) != 0  # a flipped sign is refuted


# --- definitions outside the model class -------------------------------------------------------------------

INVALID: dict[str, tuple[dict[str, Any], str]] = {
    "tanh_of_input": (
        {"network": lambda s, x: sum(ai * sp.tanh(bi * x[0]) for ai, bi in _units(s, "a", "b"))},
        r"tanh_of_input: the network is not linear in the inputs x_1 \(it is not polynomial in them\)",
    ),
    "quadratic_in_input": (
        {"network": lambda s, x: sum(ai * bi for ai, bi in _units(s, "a", "b")) * x[0] ** 2},
        r"quadratic_in_input: the network is not linear in the inputs x_1 \(it has degree 2 in them\)",
    ),
    "network_constant": (
        {"network": lambda s, x: sum(ai * bi * x[0] + ai for ai, bi in _units(s, "a", "b"))},
        r"network_constant: the network is not linear in the inputs x_1 \(it has the constant term",
    ),
    "target_constant": (
        {"target": lambda s, x: s["S"] * x[0] + 1},
        r"target_constant: the target is not linear in the inputs x_1 \(it has the constant term 1\)",
    ),
    "second_output": (
        {
            "state_names": ("a", "b", "c"),
            "network": lambda s, x: (
                sum(ai * bi for ai, bi in _units(s, "a", "b")) * x[0],
                sum(ai * ci for ai, ci in _units(s, "a", "c")) * x[0] ** 3,
            ),
            "target": lambda s, x: (s["S"] * x[0], s["S"] * x[0]),
        },
        r"second_output \(output 2\): the network is not linear",
    ),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_a_definition_outside_the_model_class_is_a_value_error_naming_the_function(name: str) -> None:
    """Refused when the model is built (issue 27: the definition is probed at construction), so ``solve`` and
    ``instance`` never see it."""
    fields, message = INVALID[name]
    with pytest.raises(ValueError, match=message) as error:
        _two_layer(name, **fields)
    assert "a nonlinearity in the parameters is fine, e.g. a*tanh(b)*x_1" in str(error.value)


def test_population_loss_names_the_network_or_the_target() -> None:
    x, S = sp.Symbol("x", real=True), sp.Symbol("S", real=True)
    assert sp.expand(population_loss(a * b * x, S * x, (x,), lambda i, j: ONE) - (a * b - S) ** 2 / 2) == 0
    with pytest.raises(ValueError, match=r"^the network is not linear .*degree 2"):
        population_loss(a * b * x**2, S * x, (x,), lambda i, j: ONE)
    with pytest.raises(ValueError, match=r"^mine: the target is not linear .*not polynomial"):
        population_loss(a * b * x, sp.sin(x), (x,), lambda i, j: ONE, "mine")
