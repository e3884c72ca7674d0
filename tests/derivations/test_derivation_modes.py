"""``Derivation.latex(mode=...)`` (issue 26): the condensed form shows a run of a method's generic steps as one line
that refers to the method's section; the full form, the default, shows every step."""

from __future__ import annotations

import pytest
import sympy as sp

from derivations.derivation import LATEX_MODES, Derivation, MethodReference, Step

y, c = sp.symbols("y c")
METHOD = MethodReference(
    "the test method", "sec:test-method", lambda: r"\section{Test}\label{sec:test-method}", {"pf": "partial fractions"}
)


def _derivation() -> Derivation:
    steps = [
        Step(sp.Eq(y, c + 1, evaluate=False), "the model's own coefficient"),
        Step(sp.Eq(y**2, c**2, evaluate=False), "generic one", tag="89", key="pf", method=METHOD),
        Step(sp.Eq(y**3, c**3, evaluate=False), "generic two", tag="90", key="pf", method=METHOD),
        Step(sp.Eq(y, 2 * c, evaluate=False), "the model's closed form"),
    ]
    return Derivation("test", steps=steps)


def test_condensed_refers_to_the_section_once_and_keeps_the_numbers() -> None:
    condensed = _derivation().latex(mode="condensed")
    assert condensed.count(r"Section~\ref{sec:test-method}") == 1
    assert "Steps 2–3" in condensed and "partial fractions" in condensed
    assert "generic one" not in condensed and "generic two" not in condensed  # the generic steps are not repeated
    assert "Step 4" in condensed and "closed form" in condensed  # the model's own steps are


def test_full_is_the_default_and_shows_every_step() -> None:
    full = _derivation().latex()
    assert full == _derivation().latex(mode="full")
    assert "generic one" in full and "generic two" in full and r"\ref{" not in full
    assert full.count("Step ") == 4
    assert _derivation().methods() == (METHOD,)


def test_an_unknown_mode_is_refused() -> None:
    assert LATEX_MODES == ("full", "condensed")
    with pytest.raises(ValueError, match="mode must be one of"):
        _derivation().latex(mode="summary")
