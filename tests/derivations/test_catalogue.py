"""``derivations.catalogue``: the order ``solve`` tries, which reduction and method a closed form came from, and
that a failure inside a reduction or a method becomes a reason (``Unsolved``), never an exception."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
import sympy as sp

import derivations.pipeline as pipeline
from derivations import models
from derivations.catalogue import (
    METHODS,
    REDUCTIONS,
    Candidate,
    ClockSolution,
    Context,
    Reduction,
    ScalarMethod,
)
from derivations.closed_form import ClosedForm, Unsolved
from derivations.reduction import ScalarReduction


def fresh(name: str) -> object:
    """A copy of a registered model under a new object, so that ``solve``'s cache does not answer for it."""
    return dataclasses.replace(models.get(name), name=f"{name}_copy")


def test_reductions_holding_for_every_start_come_first() -> None:
    general = [r.general for r in REDUCTIONS]
    assert general == sorted(general, reverse=True), [r.name for r in REDUCTIONS]
    assert len({r.name for r in REDUCTIONS}) == len(REDUCTIONS)
    assert len({m.name for m in METHODS}) == len(METHODS)


def test_a_closed_form_names_its_reduction_and_method() -> None:
    scalar = pipeline.solve(fresh("two_layer_scalar"))
    assert isinstance(scalar, ClosedForm)
    assert (scalar.reduction, scalar.method) == ("shared-clock", "riccati")
    assert not scalar.condition


def test_the_reduction_on_an_invariant_set_comes_with_the_general_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    # only the balanced line left: the chain is solved on it, and the result says why not from every start
    monkeypatch.setattr(pipeline, "REDUCTIONS", tuple(r for r in REDUCTIONS if r.name == "balanced-line"))
    line = pipeline.solve(fresh("deep_scalar_chain"))
    assert isinstance(line, ClosedForm) and line.condition and line.reduction == "balanced-line"
    assert line.general is not None and "no reduction applies" in line.general.reason
    assert line.method == "separable"


class Exploding(Reduction):
    name = "exploding"
    summary = "raises inside its candidates"

    def candidates(self, context: Context) -> Iterator[Candidate | str]:
        yield "first it gives a reason"
        raise ZeroDivisionError("planted failure")


class ExplodingMethod(ScalarMethod):
    name = "exploding-method"
    summary = "applies to everything, then raises"

    def applies(self, reduction: ScalarReduction, context: Context) -> str | None:
        return None

    def solve(self, reduction: ScalarReduction, context: Context) -> ClockSolution:
        raise sp.PolynomialError("planted polynomial failure")


def test_a_failing_reduction_is_a_reason_and_the_next_one_is_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "REDUCTIONS", (Exploding(), *REDUCTIONS))
    result = pipeline.solve(fresh("two_layer_scalar"))
    assert isinstance(result, ClosedForm) and result.reduction == "shared-clock"


def test_when_everything_fails_the_reasons_name_the_step_and_the_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "REDUCTIONS", (Exploding(),))
    result = pipeline.solve(fresh("two_layer_scalar"))
    assert isinstance(result, Unsolved)
    assert result.step == "exploding" and "first it gives a reason" in result.reason
    assert "ZeroDivisionError: planted failure" in result.reason


def test_a_failing_method_is_a_reason_and_the_next_method_is_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "METHODS", (ExplodingMethod(), *METHODS))
    result = pipeline.solve(fresh("two_layer_scalar"))
    assert isinstance(result, ClosedForm) and result.method == "riccati"
    monkeypatch.setattr(pipeline, "METHODS", (ExplodingMethod(),))
    refused = pipeline.solve(fresh("two_layer_scalar"))
    assert isinstance(refused, Unsolved)
    assert "exploding-method failed: PolynomialError: planted polynomial failure" in refused.reason


def test_a_derivation_that_does_not_verify_is_refused_not_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reduction whose scalar equation is wrong (a flipped sign) yields a closed form whose back-substitution
    fails: ``solve`` reports the check, it does not go on to another reduction."""

    class Wrong(Reduction):
        name = "wrong"
        summary = "the shared clock with the sign of its equation flipped"

        def candidates(self, context: Context) -> Iterator[Candidate | str]:
            for candidate in REDUCTIONS[1].candidates(context):
                if isinstance(candidate, ScalarReduction):
                    yield dataclasses.replace(candidate, rhs=-candidate.rhs)

    monkeypatch.setattr(pipeline, "REDUCTIONS", (Wrong(), *REDUCTIONS))
    result = pipeline.solve(fresh("two_layer_scalar"))
    assert isinstance(result, Unsolved) and result.step == "check"
