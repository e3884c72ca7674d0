"""Discovering, counting and proving conservation laws (Marcotte, Gribonval & Peyré 2023; tooling-notes §2).

Expected counts are typed from the spec and the theory, not computed by the code under test: r(r+1)/2 for a
two-layer linear network (tooling-notes §2 table), one law a_i^2 - b_i^2 per mode of the diagonal network,
and D - 1 whenever a single vector field generates the Lie algebra (one output, or the given loss).
"""

from __future__ import annotations

import pytest
import sympy as sp

from derivations import conservation, models
from derivations.model import Model, Quantity
from derivations.models.power_activation import power_activation
from proofs_check.claims import Status
from proofs_check.papers.marcotte2023 import checks as conservation_claims


def two_layer_linear(d: int, r: int, c: int) -> tuple[list[sp.Expr], tuple[sp.Symbol, ...], list[sp.Expr]]:
    """phi = entries of U1 U2, the weights, and the known laws (upper triangle of U1^T U1 - U2 U2^T)."""
    U1 = sp.Matrix(d, r, lambda i, k: sp.Symbol(f"U1_{i}_{k}", real=True))
    U2 = sp.Matrix(r, c, lambda k, j: sp.Symbol(f"U2_{k}_{j}", real=True))
    balance = U1.T * U1 - U2 * U2.T
    return list(U1 * U2), (*U1, *U2), [balance[i, j] for i in range(r) for j in range(i, r)]


def span_rank(polys: list[sp.Expr], variables: tuple[sp.Symbol, ...]) -> int:
    """Dimension of the Q-span of polynomials (their coefficient vectors)."""
    dicts = [sp.Poly(p, *variables).as_dict() for p in polys]
    monomials = sorted(set().union(*dicts))
    return sp.Matrix([[d.get(m, 0) for m in monomials] for d in dicts]).rank()


def unit(name: str, i: int) -> sp.Symbol:
    return sp.Symbol(f"{name}_{i}", real=True)


# ---------------------------------------------------------------- two-layer linear networks
LINEAR = [((1, 1, 1), 1), ((2, 2, 2), 3), ((2, 3, 2), 6), ((3, 2, 3), 3), ((4, 3, 4), 6)]


@pytest.mark.parametrize(("dims", "expected"), LINEAR, ids=[str(d) for d, _ in LINEAR])
def test_linear_network_has_r_r_plus_1_over_2_laws(dims, expected) -> None:
    phi, variables, known = two_layer_linear(*dims)
    counted = conservation.count_laws_for_reparametrization(phi, variables)
    laws = conservation.laws_for_reparametrization(phi, variables, 2)
    assert counted == expected
    assert len(laws) == expected
    assert all(law.proof.holds and law.proof.exact and law.all_losses and law.degree == 2 for law in laws)
    # the found laws span exactly the entries of U1^T U1 - U2 U2^T
    found = [law.expr for law in laws]
    assert span_rank(found, variables) == span_rank(known, variables) == span_rank(found + known, variables)


def test_large_linear_network_is_cached() -> None:
    # the second call computes nothing: every cached step is a hit (no timing: timings live in benchmarks/)
    phi, variables, _ = two_layer_linear(4, 3, 4)
    assert len(variables) == 24
    conservation.count_laws_for_reparametrization(phi, variables)
    conservation.laws_for_reparametrization(phi, variables, 2)
    misses = (conservation._count.cache_info().misses, conservation._phi_laws.cache_info().misses)
    assert conservation.count_laws_for_reparametrization(phi, variables) == 6
    assert len(conservation.laws_for_reparametrization(phi, variables, 2)) == 6
    assert (conservation._count.cache_info().misses, conservation._phi_laws.cache_info().misses) == misses


