"""The minute sweeps as the scheduler runs them (``games.clocks.tasks.sweep_deadlines`` for the
clocks and the bots, ``notifications.tasks.sweep_notifications`` for the mails and pushes they
make due), on whichever database the test run has.

Not marked ``postgres``: the embedded mode (SQLite) runs the same sweep, and once crashed in
it every minute while CI, on PostgreSQL only, stayed green. So the embedded test run checks
the sweep on SQLite and the services run on PostgreSQL. (The races between two sweeps and the
query plan stay PostgreSQL tests in clocks/test_sweep.py.)
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.clocks.tasks import sweep_deadlines
from games.models import Game, Move, Seat
from games.tables import lifecycle
from notifications.tasks import sweep_notifications

pytestmark = pytest.mark.django_db(transaction=True)

BID_FIRST = {"flags": "random"}  # both players are due at once: a sealed bid
FAST = {"initial_hours": 24, "increment_hours": 4, "max_hours": 72}


def _table(make_user: Callable[..., User], *names: str, **extra: object) -> Game:
    first, second = (make_user(name, email=f"{name}@example.org", **extra) for name in names)
    game = lifecycle.game_create(creator=first, players=2, options=BID_FIRST, clock=FAST)
    lifecycle.game_join(game_id=game.pk, user=second)
    return Game.objects.get(pk=game.pk)


def _seat(game: Game, username: str) -> Seat:
    return Seat.objects.get(game=game, user__username=username)


def _sweep() -> dict[str, int]:
    """Run the two tasks the way the scheduler and the worker do (through Celery, errors
    raised), the clocks' first, as the scheduler lists them."""
    outcomes: dict[str, int] = {}
    for task in (sweep_deadlines, sweep_notifications):
        result = task.apply()
        assert result.successful(), result.traceback
        outcomes.update(result.result)
    return outcomes


def test_the_scheduler_runs_both_sweeps_every_minute(settings):
    schedule = {
        entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    assert schedule[sweep_deadlines.name] == schedule[sweep_notifications.name]


def test_the_sweep_task_runs_on_an_empty_site():
    outcomes = _sweep()
    assert outcomes["turn_mails"] == 0
    assert outcomes["reminders"] == 0
    assert "error" not in outcomes


def test_one_sweep_spends_vacation_moves_for_the_late_and_mails_turns_and_reminders(
    make_user, mailoutbox, settings
):
    settings.TURN_EMAIL_DELAY_SECONDS = 0
    now = timezone.now()
    resting = _table(make_user, "alice", "bob")  # alice is late but has vacation left
    late = _table(make_user, "carol", "dave", vacation_days=0)  # carol is late, no vacation
    close = _table(make_user, "erin", "frank", reminder_hours=12)  # five hours left
    Seat.objects.filter(pk=_seat(resting, "alice").pk).update(deadline=now - timedelta(minutes=2))
    Seat.objects.filter(pk=_seat(late, "carol").pk).update(deadline=now - timedelta(minutes=2))
    Seat.objects.filter(game=close).update(deadline=now + timedelta(hours=5))
    mailoutbox.clear()

    outcomes = _sweep()

    assert outcomes["vacation"] == 1
    assert outcomes["bot_moved"] == 1
    assert outcomes["turn_mails"] == 6  # every seat became due at the start: taken once
    assert outcomes["reminders"] == 2
    assert "error" not in outcomes
    assert _seat(resting, "alice").deadline > now + timedelta(hours=23)
    assert Move.objects.filter(game=late, actor="timeout", seat=_seat(late, "carol").seat).exists()
    one, two, three = (f"Colorado County, table {g.pk}" for g in (resting, late, close))
    assert sorted(
        (m.to[0].split("@")[0], m.subject.removeprefix("[Colorado County online] "))
        for m in mailoutbox
    ) == [
        ("alice", f"A vacation day was used in {one}"),
        ("alice", f"Your turn: {one}"),
        ("bob", f"Your turn: {one}"),
        ("dave", f"Your turn: {two}"),  # not carol: the bot made her bid
        ("erin", f"Reminder: your move in {three}"),
        ("erin", f"Your turn: {three}"),
        ("frank", f"Reminder: your move in {three}"),
        ("frank", f"Your turn: {three}"),
    ]

    # A minute later nothing is due again: no second reminder, no second move.
    mailoutbox.clear()
    outcomes = _sweep()
    assert outcomes["reminders"] == 0
    assert outcomes["turn_mails"] == 0
    assert "bot_moved" not in outcomes
    assert mailoutbox == []
