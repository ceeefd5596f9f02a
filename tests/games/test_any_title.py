"""The core is generic: a title that exists only in the tests (``tiny-duel``, a few dozen
lines in tests/tiny_title.py, registered by a fixture, no web package) is played through the
same API, page, socket, bot task, replay check and fairness check as Colorado County,
with no change to the core."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from accounts.services import token_create
from games.models import Game, Move
from games.records.fairness import verify_export
from games.selectors import documents

pytestmark = pytest.mark.django_db(transaction=True)


def _table(api: Callable[..., Any], user: User, **extra: Any) -> dict[str, Any]:
    answer = api(user).post(
        "/api/games", {"game": "tiny-duel", "players": 2, "options": {"rounds": 3}, **extra}
    )
    assert answer.status_code == 201, answer.content
    return dict(answer.json())


def test_a_test_only_title_plays_a_whole_game_through_the_api_and_the_bot(
    tiny_title: Any, make_user: Callable[..., User], api: Callable[..., Any]
) -> None:
    alice = make_user()
    doc = _table(api, alice, bots=["high"])
    game_id = doc["id"]
    assert doc["game"] == "tiny-duel"
    assert doc["status"] == "running"
    for _round in range(3):
        doc = api(alice).get(f"/api/games/{game_id}").json()
        assert doc["legal_actions"] == [{"type": "pick", "number": n} for n in range(1, 6)]
        answer = api(alice).post(
            f"/api/games/{game_id}/actions",
            {"action": {"type": "pick", "number": 2}, "version": doc["version"]},
        )
        assert answer.status_code == 200, answer.content
    game = Game.objects.get(pk=game_id)
    # The bot (tiny-duel's own "high" bot, from the eager bot task) always picks 5.
    assert game.status == Game.Status.FINISHED
    assert game.result == {"scores": [0, 3], "ranks": [2, 1]} or game.result == {
        "scores": [3, 0],
        "ranks": [1, 2],
    }
    bot_moves = Move.objects.filter(game=game, actor=Move.Actor.BOT)
    assert [m.action for m in bot_moves] == [{"type": "pick", "number": 5}] * 3
    # Bad input to the title: the engine's code, nothing written.
    refused = api(alice).post(f"/api/games/{game_id}/actions", {"action": {"type": "pick"}})
    assert refused.status_code == 409
    # The export replays to the same result: fairness and replay_check are generic.
    export = api(alice).get(f"/api/games/{game_id}/export").json()
    assert export["game"] == "tiny-duel"
    assert verify_export(export).ok
    call_command("replay_check", str(game_id))


def test_a_test_only_title_is_shown_and_played_on_the_generic_page(
    tiny_title: Any, make_user: Callable[..., User], api: Callable[..., Any]
) -> None:
    alice, bob = make_user(), make_user()
    doc = _table(api, alice, invite=[bob.username])
    game_id = doc["id"]
    assert api(bob).post(f"/api/games/{game_id}/join").status_code == 200
    page = Client()
    page.force_login(alice)
    html = page.get(f"/games/{game_id}/").content.decode()
    assert "Tiny duel" in html
    assert 'name="action"' in html  # the generic panel: one button per legal action
    pick = json.dumps({"number": 4, "type": "pick"}, sort_keys=True)
    assert pick.replace('"', "&quot;") in html
    version = Game.objects.get(pk=game_id).version
    answer = page.post(
        f"/games/{game_id}/act/",
        {"action": pick, "version": version},
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["view"]["my_pick"] == 4
    # Bob's page does not show Alice's hidden pick; the reveal comes with his.
    other = Client()
    other.force_login(bob)
    assert "my_pick" in other.get(f"/games/{game_id}/").content.decode()
    bob_doc = documents.game_document(game=Game.objects.get(pk=game_id), user=bob)
    assert "4" not in json.dumps(bob_doc["view"])
    garbled = page.post(
        f"/games/{game_id}/act/", {"action": "{nope"}, headers={"Accept": "application/json"}
    )
    assert (garbled.status_code, garbled.json()["code"]) == (400, "bad_request")
    # The generic board comes with the panels (no script of the title redraws it).
    panels = page.get(f"/games/{game_id}/panels/").content.decode()
    assert 'id="board"' in panels
    # A title's query through the generic endpoint.
    lead = page.get(f"/games/{game_id}/query/lead/")
    assert lead.json() == {"query": "lead", "answer": 0}


class Socket:
    """A WebSocket client speaking ASGI to the application in this process (the title is
    registered here, not in a server process)."""

    def __init__(self, app: Any, path: str, token: str) -> None:
        scope = {
            "type": "websocket",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {token}".encode())],
            "subprotocols": [],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        self.comm = ApplicationCommunicator(app, scope)

    async def connect(self) -> bool:
        await self.comm.send_input({"type": "websocket.connect"})
        answer = await self.comm.receive_output(10)
        return bool(answer["type"] == "websocket.accept")

    async def receive_json_from(self, timeout: float = 10) -> dict[str, Any]:
        while True:
            out = await self.comm.receive_output(timeout)
            if out["type"] == "websocket.send":
                return dict(json.loads(out["text"]))

    async def disconnect(self) -> None:
        await self.comm.send_input({"type": "websocket.disconnect", "code": 1000})
        await self.comm.wait(5)


async def test_a_test_only_title_reaches_its_players_over_the_socket(
    tiny_title: Any, make_user: Callable[..., User], api: Callable[..., Any]
) -> None:
    from colorado.asgi import application

    alice, bob = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    doc = await sync_to_async(_table)(api, alice, invite=[bob.username])
    game_id = doc["id"]
    await sync_to_async(lambda: api(bob).post(f"/api/games/{game_id}/join"))()
    token = await sync_to_async(token_create)(user=bob)
    sock = Socket(application, f"/ws/games/{game_id}/", token)
    assert await sock.connect()
    try:
        first = await sock.receive_json_from(timeout=10)
        assert first["type"] == "game"
        assert first["my_seat"] is not None
        version = first["version"]
        answer = await sync_to_async(
            lambda: api(alice).post(
                f"/api/games/{game_id}/actions",
                {"action": {"type": "pick", "number": 3}, "version": version},
            )
        )()
        assert answer.status_code == 200
        frame = await sock.receive_json_from(timeout=10)
        while frame.get("version", 0) <= version:
            frame = await sock.receive_json_from(timeout=10)
        assert frame["type"] == "game"
        assert frame["view"]["my_pick"] is None  # Bob sees that Alice picked, not what
        assert "3" not in json.dumps(frame["view"])
    finally:
        await sock.disconnect()


def test_the_lobby_offers_every_title_and_its_form_follows_the_choice(
    tiny_title: Any, make_user: Callable[..., User]
) -> None:
    page = Client()
    page.force_login(make_user())
    lobby = page.get("/").content.decode()
    assert "Colorado County" in lobby
    assert "?title=tiny-duel" in lobby  # a second title: the lobby lets one choose
    form = page.get("/?title=tiny-duel").content.decode()
    assert 'name="title" value="tiny-duel"' in form
    assert 'name="rounds"' in form  # the options come from the title's schema
    assert 'name="lakes"' not in form
    answer = page.post(
        "/games/new/",
        {
            "title": "tiny-duel",
            "players": "2",
            "rounds": "1",
            "clock": "normal",
            "on_timeout": "bot",
            "rated": "on",
            "open_seats": "on",
            "bots": "1",
            "bot_kind": "high",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    game = Game.objects.get(title="tiny-duel")
    assert game.options == {"rounds": 1}
    assert game.status == Game.Status.RUNNING
