"""Issue 43, trial item 10: the chat field shows how much of its 500 characters is used, so
it never stops silently."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .driver import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def test_the_chat_field_counts_its_characters(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from games.tables import lifecycle

    alice, bob = player("alice"), player("bob")
    game = lifecycle.game_create(creator=alice, players=2, invite=["bob"], open_seats=False)
    lifecycle.game_join(game_id=game.pk, user=bob)
    page = new_page(390, 844)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    page.wait_for_selector("#chat-count")
    assert page.inner_text("#chat-count") == "0/500"
    page.fill("#chat-text", "howdy")
    assert page.inner_text("#chat-count") == "5/500"
    page.fill("#chat-text", "w" * 520)  # the field keeps 500
    assert page.inner_text("#chat-count") == "500/500"
    assert "full" in (page.get_attribute("#chat-count", "class") or "")
