"""Celery tasks that send mail. They take ids, are idempotent (each mail is recorded under a
unique key before it leaves: ``notifications.services.notification_send``; an account mail
is an outbox row claimed before it leaves: ``notifications.outbox.outbox_send``),
acknowledge late, and retry with backoff when the mail server fails.

Their names are in ``colorado.task_names`` and their retry timing in
``notifications.task_names``: the modules these tasks call queue them by name.
"""

from __future__ import annotations

import smtplib
from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from celery.utils.time import get_exponential_backoff_interval
from django.utils import timezone

from colorado.db_retry import DB_ERRORS, retry_on_db_error
from colorado.task_names import (
    DIGEST_MAIL,
    DIGESTS,
    FINISHED_MAIL,
    INVITATION_MAIL,
    MISSED_MAIL,
    OUTBOX_MAIL,
    PUSH,
    REMINDER_MAIL,
    TURN_MAIL,
    VACATION_MAIL,
)
from colorado.task_queue import SWEEP_DB_RETRIES, SWEEP_TASK, queue_task
from notifications import mails, outbox, owed, push, push_events, push_wire, services, turn_mails
from notifications.task_names import RETRY_BACKOFF, RETRY_BACKOFF_MAX

MAIL_TASK = {
    "acks_late": True,
    "ignore_result": True,
    "serializer": "json",
    "autoretry_for": (smtplib.SMTPException, OSError),
    "retry_backoff": RETRY_BACKOFF,
    "retry_backoff_max": RETRY_BACKOFF_MAX,
    "retry_jitter": True,
    "max_retries": 8,
    "soft_time_limit": 60,
    "time_limit": 75,
}

PUSH_TASK = {k: v for k, v in MAIL_TASK.items() if not k.startswith(("autoretry", "retry_"))}


@shared_task(name=TURN_MAIL, **MAIL_TASK)
def send_turn_email(seat_id: int, version: int) -> bool:
    """ "Your turn", if the player has still not seen the table at ``version``."""
    return turn_mails.turn_mail_send(seat_id=seat_id, version=version)


@shared_task(name=REMINDER_MAIL, **MAIL_TASK)
def send_reminder(seat_id: int) -> bool:
    return turn_mails.reminder_send(seat_id=seat_id)


@shared_task(name=FINISHED_MAIL, **MAIL_TASK)
def send_finished_email(seat_id: int) -> bool:
    return mails.finished_mail_send(seat_id=seat_id)


@shared_task(name=MISSED_MAIL, **MAIL_TASK)
def send_missed_email(seat_id: int, missed_seat_id: int, misses: int) -> bool:
    return mails.missed_mail_send(seat_id=seat_id, missed_seat_id=missed_seat_id, misses=misses)


@shared_task(name=DIGEST_MAIL, **MAIL_TASK)
def send_digest(user_id: int) -> bool:
    return mails.digest_send(user_id=user_id)


@shared_task(
    name=DIGESTS,
    acks_late=True,
    ignore_result=True,
    serializer="json",
    soft_time_limit=120,
    time_limit=150,
)
def send_digests() -> int:
    """Hourly: queue the digest of every reader for whom it is now 07:00 to 07:59, and the
    game mails whose retries were lost (``notifications_requeue``: hourly is enough, a row
    counts as lost only after more than an hour without a try), and the invitation and
    "game finished" mails whose task was lost before it ran (``owed.owed_mails_queue``)."""
    now = timezone.now()
    readers = mails.digest_readers(now=now)
    for user in readers:
        send_digest.delay(user.pk)
    services.notifications_requeue(now=now)
    owed.owed_mails_queue(now=now)
    return len(readers)


@shared_task(name=INVITATION_MAIL, **MAIL_TASK)
def send_invitation_email(invitation_id: int) -> bool:
    return mails.invitation_mail_send(invitation_id=invitation_id)


@shared_task(name=VACATION_MAIL, **MAIL_TASK)
def send_vacation_email(seat_id: int, deadline_iso: str) -> bool:
    return mails.vacation_mail_send(seat_id=seat_id, deadline_iso=deadline_iso)


@shared_task(
    name=OUTBOX_MAIL,
    bind=True,
    **{k: v for k, v in MAIL_TASK.items() if not k.startswith(("autoretry", "retry_"))},
)
def send_outbox_mail(self: Any, mail_id: int) -> bool:
    """An account mail from the outbox (``notifications.outbox.outbox_send``). Retries by
    hand rather than through ``autoretry_for`` so that the row knows when the next try is
    due: the sweep queues it again only if that try does not happen (a lost task)."""
    countdown = get_exponential_backoff_interval(
        factor=RETRY_BACKOFF,
        retries=self.request.retries,
        maximum=RETRY_BACKOFF_MAX,
        full_jitter=True,
    )
    try:
        return outbox.outbox_send(mail_id, retry_in=timedelta(seconds=countdown))
    except (smtplib.SMTPException, OSError) as exc:
        raise self.retry(exc=exc, countdown=countdown) from exc


@shared_task(name=PUSH, bind=True, **PUSH_TASK)
def send_push(self: Any, message_id: int) -> bool:
    """One Web Push (``notifications.push.push_send``): sent at most once, retried with
    backoff while the push service is unavailable; a lost task is queued again by the
    sweep (``push_requeue``)."""
    countdown = get_exponential_backoff_interval(
        factor=RETRY_BACKOFF,
        retries=self.request.retries,
        maximum=RETRY_BACKOFF_MAX,
        full_jitter=True,
    )
    try:
        return push.push_send(message_id, retry_in=timedelta(seconds=countdown))
    except push_wire.PushUnavailable as exc:
        raise self.retry(exc=exc, countdown=countdown) from exc


@shared_task(name="notifications.tasks.sweep_notifications", **SWEEP_TASK)
def sweep_notifications(self: Task) -> dict[str, int]:
    """Every minute (beat): queue the "your turn" mails whose grace period has passed, the
    reminders now due, the account mails and pushes whose task was lost, and the pushes of a
    deadline drawing near. Each is sent at most once (its row or key), so a sweep that runs
    twice, or beside a lost task's retry, sends nothing twice."""
    try:
        now = timezone.now()
        reminder_seats = [s.pk for s in turn_mails.reminders_due(now=now)]
        for seat_id in reminder_seats:
            queue_task(REMINDER_MAIL, seat_id)
        return {
            "turn_mails": turn_mails.turn_mails_queue(now=now),
            "reminders": len(reminder_seats),
            "outbox": outbox.outbox_requeue(now=now),
            "pushes": push.push_requeue(now=now),
            "deadline_pushes": push_events.deadline_pushes_queue(now=now),
        }
    except DB_ERRORS as exc:
        return retry_on_db_error(self, exc, max_retries=SWEEP_DB_RETRIES)
