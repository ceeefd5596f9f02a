"""Which players a reminder is due to, on every database the site runs on.

Not marked ``postgres``: the embedded run mode keeps its data in SQLite, and the query once
used an expression (integer times interval) only PostgreSQL understands, so the sweep of the
README's first command failed every minute and no reminder ever left.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.models import Seat
from notifications import turn_mails

pytestmark = pytest.mark.django_db(transaction=True)

HOUR = timedelta(hours=1)


def _deadline(user: User, deadline) -> None:
    Seat.objects.filter(user=user).update(deadline=deadline)


def test_each_player_is_reminded_within_their_own_reminder_hours(person, two_player_game):
    now = timezone.now()
    one, six = person("one", reminder_hours=1), person("six", reminder_hours=6)
    most, never = person("most", reminder_hours=72), person("never", reminder_hours=0)
    two_player_game(one, six)
    two_player_game(most, never)
    # Every deadline five hours away: within six's and most's window, not one's.
    for user in (one, six, most, never):
        _deadline(user, now + 5 * HOUR)
    assert {s.user.username for s in turn_mails.reminders_due(now=now)} == {"six", "most"}
    # Exactly at the edge of each window counts; a second later does not.
    _deadline(one, now + HOUR)
    _deadline(six, now + 6 * HOUR + timedelta(seconds=1))
    _deadline(most, now + 72 * HOUR)
    assert {s.user.username for s in turn_mails.reminders_due(now=now)} == {"one", "most"}
    _deadline(most, now + 72 * HOUR + timedelta(seconds=1))
    assert {s.user.username for s in turn_mails.reminders_due(now=now)} == {"one"}


def test_a_passed_deadline_or_a_player_who_wants_no_mail_gets_no_reminder(person, two_player_game):
    now = timezone.now()
    alice = person("alice", reminder_hours=12)
    bob = person("bob", reminder_hours=12, email_notifications=User.EmailNotifications.OFF)
    two_player_game(alice, bob)
    _deadline(alice, now - timedelta(seconds=1))
    _deadline(bob, now + HOUR)
    assert turn_mails.reminders_due(now=now) == []


def test_a_reminder_hours_above_the_settings_limit_reminds_at_the_limit(person, two_player_game):
    """The settings form allows 0..72; a larger value (set in the admin) reminds 72 hours
    before, not never."""
    now = timezone.now()
    alice, bob = person("alice", reminder_hours=500), person("bob", reminder_hours=0)
    two_player_game(alice, bob)
    _deadline(alice, now + 100 * HOUR)
    assert turn_mails.reminders_due(now=now) == []
    _deadline(alice, now + 71 * HOUR)
    assert [s.user.username for s in turn_mails.reminders_due(now=now)] == ["alice"]


def test_finding_the_reminders_due_is_one_query(person, two_player_game):
    now = timezone.now()
    for n in range(3):
        first = person(f"a{n}", reminder_hours=n + 1)
        second = person(f"b{n}", reminder_hours=n + 10)
        two_player_game(first, second)
    Seat.objects.update(deadline=now + 2 * HOUR)
    with CaptureQueriesContext(connection) as queries:
        due = turn_mails.reminders_due(now=now)
        names = sorted(s.user.username for s in due)
        games = {s.game.pk for s in due}
    assert names == ["a1", "a2", "b0", "b1", "b2"]
    assert len(games) == 3
    assert len(queries) == 1
