"""The matrix-form flow for general sizes (spec §1) and the aligned-set argument (spec §3), in the free algebra."""

from __future__ import annotations

import sympy as sp

from derivations.matrix_flow import (
    aligned_invariance,
    conserved_matrix_derivative,
    matrix_gradient_flow,
    noncommutative,
    reduce,
    transpose,
)


def is_zero(expr: sp.Basic) -> bool:
    """A scalar 0 or a zero matrix (``ZeroMatrix == 0`` is False in SymPy)."""
    return expr == 0 or isinstance(expr, sp.ZeroMatrix)


def test_matrix_gradient_is_the_spec_flow() -> None:
    flow = matrix_gradient_flow()
    W1, W2, Sxx, Sxy = flow.W1, flow.W2, flow.Sxx, flow.Sxy
    M = Sxy - Sxx * W1 * W2
    assert is_zero(sp.expand(flow.field[W1] - M * W2.T))
    assert is_zero(sp.expand(flow.field[W2] - W1.T * M))
    assert not is_zero(sp.expand(flow.field[W1] - M * W2.T * 2))


def test_conserved_matrix_derivative_vanishes_and_a_wrong_sign_does_not() -> None:
    assert is_zero(conserved_matrix_derivative())
    flow = matrix_gradient_flow()
    W1, W2 = flow.W1, flow.W2
    F1, F2 = flow.field[W1], flow.field[W2]
    wrong = sp.expand((F1.T * W1 + W1.T * F1 + F2 * W2.T + W2 * F2.T).doit())
    assert not is_zero(wrong)


def test_aligned_invariance_residuals_vanish() -> None:
    assert aligned_invariance() == {"W1": 0, "W2": 0}


def test_reduction_needs_each_orthogonality_relation() -> None:
    U, Ut, X = sp.symbols("U U^T X", commutative=False)
    assert reduce(Ut * U * X - X, {Ut * U: 1}) == 0
    assert reduce(Ut * U * X - X, {}) != 0
    assert reduce(U * Ut * X - X, {Ut * U: 1}) != 0


def test_transpose_reverses_products_and_maps_partners() -> None:
    A, At, B, Bt = sp.symbols("A A^T B B^T", commutative=False)
    MA, MB = sp.MatrixSymbol("A", 2, 2), sp.MatrixSymbol("B", 2, 2)
    table = {MA: A, MB: B, sp.Transpose(MA): At, sp.Transpose(MB): Bt}
    assert transpose(3 * A * B**2, table) == 3 * Bt**2 * At
    assert noncommutative((MA * MB).T, table) == Bt * At
    assert noncommutative(MA * MB + 2 * MB.T, table) == A * B + 2 * Bt
