"""The game page in each language in Chromium, at desktop and phone width: the page says it
is in that language, nothing spills sideways on a phone, and no button's label is cut or
broken. With SCREENSHOT_DIR set, each language's page is saved (the README's pictures)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .driver import sideways_spill, sign_in

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
        overflow, wide = sideways_spill(page)
        assert overflow <= 1, f"{language} {size}: the page is {overflow}px too wide: {wide}"
        cut = page.evaluate(
            """() => [...document.querySelectorAll('button, .button')]
                .filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1)
                .map(b => b.textContent.trim())"""
        )
        assert cut == [], f"{language} {size}: labels cut: {cut}"
        page.context.close()


def test_a_long_move_label_wraps_in_japanese_on_a_phone(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    """Japanese keeps a short button's label on one line; a move's button that names a
    whole move (Colorado's "discard two cards and play a third → an action") is longer than
    a phone is wide, so in the action panel it wraps instead of pushing the page sideways."""
    from games.tables import lifecycle

    user = player("longlabel")
    user.language = "ja"
    user.save(update_fields=["language"])
    game = lifecycle.game_create(creator=user, players=2, bots=["greedy"])
    page = new_page(*SIZES["phone"])
    sign_in(page, asgi_server, user.username, "pw-longlabel-2026")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    page.wait_for_selector("#act-panel")
    label = "紫1と紫1を捨てて青3を出す → チェックアクション、紫1と紫3を捨てて紫1を出す"
    page.evaluate(
        """label => { const form = document.createElement('form');
            form.className = 'prompt';
            form.innerHTML = '<button type="button" class="button secondary"></button>';
            form.querySelector('button').textContent = label;
            document.querySelector('#act-panel').append(form); }""",
        label,
    )
    overflow, wide = sideways_spill(page)
    assert overflow <= 1, f"the page is {overflow}px too wide: {wide}"
    box = page.locator("#act-panel form.prompt button").last.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= SIZES["phone"][0], box
    short = page.locator(".site-header button").first  # the Menu button keeps its one line
    assert short.count() == 1
    assert page.evaluate("b => getComputedStyle(b).whiteSpace", short.element_handle()) == "nowrap"
