"""The game page in each language in Chromium, at desktop and phone width: the page says it
is in that language, nothing spills sideways on a phone, and no button's label is cut or
broken. With SCREENSHOT_DIR set, each language's page is saved (the README's pictures)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .driver import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

SHOTS = os.environ.get("SCREENSHOT_DIR")
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.mark.parametrize("language", ["en", "fr", "de", "es", "ja"])
def test_the_game_page_reads_well_in_each_language(
    language: str, asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from games.tables import lifecycle

    user = player(f"reader{language}")
    user.language = language
    user.save(update_fields=["language"])
    game = lifecycle.game_create(creator=user, players=2, bots=["greedy"])
    for size, (width, height) in SIZES.items():
        page = new_page(width, height)
        sign_in(page, asgi_server, user.username, f"pw-reader{language}-2026")
        page.goto(f"{asgi_server}/games/{game.pk}/")
        page.wait_for_selector("#board svg")
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(SHOTS) / f"lang-{language}-{size}.png"), full_page=False)
        assert page.get_attribute("html", "lang") == language
        overflow = page.evaluate(
            "document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"
        )
        wide = page.evaluate(
            """() => [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
                .filter(e => { for (let a = e.parentElement; a; a = a.parentElement) {
                  const o = getComputedStyle(a).overflowX;
                  if (o === 'auto' || o === 'scroll' || o === 'hidden') return false; }
                  return true; })
                .slice(0, 5)
                .map(e => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40))"""
        )
        assert overflow <= 1, f"{language} {size}: the page is {overflow}px too wide: {wide}"
        cut = page.evaluate(
            """() => [...document.querySelectorAll('button, .button')]
                .filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1)
                .map(b => b.textContent.trim())"""
        )
        assert cut == [], f"{language} {size}: labels cut: {cut}"
        page.context.close()
