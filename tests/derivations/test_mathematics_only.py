r"""The report prints mathematics only: no code syntax in the derivations, the model displays or the claims'
statements (issue 26).

The scan runs on what ``python -m proofs_check --latex FILE`` prints (:func:`proofs_check.latex_report.document`:
every registered model with its derivation) and on every built-in claim's statement (``Claim.latex``, the
"Statements" subsections). The patterns are the code forms a reader met in the PDF: a displayed Boolean, a code
index ``theta[+1]``, ASCII relations and arrows, SymPy's ``oo``, ``*`` and ``**``, a subscript swallowing an
argument (``\chi_{2(0)}``) and raw ``Function(`` text. Each is shown able to fail on a planted instance.
"""

from __future__ import annotations

import re

import pytest
import sympy as sp

from derivations import solve
from derivations.derivation import Derivation
from derivations.naming import align_rows, symbol_latex
from derivations.prose import text_latex

CODE_SYNTAX: dict[str, str] = {
    "a displayed Boolean": r"\\text\{(?:True|False)\}|\$(?:True|False)\$|Assumptions:\}? (?:\$)?True",
    "a code index theta[±1]": r"\btheta\[|(?<![{\w])\[(?:[+\-]|\\ensuremath\{[-+]\}|\\pm|±|\\ensuremath\{\\pm\})?1\]",
    "an ASCII arrow ->": r"->|-\\ensuremath\{>\}",
    "SymPy's oo": r"\boo\b",
    "an ASCII >= or <=": r"[<>]=|\\ensuremath\{[<>]\}=",
    "an ASCII !=": r"!=",
    "a code product *": r"[\w}]\*[\w\\(]",
    "a code power **": r"\*\*",
    "a subscript swallowing an argument": r"_\{[^{}]*\(0\)\}",
    "raw SymPy Function(": r"Function\(",
}
"""Name of the defect -> regular expression of its code form in the printed LaTeX."""


def code_syntax(tex: str) -> dict[str, list[str]]:
    """Each defect found in ``tex`` with the text around each occurrence (empty: mathematics only)."""
    found: dict[str, list[str]] = {}
    for name, pattern in CODE_SYNTAX.items():
        hits = [tex[max(0, m.start() - 50) : m.end() + 30] for m in re.finditer(pattern, tex)]
        if hits:
            found[name] = hits
    return found


def summary(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{name}: {len(hits)}x, e.g. {hits[0]!r}" for name, hits in found.items())


# ---------------------------------------------------------------- the scanner can fail
@pytest.mark.parametrize(
    "planted",
    [
        r"&\text{False} \notag",
        r"Assumptions:} $True$",
        r"&\theta = \gamma theta[+1]",
        r"t -\ensuremath{>} oo",
        r"k \ensuremath{>}= 0",
        r"a_i != b_i",
        r"\ensuremath{c_{1}}*\ensuremath{y_{0}}",
        r"x**2",
        r"\chi_{2(0)}",
        r"Function('f')",
    ],
)
def test_the_scan_catches_each_planted_defect(planted: str) -> None:
    assert code_syntax(r"\begin{align}&a = b \\ " + planted + r"\end{align}")


def test_the_scan_passes_mathematics() -> None:
    clean = r"&\theta = \gamma \theta^{[+1]} + \frac{\theta^{[-1]}}{\gamma} \\ &\lim_{t \to \infty} y = y_+, k \ge 0"
    assert code_syntax(clean) == {}


def test_a_planted_boolean_row_is_caught_in_a_real_derivation() -> None:
    tex = solve("two_layer_scalar").derivation.latex()
    assert not code_syntax(tex)
    planted = tex.replace(r"\notag", r"\text{False} \notag", 1)
    assert list(code_syntax(planted)) == ["a displayed Boolean"]


# ---------------------------------------------------------------- the general rendering prints mathematics
@pytest.mark.parametrize("name", ["two_layer_scalar", "lambda_balanced", "deep_scalar_chain", "two_layer_scalar_decay"])
def test_derivations_of_the_reported_models_are_mathematics(name: str) -> None:
    found = code_syntax(solve(name).derivation.latex())
    assert not found, summary(found)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("theta[+1]", r"\theta^{[+1]}"),
        ("uw[-1]", r"(u^{\top} w)^{[-1]}"),
        ("chi_2(0)", r"\chi_2(0)"),
        ("theta(0)", r"\theta(0)"),
        ("chi(t)", r"\chi(t)"),
        ("c1", r"c_1"),
        ("y0", r"y_0"),
        ("a1_2", r"a_{1,2}"),
        ("W1_2", r"(W_1)_2"),
    ],
)
def test_the_naming_table_prints_indices_and_arguments_outside_subscripts(name: str, expected: str) -> None:
    assert symbol_latex(name) == expected


@pytest.mark.parametrize(
    ("prose", "absent"),
    [
        ("t -> oo with k > 0", "oo"),
        ("k >= 0 is the rate", ">="),
        ("x <= 1", "<="),
        ("a_i != b_i", "!="),
        ("c0 = -c1*y0 - c2*y0**2", "*"),
    ],
)
def test_prose_relations_and_products_are_mathematics(prose: str, absent: str) -> None:
    tex = text_latex(prose)
    assert not code_syntax(tex), tex
    assert absent not in re.sub(r"\\[A-Za-z]+", "", tex), tex


def test_a_decided_relation_is_displayed_not_its_truth_value() -> None:
    x = sp.Symbol("x")
    rows = align_rows(sp.Eq(x - x, 0, evaluate=False))
    assert "text" not in "".join(rows)
    with pytest.raises(TypeError, match="relation"):
        Derivation("d").add(sp.true, "a decided condition")


# ---------------------------------------------------------------- the whole report
@pytest.mark.slow
def test_the_latex_report_and_every_statement_are_mathematics_only() -> None:
    from proofs_check.latex_report import document
    from proofs_check.papers import BUILTIN_PAPERS, load_papers

    papers = load_papers(list(BUILTIN_PAPERS))
    statements = [claim.latex() for key in BUILTIN_PAPERS for claim in papers.paper(key).claims()]
    body = document([], [], date="2026-01-01").split("\\begin{document}", 1)[1]  # the preamble is LaTeX code
    found = code_syntax(body + "\n".join(statements))
    assert not found, summary(found)


def test_the_riccati_method_and_a_condensed_derivation_are_mathematics() -> None:
    """The method's section (``riccati.method_section``) and a model's condensed derivation, which refers to it,
    print mathematics only, as the full derivations do (the planted defects above show the scan can fail)."""
    from derivations.riccati import method_section

    found = code_syntax(method_section() + solve("two_layer_scalar").derivation.latex(mode="condensed"))
    assert not found, summary(found)
