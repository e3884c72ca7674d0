"""Equation tags: the built-in models carry none (a paper tags them), ``Derivation.tagged`` tags steps by key,
and a user's ``Model.tags`` tag the steps ``solve`` records under those keys."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from derivations import Derivation, models, solve

x, y = sp.symbols("x y", real=True)


@pytest.mark.parametrize("name", models.BUILTIN)
def test_builtin_models_carry_no_tags(name: str) -> None:
    assert dict(models.get(name).tags) == {}


def _two_steps() -> Derivation:
    d = Derivation("two steps")
    d.add(sp.Eq(x, x, evaluate=False), "first", key="first")
    d.add(sp.Eq(y, y, evaluate=False), "second", "kept", key="second")
    return d


def test_tagged_tags_the_steps_of_a_key_and_keeps_the_others() -> None:
    d = _two_steps()
    tagged = d.tagged({"first": "12"})
    assert [s.tag for s in tagged.steps] == ["12", "kept"]
    assert [s.tag for s in d.steps] == ["", "kept"], "the original is unchanged"
    assert [s.relation for s in tagged.steps] == [s.relation for s in d.steps]
    assert tagged.by_tag("12")[0].justification == "first"


def test_tagged_with_a_wrong_key_tags_nothing() -> None:
    tagged = _two_steps().tagged({"no such key": "12"})
    assert [s.tag for s in tagged.steps] == ["", "kept"]
    assert not tagged.by_tag("12")


def test_tagged_rejects_a_non_mapping() -> None:
    with pytest.raises(TypeError, match="tags"):
        _two_steps().tagged(["first"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tags"):
        _two_steps().tagged({"first": 12})  # type: ignore[dict-item]


def test_a_users_model_tags_are_applied_by_key() -> None:
    tagged = dataclasses.replace(models.get("linear_model"), name="tagged_linear", tags={"flow": "F", "solution": "S"})
    derivation = solve(tagged).derivation
    flow, solution = derivation.by_key("flow"), derivation.by_key("solution")
    assert flow and solution
    assert all(s.tag == "F" for s in flow) and all(s.tag == "S" for s in solution)
    assert all(s.tag == "" for s in derivation.steps if s.key not in ("flow", "solution"))
