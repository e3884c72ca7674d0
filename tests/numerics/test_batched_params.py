"""Batched parameters (issue 14): every parameter may carry the batch axis, shared ones as arrays (batch,), unit
ones as (batch, p), for every method. A batched call must equal the calls of its elements one at a time (the
reference: the unbatched interface with scalar shared parameters), and a permuted parameter array must not."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations import models
from numerics import taylor, trajectory
from proofs_check.strategies import cases

T = np.array([0.0, 0.4, 1.5])
# method -> (options, relative tolerance against the per-element calls; None: mpmath values to dps digits)
METHODS = {
    "closed_form": ({}, 1e-14),
    "closed_form dps": ({"dps": 20}, None),
    "gd": ({"lr": 0.05}, 1e-14),
    "taylor": ({}, 1e-14),
    "taylor dps": ({"dps": 20}, None),
    # DOP853 steps each start of a batch by its own steps (numerics.dop853): a batch equals its elements (issue 23;
    # a step shared by the group made them agree only to the integrator's accuracy, 1e-11)
    "scipy": ({}, 1e-14),
    "mpmath": ({"dps": 20}, None),
}
# a model whose shared parameters are the point, one with only a unit parameter (lambda_balanced), a matrix model
MODELS = ("two_layer_scalar", "layerwise_lr_linear", "uv_model", "lambda_balanced")
SLOW = ("mpmath", "taylor dps")


def _needs_taylor(method: str) -> None:
    if method.startswith("taylor") and not taylor.available():
        pytest.skip("heyoka (the [taylor] extra) is not installed")


@st.composite
def batches(draw: st.DrawFn, model: str, size: tuple[int, int] = (2, 3)) -> tuple[list, dict, dict]:
    """``(elements, params, init)``: 2 to 3 cases of one width, and their parameters and starts stacked along a
    batch axis (shared parameters (batch,), unit ones and states (batch, p))."""
    width = draw(st.integers(1, 3))
    elements = draw(st.lists(cases(model, width=width), min_size=size[0], max_size=size[1]))
    params = {k: np.array([c.params[k] for c in elements]) for k in elements[0].params}
    init = {k: np.array([c.init[k] for c in elements]) for k in elements[0].init}
    return elements, params, init


def _assert_equal(batched: dict, singles: list[dict], tolerance: float | None, dps: int = 20) -> None:
    """Each batch element of ``batched`` (time, batch, ...) against its single run: to ``tolerance`` relative to
    the largest |value| of its series (a value crossing 0 is the difference of larger ones: vectorized and scalar
    numpy may round a power or a square root differently by an ulp), or (None) the mpmath values to ``dps``
    digits."""
    for j, single in enumerate(singles):
        for name, values in single.items():
            if name == "t":
                continue
            got = batched[name][:, j]
            assert got.shape == np.shape(values), name
            if tolerance is None:
                with mpmath.workdps(dps):
                    for x, y in zip(np.ravel(got), np.ravel(values), strict=True):
                        assert isinstance(x, mpmath.mpf)
                        assert abs(x - y) <= mpmath.mpf(10) ** -dps * abs(y), (name, x, y)
            else:
                scale = np.max(np.abs(values))
                np.testing.assert_allclose(got, values, rtol=tolerance, atol=tolerance * scale, err_msg=name)


def _run(model: str, params: dict, init: dict, method: str) -> dict:
    options = METHODS[method][0]
    return dict(trajectory(model, T, params, init, method=method.split()[0], **options))


def _check_batch(model: str, method: str, elements: list, params: dict, init: dict) -> None:
    """The batched call equals its elements' calls; if one of them diverges (GD beyond its stable lr), so does it."""
    try:
        singles = [_run(model, c.params, c.init, method) for c in elements]
    except OverflowError:
        with pytest.raises(OverflowError):
            _run(model, params, init, method)
        return
    _assert_equal(_run(model, params, init, method), singles, METHODS[method][1])


def _check_drawn_batches(model: str, method: str, examples: int) -> None:
    """``examples`` drawn batches of ``model``, each against its elements' calls by ``method``."""
    _needs_taylor(method)

    @settings(max_examples=examples)
    @given(batches(model))
    def check(drawn: tuple) -> None:
        _check_batch(model, method, *drawn)

    check()


# every (model, method) pair in the default suite, with a few batches each (20 pairs, one compile and 3-4 runs per
# batch); the slow step draws more batches of every pair
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("method", [m for m in METHODS if m not in SLOW])
def test_batched_parameters_equal_the_calls_of_their_elements(model: str, method: str) -> None:
    _check_drawn_batches(model, method, 3)


