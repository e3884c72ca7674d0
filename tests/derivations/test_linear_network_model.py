"""``linear_network``: the derived loss, flow, unit field, NTK and conservation laws against the spec's matrix
formulas (spec models-nam2025.md §1, §6), typed here with SymPy matrices of the instance's symbols."""

from __future__ import annotations

import pytest
import sympy as sp

from derivations import models
from derivations.conservation import count_conservation_laws
from derivations.models.linear_network import linear_network, moment_matrices, weights

SIZES = [(1, 1), (2, 3), (3, 2)]


def spec_field(inst) -> dict[sp.Symbol, sp.Expr]:
    """Spec §1: W1' = M W2^T, W2' = W1^T M, M = Sxy - Sxx W1 W2."""
    W1, W2 = weights(inst)
    Sxx, Sxy, _ = moment_matrices(inst)
    M = Sxy - Sxx * W1 * W2
    return {**dict(zip(W1, M * W2.T, strict=True)), **dict(zip(W2, W1.T * M, strict=True))}


def test_registry_holds_the_matrix_models() -> None:
    for name in ("linear_network", "deep_linear_whitened", "lambda_balanced"):
        assert models.get(name).name == name
    assert models.get("linear_network") is linear_network(3, 2)


@pytest.mark.parametrize(("d", "c"), SIZES)
@pytest.mark.parametrize("p", [1, 2, 3])
def test_derived_field_is_the_spec_matrix_flow(d, c, p) -> None:
    inst = linear_network(d, c).instance(p)
    expected = spec_field(inst)
    assert set(expected) == set(inst.vector_field)
    for s, value in inst.vector_field.items():
        assert sp.expand(value - expected[s]) == 0, s


@pytest.mark.parametrize(("d", "c"), SIZES)
def test_unit_field_reproduces_every_unit_at_widths_1_to_3(d, c) -> None:
    model = linear_network(d, c)
    for p in (1, 2, 3):
        inst = model.instance(p)
        W1, W2 = weights(inst)
        sums = {model.symbol(f"P_{k + 1}_{m + 1}"): (W1 * W2)[k, m] for k in range(d) for m in range(c)}
        for j in range(p):
            rename = {v: k for k, v in inst.unit_renaming(j).items()}
            for generic, value in model.unit_field.items():
                explicit = inst.vector_field[rename[generic]]
                assert sp.expand(value.xreplace(sums).xreplace(rename) - explicit) == 0


def test_loss_is_the_trace_form() -> None:
    inst = linear_network(2, 3).instance(2)
    W1, W2 = weights(inst)
    Sxx, Sxy, Syy = moment_matrices(inst)
    trace_form = Syy.trace() / 2 - (W2.T * W1.T * Sxy).trace() + (W2.T * W1.T * Sxx * W1 * W2).trace() / 2
    assert sp.expand(inst.loss - trace_form) == 0
    sums = {linear_network(2, 3).symbol(f"P_{k + 1}_{m + 1}"): (W1 * W2)[k, m] for k in range(2) for m in range(3)}
    assert sp.expand(linear_network(2, 3).quantities["loss"].expr.xreplace(sums) - trace_form) == 0


def test_ntk_is_the_spec_table_entry() -> None:
    """Spec §6: K(x, x') = (x^T W1 W1^T x') I_c + (x^T x') W2^T W2 (paper orientation)."""
    inst = linear_network(3, 2).instance(2)
    W1, W2 = weights(inst)
    x = sp.Matrix(inst.inputs[:3])
    xp = sp.Matrix([sp.Symbol(f"{s}'", real=True) for s in inst.inputs[:3]])
    expected = (x.T * W1 * W1.T * xp)[0, 0] * sp.eye(2) + (x.T * xp)[0, 0] * W2.T * W2
    assert (inst.ntk() - expected).expand() == sp.zeros(2, 2)


def test_code_orientation_is_the_transpose() -> None:
    inst = linear_network(3, 2).instance(2)
    W1, W2 = weights(inst)
    W1c, W2c = weights(inst, "code")
    assert W1c == W1.T and W2c == W2.T and W1.shape == (3, 2) and W2.shape == (2, 2)
    f = W2.T * W1.T * sp.Matrix(inst.inputs[:3])
    assert (W2c * W1c * sp.Matrix(inst.inputs[:3]) - f).expand() == sp.zeros(2, 1)
    assert (sp.Matrix(inst.outputs) - f).expand() == sp.zeros(2, 1)
    with pytest.raises(ValueError, match="orientation"):
        weights(inst, "transposed")


@pytest.mark.parametrize(("d", "c", "p"), [(2, 2, 2), (3, 2, 2), (2, 3, 1)])
def test_conserved_matrix_entrywise(d, c, p) -> None:
    inst = linear_network(d, c).instance(p)
    W1, W2 = weights(inst)
    C = W1.T * W1 - W2 * W2.T
    assert all(inst.verify_conserved(C[i, j]).holds for i in range(p) for j in range(p))
    assert not inst.verify_conserved((W1.T * W1 + W2 * W2.T)[0, 0]).holds


def test_marcotte_count_for_the_registered_matrix_model() -> None:
    """r(r+1)/2 laws for the hidden width r = p = 2 (Marcotte et al. 2023; r <= d + c)."""
    assert count_conservation_laws(linear_network(2, 2), p=2) == 3


@pytest.mark.parametrize(("d", "c"), [(0, 2), (2, 0), (1.5, 2)])
def test_bad_sizes_are_rejected(d, c) -> None:
    with pytest.raises(ValueError, match="must be an integer >= 1"):
        linear_network(d, c)
