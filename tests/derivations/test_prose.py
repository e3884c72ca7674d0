"""Prose as LaTeX (``derivations.prose``): formulas written in ASCII or Unicode come out as mathematics through the
naming table, code names and ids stay text, and nothing is left as ASCII math."""

from __future__ import annotations

import pytest

from derivations.prose import code_latex, math_text, text_latex

FORMULAS = {
    "P0^2 = P0": r"\ensuremath{P_0^{2}} = \ensuremath{P_0}",
    "b_i λ_i": r"\ensuremath{b_{i}} \ensuremath{\lambda_{i}}",
    "sigma(z) = z^2": r"\ensuremath{\sigma}(z) = \ensuremath{z^{2}}",
    "lam_i delta_ij": r"\ensuremath{\lambda_{i}} \ensuremath{\delta_{ij}}",
    "u gamma^{-1/2}": r"u \ensuremath{\gamma^{-1/2}}",
    "sqrt(S^2 + Sigma0^2)": r"\ensuremath{\sqrt{S^{2} + \Sigma_0^{2}}}",
    "√(PQ)": r"\ensuremath{\sqrt{PQ}}",
    "(S - theta)^2": r"(S \ensuremath{-} \ensuremath{\theta})\ensuremath{{}^{2}}",
    "a**2": r"\ensuremath{a^{2}}",
    "S0 and D0": r"\ensuremath{\mathcal{S}_0} and \ensuremath{D_0}",
    "ℓ_{k−1}": r"\ensuremath{\ell_{k - 1}}",
    "aᵢ²": r"\ensuremath{a_{i}^{2}}",
    "e^{-kt}": r"\ensuremath{e^{-kt}}",
    "max_{i∈D}": r"\ensuremath{\max_{i \in D}}",
    "t_1/2": r"\ensuremath{t_{1/2}}",
    "e^{2ρ̃t}": r"\ensuremath{e^{2\tilde{\rho} t}}",
    "1/2 (a)": r"\ensuremath{\tfrac{1}{2}} (a)",
    "S - 1": r"S \ensuremath{-} 1",
}


@pytest.mark.parametrize(("text", "expected"), FORMULAS.items())
def test_formulas_of_prose_are_mathematics(text, expected):
    assert text_latex(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "z3 (nonlinear real arithmetic)",
        "two_layer_scalar",
        "numerics.agf",
        "marcotte2023.linear.d2_r2_c2",
        "lambda_balanced",
        "fig6a_run.py",
    ],
)
def test_code_names_stay_text(text):
    assert "ensuremath" not in text_latex(text)
    assert text_latex(text) == code_latex(text)


def test_no_ascii_math_is_left():
    prose = "check: L R = I, P0^2 = P0; tau = t phi1(kt) = (1 - e^{-kt})/k; D0 = sqrt(S**2 + 1)"
    latex = text_latex(prose)
    assert r"\^{}" not in latex and "sqrt(" not in latex and "**" not in latex


def test_a_caret_in_code_is_escaped():
    """The variant the converter must not apply: code text keeps its caret literally."""
    assert code_latex("x^2") == r"x\^{}2"
    assert text_latex("x^2") != code_latex("x^2")


def test_math_text_words():
    assert math_text("2 beta") == r"2 \beta"
    assert math_text("tr Σ") == r"\operatorname{tr} \Sigma"


def test_bad_input():
    with pytest.raises(ValueError, match="text"):
        text_latex(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="text"):
        code_latex(1)  # type: ignore[arg-type]
