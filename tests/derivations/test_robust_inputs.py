"""Issues 13 and 17 on the symbolic side: no string evaluated as code, argument checks and the ansatz budget of
the conservation search, the realizability check of second moments, and the scale invariance of quantities."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
import sympy as sp

from derivations import conservation, models
from derivations.model import Quantity
from derivations.models.linear_network import check_second_moments
from derivations.scale_invariance import scaling_groups
from proofs_check.papers.xu_ziyin2025 import scaling


def test_no_string_is_evaluated_as_code() -> None:
    """Issue 17: ``e_B(c_d="__import__('os').getpid()")`` returned the process id."""
    payload = "__import__('os').getpid()"
    for call in (
        lambda: scaling.e_B(c_d=payload),
        lambda: scaling.e_B_value(**dict.fromkeys(scaling.NAMES, 0), c_u=payload),
        lambda: scaling.kappa_exponent(payload),
    ):
        with pytest.raises(TypeError, match=r"string|got"):
            call()
    assert scaling.e_B(c_d=1, c_u=0, c_w=0, c_gamma=0, c_eta_u=0, c_eta_w=0) != os.getpid()
    with pytest.raises(sp.SympifyError):  # the package's sympify is strict: a string is never parsed
        conservation.independent([payload], [sp.Symbol("x")])


def test_e_B_is_exact_for_floats() -> None:
    """A 15-digit Float sum of 1e300 − 1e300 and the unit exponents lost them (−2.0 instead of −3.5)."""
    c = {"c_d": 0.5, "c_u": -3, "c_w": 3, "c_gamma": 0, "c_eta_u": 1e300, "c_eta_w": 1e300}
    assert scaling.e_B_value(**c) == -3.5
    assert scaling.e_B(**c) == sp.Rational(-7, 2)
    with pytest.raises(ValueError, match="c_d"):
        scaling.e_B(c_d=float("nan"))
    with pytest.raises(ValueError, match="c_d"):
        scaling.e_B(c_d=1j)


def test_conservation_arguments_and_budget() -> None:
    for call, error, pattern in (
        (lambda: conservation.conserved_quantities(["two_layer_scalar"]), TypeError, "model must be"),
        (lambda: conservation.conserved_quantities("two_layer_scalar", 0), ValueError, "degree"),
        (lambda: conservation.conserved_quantities("two_layer_scalar", 2.5), ValueError, "degree"),
        (lambda: conservation.conserved_quantities("two_layer_scalar", 2, 0), ValueError, r"\bp\b"),
        (lambda: conservation.count_conservation_laws("two_layer_scalar", 65), ValueError, r"\bp\b.*MAX_WIDTH"),
        (lambda: conservation.count_conservation_laws("two_layer_scalar", 2, ["all"]), ValueError, "loss"),
        # linear_network's own field has 12 symbolic parameters: the degree-2 nullspace over Q(12 parameters)
        # did not finish in 90 s at p = 1; it is refused before it starts
        (lambda: conservation.conserved_quantities("linear_network", 3, 1), ValueError, r"max_cost = 30000"),
    ):
        with pytest.raises(error, match=pattern):
            call()
    laws = conservation.conserved_quantities("two_layer_scalar", 2, 2, max_cost=10**6)
    assert len(laws) == 3


def test_second_moments_check_names_the_block() -> None:
    names = [["Sxx_1_1", "Sxy_1_1"], ["Sxy_1_1", "Syy_1_1"]]
    check_second_moments([[1.0, 1.0], [1.0, 1.0]], names, 1)  # x = y: singular, realizable
    check_second_moments([[1.0, 0.5], [0.5, 0.25 * (1 - 1e-12)]], names, 1)  # within the rounding tolerance
    for matrix, pattern in (
        ([[1.0, 1.0], [1.0, 0.9]], r"Sxy must be realizable"),  # |correlation| > 1
        ([[-1.0, 0.0], [0.0, 1.0]], r"Sxx must have a diagonal >= 0"),
        ([[1.0, 1.0], [1.0, 0.0]], r"Syy has Syy_1_1 = 0 but Sxy_1_1"),
    ):
        with pytest.raises(ValueError, match=pattern):
            check_second_moments(matrix, names, 1)


def test_scaling_groups_are_derived_from_the_expressions() -> None:
    """The cosine is invariant under scaling u and w separately, tanh θ only jointly; a wrong variant (u·w/|u|)
    and the loss are not invariant at all."""
    model = models.get("layerwise_lr_linear")
    assert scaling_groups(model, "alignment") == (("u",), ("w",))
    assert scaling_groups(model, "alignment_weighted") == (("u", "w"),)
    assert scaling_groups(model, "loss") == ()
    uw, uu = sp.Symbol("uw", real=True), sp.Symbol("uu", real=True)
    wrong = replace(model, quantities={**model.quantities, "bad": Quantity("scalar", uw / sp.sqrt(uu))})
    assert scaling_groups(wrong, "bad") == ()
    with pytest.raises(ValueError, match="not a scalar"):
        scaling_groups(model, "uw")


def test_the_cosine_quantities_are_the_cosines_where_defined() -> None:
    """At random positive norms (Cauchy-Schwarz respected) the model's quantities are ``COSINES``; at a zero vector
    they are 0; a wrong variant (the clamp at 0.9) is caught."""
    from derivations.models.layerwise_lr_linear import COSINES

    model = models.get("layerwise_lr_linear")
    s = {n: sp.Symbol(n, real=True) for n in ("uw", "uu", "ww")}
    rates = {sp.Symbol("eta_u", positive=True): sp.Rational(2), sp.Symbol("eta_w", positive=True): sp.Rational(1, 3)}
    for point in ({"uw": 1, "uu": 2, "ww": 3}, {"uw": -5, "uu": 4, "ww": 7}, {"uw": 0, "uu": 1, "ww": 9}):
        values = {s[k]: sp.Rational(v) for k, v in point.items()} | rates
        for name, cosine in COSINES.items():
            assert sp.simplify(model.quantities[name].expr.xreplace(values) - cosine.xreplace(values)) == 0
            wrong = sp.Max(-sp.Rational(9, 10), sp.Min(sp.Rational(9, 10), cosine)).xreplace(values)
            if abs(cosine.xreplace(values)) > sp.Rational(9, 10):
                assert sp.simplify(model.quantities[name].expr.xreplace(values) - wrong) != 0
    for name in COSINES:  # at a zero vector (evaluated as numerics does: the undefined branch is not taken)
        expr = model.quantities[name].expr
        f = sp.lambdify(sorted(expr.free_symbols, key=str), expr, "mpmath")
        assert f(*(2 if str(x).startswith("eta") else 0 for x in sorted(expr.free_symbols, key=str))) == 0
