"""The engine is a pure library (style guide, CC-12): no Django, network, clock or global
random; it imports only the standard library."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
FORBIDDEN = {
    "django",
    "channels",
    "celery",
    "ninja",
    "accounts",
    "colorado",
    "random",
    "time",
    "datetime",
    "socket",
    "requests",
    "urllib",
    "http",
}


# The bots take a seeded ``random.Random`` from their caller and the ``simulate`` command
# times its run; neither may touch the global generator (tests/engine/test_bots.py checks).
TOOLS_MAY_USE = {"random", "time"}


def forbidden_for(path: Path) -> set[str]:
    rel = path.relative_to(ENGINE)
    if rel.parts[0] == "bots" or rel.name == "__main__.py":
        return FORBIDDEN - TOOLS_MAY_USE
    return FORBIDDEN


def test_engine_sources_import_nothing_forbidden() -> None:
    for path in ENGINE.rglob("*.py"):
        forbidden = forbidden_for(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top not in forbidden, f"{path.name} imports {name}"
                if top == "games":
                    assert name.startswith("games.engine"), f"{path.name} imports {name}"
