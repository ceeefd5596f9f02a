"""The sockets' seen marks (``games.live.seen_marks``): written in one statement per batch on
PostgreSQL, never waiting for a seat a move holds locked (the mark is written at the next
flush instead), never lowering a seat's mark."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.live import seen_marks
from games.models import Game, Seat
from tests.games.fixtures import running_pair
from tests.waiting import async_wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def _marks(game: Game) -> dict[int, int]:
    return dict(Seat.objects.filter(game=game).values_list("user_id", "last_seen_version"))


def _tables(make_user: Callable[..., User], n: int) -> list[tuple[Game, list[User]]]:
    return [running_pair(make_user) for _ in range(n)]


@pytest.mark.postgres
def test_a_batch_of_marks_is_one_statement_and_never_lowers_a_mark(
    make_user: Callable[..., User],
) -> None:
    tables = _tables(make_user, 3)
    marks = {(g.pk, u.pk): 5 for g, users in tables for u in users}
    (g0, u0) = tables[0][0], tables[0][1][0]
    Seat.objects.filter(game=g0, user=u0).update(last_seen_version=9)
    with CaptureQueriesContext(connection) as queries:
        skipped = seen_marks.mark_many(marks)
    assert skipped == []
    assert len(queries) == 1  # six seats of three tables: one round trip, one commit
    for game, users in tables:
        expected = {u.pk: 5 for u in users}
        if game.pk == g0.pk:
            expected[u0.pk] = 9  # already further: kept
        assert _marks(game) == expected


class _Holder:
    """Another connection holding one seat's row lock, as a move does until its commit."""

    def __init__(self, game_id: int, user_id: int) -> None:
        self.locked = threading.Event()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._hold, args=(game_id, user_id))
        self.thread.start()
        assert self.locked.wait(10)

    def _hold(self, game_id: int, user_id: int) -> None:
        try:
            with connections["default"].cursor() as cursor:
                cursor.execute("BEGIN")
                cursor.execute(
                    "SELECT id FROM games_seat WHERE game_id = %s AND user_id = %s FOR UPDATE",
                    [game_id, user_id],
                )
                self.locked.set()
                self.done.wait(30)
                cursor.execute("COMMIT")
        finally:
            connections.close_all()

    def release(self) -> None:
        self.done.set()
        self.thread.join(30)


@pytest.mark.postgres
def test_a_seat_a_move_holds_locked_is_skipped_without_waiting_and_written_later(
    make_user: Callable[..., User],
) -> None:
    (game, users), (other, others) = _tables(make_user, 2)
    holder = _Holder(game.pk, users[0].pk)
    try:
        marks = {(game.pk, users[0].pk): 3, (game.pk, users[1].pk): 3, (other.pk, others[0].pk): 3}
        # It returns while the move still holds the seat (the holder lets go only after it):
        # the old one UPDATE per seat waited here until the move committed, for ever.
        skipped = seen_marks.mark_many(marks)
    finally:
        holder.release()
    assert skipped == [(game.pk, users[0].pk)]
    assert _marks(game) == {users[0].pk: 0, users[1].pk: 3}
    assert _marks(other)[others[0].pk] == 3
    assert seen_marks.mark_many({(game.pk, users[0].pk): 3}) == []
    assert _marks(game)[users[0].pk] == 3


@pytest.mark.postgres
def test_the_process_batch_writes_a_skipped_mark_at_a_later_flush(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The flush loop keeps going while marks are pending: a mark skipped because a move
    held the seat lands a flush later, with no other socket activity to wake it."""
    from asgiref.sync import async_to_sync, sync_to_async

    game, users = running_pair(make_user)
    monkeypatch.setattr(seen_marks, "SEEN_FLUSH_SECONDS", 0.1)
    results: list[list[tuple[int, int]]] = []
    real = seen_marks.mark_many

    def recorded(marks: dict[tuple[int, int], int]) -> list[tuple[int, int]]:
        results.append(real(marks))
        return results[-1]

    monkeypatch.setattr(seen_marks, "mark_many", recorded)
    holder = _Holder(game.pk, users[0].pk)
    batch = seen_marks.SeenMarks()

    async def scenario() -> dict[int, int]:
        batch.add(game.pk, users[0].pk, 4)
        await async_wait_until(lambda: results, timeout=10, message="a first flush")
        await sync_to_async(holder.release)()
        assert batch.task is not None
        await asyncio.wait_for(batch.task, 10)
        return await sync_to_async(_marks)(game)

    try:
        assert async_to_sync(scenario)()[users[0].pk] == 4
    finally:
        holder.release()
    assert results[0] == [(game.pk, users[0].pk)]  # skipped while the seat was locked
    assert results[-1] == []
