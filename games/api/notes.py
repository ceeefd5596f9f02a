"""Private notes in the JSON API: ``GET`` / ``PUT /api/games/{id}/notes`` (docs/api.md,
"Private notes"), the caller's own note only (``games.tables.notes``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema

from colorado.throttling import caller
from games.api.kit import errors, signed_in
from games.tables import notes
from games.tables.limits import note_throttle

router = Router(tags=["notes"])

Json = dict[str, Any]


class NoteIn(Schema):
    text: str  # its length is checked by the service: note_too_long


@router.get(
    "/games/{game_id}/notes",
    auth=signed_in,
    response=Json,
    summary="My private note at this table",
)
def read_note(request: HttpRequest, game_id: int) -> Json:
    return notes.note_read(game_id=game_id, user=caller(request))


@router.put(
    "/games/{game_id}/notes",
    auth=signed_in,
    response=Json,
    throttle=[note_throttle],
    openapi_extra=errors(),
    summary="Replace my private note at this table (no one else ever reads it)",
)
def write_note(request: HttpRequest, game_id: int, payload: NoteIn) -> Json:
    return notes.note_write(game_id=game_id, user=caller(request), text=payload.text)
