"""Matrices in, by their declared layout (``Model.matrix_params``, ``Model.matrix_states``): ``trajectory`` takes
``{"Sxx": Sxx, "Sxy": Sxy, "Syy": Syy}`` and ``{"W1": W1, "W2T": W2T}`` and runs exactly as with the entry names;
bad shapes, asymmetric symmetric matrices and matrices given twice are refused naming the argument."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp

from derivations.models.linear_network import linear_network
from numerics import trajectory
from numerics.linear_network import init_to_weights, moment_params, weights_to_init
from numerics.validation import expand_matrices

RNG = np.random.default_rng(7)
T = [0.0, 0.5, 2.0]


def _moments(d: int, c: int, batch: tuple[int, ...] = ()) -> dict[str, np.ndarray]:
    """Realizable moments with every entry distinct: Sxx = AAᵀ/d + I, Syy = SxyᵀSxx⁻¹Sxy + I."""
    A = RNG.normal(size=(*batch, d, d))
    Sxx = A @ np.swapaxes(A, -1, -2) / d + np.eye(d)
    Sxy = RNG.normal(size=(*batch, d, c))
    Syy = np.swapaxes(Sxy, -1, -2) @ np.linalg.solve(Sxx, Sxy) + np.eye(c)
    return {"Sxx": Sxx, "Sxy": Sxy, "Syy": Syy}


def _by_names(moments: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The same moments by entry name, written out here from the documented naming (1-based, ``_``-separated,
    the upper triangle of the symmetric blocks)."""
    Sxx, Sxy, Syy = moments["Sxx"], moments["Sxy"], moments["Syy"]
    d, c = Sxy.shape[-2:]
    params = {f"Sxx_{k + 1}_{j + 1}": Sxx[..., k, j] for k in range(d) for j in range(k, d)}
    params |= {f"Sxy_{k + 1}_{m + 1}": Sxy[..., k, m] for k in range(d) for m in range(c)}
    params |= {f"Syy_{m + 1}_{n + 1}": Syy[..., m, n] for m in range(c) for n in range(m, c)}
    return params


def _assert_bitwise(a: dict, b: dict) -> None:
    assert set(a) == set(b)
    for key in a:
        assert np.array_equal(a[key], b[key]), key


@pytest.mark.parametrize(("method", "options"), [("scipy", {}), ("gd", {"lr": 1e-2})])
def test_matrices_given_as_arrays_run_as_the_same_matrices_by_names(method, options) -> None:
    moments = _moments(3, 2)
    W1, W2T = 0.3 * RNG.normal(size=(3, 4)), 0.3 * RNG.normal(size=(2, 4))
    rows = {**{f"W1_{k + 1}": W1[k] for k in range(3)}, **{f"W2T_{m + 1}": W2T[m] for m in range(2)}}
    model = linear_network(3, 2)
    arrays = trajectory(model, T, moments, {"W1": W1, "W2T": W2T}, method=method, **options)
    names = trajectory(model, T, _by_names(moments), rows, method=method, **options)
    _assert_bitwise(dict(arrays), dict(names))
    # moment_params builds the same names (from the model's layout)
    _assert_bitwise(dict(trajectory(model, T, moment_params(**moments), rows, method=method, **options)), dict(names))


def test_batched_matrices_have_the_batch_axis_first() -> None:
    moments = _moments(3, 2, batch=(2,))
    W1, W2T = 0.3 * RNG.normal(size=(2, 3, 4)), 0.3 * RNG.normal(size=(2, 2, 4))
    rows = {**{f"W1_{k + 1}": W1[:, k] for k in range(3)}, **{f"W2T_{m + 1}": W2T[:, m] for m in range(2)}}
    model = linear_network(3, 2)
    arrays = trajectory(model, T, moments, {"W1": W1, "W2T": W2T}, method="gd", lr=1e-2)
    names = trajectory(model, T, _by_names(moments), rows, method="gd", lr=1e-2)
    _assert_bitwise(dict(arrays), dict(names))
    assert arrays["W1_1"].shape == (len(T), 2, 4)
    # a batch element alone gives the same run
    single = trajectory(
        model, T, {k: v[1] for k, v in moments.items()}, {"W1": W1[1], "W2T": W2T[1]}, method="gd", lr=1e-2
    )
    np.testing.assert_allclose(arrays["P_3_2"][:, 1], single["P_3_2"], rtol=1e-13, atol=1e-15)


