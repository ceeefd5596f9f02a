"""A player's action and its answer, the same on every surface.

``POST /api/games/<id>/actions`` (``games.api``) and the socket's ``{"type": "action"}``
message (``games.consumers``) both call ``answer``: the move service, then either the
caller's document after the move (with ``applied_version`` and ``replayed``) or the error
body every surface gives (``games.errors.error_body``; a stale version carries the caller's
current document in ``current``). The work runs in a database thread
(``games.db_threads``), never on the event loop or a single shared thread.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext as _

from games import db_threads, moves, selectors
from games.errors import BadRequest, GameError, NotSignedIn, StaleVersion, error_body
from games.models import Game
from games.titles import web_title

Json = dict[str, Any]


def _document(game: Game, user: Any) -> Json:
    """The caller's document after the move: the one the move's frames were built from
    when there is one (``selectors.move_frames`` keeps them on the game), else read."""
    built: dict[int | None, Json] | None = getattr(game, "_move_documents", None)
    mine = selectors.seat_for_user(game=game, user=user)
    number = mine.seat if mine is not None else None
    if built is not None and number in built and built[number]["version"] == game.version:
        return dict(built[number])
    return selectors.game_document(game=game, user=user)


def _submit(game_id: int, user: Any, action: Any, version: Any, client_id: Any) -> Game:
    return moves.action_submit(
        game_id=game_id, user=user, action=action, version=version, client_id=client_id
    )


def action_from_form(title: str, form: Any) -> dict[str, Any]:
    """The action a page's form makes (``{field: [values]}``, as the browser would post
    it), read by the title's web side as the page's form post is
    (``WebTitle.action_from_post``). 400 ``bad_request`` when it is not understood."""
    if not isinstance(form, dict) or len(form) > 100:
        raise BadRequest(_("That move was not understood."))
    data = QueryDict(mutable=True)
    for key, values in form.items():
        values = values if isinstance(values, list) else [values]
        if not all(isinstance(v, str) for v in values):
            raise BadRequest(_("That move was not understood."))
        data.setlist(str(key), values)
    try:
        return web_title(title).action_from_post(data)
    except ValidationError as exc:
        raise BadRequest("; ".join(exc.messages)) from None


def answer(
    *,
    game_id: int,
    user: Any,
    action: Any,
    version: Any,
    client_id: Any,
    form: Any = None,
    title: str | None = None,
) -> tuple[int, Json]:
    """``(200, document)`` or ``(error status, error body)``; call from a database thread
    (``db_threads.run``/``call``). With ``form`` (and the game's ``title``) instead of
    ``action``: a page's form, read as the page's form post is (``action_from_form``)."""
    if user is None or not getattr(user, "is_authenticated", False):
        exc: GameError = NotSignedIn()
        return exc.status, error_body(exc)
    try:
        if action is None and form is not None and title is not None:
            action = action_from_form(title, form)
        game = db_threads.writing(_submit, game_id, user, action, version, client_id)
    except StaleVersion as exc:
        current = selectors.current_document(game_id=game_id, user=user, locked=exc.game)
        return exc.status, error_body(exc, current=current)
    except GameError as exc:
        return exc.status, error_body(exc)
    return 200, {
        **_document(game, user),
        "applied_version": getattr(game, "applied_version", None),
        "replayed": getattr(game, "replayed", False),
    }
