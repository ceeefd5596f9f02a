"""A player's action and its answer, the same on every surface.

``POST /api/games/<id>/actions`` (``games.api``) and the socket's ``{"type": "action"}``
message (``games.consumers``) both reach ``answers`` through ``games.move_queue``, which
hands it a game's moves that waited together: the move service, then for each move either
the caller's document after the job's moves (with ``applied_version`` and ``replayed``) or
the error body every surface gives (``games.errors.error_body``; a stale version carries the
caller's current document in ``current``). ``answer`` is the same for one move. The work
runs in a database thread (``games.db_threads``), never on the event loop or a single
shared thread.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext as _

from games import db_threads, moves, selectors
from games.errors import BadRequest, GameError, NotSignedIn, StaleVersion, error_body, kept
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
        raise BadRequest(form_refusal(exc)) from None


def form_refusal(exc: ValidationError) -> str:
    """The message of a refused move form: the title's own sentences; an error that
    carries the value sent in its parameters (Django's "x is not one of the available
    choices") is not repeated, since errors never echo what was sent."""
    own = [message for error in exc.error_list if not error.params for message in error.messages]
    if own and len(own) == len(exc.error_list):
        return "; ".join(own)
    return str(_("That move was not understood."))


@dataclass(frozen=True)
class Sent:
    """One move as a surface received it: ``action``, or a page's ``form`` with the game's
    ``title``."""

    user: Any
    action: Any
    version: Any
    client_id: Any
    form: Any = None
    title: str | None = None


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
    (only,) = answers(game_id, [Sent(user, action, version, client_id, form, title)])
    return only


def answers(game_id: int, sent: Sequence[Sent]) -> list[tuple[int, Json]]:
    """``answer`` for each of ``sent``, moves at the same game, applied in their order in
    one transaction (``moves.actions_submit``; ``games.move_queue`` gathers them). Each
    gets its own answer: its refusal, or the caller's document after the last of them with
    the version its own move made."""
    out: list[tuple[int, Json] | None] = [None] * len(sent)
    requests: list[moves.MoveRequest] = []
    places: list[int] = []
    for i, item in enumerate(sent):
        try:
            if item.user is None or not getattr(item.user, "is_authenticated", False):
                raise NotSignedIn()
            action = item.action
            if action is None and item.form is not None and item.title is not None:
                action = action_from_form(item.title, item.form)
            request = moves.MoveRequest(action, item.user, None, item.version, item.client_id)
            moves.check_request(request)
        except GameError as exc:
            out[i] = exc.status, error_body(exc)
            continue
        requests.append(request)
        places.append(i)
    if requests:
        game: Game | None = None
        outcomes: list[moves.Outcome]
        try:
            game, outcomes = db_threads.writing(
                functools.partial(moves.actions_submit, game_id=game_id, requests=requests)
            )
        except GameError as exc:
            outcomes = [kept(exc)] * len(requests)
        for i, request, outcome in zip(places, requests, outcomes, strict=True):
            out[i] = _answer_one(game, request.user, outcome)
    return [o for o in out if o is not None]


def _answer_one(game: Any, user: Any, outcome: moves.Outcome) -> tuple[int, Json]:
    """One request's answer. ``game`` is the batch's, there whenever a move went through."""
    if isinstance(outcome, StaleVersion):
        # The refusal holds the batch's game: the document its frames were built from when
        # it made moves, else built from it.
        return outcome.status, error_body(outcome, current=_document(outcome.game, user))
    if isinstance(outcome, GameError):
        return outcome.status, error_body(outcome)
    applied_version, replayed = outcome
    return 200, {
        **_document(game, user),
        "applied_version": applied_version,
        "replayed": replayed,
    }