def test_layerwise_lr_matrix_takes_its_first_layer_and_direction_as_arrays() -> None:
    W = RNG.normal(size=(5, 3))  # rows w_i: the units
    n = RNG.normal(size=3)
    n /= np.linalg.norm(n)
    scalars = {"gamma": 0.9, "eta_u": 0.7, "eta_w": 1.6, "a": 1.2, "b": 2.5}
    u = RNG.normal(size=5)
    arrays = trajectory("layerwise_lr_matrix", T, {**scalars, "n": n[:, None]}, {"u": u, "WT": W.T}, method="scipy")
    names = trajectory(
        "layerwise_lr_matrix",
        T,
        {**scalars, **{f"n_{k + 1}": n[k] for k in range(3)}},
        {"u": u, **{f"W_{k + 1}": W[:, k] for k in range(3)}},
        method="scipy",
    )
    _assert_bitwise(dict(arrays), dict(names))
    with pytest.raises(ValueError, match=r"params\['n'\] must have shape \(3, 1\) or \(batch, 3, 1\), got \(3,\)"):
        trajectory("layerwise_lr_matrix", T, {**scalars, "n": n}, {"u": u, "WT": W.T}, method="scipy")


def test_eleven_by_eleven_moments_reach_the_model_entry_by_entry() -> None:
    """At d = c = 11 the old names merged Sxy[0, 10] and Sxy[10, 0]; now each of the 121 entries arrives under
    its own name, with its own value (the values are all distinct)."""
    model = linear_network(11, 11)
    moments = _moments(11, 11)
    W1, W2T = RNG.normal(size=(11, 2)), RNG.normal(size=(11, 2))
    params, init = expand_matrices(model, moments, {"W1": W1, "W2T": W2T})
    assert set(params) == set(model.shared_param_names) and len(params) == 253
    sxy = {params[name] for row in model.matrix_params["Sxy"] for name in row}
    assert len(sxy) == 121 == len(set(moments["Sxy"].ravel()))
    for k in range(11):
        for m in range(11):
            assert params[f"Sxy_{k + 1}_{m + 1}"] == moments["Sxy"][k, m]
        assert np.array_equal(init[f"W1_{k + 1}"], W1[k]) and np.array_equal(init[f"W2T_{k + 1}"], W2T[k])
    assert params["Sxx_3_11"] == moments["Sxx"][2, 10] == moments["Sxx"][10, 2]
    assert moment_params(**moments) == _by_names(moments)
    W2 = RNG.normal(size=(2, 11))
    back = init_to_weights(weights_to_init(W1, W2))
    assert np.array_equal(back[0], W1) and np.array_equal(back[1], W2)


def test_eleven_by_eleven_moments_read_back_at_their_index_through_the_model() -> None:
    """Issue 23: whatever the entries are called, the model's own moments (the symbol its ``moment(i, j)`` puts
    at each index of E[zzᵀ], z = (x, y)) evaluated at the values that ``moment_params`` and ``trajectory``'s
    matrix expansion hand over give back every entry at its index: the 121 distinct values of Sxy, and Sxx, Syy."""
    d = c = 11
    model = linear_network(d, c)
    moments = _moments(d, c)
    assert len(set(moments["Sxy"].ravel())) == d * c
    # symmetric blocks: the upper triangle is what is handed over
    joint = np.block(
        [
            [np.triu(moments["Sxx"]) + np.triu(moments["Sxx"], 1).T, moments["Sxy"]],
            [moments["Sxy"].T, np.triu(moments["Syy"]) + np.triu(moments["Syy"], 1).T],
        ]
    )
    symbols = {name: sp.Symbol(name, real=True) for name in model.shared_param_names}

    def read_back(params: dict) -> np.ndarray:
        assert set(params) == set(symbols)
        return np.array([[params[str(model.moment(symbols, i, j))] for j in range(d + c)] for i in range(d + c)])

    expanded, _ = expand_matrices(model, moments, {})
    assert np.array_equal(read_back(moment_params(**moments)), joint)
    assert np.array_equal(read_back(expanded), joint)
    # refuted: Sxy handed over transposed does not read back (its entries are distinct)
    transposed, _ = expand_matrices(model, {**moments, "Sxy": moments["Sxy"].T}, {})
    assert not np.array_equal(read_back(transposed), joint)


