"""``method="scipy"``: the batch as one vectorized DOP853 system (numerics.dop853), its field and Jacobian.

Independent references: the explicit width-p model's vector field and its SymPy Jacobian (not the unit field
with sums that the batch field is generated from), the closed forms of the spec typed in ``conftest.py``, and the
50-digit closed form.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp

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


def hard_start_error(out: np.ndarray, a0: np.ndarray, b0: np.ndarray, t: np.ndarray) -> float:
    """The first start's error in ``out`` (T, states, batch, p) against the 40-digit closed form."""
    exact = trajectory("two_layer_scalar", t, {"S": 1.0, "Z": 1.0}, {"a": a0[0], "b": b0[0]}, dps=40)
    reference = np.concatenate([exact["a"], exact["b"]], axis=-1).astype(float)
    return float(np.max(np.abs(out[:, :, 0].reshape(len(t), -1) - reference)) / np.max(np.abs(reference)))


def whole_system_dop853(y0: np.ndarray, params: list, t: np.ndarray) -> np.ndarray:
    """The refuted variant: SciPy's DOP853 on the batch as one system (one step, the RMS norm over every start),
    at the same tolerances."""
    bf = batch_field(models.get("two_layer_scalar"))
    atol = dop853.ATOL_FACTOR * dop853.start_scales(bf, y0, params, float(t.max()))
    atol = np.broadcast_to(atol[None, :, None], y0.shape).ravel()
    sol = solve_ivp(
        lambda _t, y: bf(y.reshape(y0.shape), params).ravel(),
        (0.0, float(t.max())),
        y0.ravel(),
        method="DOP853",
        t_eval=t,
        rtol=dop853.RTOL,
        atol=atol,
    )
    return sol.y.T.reshape(len(t), *y0.shape)


def test_one_hard_start_keeps_its_accuracy_in_a_batch() -> None:
    """Per-start error control: the hard start is as accurate among 255 easy ones as alone. SciPy's own norm
    (RMS over the whole system) is the refuted variant: there the easy starts dilute the hard one's error."""
    a0, b0, t = hard_among_easy()
    bf = batch_field(models.get("two_layer_scalar"))
    alone = hard_start_error(dop853.integrate_batch(bf, np.stack([a0[:1], b0[:1]]), [1.0, 1.0], t), a0, b0, t)
    in_batch = hard_start_error(dop853.integrate_batch(bf, np.stack([a0, b0]), [1.0, 1.0], t), a0, b0, t)
    assert in_batch <= max(2 * alone, 1e-13)
    diluted = hard_start_error(whole_system_dop853(np.stack([a0, b0]), [1.0, 1.0], t), a0, b0, t)
    assert diluted > 5 * max(2 * alone, 1e-13)


def layerwise_batch(n: int = 24) -> tuple[dict, dict]:
    """``n`` starts of ``layerwise_lr_linear`` (width 2) with their own shared parameters, of rates from slow to
    about 40 (like the batches of ``test_batched_params``, where a shared step made a start ~6x less accurate)."""
    rng = np.random.default_rng(2)
    params = {
        "gamma": rng.uniform(0.3, 2.0, n),
        "eta_u": rng.uniform(0.5, 2.5, n),
        "eta_w": rng.uniform(0.5, 2.5, n),
        "a": rng.uniform(0.3, 2.5, n),
        "b": rng.uniform(-2.5, 2.5, n),
    }
    scale = 10.0 ** rng.uniform(-1.5, 0.7, (n, 1))
    init = {"u": scale * rng.standard_normal((n, 2)), "w": scale * rng.standard_normal((n, 2))}
    return params, init


def test_each_start_is_as_accurate_in_a_batch_as_alone() -> None:
    """Each start of a batch takes exactly the steps it takes alone, so its error against the 30-digit closed
    form is its error alone (here to the bit; the bound allows a factor 1.5). A step shared by the batch (the
    largest per-start norm of the former BatchDOP853, or SciPy's RMS norm) fails it: the slow starts then take the
    fast ones' steps, a different sequence whose error was 17x that alone (8.0e-13 against 4.8e-14) here."""
    t = np.array([0.0, 0.4, 1.5])
    params, init = layerwise_batch()
    batched = trajectory("layerwise_lr_linear", t, params, init, method="scipy")
    exact = trajectory("layerwise_lr_linear", t, params, init, dps=30)
    singles = [
        trajectory(
            "layerwise_lr_linear",
            t,
            {k: v[j] for k, v in params.items()},
            {k: v[j] for k, v in init.items()},
            method="scipy",
        )
        for j in range(len(params["a"]))
    ]
    for j, alone in enumerate(singles):
        reference = np.concatenate([np.asarray(exact[n][:, j], dtype=float) for n in ("u", "w")], axis=-1)
        scale = np.max(np.abs(reference), axis=0)
        in_batch = np.concatenate([batched[n][:, j] for n in ("u", "w")], axis=-1)
        by_itself = np.concatenate([alone[n] for n in ("u", "w")], axis=-1)
        error, error_alone = (float(np.max(np.abs(x - reference) / scale)) for x in (in_batch, by_itself))
        assert error <= 1.5 * error_alone + 1e-16, (j, error, error_alone)
    for j, alone in enumerate(singles):
        for n in ("u", "w"):
            np.testing.assert_array_equal(batched[n][:, j], alone[n])


def test_a_lane_is_scipys_dop853_on_its_start() -> None:
    """The lanes run SciPy's DOP853 (tableau, error norm, controller, initial step, dense output): each start of a
    batch against ``solve_ivp(method="DOP853")`` on it alone at the same tolerances, to rounding."""
    a0, b0, t = hard_among_easy()
    a0, b0 = a0[:6], b0[:6]
    bf = batch_field(models.get("two_layer_scalar"))
    y0 = np.stack([a0, b0])
    out = dop853.integrate_batch(bf, y0, [1.0, 1.0], t)
    for j in range(len(a0)):
        alone = whole_system_dop853(y0[:, j : j + 1], [1.0, 1.0], t)[:, :, 0]
        assert np.max(np.abs(out[:, :, j] - alone)) <= 1e-14 * np.max(np.abs(alone)), j


def test_groups_do_not_change_the_answer() -> None:
    """Sorting into groups only changes which starts are evaluated together: every start takes its own steps, so
    the answer is the same to the bit."""
    rng = np.random.default_rng(5)
    scales = 10.0 ** rng.uniform(-3, 1, 40)[:, None]
    a0, b0 = scales * rng.standard_normal((40, 3)), scales * rng.standard_normal((40, 3))
    t = np.array([0.0, 0.5, 2.0])
    bf = batch_field(models.get("two_layer_scalar"))
    one = dop853.integrate_batch(bf, np.stack([a0, b0]), [1.5, 1.0], t, group=40)
    grouped = dop853.integrate_batch(bf, np.stack([a0, b0]), [1.5, 1.0], t, group=7)
    np.testing.assert_array_equal(one, grouped)
    np.testing.assert_array_equal(grouped[0], np.stack([a0, b0]))
