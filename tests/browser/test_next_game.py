"""After a move, "Next game waiting (N)" takes the player to the most urgent of their other
tables (the inbox's order), by a click or the key n (issue 43)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from .driver import sign_in, wait_js

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def test_next_game_waiting_follows_a_move_and_the_key_n(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from django.utils import timezone

    from games import moves
    from games.models import Seat
    from games.selectors import documents
    from games.tables import lifecycle

    alice, bob = player("alice"), player("bob")
    games = []
    for _ in range(3):  # both bid at once: alice is due at each
        game = lifecycle.game_create(
            creator=alice, players=2, invite=["bob"], open_seats=False, options={"flags": "random"}
        )
        lifecycle.game_join(game_id=game.pk, user=bob)
        game.refresh_from_db()
        games.append(game)
    here, later, sooner = games
    # The inbox's order: the nearest deadline first.
    Seat.objects.filter(game=sooner, user=alice).update(
        deadline=timezone.now() + timedelta(hours=2)
    )
    Seat.objects.filter(game=later, user=alice).update(deadline=timezone.now() + timedelta(days=2))
    page = new_page(390, 844)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    page.goto(f"{asgi_server}/games/{here.pk}/")
    wait_js(page, "document.querySelector('.live-status.on')")
    assert page.locator("#next-game").count() == 0, "alice's move is due here"
    doc = documents.game_document(game=here, user=alice)
    bid = next(a for a in doc["legal_actions"] if a["type"] == "bid")
    moves.action_submit(game_id=here.pk, user=alice, action=bid, version=doc["version"])
    page.wait_for_selector("#next-game")
    assert page.locator("#next-game").inner_text() == "Next game waiting (2)"
    page.keyboard.press("n")
    page.wait_for_url(f"{asgi_server}/games/{sooner.pk}/")


def test_a_move_is_announced_to_screen_readers(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    """The board says what a move did in a polite live region: the new log line."""
    from games import moves
    from games.selectors import documents
    from games.tables import lifecycle

    alice, bob = player("alice"), player("bob")
    game = lifecycle.game_create(
        creator=alice, players=2, invite=["bob"], open_seats=False, options={"flags": "random"}
    )
    lifecycle.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    page = new_page(1280, 800)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    wait_js(page, "document.querySelector('.live-status.on')")
    assert page.get_attribute("#move-news", "aria-live") == "polite"
    assert page.inner_text("#move-news") == ""
    doc = documents.game_document(game=game, user=bob)
    bid = next(a for a in doc["legal_actions"] if a["type"] == "bid")
    moves.action_submit(game_id=game.pk, user=bob, action=bid, version=doc["version"])
    said = wait_js(page, "document.getElementById('move-news').textContent")
    newest = page.locator(".log-list li").first.inner_text()
    assert newest in str(said)
