"""Vacation taken in advance: a player away until a date pauses their clocks in every game,
paid for in vacation days; coming back early refunds the rest. Rules: ``docs/clocks.md``."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.clocks import arithmetic
from games.clocks.seat_clock import CLOCK_FIELDS, counts_as_person, deadline_for, user_zone
from games.models import Game, Seat


def _lock_running_seats(user: User) -> tuple[list[Seat], User]:
    """Lock the user's running games (by id), their seats, then the user row."""
    game_ids = list(
        Seat.objects.filter(user=user, game__status=Game.Status.RUNNING)
        .order_by("game_id")
        .values_list("game_id", flat=True)
    )
    games = {
        g.pk: g for g in Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk")
    }
    seats = list(
        Seat.objects.select_for_update()
        .filter(user=user, game_id__in=list(games))
        .select_related("user")
        .order_by("pk")
    )
    for seat in seats:
        seat.game = games[seat.game_id]
    return seats, User.objects.select_for_update().get(pk=user.pk)


def _checkpoint(seat: Seat, now: datetime, old_away: datetime | None) -> None:
    """Charge a running clock for the time so far and restart it from ``now``."""
    if seat.clock_started_at is None:
        return
    game = seat.game
    elapsed = arithmetic.counted_seconds(
        seat.clock_started_at,
        now,
        tz=user_zone(seat.user),
        skip_weekends=game.skip_weekends,
        paused_until=old_away if counts_as_person(seat) else None,
    )
    seat.clock_remaining_seconds = max(0.0, seat.clock_remaining_seconds - elapsed)
    seat.clock_started_at = now


class VacationError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def vacation_take(*, user: User, until: datetime, now: datetime | None = None) -> User:
    """Be away until ``until``: every clock of the player pauses until then, in all games.

    Costs the length of the absence in vacation days (rounded up to the minute); an absence
    already planned is replaced (its unused part refunded first). ONE transaction; raises
    ``VacationError`` (``code``, ``message``) when the days do not suffice or the date is not
    in the future. A deadline is never brought forward by taking vacation.
    """
    now = now or timezone.now()
    if until.tzinfo is None or until <= now:
        raise VacationError("bad_vacation", _("Choose a return date in the future."))
    if until > now + timedelta(days=arithmetic.VACATION_DAYS_MAX + 1):
        raise VacationError("bad_vacation", _("You can be away for at most 30 days at a time."))
    with transaction.atomic():
        seats, locked = _lock_running_seats(user)
        old_away = locked.away_until if locked.away_until and locked.away_until > now else None
        refund = arithmetic.away_cost_days(now, old_away) if old_away else 0.0
        cost = arithmetic.away_cost_days(now, until)
        if cost > locked.vacation_days + refund + 1e-9:
            raise VacationError(
                "not_enough_vacation",
                _("That needs %(cost).1f vacation days; you have %(left).1f.")
                % {"cost": cost, "left": locked.vacation_days + refund},
            )
        locked.vacation_days = max(0.0, locked.vacation_days + refund - cost)
        locked.away_until = until
        locked.save(update_fields=["vacation_days", "away_until"])
        for seat in seats:
            seat.user = locked
            old_deadline = seat.deadline
            _checkpoint(seat, now, old_away)
            if seat.clock_started_at is not None and counts_as_person(seat):
                seat.deadline = deadline_for(seat, seat.game, now)
                if old_deadline is not None and old_deadline > seat.deadline:
                    seat.deadline = old_deadline
        Seat.objects.bulk_update(seats, CLOCK_FIELDS)
    return locked


def vacation_cancel(*, user: User, now: datetime | None = None) -> User:
    """Come back early: the unused part of the absence is refunded and the clocks run again
    from now with the time each had left. ONE transaction."""
    now = now or timezone.now()
    with transaction.atomic():
        seats, locked = _lock_running_seats(user)
        old_away = locked.away_until
        if old_away is None or old_away <= now:
            return locked
        locked.vacation_days += arithmetic.away_cost_days(now, old_away)
        locked.away_until = None
        locked.save(update_fields=["vacation_days", "away_until"])
        for seat in seats:
            seat.user = locked
            _checkpoint(seat, now, old_away)
            if seat.clock_started_at is not None and counts_as_person(seat):
                seat.deadline = deadline_for(seat, seat.game, now)
        Seat.objects.bulk_update(seats, CLOCK_FIELDS)
    return locked
