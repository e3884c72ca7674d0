r"""The LaTeX we print is faithful: parsed back by ``sympy.parsing.latex`` (lark backend) it is the SymPy object it
came from, for a sample of derivation steps, model displays and broken multi-row displays; and the naming table
prints the papers' symbols.

The lark grammar cannot read implicit products after a power or a root (``a^{2} b``), so the formulas are
printed for parsing with ``mul_symbol="dot"``: the same printer, naming table and line breaking as the
displays, with ``\cdot`` in place of the thin space between factors.
"""

from __future__ import annotations

import re
import string

import pytest
import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.parsing.latex import parse_latex

from derivations import models
from derivations.naming import align_rows, latex, symbol_latex
from derivations.prose import text_latex
from derivations.rendering import model_equations
from proofs_check.papers.nam2025.hyperbolic import SYMBOLS as H

pytest.importorskip("lark", reason="the lark backend of sympy.parsing.latex is in the [test] extra")

# rows of align_rows / Derivation.latex carry only these layout commands besides the formula
LAYOUT = ((r"\Bigl(", "("), (r"\Bigr)", ")"), (r"\Bigl[", "("), (r"\Bigr]", ")"), (r"\Big/", "/"))
# delimiter sizing, which the lark grammar misreads (``\left`` as ``\le ft``)
SIZING = ((r"\left(", "("), (r"\right)", ")"), (r"\left[", "("), (r"\right]", ")"))


def resolve(parsed: object) -> sp.Expr:
    """The reading of an ambiguous parse (``a (b + c)``: product or function call) that is a product: the
    alternatives without undefined functions, which must all agree."""
    if isinstance(parsed, sp.Basic):
        return parsed
    readings = [resolve(child) for child in parsed.children]
    products = [r for r in readings if isinstance(r, sp.Expr) and not r.atoms(AppliedUndef)]
    assert products, f"no product reading among {readings}"
    assert all(sp.simplify(r - products[0]) == 0 for r in products), readings
    return products[0]


