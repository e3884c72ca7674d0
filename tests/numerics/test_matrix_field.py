"""Matrix networks evaluated as matrix products (``numerics.matrix_field``): the translated matrix field against
the entrywise derivation (``Instance.vector_field``, SymPy's ``diff`` of the explicit loss), and the matrix route of
``trajectory`` against the entrywise route."""

from __future__ import annotations

import dataclasses
import pickle

import mpmath
import numpy as np
import pytest
import sympy as sp

from derivations.model import DeferredQuantities
from derivations.models.linear_network import linear_network, moment_entries
from numerics import trajectory
from numerics.budget import BudgetError
from numerics.compiled import batch_field
from numerics.matrix_field import matrix_compiled, translate


def _moments(rng: np.random.Generator, d: int, c: int, batch: int = 1) -> dict[str, np.ndarray]:
    A = rng.normal(size=(batch, d, d))
    Sxx = A @ np.swapaxes(A, -1, -2) / d + np.eye(d)
    Sxy = rng.normal(size=(batch, d, c)) / d
    Syy = np.swapaxes(Sxy, -1, -2) @ np.linalg.inv(Sxx) @ Sxy + np.eye(c)
    return {"Sxx": Sxx, "Sxy": Sxy, "Syy": (Syy + np.swapaxes(Syy, -1, -2)) / 2}


def _entrywise_field(d: int, c: int, W1: np.ndarray, W2T: np.ndarray, moments: dict[str, np.ndarray]) -> list:
    """Ẇ₁, Ẇ₂ᵀ from the explicit width-p SymPy derivation (``Instance.vector_field``), at one point."""
    model = linear_network(d, c)
    instance = model.instance(W1.shape[1])
    values: dict[sp.Symbol, float] = {}
    for name, matrix in (("W1", W1), ("W2T", W2T)):
        for k, row in enumerate(model.matrix_states[name]):
            values.update(zip(instance.state[row], matrix[k], strict=True))
    for name, layout in moment_entries(d, c).items():
        for i, row in enumerate(layout):
            for j, entry in enumerate(row):
                values[instance.sym[entry]] = moments[name][0, i, j]
    out = []
    for name in ("W1", "W2T"):
        rows = model.matrix_states[name]
        out.append(
            np.array([[float(instance.vector_field[s].xreplace(values)) for s in instance.state[row]] for row in rows])
        )
    return out


@pytest.mark.parametrize(("d", "p", "c"), [(2, 2, 2), (3, 2, 4)])
def test_matrix_field_is_the_entrywise_derivation(d: int, p: int, c: int) -> None:
    rng = np.random.default_rng(d * 10 + c)
    compiled = matrix_compiled(linear_network(d, c))
    for _ in range(3):
        W1, W2T, moments = rng.normal(size=(d, p)), rng.normal(size=(c, p)), _moments(rng, d, c)
        expected = _entrywise_field(d, c, W1, W2T, moments)
        got = compiled.field(W1[None], W2T[None], moments["Sxx"], moments["Sxy"], moments["Syy"])
        for e, g in zip(expected, got, strict=True):
            np.testing.assert_allclose(g[0], e, rtol=0, atol=1e-13 * max(1.0, np.max(np.abs(e))))


def test_a_transposed_product_is_caught_by_the_entrywise_comparison() -> None:
    d = p = c = 2
    model = linear_network(d, c)
    declared = model.matrix_field
    W1s, W2Ts = declared.states["W1"], declared.states["W2T"]
    Sxx, Sxy, Syy = (declared.params[n] for n in ("Sxx", "Sxy", "Syy"))
    M = Sxy - Sxx * W1s * W2Ts.T
    # Ẇ₂ᵀ written as W₁ᵀM (the field of W₂, not of its transpose): same shape at d = p = c = 2, wrong values
    wrong = translate([W1s, W2Ts, Sxx, Sxy, Syy], [M * W2Ts, W1s.T * M])
    right = translate([W1s, W2Ts, Sxx, Sxy, Syy], [M * W2Ts, (W1s.T * M).T])
    rng = np.random.default_rng(5)
    W1, W2T, moments = rng.normal(size=(d, p)), rng.normal(size=(c, p)), _moments(rng, d, c)
    expected = _entrywise_field(d, c, W1, W2T, moments)
    args = (W1[None], W2T[None], moments["Sxx"], moments["Sxy"], moments["Syy"])
    assert np.max(np.abs(wrong(*args)[1][0] - expected[1])) > 1e-3
    assert np.max(np.abs(right(*args)[1][0] - expected[1])) < 1e-13


