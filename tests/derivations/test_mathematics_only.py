r"""The report prints mathematics only: no code syntax in the derivations, the model displays or the claims'
statements (issue 26).

The scan runs on what ``python -m proofs_check --latex FILE`` prints (:func:`proofs_check.latex_report.document`:
every registered model with its derivation) and on every built-in claim's statement (``Claim.latex``, the
"Statements" subsections). The patterns are the code forms a reader met in the PDF: a displayed Boolean, a code
index ``theta[+1]``, ASCII relations and arrows, SymPy's ``oo``, ``*`` and ``**``, a subscript swallowing an
argument (``\chi_{2(0)}``), a subscript of a subscript (``{a_1}_{0}``), a name run together with its digits
before a subscript (``a1_{1}``), a summation index written as a word (``\sum_{\mathrm{unit}=1}``) and raw
``Function(`` text. Each is shown able to fail on a planted instance. An implicit solution is displayed as the
integral :math:`t = \int_{y_0}^{y(t)} dy'/G(y')` its method computed, never as the tautology :math:`y(t) = y`.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
import sympy as sp
from sympy.core.function import AppliedUndef

from derivations import solve
from derivations.closed_form import ClosedForm
from derivations.derivation import Derivation
from derivations.naming import UNIT_INDEX, align_rows, latex, symbol_latex, unit_sum
from derivations.pipeline import _implicit_solution_steps
from derivations.prose import text_latex
from derivations.quadrature import quadrature_solution
from derivations.rendering import model_equations, render_model
from derivations.separable import implicit_solution

CODE_SYNTAX: dict[str, str] = {
    "a displayed Boolean": r"\\text\{(?:True|False)\}|\$(?:True|False)\$|Assumptions:\}? (?:\$)?True",
    "a code index theta[±1]": r"\btheta\[|(?<![{\w])\[(?:[+\-]|\\ensuremath\{[-+]\}|\\pm|±|\\ensuremath\{\\pm\})?1\]",
    "an ASCII arrow ->": r"->|-\\ensuremath\{>\}",
    "SymPy's oo": r"\boo\b",
    "an ASCII >= or <=": r"[<>]=|\\ensuremath\{[<>]\}=",
    "an ASCII !=": r"!=",
    "a code product *": r"[\w}]\*[\w\\(]",
    "a code power **": r"\*\*",
    # (the lower limit of an integral, \int\limits_{a_1(0)}, is no subscript)
    "a subscript swallowing an argument": r"(?<!\\limits)(?<!\\int)_\{[^{}]*\(0\)\}",
    "a subscript of a subscript": r"\{\\?[A-Za-z]+_\{?\w+\}?\}_\{",
    "a name run together with its digits": r"(?<![\\\w{])[A-Za-z]+\d+_",
    "a word as summation index": r"\\sum_\{\\mathrm\{[A-Za-z]+\}",
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
        r"\ensuremath{{a_1}_{0}^{2}}",
        r"a1_{1} a2_{1} a3_{1}",
        r"\sum_{\mathrm{unit}=1}^{p} a b",
        r"Function('f')",
    ],
)
def test_the_scan_catches_each_planted_defect(planted: str) -> None:
    assert code_syntax(r"\begin{align}&a = b \\ " + planted + r"\end{align}")


def test_the_scan_passes_mathematics() -> None:
    clean = (
        r"&\theta = \gamma \theta^{[+1]} + \frac{\theta^{[-1]}}{\gamma} \\ &\lim_{t \to \infty} y = y_+, k \ge 0"
        r" \\ &t = \int\limits_{a_1(0)}^{a_{1}{\left(t \right)}} G \, da_1' + \sum_{i=1}^{p} a_{1,i}(0) \chi_2(0)"
    )
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
        ("a1_0", r"a_1(0)"),
        ("a1_i(0)", r"a_{1,i}(0)"),
        ("a1'", r"a_1'"),
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
        ("a2^2 = a1**2 - a1_0**2 + a2_0**2", "}_{0}"),
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


# ---------------------------------------------------------------- sums over the units
def test_sums_over_the_units_are_indexed_by_i() -> None:
    a, a0, lam = sp.Symbol("a", real=True), sp.Symbol("a_0", real=True), sp.Symbol("lam", positive=True)
    total = unit_sum(lam * a * a0, [a, lam], [a0])
    assert total.limits[0][0] == UNIT_INDEX
    assert latex(total) == r"\sum_{i=1}^{p} a_i a_i(0) \lambda_i"
    assert not code_syntax(latex(total))


def test_the_sum_index_does_not_collide_with_a_model_symbol() -> None:
    a, i = sp.Symbol("a"), sp.Symbol("i")
    total = unit_sum(i * a, [a])
    assert total.limits[0][0].name == "j"
    assert latex(total) == r"\sum_{j=1}^{p} a_j i"
    # a model symbol i outside the summand is avoided too
    assert unit_sum(a, [a], taken=["i", "j"]).limits[0][0].name == "k"
    assert unit_sum(a, [a]).limits[0][0] == UNIT_INDEX


def test_the_coupling_sums_of_a_derivation_are_indexed_by_i() -> None:
    d = solve("two_layer_scalar").derivation
    sums = [s.relation.rhs for key in ("coupling", "sum_definition") for s in d.by_key(key)]
    assert sums and all(isinstance(s, sp.Sum) and s.limits[0][0] == UNIT_INDEX for s in sums)
    tex = d.latex()
    assert r"\sum_{i=1}^{p}" in tex and "unit}" not in tex
    # the old index is caught
    assert list(code_syntax(tex.replace(r"\sum_{i=1}", r"\sum_{\mathrm{unit}=1}"))) == ["a word as summation index"]


# ---------------------------------------------------------------- implicit solutions
def tautologies(relations: list[sp.Eq]) -> list[sp.Eq]:
    """The relations ``y(t) = y``: a state displayed as its own symbol instead of its solution."""
    return [
        r
        for r in relations
        if isinstance(r.lhs, AppliedUndef) and isinstance(r.rhs, sp.Symbol) and r.rhs.name == r.lhs.func.__name__
    ]


def is_time_integral(relation: sp.Basic, state: str) -> bool:
    r"""Whether ``relation`` is :math:`t = \int_{y_0}^{y(t)} \ldots` with the state ``state`` as upper limit."""
    if not (isinstance(relation, sp.Eq) and isinstance(relation.rhs, sp.Integral) and relation.lhs.name == "t"):
        return False
    upper = relation.rhs.limits[0][2]
    return isinstance(upper, AppliedUndef) and upper.func.__name__ == state


def test_the_tautology_scan_catches_the_old_display() -> None:
    t, a1 = sp.Symbol("t"), sp.Symbol("a1")
    assert tautologies([sp.Eq(sp.Function("a1")(t), a1, evaluate=False)])
    assert not is_time_integral(sp.Eq(sp.Function("a1")(t), a1, evaluate=False), "a1")


def test_an_implicit_solution_is_displayed_as_the_time_integral() -> None:
    closed = model_equations("deep_scalar_chain").closed_form
    assert not tautologies(closed), closed
    assert is_time_integral(closed[0], "a1")
    text = latex(closed[0])
    assert text.startswith(r"t = \int") and r"a_{1}{\left(t \right)}" in text and "da_1'" in text, text
    # the other states are written in a1(t) (no bare clock symbol a1 left)
    assert all(sp.Symbol("a1", real=True) not in r.rhs.free_symbols for r in closed[1:])
    section = render_model("deep_scalar_chain")
    assert r"&t = \int\limits_{a_1(0)}^{a_{1}{\left(t \right)}}" in section
    found = code_syntax(section)
    assert not found, summary(found)


def test_the_derivation_ends_with_the_implicit_solution() -> None:
    d = solve("deep_scalar_chain").derivation
    last = d.steps[-1]
    assert last.key == "implicit_solution" and is_time_integral(last.relation, "a1")
    assert last.check()
    assert latex(last.relation).startswith(r"t = \int")
    # without it the derivation ended on the check of the initial rate
    assert not is_time_integral(d.steps[-2].relation, "a1")


def test_the_implicit_solution_step_can_fail() -> None:
    y, y0, t = sp.Symbol("y", real=True), sp.Symbol("y_0", real=True), sp.Symbol("t", nonnegative=True)
    solution = quadrature_solution(1 - y**2, y, y0, t)
    # its fixed points are displayed as a set (the relation was once decided to False on construction)
    assert sp.FiniteSet(-1, 1) in [s.relation.rhs for s in solution.derivation.steps]

    def final_step(clock: object) -> bool:
        closed = ClosedForm("m", t, {}, {}, {y: clock}, {"y": y}, Derivation("d"))  # type: ignore[dict-item]
        _implicit_solution_steps(closed)
        step = closed.derivation.steps[-1]
        assert is_time_integral(step.relation, "y")
        return bool(step.check())

    assert final_step(solution)
    assert not final_step(replace(solution, integrand=2 * solution.integrand))  # a wrong integrand is refuted
    assert not final_step(replace(solution, rhs=solution.rhs + 1))  # so is the wrong equation


def test_a_separable_clock_ends_its_derivation_with_the_time_integral() -> None:
    y, y0, t = sp.Symbol("y", real=True), sp.Symbol("y_0", real=True), sp.Symbol("t", nonnegative=True)
    solution = implicit_solution(y * (1 - y), y, y0, t)
    closed = ClosedForm("m", t, {}, {}, {y: solution}, {"y": y}, Derivation("d"))  # type: ignore[dict-item]
    _implicit_solution_steps(closed)
    step = closed.derivation.steps[-1]
    assert is_time_integral(step.relation, "y") and step.check()
    assert latex(step.relation) == r"t = \int\limits_{y_0}^{y{\left(t \right)}} \frac{1}{y' \left(1 - y'\right)}\, dy'"


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
