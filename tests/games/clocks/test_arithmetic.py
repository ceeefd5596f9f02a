"""Clock arithmetic (games/clocks.py): banks, increments, weekends, vacation."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.clocks import arithmetic as clocks
from games.clocks.arithmetic import DAY, HOUR

ZONES = [
    "UTC",
    "Europe/Berlin",
    "America/New_York",
    "Asia/Kolkata",
    "Pacific/Auckland",
    "Australia/Lord_Howe",  # half-hour DST shift
    "America/Santiago",  # DST changes around midnight
    "Pacific/Apia",  # skipped a whole day in 2011
    "Asia/Kathmandu",
]

instants = st.datetimes(
    min_value=datetime(2010, 1, 1),  # noqa: DTZ001 - bounds for aware values below
    max_value=datetime(2035, 12, 31),  # noqa: DTZ001
    timezones=st.just(UTC),
)
zones = st.sampled_from(ZONES).map(clocks.zone)
banks = st.floats(min_value=0, max_value=30 * DAY, allow_nan=False)
spans = st.floats(min_value=0, max_value=40 * DAY, allow_nan=False)
EPS = 1e-5  # datetimes have microseconds; allow for one rounding


def in_weekend(instant: datetime, tz) -> bool:
    return instant.astimezone(tz).weekday() >= 5


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


# --- presets and settings -----------------------------------------------------------------


def test_presets_are_the_published_ones():
    assert clocks.PRESETS["fast"] == clocks.ClockSettings(24 * HOUR, 4 * HOUR, 72 * HOUR)
    assert clocks.PRESETS["normal"] == clocks.ClockSettings(72 * HOUR, 24 * HOUR, 7 * DAY)
    assert clocks.PRESETS["slow"] == clocks.ClockSettings(7 * DAY, 3 * DAY, 14 * DAY)
    assert clocks.resolve_clock(None) == clocks.PRESETS["normal"]
    assert clocks.resolve_clock("slow") == clocks.PRESETS["slow"]


def test_hours_may_be_fractional_down_to_a_minute():
    quick = clocks.resolve_clock({"initial_hours": 1 / 60, "increment_hours": 0.5 / 60})
    assert quick == clocks.ClockSettings(60, 30, 60)
    assert clocks.resolve_clock(
        {"initial_hours": 72, "increment_hours": 24, "max_hours": 168}
    ) == clocks.resolve_clock("normal")


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ("blitz", "Unknown clock"),
        ({"increment_hours": 3}, "initial_hours"),
        ({"initial_hours": 0.001}, "one minute"),
        ({"initial_hours": "12"}, "number of hours"),
        ({"initial_hours": True}, "number of hours"),
        ({"initial_hours": float("nan")}, "number of hours"),
        ({"initial_hours": 12, "increment_hours": -1}, "negative"),
        ({"initial_hours": 48, "max_hours": 24}, "at least"),
        ({"initial_hours": 24 * 365}, "at most"),
        ({"initial_hours": 24, "bonus": 1}, "Unknown clock field"),  # never echoed
        (12, "preset name"),
    ],
)
def test_bad_clock_settings_are_refused_with_a_sentence(clock, words):
    with pytest.raises(clocks.InvalidClock) as caught:
        clocks.resolve_clock(clock)
    assert words in caught.value.message
    assert caught.value.code == "invalid_clock"


def test_unknown_time_zone_falls_back_to_utc():
    assert clocks.zone("Mars/Olympus_Mons") is UTC
    assert clocks.zone("") is UTC
    assert clocks.zone(None) is UTC


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        clocks.counted_seconds(datetime(2026, 1, 1), utc(2026, 1, 2))  # noqa: DTZ001


# --- counted time and deadlines -----------------------------------------------------------


@given(start=instants, seconds=banks, tz=zones, skip=st.booleans())
def test_deadline_is_when_the_bank_is_used_up(start, seconds, tz, skip):
    deadline = clocks.deadline_after(start, seconds, tz=tz, skip_weekends=skip)
    assert deadline >= start
    counted = clocks.counted_seconds(start, deadline, tz=tz, skip_weekends=skip)
    assert counted == pytest.approx(seconds, abs=EPS)


@given(start=instants, seconds=st.floats(min_value=1, max_value=30 * DAY), tz=zones)
def test_deadline_is_the_first_such_instant(start, seconds, tz):
    deadline = clocks.deadline_after(start, seconds, tz=tz, skip_weekends=True)
    just_before = deadline - timedelta(milliseconds=1)
    assert clocks.counted_seconds(start, just_before, tz=tz, skip_weekends=True) < seconds


@given(start=instants, seconds=banks, tz=zones)
def test_without_skipping_weekends_a_clock_is_wall_time(start, seconds, tz):
    deadline = clocks.deadline_after(start, seconds, tz=tz, skip_weekends=False)
    assert deadline == start + timedelta(seconds=seconds)


@given(a=instants, d1=spans, d2=spans, tz=zones, skip=st.booleans())
def test_counted_time_adds_up(a, d1, d2, tz, skip):
    b = a + timedelta(seconds=d1)
    c = b + timedelta(seconds=d2)
    whole = clocks.counted_seconds(a, c, tz=tz, skip_weekends=skip)
    parts = clocks.counted_seconds(a, b, tz=tz, skip_weekends=skip) + clocks.counted_seconds(
        b, c, tz=tz, skip_weekends=skip
    )
    assert whole == pytest.approx(parts, abs=EPS)
    assert 0 <= whole <= (c - a).total_seconds() + EPS


@given(start=instants, tz=zones)
def test_a_week_counts_five_weekdays(start, tz):
    counted = clocks.counted_seconds(start, start + timedelta(days=7), tz=tz, skip_weekends=True)
    # Exactly five days, give or take a daylight-saving shift (or Samoa's lost Friday).
    assert 4 * DAY <= counted <= 5 * DAY + 2 * HOUR
    if tz is UTC:
        assert counted == 5 * DAY


@given(start=instants, seconds=st.floats(min_value=1, max_value=30 * DAY), tz=zones)
def test_a_deadline_never_falls_inside_a_weekend(start, seconds, tz):
    deadline = clocks.deadline_after(start, seconds, tz=tz, skip_weekends=True)
    # It may fall exactly at Saturday 00:00 (the last counted instant), never after it.
    assert not in_weekend(deadline - timedelta(microseconds=1), tz)


@given(
    day=st.dates(min_value=date(2010, 1, 1), max_value=date(2035, 12, 20)),
    tz=zones,
    into=st.integers(min_value=0, max_value=2 * 86400 - 1),
    minutes=st.integers(min_value=1, max_value=60),
)
def test_weekend_time_does_not_count(day, tz, into, minutes):
    # Drawn inside a local weekend (Saturday 00:00 + up to two days of wall time) rather
    # than filtered from all instants, which threw away five draws in seven.
    saturday = day + timedelta(days=(5 - day.weekday()) % 7)
    local = datetime.combine(saturday, time(), tzinfo=tz) + timedelta(seconds=into)
    start = local.astimezone(UTC)
    end = start + timedelta(minutes=minutes)
    assume(in_weekend(start, tz) and in_weekend(end, tz))  # only a weekend's last hour fails
    assert clocks.counted_seconds(start, end, tz=tz, skip_weekends=True) == 0


@given(start=instants, end=instants, pause=instants, tz=zones, skip=st.booleans())
def test_time_before_away_until_does_not_count(start, end, pause, tz, skip):
    paused = clocks.counted_seconds(start, end, tz=tz, skip_weekends=skip, paused_until=pause)
    assert paused == pytest.approx(
        clocks.counted_seconds(max(start, pause), end, tz=tz, skip_weekends=skip), abs=EPS
    )


def test_friday_evening_in_berlin_runs_on_into_monday():
    berlin = clocks.zone("Europe/Berlin")
    friday_21h_berlin = utc(2026, 12, 4, 20, 0)
    # 3 hours left on Friday (until Saturday 00:00 Berlin = 23:00 UTC), the rest on Monday.
    deadline = clocks.deadline_after(friday_21h_berlin, 6 * HOUR, tz=berlin, skip_weekends=True)
    assert deadline == utc(2026, 12, 7, 2, 0)  # Monday 03:00 in Berlin
    # The same clock in New York (Friday 15:00 there) ends the same Friday.
    new_york = clocks.zone("America/New_York")
    assert clocks.deadline_after(
        friday_21h_berlin, 6 * HOUR, tz=new_york, skip_weekends=True
    ) == utc(2026, 12, 5, 2, 0)


def test_a_clock_started_on_sunday_starts_running_on_monday():
    berlin = clocks.zone("Europe/Berlin")
    sunday = utc(2026, 12, 6, 12, 0)
    assert clocks.deadline_after(sunday, HOUR, tz=berlin, skip_weekends=True) == utc(
        2026, 12, 7, 0, 0
    )


def test_a_weekend_with_the_clocks_going_forward_is_47_hours():
    berlin = clocks.zone("Europe/Berlin")
    friday = utc(2026, 3, 27, 12, 0)
    monday = utc(2026, 3, 30, 12, 0)
    skipped = (monday - friday).total_seconds() - clocks.counted_seconds(
        friday, monday, tz=berlin, skip_weekends=True
    )
    assert skipped == 47 * HOUR


def test_away_pushes_the_deadline_past_the_return():
    start = utc(2026, 12, 1, 9, 0)
    back = utc(2026, 12, 10, 9, 0)
    assert clocks.deadline_after(start, DAY, paused_until=back) == back + timedelta(days=1)
    assert clocks.counted_seconds(start, back) == 9 * DAY
    assert clocks.counted_seconds(start, back, paused_until=back) == 0


# --- banks and increments -----------------------------------------------------------------


@given(
    remaining=banks,
    elapsed=banks,
    increment=st.floats(min_value=0, max_value=7 * DAY),
    cap=banks,
)
def test_a_move_takes_the_elapsed_time_then_adds_the_capped_increment(
    remaining, elapsed, increment, cap
):
    bank = clocks.bank_after_move(remaining, elapsed, increment=increment, cap=cap)
    assert bank >= 0
    assert bank <= max(cap, remaining) + EPS
    left = max(0.0, remaining - elapsed)
    assert bank == pytest.approx(min(left + increment, max(cap, left)))
    slower = clocks.bank_after_move(remaining, elapsed + HOUR, increment=increment, cap=cap)
    assert slower <= bank


def test_increment_and_cap_examples():
    normal = clocks.PRESETS["normal"]
    bank = normal.initial_seconds
    # A quick move gains a day, up to the 7-day cap.
    for _ in range(10):
        bank = clocks.bank_after_move(
            bank, HOUR, increment=normal.increment_seconds, cap=normal.max_seconds
        )
    assert bank == normal.max_seconds
    # Overrunning (vacation or a late move on a waiting table) leaves no debt.
    assert clocks.bank_after_move(HOUR, 5 * HOUR, increment=4 * HOUR, cap=72 * HOUR) == 4 * HOUR
    # A seat whose turn passed without acting gets no increment.
    assert clocks.bank_after_move(10 * HOUR, HOUR, increment=4 * HOUR, cap=72 * HOUR, acted=False)
    assert (
        clocks.bank_after_move(10 * HOUR, HOUR, increment=4 * HOUR, cap=72 * HOUR, acted=False)
        == 9 * HOUR
    )


@given(start=instants, bank=banks, now=instants, tz=zones, skip=st.booleans())
def test_remaining_reaches_zero_exactly_at_the_deadline(start, bank, now, tz, skip):
    deadline = clocks.deadline_after(start, bank, tz=tz, skip_weekends=skip)
    left = clocks.remaining_at(bank, start, now, tz=tz, skip_weekends=skip)
    if now < deadline:
        assert left > -EPS
    else:
        assert left < EPS
    assert clocks.remaining_at(bank, start, deadline, tz=tz, skip_weekends=skip) == pytest.approx(
        0, abs=EPS
    )


# --- vacation -----------------------------------------------------------------------------


@given(deadline=instants, days=st.floats(min_value=0, max_value=30), tz=zones, skip=st.booleans())
def test_vacation_moves_a_deadline_by_at_most_one_counted_day(deadline, days, tz, skip):
    spent = clocks.spend_vacation(deadline, days, tz=tz, skip_weekends=skip)
    if days * DAY < 60:  # less than a minute left is nothing to spend
        assert spent is None
        return
    assert spent is not None
    assert spent.days_spent == min(1.0, days)
    assert spent.days_left == pytest.approx(days - spent.days_spent)
    assert spent.deadline > deadline
    gained = clocks.counted_seconds(deadline, spent.deadline, tz=tz, skip_weekends=skip)
    assert gained == pytest.approx(spent.days_spent * DAY, abs=EPS)


def test_vacation_spends_what_is_left_of_a_day():
    deadline = utc(2026, 12, 2, 12, 0)
    spent = clocks.spend_vacation(deadline, 0.25)
    assert spent == clocks.VacationSpent(utc(2026, 12, 2, 18, 0), 0.25, 0.0)


def test_a_vacation_day_on_friday_moves_a_weekend_skipping_deadline_to_monday():
    friday_noon = utc(2026, 12, 4, 12, 0)
    spent = clocks.spend_vacation(friday_noon, 3, skip_weekends=True)
    assert spent is not None
    assert spent.deadline == utc(2026, 12, 7, 12, 0)
    assert spent.days_left == 2


@given(days=st.floats(min_value=0, max_value=30), played=st.integers(min_value=0, max_value=400))
def test_vacation_accrues_an_eighth_of_a_day_per_day_played_up_to_30(days, played):
    after = clocks.accrue_vacation(days, days_played=played)
    assert days <= after <= clocks.VACATION_DAYS_MAX
    assert after == pytest.approx(min(30.0, days + played / 8))


def test_eight_days_played_earn_one_vacation_day():
    days = clocks.VACATION_DAYS_START
    for _ in range(8):
        days = clocks.accrue_vacation(days)
    assert days == 11.0
    assert clocks.accrue_vacation(29.9) == 30.0
    assert clocks.accrue_vacation(30.0) == 30.0


@settings(max_examples=50)
@given(now=instants, minutes=st.integers(min_value=-100, max_value=60 * 24 * 40))
def test_being_away_costs_its_length_in_days(now, minutes):
    cost = clocks.away_cost_days(now, now + timedelta(minutes=minutes))
    assert cost == pytest.approx(max(0, minutes) / (60 * 24))


def test_being_away_is_rounded_up_to_the_minute():
    now = utc(2026, 12, 1)
    assert clocks.away_cost_days(now, now + timedelta(seconds=1)) == 60 / DAY