def test_matrix_tangent_is_the_entrywise_jacobian_product() -> None:
    d = p = c = 2
    model = linear_network(d, c)
    entrywise = batch_field(dataclasses.replace(model, matrix_field_of=None))
    compiled = matrix_compiled(model)
    rng = np.random.default_rng(7)
    moments = _moments(rng, d, c)
    y, v = rng.normal(size=(d + c, 3, p)), rng.normal(size=(d + c, 3, p))
    entries = {
        n: moments[m][0, i, j]
        for m, layout in moment_entries(d, c).items()
        for i, row in enumerate(layout)
        for j, n in enumerate(row)
    }
    expected = entrywise.jvp(y, v, [entries[n] for n in entrywise.param_names])
    from numerics.matrix_field import batch_field as matrix_batch_field

    field = matrix_batch_field(compiled)
    params = [moments[n] for n in compiled.param_matrices]
    np.testing.assert_allclose(field.jvp(y, v, params), expected, rtol=0, atol=1e-13)
    np.testing.assert_allclose(field(y, params), entrywise(y, [entries[n] for n in entrywise.param_names]), atol=1e-13)
    # a wrong tangent (the field's product rule without the W2T terms) differs
    declared = model.matrix_field
    partial = {n: sp.MatrixSymbol(f"d{n}", *s.shape) for n, s in declared.states.items()}
    from derivations.matrix_field import directional_derivative

    states = [declared.states[n] for n in ("W1", "W2T")]
    only_w1 = translate(
        [*states, partial["W1"], *(declared.params[n] for n in compiled.param_matrices)],
        [directional_derivative(declared.field[n], {declared.states["W1"]: partial["W1"]}) for n in ("W1", "W2T")],
    )
    W1, W2T = np.moveaxis(y[:d], 0, 1), np.moveaxis(y[d:], 0, 1)
    wrong = only_w1(W1, W2T, np.moveaxis(v[:d], 0, 1), *params)
    assert np.max(np.abs(np.moveaxis(wrong[0], 1, 0) - expected[:d])) > 1e-3


def test_matrix_quantities_are_the_entrywise_ones() -> None:
    d, p, c = 3, 2, 2
    rng = np.random.default_rng(11)
    moments = _moments(rng, d, c)
    W1, W2T = rng.normal(size=(d, p)), rng.normal(size=(c, p))
    params = {k: v[0] for k, v in moments.items()}
    model = linear_network(d, c)
    a = trajectory(model, [0.0], params, {"W1": W1, "W2T": W2T}, method="gd", lr=0.1)
    b = trajectory(
        dataclasses.replace(model, matrix_field_of=None), [0.0], params, {"W1": W1, "W2T": W2T}, method="gd", lr=0.1
    )
    assert set(a) == set(b)
    for name in a:
        np.testing.assert_allclose(a[name], b[name], rtol=1e-13, atol=1e-14)
    # the loss by its definition ½E|y − W₂ᵀW₁ᵀx|² = ½tr Σyy − tr(W₂ᵀW₁ᵀΣxy) + ½tr(W₂ᵀW₁ᵀΣxxW₁W₂)
    Sxx, Sxy, Syy = params["Sxx"], params["Sxy"], params["Syy"]
    P = W1 @ W2T.T
    loss = np.trace(Syy) / 2 - np.trace(P.T @ Sxy) + np.trace(P.T @ Sxx @ P) / 2
    assert abs(a["loss"][0] - loss) < 1e-13 and abs(a["P_3_2"][0] - P[2, 1]) < 1e-15


@pytest.mark.parametrize(("method", "options"), [("scipy", {}), ("gd", {"lr": 0.01})])
def test_3x3_trajectories_agree_between_the_matrix_and_entrywise_routes(method: str, options: dict) -> None:
    d = c = 3
    rng = np.random.default_rng(3)
    model = linear_network(d, c)
    moments = _moments(rng, d, c, batch=2)
    init = {"W1": 0.3 * rng.normal(size=(2, d, 4)), "W2T": 0.3 * rng.normal(size=(2, c, 4))}
    t = [0.0, 0.5, 2.0]
    a = trajectory(model, t, moments, init, method=method, **options)
    b = trajectory(dataclasses.replace(model, matrix_field_of=None), t, moments, init, method=method, **options)
    assert set(a) == set(b)
    for name in a:
        np.testing.assert_allclose(a[name], b[name], rtol=0, atol=1e-10)
    # a wrong variant (the other batch element's moments) is far from it
    swapped = {k: v[::-1] for k, v in moments.items()}
    c_ = trajectory(model, t, swapped, init, method=method, **options)
    assert np.max(np.abs(c_["W1_1"] - b["W1_1"])) > 1e-4


