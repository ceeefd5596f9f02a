"""A player's (or a bot's, or the clock's) action: ``action_submit``, the move service.

Like every write (``games.services``) it is ONE transaction that starts by locking the game;
here the game, its seats and the client id's earlier move are locked and read in one
statement on PostgreSQL (``row_locks.lock_family``) and everything the move changes is written
in one more (``rows.collecting``). The stale check is by each seat's ``decision_version``;
a client id already used by the seat answers with the version its move made. Frames,
mails and the bot's wake-up leave after the commit (``services.after_change``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import bots as bot_players
from games import row_locks, rows
from games.engine import IllegalAction, final_ranks
from games.errors import (
    BadRequest,
    Conflict,
    GameError,
    IllegalMove,
    NotAllowed,
    NotFound,
    StaleVersion,
    kept,
)
from games.models import Game, Move, Seat
from games.sealing import Pending, seal
from games.services import after_change, check_id, locked
from games.signals import game_advanced, game_finished
from games.snapshots import engine_for, load_state

__all__ = ["MoveRequest", "action_submit", "actions_submit", "check_request"]

CLIENT_ID_MAX = 64
# The client ids the server makes for its own moves (``bot:<version>:<seat>`` in
# games.tasks, ``timeout:<version>:<seat>`` in games.clocks.sweep). A player who sent one first
# made the server's move look like a retry, and it was never made: players may not use them.
RESERVED_CLIENT_ID_PREFIXES = ("bot:", "timeout:")
MOVE_FIELDS = (
    "game",
    "version",
    "seat",
    "action",
    "events",
    "client_id",
    "actor",
    "user",
    "created_at",
)


def _resolve_seat(seats: list[Seat], *, user: Any, seat: int | None, actor: str) -> Seat:
    if seat is not None:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise BadRequest(_("The seat is a number."), code="bad_seat")
        row = next((s for s in seats if s.seat == seat), None)
        if row is None:
            raise NotFound(_("There is no such seat."), code="no_such_seat")
        if actor == Move.Actor.PLAYER and (user is None or row.user_id != user.pk):
            raise NotAllowed(_("That is not your seat."), code="not_your_seat")
        return row
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    row = next((s for s in seats if signed_in and s.user_id == user.pk), None)
    if row is None:
        raise NotAllowed(_("You are not a player at this table."), code="not_a_player")
    return row


def _applied_version(
    game: Game, *, client_id: str, user: User | None, seat: int | None
) -> int | None:
    """The version of the move this seat (``seat``, else the seat ``user`` holds) made with
    ``client_id``, if it made one: a client id is a seat's own."""
    moves = Move.objects.filter(game=game, client_id=client_id)
    if seat is not None:
        moves = moves.filter(seat=seat)
    elif user is not None and getattr(user, "is_authenticated", False):
        moves = moves.filter(seat__in=Seat.objects.filter(game=game, user=user).values("seat"))
    else:
        return None
    return moves.values_list("version", flat=True).first()


def _lock_move_rows(
    game_id: Any, client_id: str | None, *, user: Any, seat: int | None
) -> tuple[Game, list[Seat] | None, int | None]:
    """Lock the game and its seats (with their users) and find the version this seat
    made with ``client_id``, if it made one. On PostgreSQL in one statement
    (``row_locks.lock_family``); elsewhere the game first, and the seats later (``None``)."""
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
        return game, None, applied
    found, children, current = family
    if found is None:
        raise NotFound()
    applied = None
    if client_id is not None:
        signed_in = user is not None and getattr(user, "is_authenticated", False)
        for child, version in children:
            if child.seat == seat if seat is not None else signed_in and child.user_id == user.pk:
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


@dataclass(frozen=True)
class MoveRequest:
    """One action for ``actions_submit``: who sends it (``user``; or ``seat`` with the bot's
    ``actor``), the action, the version it was chosen at and its client id."""

    action: Any
    user: User | None = None
    seat: int | None = None
    version: Any = None
    client_id: Any = None
    actor: str = "player"


#: What ``actions_submit`` answers for each request: the version its move made and whether
#: it was a retry (``replayed``), or the error that refused it (nothing of it written).
Outcome = tuple[int, bool] | GameError


def check_request(request: MoveRequest) -> None:
    """The checks that need no database: 400 with a stable code for a malformed request."""
    actor, client_id, version = request.actor, request.client_id, request.version
    if actor not in Move.Actor.values:
        raise BadRequest(_("Unknown actor."), code="bad_actor")
    if client_id is not None and (
        not isinstance(client_id, str) or not 0 < len(client_id) <= CLIENT_ID_MAX
    ):
        raise BadRequest(
            _("client_id must be a string of at most 64 characters."), code="bad_client_id"
        )
    if (
        client_id is not None
        and actor == Move.Actor.PLAYER
        and client_id.startswith(RESERVED_CLIENT_ID_PREFIXES)
    ):
        raise BadRequest(
            _("client_id may not start with %(prefixes)s: the server uses those.")
            % {"prefixes": " or ".join(RESERVED_CLIENT_ID_PREFIXES)},
            code="bad_client_id",
        )
    if version is not None and (
        isinstance(version, bool) or not isinstance(version, int) or version < 0
    ):
        raise BadRequest(_("version must be a whole number."), code="bad_version")
    if not isinstance(request.action, dict):
        raise BadRequest(_("The action must be a JSON object."), code="bad_action")


