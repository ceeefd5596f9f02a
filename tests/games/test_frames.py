"""Socket frames after a move: built once per seat by the server; each socket sends on its own
seat's frame only; a socket that missed a version reads its own document instead of passing
on a frame that does not follow what it showed (docs/api.md, "The game socket")."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from accounts.models import User
from accounts.services import token_create
from games import moves
from games.engine import get_rules, title_slugs
from games.live import broadcast
from games.live import frames as frames_module
from games.live.broadcast import frame_key, group_name
from games.models import Game
from games.selectors import documents
from games.tables import lifecycle
from tests.games.fixtures import invited_pair
from tests.games.sockets import connect
from tests.play import act_once
from tests.waiting import WaitTimeout, async_wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


def test_each_seat_gets_its_own_frame_after_a_move(make_user: Callable[..., User]) -> None:
    game, users = invited_pair(make_user)
    tokens = [token_create(user=u) for u in users]

    async def scenario() -> list[dict[str, Any]]:
        sockets = [await connect(game.pk, t) for t in tokens]
        for s in sockets:
            first = json.loads(await s.receive_from(timeout=10))
            assert first["version"] == 1
        from asgiref.sync import sync_to_async

        await sync_to_async(act_once)(game, *users)
        frames = [json.loads(await s.receive_from(timeout=10)) for s in sockets]
        for s in sockets:
            await s.disconnect()
        return frames

    frames = async_to_sync(scenario)()
    seats = {u.pk: documents.seat_for_user(game=game, user=u).seat for u in users}  # type: ignore[union-attr]
    for user, frame in zip(users, frames, strict=True):
        # The socket passes on its own seat's frame, never the message carrying them all.
        assert set(frame) == {"type", *frames_module.FRAME_KEYS, "events"}
        assert frame["type"] == "game"
        assert frame["version"] == 2
        assert frame["my_seat"] == seats[user.pk]
        assert frame["view"]["seat"] == seats[user.pk]
        assert frame["view"].get("hand")  # my own cowboys, in my own frame


def test_a_frame_that_skips_a_version_makes_the_socket_read_its_document(
    make_user: Callable[..., User],
) -> None:
    game, users = invited_pair(make_user)
    alice = users[0]
    seat = documents.seat_for_user(game=game, user=alice).seat  # type: ignore[union-attr]
    token = token_create(user=alice)

    async def scenario() -> dict[str, Any]:
        socket = await connect(game.pk, token)
        await socket.receive_from(timeout=10)  # version 1
        layer = get_channel_layer()
        # A frame that claims to follow version 5: this socket showed 1, so it must not be
        # passed on; the socket reads the real document (still version 1 → nothing newer).
        await layer.group_send(
            group_name(game.pk),
            {
                "type": "game.frame",
                "version": 6,
                "since": 5,
                "to_act": [],
                "frames": {
                    frame_key(seat): json.dumps({"type": "game", "version": 6, "forged": True})
                },
            },
        )
        reply = json.loads(await socket.receive_from(timeout=10))
        await socket.disconnect()
        return reply

    reply = async_to_sync(scenario)()
    assert "forged" not in reply
    assert reply["version"] == 1
    assert reply["view"]["seat"] == seat


def test_a_resignation_reaches_the_other_players_socket_at_the_same_version(
    make_user: Callable[..., User],
) -> None:
    """A hand-over keeps the game's version; the other player's table must still show that
    the seat is now the bot's (docs/clocks.md: resigning hands the seat to a bot)."""
    from games.clocks.seats import seat_resign

    game, users = invited_pair(make_user)
    alice, bob = users
    alice_seat = documents.seat_for_user(game=game, user=alice).seat  # type: ignore[union-attr]
    token = token_create(user=bob)

    async def scenario() -> dict[str, Any]:
        from asgiref.sync import sync_to_async

        socket = await connect(game.pk, token)
        first = json.loads(await socket.receive_from(timeout=10))
        await sync_to_async(seat_resign)(game_id=game.pk, user=alice)
        frame = json.loads(await socket.receive_from(timeout=10))
        while frame.get("version") == first["version"] and not frame.get("refresh"):
            frame = json.loads(await socket.receive_from(timeout=10))
        await socket.disconnect()
        return frame

    frame = async_to_sync(scenario)()
    row = next(s for s in frame["seats"] if s["seat"] == alice_seat)
    assert frame["refresh"] is True
    assert row["is_bot"] is True


