"""The public hypothesis strategies (``proofs_check.strategies``): regimes, domains, the closed forms' conditions
and nonzero expressions, targets above and below the initial output, and hypothesis as an optional dependency."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import sympy as sp
from hypothesis import find, given, settings
from hypothesis import strategies as st

from derivations import models
from numerics import trajectory
from proofs_check.strategies import REGIMES, cases, initializations, parameters, project, scales, widths
from tests.user_models import quartic_decay


@settings(max_examples=30)
@given(data=st.data(), regime=st.sampled_from(sorted(REGIMES)))
def test_scales_lie_in_their_regime(data, regime):
    low, high = REGIMES[regime]
    assert 10.0**low * (1 - 1e-12) <= data.draw(scales(regime)) <= 10.0**high * (1 + 1e-12)


@settings(max_examples=20)
@given(init=initializations("two_layer_scalar", 5, "balanced"))
def test_balanced_units_have_equal_magnitudes(init):
    np.testing.assert_array_equal(np.abs(init["a"]), np.abs(init["b"]))


def test_near_balanced_units_occur_on_both_sides():
    """Balanced and anti-balanced units to a relative gap in (0, 2^-8] are drawn (find fails if they never are)."""
    strategy = initializations("two_layer_scalar", 4, "near_balanced")
    for sign in (1.0, -1.0):
        gap = lambda init, s=sign: np.abs(init["b"] / init["a"] - s)  # noqa: E731
        found = find(strategy, lambda init, gap=gap: bool(np.any((gap(init) > 0) & (gap(init) <= 2.0**-8))))
        assert np.any(gap(found) <= 2.0**-8)


@settings(max_examples=20)
@given(data=st.data(), name=st.sampled_from(models.names()))
def test_parameters_respect_domains_and_nonzero_expressions(data, name):
    model = models.get(name)
    params = data.draw(parameters(model, 3))
    assert set(params) == {*model.unit_param_names, *model.shared_param_names}
    for key, value in params.items():
        assert np.shape(value) == ((3,) if key in model.unit_param_names else ())
        if model.domains.get(key) == "positive":
            assert np.all(np.asarray(value) > 0)
        assert np.all(np.abs(value) >= 0.05)
    solution = model.solution
    for i in range(3):
        at = {model.symbol(k): sp.Float(v[i] if np.ndim(v) else v) for k, v in params.items()}
        assert all(float(sp.sympify(q).xreplace(at)) != 0 for q in getattr(solution, "nonzero", ()))


QUARTIC = quartic_decay()


@settings(max_examples=10, deadline=None)
@given(case=cases(QUARTIC, width=3))
def test_cases_lie_on_the_closed_forms_set(case):
    """The quartic-decay model is solved on the invariant set a = b only: the projected start satisfies its
    condition exactly and the closed form accepts it."""
    assert QUARTIC.closed_form.condition
    for i in range(case.width):
        at = {QUARTIC.init_symbol(n): sp.Float(case.init[n][i]) for n in QUARTIC.state_names}
        assert all(sp.sympify(c).xreplace(at) == 0 for c in QUARTIC.closed_form.condition)
    trajectory(QUARTIC, [0.0, 1.0], case.params, case.init)


def test_an_unprojected_start_is_off_the_set():
    """The variant: without projection a drawn start violates the condition, and the closed form refuses it."""
    init = {n: np.array([0.3 + 0.1 * k]) for k, n in enumerate(QUARTIC.state_names)}
    params = {"S": np.array([1.0]), "mu": 0.1}
    with pytest.raises(ValueError):
        trajectory(QUARTIC, [0.0, 1.0], params, init)
    trajectory(QUARTIC, [0.0, 1.0], params, project(QUARTIC, params, init))


@settings(max_examples=15, deadline=None)
@given(data=st.data(), target=st.sampled_from(["above", "below"]))
def test_target_above_or_below_the_initial_output(data, target):
    case = data.draw(cases("two_layer_scalar", regime="tiny", target=target))
    theta0 = trajectory("two_layer_scalar", [0.0], case.params, case.init)["theta"][0]
    assert (case.params["S"] > theta0) if target == "above" else (case.params["S"] < theta0)
    unit_case = data.draw(cases("diagonal_linear_network", regime="huge", target=target, width=3))
    theta = unit_case.init["a"] * unit_case.init["b"]
    assert np.all(unit_case.params["S"] > theta) if target == "above" else np.all(unit_case.params["S"] < theta)


@settings(max_examples=5, deadline=None)
@given(cases("two_layer_scalar", regime="tiny", target="above"))
def test_readme_example(case):
    """The README's property test of a user: from a tiny start the output rises to a target above it."""
    run = trajectory("two_layer_scalar", [0.0, 50.0], case.params, case.init)
    assert run["theta"][-1] > run["theta"][0]


def test_bad_arguments_name_themselves():
    with pytest.raises(ValueError, match="regime"):
        scales("lazy")
    with pytest.raises(ValueError, match="max_width"):
        widths(0)
    with pytest.raises(ValueError, match="target"):
        cases("two_layer_scalar", target="sideways")
    with pytest.raises(ValueError, match="target_param"):
        cases("layerwise_lr_linear", target="above")
    with pytest.raises(ValueError, match="regime"):
        cases("two_layer_scalar", regime="lazy")


def test_hypothesis_is_optional():
    """proofs_check imports without hypothesis; proofs_check.strategies then says which extra to install."""
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "import proofs_check\n"
        "try:\n    import proofs_check.strategies\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "layerwise-linear-flows[strategies]" in out
