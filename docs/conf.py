"""Sphinx configuration of the documentation site: ``sphinx-build -W -b html docs docs/_build/html``.

The notebooks (``notebooks/*.py``, jupytext percent format) are copied into ``docs/notebooks/`` and executed by
MyST-NB; the claims table (``docs/claims.md``) is generated from the papers' registry without checking any claim,
or from a saved ``python -m proofs_check --json`` result named by the environment variable ``PROOFS_CHECK_JSON``.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS / "_ext"))

from claims_page import write_claims_page  # noqa: E402

project = "layerwise-linear-flows"
author = "The layerwise-linear-flows contributors"
copyright = "2025-2026, " + author
extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    # MathJax and its fonts copied into the site (no CDN): formulas render offline
    "sphinx-mathjax-offline",
    "sphinx.ext.viewcode",
]
html_theme = "furo"
html_title = project
exclude_patterns = ["_build", "_ext", "jupyter_execute", "conf.py", "**.ipynb_checkpoints"]
source_suffix = {".md": "myst-nb", ".py": "myst-nb"}
nb_custom_formats = {".py": ["jupytext.reads", {"fmt": "py:percent"}]}
nb_execution_mode = os.environ.get("NB_EXECUTION_MODE", "cache")
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}


def _copy_notebooks() -> None:
    target = DOCS / "notebooks"
    target.mkdir(exist_ok=True)
    for old in target.glob("*.py"):
        old.unlink()
    for notebook in sorted((ROOT / "notebooks").glob("*.py")):
        shutil.copyfile(notebook, target / notebook.name)


_copy_notebooks()
write_claims_page(DOCS / "claims.md", os.environ.get("PROOFS_CHECK_JSON"))
