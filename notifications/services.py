"""E-mail notifications: the machinery (a mail sent at most once per key, its links and
texts), "your turn" and reminders; the digest and the mails of single events ("game
finished", missed turns, vacations, invitations) are in ``notifications.mails``.

Each mail is recorded as a ``Notification`` under a unique key before it leaves, inside a
transaction that holds that row's lock until the mail is handed to the mail server. So a mail
is sent at most once per key, however often (and however concurrently) a task runs; a mail
server error rolls the send back and the task retries later. (A worker killed between the
SMTP hand-over and the commit would send that one mail again on retry: the only window,
and it cannot be closed without the mail server's help.) A failed send notes the error and
the time on the row; if its retries are lost (a broker restarted or wiped), the hourly
``notifications_requeue`` queues the mail again.

Account mails (sign-up confirmation, password reset, everything allauth sends) take another
road, the outbox (``notifications.outbox``).

Mails never hold hidden information: they name the game, the players, what kind of decision
is due (from the public view) and the deadline — never a hand, a sealed move or the seed.
Every mail carries a one-click unsubscribe link (RFC 8058 ``List-Unsubscribe`` headers).
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts.models import User
from colorado.task_names import (
    FINISHED_MAIL,
    INVITATION_MAIL,
    MISSED_MAIL,
    REMINDER_MAIL,
    TURN_MAIL,
    VACATION_MAIL,
)
from colorado.task_queue import queue_task
from games.clocks.arithmetic import zone
from games.models import Game, Seat
from notifications.mail_parts import reminder_key, unsubscribe_url
from notifications.models import Notification
from notifications.outbox import subject_line
from notifications.task_names import RETRY_BACKOFF_MAX

log = logging.getLogger(__name__)
Kind = Notification.Kind

# --- sending ------------------------------------------------------------------------------


@dataclass
class Mail:
    subject: str
    template: str  # emails/<template>.txt and .html
    context: dict[str, Any]


def _render_and_send(user: User, mail: Mail) -> None:
    tz = zone(user.time_zone)
    language = user.language or settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(tz):
        context = {
            "user": user,
            "site_url": settings.SITE_URL,
            "site_name": settings.SITE_NAME,
            "unsubscribe_url": unsubscribe_url(user=user),
            "time_zone": getattr(tz, "key", "UTC"),
            **mail.context,
        }
        text = render_to_string(f"emails/{mail.template}.txt", context)
        html = render_to_string(f"emails/{mail.template}.html", context)
        subject = subject_line(mail.subject)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{context['unsubscribe_url']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    message.send(fail_silently=False)


def notification_send(
    *,
    key: str,
    user: User,
    kind: str,
    build: Callable[[], Mail | None],
    game: Game | None = None,
    seat: Seat | None = None,
    version: int | None = None,
) -> bool:
    """Send the mail ``build()`` describes to ``user`` unless ``key`` was already sent.

    ONE transaction: record (or find) the ``Notification`` row for ``key``, lock it, send,
    mark it sent. Returns whether a mail left. ``build`` may return ``None`` (nothing worth
    sending after all); the row is then left unsent and nothing goes out. SMTP errors and
    ``OSError`` propagate (the caller's task retries) after the error is noted on the row.
    """
    if not user.email or user.is_bot:
        return False
    try:
        with transaction.atomic():
            try:
                with transaction.atomic():
                    row, _created = Notification.objects.get_or_create(
                        key=key,
                        defaults={
                            "user": user,
                            "kind": kind,
                            "game": game,
                            "seat": seat,
                            "version": version,
                        },
                    )
            except IntegrityError:
                pass  # a concurrent task inserted it first; take its row below
            row = Notification.objects.select_for_update().get(key=key)
            if row.sent_at is not None:
                return False
            # The subject and the words in the context are written in the recipient's
            # language, whatever language the task or request that sends it runs in.
            with translation.override(user.language or settings.LANGUAGE_CODE):
                mail = build()
            if mail is None:
                if row.error:  # not needed after all: no longer a failed mail to retry
                    row.error = ""
                    row.save(update_fields=["error"])
                return False
            _render_and_send(user, mail)
            row.sent_at = timezone.now()
            row.error = ""
            row.save(update_fields=["sent_at", "error"])
    except (smtplib.SMTPException, OSError) as exc:
        failed = {"error": repr(exc)[:1000], "tried_at": timezone.now()}
        Notification.objects.update_or_create(
            key=key,
            defaults=failed,
            create_defaults={
                "user": user,
                "kind": kind,
                "game": game,
                "seat": seat,
                "version": version,
                **failed,
            },
        )
        raise
    return True


def notifications_requeue(*, now: datetime, limit: int = 500) -> int:
    """Queue again the game mails whose retries were lost: a send failed (the row is in
    error, unsent) and no try happened since for longer than the longest retry interval, so
    no retry is on its way (the embedded mode's in-memory broker restarted, Redis was wiped,
    or the retries ran out). Each row is taken by a conditional UPDATE of ``tried_at``; the
    task's key makes a late duplicate harmless. Rows older than a day are left (the mail is
    stale), and so are digests (a digest is about the day it is sent). The hourly
    ``send_digests`` task calls this."""
    quiet = timedelta(seconds=RETRY_BACKOFF_MAX) + timedelta(minutes=10)
    failed = list(
        Notification.objects.filter(
            sent_at__isnull=True,
            tried_at__lte=now - quiet,
            created_at__gte=now - timedelta(days=1),
        )
        .exclude(error="")
        .exclude(kind=Kind.DIGEST)
        .order_by("tried_at")
        .values_list("pk", "key", "tried_at")[:limit]
    )
    queued = 0
    for pk, key, tried_at in failed:
        if Notification.objects.filter(pk=pk, tried_at=tried_at).update(tried_at=now):
            queued += _queue_again(key)
    return queued


def _queue_again(key: str) -> int:
    """Queue the task that sends the mail recorded under ``key`` (the keys built above)."""
    kind, _sep, rest = key.partition(":")
    parts = rest.split(":", 2)
    if kind == Kind.TURN:
        queue_task(TURN_MAIL, int(parts[0]), int(parts[1]))
    elif kind == Kind.FINISHED:
        queue_task(FINISHED_MAIL, int(parts[0]))
    elif kind == Kind.INVITATION:
        queue_task(INVITATION_MAIL, int(parts[0]))
    elif kind == Kind.MISSED:
        queue_task(MISSED_MAIL, int(parts[0]), int(parts[1]), int(parts[2]))
    elif kind == Kind.VACATION:
        queue_task(VACATION_MAIL, int(parts[0]), rest.split(":", 1)[1])
    elif kind == Kind.REMINDER:
        seat = Seat.objects.filter(pk=int(parts[0])).first()
        if seat is None or reminder_key(seat) != key:
            return 0  # that clock run is over; the sweep reminds of the new one
        queue_task(REMINDER_MAIL, seat.pk)
    else:
        return 0
    return 1