@pytest.mark.slow
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("method", [m for m in METHODS if m not in SLOW])
def test_batched_parameters_equal_the_calls_of_their_elements_many(model: str, method: str) -> None:
    _check_drawn_batches(model, method, 10)


@pytest.mark.parametrize("method", SLOW)
def test_batched_parameters_equal_the_calls_of_their_elements_high_precision(method: str) -> None:
    _needs_taylor(method)

    @settings(max_examples=2)
    @given(batches("two_layer_scalar", size=(2, 2)))
    def check(drawn: tuple) -> None:
        _check_batch("two_layer_scalar", method, *drawn)

    check()


def _sweep_start() -> dict[str, np.ndarray]:
    return {"a": np.array([0.3, -0.2, 0.5]), "b": np.array([0.1, 0.4, -0.3])}


@pytest.mark.parametrize("method", list(METHODS))
def test_a_sweep_over_S_is_one_call_and_a_permuted_S_differs(method: str) -> None:
    """An unbatched start is repeated over the batch of S (the documented choice); each row is the scalar call,
    and the rows follow S: the reversed array gives the reversed rows, not the same ones."""
    _needs_taylor(method)
    S = np.array([0.5, 1.0, 2.0])
    options, tolerance = METHODS[method]
    run = trajectory("two_layer_scalar", T, {"S": S, "Z": 1.5}, _sweep_start(), method=method.split()[0], **options)
    assert run["a"].shape == (len(T), len(S), 3) and run["theta"].shape == (len(T), len(S))
    singles = [
        dict(trajectory("two_layer_scalar", T, {"S": s, "Z": 1.5}, _sweep_start(), method=method.split()[0], **options))
        for s in S
    ]
    _assert_equal(run, singles, tolerance)
    flipped = trajectory(
        "two_layer_scalar", T, {"S": S[::-1], "Z": 1.5}, _sweep_start(), method=method.split()[0], **options
    )
    late = np.asarray(run["theta"][-1], dtype=float)
    assert not np.allclose(np.asarray(flipped["theta"][-1], dtype=float), late, rtol=1e-3)
    np.testing.assert_allclose(np.asarray(flipped["theta"][-1], dtype=float), late[::-1], rtol=1e-11)


def test_a_batch_of_one_broadcasts() -> None:
    """Shape (1,) (a shared parameter) and (1, p) (a unit one) broadcast over init's batch like a scalar."""
    rng = np.random.default_rng(3)
    init = {"a": rng.uniform(0.1, 1.0, (4, 2)), "b": rng.uniform(0.1, 1.0, (4, 2))}
    scalar = trajectory("two_layer_scalar", T, {"S": 1.3, "Z": 0.7}, init)
    ones = trajectory("two_layer_scalar", T, {"S": np.array([1.3]), "Z": np.array([0.7])}, init)
    for name in scalar:
        np.testing.assert_array_equal(ones[name], scalar[name])
    unit = trajectory("lambda_balanced", T, {"S": np.array([[1.3, -0.4]])}, init)
    rows = trajectory("lambda_balanced", T, {"S": np.tile([1.3, -0.4], (4, 1))}, init)
    for name in unit:
        np.testing.assert_array_equal(unit[name], rows[name])


def test_an_extreme_element_is_evaluated_in_mpmath_alone() -> None:
    """A batch element beyond the float64-safe range (Z = 1e-80) is evaluated again in mpmath, row by row: the
    other elements keep their float64 values and each equals its scalar call."""
    S, Z = np.array([1.0, 2.0, 0.5]), np.array([1.0, 1e-80, 2.0])
    a, b = np.array([[0.3, 0.2], [1e-40, 2e-40], [0.1, -0.4]]), np.array([[0.1, 0.5], [1e-40, 1e-40], [0.2, 0.3]])
    run = trajectory("two_layer_scalar", T, {"S": S, "Z": Z}, {"a": a, "b": b})
    singles = [
        dict(trajectory("two_layer_scalar", T, {"S": S[j], "Z": Z[j]}, {"a": a[j], "b": b[j]})) for j in range(3)
    ]
    _assert_equal(dict(run), singles, 1e-14)


