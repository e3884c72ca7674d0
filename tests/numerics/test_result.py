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


# ---------------------------------------------------------------- solve_ivp's fields: success, message, counts, options
START = {"a": [0.1, 0.2], "b": [0.3, -0.1]}
PARAMS = {"S": 1.0, "Z": 1.0}


def _run(method: str, t: object = (0.0, 0.5, 1.0), **options: object):
    return trajectory("two_layer_scalar", list(t), PARAMS, START, method=method, **options)


@pytest.mark.parametrize(
    ("method", "options", "expected"),
    [
        ("closed_form", {}, {"refine": True, "dps": None, "max_dps": 10_000}),
        ("closed_form", {"dps": 20}, {"refine": True, "dps": 20, "max_dps": 10_000}),
        ("mpmath", {"dps": 20}, {"dps": 20, "max_steps": None, "max_dps": 10_000}),
        ("scipy", {"max_steps": 5000}, {"max_steps": 5000}),
        ("taylor", {}, {"dps": None, "max_steps": None, "max_dps": 10_000}),
        ("gd", {"lr": 0.01}, {"lr": 0.01, "max_steps": None}),
    ],
)
def test_every_method_reports_success_its_options_and_a_message(method, options, expected) -> None:
    if method == "taylor":
        pytest.importorskip("heyoka", reason="the Taylor method is the optional [taylor] extra")
    run = _run(method, **options)
    assert run.success is True
    assert run.options == expected
    assert run.message.startswith(f"{method} (") and "s" in run.message.split(":")[-1]
    for name, value in expected.items():
        assert f"{name}={value!r}" in run.message
    assert len(run) == len(run._arrays())  # still the mapping of its arrays


def test_the_closed_form_takes_no_steps_and_evaluates_no_field() -> None:
    for run in (_run("closed_form"), _run("closed_form", dps=20)):
        assert (run.nsteps, run.nfev) == (0, 0)


def test_gradient_descent_counts_t_over_lr_steps_one_gradient_each() -> None:
    run = _run("gd", t=(0.0, 0.25, 0.5), lr=0.01)
    assert (run.nsteps, run.nfev) == (50, 50)  # 0.5 / 0.01, independently of the method's bookkeeping


def test_dop853_counts_the_steps_and_evaluations_scipy_counts() -> None:
    """One start, one output time: the batch integrator takes SciPy's DOP853 steps (its accepted steps are the
    points of ``solve_ivp``'s own grid) and SciPy's evaluations, plus the 3 extra stages of the one dense output."""
    from scipy.integrate import solve_ivp

    from numerics.dop853 import RTOL, BatchDOP853

    def rate(y: np.ndarray) -> np.ndarray:
        return y * (1.0 - y)  # logistic growth from 1e-3 to about 1

    solver = BatchDOP853(lambda y, rows: rate(y), np.full((1, 1, 1), 1e-3), np.array([1e-12]))
    solver.solve(np.array([12.0]))
    reference = solve_ivp(lambda t, y: rate(y), (0.0, 12.0), [1e-3], method="DOP853", rtol=RTOL, atol=1e-12)
    assert solver.nsteps[0] == len(reference.t) - 1 > 5
    assert solver.nfev[0] == reference.nfev + 3


def test_dop853_and_mpmath_counts_grow_with_the_horizon() -> None:
    from numerics.budget import mpmath_degree

    for method, options in (("scipy", {}), ("mpmath", {"dps": 20})):
        short, long = _run(method, t=(0.0, 0.5), **options), _run(method, t=(0.0, 20.0), **options)
        assert 0 < short.nsteps < long.nsteps and 0 < short.nfev < long.nfev, method
    run = _run("mpmath", t=(0.0, 2.0), dps=20)
    # odefun's series: one field evaluation per Taylor coefficient of every step, one more for the first time unit
    assert run.nfev == run.nsteps * mpmath_degree(20) + 1


def test_taylor_counts_heyoka_steps_and_no_field_evaluations() -> None:
    pytest.importorskip("heyoka", reason="the Taylor method is the optional [taylor] extra")
    short, long = _run("taylor", t=(0.0, 0.5)), _run("taylor", t=(0.0, 20.0))
    assert 0 < short.nsteps < long.nsteps
    assert short.nfev is None and long.nfev is None


def test_the_counters_refuse_negative_work() -> None:
    from numerics.work import Work

    work = Work()
    work.record(3, 10)
    work.record(2, 12)
    assert (work.nsteps, work.nfev) == (3, 12)
    with pytest.raises(ValueError, match="nsteps"):
        work.record(-1)


# ---------------------------------------------------------------- plot
def test_plot_draws_every_unit_of_every_name_with_a_mathematical_legend() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run = _run("closed_form", t=np.linspace(0.0, 2.0, 5))
    ax = run.plot(quantities=["a", "theta"])
    assert len(ax.lines) == 2 + 1  # two units of a, one theta
    np.testing.assert_array_equal(ax.lines[0].get_xdata(), run.t)
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), run["a"][:, 1])
    assert [text.get_text() for text in ax.get_legend().get_texts()] == ["$a$", r"$\theta$"]
    _, given = plt.subplots()
    assert run.plot(ax=given) is given and len(given.lines) == 4  # default: the states a, b
    plt.close("all")


def test_plot_of_an_mpmath_run_draws_floats() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run = _run("closed_form", dps=20)
    ax = run.plot(["loss"])
    assert ax.lines[0].get_ydata().dtype == float
    plt.close("all")


def test_plot_refuses_unknown_names_and_says_how_to_get_matplotlib(monkeypatch) -> None:
    import sys

    run = _run("closed_form")
    with pytest.raises(ValueError, match=r"'c'.*admissible"):
        run.plot(["c"])
    with pytest.raises(TypeError, match="sequence of names"):
        run.plot("a")
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)  # as if matplotlib were not installed
    with pytest.raises(ImportError, match="pip install matplotlib"):
        run.plot()
