"""Opening a game's socket (``games.live.consumers``): one database job that reads the game and its
seats once for the check and the first document; the group joined before that read, so a
move made right after it still reaches the socket; and a seat whose player opens the table
marked seen (no "your turn" mail for a turn the player watched come)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection
from django.db.models import F

from accounts.models import User
from accounts.services import token_create
from games.engine import get_rules, title_slugs
from games.live import consumers
from games.models import Game, Seat
from tests.games.fixtures import invited_pair
from tests.games.sockets import Socket
from tests.play import act_once
from tests.waiting import async_wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


def test_opening_a_socket_is_one_database_job_reading_the_game_once(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: three jobs (the token; the game and seat for the check; the game, seats, log
    and seen mark again for the document), nine statements."""
    game, users = invited_pair(make_user)
    token = token_create(user=users[0])
    jobs: list[list[str]] = []
    real = consumers.database

    async def counted(fn: Callable[..., Any], *args: Any) -> Any:
        statements: list[str] = []
        jobs.append(statements)

        def run() -> Any:
            def record(execute: Any, sql: str, *rest: Any) -> Any:
                statements.append(sql)
                return execute(sql, *rest)

            with connection.execute_wrapper(record):
                return fn(*args)

        return await real(run)

    monkeypatch.setattr(consumers, "database", counted)

    async def scenario() -> dict[str, Any]:
        socket = Socket(f"/ws/games/{game.pk}/", token)
        await socket.connect()
        first = json.loads(await socket.receive_from(timeout=10))
        await socket.disconnect()
        return first

    first = async_to_sync(scenario)()
    assert first["type"] == "game"
    assert first["my_seat"] is not None
    assert first["version"] == game.version
    assert first["events"] == []
    assert len(jobs) == 1, jobs
    reads = [sql for sql in jobs[0] if sql.lstrip().upper().startswith("SELECT")]
    game_reads = [sql for sql in reads if '"games_game"' in sql.split("WHERE")[0].split("FROM")[1]]
    assert len(game_reads) == 1, reads  # the game, once
    seat_reads = [sql for sql in reads if 'FROM "games_seat"' in sql]
    assert len(seat_reads) == 1, reads  # its seats (with their users), once
    assert len(jobs[0]) <= 4, jobs[0]  # and the token's lookup (and its last use)


