"""The installed distribution of the package and its version (shown by ``--version`` and in the reports)."""

from __future__ import annotations

from importlib import metadata

__all__ = ["DISTRIBUTION", "version"]

DISTRIBUTION = "layerwise-linear-flows"
"""The distribution's name on the package index."""


def version() -> str:
    """The installed package's version, or "unknown" from a bare source tree."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"