def test_mpmath_route_agrees_with_the_entrywise_route() -> None:
    d = c = 2
    rng = np.random.default_rng(4)
    model = linear_network(d, c)
    params = {k: v[0] for k, v in _moments(rng, d, c).items()}
    init = {"W1": 0.3 * rng.normal(size=(d, 2)), "W2T": 0.3 * rng.normal(size=(c, 2))}
    a = trajectory(model, [0.0, 0.2], params, init, method="mpmath", dps=20)
    b = trajectory(dataclasses.replace(model, matrix_field_of=None), [0.0, 0.2], params, init, method="mpmath", dps=20)
    assert isinstance(a["W1_1"][-1, 0], mpmath.mpf)
    for name in a:
        assert max(abs(x - y) for x, y in zip(a[name].ravel(), b[name].ravel(), strict=True)) < mpmath.mpf("1e-18")


def test_32x32_runs_without_any_entrywise_derivation() -> None:
    d = c = 32
    rng = np.random.default_rng(0)
    model = linear_network(d, c)
    params = {k: v[0] for k, v in _moments(rng, d, c).items()}
    init = {"W1": 0.1 * rng.normal(size=(d, 32)), "W2T": 0.1 * rng.normal(size=(c, 32))}
    run = trajectory(model, [0.0, 0.5], params, init, method="gd", lr=0.05)
    assert "unit_field" not in model.__dict__  # the entrywise unit field was never derived
    assert isinstance(model.quantities, DeferredQuantities)
    assert not model.quantities.built  # nor the 32 768-term loss
    # ten GD steps by hand: W₁ += η M W₂, W₂ᵀ += η Mᵀ W₁, M = Σxy − Σxx W₁ W₂ (the spec's matrix flow)
    W1, W2T = init["W1"], init["W2T"]
    for _ in range(10):
        M = params["Sxy"] - params["Sxx"] @ W1 @ W2T.T
        W1, W2T = W1 + 0.05 * M @ W2T, W2T + 0.05 * M.T @ W1
    np.testing.assert_allclose(run.W1[-1], W1, rtol=0, atol=1e-13)
    np.testing.assert_allclose(run.W2T[-1], W2T, rtol=0, atol=1e-13)
    # the joint moments are checked at this size too (float64 eigenvalues, far from the threshold)
    with pytest.raises(ValueError, match="Sxy must be realizable"):
        trajectory(model, [0.0, 0.5], dict(params, Syy=1e-4 * np.eye(c)), init, method="gd", lr=0.05)


def test_matrix_route_keeps_budgets_and_finite_checks() -> None:
    d = c = 3
    rng = np.random.default_rng(2)
    model = linear_network(d, c)
    params = {k: v[0] for k, v in _moments(rng, d, c).items()}
    init = {"W1": rng.normal(size=(d, 3)), "W2T": rng.normal(size=(c, 3))}
    with pytest.raises(OverflowError, match="lr"):
        trajectory(model, [0.0, 1000.0], params, init, method="gd", lr=10.0)
    with pytest.raises(BudgetError, match="max_steps"):
        trajectory(model, [0.0, 1e7], params, init, method="scipy")
    with pytest.raises(BudgetError, match="max_steps"):
        trajectory(model, [0.0, 1e7], params, init, method="gd", lr=1.0)
    bad = dict(params, Syy=1e-4 * np.eye(c))  # below Sxyᵀ Sxx⁻¹ Sxy: no random (x, y) has these moments
    with pytest.raises(ValueError, match="Sxy must be realizable"):
        trajectory(model, [0.0, 1.0], bad, init, method="scipy")
    init["W1"][0, 0] = np.inf
    with pytest.raises(ValueError, match="finite"):
        trajectory(model, [0.0, 1.0], params, init, method="gd", lr=0.1)


def test_the_compiled_matrix_field_pickles() -> None:
    compiled = matrix_compiled(linear_network(2, 3))
    restored = pickle.loads(pickle.dumps(compiled))
    rng = np.random.default_rng(9)
    args = [
        rng.normal(size=(1, 2, 2)),
        rng.normal(size=(1, 3, 2)),
        np.eye(2)[None],
        rng.normal(size=(1, 2, 3)),
        np.eye(3)[None],
    ]
    for a, b in zip(compiled.field(*args), restored.field(*args), strict=True):
        np.testing.assert_array_equal(a, b)


def test_translate_refuses_what_it_cannot_print() -> None:
    A = sp.MatrixSymbol("A", 2, 2)
    with pytest.raises(ValueError, match="no numpy form"):
        translate([A], [sp.Inverse(A)])
    with pytest.raises(ValueError, match="not among the arguments"):
        translate([A], [A * sp.MatrixSymbol("B", 2, 2)])
    half = translate([A], [sp.Trace(A * A.T) / 2, (A * A).T * 3])
    x = np.arange(8.0).reshape(2, 2, 2)
    trace, cubed = half(x)
    np.testing.assert_array_equal(trace, np.einsum("bij,bij->b", x, x) / 2)
    np.testing.assert_array_equal(cubed, 3 * np.swapaxes(x @ x, -1, -2))
