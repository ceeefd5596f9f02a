"""Web Push notifications (issue 43): a player's devices, what each pushes, and each push
sent at most once.

A push is a ``PushMessage`` row per device, written when the event happens (a turn: in the
move's own transaction, as durable as the move), then sent by a Celery task
(``notifications.tasks.send_push``). The task locks the row, sends, and marks it; a second
run of the same task finds it done. A task lost before it ran (a worker killed, the broker
wiped) leaves its row waiting, and the sweep (``push_requeue``) queues it again. A device
whose push service answers 404 or 410 is deleted with its waiting pushes.

A push says what a mail would say and no more: the game, the players' names, what kind of
decision is due from the public view (``services.what_is_needed``), and the table's
address, in the player's language. Never a hand, a sealed move or the seed.

A turn is pushed after ``PUSH_DELAY_SECONDS`` (a player watching the table sees the move
live and gets nothing) and only if the player has not seen the table since; while a device
pushes turns, the "your turn" mail waits ``PUSH_MAIL_DELAY_SECONDS`` instead of
``TURN_EMAIL_DELAY_SECONDS``, and a player who answered the push gets no mail.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from colorado.task_names import PUSH
from colorado.task_queue import queue_task
from games.models import Game, Invitation, Seat
from notifications import push_texts, push_wire
from notifications.mail_parts import game_title, subject_name, what_is_needed
from notifications.models import PushMessage, PushSubscription

log = logging.getLogger(__name__)

#: A waiting push whose task has not run this long after it was due is queued again.
PUSH_LEASE = timedelta(minutes=10)
#: A push not sent within this long is dropped: the news is stale.
PUSH_STALE = timedelta(days=1)


#: The settings' words for each event a device may push (PushSubscription.EVENTS).
EVENT_LABELS = (
    ("turn", gettext_lazy("My turn")),
    ("invitation", gettext_lazy("Invitations and rematch offers")),
    ("finished", gettext_lazy("A game of mine is over")),
    ("chat", gettext_lazy("Chat messages that name me (@my username)")),
    ("deadline", gettext_lazy("A deadline close on my turn (my reminder hours)")),
)


class SubscriptionError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# --- devices ------------------------------------------------------------------------------


def subscription_save(
    *, user: User, endpoint: str, p256dh: str, auth: str, events: Iterable[str], label: str = ""
) -> PushSubscription:
    """Record (or update) this browser's subscription for ``user``. The endpoint must be a
    browser's push service (``push_wire.endpoint_allowed``) and the keys well formed."""
    if (
        not isinstance(endpoint, str)
        or len(endpoint) > 1000
        or not push_wire.endpoint_allowed(endpoint)
    ):
        raise SubscriptionError("bad_endpoint", _("This push service is not one we can use."))
    try:
        if len(push_wire.b64url_decode(p256dh)) != 65 or len(push_wire.b64url_decode(auth)) != 16:
            raise ValueError
    except (ValueError, TypeError) as exc:
        raise SubscriptionError("bad_keys", _("The browser's push keys are not valid.")) from exc
    chosen = [e for e in PushSubscription.EVENTS if e in set(events)]
    sub, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={
            "user": user,
            "p256dh": p256dh,
            "auth": auth,
            "events": chosen,
            "label": str(label)[:120],
        },
    )
    return sub


def subscription_remove(*, user: User, subscription_id: int) -> bool:
    return bool(PushSubscription.objects.filter(user=user, pk=subscription_id).delete()[0])


def devices(user: User) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user).order_by("created_at"))


def turn_pushers(user_ids: Iterable[int]) -> set[int]:
    """Which of these users have a device that pushes their turns (one query)."""
    ids = list(user_ids)
    if not ids:
        return set()
    # The events are read and tested here: SQLite (the embedded mode) has no JSON
    # containment lookup, and a user has a few devices at most.
    found = PushSubscription.objects.filter(user_id__in=ids).values_list("user_id", "events")
    return {user_id for user_id, events in found if "turn" in (events or [])}


# --- recording pushes ---------------------------------------------------------------------