def test_mpf_matrices_keep_their_digits() -> None:
    with mpmath.workdps(30):
        third = mpmath.mpf(1) / 3
        Sxx = np.array([[mpmath.mpf(1), third], [third, mpmath.mpf(1)]], dtype=object)
        params, _ = expand_matrices(linear_network(2, 1), {"Sxx": Sxx}, {}, exact=True)
        assert params["Sxx_1_2"] == third and isinstance(params["Sxx_1_2"], mpmath.mpf)


@pytest.mark.parametrize(
    ("params", "init", "pattern"),
    [
        ({"Sxy": np.ones((2, 3))}, {}, r"params\['Sxy'\] must have shape \(3, 2\) or \(batch, 3, 2\), got \(2, 3\)"),
        ({"Sxy": np.ones((2, 2, 3, 2))}, {}, r"params\['Sxy'\] must have shape \(3, 2\) or \(batch, 3, 2\)"),
        ({"Sxy": np.ones(6)}, {}, r"params\['Sxy'\] must have shape \(3, 2\)"),
        ({}, {"W1": np.ones((2, 4))}, r"init\['W1'\] must have shape \(3, p\) or \(batch, 3, p\), got \(2, 4\)"),
        ({}, {"W2T": np.ones(4)}, r"init\['W2T'\] must have shape \(2, p\)"),
        (
            {"Sxx": np.array([[1.0, 0.1, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])},
            {},
            r"params\['Sxx'\] must be symmetric .*entries \(1, 2\) and \(2, 1\) differ",
        ),
        (
            {"Syy": np.stack([np.eye(2), np.array([[1.0, 0.2], [0.3, 1.0]])])},
            {},
            r"params\['Syy'\] must be symmetric",
        ),
        ({"Sxy": np.ones((3, 2)), "Sxy_2_1": 1.0}, {}, r"params gives Sxy both as a matrix .*\['Sxy_2_1'\]"),
        ({}, {"W1": np.ones((3, 4)), "W1_3": np.ones(4)}, r"init gives W1 both as a matrix .*\['W1_3'\]"),
        ({"Sxy": np.ones((3, 2), dtype=complex)}, {}, r"params\['Sxy'\] must be real"),
    ],
)
def test_bad_matrices_are_refused_naming_the_argument(params, init, pattern) -> None:
    model = linear_network(3, 2)
    good_params, good_init = _moments(3, 2), {"W1": np.ones((3, 4)), "W2T": np.ones((2, 4))}
    with pytest.raises((ValueError, TypeError), match=pattern):
        trajectory(model, T, {**good_params, **params}, {**good_init, **init}, method="gd", lr=1e-2)


def test_symmetry_is_checked_to_rounding_only() -> None:
    """A product such as AAᵀ may differ from its transpose by rounding: accepted (the upper triangle is used)."""
    moments = _moments(3, 2)
    Sxx = moments["Sxx"].copy()
    Sxx[1, 0] *= 1 + 1e-15
    params, _ = expand_matrices(linear_network(3, 2), {**moments, "Sxx": Sxx}, {})
    assert params["Sxx_1_2"] == Sxx[0, 1]
    Sxx[1, 0] *= 1 + 1e-9
    with pytest.raises(ValueError, match=r"params\['Sxx'\] must be symmetric"):
        expand_matrices(linear_network(3, 2), {**moments, "Sxx": Sxx}, {})


@pytest.mark.parametrize(
    ("Sxx", "Sxy", "Syy", "pattern"),
    [
        (np.ones((2, 3)), np.ones((2, 3)), None, r"Sxx must have shape \(d, d\) with d >= 1 .*got \(2, 3\)"),
        (np.eye(2)[None], np.ones((2, 3)), None, r"Sxx must have shape \(d, d\) .*no batch axes\), got \(1, 2, 2\)"),
        (np.eye(2), np.ones(2), None, r"Sxy must have shape \(2, c\) with c >= 1 .*got \(2,\)"),
        (np.eye(2), np.ones((3, 2)), None, r"Sxy must have shape \(2, c\) .*got \(3, 2\)"),
        (np.eye(2), np.ones((2, 0)), None, r"Sxy must have shape \(2, c\) with c >= 1 .*got \(2, 0\)"),
        (np.eye(2), np.ones((2, 3)), np.eye(2), r"Syy must have shape \(3, 3\), got \(2, 2\)"),
    ],
)
def test_moment_params_refuses_a_shape_naming_the_block_and_the_shape_it_needs(Sxx, Sxy, Syy, pattern) -> None:
    with pytest.raises(ValueError, match=pattern):
        moment_params(Sxx, Sxy, Syy)
