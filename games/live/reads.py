"""What a game socket reads from the database besides its first document: its document
with the events after a version (a hello, a resync) and a chat line (``games.live.consumers``;
run in the database threads)."""

from __future__ import annotations

from typing import Any

from games.live.frames import socket_frame
from games.models import ChatMessage
from games.selectors import documents


def socket_payload(game_id: int, user: Any, since: int) -> dict[str, Any] | None:

    found = documents.game_with_seats(game_id)
    if found is None:
        return None
    game, seats = found
    doc = documents.game_document(game=game, user=user, seats=seats)
    events = documents.game_log(
        game=game, user=user, since=since, chat=False, until=doc["version"], seats=seats
    )
    return socket_frame(doc, events)


def chat_entry_read(game_id: int, message_id: int) -> dict[str, Any] | None:

    message = (
        ChatMessage.objects.select_related("user").filter(pk=message_id, game_id=game_id).first()
    )
    return documents.chat_entry(message) if message is not None else None
