"""Where papers come from: the built-in paper modules, installed packages (entry-point group
``layerwise_linear_flows.papers``) and a user's Python file.

Each built-in paper is a folder ``proofs_check/papers/<key>/`` whose package defines the :class:`proofs_check.Paper`
``PAPER``; its claims may be spread over several modules of the folder, which all add to that object, and it is
registered under the entry-point group like any outside paper. Importing a paper module declares its claims and computes
nothing (statements and checks are built when a check runs).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from types import ModuleType

from proofs_check.claims import Claim, section
from proofs_check.paper import Paper
from proofs_check.registry import Registry

__all__ = ["BUILTIN_PAPERS", "ENTRY_POINT_GROUP", "load_file", "load_papers", "papers_in", "work_group"]

BUILTIN_PAPERS: tuple[str, ...] = (
    "nam2025",
    "xu_ziyin2025",
    "marcotte2023",
    "saxe2014",
    "domine2025",
    "kunin2025",
    "kunin2024",
)
"""The keys of the package's own papers, in the order of the tables. Each is the folder
``proofs_check/papers/<key>/`` and is loaded like an installed paper, through its entry point of the group
:data:`ENTRY_POINT_GROUP` (declared in the package's ``pyproject.toml``)."""
ENTRY_POINT_GROUP = "layerwise_linear_flows.papers"


def work_group(claim: Claim | str) -> str:
    """The group whose worker runs a claim (``proofs_check.runner.run_claims``): :attr:`Claim.work_group
    <proofs_check.claims.Claim.work_group>`, the section whose cached work the claim reuses (declared by its paper,
    ``Paper.claim(..., shared_work=...)``), else its own section. A bare claim id carries no such declaration: its
    group is its section.

    Raises:
        TypeError: if ``claim`` is neither a Claim nor a claim id.
    """
    if isinstance(claim, Claim):
        return claim.work_group
    if isinstance(claim, str):
        return section(claim)
    raise TypeError(f"claim must be a Claim or a claim id (str), got {type(claim).__name__}")


def papers_in(obj: object) -> list[Paper]:
    """The papers an object provides: itself if a Paper, a module's (or mapping's) Paper values otherwise."""
    if isinstance(obj, Paper):
        return [obj]
    values = vars(obj).values() if isinstance(obj, ModuleType) else []
    return list(dict.fromkeys(v for v in values if isinstance(v, Paper)))


def _installed() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def _load_installed(name: str, entry: metadata.EntryPoint) -> list[Paper]:
    try:
        found = papers_in(entry.load())
    except Exception as exc:
        why = f"{type(exc).__name__}: {exc}"
        raise ValueError(f"installed paper {name!r} ({entry.value}) failed to load: {why}") from exc
    if not found:
        raise ValueError(f"installed paper {name!r} ({entry.value}) provides no proofs_check.Paper")
    return found


def load_papers(names: Iterable[str] | None = None) -> Registry:
    """A registry of the papers ``names`` (default: every built-in and installed paper), in that order.

    Built-in and installed papers load the same way, through their entry points (:data:`ENTRY_POINT_GROUP`).

    Arguments:
        names: the papers' names (duplicates once), or None for every built-in paper then every installed one.

    Returns:
        The :class:`Registry` of the papers, in the order of ``names``.

    Raises:
        ValueError: before importing anything, if a name is neither built in nor installed, or a built-in paper
            has no entry point (the package is not installed: ``pip install -e .``); then if an installed paper
            fails to load or provides no ``Paper``, or two papers share a key or a claim id.
    """
    installed = _installed()
    known = [*BUILTIN_PAPERS, *(name for name in installed if name not in BUILTIN_PAPERS)]
    selected = known if names is None else list(dict.fromkeys(names))
    unknown = [name for name in selected if name not in known]
    if unknown:
        raise ValueError(f"unknown paper(s) {', '.join(map(repr, unknown))}; known papers: {', '.join(known)}")
    missing = [name for name in selected if name not in installed]
    if missing:
        raise ValueError(
            f"built-in paper(s) {', '.join(map(repr, missing))} have no entry point in the group "
            f"{ENTRY_POINT_GROUP!r}: "
            "install the package (pip install -e .) so that its entry points are registered"
        )
    registry = Registry()
    for name in selected:
        for paper in _load_installed(name, installed[name]):
            registry.add(paper)
    return registry


def load_file(path: str | Path) -> list[Paper]:
    """Run the Python file ``path`` as a module and return the papers it defines at module level (models it
    registers with :func:`derivations.models.register` are registered too).

    Arguments:
        path: the path of a ``.py`` file, absolute or relative to the current directory.

    Returns:
        The :class:`Paper` objects the module defines at module level, in order, each once.

    Raises:
        ValueError: ``path`` does not end in ``.py`` or is not a file, running it raises an exception (quoted), or
            it defines no ``Paper``.
    """
    path = Path(path)
    if path.suffix != ".py":
        raise ValueError(f"{str(path)!r} is not a Python file (FILE.py)")
    if not path.is_file():
        if path.is_absolute():
            raise ValueError(f"no file {str(path)!r}")
        raise ValueError(
            f"no file {str(path)!r} relative to the current directory {str(Path.cwd())!r}: give the path from "
            "here, or an absolute one"
        )
    name = f"proofs_check_user_{abs(hash(path.resolve()))}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[name] = module  # dataclasses and pickling look the module up by name
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    except Exception as exc:
        raise ValueError(f"{str(path)!r} failed to load: {type(exc).__name__}: {exc}") from exc
    found = papers_in(module)
    if not found:
        raise ValueError(f"{str(path)!r} defines no proofs_check.Paper at module level")
    return found
