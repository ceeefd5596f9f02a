"""Clocks on real games: banks at the start, increments, simultaneous bids, the end,
weekends in the player's zone, vacation accrual and time away."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction
from django.template import Context, Template
from django.utils import timezone

from accounts.models import User
from games import moves
from games.clocks import arithmetic as clocks
from games.clocks.advance import clocks_advance
from games.clocks.vacation import VacationError, vacation_cancel, vacation_take
from games.models import Game, Move, Seat
from games.selectors import documents
from games.tables import lifecycle
from tests.play import play_randomly

pytestmark = pytest.mark.django_db(transaction=True)

BID_FIRST = {"flags": "random"}  # the game opens with a simultaneous sealed bid
HOUR = 3600
FAST = {"initial_hours": 24, "increment_hours": 4, "max_hours": 72}


def _table(make_user: Callable[..., User], **create: object) -> tuple[Game, list[User]]:
    users = [make_user(), make_user()]
    game = lifecycle.game_create(creator=users[0], players=2, options=BID_FIRST, **create)
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game, users


def _seat(game: Game, user: User) -> Seat:
    return Seat.objects.select_related("user").get(game=game, user=user)


def _bid(game: Game, user: User) -> Game:
    doc = documents.game_document(game=game, user=user)
    empty_bid = next(a for a in doc["legal_actions"] if a["type"] == "bid")
    return moves.action_submit(game_id=game.pk, user=user, action=empty_bid, version=doc["version"])


def _age_clock(seat: Seat, hours: float) -> None:
    """Pretend the seat's clock started ``hours`` ago (its deadline moves with it)."""
    shift = timedelta(hours=hours)
    Seat.objects.filter(pk=seat.pk).update(
        clock_started_at=seat.clock_started_at - shift, deadline=seat.deadline - shift
    )


def test_game_create_takes_its_presets_from_the_clock_module(make_user):
    for name, preset in clocks.PRESETS.items():
        game = lifecycle.game_create(creator=make_user(), players=2, clock=name)
        assert (
            game.clock_initial_seconds,
            game.clock_increment_seconds,
            game.clock_max_seconds,
        ) == (preset.initial_seconds, preset.increment_seconds, preset.max_seconds)


def test_at_the_start_every_seat_has_the_initial_bank_and_a_deadline(make_user):
    before = timezone.now()
    game, users = _table(make_user, clock=FAST)
    for user in users:
        seat = _seat(game, user)
        assert seat.clock_remaining_seconds == 24 * HOUR
        assert before <= seat.clock_started_at <= timezone.now()
        assert seat.deadline == seat.clock_started_at + timedelta(hours=24)
    doc = documents.game_document(game=game, user=users[0])
    deadlines = {s["clock_deadline"] for s in doc["seats"]}
    assert None not in deadlines  # both bid at once, so both clocks run


def test_a_bid_stops_my_clock_adds_the_increment_and_leaves_the_others_running(make_user):
    game, (alice, bob) = _table(make_user, clock="normal")
    _age_clock(_seat(game, alice), 10)
    bob_deadline = _seat(game, bob).deadline
    game = _bid(game, alice)
    seat = _seat(game, alice)
    # 72 h - 10 h used + 24 h increment
    assert seat.clock_remaining_seconds == pytest.approx(86 * HOUR, abs=5)
    assert seat.clock_started_at is None
    assert seat.deadline is None
    assert _seat(game, bob).deadline == bob_deadline


def test_the_increment_is_capped(make_user):
    game, (alice, _bob) = _table(
        make_user, clock={"initial_hours": 24, "increment_hours": 12, "max_hours": 30}
    )
    game = _bid(game, alice)
    assert _seat(game, alice).clock_remaining_seconds == pytest.approx(30 * HOUR, abs=1)


def test_a_late_move_on_a_waiting_table_leaves_only_the_increment(make_user):
    game, (alice, _bob) = _table(make_user, clock=FAST, on_timeout="wait")
    _age_clock(_seat(game, alice), 30)  # 6 hours past the 24-hour deadline
    game = _bid(game, alice)
    assert _seat(game, alice).clock_remaining_seconds == pytest.approx(4 * HOUR, abs=1)


def test_when_the_game_ends_every_deadline_is_cleared(make_user):
    alice = make_user()
    game = lifecycle.game_create(creator=alice, players=2, bots=["greedy"], options=BID_FIRST)
    game = play_randomly(game, [alice], seed=3)
    assert game.status == Game.Status.FINISHED
    assert not Seat.objects.filter(game=game, deadline__isnull=False).exists()
    assert not Seat.objects.filter(game=game, clock_started_at__isnull=False).exists()


