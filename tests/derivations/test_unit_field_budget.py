"""Issue 27: ``Model.unit_field`` and ``derivations.solve`` estimate the cost of deriving the flow before the work
(``Model.unit_field_cost``: state names × the width-2 loss's symbols²) and refuse beyond ``max_cost``
(``Model.derive_unit_field(max_cost)``; ``solve(model, max_cost)`` returns ``Unsolved`` at step ``"flow"``).
``deep_scalar_chain(16)`` (cost 20 736) took 57 s, ``linear_network(6, 4)`` (47 610) over a minute."""

from __future__ import annotations

import dataclasses

import pytest

from derivations import solve
from derivations.closed_form import Unsolved
from derivations.model import MAX_UNIT_FIELD_COST, Model
from derivations.models.deep_scalar_chain import deep_scalar_chain
from derivations.models.linear_network import linear_network


def fresh(model: Model) -> Model:
    """A new object of the same model, nothing derived on it yet (the constructors cache theirs)."""
    return dataclasses.replace(model)


@pytest.fixture
def no_derivation(monkeypatch):
    def work(self):
        raise AssertionError("the unit field was derived before the budget refused it")

    monkeypatch.setattr(Model, "_divided_unit_field", work)


def test_the_cost_counts_the_components_and_the_width_2_symbols() -> None:
    """deep_scalar_chain(L): L states, and at width 2 the 2L states and 2 × 2 unit parameters (S, lam): L (2L + 4)²;
    linear_network(6, 4): 10 state rows, 69 symbols at width 2 (20 states, 49 moment entries)."""
    assert [deep_scalar_chain(L).unit_field_cost() for L in (3, 16)] == [3 * 10**2, 16 * 36**2]
    assert linear_network(6, 4).unit_field_cost() == 10 * 69**2
    assert MAX_UNIT_FIELD_COST < 16 * 36**2


@pytest.mark.usefixtures("no_derivation")
@pytest.mark.parametrize("model", [deep_scalar_chain(16), linear_network(6, 4)], ids=["chain16", "network6x4"])
def test_beyond_the_budget_is_refused_before_the_work(model) -> None:
    model = fresh(model)
    cost = model.unit_field_cost()
    raise_it = (
        rf"max_cost = {MAX_UNIT_FIELD_COST}; pass a larger max_cost first, model\.derive_unit_field\(max_cost={cost}\)"
    )
    with pytest.raises(ValueError, match=raise_it):
        model.unit_field  # noqa: B018 (the property is the call)
    with pytest.raises(ValueError, match=rf"about {cost} .*max_cost = 100;"):
        model.derive_unit_field(max_cost=100)
    result = solve(model)
    assert isinstance(result, Unsolved) and result.step == "flow"
    assert (
        f"max_cost = {MAX_UNIT_FIELD_COST}; pass a larger max_cost, e.g. solve(model, max_cost={cost})" in result.reason
    )


def test_just_within_the_budget_the_field_is_derived_and_solve_runs(monkeypatch) -> None:
    """deep_scalar_chain(3), cost 300: refused with max_cost = 299 (nothing derived), derived with 300 (the field
    that of the registered model), and then returned without a check; solve within 300 gets past the flow."""
    model = fresh(deep_scalar_chain(3))
    with monkeypatch.context() as patch:
        patch.setattr(Model, "_divided_unit_field", lambda self: pytest.fail("derived before the refusal"))
        with pytest.raises(ValueError, match=r"about 300 .*max_cost = 299;"):
            model.derive_unit_field(max_cost=299)
        assert isinstance(solve(model, max_cost=299), Unsolved) and solve(model, max_cost=299).step == "flow"
    field = model.derive_unit_field(max_cost=300)
    assert field == deep_scalar_chain(3).unit_field and model.unit_field is field
    assert model.derive_unit_field(max_cost=1) is field  # derived already: no budget left to check
    other = fresh(deep_scalar_chain(3))
    result = solve(other, max_cost=300)
    assert getattr(result, "step", None) != "flow" and "unit_field" in other.__dict__


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "100"])
def test_a_bad_max_cost_is_refused_naming_it(bad) -> None:
    model = fresh(deep_scalar_chain(3))
    with pytest.raises(ValueError, match=r"max_cost must be an integer >= 1"):
        model.derive_unit_field(max_cost=bad)
    with pytest.raises(ValueError, match=r"max_cost must be an integer >= 1"):
        solve(model, max_cost=bad)
