"""Issue 27: ``Model.instance(p)`` is refused before any symbol is built beyond its budget ``max_size``
(``Model.instance_size``: state and unit-parameter symbols + input-moment entries / 16), naming the budget."""

from __future__ import annotations

import pytest

from derivations import model as model_module
from derivations import registry
from derivations.model import MAX_INSTANCE_SIZE


@pytest.fixture
def no_work(monkeypatch):
    """Building an ``Instance`` fails the test."""

    def work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started before the budget refused it")

    monkeypatch.setattr(model_module, "Instance", work)


def test_size_counts_symbols_and_moment_entries() -> None:
    # typed in: linear_network has 5 states per unit and 5 inputs; linear_model 1 state, 2 unit parameters and p inputs
    assert registry.get("linear_network").instance_size(2000) == 5 * 2000 + 25 / 16
    assert registry.get("linear_model").instance_size(100) == 3 * 100 + 100**2 / 16


@pytest.mark.parametrize(("name", "p"), [("linear_network", 2000), ("two_layer_scalar", 2000), ("linear_model", 300)])
def test_an_instance_beyond_the_budget_is_refused_at_once(name, p, no_work) -> None:
    """``linear_network`` at p = 2000 hung for minutes (issue 27)."""
    with pytest.raises(ValueError, match=rf"width p = {p} has size .* max_size = {MAX_INSTANCE_SIZE}; pass a larger"):
        registry.get(name).instance(p)


def test_no_work_sees_the_work_of_an_instance_within_budget(no_work) -> None:
    with pytest.raises(AssertionError, match="work started"):
        registry.get("linear_network").instance(3)


def test_instances_within_budget_still_work() -> None:
    """two_layer_scalar has 2 states per unit and 1 input: size 2p + 1/16."""
    model = registry.get("two_layer_scalar")
    assert len(model.instance(20, max_size=41).variables) == 40
    with pytest.raises(ValueError, match=r"size 40\.06 .*max_size = 40\b"):
        model.instance(20, max_size=40)
    with pytest.raises(ValueError, match=r"size 1000 .*max_size = 1000\b"):
        model.instance(500)
    assert len(model.instance(64).variables) == 128  # the widest conservation counts


@pytest.mark.parametrize("max_size", [0, 2.5, True, None])
def test_a_bad_budget_is_refused_naming_it(max_size) -> None:
    with pytest.raises(ValueError, match=r"max_size must be an integer >= 1"):
        registry.get("two_layer_scalar").instance(2, max_size=max_size)


@pytest.mark.parametrize("p", [0, -1, 2.0, True, "2"])
def test_a_bad_width_is_refused_naming_it(p) -> None:
    with pytest.raises(ValueError, match=r"width p must be a positive integer"):
        registry.get("two_layer_scalar").instance(p)


def test_a_large_model_is_not_probed_when_built(monkeypatch):
    """linear_network(32, 32) (instance size 128 at width 1) builds no probe instance, whose entrywise loss took
    minutes to expand; a small model is still probed (a bad moment is refused at construction)."""
    from derivations import model as model_module
    from derivations.models.linear_network import linear_network

    def no_instance(self, model, p):
        raise AssertionError("a probe instance was built")

    assert linear_network(32, 32).instance_size(1) > model_module.PROBE_MAX_SIZE
    monkeypatch.setattr(model_module.Instance, "__init__", no_instance)
    linear_network(32, 32)
    with pytest.raises(AssertionError, match="probe instance"):
        linear_network(2, 2)
