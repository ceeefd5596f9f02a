"""The rules are a pure library (docs/engine.md, CC-12): the generic engine (``games/engine/``)
and every title's rules package (``titles/<package>/engine/``) import no Django, network,
clock or global random: only the standard library, ``games.engine`` and, for a title, its
own package. The titles are found by pattern, so a new one is covered by itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from titles import TITLE_PACKAGES

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"
TITLE_ENGINES = sorted(ROOT.glob("titles/*/engine"))
FORBIDDEN = {"random", "time", "datetime", "socket", "urllib", "http"}
#: The bots (``games/engine/bots/`` and a title's ``*_bot.py`` modules) take a seeded
#: ``random.Random`` from their caller, and the ``simulate`` command times its run; none
#: touches the global generator (each title's bot tests check).
TOOLS_MAY_USE = {"random", "time"}


def rules_sources() -> list[Path]:
    return sorted([*ENGINE.rglob("*.py"), *(p for e in TITLE_ENGINES for p in e.rglob("*.py"))])


def package_of(path: Path) -> list[str]:
    rel = path.relative_to(ROOT).with_suffix("")
    return list(rel.parts[:-1])


def imported_modules(path: Path) -> list[str]:
    """Every module ``path`` imports, relative imports resolved."""
    package = package_of(path)
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


def allowed_tops(path: Path) -> set[str]:
    tools = path.name == "__main__.py" or path.name.endswith("_bot.py") or "bots" in path.parts
    stdlib = set(sys.stdlib_module_names) - FORBIDDEN
    return stdlib | (TOOLS_MAY_USE if tools else set()) | {"games", "titles", "__future__"}


def own_package(path: Path) -> str | None:
    """``titles.<package>.engine`` for a title's rules module, None for the generic engine."""
    parts = path.relative_to(ROOT).parts
    return f"titles.{parts[1]}.engine" if parts[0] == "titles" else None


def test_every_title_has_a_rules_package() -> None:
    assert sorted(e.parent.name for e in TITLE_ENGINES) == sorted(TITLE_PACKAGES)


def test_rules_import_only_the_standard_library_and_the_engine() -> None:
    checked = 0
    for path in rules_sources():
        checked += 1
        allowed = allowed_tops(path)
        own = own_package(path)
        for name in imported_modules(path):
            top = name.split(".")[0]
            where = path.relative_to(ROOT)
            assert top in allowed, f"{where} imports {name}"
            if top == "games":
                assert name.startswith("games.engine"), f"{where} imports {name}"
            if top == "titles":
                inside = own is not None and (name == own or name.startswith(own + "."))
                assert name in {"titles", "titles.TITLE_PACKAGES"} or inside, (
                    f"{where} imports {name}: a title's rules import only their own package"
                )
    assert checked >= 20


def test_generic_engine_modules_import_no_title_package() -> None:
    """Outside a title's folder only the registry reaches a title, by the names in
    ``titles.TITLE_PACKAGES`` (``importlib``); the generic bots know no title."""
    for path in ENGINE.rglob("*.py"):
        for name in imported_modules(path):
            assert name in {"titles", "titles.TITLE_PACKAGES"} or not name.startswith("titles"), (
                f"{path.relative_to(ROOT)} imports {name}"
            )
