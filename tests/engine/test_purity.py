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


def test_engine_sources_import_nothing_forbidden() -> None:
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top not in FORBIDDEN, f"{path.name} imports {name}"
                if top == "games":
                    assert name.startswith("games.engine"), f"{path.name} imports {name}"
