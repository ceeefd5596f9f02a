"""The "your turn" mail and the reminder before a deadline: who wants them, when they are
due (written on the seat by the move, taken by the notifications' sweep), and sending each
once (``notifications.services.notification_send``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import REMINDER_HOURS_MAX
from colorado.task_names import (
    TURN_MAIL,
)
from colorado.task_queue import queue_task
from games.clocks.time_left import time_left_text
from games.models import Game, Seat
from notifications.mail_parts import (
    game_title,
    game_url,
    local_deadline,
    players_of,
    reminder_key,
    what_is_needed,
)
from notifications.models import Notification
from notifications.services import Mail, notification_send

log = logging.getLogger(__name__)


def seat_mail_send(seat: Seat, *, kind: str, key: str, build: Callable[[], Mail | None]) -> bool:
    """``notification_send`` of a mail to ``seat``'s player about its game as it stands."""
    return notification_send(
        key=key,
        user=seat.user,
        kind=kind,
        build=build,
        game=seat.game,
        seat=seat,
        version=seat.game.version,
    )


def wants_mail(user: User, *, digest_too: bool) -> bool:
    if user.is_bot or not user.email or not user.is_active:
        return False
    allowed = {User.EmailNotifications.EACH_TURN}
    if digest_too:
        allowed.add(User.EmailNotifications.DIGEST)
    return user.email_notifications in allowed


def turn_mail_send(*, seat_id: int, version: int) -> bool:
    """ "Your turn" for the seat that became due at ``version``; sent only if the player
    still has to act and has not seen the table since (``Seat.last_seen_version``)."""
    try:
        return _turn_mail_send(seat_id=seat_id, version=version)
    finally:
        _turn_mail_done(seat_id, version)


def _turn_mail_send(*, seat_id: int, version: int) -> bool:
    seat = Seat.objects.select_related("user", "game").filter(pk=seat_id).first()
    if seat is None or not wants_mail(seat.user, digest_too=False):
        return False
    game = seat.game

    def build() -> Mail | None:
        fresh = Seat.objects.select_related("game").get(pk=seat_id)
        if (
            fresh.game.status != Game.Status.RUNNING
            or fresh.is_bot
            or fresh.seat not in (fresh.game.to_act or [])
            or fresh.last_seen_version >= version
        ):
            return None
        return Mail(
            subject=_("Your turn: %(title)s") % {"title": game_title(fresh.game)},
            template="turn",
            context={
                "title": game_title(fresh.game),
                "needed": what_is_needed(fresh.game),
                "players": players_of(fresh.game),
                "deadline": local_deadline(fresh.deadline, seat.user),
                "game_url": game_url(fresh.game),
            },
        )

    return notification_send(
        key=f"turn:{seat_id}:{version}",
        user=seat.user,
        kind="turn",
        build=build,
        game=game,
        seat=seat,
        version=version,
    )


def turn_mails_queue(*, now: datetime) -> int:
    """Queue the "your turn" mails whose grace period has passed (the sweep calls this)."""
    claimed = turn_mails_claim(now=now)
    for seat_id, version in claimed:
        queue_task(TURN_MAIL, seat_id, version)
    return len(claimed)


#: A "your turn" mail the sweep has queued stays on its seat this long: if its task is lost
#: (worker killed, broker wiped) before it ran, the sweep after the lease queues it again.
TURN_MAIL_LEASE = timedelta(minutes=10)


def turn_mails_claim(*, now: datetime, limit: int = 500) -> list[tuple[int, int]]:
    """The "your turn" mails whose grace period (or lease) has passed, as ``(seat id,
    version)``, each leased on its seat for ``TURN_MAIL_LEASE`` by a conditional UPDATE (two
    sweeps at once never take the same). ``turn_mail_send`` takes it off the seat once it has
    run, and sends it only if the player has still not seen the table; the mail's
    ``Notification`` key means a second task for the same mail sends nothing."""
    pending = list(
        Seat.objects.filter(turn_mail_at__lte=now)
        .order_by("turn_mail_at")
        .values_list("pk", "turn_mail_version", "turn_mail_at")[:limit]
    )
    claimed = []
    for seat_id, version, at in pending:
        taken = Seat.objects.filter(pk=seat_id, turn_mail_version=version, turn_mail_at=at).update(
            turn_mail_at=now + TURN_MAIL_LEASE
        )
        if taken and version is not None:
            claimed.append((seat_id, version))
    return claimed


def _turn_mail_done(seat_id: int, version: int) -> None:
    """The task of this mail ran: it is no longer pending on the seat (a move since may have
    left a newer one there, which stays). A failed send is retried by the task, and a lost
    retry by ``notifications_requeue``, from the ``Notification`` row."""
    Seat.objects.filter(pk=seat_id, turn_mail_version=version).update(
        turn_mail_version=None, turn_mail_at=None
    )


def reminders_due(*, now: datetime) -> list[Seat]:
    """Seats whose deadline is within their player's ``reminder_hours`` and not yet
    reminded for this clock run (one query on the deadline index).

    "Within h hours" is spelled out once per whole number of hours (the settings allow
    0..``REMINDER_HOURS_MAX``): a seat due in at most h hours is reminded when its player's
    ``reminder_hours`` is h or more. Multiplying the column by an interval instead works on
    PostgreSQL only; on SQLite (the embedded mode) it raised and no reminder ever left. A
    larger value set in the admin reminds ``REMINDER_HOURS_MAX`` hours before.
    """
    hour = timedelta(hours=1)
    window = Q()
    for hours in range(1, REMINDER_HOURS_MAX + 1):
        window |= Q(user__reminder_hours__gte=hours, deadline__lte=now + hours * hour)
    reminded = Notification.objects.filter(
        seat=OuterRef("pk"),
        kind="reminder",
        created_at__gte=OuterRef("clock_started_at"),
    )
    return list(
        Seat.objects.filter(
            deadline__gt=now,
            deadline__lte=now + REMINDER_HOURS_MAX * hour,
            user__is_bot=False,
            user__email_notifications__in=[
                User.EmailNotifications.EACH_TURN,
                User.EmailNotifications.DIGEST,
            ],
            bot_kind="",
            game__status=Game.Status.RUNNING,
        )
        .filter(window)
        .filter(~Q(Exists(reminded)))
        .select_related("user", "game")
    )


def reminder_send(*, seat_id: int, now: datetime | None = None) -> bool:
    """Remind a player that a deadline is close (once per clock run)."""
    now = now or timezone.now()
    seat = Seat.objects.select_related("user", "game").filter(pk=seat_id).first()
    if seat is None or seat.deadline is None or not wants_mail(seat.user, digest_too=True):
        return False

    def build() -> Mail | None:
        if seat.game.status != Game.Status.RUNNING or seat.is_bot:
            return None
        return Mail(
            subject=_("Reminder: your move in %(title)s") % {"title": game_title(seat.game)},
            template="reminder",
            context={
                "title": game_title(seat.game),
                "needed": what_is_needed(seat.game),
                "deadline": local_deadline(seat.deadline, seat.user),
                "time_left": time_left_text(seat.deadline, now),
                "vacation_days": seat.user.vacation_days,
                "game_url": game_url(seat.game),
            },
        )

    return seat_mail_send(seat, kind="reminder", key=reminder_key(seat), build=build)