def _letters(k: int) -> str:
    """A subscript of letters for placeholder ``k`` (the grammar rejects multi-digit subscripts)."""
    return string.ascii_lowercase[k % 26] * (k // 26 + 1)


def parse_back(text: str, source: sp.Basic) -> sp.Expr:
    """Parse ``text`` (printed from ``source``) after replacing each of the source's symbols, as the naming table
    prints it, by a placeholder the lark grammar accepts; the placeholders are then mapped back."""
    symbols = sorted(source.atoms(sp.Symbol), key=lambda s: -len(symbol_latex(s.name)))
    placeholders = {symbol_latex(s.name): (f"v_{{{_letters(k)}}}", s) for k, s in enumerate(symbols)}
    pattern = "|".join(rf"(?<![A-Za-z\\]){re.escape(name)}(?![A-Za-z0-9_'])" for name in placeholders)
    replaced = re.sub(pattern, lambda m: placeholders[m.group(0)][0], text)
    for command, plain in SIZING:
        replaced = replaced.replace(command, plain)
    parsed = resolve(parse_latex(replaced, backend="lark"))
    back = {sp.Symbol(holder): symbol for holder, symbol in placeholders.values()}
    return parsed.xreplace(back).xreplace({sp.Symbol("e"): sp.E})


def dot(expr: sp.Basic) -> str:
    """``expr`` printed for parsing back (see the module docstring)."""
    return latex(expr, mul_symbol="dot")


def assert_faithful(text: str, source: sp.Expr) -> None:
    parsed = parse_back(text, source)
    assert sp.simplify(parsed - source) == 0, (text, parsed, source)


def rows_text(rows: list[str]) -> str:
    """The formula of ``align`` rows without the alignment marks, spacing and manual delimiters."""
    text = " ".join(rows).replace("&", " ").replace(r"\qquad", " ").replace(r"\quad", " ")
    for command, plain in LAYOUT:
        text = text.replace(command, plain)
    return text


def test_naming_table_prints_the_papers_symbols():
    assert symbol_latex("gamma_+") == r"\gamma_+"
    assert symbol_latex("gamma_-") == r"\gamma_-"
    assert symbol_latex("Sigma_0") == r"\Sigma_0"
    assert symbol_latex("S_0") == r"\mathcal{S}_0"
    assert symbol_latex("alpha_+") == r"\alpha_+"
    assert symbol_latex("alpha_pm") == r"\alpha_\pm"
    assert symbol_latex("zeta") == r"\zeta"
    assert symbol_latex("eta_u") == r"\eta_u"
    assert symbol_latex("lam_12") == r"\lambda_{12}"
    assert symbol_latex("W_1_2") == r"W_{1,2}"
    assert symbol_latex(r"\dot u_i") == r"\dot u_i"


def test_naming_applies_to_symbols_of_any_assumptions():
    expr = (sp.Symbol("S", real=True) + H.D0) / (H.Sigma0 + sp.Symbol("S_0", positive=True))
    assert latex(expr) == r"\frac{D_0 + S}{\mathcal{S}_0 + \Sigma_0}"


def test_bad_names_are_rejected():
    with pytest.raises(ValueError, match="name"):
        symbol_latex("")
    with pytest.raises(ValueError, match="text"):
        text_latex(3)


def test_prose_is_ascii_latex():
    assert text_latex("γ₊ ≥ 1, θ̇_i ≠ 0, 50% & a_b") == (
        r"\ensuremath{\gamma_{+}} \ensuremath{\ge} 1, \ensuremath{\dot{\theta}}\ensuremath{{}_{i}} "
        r"\ensuremath{\neq} 0, 50\% \& \ensuremath{a_{b}}"
    )


def test_theorem3_steps_parse_back():
    derivation = models.get("two_layer_scalar").closed_form.derivation
    sides = []
    # the steps of Theorem 3's eqs 76, 82–85, 88 and 91–93 (the roots, the sums, the discriminant, the partial
    # fractions), by the keys the pipeline records them under
    for key in ("roots", "coupling", "sums", "sum_definition", "discriminant", "apart"):
        for step in derivation.by_key(key):
            for side in (step.relation.lhs, step.relation.rhs):
                # f(t) prints as f{(t)}, read by the grammar as a product; it has no indexed symbols a(0)_i
                if not side.atoms(AppliedUndef, sp.Indexed):
                    sides.append(side)
    assert len(sides) >= 6
    for side in sides:
        assert_faithful(dot(side), side)


# the two matrix models' flows take the longest to parse back (about 9 s each): linear_network stands for the matrix
# models in the default suite, layerwise_lr_matrix (its learning rates are layerwise_lr_linear's) runs in the slow step
SLOW_TO_PARSE = {"layerwise_lr_matrix"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_TO_PARSE else n for n in models.names()]
)
def test_every_model_flow_and_loss_parse_back(name):
    equations = model_equations(name, p=1)  # the loss written out at width 1 keeps the parse short
    for relation in (*equations.flow, equations.network[-1]):  # the loss is the last network relation
        assert_faithful(dot(relation.rhs), relation.rhs)


def test_broken_display_rows_are_the_expression():
    loss = models.get("layerwise_lr_matrix").instance(2).loss
    rows = align_rows(sp.Eq(sp.Symbol("L"), loss, evaluate=False), budget=40, mul_symbol="dot")
    assert len(rows) > 2
    text = rows_text(rows)
    lhs, rhs = text.split("=", 1)
    assert lhs.strip() == "L"
    assert_faithful(rhs, loss)


def test_wide_fraction_rows_are_the_expression():
    """Eq. (74) in a narrow budget: numerator and denominator become bracketed groups over several rows."""
    closed_form = models.get("two_layer_scalar").closed_form.derivation.by_key("solution")[-1].relation.rhs
    rows = align_rows(sp.Eq(sp.Symbol("g"), closed_form, evaluate=False), budget=24, mul_symbol="dot")
    assert len(rows) > 2 and any(r"\Big/" in row for row in rows)
    assert_faithful(rows_text(rows).split("=", 1)[1], closed_form)


def test_round_trip_detects_a_wrong_rendering():
    gp, s, sigma0, s0 = H.gamma_plus, sp.Symbol("S", real=True), H.Sigma0, H.S0
    printed = dot((s + H.D0) / (sigma0 + s0))
    with pytest.raises(AssertionError):
        assert_faithful(printed, (s - H.D0) / (sigma0 + s0))
    assert_faithful(dot(gp * (sigma0 + s0)), gp * (sigma0 + s0))
