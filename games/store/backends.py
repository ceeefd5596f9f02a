# ruff: noqa: S608 — every name in these statements comes from model metadata, quoted by the
# backend; values always travel as parameters.
"""The database behind the move path: ONE interface, two implementations, chosen once.

The move path (``games.moves.submit``) and the seen marks (``games.live.seen_marks``) ask the store,
never the connection's vendor:

* ``Store`` — the plain way, one statement at a time through the ORM and ``games.store.rows``:
  SQLite (the embedded mode) or any database Django speaks;
* ``PostgresStore`` — PostgreSQL's own SQL: the game, its seats and the client id's move
  locked and read in ONE statement (``row_locks.lock_family``), a move's writes sent as ONE
  statement (``rows.OneStatementBatch``), seen marks that skip the seats a move holds
  locked (``FOR UPDATE SKIP LOCKED``).

``store()`` picks one the first time it is asked, from the default database, and keeps it.
Every other read or write of a game (``locked``, ``check_id``) is the same on both.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections

from games.errors import NotFound
from games.models import Game, Move, Seat
from games.store import row_locks, rows

Key = tuple[int, int]  # (game id, user id)
T = TypeVar("T")


def check_id(game_id: Any) -> int:
    if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 < game_id < 2**62:
        raise NotFound()
    return game_id


def locked(game_id: Any) -> Game:
    """The game row, locked, its creator read along (documents name them). Every write of a
    game starts here (plain SQL, ``games.store.row_locks``)."""
    game = row_locks.lock_one(Game, check_id(game_id), related="created_by")
    if game is None:
        raise NotFound()
    return game


def _signed_in(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


def client_ids_used(game: Game, client_ids: list[str]) -> dict[tuple[int, str], int]:
    """The version each seat's client id of ``client_ids`` made at ``game``, by (seat,
    client id); one statement for them all."""
    found = rows.values_in(
        Move, ["seat", "client_id", "version"], "client_id", sorted(set(client_ids)), game=game.pk
    )
    return {(int(seat), str(cid)): int(version) for seat, cid, version in found}


class Store:
    """The plain way, one statement at a time (SQLite, or any database)."""

    #: Held by every move in this mode: SQLite allows one writer at a time anyway, and
    #: taking turns in the process beats waiting for its file lock.
    write_lock = threading.RLock()

    def writing(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, a move's transaction: one at a time in the process."""
        with self.write_lock:
            return fn(*args)

    def collecting(self) -> AbstractContextManager[rows.Batch]:
        """Collect the move's writes (``games.store.rows``), sent when the block ends."""
        return rows.collecting(rows.EachStatementBatch)

    def lock_move_rows(
        self, game_id: Any, client_id: str | None, *, user: Any, seat: int | None
    ) -> tuple[Game, list[Seat], int | None]:
        """Lock the game and its seats (with their users; lock order: game, seats, user)
        and find the version this seat (``seat``, else the seat ``user`` holds) made with
        ``client_id``, if it made one: a client id is a seat's own."""
        game = locked(game_id)
        applied = None
        if client_id is not None:
            moves = Move.objects.filter(game=game, client_id=client_id)
            if seat is not None:
                moves = moves.filter(seat=seat)
            elif _signed_in(user):
                mine = Seat.objects.filter(game=game, user=user).values("seat")
                moves = moves.filter(seat__in=mine)
            else:
                moves = moves.none()
            applied = moves.values_list("version", flat=True).first()
        seats = row_locks.lock_children(
            Seat, parent="game", parent_id=game.pk, related="user", order_by="seat"
        )
        return game, seats, applied

    def seen_marks_raise(self, marks: Mapping[Key, int]) -> list[Key]:
        """Raise ``last_seen_version`` of the seat of each ``(game id, user id)`` to its
        version (never lower it); returns the keys left for later (none here: one plain
        UPDATE each, and SQLite has one writer at a time anyway)."""
        for (game_id, user_id), version in marks.items():
            rows.raise_to(Seat, "last_seen_version", version, game=game_id, user=user_id)
        return []


class PostgresStore(Store):
    """PostgreSQL: one statement to lock and read, one to write; moves of different games
    write at once (the game's row lock orders those of one game)."""

    def writing(self, fn: Callable[..., T], *args: Any) -> T:
        return fn(*args)

    def collecting(self) -> AbstractContextManager[rows.Batch]:
        return rows.collecting(rows.OneStatementBatch)

    def lock_move_rows(
        self, game_id: Any, client_id: str | None, *, user: Any, seat: int | None
    ) -> tuple[Game, list[Seat], int | None]:
        lookup = None
        if client_id is not None:
            lookup = row_locks.lookup_sql(
                Move,
                "version",
                parent=("game", Game),
                child=("seat", Seat, "seat"),
                equal={"client_id": client_id},
            )
        found, children, current = row_locks.lock_family(
            Game,
            check_id(game_id),
            related="created_by",
            children=Seat,
            parent="game",
            child_related="user",
            order_by="seat",
            lookup=lookup,
            version="version",
        )
        if found is None:
            raise NotFound()
        applied = None
        if client_id is not None:
            for child, version in children:
                mine = (
                    child.seat == seat
                    if seat is not None
                    else (_signed_in(user) and child.user_id == user.pk)
                )
                if not mine:
                    continue
                if current:
                    applied = None if version is None else int(version)
                else:  # a move committed while we waited: look again, past the snapshot
                    again = rows.first_value(
                        Move, "version", game=found.pk, seat=child.seat, client_id=client_id
                    )
                    applied = None if again is None else int(again)
                if applied is not None:
                    break
        return found, [child for child, _version in children], applied

    def seen_marks_raise(self, marks: Mapping[Key, int]) -> list[Key]:
        """One statement for them all; the seats a move holds locked are skipped and their
        keys returned, for the caller to try again later."""
        keys = list(marks)
        with connection.cursor() as cursor:
            cursor.execute(
                _seen_sql(),
                [[g for g, _u in keys], [u for _g, u in keys], [marks[k] for k in keys]],
            )
            return [(int(g), int(u)) for g, u in cursor.fetchall()]


@functools.cache
def _seen_sql() -> str:
    """``PostgresStore.seen_marks_raise``'s statement, built once from the model's names."""
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


_IMPLEMENTATIONS: dict[str, type[Store]] = {"postgresql": PostgresStore}
_chosen: Store | None = None


def store() -> Store:
    """The process's store, chosen once from the default database."""
    global _chosen
    if _chosen is None:
        vendor = connections[DEFAULT_DB_ALIAS].vendor
        _chosen = _IMPLEMENTATIONS.get(vendor, Store)()
    return _chosen
