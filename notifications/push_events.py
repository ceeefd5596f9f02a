"""Recording the two later push events (issue 43): a chat message addressed to a player, and
a deadline close on a player's turn. Sent like the others (``notifications.push``): a
``PushMessage`` row per device under a unique key, the ``send_push`` task, the sweep's redo;
their words are in ``notifications.push_texts``.

**Addressed to me.** A table's chat is one public room for its players: it has no direct
messages. A message is addressed to a player when it names them as ``@username`` (their
username, never the display name, which is free text), and that player sits at the table,
is not its author, and has not muted the author's invitations. Each mention pushes once, to
each of that player's devices that chose "chat".

**A deadline close.** A player whose turn's deadline is within their "reminder before a
deadline" hours (the setting the reminder mail uses; 0 for none) gets one push per clock
run (the key holds the run's start), from the sweep, whether or not mail reminders are on.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from accounts.services import REMINDER_HOURS_MAX
from games.models import ChatMessage, Game, InvitationMute, Seat
from notifications import push
from notifications.models import PushMessage, PushSubscription
from notifications.push_texts import clock_stamp

#: "@name" not inside a word or an address ("bob@example.org" mentions nobody).
MENTION = re.compile(r"(?<![\w@])@([\w.+-]+)")


def mentioned(text: str) -> set[str]:
    """The usernames ``text`` mentions, casefolded (a trailing full stop is not part of one)."""
    names = set()
    for found in MENTION.findall(text):
        names.add(found.casefold())
        names.add(found.rstrip(".").casefold())
    return names


def on_chat_saved(sender: Any, *, instance: ChatMessage, created: bool, **kwargs: Any) -> None:
    """In the chat's transaction: a push for each player the message mentions."""
    if not created:
        return
    names = mentioned(instance.text)
    if not names:
        return
    seats = [
        s
        for s in Seat.objects.filter(game_id=instance.game_id).select_related("user")
        if s.user.username.casefold() in names
        and s.user_id != instance.user_id
        and not s.user.is_bot
    ]
    muting = set(
        InvitationMute.objects.filter(
            user_id__in=[s.user_id for s in seats], muted_id=instance.user_id
        ).values_list("user_id", flat=True)
    )
    ids: list[int] = []
    for seat in seats:
        if seat.user_id in muting:
            continue
        ids += push.messages_record(
            kind="chat",
            ref=str(instance.pk),
            users=[seat.user_id],
            at=instance.created_at,
            game=Game(pk=instance.game_id),
            seats={seat.user_id: seat},
            version=instance.version,
        )
    if ids:
        transaction.on_commit(lambda: push.queue(ids), robust=True)


def deadline_pushes_queue(*, now: datetime) -> int:
    """The sweep: record and queue a "deadline close" push for each seat due within its
    player's reminder hours, not yet pushed in this clock run, whose player has a device
    that chose "deadline". The number of pushes queued."""
    pushing = PushSubscription.objects.filter(user=OuterRef("user_id"))
    pushed = PushMessage.objects.filter(
        seat=OuterRef("pk"), kind="deadline", created_at__gte=OuterRef("clock_started_at")
    )
    seats = (
        Seat.objects.filter(
            deadline__gt=now,
            deadline__lte=now + timedelta(hours=REMINDER_HOURS_MAX),
            user__is_bot=False,
            user__reminder_hours__gt=0,
            bot_kind="",
            game__status=Game.Status.RUNNING,
        )
        .filter(Exists(pushing))
        .filter(~Q(Exists(pushed)))
        .select_related("user", "game")
    )
    close = [
        seat
        for seat in seats
        if seat.deadline is not None
        and seat.deadline
        <= now + timedelta(hours=min(int(seat.user.reminder_hours), REMINDER_HOURS_MAX))
    ]
    # Only the players with a device that chose "deadline" (the events are read here, as
    # push.turn_pushers does: SQLite has no JSON containment lookup).
    wanting = {
        user_id
        for user_id, events in PushSubscription.objects.filter(
            user_id__in={s.user_id for s in close}
        ).values_list("user_id", "events")
        if "deadline" in (events or [])
    }
    ids: list[int] = []
    for seat in close:
        if seat.user_id not in wanting:
            continue
        ids += push.messages_record(
            kind="deadline",
            ref=f"{seat.pk}:{clock_stamp(seat)}",
            users=[seat.user_id],
            at=now,
            game=seat.game,
            seats={seat.user_id: seat},
            version=int(seat.game.version),
        )
    push.queue(ids)
    return len(ids)
