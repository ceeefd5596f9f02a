"""Drill: the mail server is down, people sign up and games go on; the server comes back and
every mail arrives, once. A real Celery worker (threads of this process, the Redis broker)
and a real SMTP server (aiosmtpd) that is first a closed port, then listening there.

By hand, the same drill: point EMAIL_URL at a port nobody listens on, sign up and play a
move, watch the outbox in the admin (attempts, error), start a mail server on that port, and
the mails arrive within the retry backoff (the first retry comes within 30 s)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from celery.signals import task_postrun
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.tables import lifecycle
from notifications import outbox, turn_mails
from notifications.models import Notification, OutboxMail
from notifications.tasks import send_outbox_mail, send_turn_email
from tests.notifications import smtp
from tests.waiting import wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]

PASSWORD = "open-range-1887"


def test_mail_while_smtp_is_down_arrives_once_when_it_is_back(
    real_worker: None,
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
    tmp_path: Path,
    record_property: Callable[[str, object], None],
) -> None:
    port = smtp.free_port()
    smtp.use_email_url(monkeypatch, settings, tmp_path, port)  # the mail server is down

    # Someone signs up: the page answers as usual.
    name = f"masterson{uuid.uuid4().hex[:6]}"
    address = f"{name}@example.org"
    client = Client(REMOTE_ADDR="10.99.1.7")
    response = client.post(
        "/accounts/signup/",
        {"username": name, "email": address, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"

    # A game starts: both players are due (a simultaneous bid), their "your turn" mails leave
    # after the grace period.
    alice, bob = (
        User.objects.create_user(username=f"{n}{uuid.uuid4().hex[:4]}", email=f"{n}@example.org")
        for n in ("alice", "bob")
    )
    game = lifecycle.game_create(creator=alice, players=2, options={"flags": "random"})
    lifecycle.game_join(game_id=game.pk, user=bob)
    grace = timedelta(seconds=django_settings.TURN_EMAIL_DELAY_SECONDS)
    assert turn_mails.turn_mails_queue(now=timezone.now() + grace) == 2

    # The worker tries each, fails, and schedules a retry; nothing is sent.
    row = OutboxMail.objects.get(to=address)
    wait_until(
        lambda: (
            OutboxMail.objects.filter(pk=row.pk, attempts__gte=1).exclude(error="").exists()
            and Notification.objects.filter(kind="turn").exclude(error="").count() == 2
        ),
        timeout=60,
        interval=0.2,
        message="the first failed tries",
    )
    assert not OutboxMail.objects.filter(sent_at__isnull=False).exists()
    assert not Notification.objects.filter(sent_at__isnull=False).exists()

    with smtp.smtp_server(port) as (_, inbox):  # the mail server is back
        back = time.monotonic()
        # Each arrives at its next retry: within 30 s after one failed try, 60 s after two,
        # 120 s after three (the backoff doubles, with full jitter).
        wait_until(
            lambda: len(inbox.messages) >= 3, timeout=150, interval=0.2, message="the three mails"
        )
        arrived = time.monotonic() - back
        record_property("seconds_until_the_mails_arrived", round(arrived, 1))
        print(f"mails arrived {arrived:.1f} s after the mail server came back")

        # The same tasks delivered once more (a redelivery, the sweep's re-queue): no mail.
        # The worker runs in this process's threads: its task_postrun signal says when
        # each of them has run.
        ran: set[str] = set()

        def note(task_id: str = "", **_: Any) -> None:
            ran.add(task_id)

        task_postrun.connect(note, weak=False)
        try:
            again = [send_outbox_mail.delay(row.pk).id]
            again += [send_turn_email.delay(s.pk, game.version).id for s in game.seats.all()]
            assert outbox.outbox_requeue(now=timezone.now() + timedelta(minutes=10)) == 0
            wait_until(lambda: ran >= set(again), timeout=60, message="the tasks sent again ran")
        finally:
            task_postrun.disconnect(note)

    assert sorted(recipients[0] for _, recipients, _ in inbox.messages) == sorted(
        [address, "alice@example.org", "bob@example.org"]
    )
    (confirmation,) = inbox.to(address)
    assert "confirm" in smtp.text_of(confirmation).lower()
    assert OutboxMail.objects.get(pk=row.pk).sent_at is not None
    assert Notification.objects.filter(kind="turn", sent_at__isnull=False).count() == 2
