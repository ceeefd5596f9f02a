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
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.names import name_key
from accounts.services import REMINDER_HOURS_MAX
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
from games.clocks.time_left import time_left_text
from games.engine import get_rules
from games.models import Game, Seat
from games.store.state_cache import engine_for, load_state
from games.titles import web_title
from notifications.models import Notification
from notifications.outbox import subject_line
from notifications.task_names import RETRY_BACKOFF_MAX

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
Kind = Notification.Kind

# --- links --------------------------------------------------------------------------------


def unsubscribe_token(*, user: User) -> str:
    """A signed token naming ``user``; it never expires (links in old mails keep working)
    and is the same in every mail."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object({"u": user.pk})


def user_for_token(token: str) -> User | None:
    try:
        data = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    except (signing.BadSignature, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        return None
    return User.objects.filter(pk=data["u"]).first()


def unsubscribe_url(*, user: User) -> str:
    path = reverse("notifications:unsubscribe", args=[unsubscribe_token(user=user)])
    return f"{settings.SITE_URL}{path}"


def game_url(game: Game) -> str:
    """The table's page, absolute (mails are read outside the site)."""
    return f"{settings.SITE_URL}{reverse('games:game', args=[game.pk])}"


def notifications_off(*, user: User) -> None:
    """Switch off every mail for ``user`` (the unsubscribe link)."""
    User.objects.filter(pk=user.pk).update(email_notifications=User.EmailNotifications.OFF)


# --- what a mail may say ------------------------------------------------------------------


def game_title(game: Game) -> str:
    try:
        name = str(get_rules(game.title).name or game.title)
    except KeyError:
        name = game.title
    return _("%(name)s, table %(id)s") % {"name": name, "id": game.pk}


def what_is_needed(game: Game) -> str:
    """What a "your turn" mail says the player must do, in the title's words, from the
    PUBLIC view (the spectators'), never a seat's: a mail must not carry a hand."""
    try:
        view = engine_for(game).view(load_state(game), None)
        words = web_title(game.title).needed_words(view)
    except Exception:  # a mail must not fail because of a snapshot problem
        log.exception("public view of game %s unavailable for a mail", game.pk)
        words = None
    return words or _("make your move")


def mail_name(user: User) -> str:
    """How a mail names a person: their username beside any display name ("Alice Ames
    (@alice)"), so that a display name cannot pass for someone else in a mail; a bot by
    its name, which is the site's."""
    if user.is_bot:
        return user.shown_name
    shown = user.shown_name
    if name_key(shown) == name_key(user.username):
        return user.username
    return _("%(name)s (@%(username)s)") % {"name": shown, "username": user.username}


def subject_name(user: User) -> str:
    """How a subject line names a person: ``@username`` only (a display name is the
    user's free text and never reaches a subject), to be quoted by the subject's sentence;
    a bot by its name."""
    return user.shown_name if user.is_bot else f"@{user.username}"


def players_of(game: Game) -> list[str]:
    seats = Seat.objects.filter(game=game).select_related("user").order_by("seat", "id")
    return [mail_name(s.user) for s in seats]


def local_deadline(deadline: datetime | None, user: User) -> datetime | None:
    if deadline is None:
        return None
    return deadline.astimezone(zone(user.time_zone))


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


# --- the notifications --------------------------------------------------------------------


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


def reminder_key(seat: Seat) -> str:
    started = seat.clock_started_at.isoformat() if seat.clock_started_at else "-"
    return f"reminder:{seat.pk}:{started}"


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
