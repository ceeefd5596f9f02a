"""The core is game-agnostic: no core module, template or static file speaks a title's
vocabulary. A title lives in its own folder, ``titles/<package>/``; each declares its words
(``VOCABULARY`` in its package) and its slug, package and name are added to them, so a new
title is covered without a line here."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from games.engine import title_slugs
from titles import TITLE_PACKAGES

# No database, task queue or channel layer: CI's embedded run leaves it out.
pytestmark = pytest.mark.modeless

ROOT = Path(__file__).resolve().parents[2]
CORE = ("games", "accounts", "notifications", "colorado", "templates", "static")
SUFFIXES = {".py", ".html", ".txt", ".js", ".css"}
#: The settings hold the site's default name, which is the first title's ("Colorado County
#: online", ``SITE_NAME``); they read the titles from the one list and name none.
ALLOWED = {Path("colorado/settings.py")}


def _words(package: str) -> str:
    declared = getattr(importlib.import_module(f"titles.{package}"), "VOCABULARY", "")
    words = [re.escape(package), re.escape(package).replace("_", "[-_ ]")]
    return "|".join(w for w in [declared, *words] if w)


def vocabulary() -> re.Pattern[str]:
    slugs = [re.escape(slug) for slug in title_slugs()]
    parts = [_words(p) for p in TITLE_PACKAGES] + slugs
    return re.compile("|".join(f"(?:{p})" for p in parts), re.IGNORECASE)


def _core_files() -> list[Path]:
    out = []
    for top in CORE:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in SUFFIXES or "migrations" in path.parts:
                continue
            if path.relative_to(ROOT) in ALLOWED:
                continue
            out.append(path)
    return out


def test_no_core_file_speaks_a_titles_vocabulary() -> None:
    words = vocabulary()
    found = []
    for path in _core_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in words.finditer(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}")
    assert not found, "core files name a title's vocabulary:\n" + "\n".join(found)


def test_the_scan_sees_the_core_and_would_catch_a_word() -> None:
    files = {p.relative_to(ROOT).as_posix() for p in _core_files()}
    assert {"games/tables/lifecycle.py", "templates/games/game.html", "static/js/game.js"} <= files
    assert not any(f.startswith("titles/") for f in files)
    words = vocabulary()
    for slug in title_slugs():
        assert words.search(f"a table of {slug}")
    assert words.search("a sealed bid of Cowboys")
    assert not words.search("the sweep claims the seat; border-radius: 4px")
