"""The core is game-agnostic: no core module, template or static file speaks a title's
vocabulary; titles live in ``games/engine/<slug>/`` and ``titles/<slug>/`` only."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Colorado County's words, and its names. A core file that needs one of them is doing the
#: title's job.
VOCABULARY = re.compile(
    r"cowboy|\blakes?\b|\bflags?\b|colorado[-_ ]county|greedy|valuation|claim_preview|CCBoard"
    # La Conquista del Oeste's
    r"|conquista|\boutfits?\b|sheriff|poker|cardsharp|\boxen\b|revolver|\bwagons?\b|roy bean"
    r"|langtry|\bduels?\b",
    re.IGNORECASE,
)
CORE = ("games", "accounts", "notifications", "colorado", "templates", "static")
SUFFIXES = {".py", ".html", ".txt", ".js", ".css"}
#: The composition roots name the installed titles: the web apps and the site's default
#: name in the settings, the built-in rules packages in the engine's registry.
ALLOWED = {Path("colorado/settings.py"), Path("games/engine/__init__.py")}


def _core_files() -> list[Path]:
    engine = ROOT / "games" / "engine"
    titles = {p for p in engine.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    titles.discard(engine / "bots")
    out = []
    for top in CORE:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in SUFFIXES or "migrations" in path.parts:
                continue
            if any(title in path.parents for title in titles):
                continue
            if path.relative_to(ROOT) in ALLOWED:
                continue
            out.append(path)
    return out


def test_no_core_file_speaks_a_titles_vocabulary() -> None:
    found = []
    for path in _core_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in VOCABULARY.finditer(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}")
    assert not found, "core files name a title's vocabulary:\n" + "\n".join(found)


def test_the_scan_sees_the_core_and_would_catch_a_word() -> None:
    files = {p.relative_to(ROOT).as_posix() for p in _core_files()}
    assert {"games/services.py", "templates/games/game.html", "static/js/game.js"} <= files
    assert not any(f.startswith("games/engine/colorado_county/") for f in files)
    assert VOCABULARY.search("a sealed bid of Cowboys")
    assert not VOCABULARY.search("the sweep claims the seat; border-radius: 4px")
