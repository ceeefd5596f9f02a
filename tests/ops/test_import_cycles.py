"""No import cycles between the project's modules: every module can be read after the
ones it imports. A lower module that must wake a task above it names the task
(``colorado.task_queue``) instead of importing it; function-level imports do not hide a
cycle from this test, since it reads every import wherever it stands."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

# No database, task queue or channel layer: CI's embedded run leaves it out.
pytestmark = pytest.mark.modeless

ROOT = Path(__file__).resolve().parents[2]
# The project's packages: the ones the import contracts cover (pyproject.toml).
PACKAGES = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
    "root_packages"
]


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of more than one module (the cycles), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
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
    return found


def project_imports() -> dict[str, set[str]]:
    sys.path.insert(0, str(ROOT))
    try:
        graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))
    modules = {m for m in graph.modules if ".migrations." not in m and ".tests." not in m}
    # A package's __init__ is not a step of anyone's reading order: leave packages' own
    # imports of their children out, as the interpreter resolves them by name.
    return {
        m: {d for d in graph.find_modules_directly_imported_by(m) if d in modules} for m in modules
    }


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_of_the_project_is_part_of_an_import_cycle() -> None:
    cycles = strongly_connected(project_imports())
    assert cycles == [], "import cycles: " + "; ".join(" ⇄ ".join(c) for c in cycles)


def function_level_imports() -> list[str]:
    """Every import of one of the project's modules made inside a function, other than in
    an app's ``AppConfig.ready`` (where Django asks for them: models load only then)."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if {"migrations", "tests"} & set(path.parts):
                continue
            tree = ast.parse(path.read_text(), str(path))
            for function in ast.walk(tree):
                if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                if path.name == "apps.py" and function.name == "ready":
                    continue
                for node in ast.walk(function):
                    if isinstance(node, ast.ImportFrom):
                        names = [node.module or ""] if node.level == 0 else [package]
                    elif isinstance(node, ast.Import):
                        names = [alias.name for alias in node.names]
                    else:
                        continue
                    if any(name.split(".")[0] in PACKAGES for name in names):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_function_level_import_of_the_project_outside_app_start_up() -> None:
    """Such an import could only hide a cycle or a layer crossed upwards: import at the top."""
    assert function_level_imports() == []
