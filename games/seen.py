# ruff: noqa: S608 — the statement's names come from model metadata, quoted; values are parameters.
"""Seen marks: a seat's ``last_seen_version``, raised when its player watches the table
live while the seat is due, so that no "your turn" mail goes to a player who saw the turn
come (``notifications.services``).

A frame passed on to a socket marks its seat (``games.consumers``). The marks of all the
process's sockets wait in ``seen_marks`` and are written together once a second, and a
socket's own when it closes. On PostgreSQL a batch is ONE statement and one commit
(``mark_many``) that skips the seats a move holds locked: it never waits for a lock, so it
never holds a move up and can never be part of a deadlock; the marks it skipped are
written at the next flush. Measured before (docs/benchmarks/history.md, "Fifth pass"): one UPDATE
and one commit per seat, about one for every two moves under load, each waiting on average
2 ms for the seat's lock, which the moves then waited for in turn. A mark lost with a
crashed process costs at worst a "your turn" mail the player did not need.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from functools import cache
from typing import Any

from django.db import connection

from games import db_threads, rows
from games.models import Seat
from games.moves.store import check_id

log = logging.getLogger(__name__)

Key = tuple[int, int]  # (game id, user id)

SEEN_FLUSH_SECONDS = 1.0


@cache
def _batch_sql() -> str:
    """``mark_many``'s statement on PostgreSQL, built once from the model's names."""
    quote = connection.ops.quote_name
    table = quote(Seat._meta.db_table)
    game, user, seen = (
        rows.column_name(Seat, name) for name in ("game", "user", "last_seen_version")
    )
    pk = quote(Seat._meta.pk.column)
    return (
        "WITH v (game_id, user_id, version) AS ("
        "SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::integer[])), "
        f"due AS (SELECT s.{pk} AS id, v.version FROM {table} s "
        f"JOIN v ON s.{game} = v.game_id AND s.{user} = v.user_id "
        f"WHERE s.{seen} < v.version FOR UPDATE OF s SKIP LOCKED), "
        f"done AS (UPDATE {table} s SET {seen} = due.version FROM due WHERE s.{pk} = due.id "
        f"RETURNING s.{game} AS game_id, s.{user} AS user_id) "
        "SELECT v.game_id, v.user_id FROM v "
        "WHERE NOT EXISTS (SELECT 1 FROM done "
        "WHERE done.game_id = v.game_id AND done.user_id = v.user_id) "
        f"AND EXISTS (SELECT 1 FROM {table} s WHERE s.{game} = v.game_id "
        f"AND s.{user} = v.user_id AND s.{seen} < v.version)"
    )


def mark_many(marks: Mapping[Key, int]) -> list[Key]:
    """Raise ``last_seen_version`` of the seat of each ``(game id, user id)`` to its
    version (never lower it). Returns the keys not written because a move held the seat
    locked (PostgreSQL; the caller tries them again later). Elsewhere (SQLite: one writer
    at a time anyway) one plain UPDATE each, and nothing is left over."""
    if not marks:
        return []
    if connection.vendor != "postgresql":
        for (game_id, user_id), version in marks.items():
            rows.raise_to(Seat, "last_seen_version", version, game=game_id, user=user_id)
        return []
    keys = list(marks)
    with connection.cursor() as cursor:
        cursor.execute(
            _batch_sql(),
            [[g for g, _u in keys], [u for _g, u in keys], [marks[k] for k in keys]],
        )
        return [(int(g), int(u)) for g, u in cursor.fetchall()]


class SeenMarks:
    """The process's pending marks, written once a second (see the module's docstring)."""

    def __init__(self) -> None:
        self.pending: dict[Key, int] = {}
        self.task: asyncio.Task[None] | None = None

    def add(self, game_id: int, user_id: int, version: int) -> None:
        key = (game_id, user_id)
        if self.pending.get(key, -1) < version:
            self.pending[key] = version
        self._schedule()

    def _schedule(self) -> None:
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._flush_later())

    async def _flush_later(self) -> None:
        # Until nothing is left: marks added while a flush waited on the database, and
        # marks a flush skipped (their seat locked by a move), go in the next one.
        while self.pending:
            await asyncio.sleep(SEEN_FLUSH_SECONDS)
            await self.flush()

    async def flush(self, keys: list[Key] | None = None) -> None:
        """Write the pending marks (only ``keys`` when given)."""
        if keys is None:
            batch, self.pending = self.pending, {}
        else:
            batch = {k: self.pending.pop(k) for k in keys if k in self.pending}
        if not batch:
            return
        try:
            skipped = await db_threads.run(mark_many, batch)
        except Exception:
            log.exception("could not record %d seen marks", len(batch))
            return
        for key in skipped:
            if self.pending.get(key, -1) < batch[key]:
                self.pending[key] = batch[key]
        if skipped:
            self._schedule()


seen_marks = SeenMarks()


def seat_mark_seen(*, game_id: int, user: Any, version: Any) -> None:
    """Record that ``user`` has seen ``game_id`` at ``version`` (never moves backwards)."""
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        return
    if user is None or not getattr(user, "is_authenticated", False):
        return
    rows.raise_to(Seat, "last_seen_version", version, game=check_id(game_id), user=user.pk)
