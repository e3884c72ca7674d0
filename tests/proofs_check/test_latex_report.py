"""The LaTeX report: structure generic over both registries, Claim.latex, the CLI flags, and a real pdflatex compile
without overfull boxes, whose text (pdftotext) holds no ASCII math and whose contents give the right pages (required
in CI; skipped locally only when pdflatex or pdftotext is missing)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
import sympy as sp

from derivations import models
from derivations.prose import text_latex
from proofs_check import Outcome, Paper, Registry, Status, pdf
from proofs_check.cli import TEX_FAILED, main
from proofs_check.latex_report import claims_table, document
from proofs_check.papers import load_papers
from proofs_check.runner import run_claims

SAMPLE_IDS = ("nam2025.eq6", "nam2025.appH.eq76.product", "nam2025.appH.gamma0", "nam2025.remark5.bounds")


def require_pdflatex() -> None:
    """Fail in CI without pdflatex (CI installs TeX); skip, saying why, on a machine without it."""
    if shutil.which("pdflatex") is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex is missing in CI: .ci/run must install TeX Live")
        pytest.skip("pdflatex is not installed here (apt-get install texlive-latex-base ...)")


def require_pdftotext() -> None:
    """Fail in CI without pdftotext (CI installs poppler-utils); skip, saying why, on a machine without it."""
    if shutil.which("pdftotext") is None:
        if os.environ.get("CI"):
            pytest.fail("pdftotext is missing in CI: .ci/run must install poppler-utils")
        pytest.skip("pdftotext is not installed here (apt-get install poppler-utils)")


ASCII_MATH = ("ˆ", "sqrt(", "**", "[U+")
"""What ASCII math leaves in pdftotext's text: a caret (printed as a circumflex), a square root or power written
as code, and Unicode characters the report cannot print."""
FILE_REFERENCES = re.compile(r"\bspec\b|\.md\b|tooling-notes")


def pdf_pages(path) -> list[str]:
    """The text of each page of the PDF at ``path``, as pdftotext lays it out."""
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True, text=True)
    return text.stdout.split("\f")


CONTENTS_ENTRY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s+(\S.*?)[\s.]*\s(\d+)$")


def contents_entries(pages: list[str]) -> list[tuple[str, str, int]]:
    """(number, title, page) of each one-line entry of the table of contents."""
    start = next(k for k, page in enumerate(pages) if "Contents" in page)
    found = []
    for page in pages[start : start + 3]:
        for line in page.splitlines():
            match = CONTENTS_ENTRY.match(line)
            if match and not line.strip().isdigit():
                found.append((match[1], re.sub(r"\s+", " ", match[2]).strip(" ."), int(match[3])))
    return found


def heading_page(pages: list[str], number: str, title: str, after: int) -> int:
    """The 1-based page where the heading "number title" first appears from page ``after`` on (contents entries
    skipped)."""
    heading = re.compile(rf"\s*{re.escape(number)}\s+{re.escape(title[:30])}")
    for k in range(after - 1, len(pages)):
        lines = (line for line in pages[k].splitlines() if not CONTENTS_ENTRY.match(line))
        if any(heading.match(re.sub(r"[ \t]+", " ", line)) for line in lines):
            return k + 1
    raise AssertionError(f"heading {number} {title!r} not found after page {after}")


def assert_readable(pdf_path) -> None:
    """No ASCII math, no reference to files a reader does not have, and the contents' pages right."""
    pages = pdf_pages(pdf_path)
    text = "\f".join(pages)
    for pattern in ASCII_MATH:
        assert pattern not in text, f"ASCII math {pattern!r} in: {text[max(0, text.index(pattern) - 80) :][:160]!r}"
    reference = FILE_REFERENCES.search(text)
    assert reference is None, text[max(0, reference.start() - 80) :][:160] if reference else ""
    entries = contents_entries(pages)
    assert len(entries) >= 10
    last_contents_page = next(k for k, page in enumerate(pages) if "Contents" in page) + 1
    for number, title, page in entries:
        assert heading_page(pages, number, title, last_contents_page) == page, (number, title, page)