def test_one_output_has_d_minus_1_laws() -> None:
    """A single field generates a one-dimensional Lie algebra: D - 1 laws, fewer than r(r+1)/2 = 6 here."""
    phi, variables, _ = two_layer_linear(1, 3, 1)
    assert conservation.count_laws_for_reparametrization(phi, variables) == len(variables) - 1 == 5


@pytest.mark.slow
@pytest.mark.parametrize(("dims", "expected"), [((2, 4, 2), 10), ((3, 3, 3), 6), ((5, 4, 5), 10)])
def test_larger_linear_networks(dims, expected) -> None:
    phi, variables, _ = two_layer_linear(*dims)
    assert conservation.count_laws_for_reparametrization(phi, variables) == expected
    assert len(conservation.laws_for_reparametrization(phi, variables, 2)) == expected


# ---------------------------------------------------------------- counts at growing widths, against the formulas
# Expected counts from the theory, typed here: one output gives one field, a one-dimensional Lie algebra, so
# D - 1 laws; the diagonal network has one law a_i^2 - b_i^2 per mode; the two-layer linear network of hidden
# width r has r(r+1)/2 (Marcotte et al. 2023) while r <= d + c (the stacked weights then have full rank r).
WIDTHS = {
    "two_layer_scalar": ((1, 3, 6, 12), lambda p: 2 * p - 1),
    "uv_model": ((1, 3, 6, 12), lambda p: 2 * p - 1),
    "diagonal_linear_network": ((1, 3, 6, 12), lambda p: p),
    "linear_network": ((1, 2, 3, 4, 5), lambda r: r * (r + 1) // 2),
}


@pytest.mark.parametrize("name", list(WIDTHS))
def test_counts_follow_the_formulas_as_the_width_grows(name) -> None:
    widths, formula = WIDTHS[name]
    assert [conservation.count_conservation_laws(name, p) for p in widths] == [formula(p) for p in widths]


def test_wrong_formula_is_refuted() -> None:
    """The count tells r(r+1)/2 from the D - 1 of a single field at the same size."""
    counted = conservation.count_conservation_laws("linear_network", 4)
    assert counted == 10 != len(models.get("linear_network").instance(4).variables) - 1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "p", "expected"), [("two_layer_scalar", 24, 47), ("two_layer_scalar", 48, 95), ("uv_model", 48, 95)]
)
def test_counts_at_d_96(name, p, expected) -> None:
    """D = 48 and 96 (issue 14: 158 s at D = 96 while the coefficients were factored; now well under a second)."""
    assert conservation.count_conservation_laws(name, p) == expected


# ---------------------------------------------------------------- registered models
def test_reparametrization_is_the_input_coefficients() -> None:
    a1, a2, b1, b2 = unit("a", 1), unit("a", 2), unit("b", 1), unit("b", 2)
    Z = sp.Symbol("Z", positive=True)
    (phi,) = conservation.reparametrization(models.get("two_layer_scalar").instance(2))
    assert sp.simplify(phi - (a1 * b1 + a2 * b2) / Z) == 0
    assert conservation.reparametrization(models.get("diagonal_linear_network").instance(2)) == [a1 * b1, a2 * b2]


@pytest.mark.parametrize("name", ["two_layer_scalar", "diagonal_linear_network"])
def test_balances_are_found(name) -> None:
    laws = conservation.conserved_quantities(name, 2, p=2)
    found = [law.expr for law in laws]
    for i in (1, 2):
        assert unit("a", i) ** 2 - unit("b", i) ** 2 in found
    assert all(law.proof.holds and law.proof.exact and law.all_losses for law in laws)


def test_two_layer_scalar_found_equals_counted() -> None:
    """One output: D - 1 = 3 laws at p = 2, here a_i^2 - b_i^2 and a cross balance."""
    laws = conservation.conserved_quantities("two_layer_scalar", 2, p=2)
    assert len(laws) == conservation.count_conservation_laws("two_layer_scalar", p=2) == 3
    assert conservation.count_conservation_laws("two_layer_scalar", p=2, loss="given") == 3


