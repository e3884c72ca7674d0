"""The architecture, read from the source files (nothing of the package is imported): no import cycle among the
modules of ``derivations``, ``numerics`` and ``proofs_check``; imports in one direction only (``derivations`` <-
``numerics`` <- ``proofs_check``); the library names no paper folder; every built-in paper is a folder with an
entry point. Each detector is also shown to find a planted violation: a detector that finds nothing proves nothing.

Imports count wherever they are written (inside functions and ``if TYPE_CHECKING:`` blocks too) and so do calls
``importlib.import_module("literal")``; importing a submodule is not counted as importing its parent package.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("derivations", "numerics", "proofs_check")
"""The packages, lowest layer first: a package may import only from those before it."""
PAPERS = "proofs_check.papers"
ENTRY_POINT_GROUP = "layerwise_linear_flows.papers"


# --- the import graph ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Module:
    """A module of the source tree: its dotted ``name``, its file, and whether it is a package's ``__init__``."""

    name: str
    path: Path
    is_package: bool

    @property
    def anchor(self) -> str:
        """The package that relative imports of this module start from."""
        return self.name if self.is_package else self.name.rpartition(".")[0]


def source_modules(root: Path, packages: Iterable[str] = PACKAGES) -> dict[str, Module]:
    """Every ``.py`` file under ``root/<package>/`` as a :class:`Module`, by dotted name."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if is_package else parts)
            found[name] = Module(name, path, is_package)
    return found


def _relative(anchor: str, level: int, name: str | None) -> str:
    """The absolute name of ``from <level dots><name> import ...`` written in a module of the package ``anchor``."""
    base = anchor.split(".")
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, *([name] if name else [])])


def imported_names(module: Module) -> set[str]:
    """Absolute dotted names ``module`` imports anywhere in its file: ``import a.b``, ``from a import b`` (``b`` a
    module or a name of ``a``: :func:`import_graph` takes the longest prefix that is a module) and
    ``importlib.import_module("a.b")`` all give ``a.b``."""
    names = set()
    for node in ast.walk(ast.parse(module.path.read_text(encoding="utf-8"), filename=str(module.path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _relative(module.anchor, node.level, node.module) if node.level else str(node.module)
            names |= {base if alias.name == "*" else f"{base}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Call) and _is_import_module(node.func) and node.args:
            target = node.args[0]
            if isinstance(target, ast.Constant) and isinstance(target.value, str):
                stripped = target.value.lstrip(".")
                level = len(target.value) - len(stripped)
                names.add(_relative(module.anchor, level, stripped or None) if level else target.value)
    return names


def _is_import_module(func: ast.expr) -> bool:
    return (isinstance(func, ast.Name) and func.id == "import_module") or (
        isinstance(func, ast.Attribute) and func.attr == "import_module"
    )


def _resolve(name: str, modules: Mapping[str, Module]) -> str | None:
    """The module of the tree that importing ``name`` runs: the longest prefix of ``name`` that is one."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(root: Path, packages: Iterable[str] = PACKAGES) -> dict[str, set[str]]:
    """Module name -> the modules of the tree it imports (itself excluded)."""
    modules = source_modules(root, packages)
    graph = {}
    for name, module in modules.items():
        targets = {_resolve(imported, modules) for imported in imported_names(module)}
        graph[name] = {t for t in targets if t is not None and t != name}
    return graph


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The import cycles: strongly connected components of more than one module (Tarjan's algorithm, iterative),
    each sorted, sorted by their first module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            successor = next((s for s in successors if s in graph), None)
            if successor is not None:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                elif successor in on_stack:
                    low[node] = min(low[node], index[successor])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


# --- the rules ----------------------------------------------------------------------------------------------


def layer_violations(root: Path, packages: Iterable[str] = PACKAGES) -> list[str]:
    """``"module -> name"`` for every import of a package from a later (higher) one of ``packages``."""
    layer = {package: k for k, package in enumerate(packages)}
    violations = []
    for name, module in source_modules(root, packages).items():
        own = layer[name.split(".")[0]]
        for imported in sorted(imported_names(module)):
            if layer.get(imported.split(".")[0], -1) > own:
                violations.append(f"{name} -> {imported}")
    return violations


PAPER_NAME = re.compile(r"\bproofs_check[./]papers\b")


def paper_mentions(root: Path, packages: Iterable[str] = ("derivations", "numerics")) -> list[str]:
    """``"file:line"`` of every mention of the paper folders (``proofs_check.papers`` or ``proofs_check/papers``)
    in the files of ``packages``: imports, strings, docstrings and comments alike."""
    found = []
    for module in source_modules(root, packages).values():
        for number, line in enumerate(module.path.read_text(encoding="utf-8").splitlines(), start=1):
            if PAPER_NAME.search(line):
                found.append(f"{module.path.relative_to(root)}:{number}: {line.strip()}")
    return found


def builtin_papers(root: Path) -> tuple[str, ...]:
    """The literal value of ``BUILTIN_PAPERS`` in ``proofs_check/papers/__init__.py``, read without importing it."""
    tree = ast.parse((root / "proofs_check" / "papers" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        elif isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        else:
            continue
        if value is not None and any(isinstance(t, ast.Name) and t.id == "BUILTIN_PAPERS" for t in targets):
            return tuple(ast.literal_eval(value))
    raise AssertionError("proofs_check/papers/__init__.py assigns no literal BUILTIN_PAPERS")


def _load_toml(path: Path) -> dict:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        tomllib = pytest.importorskip("tomli")
    return tomllib.loads(path.read_text(encoding="utf-8"))


def builtin_paper_problems(root: Path) -> list[str]:
    """What is wrong with the built-in papers: a key that is no folder ``proofs_check/papers/<key>/`` with an
    ``__init__.py``, a key without the entry point ``<key> = "proofs_check.papers.<key>"`` in ``pyproject.toml``, an
    entry point into ``proofs_check.papers`` that is not a built-in key."""
    keys = builtin_papers(root)
    project = _load_toml(root / "pyproject.toml").get("project", {})
    entries = project.get("entry-points", {}).get(ENTRY_POINT_GROUP, {})
    problems = [
        f"{key}: no folder proofs_check/papers/{key}/ with an __init__.py"
        for key in keys
        if not (root / "proofs_check" / "papers" / key / "__init__.py").is_file()
    ]
    problems += [
        f'{key}: no entry point {key} = "{PAPERS}.{key}" in [project.entry-points."{ENTRY_POINT_GROUP}"]'
        for key in keys
        if entries.get(key) != f"{PAPERS}.{key}"
    ]
    problems += [
        f"entry point {name} = {value!r} is not in BUILTIN_PAPERS"
        for name, value in entries.items()
        if str(value).startswith(f"{PAPERS}.") and name not in keys
    ]
    return problems


# --- the package obeys them ---------------------------------------------------------------------------------


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package: str) -> None:
    found = [c for c in cycles(import_graph(ROOT)) if any(m.split(".")[0] == package for m in c)]
    assert not found, f"import cycles in {package}:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_imports_go_one_way_derivations_numerics_proofs_check() -> None:
    violations = layer_violations(ROOT)
    assert not violations, "imports against the layers:\n" + "\n".join(violations)


def test_the_library_names_no_paper_folder() -> None:
    mentions = paper_mentions(ROOT)
    assert not mentions, "derivations / numerics name the paper folders:\n" + "\n".join(mentions)


def test_every_builtin_paper_is_a_folder_with_an_entry_point() -> None:
    assert builtin_papers(ROOT), "no built-in papers found"
    problems = builtin_paper_problems(ROOT)
    assert not problems, "\n".join(problems)


# --- the detectors find planted violations ------------------------------------------------------------------


def plant(root: Path, files: Mapping[str, str]) -> Path:
    """Write ``files`` (path relative to ``root`` -> source) under ``root``; return ``root``."""
    for relative, source in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
    return root


def test_cycles_of_a_synthetic_graph() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": set()}) == [
        ["a", "b", "c"],
        ["d", "e"],
    ]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) == []