def fake_registry() -> Registry:
    paper = Paper(
        "toy2024", "A toy paper & its 50% claims", ("A. Toy", "B. Toy"), "arXiv", 2024, url="https://x.org/a_b"
    )
    x = paper.symbol("x", "x", real=True)
    paper.claim(
        "unicode_title",
        "θ̇ = −η ∇L with γ₊ > 1 and Σ0 ≥ |S0| & 50% done",
        where="§1",
        eq="3",
        assume=("γ₊ ≥ 1", "x_i ∈ ℝ"),
        check=lambda: Outcome.proved("exact"),
    )
    paper.claim(
        "misprint",
        sp.Eq(x * (x + 1), x**2),
        where="§2",
        assume=("a misprint",),
        corrected=sp.Eq(x * (x + 1), x**2 + x),
    )
    return Registry([paper])


@pytest.fixture(scope="module")
def sample_records():
    claims = [c for c in load_papers(["nam2025"]).claims("nam2025") if c.id in SAMPLE_IDS]
    return run_claims(claims)


def test_claim_latex_uses_the_naming_table():
    paper = load_papers(["nam2025"]).paper("nam2025")
    assert paper["eq6"].latex().startswith(r"\paragraph{\texttt{nam2025.eq6}}")
    product = paper["appH.eq76.product"].latex()
    assert r"\gamma_+ \gamma_-" in product and r"\mathcal{S}_0" in product


def test_claim_latex_escapes_prose():
    text = fake_registry().claims()[0].latex()
    assert r"\ensuremath{\gamma_{+}}" in text
    assert r"\& 50\% done" in text
    assert all(ord(ch) < 128 for ch in text)


def test_document_structure(sample_records):
    paper = load_papers(["nam2025"]).paper("nam2025")
    tex = document(sample_records, [paper.info])
    assert tex.startswith(r"\documentclass") and tex.rstrip().endswith(r"\end{document}")
    assert set(tex) - {chr(k) for k in range(128)} <= {"–"}  # the paper's tags keep their en dash (utf8 input)
    for name in models.names():
        assert rf"\label{{model:{name}}}" in tex, name
    for record in sample_records:
        assert record.claim.id.replace("_", r"\_") in tex.replace(r"\allowbreak{}", "")
    assert r"\section{Conventions}" in tex and r"\section{Errata}" in tex and r"\section{Checkers}" in tex
    assert r"\emph{Printed:}" in tex and r"\emph{Corrected:}" in tex
    assert "z3 (nonlinear real arithmetic)" in tex
    assert "Yoonsoo Nam" in tex and "ICML 2025" in tex
    assert tex.count(r"\begin{longtable}") == 1


def test_models_are_placed_under_the_papers_that_declare_them(sample_records):
    paper = load_papers(["nam2025"]).paper("nam2025")
    tex = document(sample_records, [paper.info], include_uncited=False)
    assert r"\label{model:two_layer_scalar}" in tex
    assert r"\label{model:layerwise_lr_linear}" not in tex


def test_cli_writes_latex(tmp_path, capsys):
    path = tmp_path / "report.tex"
    assert main(["--jobs", "1", "--latex", str(path)], registry=fake_registry()) == 0
    tex = path.read_text(encoding="utf-8")
    assert r"\section{Errata}" in tex and "toy2024.misprint" in tex
    assert r"\section{A toy paper \& its 50\% claims}" in tex
    assert "2 claims" in capsys.readouterr().out


def test_cli_pdf_without_pdflatex_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(pdf.shutil, "which", lambda name: None)
    assert main(["--jobs", "1", "--pdf", str(tmp_path / "r.pdf")], registry=fake_registry()) == TEX_FAILED
    err = capsys.readouterr().err
    assert "pdflatex was not found" in err and "apt-get install" in err
    assert not (tmp_path / "r.pdf").exists()


