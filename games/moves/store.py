"""The move's reads and locks of the database, behind one interface.

``locked`` takes a game's row lock (every write of a game starts with it: the services
too). ``lock_move_rows`` is the move's first step: the game, its seats (with their users)
and the version the sending seat's client id already made, all locked and read at once.
"""

from __future__ import annotations

from typing import Any

from games import row_locks, rows
from games.errors import NotFound
from games.models import Game, Move, Seat


def check_id(game_id: Any) -> int:
    if isinstance(game_id, bool) or not isinstance(game_id, int) or not 0 < game_id < 2**62:
        raise NotFound()
    return game_id


def locked(game_id: Any) -> Game:
    # The creator comes along (documents name them); only the game row is locked. Plain SQL
    # (games.rows): every move starts here.
    game = row_locks.lock_one(Game, check_id(game_id), related="created_by")
    if game is None:
        raise NotFound()
    return game


def _signed_in(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


def _applied_version(game: Game, *, client_id: str, user: Any, seat: int | None) -> int | None:
    """The version of the move this seat (``seat``, else the seat ``user`` holds) made with
    ``client_id``, if it made one: a client id is a seat's own."""
    moves = Move.objects.filter(game=game, client_id=client_id)
    if seat is not None:
        moves = moves.filter(seat=seat)
    elif _signed_in(user):
        moves = moves.filter(seat__in=Seat.objects.filter(game=game, user=user).values("seat"))
    else:
        return None
    return moves.values_list("version", flat=True).first()


def lock_move_rows(
    game_id: Any, client_id: str | None, *, user: Any, seat: int | None
) -> tuple[Game, list[Seat], int | None]:
    """Lock the game and its seats (with their users; lock order: game, seats, user) and find
    the version this seat made with ``client_id``, if it made one. On PostgreSQL in one
    statement (``row_locks.lock_family``); elsewhere one statement at a time."""
    lookup = None
    if client_id is not None:
        lookup = row_locks.lookup_sql(
            Move,
            "version",
            parent=("game", Game),
            child=("seat", Seat, "seat"),
            equal={"client_id": client_id},
        )
    family = row_locks.lock_family(
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
    if family is None:  # SQLite: the statements one by one
        game = locked(game_id)
        applied = None
        if client_id is not None:
            applied = _applied_version(game, client_id=client_id, user=user, seat=seat)
        seats = row_locks.lock_children(
            Seat, parent="game", parent_id=game.pk, related="user", order_by="seat"
        )
        return game, seats, applied
    found, children, current = family
    if found is None:
        raise NotFound()
    applied = None
    if client_id is not None:
        for child, version in children:
            if (
                child.seat == seat
                if seat is not None
                else _signed_in(user) and child.user_id == user.pk
            ):
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


def client_ids_used(game: Game, client_ids: list[str]) -> dict[tuple[int, str], int]:
    """The version each seat's client id of ``client_ids`` made at ``game``, by (seat,
    client id); one statement for them all."""
    found = rows.values_in(
        Move, ["seat", "client_id", "version"], "client_id", sorted(set(client_ids)), game=game.pk
    )
    return {(int(seat), str(cid)): int(version) for seat, cid, version in found}
