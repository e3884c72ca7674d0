"""Issue 22: ``numerics.trajectory`` never passes a raw SymPy or other internal exception through for a valid
model (it becomes a ``ValueError`` quoting the model and the error); ``method="closed_form"`` on a model without
one quotes ``Unsolved``; bad arguments keep their ``TypeError``/``ValueError``. And the two models of the issue
that raised now evaluate: weight decay without ``Z`` (closed form against an independent mpmath integration of the
derived flow) and a tanh network (integrated)."""

from __future__ import annotations

import uuid
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import derivations.model
from derivations import Model, Quantity
from numerics import trajectory

a, b = sp.symbols("a b", real=True)


def _two_layer(name: str, **fields: object) -> Model:
    """f = sum_i a_i b_i x (unless ``network`` is given), target S x, E[x^2] = 1."""
    spec: dict[str, Any] = {
        "state_names": ("a", "b"),
        "unit_param_names": (),
        "shared_param_names": ("S",),
        "network": lambda s, x: sum(ai * bi for ai, bi in zip(s["a"], s["b"], strict=True)) * x[0],
        "target": lambda s, x: s["S"] * x[0],
        "moment": lambda s, i, j: sp.S.One,
        "input_dim": lambda p: 1,
        "quantities": {"theta": Quantity("sum", a * b)},
    }
    spec.update(fields)
    return Model(name=name, title=name, reference="test only", **spec)


DECAY_NO_Z = _two_layer(
    "decay_no_z",
    shared_param_names=("S", "mu"),
    domains={"mu": "positive"},
    regularizer=lambda s: s["mu"] * sum(ai**2 + bi**2 for ai, bi in zip(s["a"], s["b"], strict=True)) / 2,
)
TANH = _two_layer(
    "tanh_network",
    network=lambda s, x: sum(ai * sp.tanh(bi) for ai, bi in zip(s["a"], s["b"], strict=True)) * x[0],
    quantities={"theta": Quantity("sum", a * sp.tanh(b))},
)
T = np.linspace(0.0, 2.0, 5)


def _fresh(**fields: object) -> Model:
    """A model never built before (its name is part of the cache key), so that nothing comes from the cache."""
    return _two_layer(f"fresh_{uuid.uuid4().hex}", **fields)


def _reference(a0: float, S: float, mu: float, t: np.ndarray) -> np.ndarray:
    """a(t) on a = b for p = 2 equal units by mpmath.odefun at 30 digits, the flow written out by hand:
    L = (S - theta)^2/2 + mu/2 sum_i (a_i^2 + b_i^2), a_i' = (S - theta) b_i - mu a_i, and theta = 2 a^2."""
    with mpmath.workdps(30):
        f = mpmath.odefun(lambda _t, y: y * (S - 2 * y**2) - mu * y, 0, mpmath.mpf(a0))
        return np.array([float(f(mpmath.mpf(float(s)))) for s in t])


@settings(max_examples=8, deadline=None)
@given(
    a0=st.floats(-1.5, 1.5).filter(lambda v: abs(v) > 1e-3),
    S=st.floats(-2.0, 2.0),
    mu=st.floats(0.01, 1.0),
)
def test_decay_without_z_closed_form_matches_an_independent_integration(a0: float, S: float, mu: float) -> None:
    """Issue 22's first crash (CoercionFailed in prove_zero): now a closed form, on its invariant set a = b."""
    start = np.array([a0, a0])
    result = trajectory(DECAY_NO_Z, T, {"S": S, "mu": mu}, {"a": start, "b": start})
    expected = _reference(a0, S, mu, T)
    np.testing.assert_allclose(result["a"][:, 0], expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(result["b"][:, 1], expected, rtol=1e-10, atol=1e-12)


def test_the_reference_of_the_decay_test_can_fail() -> None:
    """A wrong variant (the decay's sign flipped) differs from the closed form."""
    start = np.array([0.4, 0.4])
    result = trajectory(DECAY_NO_Z, T, {"S": 1.0, "mu": 0.5}, {"a": start, "b": start})
    assert not np.allclose(result["a"][:, 0], _reference(0.4, 1.0, -0.5, T), rtol=1e-6)


def test_tanh_network_integrates_and_has_no_closed_form() -> None:
    """Issue 22: the tanh network raised from solve; now it integrates (its derived field, tanh and all), and the
    closed form is a ValueError quoting the Unsolved reason."""
    init = {"a": np.array([0.3, -0.2]), "b": np.array([0.1, -0.2])}
    result = trajectory(TANH, T, {"S": 1.0}, init, method="scipy")
    loss = (1.0 - np.sum(result["a"] * np.tanh(result["b"]), axis=-1)) ** 2 / 2
    assert np.all(np.diff(loss) < 0)  # gradient flow: the loss decreases
    with pytest.raises(ValueError, match=r"needs a closed form: tanh_network: no closed form .*not polynomial"):
        trajectory(TANH, T, {"S": 1.0}, init)


def test_an_internal_error_in_the_closed_form_is_a_value_error_quoting_model_and_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(model: Model) -> object:
        raise sp.polys.polyerrors.CoercionFailed("expected an integer, got 1/2")

    monkeypatch.setattr(derivations.model, "_solver", broken)
    model = _fresh()
    start = np.array([0.5, 0.5])
    with pytest.raises(ValueError, match=rf"{model.name}.*CoercionFailed: expected an integer, got 1/2") as error:
        trajectory(model, T, {"S": 1.0}, {"a": start, "b": start})
    assert not isinstance(error.value, sp.polys.polyerrors.CoercionFailed)
    assert isinstance(error.value.__cause__, sp.polys.polyerrors.CoercionFailed)


def test_an_internal_error_in_the_derived_flow_is_a_value_error_for_every_method(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(self: Model) -> object:
        raise sp.PolynomialError("a polynomial expected, got sqrt(2)")

    monkeypatch.setattr(Model, "unit_field", property(broken))
    start = np.array([0.5, 0.5])
    for method in ("closed_form", "mpmath", "scipy"):
        model = _fresh()
        with pytest.raises(ValueError, match=rf"{model.name}.*PolynomialError: a polynomial expected"):
            trajectory(model, T, {"S": 1.0}, {"a": start, "b": start}, method=method)


def test_bad_arguments_keep_their_errors() -> None:
    start = np.array([0.5, 0.5])
    with pytest.raises(TypeError, match="model must be a model name"):
        trajectory(42, T, {"S": 1.0}, {"a": start, "b": start})  # type: ignore[arg-type]  # the bad argument tested
    with pytest.raises(ValueError, match="unknown model 'nope'"):
        trajectory("nope", T, {"S": 1.0}, {"a": start, "b": start})
    with pytest.raises(ValueError, match="network is not linear in the inputs"):
        trajectory(_fresh(network=lambda s, x: s["a"][0] * x[0] ** 2), T, {"S": 1.0}, {"a": 0.5, "b": 0.5})