def test_pdf_destination_must_be_a_pdf(tmp_path):
    with pytest.raises(ValueError, match="destination"):
        pdf.compile_pdf("", tmp_path / "report.tex")


def test_latex_error_is_reported(tmp_path):
    require_pdflatex()
    with pytest.raises(pdf.LatexError, match="Undefined control sequence"):
        pdf.compile_pdf("\\documentclass{article}\\begin{document}\\nosuchmacro\\end{document}", tmp_path / "x.pdf")


def test_pdf_compiles_every_model_without_overfull_boxes(sample_records, tmp_path):
    """All registered models (their derivations included) and the sample claims, through pdflatex: no overfull
    box, no ASCII math in the text, the contents' page numbers those of the headings."""
    require_pdflatex()
    require_pdftotext()
    paper = load_papers(["nam2025"]).paper("nam2025")
    result = pdf.compile_pdf(document(sample_records, [paper.info]), tmp_path / "report.pdf")
    assert result.pdf.read_bytes().startswith(b"%PDF")
    assert result.pages >= len(models.names())
    assert result.overfull == []
    assert result.passes >= 3  # the contents push the sections by a page: a second pass alone leaves them wrong
    assert_readable(result.pdf)


def test_wrong_contents_pages_are_detected(sample_records, tmp_path):
    """The check of the contents can fail: after only two pdflatex passes its page numbers are one too low."""
    require_pdflatex()
    require_pdftotext()
    paper = load_papers(["nam2025"]).paper("nam2025")
    (tmp_path / "r.tex").write_text(document(sample_records, [paper.info]), encoding="utf-8")
    for _ in range(2):
        command = [shutil.which("pdflatex"), "-interaction=nonstopmode", "r.tex"]
        subprocess.run(command, cwd=tmp_path, capture_output=True, check=True)
    with pytest.raises(AssertionError):
        assert_readable(tmp_path / "r.pdf")


def test_claims_table_groups_by_section_and_never_breaks_ids(sample_records):
    table = claims_table(sample_records, "nam2025")
    assert r"\allowbreak" not in table and "nam2025." not in table
    assert table.count("App. H") == 1  # one group heading for the App. H claims
    assert ">{\\ttfamily}p{" in table


@pytest.mark.slow
def test_full_report_pdf(tmp_path):
    """Every registered claim checked and reported, as CI's ``python -m proofs_check --pdf`` step does."""
    require_pdflatex()
    registry = load_papers()
    records = run_claims(registry.claims(), jobs=2, timeout=600)
    papers = [registry.paper(key).info for key in registry.papers()]
    result = pdf.compile_pdf(document(records, papers), tmp_path / "report.pdf")
    assert result.overfull == []
    require_pdftotext()
    assert_readable(result.pdf)
    statuses = {r.outcome.status for r in records}
    assert Status.ERROR not in statuses and Status.REFUTED not in statuses


def test_claim_texts_have_no_ascii_math_or_file_references():
    """Every registered claim's citation and text (statement, assumptions) as the report prints it, without
    building any statement."""
    for claim in load_papers().claims():
        assert not FILE_REFERENCES.search(claim.citation.reference), claim.id
        texts = [a for a in claim.assumptions if isinstance(a, str)]
        texts += [claim._given["statement"]] if isinstance(claim._given["statement"], str) else []
        for text in [claim.citation.reference, *texts]:
            assert not FILE_REFERENCES.search(text), (claim.id, text)
            printed = text_latex(text)
            assert r"\^{}" not in printed and "sqrt(" not in printed and "**" not in printed, (claim.id, text)
            assert "[U+" not in printed, (claim.id, text)


def test_a_user_paper_alone_compiles(tmp_path):
    """A paper of a user's file: no package conventions, no model notes, still a valid document."""
    require_pdflatex()
    registry = fake_registry()
    records = run_claims(registry.claims())
    tex = document(records, [registry.paper("toy2024").info], include_uncited=False)
    assert "Loss normalisation" not in tex
    result = pdf.compile_pdf(tex, tmp_path / "user.pdf")
    assert result.pages >= 1 and result.overfull == []


