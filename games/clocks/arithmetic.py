"""Clock arithmetic for games played over days: pure functions over datetimes and seconds.

No Django, no database and no "now": callers pass every instant in, so the rules are easy to
test (``tests/games/clocks/test_arithmetic.py``, with Hypothesis) and to reuse. The rules in
words are in ``docs/clocks.md``; in short:

* Each seat has a **bank** of seconds. While the seat is due to act its clock runs; when it
  acts, the counted time is taken from the bank (never below zero), then the table's
  **increment** is added, the total capped at the table's **maximum**.
* **Counted time** leaves out two kinds of time: the weekend when the table skips weekends
  (Saturday 00:00 to Monday 00:00 *in the player's own time zone*: a weekend is the player's
  free time, so it follows their calendar, not the server's), and time before the player's
  ``away_until`` (vacation taken in advance pauses that player's clocks).
* The **deadline** is the instant at which the counted time since the clock started equals
  the bank. ``counted_seconds`` and ``deadline_after`` are exact inverses (they share one
  definition of the weekend intervals).
* **Vacation**: before a deadline passes, a day of vacation (or what is left of one) moves
  the deadline by one counted day. Days accrue by ``VACATION_DAYS_PER_DAY_PLAYED`` per day
  played, up to ``VACATION_DAYS_MAX``.

All datetimes must be timezone-aware; results are in UTC.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

HOUR = 3600
DAY = 24 * HOUR

#: Vacation: new players start with this many days (``User.vacation_days`` default).
VACATION_DAYS_START = 10.0
#: ... earn 1 day per 8 days played (a day on which they made at least one move themselves) ...
VACATION_DAYS_PER_DAY_PLAYED = 1 / 8
#: ... and never hold more than this.
VACATION_DAYS_MAX = 30.0

#: Automatic vacation (a day spent when a deadline passes) applies only at tables whose
#: starting time is at least this long. On a quicker clock a day of vacation would be many
#: times the time a move gets and defeat the table's clock (a five-minute game waiting a
#: day), so there a missed deadline goes straight to the table's timeout rule.
AUTO_VACATION_MIN_CLOCK_SECONDS = 12 * HOUR


def auto_vacation_applies(initial_seconds: float) -> bool:
    """Whether a missed deadline at a table with this starting time may spend vacation."""
    return initial_seconds >= AUTO_VACATION_MIN_CLOCK_SECONDS


#: Shortest clock a table may have (quick games for tests and demos): one minute.
MIN_INITIAL_SECONDS = 60
#: Longest bank or cap a table may have.
MAX_CLOCK_SECONDS = 60 * DAY


class InvalidClock(ValueError):
    """A clock setting that cannot be used; ``message`` is a sentence for a player."""

    code = "invalid_clock"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ClockSettings:
    """A table's clock: the starting bank, the increment per move and the cap, in seconds."""

    initial_seconds: int
    increment_seconds: int
    max_seconds: int

    @property
    def hours(self) -> dict[str, float]:
        return {
            "initial_hours": self.initial_seconds / HOUR,
            "increment_hours": self.increment_seconds / HOUR,
            "max_hours": self.max_seconds / HOUR,
        }


#: The named presets ``game_create(clock="fast" | "normal" | "slow")`` accepts.
PRESETS: dict[str, ClockSettings] = {
    "fast": ClockSettings(24 * HOUR, 4 * HOUR, 72 * HOUR),
    "normal": ClockSettings(72 * HOUR, 24 * HOUR, 7 * DAY),
    "slow": ClockSettings(7 * DAY, 3 * DAY, 14 * DAY),
}
DEFAULT_PRESET = "normal"


