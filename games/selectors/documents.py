"""Reads: what a caller may see of a game.

Every document is built for one caller. Engine state leaves the server only through the
engine's ``view(state, seat)`` of the caller's own seat (or the public view, ``None``, for
spectators), and log events only when their ``visible_to`` is ``"all"`` or names that seat.
Sealed bid rows and the seed are never read here except the seed of a finished game
(``game_export``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import F, Q, QuerySet

from games.bots.players import level_of
from games.models import ChatMessage, Game, Invitation, Move, Seat, SeatHandover
from games.store import row_locks
from games.store.state_cache import engine_for, load_state

__all__ = [
    "SEAT_ORDER",
    "SEAT_ORDER_BY",
    "can_watch",
    "chat_entry",
    "game_document",
    "game_log",
    "game_summary",
    "game_with_seats",
    "games_for_user",
    "open_games",
    "seat_for_user",
    "seat_order_key",
    "seats_of",
    "seats_read",
    "watchable_games",
]


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _signed_in(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


#: The seats' order in every document and list: by seat number (an open seat, NULL, last),
#: then as they joined an open table. Spelled once: for the ORM (``SEAT_ORDER_BY``), the
#: move path's plain reads (``row_locks``, NULLS LAST from the field) and Python
#: (``seat_order_key``).
SEAT_ORDER = ("seat", "joined_at", "id")
SEAT_ORDER_BY = tuple(F(name).asc(nulls_last=True) for name in SEAT_ORDER)


def seat_order_key(seat: Seat) -> tuple[Any, ...]:
    """``SEAT_ORDER`` as a sort key of seats already read (NULLs last)."""
    values = (getattr(seat, name) for name in SEAT_ORDER)
    return tuple(part for value in values for part in (value is None, value))


def _seats(game: Game, seats: list[Seat] | None = None) -> list[Seat]:
    """``seats`` when the caller read them already (with their users), else read."""
    if seats is not None:
        return seats
    return list(Seat.objects.filter(game=game).select_related("user").order_by(*SEAT_ORDER_BY))


def seats_read(game: Game) -> list[Seat]:
    """The seats of ``game`` with their users, in ``SEAT_ORDER``: read once and hand them to
    the selectors that take ``seats``."""
    return _seats(game)


def game_with_seats(game_id: int) -> tuple[Game, list[Seat]] | None:
    """The game ``game_id`` (its creator read along) and its seats with their users, read
    in two plain statements (``row_locks``: about a third of the ORM's CPU for the same
    rows), for the documents built from them; None when there is no such game."""
    if not 0 < game_id < 2**62:
        return None
    game = row_locks.read_one(Game, game_id, related="created_by")
    if game is None:
        return None
    seats = row_locks.read_children(
        Seat, parent="game", parent_id=game_id, related="user", order_by=SEAT_ORDER
    )
    return game, seats


def seat_for_user(*, game: Game, user: Any, seats: list[Seat] | None = None) -> Seat | None:
    """The caller's seat at ``game`` (None for spectators and anonymous visitors)."""
    if not _signed_in(user):
        return None
    return next((s for s in _seats(game, seats) if s.user_id == user.pk), None)


def can_watch(*, game: Game, user: Any, seats: list[Seat] | None = None) -> bool:
    """Who may see a table: the one rule for every channel — the game page and its panels,
    ``GET /api/games/{id}`` and its log, the socket, and a finished game's record (the API
    export, ``replay.json``, the verification page).

    * A public table (``open_seats``: anyone may join) is public: everyone, signed in or
      not, may watch it while it runs and read its record once it has finished, as a
      finished game on a chess site is public.
    * An invitation-only table is its players' business: only the people seated at it
      (also after resigning or being replaced by the bot) and the people invited to it may
      watch it or read its record, running or finished. Everyone else is refused: asked to
      sign in when anonymous (the visitor may be one of the players), told it is for its
      players when signed in.

    While a game runs, its record (the seed) is published to nobody, whoever may watch."""
    if game.open_seats:
        return True
    if not _signed_in(user):
        return False
    if any(seat.user_id == user.pk for seat in _seats(game, seats)):
        return True
    return Invitation.objects.filter(game=game, user=user).exists()


def watchable_games(*, user: Any) -> Q:
    """``can_watch`` as a filter on ``Game`` rows (for lists)."""
    if not _signed_in(user):
        return Q(open_seats=True)
    return Q(open_seats=True) | Q(seats__user=user) | Q(invitations__user=user)


