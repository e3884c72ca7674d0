"""``numerics.trajectory``: input validation (ValueError naming the parameter) and output shapes."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from numerics import trajectory

SCALAR = ("two_layer_scalar", {"S": 1.0, "Z": 1.0}, {"a": np.array([0.5, -0.2]), "b": np.array([0.3, 0.4])})
DIAGONAL = (
    "diagonal_linear_network",
    {"S": np.array([1.0, -0.5]), "lam": np.array([1.0, 2.0])},
    {"a": np.array([0.5, -0.2]), "b": np.array([0.3, 0.4])},
)
LINEAR = ("linear_model", {"S": np.array([1.0, -0.5]), "lam": np.array([1.0, 2.0])}, {"theta": np.array([0.5, 0.1])})


def with_(mapping: dict, **changes: object) -> dict:
    return {**mapping, **changes}


# --- validation -------------------------------------------------------------------------------------------

model, params, init = SCALAR
BAD_SCALAR_CALLS = {
    "nan in init": (dict(params=params, init=with_(init, a=np.array([np.nan, 0.1]))), r"init\['a'\].*finite"),
    "inf in init b": (dict(params=params, init=with_(init, b=np.array([0.1, -np.inf]))), r"init\['b'\].*finite"),
    "inf in params": (dict(params=with_(params, S=np.inf), init=init), r"params\['S'\].*finite"),
    "nan Z": (dict(params=with_(params, Z=np.nan), init=init), r"params\['Z'\]"),
    "Z zero": (dict(params=with_(params, Z=0.0), init=init), r"params\['Z'\].*> 0"),
    "Z negative": (dict(params=with_(params, Z=-1.0), init=init), r"params\['Z'\].*> 0"),
    "Z a matrix": (dict(params=with_(params, Z=np.ones((2, 2))), init=init), r"params\['Z'\] must have shape \(\)"),
    "empty width": (dict(params=params, init={"a": np.zeros(0), "b": np.zeros(0)}), r"init"),
    "empty batch": (dict(params=params, init={"a": np.zeros((0, 2)), "b": np.zeros((0, 2))}), r"init"),
    "3-d init": (dict(params=params, init={"a": np.zeros((1, 1, 2)), "b": np.zeros((1, 1, 2))}), r"init"),
    "mismatched a/b": (dict(params=params, init={"a": np.ones(2), "b": np.ones(3)}), r"init"),
    "mismatched batch": (dict(params=params, init={"a": np.ones((2, 2)), "b": np.ones(2)}), r"init"),
    "missing init key": (dict(params=params, init={"a": np.ones(2)}), r"init.*'b'"),
    "extra init key": (dict(params=params, init=with_(init, c=np.ones(2))), r"init.*'c'"),
    "wrong init key": (dict(params=params, init={"a": np.ones(2), "theta": np.ones(2)}), r"init"),
    "missing param": (dict(params={"S": 1.0}, init=init), r"params.*'Z'"),
    "extra param": (dict(params=with_(params, lam=1.0), init=init), r"params.*'lam'"),
    "non-numeric init": (dict(params=params, init=with_(init, a=["x", "y"])), r"init\['a'\]"),
    "negative t": (dict(params=params, init=init, t=[0.0, -1.0]), r"\bt\b.*>= 0"),
    "nan t": (dict(params=params, init=init, t=[np.nan]), r"\bt\b.*finite"),
    "2-d t": (dict(params=params, init=init, t=np.ones((2, 2))), r"\bt\b"),
    "unknown method": (dict(params=params, init=init, method="euler"), r"method"),
    "gd without lr": (dict(params=params, init=init, method="gd"), r"\blr\b"),
    "gd with lr 0": (dict(params=params, init=init, method="gd", lr=0.0), r"\blr\b"),
    "gd with negative lr": (dict(params=params, init=init, method="gd", lr=-0.1), r"\blr\b"),
    "gd with nan lr": (dict(params=params, init=init, method="gd", lr=np.nan), r"\blr\b"),
    "lr with closed form": (dict(params=params, init=init, lr=0.1), r"\blr\b"),
    "lr with scipy": (dict(params=params, init=init, method="scipy", lr=0.1), r"\blr\b"),
    "lr with mpmath": (dict(params=params, init=init, method="mpmath", lr=0.1), r"\blr\b"),
    "dps 14": (dict(params=params, init=init, dps=14), r"\bdps\b"),
    "dps 0": (dict(params=params, init=init, method="mpmath", dps=0), r"\bdps\b"),
    "dps float": (dict(params=params, init=init, dps=30.0), r"\bdps\b"),
    "dps with scipy": (dict(params=params, init=init, method="scipy", dps=30), r"\bdps\b"),
    "dps with gd": (dict(params=params, init=init, method="gd", lr=0.1, dps=30), r"\bdps\b"),
}


@pytest.mark.parametrize("case", list(BAD_SCALAR_CALLS))
def test_bad_input_raises_value_error_naming_the_parameter(case) -> None:
    kwargs, pattern = BAD_SCALAR_CALLS[case]
    kwargs = {"t": [0.0, 1.0], **kwargs}
    with pytest.raises(ValueError, match=pattern):
        trajectory(model, **kwargs)


def test_unknown_model_name() -> None:
    with pytest.raises(ValueError, match=r"model.*'no_such_model'"):
        trajectory("no_such_model", [1.0], params, init)


DIAG_MODEL, DIAG_PARAMS, DIAG_INIT = DIAGONAL
BAD_DIAGONAL_PARAMS = {
    "lam zero": (with_(DIAG_PARAMS, lam=np.array([1.0, 0.0])), r"params\['lam'\].*> 0"),
    "lam negative": (with_(DIAG_PARAMS, lam=np.array([-1.0, 1.0])), r"params\['lam'\].*> 0"),
    "lam scalar negative": (with_(DIAG_PARAMS, lam=-2.0), r"params\['lam'\]"),
    "lam nan": (with_(DIAG_PARAMS, lam=np.array([np.nan, 1.0])), r"params\['lam'\]"),
    "S inf": (with_(DIAG_PARAMS, S=np.array([np.inf, 1.0])), r"params\['S'\].*finite"),
    "S wrong length": (with_(DIAG_PARAMS, S=np.ones(3)), r"params\['S'\]"),
    "S two batch axes": (with_(DIAG_PARAMS, S=np.ones((3, 1, 2))), r"params\['S'\]"),
    "missing lam": ({"S": DIAG_PARAMS["S"]}, r"params.*'lam'"),
    "shared Z given": (with_(DIAG_PARAMS, Z=1.0), r"params.*'Z'"),
}


@pytest.mark.parametrize("case", list(BAD_DIAGONAL_PARAMS))
def test_bad_diagonal_params(case) -> None:
    bad, pattern = BAD_DIAGONAL_PARAMS[case]
    with pytest.raises(ValueError, match=pattern):
        trajectory(DIAG_MODEL, [1.0], bad, DIAG_INIT)


def test_bad_linear_model_inputs() -> None:
    model_, params_, init_ = LINEAR
    with pytest.raises(ValueError, match=r"params\['lam'\]"):
        trajectory(model_, [1.0], with_(params_, lam=np.zeros(2)), init_)
    with pytest.raises(ValueError, match=r"init\['theta'\]"):
        trajectory(model_, [1.0], params_, {"theta": np.array([0.0, np.nan])})
    with pytest.raises(ValueError, match=r"init"):
        trajectory(model_, [1.0], params_, {"a": np.zeros(2), "b": np.zeros(2)})


# --- shapes -----------------------------------------------------------------------------------------------

T = np.array([0.0, 0.5, 1.0, 2.0])


@pytest.mark.parametrize("method", ["closed_form", "scipy", "gd"])
def test_two_layer_scalar_batch_axis(method) -> None:
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 5)), rng.standard_normal((3, 5))
    kwargs = {"lr": 0.25} if method == "gd" else {}
    r = trajectory("two_layer_scalar", T, {"S": 1.0, "Z": 2.0}, {"a": a, "b": b}, method=method, **kwargs)
    assert r["a"].shape == r["b"].shape == (4, 3, 5)
    assert r["theta"].shape == r["loss"].shape == (4, 3)
    np.testing.assert_array_equal(r["t"], T)
    # each batch element is the unbatched run (no coupling across the batch axis); DOP853 steps a batch with
    # the smallest step over its starts, so there the two runs agree to the integrator's accuracy, not to rounding
    atol = 1e-12 if method == "scipy" else 1e-15
    for j in range(3):
        single = trajectory(
            "two_layer_scalar", T, {"S": 1.0, "Z": 2.0}, {"a": a[j], "b": b[j]}, method=method, **kwargs
        )
        assert single["a"].shape == single["b"].shape == (4, 5)
        assert single["theta"].shape == single["loss"].shape == (4,)
        np.testing.assert_allclose(r["a"][:, j], single["a"], rtol=1e-13, atol=atol)
        np.testing.assert_allclose(r["theta"][:, j], single["theta"], rtol=1e-13, atol=atol)
    # theta and loss are their definitions (spec §5: theta = sum a b / Z, L = (S - theta)^2 / 2)
    np.testing.assert_allclose(r["theta"], np.sum(r["a"] * r["b"], axis=-1) / 2.0, rtol=1e-13)
    np.testing.assert_allclose(r["loss"], 0.5 * (1.0 - r["theta"]) ** 2, rtol=1e-12)
    np.testing.assert_allclose(r["a"][0], a, rtol=1e-14)  # the initial condition is reported at t = 0


def test_two_layer_scalar_batch_axis_mpmath() -> None:
    a, b = np.array([[0.5, -0.2], [0.1, 0.9]]), np.array([[0.3, 0.4], [-0.6, 0.2]])
    for method in ("closed_form", "mpmath"):
        r = trajectory("two_layer_scalar", [0.0, 0.3], {"S": 1.0, "Z": 1.0}, {"a": a, "b": b}, method=method, dps=20)
        assert r["a"].shape == r["b"].shape == (2, 2, 2)
        assert r["theta"].shape == r["loss"].shape == (2, 2)
        assert all(isinstance(x, mpmath.mpf) for x in np.ravel(r["a"]))
        unbatched = trajectory(
            "two_layer_scalar", [0.0, 0.3], {"S": 1.0, "Z": 1.0}, {"a": a[1], "b": b[1]}, method=method, dps=20
        )
        assert unbatched["a"].shape == (2, 2) and unbatched["theta"].shape == (2,)
        assert all(abs(x - y) < 1e-18 for x, y in zip(np.ravel(r["a"][:, 1]), np.ravel(unbatched["a"]), strict=True))


def test_scalar_time_gives_one_row() -> None:
    r = trajectory(*SCALAR[:1], 1.0, SCALAR[1], SCALAR[2])
    assert r["a"].shape == (1, 2) and r["theta"].shape == (1,)
    np.testing.assert_array_equal(r["t"], [1.0])


def test_unsorted_times_are_reported_in_the_given_order() -> None:
    t = np.array([2.0, 0.0, 1.0])
    for method in ("closed_form", "scipy"):
        r = trajectory(*SCALAR[:1], t, SCALAR[1], SCALAR[2], method=method)
        s = trajectory(*SCALAR[:1], np.sort(t), SCALAR[1], SCALAR[2], method=method)
        np.testing.assert_allclose(r["a"], s["a"][[2, 0, 1]], rtol=1e-12)
        np.testing.assert_array_equal(r["t"], t)


def test_diagonal_and_linear_shapes() -> None:
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    lam_batched = np.array([[1.0, 2.0, 0.5], [0.3, 0.3, 0.3]])
    r = trajectory("diagonal_linear_network", T, {"S": np.ones(3), "lam": lam_batched}, {"a": a, "b": b})
    assert r["a"].shape == r["b"].shape == r["theta"].shape == (4, 2, 3)  # theta_i = a_i b_i is per mode
    assert r["loss"].shape == (4, 2)
    np.testing.assert_allclose(r["loss"], 0.5 * np.sum(lam_batched * (1.0 - r["a"] * r["b"]) ** 2, axis=-1), rtol=1e-12)
    r = trajectory("diagonal_linear_network", T, {"S": 1.0, "lam": 1.0}, {"a": a[0], "b": b[0]})
    assert r["a"].shape == r["theta"].shape == (4, 3) and r["loss"].shape == (4,)
    r = trajectory("linear_model", T, {"S": np.ones(3), "lam": np.ones(3)}, {"theta": a})
    assert r["theta"].shape == (4, 2, 3) and r["loss"].shape == (4, 2)
    r = trajectory("linear_model", T, {"S": np.ones(3), "lam": np.ones(3)}, {"theta": a[0]})
    assert r["theta"].shape == (4, 3) and r["loss"].shape == (4,)


def test_quantities_argument_selects_and_keeps_values():
    """``quantities=`` computes only the named ones, with the values of the full call; unknown names and a bare
    string are refused naming the argument."""
    init = {"u": np.array([[0.3, -0.2, 0.5], [0.1, 0.4, -0.6]]), "w": np.array([[0.2, 0.1, -0.4], [0.5, -0.3, 0.2]])}
    params = {"gamma": 1.5, "eta_u": 1.0, "eta_w": 2.0, "a": 1.0, "b": 1.0}
    t = [0.0, 0.7]
    full = trajectory("layerwise_lr_linear", t, params, init)
    some = trajectory("layerwise_lr_linear", t, params, init, quantities=("ntk", "alignment"))
    assert {"ntk", "alignment"} <= set(some) and "loss" not in some and "alignment_weighted" not in some
    for name in ("u", "w", "ntk", "alignment"):
        np.testing.assert_array_equal(some[name], full[name])
    with pytest.raises(ValueError, match="quantities: \\['lossy'\\]"):
        trajectory("layerwise_lr_linear", t, params, init, quantities=("lossy",))
    with pytest.raises(TypeError, match="quantities must be None or a sequence"):
        trajectory("layerwise_lr_linear", t, params, init, quantities="ntk")


def test_sums_returned_with_chosen_quantities_have_the_quantity_shape() -> None:
    """Issue 27: with ``quantities=`` the sums the closed form evaluated along its clocks were returned as (T, 1)
    (not reproduced at this commit; kept as a regression test): they have the shape of the quantity, (T,) for one
    start and (T, batch) for a batch, whether or not they are chosen."""
    params, init = {"S": 1.0, "Z": 1.0}, {"a": np.array([0.5, -0.2]), "b": np.array([0.3, 0.4])}
    batch = {k: np.stack([v, v, v]) for k, v in init.items()}
    for start, shape in ((init, (2,)), (batch, (2, 3))):
        full = trajectory("two_layer_scalar", [0.0, 1.0], params, start)
        for chosen in ((), ("loss",), ("theta",)):
            run = trajectory("two_layer_scalar", [0.0, 1.0], params, start, quantities=chosen)
            assert run["theta"].shape == full["theta"].shape == shape
            np.testing.assert_array_equal(run["theta"], full["theta"])
