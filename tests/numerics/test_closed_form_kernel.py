"""The blocked float64 closed-form kernel (``numerics.closed_form.closed_form_numpy``): block sizes do not change a
bit, and a start whose settled unit cancels is evaluated again in long double, to float64 accuracy against the
mpmath closed form at 40 digits (``trajectory(..., dps=40)``)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import sympy as sp

from derivations import models
from numerics import cache, trajectory
from numerics import closed_form as cf
from numerics.model_spec import spec_of

MODEL = "two_layer_scalar"
PARAMS = {"S": 2.0, "Z": 1.0}
T = np.linspace(0.0, 10.0, 200)
# a start of the benchmark's draw (0.1 N(0, 1), p = 4) with a unit whose settled value cancels
CANCELLING = {
    "a": np.array([0.005713699583153018, -0.19326925489657754, 0.00979966796963381, 0.06059405171917764]),
    "b": np.array([0.12444184791000423, -0.08720455047441786, 0.011199554499462815, -0.05918779751796691]),
}


def kernel(init: dict[str, np.ndarray], refine: bool = True) -> cf.ClosedFormValues:
    ccf = cf.compiled_closed_form(models.get(MODEL))
    return cf.closed_form_numpy(ccf, {"a_0": init["a"], "b_0": init["b"], **PARAMS}, T, refine)


def arrays(values: cf.ClosedFormValues) -> dict[str, np.ndarray]:
    """Every array of a kernel's record, by field and name."""
    named = {f"{field}:{k}": v for field in ("states", "sums", "clocks") for k, v in getattr(values, field).items()}
    return {**named, "out_of_range": values.out_of_range}


def relative_error(got: np.ndarray, exact: np.ndarray) -> float:
    return float(np.max(np.abs(got - exact) / np.abs(exact)))


