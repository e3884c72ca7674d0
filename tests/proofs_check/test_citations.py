"""Citations against the papers' own numbering (issue 24): every registered claim names a section, appendix, statement,
figure, table, equation or topic its paper has (``structure.py`` in the paper's folder); a wrong citation is refused
when declared; derived results say "derived here"; no claim's assumptions hold a bare, evaluated ``True``."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check import Citation, Paper, Structure
from proofs_check.papers import BUILTIN_PAPERS, load_papers
from proofs_check.papers.nam2025.structure import STRUCTURE as NAM

REGISTRY = load_papers()


def test_every_builtin_paper_keeps_its_structure():
    for key in BUILTIN_PAPERS:
        paper = REGISTRY.paper(key)
        assert isinstance(paper.structure, Structure), key
        assert paper.structure.source, key


@pytest.mark.parametrize("claim", REGISTRY.claims(), ids=lambda c: c.id)
def test_every_claim_cites_its_paper(claim):
    structure = REGISTRY.paper(claim.citation.paper).structure
    assert structure.problems(claim.citation) == [], claim.citation.reference


@pytest.mark.parametrize(
    ("where", "eq", "complaint"),
    [
        ("§6 NTK table", "", "names no numbered table"),
        ("§7 (table)", "", "names no numbered table"),
        ("§2", "999", "no eq. (999)"),
        ("§4.1, eq. 999", "", "no eq. (999)"),
        ("§9", "", "no §9"),
        ("App. A", "", "no App. A"),
        ("Theorem 7", "", "no Theorem 7"),
        ("Fig. 3", "", "no Fig. 3"),
        ("§7 (derived)", "", "flag the citation derived"),
        ("the one-ODE picture", "", "names no section"),
    ],
)
def test_a_wrong_citation_is_refused(where, eq, complaint):
    """Against Nam et al. 2025's numbering: the spec's "§6 NTK table" and "§7 (table)", an equation beyond eq. 96, a
    section, appendix, theorem or figure the paper does not have, "derived" without the flag, and no part named."""
    paper = Paper("wrong_cites", "Wrong citations", ("A. Test",), "test", 2026, structure=NAM)
    x = paper.symbol("x", "x", real=True)
    with pytest.raises(ValueError, match="where=") as raised:
        paper.claim("c", sp.Eq(x, 1), where=where, eq=eq)
    assert complaint in str(raised.value)


def test_the_right_citations_are_accepted_and_derived_ones_say_so():
    paper = Paper("right_cites", "Right citations", ("A. Test",), "test", 2026, structure=NAM)
    x = paper.symbol("x", "x", real=True)
    assert paper.claim("a", sp.Eq(x, 1), where="§3", eq="6").citation.reference == "Test 2026, §3, eq. (6)"
    derived = paper.claim("b", sp.Eq(x, 1), where="§7, App. H", derived=True).citation
    assert derived.derived and derived.reference == "Test 2026, derived here from §7, App. H"
    # another work's numbering in a parenthetical is that work's
    assert paper.claim("c", sp.Eq(x, 1), where="§4.1 (after Saxe et al. 2014, App. A)").citation.section


def test_structure_data_is_validated():
    with pytest.raises(TypeError, match="sections"):
        Structure(sections=["1"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="equations"):
        Structure(equations=(5, 1))
    with pytest.raises(TypeError, match="structure"):
        Paper("bad", "Bad", ("A. Test",), "test", 2026, structure="§1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="derived"):
        Paper("bad2", "Bad", ("A. Test",), "test", 2026).claim("c", sp.Eq(sp.Symbol("t"), 0), where="§1", derived=1)


def test_a_derived_flag_without_derived_here_is_a_problem():
    citation = Citation("nam2025", "Nam et al. 2025, §7", "§7", "", derived=True)
    assert any("derived here" in problem for problem in NAM.problems(citation))


def test_the_known_wrong_nam_citations_are_gone():
    """Issue 24's list: eqs 6–8 in §3, eqs 9–10 in §4.1, emergence in §4.3, collapse in §5.2, no "§6 NTK table" and no
    "§7 (table)" (those rows are derived here)."""
    paper = REGISTRY.paper("nam2025")
    assert {paper[i].citation.section for i in ("eq6", "eq7", "eq8")} == {"§3"}
    assert paper["eq9"].citation.section.startswith("§4.1") and paper["eq10"].citation.section.startswith("§4.1")
    assert paper["sec1.decoupling"].citation.section.startswith("App. C.1")
    assert all(c.citation.section.startswith("§4.3") for c in paper.claims() if ".emergence." in c.id)
    assert all(c.citation.section.startswith("§5.2") for c in paper.claims() if ".collapse." in c.id)
    derived = [c for c in paper.claims() if c.id.startswith(("nam2025.sec7.table.", "nam2025.sec6.ntk_"))]
    assert all(c.citation.derived for c in derived)
    assert not any("table" in c.citation.reference.lower() for c in paper.claims())


def test_reconstructed_nam_displays_say_so_and_app_h_does_not_call_them_printed():
    paper = REGISTRY.paper("nam2025")
    for tag in ("eq72-73", "eq74", "eq77", "eq96", "gamma0", "monotone", "theorem3.numeric"):
        assert "reconstructed" in paper[f"appH.{tag}"].citation.reference, tag
    texts = [a for c in paper.claims() if c.id.startswith("nam2025.appH.eq") for a in c.assumptions]
    assert not any(isinstance(a, str) and "printed formula" in a for a in texts)


@pytest.mark.parametrize("claim", REGISTRY.claims(), ids=lambda c: c.id)
def test_no_assumption_is_a_bare_true(claim):
    """A positivity condition on a positive symbol evaluates to True when declared; it must be kept unevaluated
    (sp.Gt(..., evaluate=False)) or dropped, never printed as "Assumptions: True"."""
    assert not any(isinstance(a, sp.logic.boolalg.BooleanAtom) for a in claim.assumptions), claim.assumptions


def test_the_derived_flag_survives_the_json_and_shows_in_the_latex_table():
    from proofs_check.latex_report import _where
    from proofs_check.outcome import Outcome
    from proofs_check.runner import ClaimText, Record

    derived = Citation("nam2025", "Nam et al. 2025, derived here from §7, App. H", "§7, App. H", "", True)
    record = Record(ClaimText("nam2025.x", derived, "x = x", r"\paragraph{x}"), Outcome.proved("test"), 0.0)
    assert Record.from_json(record.to_json()).claim.citation.derived
    assert _where(record) == "App. H, derived here"
    stated = Record(ClaimText("nam2025.y", Citation("nam2025", "r", "§7, App. H"), "y", "y"), Outcome.proved("t"), 0.0)
    assert _where(stated) == "App. H"
