"""Clocks start and stop as the game advances: a durable effect of every move and of the
start (``games.moves.effects.DURABLE``), inside the move's transaction. Rules:
``docs/clocks.md``."""

from __future__ import annotations

from datetime import datetime

from django.db.models import F, Value
from django.db.models.functions import Least
from django.utils import timezone

from accounts.models import User
from games.clocks import arithmetic
from games.clocks.seat_clock import CLOCK_FIELDS, deadline_for, elapsed, user_zone
from games.models import Game, Move, Seat
from games.moves.result import Advance
from games.store import rows


def clocks_advance(
    *,
    game: Game,
    move: Move | None,
    previous_to_act: frozenset[int],
    to_act: frozenset[int],
    seats: list[Seat] | None = None,
    now: datetime | None = None,
) -> None:
    """Stop and start the seats' clocks after ``move`` (``None``: the game started).

    Runs inside the move's transaction (the game row is locked). A running clock
    (``clock_started_at`` set) stops when its seat is no longer due, or when its seat acted;
    the seat that acted gets the increment (capped). Every seat due and without a running
    clock starts one, with its deadline. At the start every bank is the initial time; at the
    end every clock stops and every deadline is cleared.
    """
    now = now or timezone.now()
    # The caller (a move) hands over the seats it already locked with their users.
    if seats is None:
        seats = list(
            Seat.objects.select_for_update(of=("self",))
            .filter(game=game)
            .select_related("user")
            .order_by("pk")
        )
    running = game.status == Game.Status.RUNNING
    mover = move.seat if move is not None else None
    changed: list[Seat] = []
    for seat in seats:
        before = (seat.clock_remaining_seconds, seat.clock_started_at, seat.deadline)
        if move is None:
            seat.clock_remaining_seconds = float(game.clock_initial_seconds)
            seat.clock_started_at = None
            seat.deadline = None
        due = running and seat.seat in to_act
        acted = seat.seat == mover
        if seat.clock_started_at is not None and (not due or acted):
            seat.clock_remaining_seconds = arithmetic.bank_after_move(
                seat.clock_remaining_seconds,
                elapsed(seat, game, now),
                increment=game.clock_increment_seconds,
                cap=game.clock_max_seconds,
                acted=acted,
            )
            seat.clock_started_at = None
            seat.deadline = None
        if due and seat.clock_started_at is None:
            seat.clock_started_at = now
            seat.deadline = deadline_for(seat, game, now)
        if not due:
            seat.deadline = None
        if (seat.clock_remaining_seconds, seat.clock_started_at, seat.deadline) != before:
            changed.append(seat)
    for seat in changed:  # usually one or two seats: plain UPDATEs beat a CASE bulk update
        rows.update(seat, CLOCK_FIELDS)
    if move is not None and move.actor == Move.Actor.PLAYER and move.user_id is not None:
        mover_user = next((s.user for s in seats if s.user_id == move.user_id), None)
        if mover_user is not None:
            _accrue_vacation(user=mover_user, now=now)


def _accrue_vacation(*, user: User, now: datetime) -> None:
    """The first move a person makes themselves on a day (their time zone) earns 1/8 day of
    vacation, up to 30. One conditional UPDATE: of two first moves at once, the second finds
    the day already recorded once the first commits (PostgreSQL re-checks the row)."""
    if user.is_bot:
        return
    today = now.astimezone(user_zone(user)).date()
    if user.vacation_accrued_on == today:
        return  # already earned today (as read with the seats)
    user.vacation_accrued_on = today
    User.objects.filter(pk=user.pk).exclude(vacation_accrued_on=today).update(
        vacation_accrued_on=today,
        vacation_days=Least(
            F("vacation_days") + arithmetic.VACATION_DAYS_PER_DAY_PLAYED,
            Value(arithmetic.VACATION_DAYS_MAX),
        ),
    )


def clocks_on_advance(advance: Advance) -> None:
    """The durable effect: the clocks after ``advance`` (a move, or the start)."""
    clocks_advance(
        game=advance.game,
        move=advance.move,
        previous_to_act=advance.previous_to_act,
        to_act=advance.to_act,
        seats=advance.seats,
    )
