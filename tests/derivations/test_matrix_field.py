"""The matrix-form declaration of a model's flow (``derivations.matrix_field``) and its place on ``Model``."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from derivations.matrix_field import (
    MatrixField,
    MatrixQuantity,
    directional_derivative,
    from_matrix_flow,
    matrix_symbols,
)
from derivations.matrix_flow import MatrixFlow, matrix_gradient_flow
from derivations.model import DeferredQuantities, Quantity, quantity_kinds
from derivations.models.linear_network import linear_network, matrix_field, smallest_eigenvalue


def _declare(flow: MatrixFlow) -> MatrixField:
    return from_matrix_flow(
        flow,
        states={"W1": flow.W1, "W2T": flow.W2.T},
        params={"Sxx": flow.Sxx, "Sxy": flow.Sxy, "Syy": flow.Syy},
        quantities={"loss": MatrixQuantity(flow.loss)},
    )


def test_the_matrix_field_is_written_in_the_models_own_matrices() -> None:
    declared = matrix_field(3, 2)
    assert set(declared.states) == {"W1", "W2T"} and set(declared.params) == {"Sxx", "Sxy", "Syy"}
    names = {str(m) for e in declared.field.values() for m in matrix_symbols(e)}
    assert names <= {"W1", "W2T", "Sxx", "Sxy"}
    assert linear_network(3, 2).matrix_field is declared


def test_a_factored_field_that_is_not_the_derived_gradient_is_refused() -> None:
    flow = matrix_gradient_flow()
    # a wrong derived flow (the W1 component with the sign of its cubic term flipped): M W2^T no longer matches
    cubic = flow.Sxx * flow.W1 * flow.W2 * flow.W2.T
    wrong = dataclasses.replace(flow, field={**flow.field, flow.W1: flow.Sxy * flow.W2.T + cubic})
    with pytest.raises(ValueError, match="differs from the derived one"):
        _declare(wrong)
    assert set(_declare(flow).field) == {"W1", "W2T"}


def test_from_matrix_flow_needs_every_matrix() -> None:
    flow = matrix_gradient_flow()
    with pytest.raises(ValueError, match="missing"):
        from_matrix_flow(flow, {"W1": flow.W1, "W2T": flow.W2.T}, {"Sxx": flow.Sxx}, {})


def test_directional_derivative_is_the_product_rule() -> None:
    n = 3
    A, B = sp.MatrixSymbol("A", n, n), sp.MatrixSymbol("B", n, n)
    dA, dB = sp.MatrixSymbol("dA", n, n), sp.MatrixSymbol("dB", n, n)
    expr = A * B.T * A + sp.Trace(A * B) * sp.Identity(n) * 0 + 2 * B
    eps = sp.Symbol("eps")
    explicit = (expr.as_explicit().subs({A: A + eps * dA, B: B + eps * dB}).doit()).as_explicit()
    # the explicit derivative at eps = 0, entry by entry
    reference = sp.Matrix(n, n, lambda i, j: sp.diff(sp.expand(explicit[i, j]), eps).subs(eps, 0))
    derived = directional_derivative(A * B.T * A + 2 * B, {A: dA, B: dB}).as_explicit()
    assert sp.expand(derived - reference) == sp.zeros(n, n)
    # a wrong variant (only A varied) differs
    partial = directional_derivative(A * B.T * A + 2 * B, {A: dA}).as_explicit()
    assert sp.expand(partial - reference) != sp.zeros(n, n)


def test_directional_derivative_of_a_trace_and_refusal_of_unknown_nodes() -> None:
    A, dA = sp.MatrixSymbol("A", 2, 2), sp.MatrixSymbol("dA", 2, 2)
    derived = directional_derivative(sp.Trace(A * A) / 2, {A: dA})
    explicit = {A: sp.Matrix(A), dA: sp.Matrix(dA)}
    assert sp.expand(derived.subs(explicit).doit() - (explicit[dA] * explicit[A]).trace()) == 0
    assert sp.expand(derived.subs(explicit).doit() - (explicit[dA] * explicit[A]).trace() / 2) != 0
    with pytest.raises(ValueError, match="no rule"):
        directional_derivative(sp.Inverse(A), {A: dA})


def test_matrix_field_must_match_the_layouts() -> None:
    model = linear_network(2, 2)
    flow = matrix_gradient_flow()
    wrong = from_matrix_flow(
        flow, {"W1": flow.W1, "W2": flow.W2}, {"Sxx": flow.Sxx, "Sxy": flow.Sxy, "Syy": flow.Syy}, {}
    )
    bad = dataclasses.replace(model, matrix_field_of=lambda: wrong)
    with pytest.raises(ValueError, match="matrix_states"):
        _ = bad.matrix_field
    unknown = dataclasses.replace(
        model,
        matrix_field_of=lambda: dataclasses.replace(_declare(flow), quantities={"energy": MatrixQuantity(flow.loss)}),
    )
    with pytest.raises(ValueError, match="energy"):
        _ = unknown.matrix_field
    assert dataclasses.replace(model, matrix_field_of=None).matrix_field is None


def test_quantities_are_deferred_until_an_expression_is_read() -> None:
    model = linear_network(32, 32)
    quantities = model.quantities
    assert isinstance(quantities, DeferredQuantities)
    assert len(quantities) == 32 * 32 + 1 and "loss" in quantities and "P_32_32" in quantities
    assert quantity_kinds(quantities)["P_1_1"] == "sum"
    assert not quantities.built  # the 32 768-term loss was not built
    small = linear_network(2, 1).quantities
    assert small["P_2_1"].expr == sp.Symbol("W1_2", real=True) * sp.Symbol("W2T_1", real=True)
    assert isinstance(small["loss"], Quantity)


def test_deferred_quantities_refuse_kinds_that_differ() -> None:
    deferred = DeferredQuantities({"x": "sum"}, lambda: {"x": Quantity("scalar", sp.S.One)})
    assert list(deferred) == ["x"]
    with pytest.raises(ValueError, match="kinds differ"):
        _ = deferred["x"]
    with pytest.raises(KeyError):
        _ = DeferredQuantities({}, dict)["y"]


def test_smallest_eigenvalue_falls_back_to_mpmath_near_the_threshold() -> None:
    import mpmath
    import numpy as np

    threshold = -1e-9
    with mpmath.workdps(30):
        rotation = mpmath.matrix([[mpmath.cos(1), -mpmath.sin(1)], [mpmath.sin(1), mpmath.cos(1)]])

        def rotated(smallest: mpmath.mpf) -> list[list[mpmath.mpf]]:
            a = rotation * mpmath.diag([1, smallest]) * rotation.T
            return [[a[i, j] for j in range(2)] for i in range(2)]

        below, above = (
            rotated(mpmath.mpf(threshold) - mpmath.mpf("1e-18")),
            rotated(mpmath.mpf(threshold) + mpmath.mpf("1e-18")),
        )
        # float64 cannot tell the two apart (their float64 eigenvalues differ by less than the rounding)
        floats = [np.linalg.eigvalsh(np.array(m, dtype=float))[0] for m in (below, above)]
        assert abs(floats[0] - floats[1]) < 1e-15
        with mpmath.workdps(25):
            assert smallest_eigenvalue(below, threshold) < threshold < smallest_eigenvalue(above, threshold)
        # far from the threshold the float64 value is returned
        assert isinstance(smallest_eigenvalue(rotated(mpmath.mpf("0.5")), threshold), float)


def test_check_second_moments_decides_near_the_threshold_at_20_digits() -> None:
    import mpmath

    from derivations.models.linear_network import REALIZABLE_TOLERANCE, check_second_moments

    names = [["Sxx_1_1", "Sxy_1_1"], ["Sxy_1_1", "Syy_1_1"]]
    with mpmath.workdps(30):
        # [[1, r], [r, 1]] has the smallest eigenvalue 1 − r: 1e-18 beyond or within the tolerance, where the
        # float64 correlation (r rounds to the same double either way) cannot decide
        beyond = 1 + mpmath.mpf(REALIZABLE_TOLERANCE) + mpmath.mpf("1e-18")
        within = 1 + mpmath.mpf(REALIZABLE_TOLERANCE) - mpmath.mpf("1e-18")
        assert float(beyond) == float(within)
        with pytest.raises(ValueError, match="Sxy must be realizable"):
            check_second_moments([[1, beyond], [beyond, 1]], names, 1)
        check_second_moments([[1, within], [within, 1]], names, 1)
    # far from the threshold the float64 route decides, both ways
    with pytest.raises(ValueError, match="Sxy must be realizable"):
        check_second_moments([[1.0, 1.5], [1.5, 1.0]], names, 1)
    check_second_moments([[1.0, 0.5], [0.5, 1.0]], names, 1)