def messages_record(
    *,
    kind: str,
    ref: str,
    users: Iterable[int],
    at: datetime,
    game: Game | None = None,
    seats: dict[int, Seat] | None = None,
    version: int | None = None,
    event: str | None = None,
) -> list[int]:
    """Write a waiting push of ``kind`` for every device of ``users`` that wants it (that
    chose ``event``, by default ``kind``), keyed ``kind:ref:device``; the ids written (none
    twice: a key already there is kept)."""
    seats = seats or {}
    wanted = event or kind
    subs = [
        sub
        for sub in PushSubscription.objects.filter(user_id__in=list(users))
        if wanted in (sub.events or [])
    ]
    rows = [
        PushMessage(
            key=f"{kind}:{ref}:{sub.pk}",
            kind=kind,
            subscription=sub,
            game=game,
            seat=seats.get(sub.user_id),
            version=version,
            next_try_at=at,
        )
        for sub in subs
    ]
    if not rows:
        return []
    made = PushMessage.objects.bulk_create(rows, ignore_conflicts=True)
    keys = [m.key for m in made]
    return list(PushMessage.objects.filter(key__in=keys, outcome="").values_list("pk", flat=True))


def queue(message_ids: Iterable[int], *, countdown: int = 0) -> None:
    """Queue each push's task (by name: the task calls back into this module)."""
    for pk in message_ids:
        queue_task(PUSH, pk, countdown=countdown or None)


def turn_pushes_record(*, game: Game, seats: list[Seat]) -> None:
    """In the move's transaction: a "your turn" push for each of ``seats`` (newly due,
    people), queued once the move is committed."""
    delay = int(settings.PUSH_DELAY_SECONDS)
    at = timezone.now() + timedelta(seconds=delay)
    ids: list[int] = []
    for seat in seats:
        ids += messages_record(
            kind="turn",
            ref=f"{seat.pk}:{game.version}",
            users=[seat.user_id],
            at=at,
            game=game,
            seats={seat.user_id: seat},
            version=int(game.version),
        )
    if ids:
        transaction.on_commit(lambda: queue(ids, countdown=delay), robust=True)


def table_pushes_record(*, game: Game, users: Iterable[int]) -> None:
    """A "your table is ready" push (a tournament round's table, seated for them) for the
    devices of ``users`` that take invitations; queued once the table is committed."""
    ids = messages_record(
        kind="table",
        ref=str(game.pk),
        users=users,
        at=timezone.now(),
        game=game,
        event="invitation",
    )
    if ids:
        transaction.on_commit(lambda: queue(ids), robust=True)


# --- sending ------------------------------------------------------------------------------


def _game_words(game: Game) -> str:
    return game_title(game)


def payload(message: PushMessage) -> dict[str, Any] | None:
    """What the notification shows, in the player's language; None when it is no longer
    worth showing (the player has seen the table, the game moved on)."""
    game = message.game
    if game is None:
        return None
    url = reverse("games:game", args=[game.pk])
    if message.kind == "turn" and message.seat_id is not None:
        seat = Seat.objects.select_related("game").filter(pk=message.seat_id).first()
        if (
            seat is None
            or seat.game.status != Game.Status.RUNNING
            or seat.is_bot
            or seat.seat not in (seat.game.to_act or [])
            or (message.version is not None and seat.last_seen_version >= message.version)
        ):
            return None
        return {
            "title": _("Your turn"),
            "body": _("%(title)s: %(needed)s")
            % {"title": _game_words(game), "needed": what_is_needed(seat.game)},
            "url": url,
            "tag": f"game-{game.pk}",
        }
    if message.kind == "finished":
        return {
            "title": _("Game over"),
            "body": _("%(title)s is over: see the final scores.") % {"title": _game_words(game)},
            "url": url,
            "tag": f"game-{game.pk}",
        }
    if message.kind == "table":
        if game.status not in (Game.Status.OPEN, Game.Status.RUNNING):
            return None
        return {
            "title": _("Your table is ready"),
            "body": _("%(title)s: your tournament's new round has started.")
            % {"title": _game_words(game)},
            "url": url,
            "tag": f"game-{game.pk}",
        }
    if message.kind == "invitation":
        invitation = (
            Invitation.objects.select_related("invited_by")
            .filter(pk=int(message.key.split(":")[1]), game=game)
            .first()
        )
        if (
            invitation is None
            or game.status != Game.Status.OPEN
            or invitation.accepted_at
            or invitation.declined_at
        ):
            return None
        sender = invitation.invited_by
        quoted = {"name": subject_name(sender) if sender else "", "title": _game_words(game)}
        if game.rematch_of_id is not None:
            text = _("“%(name)s” offers a rematch of %(title)s") % quoted
        else:
            text = _("“%(name)s” invites you to %(title)s") % quoted
        return {"title": _("Invitation"), "body": text, "url": url, "tag": f"invite-{game.pk}"}
    if message.kind == "chat":
        return push_texts.chat_payload(message)
    if message.kind == "deadline":
        return push_texts.deadline_payload(message)
    return None


