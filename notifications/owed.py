"""Mails owed whose task was lost before it ever ran.

An invitation mail and a "game finished" mail are queued from ``on_commit`` receivers
(``notifications.receivers``): if the broker loses that task, or the worker dies holding it,
before the task has written its ``Notification`` row, nothing else records that a mail is
owed, so ``notifications_requeue`` (which retries rows in error) cannot see it. This sweep
looks at the facts instead: an invitation still open, or a finished game, from the last day,
to a player whose setting wants the mail, with no ``Notification`` row under its kind, is
owed a mail, and its task is queued again.

Queuing twice is harmless: each task records its mail under a unique key and sends it at
most once (``notification_send``). The copies queued here expire with the next run, so an
absent worker does not pile them up. The hourly ``send_digests`` task calls this.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import CharField, Exists, OuterRef, Q, Value
from django.db.models.functions import Cast, Concat

from accounts.models import User
from colorado.task_names import FINISHED_MAIL, INVITATION_MAIL
from colorado.task_queue import queue_task
from games.models import Game, Invitation, Seat
from notifications.models import Notification

# A mail task normally runs within seconds of its commit; one that has not written its row
# after this long is taken as lost.
OWED_AFTER = timedelta(minutes=10)
# Older facts are left: an invitation or a result a day old is stale news.
OWED_FOR = timedelta(days=1)
# The copies queued by one run expire before the next (hourly) run queues its own.
QUEUED_EXPIRE_SECONDS = 3600


def _wants_mail(prefix: str) -> Q:
    """The user behind ``prefix`` wants game mails (each turn or the digest: as
    ``services.wants_mail(…, digest_too=True)``)."""
    return Q(
        **{
            f"{prefix}is_bot": False,
            f"{prefix}is_active": True,
            f"{prefix}email_notifications__in": [
                User.EmailNotifications.EACH_TURN,
                User.EmailNotifications.DIGEST,
            ],
        }
    ) & ~Q(**{f"{prefix}email": ""})


def owed_invitations(*, now: datetime, limit: int = 500) -> list[int]:
    """Invitations still open whose mail task never wrote its row."""
    recorded = Notification.objects.filter(
        key=Concat(Value("invitation:"), Cast(OuterRef("pk"), CharField()))
    )
    return list(
        Invitation.objects.filter(
            _wants_mail("user__"),
            created_at__gte=now - OWED_FOR,
            created_at__lte=now - OWED_AFTER,
            game__status=Game.Status.OPEN,
            accepted_at__isnull=True,
            declined_at__isnull=True,
        )
        .exclude(Exists(recorded))
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )


def owed_finished(*, now: datetime, limit: int = 500) -> list[int]:
    """Seats of games finished lately whose "game finished" task never wrote its row."""
    recorded = Notification.objects.filter(kind=Notification.Kind.FINISHED, seat_id=OuterRef("pk"))
    return list(
        Seat.objects.filter(
            _wants_mail("user__"),
            game__status=Game.Status.FINISHED,
            game__finished_at__gte=now - OWED_FOR,
            game__finished_at__lte=now - OWED_AFTER,
        )
        .exclude(Exists(recorded))
        .order_by("game__finished_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def owed_mails_queue(*, now: datetime, limit: int = 500) -> int:
    """Queue again the invitation and "game finished" mails whose task was lost; returns
    how many were queued."""
    queued = 0
    for invitation_id in owed_invitations(now=now, limit=limit):
        queue_task(INVITATION_MAIL, invitation_id, expires=QUEUED_EXPIRE_SECONDS)
        queued += 1
    for seat_id in owed_finished(now=now, limit=limit):
        queue_task(FINISHED_MAIL, seat_id, expires=QUEUED_EXPIRE_SECONDS)
        queued += 1
    return queued
