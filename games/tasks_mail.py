"""Celery tasks that send mail. They take ids, are idempotent (each mail is recorded under a
unique key before it leaves: ``notifications.services.notification_send``), acknowledge
late, and retry with backoff when the mail server fails.
"""

from __future__ import annotations

import smtplib

from celery import shared_task

MAIL_TASK = {
    "acks_late": True,
    "ignore_result": True,
    "serializer": "json",
    "autoretry_for": (smtplib.SMTPException, OSError),
    "retry_backoff": 30,
    "retry_backoff_max": 3600,
    "retry_jitter": True,
    "max_retries": 8,
    "soft_time_limit": 60,
    "time_limit": 75,
}


@shared_task(name="games.tasks_mail.send_turn_email", **MAIL_TASK)
def send_turn_email(seat_id: int, version: int) -> bool:
    """ "Your turn", if the player has still not seen the table at ``version``."""
    from notifications.services import turn_mail_send

    return turn_mail_send(seat_id=seat_id, version=version)


@shared_task(name="games.tasks_mail.send_reminder", **MAIL_TASK)
def send_reminder(seat_id: int) -> bool:
    from notifications.services import reminder_send

    return reminder_send(seat_id=seat_id)


@shared_task(name="games.tasks_mail.send_finished_email", **MAIL_TASK)
def send_finished_email(seat_id: int) -> bool:
    from notifications.services import finished_mail_send

    return finished_mail_send(seat_id=seat_id)


@shared_task(name="games.tasks_mail.send_missed_email", **MAIL_TASK)
def send_missed_email(seat_id: int, missed_seat_id: int, misses: int) -> bool:
    from notifications.services import missed_mail_send

    return missed_mail_send(seat_id=seat_id, missed_seat_id=missed_seat_id, misses=misses)


@shared_task(name="games.tasks_mail.send_digest", **MAIL_TASK)
def send_digest(user_id: int) -> bool:
    from notifications.services import digest_send

    return digest_send(user_id=user_id)


@shared_task(
    name="games.tasks_mail.send_digests",
    acks_late=True,
    ignore_result=True,
    serializer="json",
    soft_time_limit=120,
    time_limit=150,
)
def send_digests() -> int:
    """Hourly: queue the digest of every reader for whom it is now 07:00 to 07:59."""
    from django.utils import timezone

    from notifications.services import digest_readers

    readers = digest_readers(now=timezone.now())
    for user in readers:
        send_digest.delay(user.pk)
    return len(readers)


@shared_task(name="games.tasks_mail.send_vacation_email", **MAIL_TASK)
def send_vacation_email(seat_id: int, deadline_iso: str) -> bool:
    from notifications.services import vacation_mail_send

    return vacation_mail_send(seat_id=seat_id, deadline_iso=deadline_iso)
