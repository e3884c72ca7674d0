"""The result of ``numerics.trajectory``: a typed record that is also a mapping of its arrays."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np
import pytest

from derivations.models.linear_network import linear_network
from numerics import trajectory
from numerics.linear_network import init_to_weights, moment_params, weights_to_init


def test_a_result_is_a_mapping_with_times_clocks_method_and_stats() -> None:
    r = trajectory("two_layer_scalar", [0.0, 1.0, 2.0], {"S": 1.0, "Z": 1.0}, {"a": [0.1, 0.2], "b": [0.3, -0.1]})
    assert isinstance(r, Mapping) and set(r) >= {"a", "b", "theta", "loss", "t"}
    assert set(r.states) == {"a", "b"} and {"theta", "loss"} <= set(r.quantities) and r.out_of_range is not None
    np.testing.assert_array_equal(r.t, [0.0, 1.0, 2.0])
    assert r.method == "closed_form" and r.stats["seconds"] > 0
    gamma = r.clocks["gamma"][:, 0]
    assert gamma[0] == 1.0
    # the clock is the closed form's own: a = ((a0 + b0) sqrt(gamma) + (a0 - b0) / sqrt(gamma)) / 2 (eq 72)
    np.testing.assert_allclose(r["a"][:, 0], (0.4 * np.sqrt(gamma) - 0.2 / np.sqrt(gamma)) / 2, rtol=1e-14)
    with pytest.raises(AttributeError, match="no 'W1'"):
        _ = r.W1


def test_matrix_weights_come_back_as_arrays() -> None:
    rng = np.random.default_rng(0)
    W1, W2 = 0.1 * rng.normal(size=(3, 4)), 0.1 * rng.normal(size=(4, 2))
    params = moment_params(np.eye(3), rng.normal(size=(3, 2)))
    # the matrix layout as the model declares it (Model.matrix_states): rows of W1 (3 x 4) and of W2^T (2 x 4)
    rows = {"W1": ("W1_1", "W1_2", "W1_3"), "W2T": ("W2T_1", "W2T_2")}
    model = dataclasses.replace(linear_network(3, 2), matrix_states=rows)
    run = trajectory(model, [0.0, 0.5], params, weights_to_init(W1, W2), method="gd", lr=0.01)
    assert run.W1.shape == (2, 3, 4) and run.W2T.shape == (2, 2, 4)
    np.testing.assert_array_equal(run.W1[0], W1)
    W1_t, W2_t = init_to_weights({k: v[-1] for k, v in run.items() if k.startswith("W")})
    np.testing.assert_array_equal(run.W1[-1], W1_t)
    np.testing.assert_array_equal(run.W2T[-1], W2_t.T)
    assert run.method == "gd" and run.stats["steps"] == 50


def test_without_declared_matrices_there_are_none() -> None:
    """The matrices come from ``Model.matrix_states`` only, never from the state names."""
    # the matrix field is written in the matrices W1, W2T: without them it goes too (issue 25)
    model = dataclasses.replace(linear_network(2, 1), matrix_states={}, matrix_field_of=None)
    rng = np.random.default_rng(1)
    params = moment_params(np.eye(2), rng.normal(size=(2, 1)))
    init = weights_to_init(0.1 * rng.normal(size=(2, 3)), 0.1 * rng.normal(size=(3, 1)))
    # a matrix field whose matrices the model no longer declares is refused, naming the layouts
    inconsistent = dataclasses.replace(linear_network(2, 1), matrix_states={})
    with pytest.raises(ValueError, match="matrix_states"):
        trajectory(inconsistent, [0.0, 0.1], params, init, method="gd", lr=0.05)
    run = trajectory(model, [0.0, 0.1], params, init, method="gd", lr=0.05)
    assert run.matrices == {} and "W1_1" in run.states
    with pytest.raises(AttributeError, match="no 'W1'"):
        _ = run.W1
