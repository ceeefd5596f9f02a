"""A person chooses the hard bot on the lobby's form, the table starts, and the search bot
plays its moves (thinking the small ``BOT_SEARCH_SECONDS`` the test server is given, see
conftest.py); the Bots page lists the levels."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .driver import Tally, is_over, page_wait_until, play_one, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def test_a_person_picks_hard_on_the_lobby_form_and_the_search_bot_plays(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any], tmp_path: Path
) -> None:
    from games.models import Game, Move, Seat

    alice = player("alice")
    page = new_page(1280, 800)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    labels = page.locator("#id_bot_kind option").all_inner_texts()
    assert [label.split(":")[0] for label in labels] == ["Easy", "Medium", "Hard"]
    page.select_option("#id_players", "2")
    page.fill("#id_bots", "1")
    page.select_option("#id_bot_kind", label="Hard: search (thinks ahead)")
    page.select_option("#id_clock", "fast")
    page.click("text=Open the table")
    page.wait_for_selector("#board svg")
    game = Game.objects.get(created_by=alice)
    assert page.url.endswith(f"/games/{game.pk}/")
    assert game.status == Game.Status.RUNNING
    assert game.bot_kind == "search"
    bot = Seat.objects.select_related("user").get(game=game, user__is_bot=True)
    assert bot.user.username == "bot-search"
    assert "Search bot" in page.locator("body").inner_text()
    # Play on until the hard bot has made two moves of its own.
    tally = Tally()

    def bot_moved_twice() -> bool:
        if Move.objects.filter(game=game, seat=bot.seat, actor="bot").count() >= 2:
            return True
        assert not is_over(page)
        play_one(page, tally)
        return False

    page_wait_until(
        page,
        bot_moved_twice,
        timeout=90,
        interval=0.25,
        message=lambda: f"the search bot did not move: {tally.actions}",
    )
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert Move.objects.filter(game=game, seat=bot.seat, actor="bot").count() >= 2
    assert Move.objects.filter(game=game, actor="player").count() >= 1

    page.click("nav.site-nav >> text=Bots")
    page.wait_for_url(f"{asgi_server}/bots/")
    hard = page.locator("#bots-colorado-county ~ .table-scroll tr.bot-level-hard")
    assert "Search bot" in hard.inner_text()