def test_a_move_made_right_after_the_first_document_reaches_the_socket(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """The socket joins its game's group before it reads its first document: a move
    committed between that read and the socket's opening is passed on, not lost until the
    version check's next round."""
    settings.SOCKET_RESYNC_SECONDS = 3600  # no version check: the frame itself must come
    game, users = invited_pair(make_user)
    token = token_create(user=users[0])
    real = consumers._open
    moved: list[Game] = []

    def open_then_move(*args: Any) -> Any:
        opened = real(*args)
        moved.append(act_once(Game.objects.get(pk=game.pk), *users))
        return opened

    monkeypatch.setattr(consumers, "_open", open_then_move)

    async def scenario() -> list[dict[str, Any]]:
        socket = Socket(f"/ws/games/{game.pk}/", token)
        await socket.connect()
        first = json.loads(await socket.receive_from(timeout=10))
        second = json.loads(await socket.receive_from(timeout=3))
        got = [first, second]
        await socket.disconnect()
        return got

    first, second = async_to_sync(scenario)()
    assert first["version"] == game.version
    assert second["version"] == moved[0].version == game.version + 1
    assert second["events"], second  # the move's own frame, with its events


def test_opening_the_table_marks_a_due_seat_seen(make_user: Callable[..., User]) -> None:
    game, users = invited_pair(make_user)
    due = {seat.user_id for seat in Seat.objects.filter(game=game) if seat.seat in game.to_act}
    assert due
    tokens = {user.pk: token_create(user=user) for user in users}

    def seen() -> dict[int, int]:
        return dict(Seat.objects.filter(game=game).values_list("user_id", "last_seen_version"))

    async def scenario() -> tuple[dict[int, int], dict[int, int]]:
        before = await sync_to_async(seen)()
        sockets = [Socket(f"/ws/games/{game.pk}/", tokens[pk]) for pk in sorted(due)]
        for socket in sockets:
            await socket.connect()
            await socket.receive_from(timeout=10)

        def marked() -> bool:  # the process's seen marks are written once a second
            now = seen()
            return all(now[user_id] == game.version for user_id in due)

        await async_wait_until(sync_to_async(marked), timeout=15, message="the seen marks")
        after = await sync_to_async(seen)()
        for socket in sockets:
            await socket.disconnect()
        return before, after

    before, after = async_to_sync(scenario)()
    for user_id in due:
        assert before[user_id] < game.version
        assert after[user_id] == game.version


def test_a_refused_socket_passes_on_nothing(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An invitation-only table: an outsider's socket is refused before it opens, and a move's
    frame sent to the game's group meanwhile reaches nobody through it."""
    game, users = invited_pair(make_user)
    game.open_seats = False
    game.save(update_fields=["open_seats"])
    outsider = token_create(user=make_user())
    real = consumers._open
    moved: list[Game] = []

    def move_then_refuse(*args: Any) -> Any:
        moved.append(act_once(Game.objects.get(pk=game.pk), *users))  # its frame waits meanwhile
        return real(*args)

    monkeypatch.setattr(consumers, "_open", move_then_refuse)

    async def scenario() -> tuple[dict[str, Any], bool]:
        socket = Socket(f"/ws/games/{game.pk}/", outsider)
        await socket.app.send_input({"type": "websocket.connect"})
        closed = await socket.app.receive_output(10)
        quiet = await socket.app.receive_nothing(timeout=1.5)  # the frame is handled meanwhile
        await socket.app.send_input({"type": "websocket.disconnect", "code": 1000})
        await socket.app.wait(5)
        return closed, quiet

    closed, quiet = async_to_sync(scenario)()
    assert moved
    assert moved[0].version == game.version + 1
    assert closed == {"type": "websocket.close", "code": consumers.CLOSE_NOT_ALLOWED}
    assert quiet  # nothing sent after the refusal


@pytest.mark.parametrize(
    "title", [slug for slug in title_slugs() if get_rules(slug).max_players >= 3]
)
def test_the_sockets_plain_read_gives_the_documents_the_orm_read_gives(
    make_user: Callable[..., User], title: str
) -> None:
    """``documents.game_with_seats`` (two plain statements) against the ORM's read of the
    same game: the same seats in the same order and the same document for every seat and
    for a spectator, on a table still open (seats without a number yet), at its start and
    after moves."""
    from django.contrib.auth.models import AnonymousUser

    from games.selectors import documents
    from games.tables import lifecycle
    from tests.play import play_randomly

    users = [make_user() for _ in range(3)]
    game = lifecycle.game_create(creator=users[0], title=title, players=3, open_seats=True)
    game = lifecycle.game_join(game_id=game.pk, user=users[1])
    stages = [game]
    game = lifecycle.game_join(game_id=game.pk, user=users[2])
    stages.append(game)
    stages.append(play_randomly(game, users, seed=5, limit=9))
    for stage in stages:
        found = documents.game_with_seats(stage.pk)
        assert found is not None
        plain, got = found
        orm = Game.objects.select_related("created_by").get(pk=stage.pk)
        expected = list(
            Seat.objects.filter(game=orm)
            .select_related("user")
            .order_by(F("seat").asc(nulls_last=True), "joined_at", "id")
        )
        assert [(s.pk, s.seat, s.user.username) for s in got] == [
            (s.pk, s.seat, s.user.username) for s in expected
        ]
        for viewer in [*users, make_user(), AnonymousUser()]:
            assert documents.game_document(
                game=plain, user=viewer, seats=got
            ) == documents.game_document(game=orm, user=viewer)
    assert documents.game_with_seats(stages[-1].pk + 1000) is None
    assert documents.game_with_seats(0) is None