@pytest.mark.slow
def test_the_report_from_saved_results_is_the_live_report(tmp_path):
    """``--from-json R.json --pdf B.pdf`` prints the same report as the live ``--pdf`` that saved R.json: the two PDFs'
    text is identical (the report is built from the registry and the saved outcomes alike)."""
    require_pdflatex()
    require_pdftotext()
    saved, live, again = tmp_path / "results.json", tmp_path / "live.pdf", tmp_path / "saved.pdf"
    selection = ["--paper", "saxe2014", "--paper", "kunin2024"]
    assert main([*selection, "--json", str(saved), "--pdf", str(live)]) == 0
    assert main([*selection, "--from-json", str(saved), "--pdf", str(again)]) == 0
    live_pages, saved_pages = pdf_pages(live), pdf_pages(again)
    assert len(live_pages) == len(saved_pages)
    assert live_pages == saved_pages
    assert len(live_pages) > 10 and any("kunin2024" in page or "Kunin" in page for page in live_pages)


@pytest.mark.slow
def test_the_saved_report_of_every_paper_has_the_other_models_too(tmp_path):
    """Run over every paper of a registry (here a toy one), the live report has a section for the models no paper
    declares, and so does the report from its saved results (it had not: 124 pages against 139 for the built-in
    papers); with ``--paper`` neither has it."""
    require_pdflatex()
    require_pdftotext()
    saved, live, again = tmp_path / "results.json", tmp_path / "live.pdf", tmp_path / "saved.pdf"
    assert main(["--json", str(saved), "--pdf", str(live)], registry=fake_registry()) == 0  # an erratum passes
    assert main(["--from-json", str(saved), "--pdf", str(again)], registry=fake_registry()) == 0
    live_pages, saved_pages = pdf_pages(live), pdf_pages(again)
    assert live_pages == saved_pages
    assert any("Other models" in page for page in live_pages)
    narrowed = tmp_path / "narrowed.pdf"
    assert (
        main(["--paper", "toy2024", "--from-json", str(saved), "--pdf", str(narrowed)], registry=fake_registry()) == 0
    )
    assert not any("Other models" in page for page in pdf_pages(narrowed))


def _model_subsection(tex: str, name: str) -> str:
    """The LaTeX of a model's subsection in the report: from its label to the next (sub)section."""
    start = tex.index(rf"\label{{model:{name}}}")
    ends = [tex.find(marker, start) for marker in (r"\subsection{", r"\section{")]
    return tex[start : min(e for e in ends if e != -1)]


def test_the_report_states_the_riccati_method_once_and_each_model_refers_to_it():
    """Issue 26: the models' derivations are condensed (their own coefficients, branch and closed form, the
    engine's generic steps a reference) and the method's section is in the document once, although two models
    contain its steps; with the derivations in full the degenerate cases would be repeated in each model."""
    from derivations.rendering import render_model, shown_derivation
    from derivations.riccati import RICCATI_METHOD

    loaded = load_papers(["saxe2014", "domine2025"])
    infos = [loaded.paper(key).info for key in ("saxe2014", "domine2025")]
    tex = document([], infos, include_uncited=False, date="2026-01-01")
    label = RICCATI_METHOD.label
    assert tex.count(rf"\label{{{label}}}") == 1 and tex.count(r"\section{The Riccati method}") == 1
    names = ("deep_linear_whitened", "lambda_balanced")
    assert all(RICCATI_METHOD in shown_derivation(name).methods() for name in names)  # so the dedupe is needed
    for name in names:
        section = _model_subsection(tex, name)
        assert rf"Section~\ref{{{label}}}" in section, name
        assert all(f"&{c} = " in section for c in ("c_2", "c_1", "c_0")), name
        assert "degenerate case:" not in section and "fixed-point:" not in section, name
        full = render_model(name, mode="full")  # what the full form repeats in every model
        assert "degenerate case:" in full and "fixed-point:" in full
