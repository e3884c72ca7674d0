"""Every ``notebooks/*.py`` (jupytext ``py:percent``) executes without a cell error; each paper's notebook saves its
figures (``figures/<paper>_*.png`` under the working directory)."""

from __future__ import annotations

from pathlib import Path

import jupytext
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.py"))
PAPER_FIGURES = {"nam2025": 3, "xu_ziyin2025": 3, "kunin2025": 3}
"""The per-paper notebooks and how many figures each saves."""


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    nb = jupytext.read(path)
    client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    if path.stem in PAPER_FIGURES:
        saved = sorted((tmp_path / "figures").glob(f"{path.stem}_*.png"))
        assert len(saved) == PAPER_FIGURES[path.stem], saved
        assert all(figure.stat().st_size > 10_000 for figure in saved)


def test_every_paper_has_its_notebook() -> None:
    assert set(PAPER_FIGURES) <= {p.stem for p in NOTEBOOKS}
