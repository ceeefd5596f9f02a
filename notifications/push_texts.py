"""What the two later push events say (issue 43): "chat addressed to me" and "a deadline
close". ``notifications.push.payload`` asks here for these kinds; the recording is in
``notifications.push_events``.

A push holds only our own words and public facts: the table, who wrote (``@username``, never
a display name) and how long is left. Never the chat message's text: it is a player's free
text, and a push reaches a lock screen and a push service on its way (docs/operations.md,
"Web Push")."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clocks.time_left import time_left_text
from games.models import ChatMessage, Game, Seat
from notifications.mail_parts import game_title, subject_name
from notifications.models import PushMessage


def clock_stamp(seat: Seat) -> str:
    """The seat's clock run, as a push key holds it: a deadline push is sent once per run."""
    started = seat.clock_started_at
    return str(int(started.timestamp() * 1000)) if started else "-"


def chat_payload(message: PushMessage) -> dict[str, Any] | None:
    """ "“@alice” wrote to you at <title>, table 12" (key ``chat:<message>:<device>``)."""
    game = message.game
    if game is None:
        return None
    said = ChatMessage.objects.select_related("user").filter(pk=int(message.key.split(":")[1]))
    chat = said.first()
    if chat is None or chat.game_id != game.pk:
        return None
    quoted = {"name": subject_name(chat.user), "title": game_title(game)}
    return {
        "title": _("Chat"),
        "body": _("“%(name)s” wrote to you at %(title)s") % quoted,
        "url": reverse("games:game", args=[game.pk]) + "#chat",
        "tag": f"chat-{game.pk}",
    }


def deadline_payload(message: PushMessage) -> dict[str, Any] | None:
    """ "<title>, table 12: your move, 2 h 5 min left" while the seat is still due in
    the same clock run (key ``deadline:<seat>:<clock run>:<device>``)."""
    game = message.game
    if game is None or message.seat_id is None:
        return None
    seat = Seat.objects.select_related("game").filter(pk=message.seat_id).first()
    now = timezone.now()
    if (
        seat is None
        or seat.game.status != Game.Status.RUNNING
        or seat.is_bot
        or seat.deadline is None
        or seat.deadline <= now
        or seat.seat not in (seat.game.to_act or [])
        or message.key.split(":")[2] != clock_stamp(seat)
    ):
        return None
    return {
        "title": _("Deadline close"),
        "body": _("%(title)s: your move, %(left)s")
        % {"title": game_title(seat.game), "left": time_left_text(seat.deadline, now)},
        "url": reverse("games:game", args=[game.pk]),
        "tag": f"game-{game.pk}",
    }
