"""The table's chat: a player says something; the sockets hear it after the commit."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.errors import BadRequest, NotAllowed
from games.live.broadcast import broadcast
from games.models import ChatMessage, Seat
from games.store.backends import locked

CHAT_MAX = 500


def _seat_of(game: Any, user: Any) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Seat.objects.filter(game=game, user=user).first()


def chat_post(*, game_id: int, user: User, text: Any) -> ChatMessage:
    """Say something at a table (players only). Reaches the sockets after commit."""
    if not isinstance(text, str) or not text.strip():
        raise BadRequest(_("Write something first."), code="empty_message")
    text = text.strip()
    if len(text) > CHAT_MAX:
        raise BadRequest(_("Keep chat messages under 500 characters."), code="message_too_long")
    with transaction.atomic():
        game = locked(game_id)
        if _seat_of(game, user) is None:
            raise NotAllowed(_("Only the players can chat at this table."), code="not_a_player")
        message = ChatMessage.objects.create(game=game, user=user, text=text, version=game.version)
        message_id = message.pk
        game_pk = int(game.pk)
        transaction.on_commit(
            lambda: broadcast(game_pk, {"type": "game.chat", "message_id": message_id})
        )
    return message
