"""``method="scipy"``: the batch as one vectorized DOP853 system (numerics.dop853), its field and Jacobian.

Independent references: the explicit width-p model's vector field and its SymPy Jacobian (not the unit field
with sums that the batch field is generated from), the closed forms of the spec typed in ``conftest.py``, and the
50-digit closed form.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import DOP853

from derivations import models
from numerics import dop853, trajectory
from numerics.compiled import batch_field

MODELS = ["two_layer_scalar", "diagonal_linear_network", "layerwise_lr_matrix", "uv_model", "linear_network"]


def explicit_field_and_jacobian(name: str, p: int, params: dict[str, object]) -> tuple:
    """The width-p instance's field and Jacobian (SymPy), lambdified in its variables at the given parameters."""
    model = models.get(name)
    inst = model.instance(p)
    values = {}
    for n in model.unit_param_names:
        values.update(dict(zip(inst.sym[n], params[n], strict=True)))
    values.update({inst.sym[n]: params[n] for n in model.shared_param_names})
    field = sp.Matrix([inst.vector_field[s] for s in inst.variables]).xreplace(values)
    jacobian = field.jacobian(inst.variables)
    return sp.lambdify(inst.variables, field, "numpy"), sp.lambdify(inst.variables, jacobian, "numpy")


@pytest.mark.parametrize("name", MODELS)
def test_batch_field_and_jvp_are_the_explicit_models(name) -> None:
    model = models.get(name)
    rng = np.random.default_rng(3)
    p, batch = 3, 2
    params = {n: rng.uniform(0.5, 2.0, p) for n in model.unit_param_names}
    params |= {n: float(rng.uniform(0.5, 2.0)) for n in model.shared_param_names}
    bf = batch_field(model)
    y = rng.standard_normal((len(model.state_names), batch, p))
    v = rng.standard_normal(y.shape)
    unit_shape = (batch, p)
    packed = [
        np.broadcast_to(params[n], unit_shape) if n in model.unit_param_names else params[n] for n in bf.param_names
    ]
    field, jvp = bf(y, packed), bf.jvp(y, v, packed)
    f_explicit, j_explicit = explicit_field_and_jacobian(name, p, params)
    for j in range(batch):
        point = y[:, j].ravel()
        np.testing.assert_allclose(field[:, j].ravel(), np.ravel(f_explicit(*point)), rtol=1e-12, atol=1e-12)
        jacobian = np.asarray(j_explicit(*point), dtype=float)
        np.testing.assert_allclose(jvp[:, j].ravel(), jacobian @ v[:, j].ravel(), rtol=1e-12, atol=1e-12)
        # a wrong variant, the Jacobian without the sums' chain rule (no coupling across units), is refuted
        unit = np.arange(jacobian.shape[0]) % p
        uncoupled = np.where(unit[:, None] == unit[None, :], jacobian, 0.0) @ v[:, j].ravel()
        coupled = not np.allclose(uncoupled, jacobian @ v[:, j].ravel())
        assert coupled == (name != "diagonal_linear_network")
        assert not coupled or not np.allclose(jvp[:, j].ravel(), uncoupled)


def test_all_zero_linear_model_start(spec) -> None:
    """Issue 17: a valid start at 0 raised "DOP853 failed: Required step size is less than spacing"."""
    S, lam = np.array([1.0, -2.0, 0.5]), np.array([1.0, 0.5, 3.0])
    t = np.array([0.0, 0.1, 1.0, 5.0, 20.0])
    result = trajectory("linear_model", t, {"S": S, "lam": lam}, {"theta": np.zeros(3)}, method="scipy")
    expected = spec.linear_theta_mp(np.zeros(3), S, lam, t)
    assert spec.relative_error(result["theta"], expected) <= 1e-13