def test_weekends_are_skipped_in_the_players_own_time_zone(make_user):
    game, (alice, bob) = _table(make_user, clock=FAST, skip_weekends=True)
    User.objects.filter(pk=alice.pk).update(time_zone="Pacific/Auckland")
    User.objects.filter(pk=bob.pk).update(time_zone="America/Los_Angeles")
    # Restart both clocks from a known Friday noon UTC by making a fresh start.
    friday_noon = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)

    game.refresh_from_db()
    with transaction.atomic():
        clocks_advance(
            game=game,
            move=None,
            previous_to_act=frozenset(),
            to_act=frozenset(game.to_act),
            now=friday_noon,
        )
    # Auckland: Friday noon UTC is already Saturday 01:00 there: the clock waits for Monday.
    auckland = _seat(game, alice).deadline
    assert auckland == clocks.deadline_after(
        friday_noon, 24 * HOUR, tz=clocks.zone("Pacific/Auckland"), skip_weekends=True
    )
    assert auckland.astimezone(clocks.zone("Pacific/Auckland")).strftime("%a %H:%M") == (
        "Tue 00:00"
    )
    # Los Angeles: Friday 04:00 there; 20 hours left on Friday, 4 on Monday.
    los_angeles = _seat(game, bob).deadline
    assert los_angeles.astimezone(clocks.zone("America/Los_Angeles")).strftime("%a %H:%M") == (
        "Mon 04:00"
    )


def test_the_first_move_of_a_day_earns_an_eighth_of_a_vacation_day(make_user):
    game, (alice, _bob) = _table(make_user)
    assert alice.vacation_days == 10
    game = _bid(game, alice)
    alice.refresh_from_db()
    assert alice.vacation_days == 10.125
    # A move in a second game the same day earns nothing more.
    game2 = lifecycle.game_create(creator=alice, players=2, options=BID_FIRST)
    lifecycle.game_join(game_id=game2.pk, user=make_user())
    _bid(Game.objects.get(pk=game2.pk), alice)
    alice.refresh_from_db()
    assert alice.vacation_days == 10.125
    assert Move.objects.filter(user=alice, actor="player").count() == 2


def test_vacation_never_accrues_above_thirty_days(make_user):
    game, (alice, _bob) = _table(make_user)
    User.objects.filter(pk=alice.pk).update(vacation_days=29.95)
    _bid(game, alice)
    alice.refresh_from_db()
    assert alice.vacation_days == 30


def test_time_away_pauses_my_clocks_in_every_game_and_costs_its_days(make_user):
    game, (alice, bob) = _table(make_user, clock=FAST)
    game2 = lifecycle.game_create(creator=alice, players=2, options=BID_FIRST, clock="slow")
    lifecycle.game_join(game_id=game2.pk, user=make_user())
    _age_clock(_seat(game, alice), 4)  # 4 of the 24 hours used
    now = timezone.now()
    back = now + timedelta(days=3)
    user = vacation_take(user=alice, until=back, now=now)
    assert user.vacation_days == pytest.approx(7.0)
    assert user.away_until == back
    seat = _seat(game, alice)
    assert seat.clock_remaining_seconds == pytest.approx(20 * HOUR, abs=30)
    assert seat.deadline == back + timedelta(seconds=seat.clock_remaining_seconds)
    seat2 = Seat.objects.get(game=game2, user=alice)
    assert seat2.deadline == back + timedelta(seconds=seat2.clock_remaining_seconds)
    # Bob's clock is not paused.
    assert _seat(game, bob).deadline < back
    # Coming back a day early refunds the day and restarts the clocks from now.
    later = now + timedelta(days=2)
    user = vacation_cancel(user=alice, now=later)
    assert user.vacation_days == pytest.approx(8.0)
    assert user.away_until is None
    seat = _seat(game, alice)
    assert seat.deadline == later + timedelta(seconds=seat.clock_remaining_seconds)


def test_time_away_must_be_affordable_and_in_the_future(make_user):
    _game, (alice, _bob) = _table(make_user)
    now = timezone.now()
    with pytest.raises(VacationError) as refused:
        vacation_take(user=alice, until=now + timedelta(days=12), now=now)
    assert refused.value.code == "not_enough_vacation"
    with pytest.raises(VacationError):
        vacation_take(user=alice, until=now - timedelta(hours=1), now=now)
    alice.refresh_from_db()
    assert alice.vacation_days == 10
    assert alice.away_until is None


def test_moving_while_away_costs_no_time(make_user):
    game, (alice, _bob) = _table(make_user, clock=FAST)
    vacation_take(user=alice, until=timezone.now() + timedelta(days=1))
    game = _bid(game, alice)
    # Nothing counted while away: the full bank plus the increment, capped at 72 h.
    assert _seat(game, alice).clock_remaining_seconds == pytest.approx(28 * HOUR, abs=1)


def test_deadline_tag_shows_the_viewers_time_zone(make_user):
    tokyo = make_user(time_zone="Asia/Tokyo")
    deadline = datetime(2026, 12, 1, 15, 30, tzinfo=UTC)
    html = Template("{% load clock_tags %}{% deadline when viewer %}").render(
        Context({"when": deadline, "viewer": tokyo})
    )
    assert 'datetime="2026-12-01T15:30:00Z"' in html
    assert "Wed 2 Dec, 00:30 (Asia/Tokyo)" in html
    html = Template("{% load clock_tags %}{% deadline when viewer %}").render(
        Context({"when": deadline, "viewer": None})
    )
    assert "Tue 1 Dec, 15:30 (UTC)" in html
    local = Template(
        "{% load clock_tags tz %}{% timezone viewer|zone_of %}{{ when|date:'H:i' }}"
        "{% endtimezone %} {{ when|deadline_text:viewer }}"
    ).render(Context({"when": deadline, "viewer": "America/New_York"}))
    assert local == "10:30 Tue 1 Dec, 10:30 (America/New_York)"
