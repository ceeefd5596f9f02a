"""End to end through a real Celery worker and the Redis broker: a bot's move, a delayed
"your turn" mail, and a timeout found by the sweep task."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core import mail as django_mail
from django.utils import timezone

from games.clocks.tasks import sweep_deadlines
from games.models import Move, Seat
from games.tables import lifecycle
from notifications.models import Notification
from notifications.tasks import sweep_notifications
from tests.waiting import wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]


def _wait_for(check: Callable[[], object], seconds: float = 30) -> object:
    return wait_until(check, timeout=seconds, message="the worker getting there")


def test_a_worker_plays_the_bot_mails_the_player_and_times_them_out(
    real_worker, make_user, settings, mailoutbox
):
    settings.TURN_EMAIL_DELAY_SECONDS = 1
    alice = make_user(email="alice@example.org", vacation_days=0)
    game = lifecycle.game_create(
        creator=alice, players=2, bots=["greedy"], options={"flags": "random"}
    )
    # The bot's sealed bid is made by the worker.
    _wait_for(lambda: Move.objects.filter(game=game, actor="bot").exists())

    # The "your turn" mail leaves with the first sweep after the grace period, since Alice
    # has not looked: the notifications' sweep runs again and again until it has.
    def mailed() -> bool:
        if django_mail.outbox:
            return True
        sweep_notifications.delay()
        return False

    wait_until(mailed, timeout=30, interval=0.5, message="the turn mail")
    # Not before the grace period, by the times the site recorded (the game's start, the
    # mail's sending), not by this test's clock.
    turn_mail = Notification.objects.get(kind=Notification.Kind.TURN)
    game.refresh_from_db()
    assert turn_mail.sent_at - game.started_at >= timedelta(seconds=1)
    assert [m.to for m in django_mail.outbox] == [["alice@example.org"]]
    # Alice misses her deadline; the sweep task has the bot bid for her.
    seat = Seat.objects.get(game=game, user=alice)
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    sweep_deadlines.delay()
    _wait_for(lambda: Move.objects.filter(game=game, actor="timeout").exists())
    timeout = Move.objects.get(game=game, actor="timeout")
    assert timeout.seat == seat.seat
    assert Seat.objects.get(pk=seat.pk).missed_deadlines == 1