def action_submit(
    *,
    game_id: int,
    user: User | None = None,
    seat: int | None = None,
    action: Any,
    version: Any = None,
    client_id: Any = None,
    actor: str = "player",
) -> Game:
    """Apply one action for a seat. ONE transaction holding the game row lock:

    1. a ``client_id`` this seat already used at this game answers with the current game and
       applies nothing (a retry); ``game.applied_version`` is then the version at which the
       first one applied and ``game.replayed`` is true (after a move: its version, false).
       Client ids are a seat's own (another seat may use the same), and players may not use
       the server's (``RESERVED_CLIENT_ID_PREFIXES``: 400 ``bad_client_id``);
    2. the caller must hold the seat (``actor="player"``), or be the bot standing in
       (``bot``/``timeout`` with ``seat``); a seat whose person is out (resigned: 403
       ``resigned``; replaced by vote: 403 ``replaced``) is played by its bot only;
    3. ``version`` older than the seat's ``decision_version`` → 409 ``stale_version``;
    4. the engine applies the action (``IllegalAction`` → 422 with its code, nothing written);
    5. the ``Move`` row (a sealed action's content stays out of every other seat's view and
       log until the engine reveals it: ``Rules.sealed_steps``), the new snapshot and
       version, each seat's ``decision_version`` whose legal actions changed, the result
       when the game ends; ``game_advanced`` (and ``game_finished``) are sent inside;
    6. on commit: broadcast to the game's group, queue the bot task if a bot must act.
    """
    request = MoveRequest(action, user, seat, version, client_id, actor)
    check_request(request)
    game, (outcome,) = actions_submit(game_id=game_id, requests=[request])
    if isinstance(outcome, GameError):
        try:
            raise outcome
        finally:
            del outcome  # the raised error's traceback holds this frame: no cycle through it
    game.applied_version, game.replayed = outcome  # type: ignore[attr-defined]
    return game


def _refusal(game: Game, seats: list[Seat], request: MoveRequest) -> tuple[Seat, int]:
    """The checks of ``action_submit``'s steps 2 and 3 (raised), and the seat's row and
    number."""
    if game.status != Game.Status.RUNNING:
        if game.status == Game.Status.OPEN:
            raise Conflict(_("The game has not started yet."), code="not_running")
        raise Conflict(_("This game is over."), code="game_over")
    actor, version = request.actor, request.version
    row = _resolve_seat(seats, user=request.user, seat=request.seat, actor=actor)
    if actor == Move.Actor.PLAYER and row.resigned:
        raise NotAllowed(_("You resigned; a bot plays this seat now."), code="resigned")
    if actor == Move.Actor.PLAYER and row.is_out:
        raise NotAllowed(
            _(
                "The other players replaced you by the bot after missed deadlines; "
                "it plays this seat now."
            ),
            code="replaced",
        )
    if version is not None:
        if version > game.version:
            raise BadRequest(_("That version of the game does not exist yet."), code="bad_version")
        if version < row.decision_version:
            raise StaleVersion(game=game)
    return row, int(row.seat)  # type: ignore[arg-type]


def _client_ids_used(game: Game, requests: Sequence[MoveRequest]) -> dict[tuple[int, str], int]:
    """For the requests after a batch's first (whose client id the lock looked up): the
    version each seat's client id made before the batch, by (seat, client id); one
    statement for them all."""
    ids = sorted({r.client_id for r in requests[1:] if r.client_id is not None})
    found = rows.values_in(Move, ["seat", "client_id", "version"], "client_id", ids, game=game.pk)
    return {(int(seat), str(cid)): int(version) for seat, cid, version in found}


def _applied_in_batch(
    seats: list[Seat], request: MoveRequest, made: dict[tuple[int, str], int]
) -> int | None:
    """The version a request's client id made, in this batch or before it (``made``)."""
    client_id = request.client_id
    if client_id is None:
        return None
    try:
        row = _resolve_seat(seats, user=request.user, seat=request.seat, actor=request.actor)
    except GameError:
        return None  # refused below, with its own error
    return made.get((int(row.seat), client_id))  # type: ignore[arg-type]