def test_diagonal_network_counts() -> None:
    """One law per mode for every loss; the given loss (one field) has D - 1 = 3, the third not polynomial."""
    assert conservation.count_conservation_laws("diagonal_linear_network", p=2) == 2
    assert conservation.count_conservation_laws("diagonal_linear_network", p=2, loss="given") == 3
    assert len(conservation.conserved_quantities("diagonal_linear_network", 4, p=2)) == 2


def test_learning_rates_enter_the_laws() -> None:
    """With layer-wise learning rates the balance is eta_w u_i^2 - eta_u w_i^2 (fields P grad phi)."""
    eta_u, eta_w = sp.symbols("eta_u eta_w", positive=True)
    found = [law.expr for law in conservation.conserved_quantities("layerwise_lr_linear", 2, p=2)]
    assert sp.expand(eta_w * unit("u", 1) ** 2 - eta_u * unit("w", 1) ** 2) in found


def test_power_activation_laws_are_not_all_polynomial() -> None:
    """beta = 2 (Xu & Ziyin spec §3): c_i = 2 eta_w u_i^2 - eta_u w_i^2 are found; the third law (one output:
    D - 1 = 3) is Delta_1 - Delta_2 with Delta_i an asinh, not polynomial, so found < counted."""
    model = power_activation(2)
    eta_u, eta_w = sp.symbols("eta_u eta_w", positive=True)
    laws = [law.expr for law in conservation.conserved_quantities(model, 4, p=2, loss="all")]
    assert laws == [sp.expand(2 * eta_w * unit("u", i) ** 2 - eta_u * unit("w", i) ** 2) for i in (1, 2)]
    assert conservation.count_conservation_laws(model, p=2) == 3


def test_non_law_is_rejected() -> None:
    inst = models.get("two_layer_scalar").instance(2)
    fields = conservation.flow_fields(inst, "all")
    basis = conservation.polynomial_invariants(fields, inst.variables, 2)
    candidate = unit("a", 1) ** 2 + unit("b", 1) ** 2
    assert span_rank([*basis, candidate], inst.variables) == span_rank(basis, inst.variables) + 1
    assert not inst.verify_conserved(candidate).holds


def test_powers_and_products_of_laws_are_not_new() -> None:
    a1, a2, b1, b2 = unit("a", 1), unit("a", 2), unit("b", 1), unit("b", 2)
    h1, h2 = a1**2 - b1**2, a2**2 - b2**2
    assert conservation.independent([h1, h2, h1**2, h1 * h2, 3 * h1 - h2], (a1, a2, b1, b2)) == [h1, h2]
    # the raw ansatz of degree 4 at p = 1 contains the square; the selected laws do not
    inst = models.get("two_layer_scalar").instance(1)
    (square,) = conservation.polynomial_invariants(conservation.flow_fields(inst, "all"), inst.variables, 4)
    assert sp.expand(square - h1**2) == 0
    assert [law.expr for law in conservation.conserved_quantities("two_layer_scalar", 4, p=1)] == [h1]


def test_second_call_is_cached() -> None:
    first = conservation.conserved_quantities("uv_model", 3, p=2)
    conservation.count_conservation_laws("uv_model", p=2)
    misses = (conservation._model_laws.cache_info().misses, conservation._count.cache_info().misses)
    assert conservation.conserved_quantities("uv_model", 3, p=2) == first
    assert conservation.count_conservation_laws("uv_model", p=2) == 3
    assert (conservation._model_laws.cache_info().misses, conservation._count.cache_info().misses) == misses


def test_table_covers_every_registered_model() -> None:
    table = conservation.conservation_table()
    assert [row["model"] for row in table] == models.names()
    rows = {row["model"]: row for row in table}
    assert rows["two_layer_scalar"]["D"] == 4
    assert rows["two_layer_scalar"]["counted"] == len(rows["two_layer_scalar"]["found"]) == 3
    assert rows["linear_model"]["counted"] == 0