def push_send(message_id: int, *, retry_in: timedelta = PUSH_LEASE) -> bool:
    """Send one waiting push (at most once: the row is locked and marked in one
    transaction). Returns whether it left. ``PushUnavailable`` propagates after the row
    notes when the next try is due (``retry_in``)."""
    with transaction.atomic():
        message = (
            PushMessage.objects.select_for_update(of=("self",))
            .select_related("subscription__user", "game")
            .filter(pk=message_id, outcome="")
            .first()
        )
        if message is None:
            return False
        sub = message.subscription
        now = timezone.now()
        if now - message.created_at > PUSH_STALE:
            _mark(message, "skipped", "stale")
            return False
        with translation.override(sub.user.language or settings.LANGUAGE_CODE):
            body = payload(message)
        if body is None:
            _mark(message, "skipped")
            return False
        target = push_wire.Target(sub.endpoint, sub.p256dh, sub.auth)
        message.attempts += 1
        try:
            push_wire.send(target, body, ttl=24 * 3600, topic=body["tag"].replace("-", ""))
        except push_wire.PushGone:
            log.info("push subscription %s is gone: removed", sub.pk)
            PushSubscription.objects.filter(pk=sub.pk).delete()
            return False
        except push_wire.PushRefused as exc:
            _mark(message, "failed", str(exc))
            return False
        except push_wire.PushUnavailable as exc:
            # Noted on the row (committed), then raised for the task to retry.
            message.error = str(exc)[:1000]
            message.next_try_at = now + retry_in
            message.save(update_fields=["attempts", "error", "next_try_at"])
            failure: push_wire.PushUnavailable | None = exc
        else:
            failure = None
            message.outcome, message.sent_at, message.error = "sent", now, ""
            message.save(update_fields=["attempts", "outcome", "sent_at", "error"])
            PushSubscription.objects.filter(pk=sub.pk).update(last_sent_at=now)
    if failure is not None:
        raise failure
    return True


def _mark(message: PushMessage, outcome: str, error: str = "") -> None:
    message.outcome, message.error = outcome, error[:1000]
    message.save(update_fields=["attempts", "outcome", "error"])


def push_requeue(*, now: datetime, limit: int = 500) -> int:
    """Queue again the pushes whose task was lost: still waiting ``PUSH_LEASE`` after they
    were due. Each row is taken by a conditional UPDATE of ``next_try_at`` (two sweeps never
    take the same); the row's lock and outcome make a late duplicate task harmless."""
    waiting = list(
        PushMessage.objects.filter(outcome="", next_try_at__lte=now - PUSH_LEASE)
        .order_by("next_try_at")
        .values_list("pk", "next_try_at")[:limit]
    )
    taken = [
        pk
        for pk, at in waiting
        if PushMessage.objects.filter(pk=pk, outcome="", next_try_at=at).update(next_try_at=now)
    ]
    queue(taken)
    return len(taken)


def invitation_pushes_queue(*, game_id: int) -> None:
    """After a table is opened: an invitation push to each invited player's devices."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return
    ids: list[int] = []
    for pk, user_id in Invitation.objects.filter(game=game).values_list("pk", "user_id"):
        ids += messages_record(
            kind="invitation", ref=str(pk), users=[user_id], at=timezone.now(), game=game
        )
    queue(ids)


def finished_pushes_record(*, game: Game) -> None:
    """In the finishing move's transaction: a "game over" push to each player's devices."""
    seats = {s.user_id: s for s in Seat.objects.filter(game=game, user__is_bot=False)}
    ids = messages_record(
        kind="finished", ref=str(game.pk), users=seats, at=timezone.now(), game=game, seats=seats
    )
    if ids:
        transaction.on_commit(lambda: queue(ids), robust=True)
