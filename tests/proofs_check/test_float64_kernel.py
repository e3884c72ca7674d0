"""The "closed form vs 30-digit ODE" claims check the float64 kernel too (``proofs_check.checkers.closed_form_error``):
its error against the same 30-digit reference must be within its conditioning allowance. A float64 kernel off by
1e-6 relative (monkeypatched; the 30-digit closed form untouched) is refuted by every one of them."""

from __future__ import annotations

from dataclasses import replace

import pytest

import numerics.methods.closed_form as float64_closed_form
from proofs_check.checkers import float64_allowance
from proofs_check.claims import Status
from proofs_check.papers import load_papers
from proofs_check.runner import run_check

CLAIMS = (
    "nam2025.appH.theorem3.numeric",
    "xu_ziyin2025.sec2.theorem1.numeric",
    "saxe2014.appA.numeric",
    "domine2025.theorem2.numeric",
    "kunin2024.tied.numeric",
    "kunin2024.closed_form.numeric",
)
OFF = 1e-6
"""Relative error of the mutant float64 kernel."""


@pytest.fixture
def float64_mutant(monkeypatch: pytest.MonkeyPatch) -> None:
    """The float64 closed form with every state scaled by 1 + OFF (the mpmath closed form does not use it)."""
    original = float64_closed_form.closed_form_numpy

    def off(*args, **kwargs):
        values = original(*args, **kwargs)
        return replace(values, states={name: v * (1 + OFF) for name, v in values.states.items()})

    monkeypatch.setattr(float64_closed_form, "closed_form_numpy", off)


def claim(claim_id: str):
    paper = claim_id.split(".")[0]
    return load_papers([paper]).paper(paper)[claim_id]


def test_the_float64_kernel_is_within_its_allowance() -> None:
    outcome = run_check(claim("saxe2014.appA.numeric"))
    assert outcome.status is Status.NUMERIC, outcome.detail
    assert outcome.routes == ("numeric-mpmath-30", "numeric-float64")
    assert "float64 error / allowance = " in outcome.detail


def test_a_float64_mutant_is_refuted(float64_mutant: None) -> None:
    outcome = run_check(claim("saxe2014.appA.numeric"))
    assert outcome.status is Status.REFUTED
    # refuted by the float64 bound alone: the 30-digit comparison is within its tolerance
    assert set(outcome.counterexample) == {"err_modes", "tolerance", "float64 error / allowance"}
    assert float(outcome.counterexample["err_modes"]) < 1e-25


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", CLAIMS)
def test_every_closed_form_claim_refutes_a_float64_mutant(claim_id: str, float64_mutant: None) -> None:
    outcome = run_check(claim(claim_id))
    assert outcome.status is Status.REFUTED, outcome.detail
    assert "numeric-float64" in outcome.routes
    assert any(key.startswith("float64 error") for key in outcome.counterexample)


def test_the_allowance_scales_with_the_conditioning() -> None:
    assert float64_allowance(0.5) == float64_allowance(1.0) < float64_allowance(10.0) == 10 * float64_allowance(1.0)
    assert 1e-15 < float64_allowance(1.0) < 1e-12
    for bad in (-1.0, float("nan"), float("inf"), "1"):
        with pytest.raises(ValueError, match="conditioning"):
            float64_allowance(bad)  # type: ignore[arg-type]
