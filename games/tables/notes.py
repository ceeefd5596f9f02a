"""Private notes: one notepad per player per table, read and written by that player alone.

The page saves as the player types (debounced, ``static/js/notes.js``) and the API offers
``GET`` / ``PUT /api/games/{id}/notes``. A note is no part of the game: writing one takes no
lock on the table, changes no version, sends no frame and wakes nobody. Nothing that
serves another person (documents, frames, the log, exports, replays, mails, the admin)
reads ``GameNote``; the refusals below never repeat what was sent. The notes stay after
the game ends, for the player to read again.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.errors import BadRequest, NotAllowed, NotFound
from games.models import Game, GameNote, Seat

#: The longest note, in characters (about ten pages of text).
NOTE_MAX = 10_000
#: Saves a player may make a minute, at every table together (the page saves about once a
#: second while one types).
NOTE_RATE = "120/min"  # games.tables.limits.note_throttle


def _check_player(game_id: Any, user: Any) -> int:
    """``game_id`` as a number, if ``user`` has (or had) a seat there; else the refusal."""
    try:
        game_pk = int(game_id)
    except (TypeError, ValueError):
        raise NotFound() from None
    if not Game.objects.filter(pk=game_pk).exists():
        raise NotFound()
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed(_("Only the players keep notes at this table."), code="not_a_player")
    if not Seat.objects.filter(game_id=game_pk, user=user).exists():
        raise NotAllowed(_("Only the players keep notes at this table."), code="not_a_player")
    return game_pk


def note_read(*, game_id: Any, user: Any) -> dict[str, Any]:
    """The caller's own note at the table: ``{"text", "updated_at"}`` (empty if none)."""
    game_pk = _check_player(game_id, user)
    note = GameNote.objects.filter(game_id=game_pk, user=user).first()
    return _document(note)


def note_write(*, game_id: Any, user: Any, text: Any) -> dict[str, Any]:
    """Replace the caller's note with ``text`` (an empty text clears it)."""
    if not isinstance(text, str):
        raise BadRequest(_("A note is text."), code="bad_note")
    if len(text) > NOTE_MAX:
        raise BadRequest(
            _("Keep a note under %(max)d characters.") % {"max": NOTE_MAX}, code="note_too_long"
        )
    game_pk = _check_player(game_id, user)
    note, _created = GameNote.objects.update_or_create(
        game_id=game_pk, user=user, defaults={"text": text}
    )
    return _document(note)


def _document(note: GameNote | None) -> dict[str, Any]:
    if note is None:
        return {"text": "", "updated_at": None}
    return {"text": note.text, "updated_at": note.updated_at.isoformat()}
