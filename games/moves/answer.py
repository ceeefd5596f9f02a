"""A player's move and its answer, the same on every surface.

The socket's ``{"type": "action"}`` message (``games.live.consumers``), ``POST
/api/games/<id>/actions`` (``games.api.tables``) and the page's no-socket form
(``games.web.posts.act``) all reach ``answers`` through ``games.moves.queue``, which hands
it a game's moves that waited together: the move path (``games.moves.submit``), then for
each move either the sender's document after the job's moves (with ``applied_version`` and
``replayed``) or the error body every surface gives (``games.errors.error_body``; a stale
version carries the sender's current document in ``current``: built here and nowhere
else). The work runs in a database thread (``games.store.db_threads``), never on the event
loop or a request's thread.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.errors import GameError, NotSignedIn, StaleVersion, error_body, kept
from games.moves.request import MoveRequest, action_from_form, check_request
from games.moves.result import MoveResult, Outcome
from games.moves.submit import submit
from games.selectors import documents
from games.store.backends import store

Json = dict[str, Any]


def _document(result: MoveResult, user: Any) -> Json:
    """The sender's document after the moves: the one the frames were built from when there
    is one (``MoveResult.documents``), else built from the game and seats the move locked."""
    mine = documents.seat_for_user(game=result.game, user=user, seats=result.seats)
    number = mine.seat if mine is not None else None
    built = result.documents
    if number in built and built[number]["version"] == result.game.version:
        return dict(built[number])
    return documents.game_document(game=result.game, user=user, seats=result.seats)


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
    """``answer`` for each of ``sent``, moves at the same game, made in their order in one
    transaction (``games.moves.submit``; ``games.moves.queue`` gathers them). Each gets its
    own answer: its refusal, or the sender's document after the last of them with the
    version its own move made."""
    out: list[tuple[int, Json] | None] = [None] * len(sent)
    requests: list[MoveRequest] = []
    places: list[int] = []
    for i, item in enumerate(sent):
        try:
            if item.user is None or not getattr(item.user, "is_authenticated", False):
                raise NotSignedIn()
            action = item.action
            if action is None and item.form is not None and item.title is not None:
                action = action_from_form(item.title, item.form)
            request = MoveRequest(action, item.user, None, item.version, item.client_id)
            check_request(request)
        except GameError as exc:
            out[i] = exc.status, error_body(exc)
            continue
        requests.append(request)
        places.append(i)
    if requests:
        result: MoveResult | None = None
        outcomes: list[Outcome]
        try:
            result = store().writing(functools.partial(submit, game_id=game_id, requests=requests))
            outcomes = result.outcomes
        except GameError as exc:
            outcomes = [kept(exc)] * len(requests)
        for i, request, outcome in zip(places, requests, outcomes, strict=True):
            out[i] = _answer_one(result, request.user, outcome)
    return [o for o in out if o is not None]


def _answer_one(result: MoveResult | None, user: Any, outcome: Outcome) -> tuple[int, Json]:
    """One request's answer. ``result`` is the batch's, there unless the game's lock
    refused them all."""
    if isinstance(outcome, StaleVersion) and result is not None:
        # The sender's current document: the one its frames were built from when the batch
        # made moves, else built from the game and seats it locked.
        return outcome.status, error_body(outcome, current=_document(result, user))
    if isinstance(outcome, GameError):
        return outcome.status, error_body(outcome)
    if result is None:  # an accepted move's outcome always comes with its batch's result
        raise TypeError("an outcome without its result")
    applied_version, replayed = outcome
    return 200, {
        **_document(result, user),
        "applied_version": applied_version,
        "replayed": replayed,
    }
