"""The engine is a pure library (style guide, CC-12): no Django, network, clock or global
random; it imports only the standard library."""

from __future__ import annotations

import ast
from pathlib import Path

from games.engine import TITLE_PACKAGES

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


# The bots (``bots/`` and a title's ``*_bot.py`` modules) take a seeded ``random.Random``
# from their caller and the ``simulate`` command times its run; neither may touch the
# global generator (tests/engine/colorado_county/test_bots.py checks).
TOOLS_MAY_USE = {"random", "time"}


def forbidden_for(path: Path) -> set[str]:
    rel = path.relative_to(ENGINE)
    if rel.parts[0] == "bots" or rel.name == "__main__.py" or rel.name.endswith("_bot.py"):
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


def imported_modules(path: Path) -> list[str]:
    """Every module ``path`` imports, relative imports resolved to ``games.engine...``."""
    rel = path.relative_to(ENGINE).with_suffix("")
    package = ["games", "engine", *rel.parts[:-1]]
    if rel.name == "__init__":
        package = ["games", "engine", *rel.parts[:-1]]
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            out.append(module)
            out += [f"{module}.{a.name}" for a in node.names]
    return out


def test_generic_engine_modules_import_no_title_package() -> None:
    """Outside ``games/engine/<title>/`` only the registry reaches a title, by the names in
    ``TITLE_PACKAGES`` (``importlib``); the generic bots know no title."""
    titles = {f"games.engine.{p}" for p in TITLE_PACKAGES}
    checked = 0
    for path in ENGINE.rglob("*.py"):
        if path.relative_to(ENGINE).parts[0] in TITLE_PACKAGES:
            continue
        checked += 1
        for name in imported_modules(path):
            assert not any(name == t or name.startswith(t + ".") for t in titles), (
                f"{path.relative_to(ENGINE)} imports {name}"
            )
    assert checked >= 5
