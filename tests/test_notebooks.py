"""Every ``notebooks/*.py`` (jupytext ``py:percent``) executes without a cell error and without an error output (a
figure that fails to render, e.g. a label matplotlib's mathtext cannot parse, leaves an error output but does not
stop the execution); each paper's notebook saves its figures (``figures/<paper>_*.png`` under the working
directory)."""

from __future__ import annotations

from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.py"))
PAPER_FIGURES = {"nam2025": 3, "xu_ziyin2025": 3, "kunin2025": 3}
"""The per-paper notebooks and how many figures each saves."""


def executed(nb: nbformat.NotebookNode, directory: Path) -> list[str]:
    """Execute ``nb`` in ``directory``; the error outputs it leaves (name and message), which must be none."""
    client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(directory)}})
    client.execute()
    return [
        f"{output.get('ename')}: {str(output.get('evalue'))[:200]}"
        for cell in nb.cells
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    assert executed(jupytext.read(path), tmp_path) == []
    if path.stem in PAPER_FIGURES:
        saved = sorted((tmp_path / "figures").glob(f"{path.stem}_*.png"))
        assert len(saved) == PAPER_FIGURES[path.stem], saved
        assert all(figure.stat().st_size > 10_000 for figure in saved)


@pytest.mark.slow
def test_a_figure_that_fails_to_render_is_an_error(tmp_path: Path) -> None:
    source = (
        "# %%\nimport matplotlib.pyplot as plt\n\n# %%\nfig, ax = plt.subplots()\n"
        'ax.set_ylabel(r"$\\lvert x\\rvert$")\nplt.show()\n'
    )
    errors = executed(jupytext.reads(source, fmt="py:percent"), tmp_path)
    assert len(errors) == 1 and "lvert" in errors[0]


def test_every_paper_has_its_notebook() -> None:
    assert set(PAPER_FIGURES) <= {p.stem for p in NOTEBOOKS}