def test_realizable_moments_are_checked_per_batch_element() -> None:
    """linear_network's param_check runs on each element's moments: a batch whose second element is not
    realizable (Sxy too large for Sxx and Syy) is refused naming that element; the realizable ones run."""
    model = models.get("linear_network")
    good = {n: 0.0 for n in model.shared_param_names}
    good.update({row[i]: 1.0 for name in ("Sxx", "Syy") for i, row in enumerate(model.matrix_params[name])})
    good.update(Sxy_1_1=0.5, Sxy_2_2=0.3)
    bad = dict(good, Sxy_1_1=3.0)
    init = {n: np.array([[0.1, -0.2], [0.3, 0.05]]) for n in model.state_names}
    stacked = {n: np.array([good[n], bad[n]]) for n in model.shared_param_names}
    with pytest.raises(ValueError, match=r"batch element 1: Sxy must be realizable"):
        trajectory("linear_network", T, stacked, init, method="gd", lr=0.1)
    other = dict(good, Sxy_1_1=0.2, Sxy_3_2=-0.4)
    both = {n: np.array([good[n], other[n]]) for n in model.shared_param_names}
    run = trajectory("linear_network", T, both, init, method="gd", lr=0.1)
    singles = [
        dict(trajectory("linear_network", T, p, {n: v[j] for n, v in init.items()}, method="gd", lr=0.1))
        for j, p in enumerate((good, other))
    ]
    _assert_equal(dict(run), singles, 1e-14)


BAD_SHAPES = {
    "shared batch against init's": (
        {"S": np.ones(2), "Z": 1.0},
        (3, 2),
        r"params\['S'\] has a batch axis of length 2, but init has length 3: params\['S'\] must have shape \(\) "
        r"or \(3,\)",
    ),
    "shared 2-D": ({"S": np.ones((3, 1)), "Z": 1.0}, (3, 2), r"params\['S'\] must have shape \(\) or \(batch,\)"),
    "empty shared batch": (
        {"S": np.ones(0), "Z": 1.0},
        (2,),
        r"params\['S'\] must have shape \(\) or \(batch,\) with batch >= 1",
    ),
    "two shared batches": (
        {"S": np.ones(2), "Z": np.ones(3)},
        (2,),
        r"params\['Z'\] has a batch axis of length 3, but params\['S'\] has length 2",
    ),
}


@pytest.mark.parametrize("case", list(BAD_SHAPES))
@pytest.mark.parametrize("method", ["closed_form", "mpmath"])
def test_bad_batch_shapes_are_refused_naming_the_argument(case: str, method: str) -> None:
    """Refused before the work: with a horizon far beyond every budget, the shape error still comes first."""
    params, shape, pattern = BAD_SHAPES[case]
    init = {"a": np.full(shape, 0.1), "b": np.full(shape, 0.2)}
    with pytest.raises(ValueError, match=pattern):
        trajectory("two_layer_scalar", [0.0, 1e12], params, init, method=method)


def test_a_unit_parameter_batch_against_init_is_refused() -> None:
    init = {"a": np.full((3, 2), 0.1), "b": np.full((3, 2), 0.2)}
    with pytest.raises(
        ValueError,
        match=r"params\['S'\] has a batch axis of length 2, but init has length 3: "
        r"params\['S'\] must have shape \(2,\) or \(3, 2\)",
    ):
        trajectory("lambda_balanced", T, {"S": np.ones((2, 2))}, init)


@pytest.mark.parametrize("method", ["closed_form dps", "mpmath", "taylor dps"])
def test_a_batched_parameter_of_mpf_keeps_its_digits(method: str) -> None:
    """S = (1/3, 2/3) at 30 digits, batched: each row is the call with that mpf, and not the one with S rounded to
    float64 (which differs from the 17th digit on)."""
    _needs_taylor(method)
    with mpmath.workdps(30):
        S = np.array([mpmath.mpf(1) / 3, mpmath.mpf(2) / 3], dtype=object)
    start = {"a": np.array([0.3, 0.2]), "b": np.array([0.1, -0.2])}
    name, options = method.split()[0], {"dps": 30}

    def theta(s: object) -> object:
        return trajectory("two_layer_scalar", [0.0, 1.0], {"S": s, "Z": 1.0}, start, method=name, **options)["theta"]

    batched = theta(S)
    _assert_equal({"theta": batched}, [{"theta": theta(s)} for s in S], None, dps=30)
    rounded = theta(S.astype(float))
    with mpmath.workdps(30):
        assert all(abs(x - y) > mpmath.mpf(10) ** -20 for x, y in zip(batched[-1], rounded[-1], strict=True))
