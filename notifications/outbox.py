"""The outbox: account mails (sign-up confirmation, password reset, everything allauth
sends) rendered in the request, stored as an ``OutboxMail`` row and sent by a task, so a
request never waits for (or fails with) the mail server.

``outbox_add`` stores the rendered mail and queues its task on commit; ``outbox_send`` (the
task) claims the row under a lease, sends it once and blanks its bodies (a reset link is a
key); ``outbox_requeue`` (the sweep) queues again the rows whose task was lost.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from colorado.task_names import OUTBOX_MAIL
from colorado.task_queue import queue_task
from notifications.models import OutboxMail

log = logging.getLogger(__name__)


# Longer than a send can take (the task is killed after 75 s, each SMTP step times out after
# EMAIL_TIMEOUT): while the lease runs, no other delivery of the task sends the row.
OUTBOX_LEASE = timedelta(minutes=5)
# A row still unsent this long after a task should have tried it has lost its task.
OUTBOX_LOST_AFTER = timedelta(minutes=1)
# Older rows are no longer queued again (their links are stale); the admin still lists them.
OUTBOX_GIVE_UP_AFTER = timedelta(days=3)


def subject_line(text: str) -> str:
    """A mail's subject as every mail of the site has it: ``MAIL_SUBJECT_PREFIX`` (the
    site's name in brackets; allauth adds the same to the account mails) and the text on one
    line."""
    return str(settings.MAIL_SUBJECT_PREFIX) + " ".join(str(text).split())


def outbox_add(message: EmailMessage, *, template: str = "") -> list[OutboxMail]:
    """Store ``message`` (already rendered) as one outbox row per recipient and queue its
    task once the caller's transaction commits. No mail server is needed: a request that
    calls this answers even while SMTP is down. If the task never reaches the broker, the
    sweep finds the row a minute later (``outbox_requeue``)."""
    html = ""
    text = str(message.body)
    if message.content_subtype == "html":
        html, text = text, ""
    for content, mimetype in getattr(message, "alternatives", None) or []:
        if mimetype == "text/html":
            html = str(content)
    rows = [
        OutboxMail.objects.create(
            template=template[:200],
            to=recipient,
            from_email=message.from_email or settings.DEFAULT_FROM_EMAIL,
            subject=str(message.subject)[:998],  # the longest line a mail may have
            body_text=text,
            body_html=html,
            headers={str(k): str(v) for k, v in message.extra_headers.items()},
        )
        for recipient in message.to
    ]
    for row in rows:
        transaction.on_commit(_queue_after_commit(row.pk), robust=True)
    return rows


def _queue_after_commit(mail_id: int) -> Callable[[], None]:
    """``outbox_queue(mail_id)`` as a named function for ``on_commit`` (a robust callback
    that fails is logged under its name)."""

    def queue() -> None:
        outbox_queue(mail_id)

    return queue


def outbox_queue(mail_id: int) -> None:
    queue_task(OUTBOX_MAIL, mail_id)


def _outbox_message(row: OutboxMail) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=row.subject,
        body=row.body_text or row.body_html,
        from_email=row.from_email,
        to=[row.to],
        headers=row.headers or None,
    )
    if not row.body_text:
        message.content_subtype = "html"
    elif row.body_html:
        message.attach_alternative(row.body_html, "text/html")
    return message


def outbox_send(mail_id: int, *, retry_in: timedelta = timedelta(0)) -> bool:
    """Send outbox row ``mail_id`` unless it was sent or another delivery holds its lease.

    The row is claimed by a conditional UPDATE (unsent, lease free or over), so two
    deliveries of the task (``acks_late`` redelivery, the sweep's re-queue) send it once.
    After the mail server accepted it, the row is marked sent and its bodies (which may hold
    a key) are blanked. On an SMTP error the lease is given back, the error noted, the next
    try expected after ``retry_in``, and the error propagates (the task retries).

    The edge: a worker that dies after the server accepted the mail but before the row is
    marked sent leaves the lease to run out; the mail is then sent again. So "once" means
    once per acceptance by the mail server, as far as this database knows.
    """
    now = timezone.now()
    claimed = (
        OutboxMail.objects.filter(pk=mail_id, sent_at__isnull=True)
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lte=now))
        .update(lease_until=now + OUTBOX_LEASE, attempts=F("attempts") + 1)
    )
    if not claimed:
        return False
    row = OutboxMail.objects.get(pk=mail_id)
    try:
        _outbox_message(row).send(fail_silently=False)
    except (smtplib.SMTPException, OSError) as exc:
        OutboxMail.objects.filter(pk=mail_id).update(
            lease_until=None, error=repr(exc)[:1000], next_try_at=timezone.now() + retry_in
        )
        log.warning("outbox mail %s not sent yet (%s): will retry", mail_id, type(exc).__name__)
        raise
    OutboxMail.objects.filter(pk=mail_id).update(
        sent_at=timezone.now(), lease_until=None, error="", body_text="", body_html=""
    )
    return True


def outbox_requeue(*, now: datetime, limit: int = 500) -> int:
    """Queue again the outbox rows whose task was lost (worker killed, broker wiped): unsent,
    lease free or over, and still unsent a minute after a task should have tried them. Each
    row is taken by a conditional UPDATE of ``next_try_at`` (two sweeps queue it once, and
    the next sweep gives the new task a minute). The sweep calls this every minute."""
    lost = list(
        OutboxMail.objects.filter(
            sent_at__isnull=True,
            next_try_at__lte=now - OUTBOX_LOST_AFTER,
            created_at__gte=now - OUTBOX_GIVE_UP_AFTER,
        )
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lte=now))
        .order_by("next_try_at")
        .values_list("pk", "next_try_at")[:limit]
    )
    queued = 0
    for pk, next_try_at in lost:
        if OutboxMail.objects.filter(pk=pk, next_try_at=next_try_at).update(next_try_at=now):
            outbox_queue(pk)
            queued += 1
    return queued
