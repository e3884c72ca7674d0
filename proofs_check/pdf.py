"""Compile a LaTeX document to PDF with ``pdflatex`` and report what its log says about the layout."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["INSTALL_HINT", "CompileResult", "LatexError", "PdflatexMissing", "compile_pdf", "find_pdflatex"]

INSTALL_HINT = (
    "pdflatex was not found on PATH; install TeX Live, e.g. on Debian/Ubuntu: apt-get install "
    "--no-install-recommends texlive-latex-base texlive-latex-recommended texlive-fonts-recommended"
)
MAX_PASSES = 6
"""pdflatex runs until its auxiliary files (references, contents, bookmarks) stop changing and its log asks for no
rerun (``longtable`` widths), at most this often: LaTeX itself does not notice a contents page that moved."""
AUXILIARY = (".aux", ".toc", ".out")
_RERUN = re.compile(r"Rerun to get|Label\(s\) may have changed|Rerun LaTeX|Table widths have changed")
TIMEOUT = 300
_OVERFULL = re.compile(r"^Overfull \\[hv]box \((?P<points>[\d.]+)pt too (?:wide|high)\).*$", re.MULTILINE)


class PdflatexMissing(RuntimeError):
    """No ``pdflatex`` executable: the message says how to install one."""


class LatexError(RuntimeError):
    """``pdflatex`` failed; the message holds the error lines of its log."""


@dataclass(frozen=True)
class CompileResult:
    """The written PDF, its page count and the overfull boxes (log lines) of the last pass."""

    pdf: Path
    pages: int
    overfull: list[str]
    log: str
    passes: int = 1

    def overfull_points(self) -> list[float]:
        """How far (pt) each overfull box sticks out."""
        return [float(m.group("points")) for m in _OVERFULL.finditer(self.log)]


def find_pdflatex() -> str:
    """The path of ``pdflatex``; :class:`PdflatexMissing` (with install instructions) if there is none."""
    path = shutil.which("pdflatex")
    if path is None:
        raise PdflatexMissing(INSTALL_HINT)
    return path


def _errors(log: str) -> str:
    """The ``! ...`` error lines of a log with the two lines after each (where TeX shows the context)."""
    lines = log.splitlines()
    picked = [line for k, line in enumerate(lines) if line.startswith("!") or (k and lines[k - 1].startswith("!"))]
    return "\n".join(picked[:40]) or log[-2000:]


def _auxiliary_state(source: Path) -> tuple[bytes, ...]:
    """The contents of the auxiliary files a pass wrote, to tell whether another pass would change the PDF."""
    files = (source.with_suffix(suffix) for suffix in AUXILIARY)
    return tuple(path.read_bytes() if path.exists() else b"" for path in files)


def _run_until_stable(pdflatex: str, source: Path) -> tuple[str, int]:
    """Run pdflatex on ``source`` until another pass would change nothing; the last log and the passes run."""
    previous = None
    for passes in range(1, MAX_PASSES + 1):
        run = subprocess.run(
            [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", source.name],
            cwd=source.parent,
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
        )
        log_path = source.with_suffix(".log")
        log = log_path.read_text(encoding="latin-1") if log_path.exists() else run.stdout.decode("latin-1")
        if run.returncode != 0:
            raise LatexError(f"pdflatex failed (exit {run.returncode}):\n{_errors(log)}")
        state = _auxiliary_state(source)
        if state == previous and not _RERUN.search(log):
            return log, passes
        previous = state
    raise LatexError(f"the cross-references did not settle in {MAX_PASSES} pdflatex runs")


def compile_pdf(tex: str, destination: str | Path) -> CompileResult:
    """Compile the document source ``tex`` into ``destination`` (a ``.pdf`` path) in a scratch directory, running
    pdflatex until the contents and cross-references are stable (its log asks for no rerun).

    Raises :class:`PdflatexMissing` without ``pdflatex``, :class:`LatexError` if it fails, and ValueError for
    a destination that does not end in ``.pdf``.
    """
    destination = Path(destination)
    if destination.suffix != ".pdf":
        raise ValueError(f"destination must end in .pdf, got {str(destination)!r}")
    pdflatex = find_pdflatex()
    with tempfile.TemporaryDirectory(prefix="proofs_check_tex_") as scratch:
        source = Path(scratch) / "report.tex"
        source.write_text(tex, encoding="utf-8")
        log, passes = _run_until_stable(pdflatex, source)
        if not source.with_suffix(".pdf").exists():
            raise LatexError("pdflatex wrote no PDF (the document has no pages)")
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source.with_suffix(".pdf"), destination)
    pages = re.search(r"Output written on .*?\((\d+) pages?", log.replace("\n", ""))
    overfull = [m.group(0) for m in _OVERFULL.finditer(log)]
    return CompileResult(destination, int(pages.group(1)) if pages else 0, overfull, log, passes)