def _hours(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidClock(f"The clock's {name} must be a number of hours.")
    hours = float(value)
    if not math.isfinite(hours):
        raise InvalidClock(f"The clock's {name} must be a number of hours.")
    return hours


def resolve_clock(clock: str | Mapping[str, object] | None) -> ClockSettings:
    """The clock settings for ``clock``: a preset name, ``None`` (the default preset), or
    ``{"initial_hours", "increment_hours", "max_hours"}`` (numbers, fractions allowed down to
    one minute; ``max_hours`` defaults to the larger of ``initial_hours`` and the increment).

    Raises ``InvalidClock`` (a ``ValueError`` with ``code`` and ``message``) for anything
    else; values are rounded to whole seconds.
    """
    if clock is None:
        return PRESETS[DEFAULT_PRESET]
    if isinstance(clock, str):
        try:
            return PRESETS[clock]
        except KeyError:
            raise InvalidClock(
                f"Unknown clock; use one of {', '.join(PRESETS)} or give hours."
            ) from None
    if not isinstance(clock, Mapping):
        raise InvalidClock("The clock must be a preset name or a set of hours.")
    unknown = set(clock) - {"initial_hours", "increment_hours", "max_hours"}
    if unknown:
        raise InvalidClock(
            "Unknown clock field; the fields are initial_hours, increment_hours and max_hours."
        )
    if "initial_hours" not in clock:
        raise InvalidClock("The clock needs initial_hours.")
    initial = round(_hours(clock["initial_hours"], "initial_hours") * HOUR)
    increment = round(_hours(clock.get("increment_hours", 0), "increment_hours") * HOUR)
    if "max_hours" in clock:
        cap = round(_hours(clock["max_hours"], "max_hours") * HOUR)
    else:
        cap = max(initial, increment)
    if initial < MIN_INITIAL_SECONDS:
        raise InvalidClock("The clock must start with at least one minute.")
    if increment < 0:
        raise InvalidClock("The increment cannot be negative.")
    if cap < initial or cap < increment:
        raise InvalidClock("max_hours must be at least initial_hours and increment_hours.")
    if cap > MAX_CLOCK_SECONDS:
        raise InvalidClock(f"A clock may hold at most {MAX_CLOCK_SECONDS // DAY} days.")
    return ClockSettings(initial, increment, cap)


def zone(name: str | None) -> tzinfo:
    """The time zone called ``name``; UTC for an empty or unknown name (never raises)."""
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def _aware(value: datetime, name: str) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware")
    return value.astimezone(UTC)


def _local_midnight(day: date, tz: tzinfo) -> datetime:
    """Midnight starting ``day`` in ``tz``, as a UTC instant (the earlier one if ambiguous)."""
    return datetime.combine(day, time(0), tzinfo=tz).astimezone(UTC)


def weekend_intervals(start: datetime, tz: tzinfo) -> Iterator[tuple[datetime, datetime]]:
    """Weekends (Saturday 00:00 to Monday 00:00 in ``tz``) as UTC intervals, in order, from
    the one containing or following ``start``. Endless: the caller stops iterating."""
    start = _aware(start, "start")
    local_day = start.astimezone(tz).date()
    # The Saturday on or before the local day: its weekend may still contain ``start``.
    saturday = local_day - timedelta(days=(local_day.weekday() - 5) % 7)
    while True:
        begin = _local_midnight(saturday, tz)
        end = _local_midnight(saturday + timedelta(days=2), tz)
        if end > start and end > begin:
            yield begin, end
        saturday += timedelta(days=7)


def _free_intervals(
    start: datetime, *, tz: tzinfo, skip_weekends: bool, paused_until: datetime | None
) -> Iterator[tuple[datetime, datetime | None]]:
    """Intervals from ``start`` on in which a clock runs (``None`` end: open-ended)."""
    cursor = start
    if paused_until is not None:
        cursor = max(cursor, _aware(paused_until, "paused_until"))
    if not skip_weekends:
        yield cursor, None
        return
    for begin, end in weekend_intervals(cursor, tz):
        if begin > cursor:
            yield cursor, begin
        cursor = max(cursor, end)


def counted_seconds(
    start: datetime,
    end: datetime,
    *,
    tz: tzinfo = UTC,
    skip_weekends: bool = False,
    paused_until: datetime | None = None,
) -> float:
    """Seconds of ``[start, end)`` that count on a clock: weekends (in ``tz``) left out when
    ``skip_weekends``, time before ``paused_until`` left out. Zero when ``end <= start``."""
    start = _aware(start, "start")
    end = _aware(end, "end")
    total = timedelta(0)
    for begin, stop in _free_intervals(
        start, tz=tz, skip_weekends=skip_weekends, paused_until=paused_until
    ):
        if begin >= end:
            break
        stop = end if stop is None else min(stop, end)
        total += stop - begin
    return total.total_seconds()


def deadline_after(
    start: datetime,
    seconds: float,
    *,
    tz: tzinfo = UTC,
    skip_weekends: bool = False,
    paused_until: datetime | None = None,
) -> datetime:
    """The first instant at which ``seconds`` of counted time have passed since ``start``
    (``start`` itself when ``seconds <= 0``). Inverse of ``counted_seconds``."""
    start = _aware(start, "start")
    if seconds <= 0:
        return start
    left = timedelta(seconds=seconds)
    for begin, stop in _free_intervals(
        start, tz=tz, skip_weekends=skip_weekends, paused_until=paused_until
    ):
        if stop is None or stop - begin >= left:
            return begin + left
        left -= stop - begin
    raise AssertionError("unreachable: the free intervals never end")  # pragma: no cover


def bank_after_move(
    remaining: float, elapsed: float, *, increment: float, cap: float, acted: bool = True
) -> float:
    """The bank once a running clock stops: the counted ``elapsed`` time is taken from
    ``remaining`` (never below zero, so time given by vacation is not a debt); a seat that
    acted then gets the ``increment``, the total capped at ``cap`` (a bank already above
    the cap is never cut by moving)."""
    bank = max(0.0, remaining - max(0.0, elapsed))
    if acted:
        bank = min(bank + increment, max(cap, bank))
    return bank


def remaining_at(
    remaining: float,
    started_at: datetime,
    now: datetime,
    *,
    tz: tzinfo = UTC,
    skip_weekends: bool = False,
    paused_until: datetime | None = None,
) -> float:
    """What is left of a bank of ``remaining`` seconds started at ``started_at``, at ``now``
    (may be negative once the deadline has passed)."""
    return remaining - counted_seconds(
        started_at, now, tz=tz, skip_weekends=skip_weekends, paused_until=paused_until
    )


@dataclass(frozen=True)
class VacationSpent:
    deadline: datetime
    days_spent: float
    days_left: float


def spend_vacation(
    deadline: datetime, days_left: float, *, tz: tzinfo = UTC, skip_weekends: bool = False
) -> VacationSpent | None:
    """Move a deadline that is about to pass by one day of vacation (or by what is left, if
    less than a day): the deadline moves by that many counted seconds, so on a table that
    skips weekends a Friday deadline moves to Monday. ``None`` when no vacation is left
    (less than a minute counts as none)."""
    if days_left * DAY < 60:
        return None
    spent = min(1.0, days_left)
    new_deadline = deadline_after(deadline, spent * DAY, tz=tz, skip_weekends=skip_weekends)
    return VacationSpent(new_deadline, spent, max(0.0, days_left - spent))


def accrue_vacation(days: float, *, days_played: int = 1) -> float:
    """Vacation after ``days_played`` more days played: 1/8 day each, never above the
    maximum (a balance already above it is kept, not cut)."""
    if days_played <= 0:
        return days
    return max(days, min(VACATION_DAYS_MAX, days + days_played * VACATION_DAYS_PER_DAY_PLAYED))


def away_cost_days(now: datetime, until: datetime) -> float:
    """Vacation days that being away from ``now`` until ``until`` costs: the exact length in
    days, rounded up to the minute (zero if ``until`` is not in the future)."""
    seconds = (_aware(until, "until") - _aware(now, "now")).total_seconds()
    if seconds <= 0:
        return 0.0
    return math.ceil(seconds / 60) * 60 / DAY
