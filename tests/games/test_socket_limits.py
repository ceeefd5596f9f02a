"""Socket limits (issue 41, item 9): one account holds only so many sockets, and ``hello``
(a whole document each time) is rate-limited per socket."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator

from accounts.models import User
from accounts.services import token_create
from games.tables import lifecycle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


def _scope(path: str, headers: list[tuple[bytes, bytes]], client: str = "127.0.0.1") -> dict:
    return {
        "type": "websocket",
        "path": path,
        "query_string": b"",
        "headers": [(b"host", b"localhost"), *headers],
        "subprotocols": [],
        "client": (client, 1234),
        "server": ("127.0.0.1", 80),
    }


def test_an_account_holds_only_so_many_sockets(
    make_user: Callable[..., User], settings: Any
) -> None:
    settings.SOCKETS_PER_ACCOUNT = 3
    from colorado.asgi import application

    alice = make_user()
    game = lifecycle.game_create(creator=alice, players=2)
    header = (b"authorization", f"Bearer {token_create(user=alice)}".encode())

    async def run() -> list[Any]:
        opened, answers = [], []
        for _ in range(4):
            app = ApplicationCommunicator(application, _scope(f"/ws/games/{game.pk}/", [header]))
            await app.send_input({"type": "websocket.connect"})
            answer = await app.receive_output(10)
            answers.append(answer)
            if answer["type"] == "websocket.accept":
                await app.receive_output(10)  # the first frame
                opened.append(app)
        # One closes: its place is free again.
        await opened[0].send_input({"type": "websocket.disconnect", "code": 1000})
        await opened[0].wait(5)
        again = ApplicationCommunicator(application, _scope(f"/ws/games/{game.pk}/", [header]))
        await again.send_input({"type": "websocket.connect"})
        answers.append(await again.receive_output(10))
        await again.receive_output(10)
        for app in [*opened[1:], again]:
            await app.send_input({"type": "websocket.disconnect", "code": 1000})
            await app.wait(5)
        return answers

    answers = async_to_sync(run)()
    assert [a["type"] for a in answers[:3]] == ["websocket.accept"] * 3
    assert answers[3] == {"type": "websocket.close", "code": 4429}
    assert answers[4]["type"] == "websocket.accept"


def test_anonymous_sockets_are_held_per_address(
    make_user: Callable[..., User], settings: Any
) -> None:
    settings.SOCKETS_PER_ADDRESS = 2
    from colorado.asgi import application

    game = lifecycle.game_create(creator=make_user(), players=2)
    origin = (b"origin", b"http://localhost")

    async def run() -> list[str]:
        kinds, opened = [], []
        for client in ("203.0.113.1", "203.0.113.1", "203.0.113.1", "203.0.113.2"):
            app = ApplicationCommunicator(
                application, _scope(f"/ws/games/{game.pk}/", [origin], client)
            )
            await app.send_input({"type": "websocket.connect"})
            answer = await app.receive_output(10)
            kinds.append(answer["type"])
            if answer["type"] == "websocket.accept":
                await app.receive_output(10)
                opened.append(app)
        for app in opened:
            await app.send_input({"type": "websocket.disconnect", "code": 1000})
            await app.wait(5)
        return kinds

    assert async_to_sync(run)() == [
        "websocket.accept",
        "websocket.accept",
        "websocket.close",
        "websocket.accept",
    ]


def test_hello_is_rate_limited(make_user: Callable[..., User]) -> None:
    from colorado.asgi import application

    alice = make_user()
    game = lifecycle.game_create(creator=alice, players=2)
    header = (b"authorization", f"Bearer {token_create(user=alice)}".encode())

    async def run() -> list[dict[str, Any]]:
        app = ApplicationCommunicator(application, _scope(f"/ws/games/{game.pk}/", [header]))
        await app.send_input({"type": "websocket.connect"})
        assert (await app.receive_output(10))["type"] == "websocket.accept"
        await app.receive_output(10)
        replies = []
        for _ in range(20):
            await app.send_input(
                {"type": "websocket.receive", "text": json.dumps({"type": "hello", "version": 0})}
            )
            replies.append(json.loads((await app.receive_output(10))["text"]))
        await app.send_input({"type": "websocket.disconnect", "code": 1000})
        await app.wait(5)
        return replies

    replies = async_to_sync(run)()
    documents = [r for r in replies if r.get("type") == "game"]
    refused = [r for r in replies if r.get("code") == "throttled"]
    assert 1 <= len(documents) <= 6
    assert len(refused) == 20 - len(documents)
