"""How a socket handshake authenticates (docs/api.md, "The game socket"): the session cookie, a
short-lived single-use ticket from ``POST /api/socket-ticket``, or ``Authorization: Bearer``
— never a long-lived token in the URL, which the server's access log would keep."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.test import Client

from accounts.models import User
from accounts.services import token_create
from games.models import Game
from games.tables import lifecycle
from tests.waiting import async_wait_until, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


def _handshake(
    game_id: int, *, query: str = "", headers: list[tuple[bytes, bytes]] | None = None
) -> dict[str, Any]:
    """Open a socket through the whole ASGI application (Origin check, session middleware,
    consumer) and return what the server answered first: accept with the first frame, or
    the close and its code."""
    from colorado.asgi import application

    scope = {
        "type": "websocket",
        "path": f"/ws/games/{game_id}/",
        "query_string": query.encode(),
        "headers": [(b"host", b"localhost"), *(headers or [])],
        "subprotocols": [],
        "client": ("127.0.0.1", 1234),
        "server": ("127.0.0.1", 80),
    }

    async def run() -> dict[str, Any]:
        app = ApplicationCommunicator(application, scope)
        await app.send_input({"type": "websocket.connect"})
        answer = await app.receive_output(10)
        if answer["type"] == "websocket.accept":
            answer["frame"] = await app.receive_output(10)
        # The client's side of the closing handshake, as a browser sends it after a close:
        # without it the consumer waits for it until ``wait`` gives up.
        await app.send_input({"type": "websocket.disconnect", "code": answer.get("code", 1000)})
        await app.wait(5)
        return dict(answer)

    return dict(async_to_sync(run)())


def _accepted_seat(answer: dict[str, Any]) -> int | None:
    import json

    assert answer["type"] == "websocket.accept", answer
    frame = json.loads(answer["frame"]["text"])
    assert frame["type"] == "game"
    return frame["my_seat"]  # type: ignore[no-any-return]


def _refused(answer: dict[str, Any]) -> bool:
    return answer["type"] == "websocket.close" and answer.get("code") == 4403


def _private_game(make_user: Callable[..., User]) -> tuple[Game, User]:
    """An invitation-only table: anonymous visitors may not watch it."""
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2, invite=[bob.username], open_seats=False)
    lifecycle.game_join(game_id=game.pk, user=bob)
    return game, alice


def _ticket(user: User) -> str:
    response = Client().post(
        "/api/socket-ticket", headers={"Authorization": f"Bearer {token_create(user=user)}"}
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["expires_in"] == 60
    return str(body["ticket"])


def test_a_ticket_opens_one_socket_once(make_user: Callable[..., User]) -> None:
    game, alice = _private_game(make_user)
    ticket = _ticket(alice)
    assert _accepted_seat(_handshake(game.pk, query=f"ticket={ticket}")) is not None
    # Single use: the same ticket again (a replayed or leaked URL) is refused.
    assert _refused(_handshake(game.pk, query=f"ticket={ticket}"))


def test_an_expired_ticket_is_refused(make_user: Callable[..., User]) -> None:
    from django.core.cache import cache

    from accounts.services import _ticket_key, socket_ticket_create

    game, alice = _private_game(make_user)
    ticket = socket_ticket_create(user=alice, seconds=1)
    # Its second is up once the cache has let it go (looking does not use it up).
    wait_until(lambda: cache.get(_ticket_key(ticket)) is None, timeout=10)
    assert _refused(_handshake(game.pk, query=f"ticket={ticket}"))


def test_a_made_up_ticket_is_refused(make_user: Callable[..., User]) -> None:
    game, _alice = _private_game(make_user)
    assert _refused(_handshake(game.pk, query="ticket=made-up"))


def test_a_ticket_needs_a_signed_in_caller(client: Client) -> None:
    response = client.post("/api/socket-ticket")
    assert response.status_code == 401
    assert response.json()["code"] == "not_signed_in"


def test_a_script_may_send_its_token_as_a_header(make_user: Callable[..., User]) -> None:
    game, alice = _private_game(make_user)
    header = (b"authorization", f"Bearer {token_create(user=alice)}".encode())
    assert _accepted_seat(_handshake(game.pk, headers=[header])) is not None
    assert _refused(_handshake(game.pk, headers=[(b"authorization", b"Bearer not-a-token")]))


def test_a_token_in_the_url_is_refused_even_when_valid(make_user: Callable[..., User]) -> None:
    """``?token=`` would write a long-lived secret into every access log on the way."""
    game, alice = _private_game(make_user)
    assert _refused(_handshake(game.pk, query=f"token={token_create(user=alice)}"))
    public = lifecycle.game_create(creator=make_user(), players=2)
    assert _refused(_handshake(public.pk, query=f"token={token_create(user=alice)}"))


def test_a_cookie_socket_still_needs_our_origin(make_user: Callable[..., User]) -> None:
    game, alice = _private_game(make_user)
    client = Client()
    client.force_login(alice)
    cookie = (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())
    ours = _handshake(game.pk, headers=[cookie, (b"origin", b"http://localhost")])
    assert _accepted_seat(ours) is not None
    for headers in ([cookie], [cookie, (b"origin", b"http://evil.example")]):
        answer = _handshake(game.pk, headers=headers)
        assert answer["type"] == "websocket.close", answer


def _cookie_of(user: User) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


def test_a_session_signed_out_by_a_new_password_opens_no_private_socket(
    make_user: Callable[..., User],
) -> None:
    """Django's session check holds for sockets: a password changed elsewhere signs every
    older session out, and its cookie no longer opens an invitation-only table."""
    game, alice = _private_game(make_user)
    cookie = _cookie_of(alice)
    origin = (b"origin", b"http://localhost")
    assert _accepted_seat(_handshake(game.pk, headers=[cookie, origin])) is not None
    alice.set_password("a new one, changed elsewhere")
    alice.save()
    assert _refused(_handshake(game.pk, headers=[cookie, origin]))


def test_cookie_sockets_open_while_channels_one_thread_is_busy(
    make_user: Callable[..., User],
) -> None:
    """The session's user is read in the database threads: a handshake does not queue
    behind whatever holds the process's one thread for thread-sensitive synchronous code
    (Channels' ``AuthMiddlewareStack`` read it there, one handshake after another)."""
    import json
    import threading

    from asgiref.sync import sync_to_async

    from colorado.asgi import application

    game, alice = _private_game(make_user)
    scope = {
        "type": "websocket",
        "path": f"/ws/games/{game.pk}/",
        "query_string": b"",
        "headers": [(b"host", b"localhost"), _cookie_of(alice), (b"origin", b"http://localhost")],
        "subprotocols": [],
        "client": ("127.0.0.1", 1234),
        "server": ("127.0.0.1", 80),
    }
    release, holding = threading.Event(), threading.Event()

    def hold() -> None:
        holding.set()
        release.wait(30)

    async def run() -> dict[str, Any]:
        held = asyncio.ensure_future(sync_to_async(hold, thread_sensitive=True)())
        await async_wait_until(holding.is_set, timeout=10)  # the one thread is now waiting
        app = ApplicationCommunicator(application, scope)
        try:
            await app.send_input({"type": "websocket.connect"})
            answer = await app.receive_output(5)
            frame = json.loads((await app.receive_output(5))["text"])
        finally:
            release.set()
            await held
        # Closing may use the thread (it was free to, once the socket had opened).
        await app.send_input({"type": "websocket.disconnect", "code": 1000})
        await app.wait(5)
        return {"answer": answer["type"], "seat": frame["my_seat"]}

    got = async_to_sync(run)()
    assert got["answer"] == "websocket.accept"
    assert got["seat"] is not None


@pytest.mark.parametrize("query", ["ticket=", "ticket=&x=1", "x=1&ticket=", "token=", "ticket"])
def test_a_cookie_socket_needs_our_origin_whatever_the_query(
    make_user: Callable[..., User], query: str
) -> None:
    """Issue 41: an empty ``?ticket=`` let a cookie handshake skip the Origin check."""
    game, alice = _private_game(make_user)
    cookie = _cookie_of(alice)
    for headers in ([cookie], [cookie, (b"origin", b"http://evil.example")]):
        answer = _handshake(game.pk, query=query, headers=headers)
        assert answer["type"] == "websocket.close", answer


def test_a_ticket_beside_a_cookie_still_needs_our_origin(make_user: Callable[..., User]) -> None:
    """A handshake that carries a cookie is a browser's: its Origin is checked, whatever
    credential the query string adds."""
    game, alice = _private_game(make_user)
    answer = _handshake(game.pk, query=f"ticket={_ticket(alice)}", headers=[_cookie_of(alice)])
    assert answer["type"] == "websocket.close", answer
