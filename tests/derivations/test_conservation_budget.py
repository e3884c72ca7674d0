"""Issue 27: counting conservation laws is refused before any work beyond its budget ``max_cost``
(:func:`derivations.conservation.count_cost`, ``D^3 + fields·D^2``), naming the budget and the estimate."""

from __future__ import annotations

import pytest
import sympy as sp

from derivations import conservation


def _fail(*args: object, **kwargs: object) -> None:
    raise AssertionError("the work started before the budget refused it")


@pytest.fixture
def no_work(monkeypatch):
    """Building the instance, its fields or running the rank/bracket loop fails the test."""
    monkeypatch.setattr(conservation, "_instance", _fail)
    monkeypatch.setattr(conservation, "_model_fields", _fail)
    monkeypatch.setattr(conservation, "_count", _fail)
    monkeypatch.setattr(conservation, "_gradient_fields", _fail)


def test_cost_is_d_cubed_plus_fields_times_d_squared() -> None:
    # typed in: D = 120, 6 fields (linear_network at p = 24)
    assert conservation.count_cost(120, 6) == 1_728_000 + 86_400


@pytest.mark.parametrize(
    ("name", "p", "cost"), [("linear_network", 24, r"1\.74e\+06"), ("single_neuron", 40, r"1\.74e\+06")]
)
def test_a_count_beyond_the_default_budget_is_refused_at_once(name, p, cost, no_work) -> None:
    """The measured hangs of issue 27 (linear_network p = 24: 14 s; single_neuron p = 40: 8.8 s): refused from
    D alone, before the instance is built."""
    with pytest.raises(ValueError, match=rf"costs at least {cost} .*max_cost = 1000000; pass a larger max_cost"):
        conservation.count_conservation_laws(name, p)


def test_the_fields_count_in_the_estimate(monkeypatch) -> None:
    """single_neuron at p = 8 has D = 24 (a, w_1, w_2) and 16 fields: 24^3 + 16·24^2 = 23040; a budget between
    D^3 + D^2 = 14400 (the first check) and that is refused after the fields are built, before the rank loop."""
    monkeypatch.setattr(conservation, "_count", _fail)
    with pytest.raises(ValueError, match=r"single_neuron at p = 8 \(16 fields in D = 24 variables\) costs 2\.3e\+04"):
        conservation.count_conservation_laws("single_neuron", 8, max_cost=20_000)


def test_no_work_sees_the_work_of_a_count_within_budget(no_work) -> None:
    """The refusal tests can fail: a count within budget does reach the patched work."""
    with pytest.raises(AssertionError, match="work started"):
        conservation.count_conservation_laws("linear_network", 2)


def test_counts_within_budget_still_work() -> None:
    assert conservation.count_conservation_laws("linear_network", 4) == 10
    assert conservation.count_conservation_laws("two_layer_scalar", 3, max_cost=conservation.count_cost(6, 1)) == 5
    with pytest.raises(ValueError, match=r"max_cost = 242"):
        conservation.count_conservation_laws("two_layer_scalar", 3, max_cost=conservation.count_cost(6, 1) - 10)


def test_the_reparametrization_count_has_the_budget_too(monkeypatch) -> None:
    a, b = sp.symbols("a_1:4"), sp.symbols("b_1:4")
    phi, variables = [a[i] * b[i] for i in range(3)], [*a, *b]
    assert conservation.count_laws_for_reparametrization(phi, variables) == 3
    monkeypatch.setattr(conservation, "_gradient_fields", _fail)
    with pytest.raises(ValueError, match=r"phi \(3 fields in D = 6 variables\) costs 324 .*max_cost = 300"):
        conservation.count_laws_for_reparametrization(phi, variables, max_cost=300)


@pytest.mark.parametrize("max_cost", [0, 2.5, True, "1e6"])
def test_a_bad_budget_is_refused_naming_it(max_cost) -> None:
    with pytest.raises(ValueError, match=r"max_cost must be an integer >= 1"):
        conservation.count_conservation_laws("two_layer_scalar", 2, max_cost=max_cost)


def test_the_search_for_laws_checks_the_count_budget_first(no_work, monkeypatch) -> None:
    """``conserved_quantities`` counts the laws it searches for: beyond ``max_count_cost`` it is refused before
    the instance is built (single_neuron at p = 40), naming that budget, not the ansatz's ``max_cost``."""
    monkeypatch.setattr(conservation, "_model_laws", _fail)
    with pytest.raises(ValueError, match=r"costs at least 1\.74e\+06 .*max_count_cost = 1000000; pass a larger"):
        conservation.conserved_quantities("single_neuron", 1, p=40)
    with pytest.raises(ValueError, match=r"max_count_cost must be an integer >= 1"):
        conservation.conserved_quantities("single_neuron", 1, p=2, max_count_cost=0)


def test_laws_within_the_count_budget_are_still_found(monkeypatch) -> None:
    """diagonal_linear_network at p = 2 (D = 4; 2 fields for every loss: 96): found with the budget 96, as with
    the default; with 90 refused after the fields are built (the first check, 4^3 + 4^2 = 80, passes), before the
    search."""
    found = conservation.conserved_quantities("diagonal_linear_network", 2, p=2, max_count_cost=96)
    assert [law.expr for law in found] == [
        law.expr for law in conservation.conserved_quantities("diagonal_linear_network", 2, p=2)
    ]
    assert found
    monkeypatch.setattr(conservation, "_model_laws", _fail)
    with pytest.raises(ValueError, match=r"\(2 fields in D = 4 variables\) costs 96 .*max_count_cost = 90"):
        conservation.conserved_quantities("diagonal_linear_network", 2, p=2, max_count_cost=90)