# ---------------------------------------------------------------- unsupported models and the claims
NON_POLYNOMIAL = Model(
    name="exp_network",
    title="f(x) = sum exp(a_i) b_i x (not polynomial in the state)",
    reference="test only",
    state_names=("a", "b"),
    unit_param_names=(),
    shared_param_names=(),
    network=lambda s, x: sum(sp.exp(ai) * bi for ai, bi in zip(s["a"], s["b"], strict=True)) * x[0],
    target=lambda s, x: x[0],
    moment=lambda s, i, j: sp.S.One,
    input_dim=lambda p: 1,
    quantities={"loss": Quantity("scalar", sp.S.Zero)},
)


def test_unsupported_model_is_reported_not_crashed(monkeypatch) -> None:
    with pytest.raises(conservation.UnsupportedModelError, match="not polynomial"):
        conservation.reparametrization(NON_POLYNOMIAL.instance(2))
    (row,) = conservation.conservation_table([NON_POLYNOMIAL])
    assert row["counted"] is None and "not polynomial" in row["note"]
    outcome = conservation_claims.completeness(NON_POLYNOMIAL)()
    assert outcome.status is Status.ERROR and "not polynomial" in outcome.detail
    registry = {"exp_network": NON_POLYNOMIAL, "two_layer_scalar": models.get("two_layer_scalar")}
    monkeypatch.setattr(models, "names", lambda: list(registry))
    monkeypatch.setattr(models, "get", registry.__getitem__)
    assert list(conservation_claims.skipped_models()) == ["exp_network"]
    assert "not polynomial" in conservation_claims.skipped_models()["exp_network"]


def test_claims_are_proved() -> None:
    from proofs_check.papers import load_papers

    claims = {claim.id: claim for claim in load_papers(["marcotte2023"]).claims()}
    unregularized = [name for name in models.BUILTIN if models.get(name).regularizer is None]
    assert len(claims) == len(unregularized) + len(conservation_claims.LINEAR_CASES)
    for cid in ("completeness.two_layer_scalar", "completeness.diagonal_linear_network", "linear.d4_r3_c4"):
        outcome = claims[f"marcotte2023.{cid}"].check()
        assert outcome.status is Status.PROVED, outcome


def test_a_wrong_count_is_refuted(monkeypatch) -> None:
    counted = conservation_claims.count_laws_for_reparametrization
    monkeypatch.setattr(conservation_claims, "count_laws_for_reparametrization", lambda *a: counted(*a) + 1)
    assert conservation_claims.linear_count(2, 2, 2)().status is Status.REFUTED


# ---------------------------------------------------------------- a law of the given loss only
CORRELATED = Model(
    name="correlated_inputs",
    title="f(x) = theta_1 x_1 + theta_2 x_2 with x_1 = x_2 (E[x x^T] all ones): theta_1 - theta_2 is conserved",
    reference="test only",
    state_names=("theta",),
    unit_param_names=(),
    shared_param_names=("S",),
    network=lambda s, x: sum(th * xi for th, xi in zip(s["theta"], x, strict=True)),
    target=lambda s, x: s["S"] * x[0],
    moment=lambda s, i, j: sp.S.One,
    input_dim=lambda p: p,
    quantities={"loss": Quantity("scalar", sp.S.Zero)},
)


def test_a_law_of_the_given_loss_only_is_found() -> None:
    """theta_1 - theta_2 holds for this loss (both coordinates move by S - theta_1 - theta_2) but not for every
    loss of (theta_1, theta_2): the specialization shortcut must not hide it."""
    laws = conservation.conserved_quantities(CORRELATED, degree=2, p=2, loss="given")
    theta_1, theta_2 = sp.symbols("theta_1 theta_2", real=True)
    assert [(sp.expand(law.expr), law.all_losses) for law in laws] == [(theta_1 - theta_2, False)]
