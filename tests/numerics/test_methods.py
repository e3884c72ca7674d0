"""Solution methods as objects (``numerics.methods``) and arithmetic contexts (``numerics.arithmetic``): a method
object gives the arrays of its string shorthand, a new method is one registered class, and a wrong option is
refused naming it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import mpmath
import numpy as np
import pytest

from numerics import DOP853, ClosedForm, GradientDescent, MPMath, Taylor, trajectory
from numerics import methods as methods_module
from numerics.arithmetic import arithmetic, fp, mp
from numerics.compiled import compiled
from numerics.evaluate import unit_rhs
from numerics.methods import Method, Solution, method_of, register
from numerics.model_spec import ModelSpec, spec_of
from numerics.validation import Inputs

MODEL, PARAMS = "two_layer_scalar", {"S": 1.0, "Z": 1.0}
INIT = {"a": np.array([0.5, -0.2]), "b": np.array([0.3, 0.4])}
T = [0.0, 0.2, 0.5]


def _same(one, other) -> None:
    assert list(one) == list(other)
    for name in one:
        np.testing.assert_array_equal(np.asarray(one[name]), np.asarray(other[name]), err_msg=name)


@pytest.mark.parametrize(
    ("method", "shorthand"),
    [
        (ClosedForm(), {}),
        (ClosedForm(refine=False), {"refine": False}),
        (ClosedForm(dps=30), {"dps": 30}),
        (DOP853(), {"method": "scipy"}),
        (GradientDescent(lr=0.1), {"method": "gd", "lr": 0.1}),
        (MPMath(dps=20, max_steps=500), {"method": "mpmath", "dps": 20, "max_steps": 500}),
    ],
)
def test_a_method_object_gives_the_arrays_of_its_shorthand(method: Method, shorthand: dict) -> None:
    by_object = trajectory(MODEL, T, PARAMS, INIT, method=method)
    by_name = trajectory(MODEL, T, PARAMS, INIT, **shorthand)
    _same(by_object, by_name)
    assert by_name.method == method and by_object.method == method.name == by_name.method.name
    assert {method.name: 1}[by_name.method] == 1  # hashes as its name


def test_shorthand_builds_the_method_object() -> None:
    assert method_of("gd", lr=0.5, max_steps=7) == GradientDescent(lr=0.5, max_steps=7)
    assert method_of("closed_form", dps=40) == ClosedForm(dps=40) != ClosedForm(dps=41)
    assert method_of("taylor") == Taylor() and method_of("mpmath") == MPMath(dps=30)
    assert ClosedForm() != DOP853() and ClosedForm() != "scipy"


@pytest.mark.parametrize(
    ("call", "error", "pattern"),
    [
        (lambda: trajectory(MODEL, T, PARAMS, INIT, method="scipy", dps=30), ValueError, r"^dps is only used by"),
        (lambda: trajectory(MODEL, T, PARAMS, INIT, method="closed_form", lr=0.1), ValueError, r"^lr is only used"),
        (lambda: trajectory(MODEL, T, PARAMS, INIT, method="gd"), ValueError, r"needs the options \['lr'\]"),
        (lambda: trajectory(MODEL, T, PARAMS, INIT, method="mpmath", refine=False), ValueError, r"refine=False"),
        (lambda: trajectory(MODEL, T, PARAMS, INIT, method=DOP853(), max_steps=10), ValueError, r"\['max_steps'\]"),
        (lambda: trajectory(MODEL, T, PARAMS, INIT, method="euler"), ValueError, r"method must be one of"),
        (lambda: GradientDescent(lr=-1.0), ValueError, r"\blr\b"),
        (lambda: GradientDescent(lr="0.1"), TypeError, r"\blr\b"),
        (lambda: MPMath(dps=10), ValueError, r"\bdps\b.*\[15, 10000\]"),
        (lambda: ClosedForm(dps=40, max_dps=30), ValueError, r"\bdps\b.*\[15, 30\]"),
        (lambda: ClosedForm(refine=False, dps=30), ValueError, r"refine=False"),
        (lambda: ClosedForm(refine="no"), TypeError, r"\brefine\b"),
        (lambda: DOP853(max_steps=0), ValueError, r"max_steps"),
        (lambda: Taylor(max_steps=2.5), TypeError, r"max_steps"),
    ],
)
def test_a_wrong_option_is_refused_naming_it(call, error, pattern) -> None:
    with pytest.raises(error, match=pattern):
        call()


@dataclass(frozen=True, eq=False)
class Euler(Method):
    """A toy method for the test: explicit Euler steps of ``h`` on the derived field, t = steps × h."""

    h: float = 0.01
    name: ClassVar[str] = "euler"

    def run(self, model: ModelSpec, inputs: Inputs, params: dict[str, object]) -> Solution:
        cm = compiled(model)
        state = dict(inputs.state)
        out = {n: np.empty((len(inputs.t), *v.shape)) for n, v in state.items()}
        steps = np.rint(inputs.t / self.h).astype(int)
        done = 0
        for index in np.argsort(steps):
            for _ in range(steps[index] - done):
                rate = unit_rhs(cm, {**params, **state}, fp)
                state = {n: state[n] + self.h * rate[n] for n in state}
            done = steps[index]
            for n in state:
                out[n][index] = state[n]
        return Solution(out, steps=int(steps.max()))


def test_a_new_method_is_one_registered_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """Euler on the linear model is gradient descent with lr = h: θ_k = S + (1 − h λ)^k (θ_0 − S), typed in."""
    monkeypatch.setitem(methods_module.REGISTRY, "euler", Euler)
    S, lam, theta0, h = np.array([1.0, -2.0]), np.array([0.5, 2.0]), np.array([0.3, 0.7]), 0.05
    run = trajectory("linear_model", [0.0, 0.35, 1.0], {"S": S, "lam": lam}, {"theta": theta0}, method="euler")
    assert run.method == "euler" and run.stats["steps"] == 100  # h = 0.01 by default: 1.0 / 0.01 steps
    by_object = trajectory("linear_model", [0.0, 0.35, 1.0], {"S": S, "lam": lam}, {"theta": theta0}, Euler(h))
    k = np.array([0, 7, 20])[:, None]
    np.testing.assert_allclose(by_object["theta"], S + (1 - h * lam) ** k * (theta0 - S), rtol=1e-14)
    assert "loss" in by_object.quantities  # quantities come from the states, whatever the method
    with pytest.raises(ValueError, match=r"^lr is only used by the methods \['gd'\], not 'euler'"):
        trajectory("linear_model", [0.0], {"S": S, "lam": lam}, {"theta": theta0}, method="euler", lr=0.1)


def test_register_refuses_a_taken_name_and_a_non_method(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(methods_module, "REGISTRY", dict(methods_module.REGISTRY))

    @dataclass(frozen=True, eq=False)
    class Other(Euler):
        name: ClassVar[str] = "gd"

    with pytest.raises(ValueError, match="'gd' is taken by GradientDescent"):
        register(Other)
    with pytest.raises(TypeError, match="cls must be"):
        register(int)  # type: ignore[arg-type]  # the wrong type under test
    assert register(Euler) is Euler and methods_module.REGISTRY["euler"] is Euler


def test_arithmetic_contexts_and_their_legacy_names() -> None:
    assert arithmetic("numpy") is fp and arithmetic("mpmath") is mp and arithmetic(mp.at(40)) == mp.at(40)
    with pytest.raises(ValueError, match="backend must be"):
        arithmetic("float128")
    with pytest.raises(TypeError, match="backend must be"):
        arithmetic(3)  # type: ignore[arg-type]  # the wrong type under test
    # one artifact per arithmetic, keyed by its stable name
    spec = spec_of(MODEL)
    assert compiled(spec, "numpy") is compiled(spec, fp) and compiled(spec, "mpmath") is compiled(spec, mp)
    with mp.at(50).precision():
        assert mpmath.mp.dps == 50
    assert isinstance(fp.number(2), float) and isinstance(mp.number(2), mpmath.mpf)


def test_an_mpmath_result_is_in_the_method_arithmetic() -> None:
    run = trajectory(MODEL, T, PARAMS, INIT, method=MPMath(dps=20))
    assert run.method.arithmetic == mp.at(20) and run["a"].dtype == object
    assert isinstance(run["loss"][1], mpmath.mpf) and run.out_of_range is None
