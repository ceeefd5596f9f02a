"""A mail task lost before it ran (the broker lost it, or the worker died holding it, before
it wrote its ``Notification`` row): the hourly task sees the mail is owed and sends it, once.
Invitations and "game finished" mails are queued from ``on_commit`` receivers only, so
without this sweep nothing would ever redo them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Game
from games.tables import lifecycle
from notifications import tasks
from notifications.owed import OWED_AFTER, OWED_FOR, owed_mails_queue
from tests.play import play_randomly

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lost_tasks(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every invitation and finished-mail task queued from the receivers is lost."""
    lost: list[Any] = []
    for task in (tasks.send_invitation_email, tasks.send_finished_email):
        monkeypatch.setattr(task, "delay", lambda *args, _lost=lost: _lost.append(args))
    return lost


def test_a_lost_invitation_mail_is_sent_by_the_hourly_task(
    person: Callable[..., User],
    mailoutbox: list,
    lost_tasks: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice = person("alice", display_name="Alice Ames")
    person("bob")
    person("quiet", email_notifications=User.EmailNotifications.OFF)
    lifecycle.game_create(creator=alice, players=3, invite=["bob", "quiet"], open_seats=False)
    assert lost_tasks  # queued, and lost
    assert mailoutbox == []

    # Too soon: the task may still be on its way.
    assert owed_mails_queue(now=timezone.now()) == 0
    later = timezone.now() + OWED_AFTER + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    tasks.send_digests()  # the hourly task
    (message,) = mailoutbox  # bob only: "quiet" wants no mail
    assert message.to == ["bob@example.org"]
    assert "“@alice” invites you" in message.subject

    # Sent: nothing is owed any more, whatever runs again.
    tasks.send_digests()
    assert owed_mails_queue(now=later) == 0
    assert len(mailoutbox) == 1


def test_an_answered_or_stale_invitation_is_owed_nothing(
    person: Callable[..., User], mailoutbox: list, lost_tasks: list[Any]
) -> None:
    alice, bob = person("alice"), person("bob")
    game = lifecycle.game_create(creator=alice, players=2, invite=["bob"], open_seats=False)
    assert owed_mails_queue(now=timezone.now() + OWED_FOR + timedelta(minutes=1)) == 0
    lifecycle.game_join(game_id=game.pk, user=bob)
    assert owed_mails_queue(now=timezone.now() + OWED_AFTER + timedelta(seconds=1)) == 0
    assert mailoutbox == []


def test_a_lost_game_finished_mail_is_sent_by_the_hourly_task(
    person: Callable[..., User], mailoutbox: list, lost_tasks: list[Any]
) -> None:
    alice = person("alice")
    bob = person("bob", email_notifications=User.EmailNotifications.DIGEST)
    game = lifecycle.game_create(creator=alice, players=2, options={"flags": "random"})
    lifecycle.game_join(game_id=game.pk, user=bob)
    game = play_randomly(Game.objects.get(pk=game.pk), [alice, bob], seed=4)
    assert game.status == Game.Status.FINISHED
    mailoutbox.clear()
    assert owed_mails_queue(now=timezone.now()) == 0
    assert owed_mails_queue(now=timezone.now() + OWED_AFTER + timedelta(seconds=1)) == 2
    assert sorted(m.to[0] for m in mailoutbox) == ["alice@example.org", "bob@example.org"]
    assert all("Game over" in m.subject for m in mailoutbox)
    assert owed_mails_queue(now=timezone.now() + OWED_AFTER + timedelta(seconds=1)) == 0
