"""Issue 43, trial item 11: the home page's game cards touched, were half empty and had no
picture, and the waiting-table page was wider than the lobby. Each title's card now has its
own artwork and one-line pitch (declared by the title's web side: ``WebTitle.artwork`` and
``pitch``), the cards are spaced, and a table waiting for players is as wide as the lobby.
Checked at a desktop's width and a phone's; the pictures go to ``SCREENSHOT_DIR`` if set."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from games.tables import lifecycle
from games.titles import web_titles

from .driver import sign_in, wait_js

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

SHOTS = os.environ.get("SCREENSHOT_DIR")

CARDS = """() => Array.from(document.querySelectorAll('.title-card')).map(card => {
  const img = card.querySelector('img.title-art');
  const box = card.getBoundingClientRect();
  return {
    title: card.dataset.title,
    left: box.left, right: box.right, top: box.top, bottom: box.bottom,
    picture: img ? img.complete && img.naturalWidth > 0 : false,
    pictureHeight: img ? img.getBoundingClientRect().height : 0,
    pitch: (card.querySelector('.pitch') || {}).textContent || '',
  };
})"""


def _gaps(cards: list[dict[str, Any]]) -> list[float]:
    """The space between each two cards side by side or one above the other."""
    gaps = []
    for a in cards:
        for b in cards:
            if a is b:
                continue
            same_row = abs(a["top"] - b["top"]) < 2
            if same_row and b["left"] > a["left"]:
                gaps.append(b["left"] - a["right"])
            elif not same_row and b["top"] > a["bottom"] - 1 and abs(a["left"] - b["left"]) < 2:
                gaps.append(b["top"] - a["bottom"])
    return gaps


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_each_title_has_a_spaced_card_with_its_picture_and_pitch(
    asgi_server: str, new_page: Callable[..., Any], size: tuple[int, int]
) -> None:
    page = new_page(*size)
    page.goto(f"{asgi_server}/")
    page.wait_for_selector(".title-card img.title-art")
    wait_js(page, "Array.from(document.images).every(i => i.complete)")
    cards = page.evaluate(CARDS)
    titles = [t for t in web_titles() if t.artwork]
    assert {c["title"] for c in cards} >= {t.slug for t in titles}
    assert len(titles) >= 2
    for card in cards:
        assert card["picture"], card
        assert card["pictureHeight"] >= 100, card
        assert 10 <= len(card["pitch"].strip()) <= 100, card
    gaps = _gaps(cards)
    assert gaps
    assert min(gaps) >= 12, gaps
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"home-cards-{size[0]}.png"), full_page=True)


def test_a_waiting_table_is_as_wide_as_the_lobby(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    alice = player("alice")
    game = lifecycle.game_create(creator=alice, players=3)
    page = new_page(1280, 800)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    width = "() => document.getElementById('main').getBoundingClientRect().width"
    page.goto(f"{asgi_server}/games/")
    lobby = page.evaluate(width)
    page.goto(f"{asgi_server}/games/{game.pk}/")
    page.wait_for_selector("#main")
    assert page.evaluate(width) == lobby
