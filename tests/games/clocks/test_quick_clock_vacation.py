"""Issue 15, bug 10: on a quick clock a missed deadline does not spend a day of vacation
(which would make a five-minute table wait a day); the bot moves for the late player at
once, as the table chose. The table says which rule applies."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.clocks.sweep import deadlines_sweep
from games.models import Game, Move, Seat
from games.tables import lifecycle

pytestmark = pytest.mark.django_db(transaction=True)

QUICK = {"initial_hours": 5 / 60, "increment_hours": 1 / 60, "max_hours": 5 / 60}
TWELVE = {"initial_hours": 12, "increment_hours": 1, "max_hours": 24}


def _table(make_user: Callable[..., User], clock: dict[str, float]) -> tuple[Game, User]:
    alice, bob = make_user(email="a@example.org"), make_user(email="b@example.org")
    game = lifecycle.game_create(creator=alice, players=2, options={"flags": "random"}, clock=clock)
    lifecycle.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game, alice


def _overdue(game: Game, user: User) -> Seat:
    seat = Seat.objects.get(game=game, user=user)
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    return seat


def test_a_five_minute_table_spends_no_vacation_and_the_bot_moves(make_user):
    game, alice = _table(make_user, QUICK)
    seat = _overdue(game, alice)
    before = User.objects.get(pk=alice.pk).vacation_days
    result = deadlines_sweep()
    assert result.get("vacation", 0) == 0
    assert User.objects.get(pk=alice.pk).vacation_days == before
    assert Move.objects.filter(game=game, seat=seat.seat, actor="timeout").exists()
    seat.refresh_from_db()
    assert seat.missed_deadlines == 1


def test_a_twelve_hour_table_still_spends_vacation_first(make_user):
    game, alice = _table(make_user, TWELVE)
    _overdue(game, alice)
    assert deadlines_sweep() == {"vacation": 1}
    assert User.objects.get(pk=alice.pk).vacation_days == pytest.approx(9.0)


def test_the_table_page_says_which_rule_applies(make_user):
    quick, _alice = _table(make_user, QUICK)
    slow, _ = _table(make_user, TWELVE)
    client = Client()
    page = client.get(f"/games/{quick.pk}/").content.decode()
    assert "No automatic vacation: the clock is too quick" in page
    assert "Clock: 5 minutes, +1 minute a move" in page
    page = client.get(f"/games/{slow.pk}/").content.decode()
    assert "Vacation days are used when a deadline passes" in page
