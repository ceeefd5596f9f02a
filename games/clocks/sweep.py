"""The deadline sweep: every minute (``games.clocks.tasks.sweep_deadlines``) the seats whose
deadline passed are claimed and handled, one transaction each: vacation first, then the bot
stands in (``games.bots.play``) or the table waits. Rules: ``docs/clocks.md``."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from colorado.task_names import MISSED_MAIL, VACATION_MAIL
from colorado.task_queue import queue_task
from games.bots.play import bot_play
from games.bots.players import bot_seconds, stand_in_kind
from games.clocks import arithmetic
from games.clocks.seat_clock import counts_as_person, user_zone
from games.models import Game, Seat

log = logging.getLogger(__name__)

#: A claimed seat's deadline is pushed this far: if the worker dies, the seat is due again
#: after the lease and the next sweep takes it over.
CLAIM_LEASE = timedelta(minutes=5)
#: Seats handled per sweep run (the rest wait a minute).
SWEEP_LIMIT = 200
#: The thinking time a sweep run's stand-ins share (the task's soft limit is 50 s): a search
#: bot thinks its level's time while this lasts, then ``LAST_THINK_SECONDS`` a move.
SWEEP_THINK_SECONDS = 25.0
LAST_THINK_SECONDS = 0.05


@dataclass(frozen=True)
class Claim:
    seat_id: int
    deadline: datetime  # the deadline that passed
    token: datetime  # the deadline the claim wrote (now + lease): proof of ownership


def deadlines_claim(*, now: datetime, limit: int = SWEEP_LIMIT) -> list[Claim]:
    """Find due seats with one query on the ``seat_due_deadline`` index and claim each with
    a conditional UPDATE (the deadline must still be the one read): of two sweeps racing,
    exactly one claims a seat. A claim pushes the deadline by ``CLAIM_LEASE``."""
    due = list(
        Seat.objects.filter(deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", "deadline")[:limit]
    )
    claims = []
    for seat_id, deadline in due:
        if deadline is None:  # not there: ``deadline__lte`` leaves out the seats without one
            continue
        token = now + CLAIM_LEASE
        if Seat.objects.filter(pk=seat_id, deadline=deadline).update(deadline=token):
            claims.append(Claim(seat_id, deadline, token))
    return claims


def deadline_handle(*, claim: Claim, now: datetime, think_until: float | None = None) -> str:
    """Deal with one claimed seat whose deadline passed. ONE transaction (game, seat, user
    locked in that order); returns what happened:

    * ``stale``: the claim is no longer ours (the seat moved, or another sweep took over);
    * ``cleared``: the seat is not due any more (game over, aborted, step passed);
    * ``away``: its player is away; the deadline moves to their return;
    * ``vacation``: a day of vacation (or what is left) moved the deadline;
    * ``bot_moved``: the stand-in bot made the move for the seat (``actor="timeout"``, in the
      same transaction: no half move), or for a bot seat whose task got lost;
    * ``waiting``: the table waits; the others are told, and after the second miss may vote;
    * ``refused``: the bot's move was refused; the seat is due again after the lease.
    """
    with transaction.atomic():
        game_id = Seat.objects.filter(pk=claim.seat_id).values_list("game_id", flat=True).first()
        if game_id is None:
            return "stale"
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = Seat.objects.select_for_update().select_related("user").get(pk=claim.seat_id)
        if seat.deadline != claim.token:
            return "stale"
        if game.status != Game.Status.RUNNING or seat.seat not in (game.to_act or []):
            seat.deadline = None
            seat.clock_started_at = None
            seat.save(update_fields=["deadline", "clock_started_at"])
            return "cleared"
        person = counts_as_person(seat)
        user = seat.user
        if person and user.away_until is not None and user.away_until > now:
            seat.deadline = user.away_until
            seat.save(update_fields=["deadline"])
            return "away"
        if person and arithmetic.auto_vacation_applies(game.clock_initial_seconds):
            locked_user = User.objects.select_for_update().get(pk=user.pk)
            spent = arithmetic.spend_vacation(
                claim.deadline,
                locked_user.vacation_days,
                tz=user_zone(locked_user),
                skip_weekends=game.skip_weekends,
            )
            if spent is not None:
                locked_user.vacation_days = spent.days_left
                locked_user.save(update_fields=["vacation_days"])
                seat.deadline = spent.deadline
                seat.save(update_fields=["deadline"])
                log.info("seat %s of game %s: a vacation day used", seat.pk, game.pk)
                _tell_vacation_used(seat.pk, spent.deadline)
                return "vacation"
        if person:
            seat.missed_deadlines += 1
        # The bank is used up, whatever the clock's history: the move (the bot's now, or
        # the player's later on a waiting table) leaves only the increment.
        seat.clock_remaining_seconds = 0.0
        seat.save(update_fields=["missed_deadlines", "clock_remaining_seconds"])
        if not person or game.on_timeout == Game.OnTimeout.BOT:
            return _bot_stands_in(game, seat, person=person, think_until=think_until)
        return _table_waits(game, seat, now=now)


def _tell_vacation_used(seat_id: int, deadline: datetime) -> None:
    def tell() -> None:
        queue_task(VACATION_MAIL, seat_id, deadline.isoformat())

    transaction.on_commit(tell, robust=True)


def _bot_stands_in(game: Game, seat: Seat, *, person: bool, think_until: float | None) -> str:
    """The bot moves for the seat, in the sweep's transaction: the stand-in for a late
    person (``actor="timeout"``; the level the table chose), or the seat's own bot whose
    task got lost. A search bot thinks no later than ``think_until`` (``time.monotonic``)."""
    number = seat.seat
    if number is None:  # a seat with a deadline has its number: the game has started
        raise ValueError(f"seat {seat.pk} has a deadline but no number")
    kind = seat.bot_kind or stand_in_kind(game)
    seconds = bot_seconds(kind)
    if seconds is not None and think_until is not None:
        seconds = max(LAST_THINK_SECONDS, min(seconds, think_until - time.monotonic()))
    played = bot_play(
        game=game,
        seat=number,
        kind=kind,
        actor="timeout" if person else "bot",
        client_id=f"timeout:{game.version}:{number}",
        seconds=seconds,
    )
    return "bot_moved" if played == "moved" else "refused"


def _table_waits(game: Game, seat: Seat, *, now: datetime) -> str:
    """The table waits: the seat gets another period (the increment, or the initial time if
    there is none) and the other players hear about it."""
    grace = game.clock_increment_seconds or game.clock_initial_seconds
    seat.deadline = arithmetic.deadline_after(
        now, grace, tz=user_zone(seat.user), skip_weekends=game.skip_weekends
    )
    seat.save(update_fields=["deadline"])
    others = list(
        Seat.objects.filter(game=game, bot_kind="", user__is_bot=False)
        .exclude(pk=seat.pk)
        .values_list("pk", flat=True)
    )
    late_id, misses = seat.pk, seat.missed_deadlines

    def tell() -> None:
        for other in others:
            queue_task(MISSED_MAIL, other, late_id, misses)

    transaction.on_commit(tell, robust=True)
    return "waiting"


def deadlines_sweep(*, now: datetime | None = None, limit: int = SWEEP_LIMIT) -> dict[str, int]:
    """Claim every due seat and handle each (one transaction per seat). Returns counts per
    outcome. A failing seat is logged and left claimed: it is due again after the lease."""
    now = now or timezone.now()
    outcomes: dict[str, int] = {}
    think_until = time.monotonic() + SWEEP_THINK_SECONDS
    for claim in deadlines_claim(now=now, limit=limit):
        try:
            outcome = deadline_handle(claim=claim, now=now, think_until=think_until)
        except Exception:
            log.exception("deadline of seat %s could not be handled", claim.seat_id)
            outcome = "error"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes
