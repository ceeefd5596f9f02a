"""The outbox of account mails: a row whose task was lost is found and sent by the sweep, a
send that crashed mid-way is taken again once its lease is over, never while a delivery may
still be sending it; the admin never shows a mail's body (it may hold a reset key)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.mail import EmailMultiAlternatives
from django.test import Client
from django.utils import timezone

from games.clocks.tasks import sweep_deadlines
from notifications import outbox as mail
from notifications.models import OutboxMail
from notifications.tasks import send_outbox_mail

pytestmark = pytest.mark.django_db

KEY_LINK = "http://testserver/accounts/password/reset/key/4-cv0-6e6f2b1c9d/"


def _stored(django_capture_on_commit_callbacks, to: str = "clara@example.org") -> OutboxMail:
    """An account mail stored as in a request whose task never reached a worker (the
    on-commit callback is captured and dropped: a broker wiped, a worker killed)."""
    message = EmailMultiAlternatives(
        subject="[Colorado County online] Password Reset",
        body=f"Reset your password: {KEY_LINK}",
        from_email="Colorado County online <noreply@example.org>",
        to=[to],
    )
    message.attach_alternative(f'<a href="{KEY_LINK}">Reset</a>', "text/html")
    with django_capture_on_commit_callbacks(execute=False) as lost:
        (row,) = mail.outbox_add(message, template="account/email/password_reset_key")
    assert len(lost) == 1
    return row


def _age(row: OutboxMail, **ago: float) -> None:
    """Let time pass for ``row``: it was stored (and due) that long ago."""
    then = timezone.now() - timedelta(**ago)
    OutboxMail.objects.filter(pk=row.pk).update(created_at=then, next_try_at=then)


def test_a_mail_whose_task_was_lost_is_queued_again_and_sent_once(
    django_capture_on_commit_callbacks, mailoutbox
):
    row = _stored(django_capture_on_commit_callbacks)
    assert mail.outbox_requeue(now=timezone.now()) == 0  # just stored: its task may come
    assert mailoutbox == []
    _age(row, minutes=2)
    assert mail.outbox_requeue(now=timezone.now()) == 1
    (message,) = mailoutbox
    assert message.to == ["clara@example.org"]
    assert KEY_LINK in message.body
    assert message.alternatives[0][1] == "text/html"
    _age(row, minutes=2)
    assert mail.outbox_requeue(now=timezone.now()) == 0
    send_outbox_mail.delay(row.pk)  # a late duplicate of the lost task
    assert len(mailoutbox) == 1


def test_the_minute_sweep_queues_the_lost_mails_again(
    django_capture_on_commit_callbacks, mailoutbox
):
    row = _stored(django_capture_on_commit_callbacks)
    _age(row, minutes=2)
    assert sweep_deadlines()["outbox"] == 1
    assert [m.to for m in mailoutbox] == [["clara@example.org"]]
    assert sweep_deadlines()["outbox"] == 0


def test_a_send_that_crashed_mid_way_is_taken_again_only_after_its_lease(
    django_capture_on_commit_callbacks, mailoutbox
):
    row = _stored(django_capture_on_commit_callbacks)
    _age(row, minutes=2)
    # A worker claimed it a minute ago and died (or is still talking to the mail server).
    now = timezone.now()
    OutboxMail.objects.filter(pk=row.pk).update(
        lease_until=now + mail.OUTBOX_LEASE - timedelta(minutes=1), attempts=1
    )
    assert send_outbox_mail.delay(row.pk).get() is False  # the redelivered task
    assert mail.outbox_requeue(now=now) == 0
    assert mailoutbox == []
    # The lease is over: the sweep queues it again, and it leaves once.
    OutboxMail.objects.filter(pk=row.pk).update(lease_until=now - timedelta(seconds=1))
    assert mail.outbox_requeue(now=timezone.now()) == 1
    assert len(mailoutbox) == 1
    row.refresh_from_db()
    assert row.attempts == 2
    assert row.sent_at is not None
    assert row.lease_until is None


def test_the_sweep_leaves_rows_whose_retry_is_scheduled_and_rows_too_old(
    django_capture_on_commit_callbacks, mailoutbox
):
    retrying = _stored(django_capture_on_commit_callbacks, to="retrying@example.org")
    _age(retrying, minutes=30)
    # Its task failed and retries in ten minutes (the backoff): no second task meanwhile.
    OutboxMail.objects.filter(pk=retrying.pk).update(
        next_try_at=timezone.now() + timedelta(minutes=10), attempts=3
    )
    stale = _stored(django_capture_on_commit_callbacks, to="stale@example.org")
    _age(stale, days=4)
    assert mail.outbox_requeue(now=timezone.now()) == 0
    assert mailoutbox == []


def test_the_admin_lists_the_outbox_without_any_mail_body_and_can_queue_a_row_again(
    django_capture_on_commit_callbacks, client: Client, mailoutbox
):
    from accounts.models import User

    row = _stored(django_capture_on_commit_callbacks)
    staff = User.objects.create_user(
        username="marshal", password="x-long-password-1", is_staff=True, is_superuser=True
    )
    client.force_login(staff)
    listing = client.get("/admin/notifications/outboxmail/").content.decode()
    assert "clara@example.org" in listing
    assert "password_reset_key" in listing
    page = client.get(f"/admin/notifications/outboxmail/{row.pk}/change/").content.decode()
    assert "clara@example.org" in page
    for shown in (listing, page):
        assert "cv0-6e6f2b1c9d" not in shown
    assert client.get("/admin/notifications/outboxmail/add/").status_code == 403
    for _ in range(2):  # a second click finds it sent
        response = client.post(
            "/admin/notifications/outboxmail/",
            {"action": "queue_again", "_selected_action": [row.pk]},
        )
        assert response.status_code == 302
    assert [m.to for m in mailoutbox] == [["clara@example.org"]]
