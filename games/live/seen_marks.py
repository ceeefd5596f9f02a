"""Seen marks: a seat's ``last_seen_version``, raised when its player watches the table
live while the seat is due, so that no "your turn" mail goes to a player who saw the turn
come (``notifications.services``).

A frame passed on to a socket marks its seat (``games.live.consumers``). The marks of all the
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
from typing import Any

from games.models import Seat
from games.store import db_threads, rows
from games.store.backends import check_id, store

log = logging.getLogger(__name__)

Key = tuple[int, int]  # (game id, user id)

SEEN_FLUSH_SECONDS = 1.0


def mark_many(marks: Mapping[Key, int]) -> list[Key]:
    """Raise ``last_seen_version`` of the seat of each ``(game id, user id)`` to its
    version (never lower it). Returns the keys not written because a move held the seat
    locked (PostgreSQL; the caller tries them again later). The statements are the
    store's (``games.store.backends``)."""
    if not marks:
        return []
    return store().seen_marks_raise(marks)


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