def actions_submit(*, game_id: int, requests: Sequence[MoveRequest]) -> tuple[Game, list[Outcome]]:
    """Apply the actions of ``requests`` (already through ``check_request``) at one game, in
    their order, in ONE transaction: one lock of the game and its seats, the engine once per
    action, the writes of every accepted move in one statement, one commit, and one set of
    frames after it (``services.after_change``). Each request gets what ``action_submit``
    would have given it had they come one after the other: a refused one (its error in the
    answer) writes nothing and the others go on. ``game_advanced`` is sent for every
    accepted move, with the game as that move left it. The game returned is as the last
    move left it. ``games.move_queue`` gathers the moves that wait for a database thread at
    the same game into one such call; a lone move is a batch of one."""
    first = requests[0]
    outcomes: list[Outcome] = []
    moves: list[Move] = []
    with transaction.atomic():
        game, locked_seats, applied = _lock_move_rows(
            game_id, first.client_id, user=first.user, seat=first.seat
        )
        seats = locked_seats
        if seats is None and (game.status == Game.Status.RUNNING or len(requests) > 1):
            # Seats locked with the game (lock order: game, seats, user): the clocks and
            # the notifications of this move read them from ``game._locked_seats``.
            seats = row_locks.lock_children(
                Seat, parent="game", parent_id=game.pk, related="user", order_by="seat"
            )
        if seats is not None:
            game._prefetched_seats = seats  # type: ignore[attr-defined]  # read by the selectors
            game._locked_seats = seats  # type: ignore[attr-defined]  # read by the receivers
        state: Any = None
        fields: dict[str, None] = {}
        # (seat, client id) → the version it made: before this batch, then in it.
        made = _client_ids_used(game, requests) if len(requests) > 1 else {}
        sealed = Pending()
        with rows.collecting():
            for index, request in enumerate(requests):
                if index:
                    applied = _applied_in_batch(seats or [], request, made)
                if applied is not None:
                    outcomes.append((applied, True))
                    continue
                try:
                    row, number = _refusal(game, seats or [], request)
                    if state is None:
                        state = load_state(game)
                    try:
                        new_state, events = engine_for(game).apply(state, number, request.action)
                    except IllegalAction as exc:
                        raise IllegalMove(exc.message, code=exc.code) from None
                except GameError as exc:
                    outcomes.append(kept(exc))
                    continue
                move, changed = _record(
                    game, seats or [], row, request, (state, new_state), events, sealed
                )
                fields.update(dict.fromkeys(changed))
                moves.append(move)
                outcomes.append((move.version, False))
                if request.client_id is not None:
                    made[number, request.client_id] = move.version
                state = new_state
            if moves:
                game.state = engine_for(game).dump(state)
                rows.update(game, ["state", *fields])
        if sealed:  # earlier sealed rows replaced or revealed, once this batch's are in
            sealed.write(game)
        if moves and game.status == Game.Status.FINISHED:
            game_finished.send(sender=Game, game=game)
        if moves:
            bot_due = bot_players.bot_to_act(game, seats) is not None
            after_change(game, bot_due=bot_due, state=state, moves=moves)
    return game, outcomes


def _record(
    game: Game,
    seats: list[Seat],
    row: Seat,
    request: MoveRequest,
    states: tuple[Any, Any],
    events: list[Any],
    sealed: Pending,
) -> tuple[Move, list[str]]:
    """An accepted move, in memory and in the collected writes: its ``Move`` row (and its
    ``SealedMove`` row if the action is sealed: ``games.sealing``), the seats whose
    decisions it changed, the result if it ends the game; ``game_advanced`` is sent.
    The game's row is written at the batch's end: the fields this move changed are
    returned with the move."""
    engine = engine_for(game)
    state, new_state = states
    changed = [
        s.pk
        for s in seats
        if s.seat is not None
        and engine.legal_actions(state, s.seat) != engine.legal_actions(new_state, s.seat)
    ]
    user = request.user
    new_version = game.version + 1
    previous_to_act = frozenset(game.to_act)
    now = timezone.now()
    if engine.sealed_steps:
        seal(
            game=game,
            sealed_steps=engine.sealed_steps,
            seat=int(row.seat),  # type: ignore[arg-type]
            action=request.action,
            version=new_version,
            at=now,
            events=events,
            pending=sealed,
        )
    move = Move(
        game=game,
        version=new_version,
        seat=int(row.seat),  # type: ignore[arg-type]
        action=request.action,
        events=events,
        client_id=request.client_id,
        actor=request.actor,
        user_id=user.pk if user is not None and user.is_authenticated else row.user_id,
        created_at=now,
    )
    rows.insert(move, MOVE_FIELDS)
    game.version = new_version
    game.to_act = sorted(engine.to_act(new_state))
    game.updated_at = now
    fields = ["version", "to_act", "updated_at"]
    if engine.is_over(new_state):
        scores = list(engine.result(new_state))
        ranks = final_ranks(engine, new_state)
        game.result = {"scores": scores, "ranks": ranks}
        game.status = Game.Status.FINISHED
        game.finished_at = now
        fields += ["result", "status", "finished_at"]
        for s in seats:
            if s.seat is not None:
                s.final_score = scores[s.seat]
                s.final_rank = ranks[s.seat]
        Seat.objects.bulk_update(seats, ["final_score", "final_rank"])
    if changed:
        rows.update_pks(Seat, changed, decision_version=new_version)
        for s in seats:
            if s.pk in changed:
                s.decision_version = new_version
    game_advanced.send(
        sender=Game,
        game=game,
        move=move,
        previous_to_act=previous_to_act,
        to_act=frozenset(game.to_act),
    )
    return move, fields
