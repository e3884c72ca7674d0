"""Derived losses, gradient-flow vector fields, unit fields and NTKs against the spec (§1 eqs 6, 7; §5 eq 77;
§6 NTK table), with the spec's formulas typed here in fresh SymPy symbols."""

from __future__ import annotations

import pytest
import sympy as sp

from derivations import models, population_loss
from derivations.model import Instance, Model, Quantity

WIDTHS = (1, 2, 3, 4)


def real(name: str) -> sp.Symbol:
    return sp.Symbol(name, real=True)


def positive(name: str) -> sp.Symbol:
    return sp.Symbol(name, positive=True)


def unit_symbols(p: int) -> dict[str, list[sp.Symbol]]:
    """The spec's per-unit symbols a_i, b_i, theta_i, S_i (real) and lam_i (positive), i = 1..p."""
    out = {n: [real(f"{n}_{i}") for i in range(1, p + 1)] for n in ("a", "b", "theta", "S")}
    out["lam"] = [positive(f"lam_{i}") for i in range(1, p + 1)]
    return out


def assert_same(expr: sp.Expr, expected: sp.Expr) -> None:
    assert sp.expand(expr - expected) == 0, (expr, expected)


# --- population loss ---------------------------------------------------------------------------------------


def test_population_loss_hand_example() -> None:
    """f = w1 x1 + w2 x2, f* = 3 x1, E[x x^T] = [[2, 1], [1, 5]]:
    L = 1/2 E[((w1 - 3) x1 + w2 x2)^2] = 1/2 [2 (w1-3)^2 + 2 (w1-3) w2 + 5 w2^2]."""
    w1, w2, x1, x2 = sp.symbols("w1 w2 x1 x2", real=True)
    moments = [[2, 1], [1, 5]]
    loss = population_loss(w1 * x1 + w2 * x2, 3 * x1, (x1, x2), lambda i, j: sp.Integer(moments[i][j]))
    assert_same(loss, sp.Rational(1, 2) * (2 * (w1 - 3) ** 2 + 2 * (w1 - 3) * w2 + 5 * w2**2))
    # at w = (3, 0) the target is matched; at w = (4, 1): 1/2 (2 + 2 + 5) = 9/2
    assert loss.subs({w1: 3, w2: 0}) == 0
    assert loss.subs({w1: 4, w2: 1}) == sp.Rational(9, 2)


def test_population_loss_diagonal_moments_decouple() -> None:
    """Spec §1 'Decoupling': E[x_i x_j] = lam_i delta_ij gives L = 1/2 sum_i lam_i (S_i - a_i b_i)^2."""
    s = unit_symbols(3)
    x = sp.symbols("x1:4", real=True)
    network = sum(a * b * xi for a, b, xi in zip(s["a"], s["b"], x, strict=True))
    target = sum(S * xi for S, xi in zip(s["S"], x, strict=True))
    loss = population_loss(network, target, x, lambda i, j: s["lam"][i] if i == j else sp.S.Zero)
    expected = sum(lam * (S - a * b) ** 2 for lam, S, a, b in zip(s["lam"], s["S"], s["a"], s["b"], strict=True)) / 2
    assert_same(loss, expected)


@pytest.mark.parametrize("network", ["x1**2", "x1 + 1", "x1*x2"])
def test_population_loss_rejects_nonlinear_or_affine(network) -> None:
    x1, x2 = sp.symbols("x1 x2", real=True)
    with pytest.raises(ValueError, match="linear"):
        population_loss(sp.sympify(network, locals={"x1": x1, "x2": x2}), x1, (x1, x2), lambda i, j: sp.S.One)


# --- registry ----------------------------------------------------------------------------------------------


def test_registry() -> None:
    assert models.names()[:3] == ["linear_model", "diagonal_linear_network", "two_layer_scalar"]
    for name in models.names():
        assert models.get(name).name == name
    with pytest.raises(ValueError, match="unknown model 'nope'"):
        models.get("nope")
    for bad in (0, -1, 1.5):
        with pytest.raises(ValueError, match="width"):
            models.get("two_layer_scalar").instance(bad)