def _seat_json(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "username": seat.user.username,
        "display_name": seat.user.shown_name,
        "is_bot": bool(seat.bot_kind),
        "bot_kind": seat.bot_kind or None,
        "colour": seat.colour or None,
        "clock_deadline": _iso(seat.deadline),
        "clock_remaining_seconds": seat.clock_remaining_seconds,
        "resigned": seat.resigned,
        "final_score": seat.final_score,
        "final_rank": seat.final_rank,
    }


def table_bot_level(game: Game) -> str | None:
    """The table's bot level (``easy``, ``medium``, ``hard``: what moves for its bot seats
    and stands in for late or departed players), the bot kind when no level of the title
    uses it, None for a table opened before levels (the title's stand-in plays)."""
    if not game.bot_kind:
        return None
    level = level_of(game.title, game.bot_kind)
    return level.level if level is not None else game.bot_kind


def game_summary(*, game: Game, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The public part of the game document (no view, nothing private): for lists."""
    seats = _seats(game, seats)
    return {
        "id": game.pk,
        "game": game.title,
        "status": game.status,
        "version": game.version,
        "num_players": game.num_players,
        "options": game.options,
        "clock": {
            "initial_hours": game.clock_initial_seconds / 3600,
            "increment_hours": game.clock_increment_seconds / 3600,
            "max_hours": game.clock_max_seconds / 3600,
        },
        "on_timeout": game.on_timeout,
        "rated": game.rated,
        "bot_level": table_bot_level(game),
        "open_seats": game.open_seats,
        "skip_weekends": game.skip_weekends,
        "created_by": game.created_by.username if game.created_by_id else None,  # type: ignore[union-attr]
        "created_at": _iso(game.created_at),
        "started_at": _iso(game.started_at),
        "finished_at": _iso(game.finished_at),
        "seed_hash": game.seed_hash,
        "seats": [_seat_json(s) for s in seats],
        "to_act": list(game.to_act),
        "result": game.result,
    }


def viewing_seat(mine: Seat | None) -> int | None:
    """The seat whose view and private events ``mine``'s holder is shown: their own, or
    ``None`` (the spectators') once they left it (``Seat.is_out``: resigned or replaced by
    vote; a bot plays it and they must not keep reading its hand)."""
    if mine is None or mine.is_out:
        return None
    return mine.seat


def game_document(*, game: Game, user: Any, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The game document of docs/api.md for ``user``: their seat's view and legal actions, or the
    public view and no actions for spectators (``seats``: the game's, when the caller read
    them). The caller checks ``can_watch`` first."""
    seats = _seats(game, seats)
    mine = next((s for s in seats if s.user_id == user.pk), None) if _signed_in(user) else None
    return _document(game, seats, mine)


def _document(
    game: Game,
    seats: list[Seat],
    mine: Seat | None,
    state: Any = None,
    summary: dict[str, Any] | None = None,
    view: dict[str, Any] | None = None,
) -> dict:
    # ``summary``: the game's ``game_summary``, built once for the documents of one move
    # (a copy of its top level per document; its values are shared and never changed).
    # ``view``: this seat's view of ``state``, built with the other seats' (``move_frames``).
    # A person who left their seat (resigned, replaced by vote) sees what a spectator
    # sees: the seat is still named theirs, but its view is the public one.
    doc = dict(summary) if summary is not None else game_summary(game=game, seats=seats)
    my_seat = mine.seat if mine is not None else None
    doc["my_seat"] = my_seat
    doc["view"] = None
    doc["legal_actions"] = []
    if game.state is not None:
        engine = engine_for(game)
        state = state if state is not None else load_state(game)
        doc["view"] = view if view is not None else engine.view(state, viewing_seat(mine))
        if my_seat is not None and game.status == Game.Status.RUNNING and not mine.is_out:  # type: ignore[union-attr]
            doc["legal_actions"] = engine.legal_actions(state, my_seat)
        doc["decision_version"] = mine.decision_version if mine is not None else None
    return doc


def _visible(event: dict[str, Any], seat: int | None) -> bool:
    to = event.get("visible_to", "all")
    if to == "all":
        return True
    return seat is not None and isinstance(to, list) and seat in to


def _entry(event: dict[str, Any], *, version: int, at: datetime | None, actor: str) -> dict:
    out = {k: v for k, v in event.items() if k != "visible_to"}
    out["version"] = version
    out["at"] = _iso(at)
    out["actor"] = actor
    return out


def chat_entry(message: ChatMessage) -> dict[str, Any]:
    return {
        "type": "chat",
        "id": message.pk,
        "version": message.version,
        "at": _iso(message.created_at),
        "username": message.user.username,
        "display_name": message.user.shown_name,
        "text": message.text,
    }


HANDOVER_EVENT = "seat_handed_to_bot"


def handover_entry(handover: SeatHandover) -> dict[str, Any]:
    """A log entry for a seat handed to the bot (public: everyone at the table sees it)."""
    return {
        "type": HANDOVER_EVENT,
        "seat": handover.seat,
        "reason": handover.reason,
        "bot_kind": handover.bot_kind,
        "version": handover.version,
        "at": _iso(handover.created_at),
        "actor": "system",
    }


def game_log(
    *,
    game: Game,
    user: Any,
    since: int = 0,
    chat: bool = True,
    until: int | None = None,
    between_at_since: bool = False,
    seats: list[Seat] | None = None,
) -> list[dict[str, Any]]:
    """The events ``user`` may see after version ``since`` (up to ``until``), in order, the
    seats handed to a bot after it (``seat_handed_to_bot``: resigned or replaced by vote)
    and the chat said after it. Spectators see the public events only.

    What happens between two moves (chat, a hand-over) carries the version it followed. With
    ``between_at_since`` those entries at version ``since`` itself are included: the API's
    ``since`` is "the version I last saw", and chat said while the table stood at that
    version came after it (a client polling at an unchanged version gets them again, told
    apart by ``id``/``at``). Sockets leave it off: they receive such entries live."""
    between_since = since - 1 if between_at_since else since
    seat = viewing_seat(seat_for_user(game=game, user=user, seats=seats))
    out: list[dict[str, Any]] = []
    if since < 1 and game.version >= 1 and (until is None or until >= 1):
        out += [
            _entry(e, version=1, at=game.started_at, actor="setup")
            for e in game.setup_events
            if _visible(e, seat)
        ]
    if until is None or between_since < until:  # else no move or hand-over can be in range
        moves = Move.objects.filter(game=game, version__gt=since).order_by("version")
        if until is not None:
            moves = moves.filter(version__lte=until)
        for move in moves.only("version", "events", "created_at", "actor"):
            out += [
                _entry(e, version=move.version, at=move.created_at, actor=move.actor)
                for e in move.events
                if _visible(e, seat)
            ]
        handovers = SeatHandover.objects.filter(game=game, version__gt=between_since)
        if until is not None:
            handovers = handovers.filter(version__lte=until)
        out += [handover_entry(h) for h in handovers.order_by("version", "created_at", "id")]
    if chat:
        messages = ChatMessage.objects.filter(game=game)
        if since > 0:  # since=0: all of it, the chat of the open table too
            messages = messages.filter(version__gt=between_since)
        out += [chat_entry(m) for m in messages.select_related("user").order_by("created_at", "id")]
    out.sort(key=_log_order)
    return out


#: Log entries that happen between two moves; they carry the version they followed.
BETWEEN_MOVES = ("chat", HANDOVER_EVENT)


def _log_order(entry: dict[str, Any]) -> tuple[int, bool, str]:
    """By version; what happened between two moves (chat, a seat handed to the bot) after
    the move of its version, in the order it happened. The sort is stable: the events of
    one move keep their order."""
    between = entry.get("type") in BETWEEN_MOVES
    return (int(entry["version"]), between, str(entry.get("at") or "") if between else "")


def _with_seats(qs: QuerySet[Game]) -> QuerySet[Game]:
    return qs.select_related("created_by").prefetch_related("seats__user")


def games_for_user(*, user: Any, status: str | None = None) -> QuerySet[Game]:
    """Games ``user`` is seated at, newest first."""
    qs = Game.objects.filter(seats__user=user)
    if status:
        qs = qs.filter(status=status)
    return _with_seats(qs.order_by("-created_at").distinct())


def open_games() -> QuerySet[Game]:
    """Open tables anyone may join, newest first."""
    return _with_seats(
        Game.objects.filter(status=Game.Status.OPEN, open_seats=True).order_by("-created_at")
    )


def games_list(
    *, user: Any, status: str | None = None, player: str | None = None
) -> QuerySet[Game]:
    """Games the caller may list: the ones they may watch (``can_watch``): tables open to
    all, and any table they are at or invited to."""
    qs = Game.objects.filter(watchable_games(user=user))
    if status:
        qs = qs.filter(status=status)
    if player:
        qs = qs.filter(Q(seats__user__username=player))
    return _with_seats(qs.order_by("-created_at").distinct())


def seats_of(game: Game) -> list[Seat]:
    """Seats of a game fetched with ``games_list``/``games_for_user`` (prefetched)."""
    return sorted(game.seats.all(), key=seat_order_key)