def test_a_player_watching_live_is_marked_seen_and_gets_no_turn_mail(
    make_user: Callable[..., User],
) -> None:
    """docs/clocks.md: no "your turn" mail while the player watches the table live. The frame
    passed on to the socket of a seat that became due marks it seen (written within a
    second, and at the latest when the socket closes)."""
    from asgiref.sync import sync_to_async

    from games.models import Seat
    from notifications.turn_mails import turn_mail_send

    # With addresses: a turn mail is wanted, so only having watched can hold it back.
    counter = iter(range(100))
    game, users = invited_pair(
        lambda name: make_user(name, email=f"watcher{next(counter)}@example.org")
    )
    tokens = [token_create(user=u) for u in users]

    def seen() -> dict[int, int]:
        return {s.seat: s.last_seen_version for s in Seat.objects.filter(game=game)}

    async def scenario() -> tuple[Game, dict[int, int], dict[int, int]]:
        sockets = [await connect(game.pk, t) for t in tokens]
        for s in sockets:
            await s.receive_from(timeout=10)
        moved = await sync_to_async(act_once)(game, *users)
        for s in sockets:
            await s.receive_from(timeout=10)

        def marked() -> bool:  # the batch of marks is written once a second
            now = seen()
            return all(now[seat] == moved.version for seat in moved.to_act)

        await async_wait_until(sync_to_async(marked), timeout=15, message="the seen marks")
        while_open = await sync_to_async(seen)()
        for s in sockets:
            await s.disconnect()
        return moved, while_open, await sync_to_async(seen)()

    moved, while_open, after = async_to_sync(scenario)()
    assert moved.to_act
    for seat in moved.to_act:
        assert while_open[seat] == moved.version
        assert after[seat] == moved.version
        row = Seat.objects.get(game=game, seat=seat)
        assert turn_mail_send(seat_id=row.pk, version=moved.version) is False
    # Control: had the player not looked, the mail would have left.
    row = Seat.objects.get(game=game, seat=moved.to_act[0])
    Seat.objects.filter(pk=row.pk).update(last_seen_version=0)
    assert turn_mail_send(seat_id=row.pk, version=moved.version) is True


