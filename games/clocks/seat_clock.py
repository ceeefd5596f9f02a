"""One seat's clock on the database: the zone it runs in, whether a person plays it, the
time counted since it started and its deadline (the arithmetic is ``games.clocks.arithmetic``).
Shared by the receiver, the sweep, vacation and the replace votes."""

from __future__ import annotations

from datetime import datetime, tzinfo

from accounts.models import User
from games.clocks import arithmetic
from games.models import Game, Seat

#: The seat fields a clock change writes.
CLOCK_FIELDS = ["clock_remaining_seconds", "clock_started_at", "deadline"]


def user_zone(user: User) -> tzinfo:
    return arithmetic.zone(user.time_zone)


def counts_as_person(seat: Seat) -> bool:
    """A seat a person plays now (not a bot account, not handed to a bot)."""
    return not seat.bot_kind and not seat.user.is_bot


def away_until(seat: Seat) -> datetime | None:
    """Until when the seat's clock is paused by its player's vacation (persons only)."""
    return seat.user.away_until if counts_as_person(seat) else None


def elapsed(seat: Seat, game: Game, now: datetime) -> float:
    """Counted seconds since the seat's clock started (0 when it is not running)."""
    if seat.clock_started_at is None:
        return 0.0
    return arithmetic.counted_seconds(
        seat.clock_started_at,
        now,
        tz=user_zone(seat.user),
        skip_weekends=game.skip_weekends,
        paused_until=away_until(seat),
    )


def deadline_for(seat: Seat, game: Game, start: datetime) -> datetime:
    """The deadline of a clock started at ``start`` with the seat's bank."""
    return arithmetic.deadline_after(
        start,
        seat.clock_remaining_seconds,
        tz=user_zone(seat.user),
        skip_weekends=game.skip_weekends,
        paused_until=away_until(seat),
    )