# --- explicit vector fields: eqs 6, 7, 77 -------------------------------------------------------------------


@pytest.mark.parametrize("p", WIDTHS)
def test_linear_model_field_is_eq7(p) -> None:
    inst = models.get("linear_model").instance(p)
    s = unit_symbols(p)
    assert set(inst.vector_field) == set(s["theta"])
    for theta, S, lam in zip(s["theta"], s["S"], s["lam"], strict=True):
        assert_same(inst.vector_field[theta], lam * (S - theta))
    assert_same(
        inst.loss, sum(lam * (S - th) ** 2 for th, S, lam in zip(s["theta"], s["S"], s["lam"], strict=True)) / 2
    )


@pytest.mark.parametrize("p", WIDTHS)
def test_diagonal_network_field_is_eq6(p) -> None:
    inst = models.get("diagonal_linear_network").instance(p)
    s = unit_symbols(p)
    assert set(inst.vector_field) == set(s["a"]) | set(s["b"])
    for a, b, S, lam in zip(s["a"], s["b"], s["S"], s["lam"], strict=True):
        assert_same(inst.vector_field[a], b * lam * (S - a * b))
        assert_same(inst.vector_field[b], a * lam * (S - a * b))


@pytest.mark.parametrize("p", WIDTHS)
def test_two_layer_scalar_field_is_eq77(p) -> None:
    inst = models.get("two_layer_scalar").instance(p)
    s = unit_symbols(p)
    S, Z = real("S"), positive("Z")
    theta = sum(a * b for a, b in zip(s["a"], s["b"], strict=True)) / Z
    assert set(inst.vector_field) == set(s["a"]) | set(s["b"])
    for a, b in zip(s["a"], s["b"], strict=True):
        assert_same(inst.vector_field[a], b * (S - theta) / Z)
        assert_same(inst.vector_field[b], a * (S - theta) / Z)
    assert_same(inst.loss, (S - theta) ** 2 / 2)  # eq 71
    assert_same(inst.quantity("theta"), theta)
    assert_same(inst.quantity("loss"), (S - theta) ** 2 / 2)


# --- unit fields --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["linear_model", "diagonal_linear_network", "two_layer_scalar"])
@pytest.mark.parametrize("p", WIDTHS)
def test_unit_field_reproduces_every_unit_of_the_explicit_field(name, p) -> None:
    """The one-unit field, written for unit i and with the sums substituted, is unit i's explicit field."""
    model = models.get(name)
    inst = model.instance(p)
    s = unit_symbols(p)
    generic = {n: real(n) for n in ("a", "b", "theta", "S")} | {"lam": positive("lam")}
    sums = {}
    if name == "two_layer_scalar":
        sums = {real("theta"): sum(a * b for a, b in zip(s["a"], s["b"], strict=True)) / positive("Z")}
    field = model.unit_field
    assert {str(k) for k in field} == set(model.state_names)
    for i in range(p):
        rename = {generic[n]: s[n][i] for n in (*model.state_names, *model.unit_param_names)}
        for state_name in model.state_names:
            unit = field[generic[state_name]].xreplace(sums).xreplace(rename)
            assert_same(unit, inst.vector_field[s[state_name][i]])


def test_unit_fields_match_the_spec_directly() -> None:
    a, b, S, theta = real("a"), real("b"), real("S"), real("theta")
    lam, Z = positive("lam"), positive("Z")
    expected = {
        "linear_model": {theta: lam * (S - theta)},
        "diagonal_linear_network": {a: b * lam * (S - a * b), b: a * lam * (S - a * b)},
        "two_layer_scalar": {a: b * (S - theta) / Z, b: a * (S - theta) / Z},
    }
    for name, fields in expected.items():
        field = models.get(name).unit_field
        assert set(field) == set(fields)
        for key, value in fields.items():
            assert_same(field[key], value)