def _strict(a: Any, b: Any) -> bool:
    """Equal and of the same JSON types all the way down (``True`` is not ``1`` here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_strict(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_strict(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@pytest.mark.parametrize("title", title_slugs())
def test_frames_shared_json_is_each_frame_exactly(
    make_user: Callable[..., User], title: str
) -> None:
    """``games.live.frames.frames_json`` encodes what the seats share once; each text still decodes
    to exactly its own frame (types included), move after move of a whole game."""
    import random

    from games.store.state_cache import load_state

    players = min(3, get_rules(title).max_players)
    users = [make_user() for _ in range(players)]
    game = lifecycle.game_create(
        creator=users[0], title=title, players=players, invite=[u.username for u in users[1:]]
    )
    for user in users[1:]:
        game = lifecycle.game_join(game_id=game.pk, user=user)
    rng = random.Random(7)  # noqa: S311 (random test games)
    checked = 0
    while game.status == Game.Status.RUNNING and checked < 400:
        game.refresh_from_db()
        due = [
            (u, d)
            for u in users
            if (d := documents.game_document(game=game, user=u))["my_seat"] in d["to_act"]
            and d["legal_actions"]
        ]
        if not due:
            break
        user, doc = rng.choice(due)
        game = moves.action_submit(
            game_id=game.pk,
            user=user,
            action=rng.choice(doc["legal_actions"]),
            version=doc["version"],
        )
        move = game.moves.order_by("-version").first()  # type: ignore[attr-defined]
        frames = frames_module.move_frames(game=game, moves=[move], state=load_state(game))
        texts = frames_module.frames_json(frames)
        assert texts.keys() == frames.keys()
        for number, frame in frames.items():
            assert _strict(json.loads(texts[number]), json.loads(json.dumps(frame)))
        checked += 1
    assert checked > 20


def test_a_socket_keeps_no_frames_after_passing_its_own_on(
    make_user: Callable[..., User],
) -> None:
    """An idle table's socket must not hold a move's message (every seat's frame) until the
    table moves again: 2,000 idle sockets grew by ~25 KB each that way
    (docs/benchmarks/history.md)."""
    import gc
    import sys

    game, users = invited_pair(make_user)
    token = token_create(user=users[0])
    seat = documents.seat_for_user(game=game, user=users[0]).seat  # type: ignore[union-attr]
    # A text of its own: a str survives the layer's copy as the same object, so a copy of
    # the message kept alive anywhere shows as one more reference to it.
    text = json.dumps({"type": "game", "version": 2, "marker": "x" * 50_000})
    frames = {frame_key(seat): text, frame_key(None): "{}"}

    async def scenario() -> tuple[bool, int]:
        socket = await connect(game.pk, token)
        await socket.receive_from(timeout=10)
        before = sys.getrefcount(text)
        layer = get_channel_layer()
        message = {"type": "game.frame", "version": 2, "since": 1, "frames": frames, "to_act": []}
        await layer.group_send(group_name(game.pk), message)
        same = await socket.receive_from(timeout=10) == text
        held = 0

        def let_go() -> bool:  # once the consumer's loop has gone back to waiting
            nonlocal held
            gc.collect()
            held = sys.getrefcount(text) - before
            return held == 0

        with contextlib.suppress(WaitTimeout):  # the assert below says what is held
            await async_wait_until(let_go, timeout=5)
        await socket.disconnect()
        return same, held

    same, held = async_to_sync(scenario)()
    assert same
    assert held == 0, f"{held} copies of the move's frames still held by the socket"


def test_a_socket_whose_client_left_before_its_resync_is_no_error(
    make_user: Callable[..., User], caplog: Any, monkeypatch: Any, settings: Any
) -> None:
    """The version watch resynchronises the sockets of a game whose frames the channel layer
    lost. When a client has just gone, uvicorn raises ``ClientDisconnected`` on its socket's
    send: a player closing a tab is not an error for the operator's log, and the other
    sockets of the game are still brought up to date."""
    import logging

    from asgiref.sync import sync_to_async
    from uvicorn.protocols.utils import ClientDisconnected

    from games.live.watch import version_watch

    settings.SOCKET_RESYNC_SECONDS = 3600  # the test runs the watch's check itself, once
    game, users = invited_pair(make_user)
    tokens = [token_create(user=u) for u in users]

    async def scenario() -> tuple[dict[str, Any], int]:
        sockets = [await connect(game.pk, t) for t in tokens]
        for s in sockets:
            assert json.loads(await s.receive_from(timeout=10))["version"] == 1
        gone, staying = sorted(version_watch.sockets[game.pk], key=lambda c: c.user.pk)
        assert gone.user.pk == users[0].pk

        async def disconnected(message: dict[str, Any]) -> None:  # uvicorn's, once the client left
            raise ClientDisconnected

        gone.base_send = disconnected
        # The move's frames are lost on the way (a Redis outage): only the watch can tell.
        monkeypatch.setattr(broadcast, "group_send", lambda *args, **kwargs: None)
        await sync_to_async(act_once)(game, *users)
        for consumer in (gone, staying):
            consumer.last_sent = -1e9  # quiet for long enough
        with caplog.at_level(logging.DEBUG, logger="games.live.watch"):
            await version_watch.check()
        caught_up = json.loads(await sockets[1].receive_from(timeout=10))
        for s in sockets:
            await s.disconnect()
        return caught_up, gone.version

    caught_up, gone_version = async_to_sync(scenario)()
    assert caught_up["version"] == 2  # the other player's socket was brought up to date
    assert gone_version == 2  # the watch tried the departed one's resync too, and went on
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert any("closed before its resync" in r.getMessage() for r in caplog.records)