def test_a_cycle_through_a_function_level_a_relative_and_an_import_module_import_is_found(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": """
                def late():
                    from pkg import b
                """,
            "pkg/b.py": """
                import importlib

                C = importlib.import_module("pkg.c")
                """,
            "pkg/c.py": "from .sub.d import name\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/d.py": """
                from typing import TYPE_CHECKING

                if TYPE_CHECKING:
                    from ..a import late
                """,
            "pkg/e.py": "import pkg.a\n",
        },
    )
    graph = import_graph(root, ["pkg"])
    assert graph["pkg.e"] == {"pkg.a"} and graph["pkg"] == set()
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.sub.d"]]
    (root / "pkg" / "a.py").write_text("def late():\n    pass\n", encoding="utf-8")
    assert cycles(import_graph(root, ["pkg"])) == []


def test_an_upward_import_is_a_layer_violation(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "derivations/__init__.py": "import sympy\n",
            "derivations/x.py": "def f():\n    from numerics import y\n",
            "numerics/__init__.py": "from derivations import x\n",
            "numerics/y.py": "import importlib\nimportlib.import_module('proofs_check.z')\n",
            "proofs_check/__init__.py": "import numerics.y\nimport derivations\n",
            "proofs_check/z.py": "",
        },
    )
    assert layer_violations(root) == ["derivations.x -> numerics.y", "numerics.y -> proofs_check.z"]


def test_a_library_docstring_naming_a_paper_folder_is_found(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "derivations/__init__.py": '"""Models; the papers use them (proofs_check is not named here)."""\n',
            "numerics/__init__.py": "",
            "numerics/phase.py": '"""The table is in proofs_check.papers.xu_ziyin2025.phase."""\n'
            "# and the figures in proofs_check/papers/\n",
        },
    )
    assert [m.split(":")[:2] for m in paper_mentions(root)] == [["numerics/phase.py", "1"], ["numerics/phase.py", "2"]]


def test_a_builtin_paper_without_folder_or_entry_point_is_found(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "proofs_check/papers/__init__.py": 'BUILTIN_PAPERS: tuple[str, ...] = ("good", "nofolder", "noentry")\n',
            "proofs_check/papers/good/__init__.py": "",
            "proofs_check/papers/noentry/__init__.py": "",
            "pyproject.toml": f"""
                [project]
                name = "x"

                [project.entry-points."{ENTRY_POINT_GROUP}"]
                good = "proofs_check.papers.good"
                nofolder = "proofs_check.papers.nofolder"
                stray = "proofs_check.papers.stray"
                outside = "other_package.paper"
                """,
        },
    )
    problems = builtin_paper_problems(root)
    assert [p.split(":")[0].split(" = ")[0] for p in problems] == ["nofolder", "noentry", "entry point stray"]
