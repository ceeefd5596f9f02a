"""The game page sends its moves over its WebSocket, and as a plain POST of the form when
the socket is down (docs/api.md, "Moves over the socket")."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from .driver import Tally, page_wait_until, play_one, sign_in, wait_js

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def _wait(page: Any, predicate: Callable[[], bool], timeout: float = 20) -> None:
    page_wait_until(page, predicate, timeout=timeout, interval=0.1)


def _move(page: Any) -> None:
    """Make one move through the page (waiting until it offers one)."""
    tally = Tally()
    page_wait_until(
        page, lambda: play_one(page, tally), timeout=20, interval=0.2, message="a move offered"
    )


def test_the_page_moves_over_its_socket_and_over_http_when_it_is_down(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from games.models import Game, Move

    alice = player("alice")
    page = new_page()
    sign_in(page, asgi_server, "alice", "pw-alice-2026")

    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    sent: list[dict[str, Any]] = []
    routes: list[Any] = []
    down = {"now": False}

    def socket(ws: Any) -> None:
        if down["now"]:  # the socket server is unreachable: every reconnect fails
            ws.close()
            return
        server = ws.connect_to_server()
        routes.append(ws)

        def to_server(message: str | bytes) -> None:
            if isinstance(message, str):
                sent.append(json.loads(message))
            server.send(message)

        ws.on_message(to_server)

    page.route_web_socket(re.compile(r"/ws/games/"), socket)
    # A table against the random bot, opened from the lobby (the bot plays in the server).
    page.select_option("#id_players", "2")
    page.fill("#id_bots", "1")
    page.select_option("#id_bot_kind", "random")
    page.click("text=Open the table")
    page.wait_for_selector(".live-status.on")
    game = Game.objects.get(created_by=alice)

    def my_moves() -> list[Any]:
        return list(Move.objects.filter(game=game, user=alice).order_by("version"))

    # A move made by clicking (a lit cell, cowboys) travels over the socket: no POST.
    _move(page)
    _wait(page, lambda: len(my_moves()) == 1)
    actions = [m for m in sent if m.get("type") == "action"]
    assert len(actions) == 1
    first = my_moves()[0]
    assert first.client_id == actions[0]["client_id"]
    assert first.client_id.startswith("page:")
    assert not [url for url in posts if "/act" in url]
    wait_js(
        page,
        "v => Number(document.querySelector('.act').dataset.version) > v",
        arg=first.version - 1,
    )

    # The socket goes down (and cannot come back): the next move is a POST of the form.
    down["now"] = True
    for route in routes:
        route.close()
    page.wait_for_selector(".live-status.off")
    page.reload()  # the bot has moved meanwhile; the page shows it without its socket
    assert page.locator(".live-status.on").count() == 0
    _move(page)
    _wait(page, lambda: len(my_moves()) == 2)
    assert [url for url in posts if f"/games/{game.pk}/act" in url]
    assert len([m for m in sent if m.get("type") == "action"]) == 1  # none more by socket
    assert my_moves()[1].client_id.startswith("page:")
