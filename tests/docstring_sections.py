"""The docstring-section checker behind ``tests/test_docstrings.py`` (issue 26).

The repo's convention (napoleon Google style, the ``Arguments:`` alias): a docstring holds indented sections
``Arguments:``, ``Returns:`` (or ``Yields:``) and ``Raises:``; an argument entry names one or several parameters
before a colon (``c2, c1, c0: the coefficients``). Parameters are ``*args`` / ``**kwargs`` by their bare names.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

SECTION = re.compile(r"^(\s*)(Arguments|Returns|Yields|Raises):(.*)$")


@dataclass(frozen=True)
class Problem:
    """One missing piece of a public callable's docstring: ``where`` (its qualified name) and ``what``."""

    where: str
    what: str


def sections(doc: str) -> dict[str, str]:
    """The text of each ``Name:`` section of ``doc`` (its heading line's rest plus the lines indented under it)."""
    found: dict[str, str] = {}
    lines = inspect.cleandoc(doc).splitlines()
    current: str | None = None
    indent = 0
    for line in lines:
        match = SECTION.match(line)
        if match:
            current, indent = match.group(2), len(match.group(1))
            found[current] = match.group(3) + "\n"
            continue
        if current is not None:
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                current = None
            else:
                found[current] += line + "\n"
    return found


def documented_names(arguments: str) -> set[str]:
    """The parameter names an ``Arguments`` section documents: the comma-separated names before each entry's colon."""
    names: set[str] = set()
    for line in arguments.splitlines():
        head, colon, _ = line.strip().partition(":")
        if colon:
            names.update(part.strip().strip("*`") for part in head.split(","))
    return names


def _raises(function: Callable[..., Any]) -> bool:
    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):
        return False
    return re.search(r"^\s*raise (ValueError|TypeError)\b", source, re.MULTILINE) is not None


def check_function(function: Callable[..., Any], where: str) -> list[Problem]:
    """The missing sections and undocumented parameters of ``function``'s docstring, reported under ``where``."""
    doc = inspect.getdoc(function) or ""
    if not doc:
        return [Problem(where, "no docstring")]
    found = sections(doc)
    problems = []
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return problems
    parameters = [p for name, p in signature.parameters.items() if name not in ("self", "cls")]
    if parameters:
        if "Arguments" not in found:
            problems.append(Problem(where, "no Arguments section"))
        else:
            missing = {p.name for p in parameters} - documented_names(found["Arguments"])
            if missing:
                problems.append(Problem(where, f"Arguments do not name {sorted(missing)}"))
    returns = signature.return_annotation
    if returns not in (None, "None", inspect.Signature.empty) and not ("Returns" in found or "Yields" in found):
        problems.append(Problem(where, "no Returns section"))
    if _raises(function) and "Raises" not in found:
        problems.append(Problem(where, "no Raises section (the code raises ValueError/TypeError)"))
    return problems


def check_public(name: str, value: Any) -> Iterator[Problem]:
    """The problems of a public name: a function, or a class (its docstring, constructor and public methods)."""
    if inspect.isclass(value):
        if not inspect.getdoc(value):
            yield Problem(name, "no docstring")
        for attribute, member in vars(value).items():
            if attribute.startswith("_") or not inspect.isfunction(member):
                continue
            yield from check_function(member, f"{name}.{attribute}")
    elif inspect.isfunction(value):
        yield from check_function(value, name)
