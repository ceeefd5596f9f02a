"""Issue 43, trial item 3: in French, at 1280 px, the table's headings keep their words
whole ("Score", "Cowboys", "Ventes" never "Sc/or/e") and the valuation table does not widen
the page (it made it 1,357 px wide)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.driver import sign_in
from titles.colorado_county.tests.web.tables import human_table, play_until

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

# Each one-word heading's text on one line (a word broken inside spans two line boxes).
BROKEN = """() => [...document.querySelectorAll(
    '.players-table thead th, .valuation-table thead th')]
  .filter(th => th.textContent.trim() && !/\\s/.test(th.textContent.trim()))
  .filter(th => { const r = document.createRange(); r.selectNodeContents(th);
                  return new Set([...r.getClientRects()].map(c => Math.round(c.top))).size > 1; })
  .map(th => th.textContent.trim())"""


def test_french_headings_keep_their_words_and_the_page_its_width(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    users = [player("alice"), player("bob"), player("carol")]
    users[0].language = "fr"
    users[0].save(update_fields=["language"])
    game = human_table(users)
    play_until(game, users, lambda u, d: d["view"]["round"] >= 3, seed=3)
    page = new_page(1280, 800)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    page.wait_for_selector(".valuation-table")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert page.evaluate(BROKEN) == []
