"""Paper modules: each one registers its claims into the global registry when imported."""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from proofs_check import claims
from proofs_check.claims import Registry

PAPER_MODULES: dict[str, str] = {
    "nam2025": "proofs_check.papers.nam2025",
    "xu_ziyin2025": "proofs_check.papers.xu_ziyin2025",
    "marcotte2023": "proofs_check.papers.marcotte2023",
    "saxe2014": "proofs_check.papers.saxe2014",
    "domine2025": "proofs_check.papers.domine2025",
    "kunin2025": "proofs_check.papers.kunin2025",
}


def load_papers(names: Iterable[str] | None = None) -> Registry:
    """Import the modules of ``names`` (default: all papers) and return the global registry.

    Importing is idempotent because Python caches modules, so claims are registered once.
    Raises ValueError, before importing anything, if a name is not in :data:`PAPER_MODULES`.
    """
    selected = list(PAPER_MODULES) if names is None else list(names)
    unknown = [name for name in selected if name not in PAPER_MODULES]
    if unknown:
        known = ", ".join(PAPER_MODULES)
        raise ValueError(f"unknown paper(s) {', '.join(map(repr, unknown))}; known papers: {known}")
    for name in selected:
        importlib.import_module(PAPER_MODULES[name])
    return claims.REGISTRY