def test_block_sizes_do_not_change_the_values(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    init = {"a": 0.3 * rng.standard_normal((37, 5)), "b": 0.3 * rng.standard_normal((37, 5))}
    default = arrays(kernel(init))
    monkeypatch.setattr(cf, "CHUNK", 64)
    monkeypatch.setattr(cf, "ROW", 10)
    small = arrays(kernel(init))
    assert default.keys() == small.keys()
    for name, values in default.items():
        np.testing.assert_array_equal(small[name], values, err_msg=name)


def test_a_cancelling_start_is_evaluated_in_long_double() -> None:
    init = {k: v[None] for k, v in CANCELLING.items()}
    exact = trajectory(MODEL, T, PARAMS, CANCELLING, dps=40)
    refined, plain = kernel(init), kernel(init, refine=False)
    assert not np.any(refined.out_of_range)  # no mpmath fallback needed
    for name in ("a", "b"):
        reference = np.array(exact[name], dtype=float)
        assert relative_error(refined.states[name][:, 0], reference) <= 4e-16, name
    # the wrong variant: float64 alone loses digits to the cancellation
    assert relative_error(plain.states["b"][:, 0], np.array(exact["b"], dtype=float)) > 1e-14


def test_without_exact_constants_the_start_goes_to_mpmath(monkeypatch: pytest.MonkeyPatch) -> None:
    ccf = cf.compiled_closed_form(MODEL)
    key = (spec_of(MODEL).key, "closed-form-numpy")
    monkeypatch.setitem(cache._MEMORY, key, dataclasses.replace(ccf, exact_in_long_double=False))
    flagged = kernel({k: v[None] for k, v in CANCELLING.items()}).out_of_range
    assert np.any(flagged)
    result = trajectory(MODEL, T, PARAMS, CANCELLING)
    exact = trajectory(MODEL, T, PARAMS, CANCELLING, dps=40)
    # mpmath at rising precisions until two agree to 1e-15 (numerics.trajectory._settled)
    assert relative_error(result["b"], np.array(exact["b"], dtype=float)) <= 1e-15


@pytest.mark.parametrize(
    ("expr", "exact"),
    [
        (sp.Symbol("x") / 2 + sp.Rational(3, 8), True),
        (sp.sqrt(sp.Symbol("x")) * 4, True),
        (sp.Symbol("x") / 3, False),
        (sp.sqrt(2) * sp.Symbol("x"), False),
        (sp.pi * sp.Symbol("x"), False),
        (sp.Float(0.1) * sp.Symbol("x"), False),
        (sp.Integer(2**60 + 1) * sp.Symbol("x"), False),
    ],
)
def test_long_double_needs_dyadic_constants(expr: sp.Expr, exact: bool) -> None:
    assert cf._dyadic(expr) is exact


def test_two_layer_scalar_has_exact_constants() -> None:
    assert cf._exact_in_long_double(models.get(MODEL).solution)
    assert cf.compiled_closed_form(MODEL).exact_in_long_double


def test_a_parameter_per_start_matches_start_by_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parameter of shape (batch, 1) is sliced with the starts' blocks (``S`` batched, blocks of 3 starts)."""
    monkeypatch.setattr(cf, "ROW", 12)
    rng = np.random.default_rng(5)
    a, b = 0.2 * rng.standard_normal((8, 4)), 0.2 * rng.standard_normal((8, 4))
    S = rng.uniform(0.5, 3.0, (8, 1))
    ccf = cf.compiled_closed_form(models.get(MODEL))
    batched = arrays(cf.closed_form_numpy(ccf, {"a_0": a, "b_0": b, "S": S, "Z": 1.0}, T))
    for i in range(8):
        single = {"a_0": a[i : i + 1], "b_0": b[i : i + 1], "S": S[i, 0], "Z": 1.0}
        alone = arrays(cf.closed_form_numpy(ccf, single, T))
        for name in ("states:a", "states:b", "sums:theta"):
            np.testing.assert_array_equal(batched[name][:, i], alone[name][:, 0], err_msg=f"{name}, start {i}")


def test_conditioning_probed_for_the_suspect_starts_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: the perturbed evaluation that estimates the conditioning runs on the starts whose terms cancel
    only, with the signs drawn for the whole batch: the flags are those of the former evaluation of every start.
    (As before, the flags depend on the batch through the signs: this start alone is refined, here it is not.)"""
    rng = np.random.default_rng(5)
    ordinary = {k: 0.3 * rng.standard_normal((6, 4)) + 1.0 for k in ("a", "b")}
    init = {k: np.concatenate([ordinary[k][:3], CANCELLING[k][None], ordinary[k][3:]]) for k in ordinary}
    ccf = cf.compiled_closed_form(models.get(MODEL))
    env = {"a_0": init["a"][None], "b_0": init["b"][None], **PARAMS}
    prepared, clocks, rates = cf._prepared(ccf, env)
    coefficients = ccf.float64_kernel.coefficients(prepared)
    original = cf._perturbed_outputs
    probed: list[int] = []

    def subset(ccf, env, last, rows=None):
        probed.append(len(rows))
        return original(ccf, env, last, rows)

    def everything(ccf, env, last, rows=None):  # the former way: every start probed, then the rows taken
        batch = cf.env_shape(env)[1]
        return {k: cf._taken(v, rows, batch) for k, v in original(ccf, env, last).items()}

    flags = {}
    for name, probe in (("subset", subset), ("everything", everything)):
        monkeypatch.setattr(cf, "_perturbed_outputs", probe)
        flags[name] = cf._settling_cancellation(ccf, prepared, clocks, rates, coefficients, T)
    assert probed and 0 < probed[0] < len(init["a"])  # a strict subset was probed
    assert np.array_equal(flags["subset"], flags["everything"])
    monkeypatch.setattr(cf, "_perturbed_outputs", original)
    # the check can fail: probing with other signs (those of one start alone) changes a flag here
    alone = {
        k: v[:, 3:4] if isinstance(v, np.ndarray) and v.ndim == 3 and v.shape[1] > 1 else v for k, v in env.items()
    }
    p1, c1, r1 = cf._prepared(ccf, alone)
    single = cf._settling_cancellation(ccf, p1, c1, r1, ccf.float64_kernel.coefficients(p1), T)
    assert not np.array_equal(np.broadcast_to(single, (1, 4))[0], np.broadcast_to(flags["subset"], (7, 4))[3])