def test_time_derivative_is_the_lie_derivative() -> None:
    """d/dt theta along eq 77 by hand: theta' = Z^-1 sum (a_i' b_i + a_i b_i') = Z^-2 sum (a_i^2 + b_i^2)(S - theta)."""
    inst = models.get("two_layer_scalar").instance(3)
    s = unit_symbols(3)
    S, Z = real("S"), positive("Z")
    theta = sum(a * b for a, b in zip(s["a"], s["b"], strict=True)) / Z
    norm = sum(a**2 + b**2 for a, b in zip(s["a"], s["b"], strict=True))
    assert_same(inst.time_derivative(theta), norm * (S - theta) / Z**2)


# --- NTK: spec §6 table ------------------------------------------------------------------------------------


def primed(inst: Instance) -> tuple[list[sp.Symbol], list[sp.Symbol]]:
    x = [real(f"x_{i}") for i in range(1, len(inst.inputs) + 1)]
    assert list(inst.inputs) == x
    return x, [real(f"x_{i}'") for i in range(1, len(x) + 1)]


@pytest.mark.parametrize("p", WIDTHS)
def test_ntk_matches_spec_table(p) -> None:
    s = unit_symbols(p)
    # linear model: x^T x'
    inst = models.get("linear_model").instance(p)
    x, xp = primed(inst)
    assert_same(inst.ntk(), sum(u * v for u, v in zip(x, xp, strict=True)))
    # diagonal net: sum_i (a_i^2 + b_i^2) x_i x_i'
    inst = models.get("diagonal_linear_network").instance(p)
    x, xp = primed(inst)
    expected = sum((a**2 + b**2) * u * v for a, b, u, v in zip(s["a"], s["b"], x, xp, strict=True))
    assert_same(inst.ntk(), expected)
    # scalar model (eq 15): Z^-2 sum_i (a_i^2 + b_i^2) x x'
    inst = models.get("two_layer_scalar").instance(p)
    x, xp = primed(inst)
    assert len(x) == 1
    norm = sum(a**2 + b**2 for a, b in zip(s["a"], s["b"], strict=True))
    assert_same(inst.ntk(), norm * x[0] * xp[0] / positive("Z") ** 2)


def _exp_network(quantities: dict[str, Quantity]) -> Model:
    """f = sum exp(a_i) b_i x, target x, E[x^2] = 1: a field not polynomial in the state."""
    return Model(
        name="exp_network",
        title="f(x) = sum exp(a_i) b_i x",
        reference="test only",
        state_names=("a", "b"),
        unit_param_names=(),
        shared_param_names=(),
        network=lambda s, x: sum(sp.exp(ai) * bi for ai, bi in zip(s["a"], s["b"], strict=True)) * x[0],
        target=lambda s, x: x[0],
        moment=lambda s, i, j: sp.S.One,
        input_dim=lambda p: 1,
        quantities=quantities,
    )


def test_unit_field_of_a_field_not_polynomial_in_the_state_divides_out_the_sums() -> None:
    """f = sum exp(a_i) b_i x: unit 2's exp(a_2) is an indeterminate of the division, so theta = sum exp(a_i) b_i
    is divided out; by hand L = (theta - 1)^2/2, a' = (1 - theta) exp(a) b, b' = (1 - theta) exp(a)."""
    a, b, theta = real("a"), real("b"), real("theta")
    field = _exp_network({"theta": Quantity("sum", sp.exp(a) * b)}).unit_field
    assert_same(field[a], (1 - theta) * sp.exp(a) * b)
    assert_same(field[b], (1 - theta) * sp.exp(a))
    with pytest.raises(AssertionError):
        assert_same(field[b], (1 + theta) * sp.exp(a))  # a wrong variant (flipped sign) is refuted


def test_unit_field_that_depends_on_unit_2_beyond_the_sums_is_a_clear_error() -> None:
    """The same network without the sum theta: unit 1's field involves exp(a_2) b_2, which no sum expresses."""
    with pytest.raises(ValueError, match="depends on unit 2 beyond the sums"):
        _ = _exp_network({}).unit_field
