"""Where a claim appears in its paper."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Citation"]


@dataclass(frozen=True)
class Citation:
    """Where a claim appears: ``paper`` is the paper's key, ``reference`` the human-readable text."""

    paper: str
    reference: str
    section: str = ""
    equation: str = ""

