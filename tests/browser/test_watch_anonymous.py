"""Watching without an account where the table is public, live, and a visible badge for a
player who is away on vacation (issue 15)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from .driver import wait_js

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def test_a_visitor_without_an_account_watches_a_public_table_live_and_sees_who_is_away(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from django.utils import timezone

    from games.clocks.vacation import vacation_take
    from games.tables import lifecycle

    alice, bob = player("alice"), player("bob")
    game = lifecycle.game_create(creator=alice, players=2, options={"flags": "random"})
    lifecycle.game_join(game_id=game.pk, user=bob)
    vacation_take(user=bob, until=timezone.now() + timedelta(days=2))
    private = lifecycle.game_create(creator=alice, players=2, invite=["bob"], open_seats=False)
    lifecycle.game_join(game_id=private.pk, user=bob)

    page = new_page()
    page.goto(f"{asgi_server}/")
    watch = page.locator(".watch-now")
    assert f"/games/{game.pk}/" in watch.inner_html()
    assert f"/games/{private.pk}/" not in watch.inner_html()
    page.click(f".watch-now a[href='/games/{game.pk}/']")
    page.wait_for_selector("#board svg")
    assert "You are watching" in page.locator("#game-meta").inner_text()
    wait_js(page, "document.getElementById('live-status').textContent.length > 0")
    badge = page.locator(".badge.away")
    assert "bob is away until" in badge.inner_text()
    assert "their clock is paused" in badge.inner_text()
