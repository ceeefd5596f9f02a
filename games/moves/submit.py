"""The one move path: ``submit``. Every move — a socket's, the API's, a page's form, a bot's
or the clock's — is made here, read top to bottom:

1. **load**: ONE transaction that starts by locking the game, its seats (with their users)
   and finding what the sending seat's client id already made (``games.store.backends``: one
   statement on PostgreSQL, the plain way elsewhere);
2. **check** each request: a client id this seat already used answers with the version its
   move made (a retry, nothing applied); the game must run, the seat be the sender's (or
   the bot's), its person still in, the version not stale (``_refusal``);
3. **apply**: the engine applies the action (``IllegalAction`` → 422, nothing written);
4. **store**: the ``Move`` row (and a sealed action's ``SealedMove``,
   ``games.records.sealed_moves``), the seats whose decisions changed, the result when the
   game ends, the game's row — all in one collected batch (``store().collecting()``: one
   statement on PostgreSQL); the durable effects of each move (``effects.DURABLE``: clocks,
   mails and webhooks owed) and, when the game ends, ``effects.DURABLE_FINISH`` (ratings,
   …) in the same transaction;
5. **hand on** an explicit ``MoveResult`` (game, seats, state, moves and their events, each
   request's outcome) to the after-commit effects (``effects.AFTER_COMMIT``: frames, inbox
   counts, mails, tournaments, the bot's wake-up), which fill in each seat's document, and
   to the caller (``games.moves.answer`` turns it into each sender's answer).

Several requests at one game may be made in one call (``games.moves.queue`` gathers the
moves that wait together): one lock, the engine once per action, one write, one commit,
one set of frames; each request gets what it would have got alone, in its order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bots import players as bot_players
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
from games.moves import effects
from games.moves.request import MoveRequest, check_request
from games.moves.result import Advance, MoveResult, Outcome
from games.records.sealed_moves import Pending, seal
from games.store import rows
from games.store.backends import client_ids_used, store
from games.store.state_cache import engine_for, load_state

__all__ = ["action_submit", "submit"]

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


def submit(*, game_id: int, requests: Sequence[MoveRequest]) -> MoveResult:
    """Make ``requests`` (already through ``check_request``) at one game, in their order, in
    ONE transaction; a refused one (its error in ``MoveResult.outcomes``) writes nothing and
    the others go on. Raises only what refuses them all (no such game: 404)."""
    first = requests[0]
    outcomes: list[Outcome] = []
    moves: list[Move] = []
    advances: list[Advance] = []
    with transaction.atomic():
        # 1. load
        db = store()
        game, seats, applied = db.lock_move_rows(
            game_id, first.client_id, user=first.user, seat=first.seat
        )
        state: Any = None
        fields: dict[str, None] = {}
        # (seat, client id) → the version it made: before this batch, then in it.
        made = (
            client_ids_used(game, [r.client_id for r in requests[1:] if r.client_id])
            if len(requests) > 1
            else {}
        )
        sealed = Pending()
        with db.collecting():
            for index, request in enumerate(requests):
                # 2. check
                if index:
                    applied = _applied_in_batch(seats, request, made)
                if applied is not None:
                    outcomes.append((applied, True))
                    continue
                try:
                    row, number = _refusal(game, seats, request)
                    if state is None:
                        state = load_state(game)
                    # 3. apply
                    try:
                        new_state, events = engine_for(game).apply(state, number, request.action)
                    except IllegalAction as exc:
                        raise IllegalMove(exc.message, code=exc.code) from None
                except GameError as exc:
                    outcomes.append(kept(exc))
                    continue
                # 4. store
                move, advance, changed = _record(
                    game, seats, row, request, (state, new_state), events, sealed
                )
                effects.durable(advance)
                fields.update(dict.fromkeys(changed))
                moves.append(move)
                advances.append(advance)
                outcomes.append((move.version, False))
                if request.client_id is not None:
                    made[number, request.client_id] = move.version
                state = new_state
            if moves:
                game.state = engine_for(game).dump(state)
                rows.update(game, ["state", *fields])
        if sealed:  # earlier sealed rows replaced or revealed, once this batch's are in
            sealed.write(game)
        result = MoveResult(
            game=game,
            seats=seats,
            outcomes=outcomes,
            moves=moves,
            state=state if moves else None,
            advances=advances,
            finished=bool(moves) and game.status == Game.Status.FINISHED,
        )
        if result.finished:
            effects.durable_finish(result)
        # 5. hand on
        if moves:
            result.bot_due = bot_players.bot_to_act(game, seats) is not None
            effects.after_commit(result)
    return result


def action_submit(
    *,
    game_id: int,
    user: Any = None,
    seat: int | None = None,
    action: Any,
    version: Any = None,
    client_id: Any = None,
    actor: str = "player",
) -> Game:
    """One request through ``submit``, its refusal raised, and the game after it: for the
    server's own moves (bots, the clocks' sweep), scripts and tests."""
    request = MoveRequest(action, user, seat, version, client_id, actor)
    check_request(request)
    result = submit(game_id=game_id, requests=[request])
    outcome = result.outcomes[0]
    if isinstance(outcome, GameError):
        del result  # it holds the error: the raised error's traceback must not hold it
        try:
            raise outcome
        finally:
            del outcome  # the raised error's traceback holds this frame: no cycle through it
    return result.game


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


def _refusal(game: Game, seats: list[Seat], request: MoveRequest) -> tuple[Seat, int]:
    """Step 2's checks (raised), and the seat's row and number: the game runs; the sender
    holds the seat (``actor="player"``) or is the bot standing in (``bot``/``timeout`` with
    ``seat``); a seat whose person is out (resigned: 403 ``resigned``; replaced by vote: 403
    ``replaced``) is played by its bot only; a ``version`` older than the seat's
    ``decision_version`` → 409 ``stale_version``."""
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
            raise StaleVersion()
    return row, int(row.seat)  # type: ignore[arg-type]


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


def _record(
    game: Game,
    seats: list[Seat],
    row: Seat,
    request: MoveRequest,
    states: tuple[Any, Any],
    events: list[Any],
    sealed: Pending,
) -> tuple[Move, Advance, list[str]]:
    """An accepted move, in memory and in the collected writes: its ``Move`` row (and its
    ``SealedMove`` row if the action is sealed: ``games.records.sealed_moves``), the seats whose
    decisions it changed, the result if it ends the game. The game's row is written at the
    batch's end: the fields this move changed are returned with the move's ``Advance``."""
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
    advance = Advance(
        game=game,
        seats=seats,
        move=move,
        previous_to_act=previous_to_act,
        to_act=frozenset(game.to_act),
    )
    return move, advance, fields
