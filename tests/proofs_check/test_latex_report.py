"""The LaTeX report: structure generic over both registries, Claim.latex, the CLI flags, and a real pdflatex compile
without overfull boxes (required in CI; skipped locally only when pdflatex is missing)."""

from __future__ import annotations

import os
import shutil

import pytest
import sympy as sp

from derivations import models
from proofs_check import Paper, pdf
from proofs_check.claims import Outcome, Registry, Status
from proofs_check.cli import TEX_FAILED, main
from proofs_check.latex_report import document
from proofs_check.papers import load_papers
from proofs_check.runner import run_claims

SAMPLE_IDS = ("nam2025.eq6", "nam2025.appH.eq76.product", "nam2025.appH.gamma0", "nam2025.remark5.bounds")


def require_pdflatex() -> None:
    """Fail in CI without pdflatex (CI installs TeX); skip, saying why, on a machine without it."""
    if shutil.which("pdflatex") is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex is missing in CI: .ci/run must install TeX Live")
        pytest.skip("pdflatex is not installed here (apt-get install texlive-latex-base ...)")


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
    assert r"\ensuremath{\gamma}\ensuremath{_{+}}" in text
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
    """All registered models (their derivations included) and the sample claims, through pdflatex."""
    require_pdflatex()
    paper = load_papers(["nam2025"]).paper("nam2025")
    result = pdf.compile_pdf(document(sample_records, [paper.info]), tmp_path / "report.pdf")
    assert result.pdf.read_bytes().startswith(b"%PDF")
    assert result.pages >= len(models.names())
    assert result.overfull == []


@pytest.mark.slow
def test_full_report_pdf(tmp_path):
    """Every registered claim checked and reported, as CI's ``python -m proofs_check --pdf`` step does."""
    require_pdflatex()
    registry = load_papers()
    records = run_claims(registry.claims(), jobs=2, timeout=600)
    papers = [registry.paper(key).info for key in registry.papers()]
    result = pdf.compile_pdf(document(records, papers), tmp_path / "report.pdf")
    assert result.overfull == []
    statuses = {r.outcome.status for r in records}
    assert Status.ERROR not in statuses and Status.REFUTED not in statuses


def test_a_user_paper_alone_compiles(tmp_path):
    """A paper of a user's file: no package conventions, no model notes, still a valid document."""
    require_pdflatex()
    registry = fake_registry()
    records = run_claims(registry.claims())
    tex = document(records, [registry.paper("toy2024").info], include_uncited=False)
    assert "Loss normalisation" not in tex
    result = pdf.compile_pdf(tex, tmp_path / "user.pdf")
    assert result.pages >= 1 and result.overfull == []