def test_zero_starts_at_rest_stay_at_zero() -> None:
    t = [0.0, 1.0, 10.0]
    result = trajectory("two_layer_scalar", t, {"S": 1.0, "Z": 1.0}, {"a": np.zeros(3), "b": np.zeros(3)}, "scipy")
    assert np.all(result["a"] == 0) and np.all(result["b"] == 0)


def test_start_scale_of_a_zero_start_is_the_target() -> None:
    """theta' = lam (S - theta) from 0: speed lam S, rate lam^2 S, so the scale is S when T >= 1/lam and lam S T
    (the distance moved) for a shorter horizon."""
    bf = batch_field(models.get("linear_model"))
    S, lam = np.array([[2.0]]), np.array([[4.0]])
    y = np.zeros((1, 1, 1))
    np.testing.assert_allclose(dop853.start_scales(bf, y, [S, lam], 10.0), [2.0], rtol=1e-15)
    np.testing.assert_allclose(dop853.start_scales(bf, y, [S, lam], 0.01), [0.08], rtol=1e-15)


def hard_among_easy() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """256 starts of the width-2 scalar network: 255 near the balanced fixed point, one tiny rich start whose
    saddle-to-saddle transition (~t = 9) is the hard part."""
    rng = np.random.default_rng(0)
    a0, b0 = 0.5 + 0.1 * rng.standard_normal((256, 2)), 0.5 + 0.1 * rng.standard_normal((256, 2))
    a0[0], b0[0] = [1e-4, 2e-4], [1e-4, -1e-4]
    return a0, b0, np.linspace(0.0, 12.0, 25)


def hard_start_error(a0: np.ndarray, b0: np.ndarray, t: np.ndarray) -> float:
    bf = batch_field(models.get("two_layer_scalar"))
    out = dop853.integrate_batch(bf, np.stack([a0, b0]), [1.0, 1.0], t, group=len(a0))
    exact = trajectory("two_layer_scalar", t, {"S": 1.0, "Z": 1.0}, {"a": a0[0], "b": b0[0]}, dps=40)
    reference = np.concatenate([exact["a"], exact["b"]], axis=-1).astype(float)
    return float(np.max(np.abs(out[:, :, 0].reshape(len(t), -1) - reference)) / np.max(np.abs(reference)))


def test_one_hard_start_keeps_its_accuracy_in_a_batch(monkeypatch) -> None:
    """Per-start error control: the hard start is as accurate among 255 easy ones as alone. SciPy's own norm
    (RMS over the whole system) is the refuted variant: there the easy starts dilute the hard one's error."""
    a0, b0, t = hard_among_easy()
    alone = hard_start_error(a0[:1], b0[:1], t)
    in_batch = hard_start_error(a0, b0, t)
    assert in_batch <= max(2 * alone, 1e-13)

    class WholeSystemNorm(dop853.BatchDOP853):
        _estimate_error_norm = DOP853._estimate_error_norm

    monkeypatch.setattr(dop853, "BatchDOP853", WholeSystemNorm)
    assert hard_start_error(a0, b0, t) > 5 * max(2 * alone, 1e-13)


def test_groups_do_not_change_the_answer() -> None:
    """Sorting into groups only changes which starts share a step size: every start stays within tolerance."""
    rng = np.random.default_rng(5)
    scales = 10.0 ** rng.uniform(-3, 1, 40)[:, None]
    a0, b0 = scales * rng.standard_normal((40, 3)), scales * rng.standard_normal((40, 3))
    t = np.array([0.0, 0.5, 2.0])
    bf = batch_field(models.get("two_layer_scalar"))
    one = dop853.integrate_batch(bf, np.stack([a0, b0]), [1.5, 1.0], t, group=40)
    grouped = dop853.integrate_batch(bf, np.stack([a0, b0]), [1.5, 1.0], t, group=7)
    norm = np.max(np.abs(one), axis=(1, 3), keepdims=True)
    assert np.max(np.abs(one - grouped) / norm) <= 1e-11
    np.testing.assert_array_equal(grouped[0], np.stack([a0, b0]))
