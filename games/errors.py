"""Errors the game services raise, and the one mapping from them to answers.

Each error carries an HTTP ``status``, a stable ``code`` and a ``message`` a player
understands (never holding hidden information). ``error_body`` is the answer every surface
gives for one: ``{"code", "message"}``, and for a stale version the caller's current game
document under ``current``. The surfaces only wrap that body:

* the JSON API (``colorado.api``): its handler for ``GameError`` and ``ApiError.of``;
* the pages: ``json_error`` (the page's script, ``Accept: application/json``) and
  ``page_error`` (the same JSON for the script, else the message on the page it goes back to).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _

Json = dict[str, Any]


class GameError(Exception):
    status = 400
    code = "bad_request"
    default_message: Any = _("That request cannot be carried out.")

    def __init__(self, message: Any = None, *, code: str | None = None, **extra: Any) -> None:
        self.message = str(message if message is not None else self.default_message)
        if code is not None:
            self.code = code
        self.extra = extra
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class BadRequest(GameError):
    """400: the request itself is malformed or asks for something that does not exist."""


class NotSignedIn(GameError):
    """401: the caller must sign in first (they may be one of the players)."""

    status = 401
    code = "not_signed_in"
    default_message = _("Sign in first.")


class NotAllowed(GameError):
    """403: the caller may not do this (not a player, not their seat)."""

    status = 403
    code = "forbidden"
    default_message = _("You are not allowed to do that.")


class NotFound(GameError):
    status = 404
    code = "not_found"
    default_message = _("There is no such game.")


class Conflict(GameError):
    """409: the table changed under the caller (taken seat, game not open, …)."""

    status = 409
    code = "conflict"
    default_message = _("The table has changed; reload it.")


class StaleVersion(Conflict):
    """409 ``stale_version``: the caller's own decision changed since the version it sent.
    Every surface answers it with the caller's current game document in ``current``, built
    from the game and seats the move locked (``games.moves.answer``)."""

    code = "stale_version"
    default_message = _("The game moved on since you last looked; here is the current table.")


class TooManyRequests(GameError):
    """A rate limit was reached (the API's throttles answer the same code)."""

    status = 429
    code = "throttled"
    default_message = _("Too many requests; slow down a little.")


class IllegalMove(GameError):
    """422: the rules refuse the action; ``code`` is the engine's ``IllegalAction.code``."""

    status = 422
    code = "illegal_action"
    default_message = _("That move is not allowed now.")


def kept(exc: GameError) -> GameError:
    """``exc`` kept as a move's outcome (``games.moves.submit``), without the traceback
    and the context that tie it to the frames that raised and caught it. With them, the list
    of outcomes in the catching frame and the error made a reference cycle, which kept the
    error, the game, its seats and their users alive until the cycle collector's next pass,
    a pass that stops the whole process (docs/benchmarks/history.md, "Seventeenth pass"). Its
    answer (``error_body``) needs neither."""
    exc.__traceback__ = None
    exc.__context__ = None
    return exc


def watch_refused(*, signed_in: bool) -> GameError:
    """Why a visitor may not see an invitation-only table (``selectors.can_watch`` said
    no): 401 ``not_signed_in`` when signed out, else 403 ``not_a_player``."""
    if not signed_in:
        return NotSignedIn(_("Sign in to watch this table."))
    return NotAllowed(_("This table is for its invited players only."), code="not_a_player")


def error_body(exc: GameError, *, current: Json | None = None) -> Json:
    """The answer to ``exc`` on every surface: ``code``, ``message``, any extra fields the
    error carries, and ``current`` (the caller's game document) when one is given."""
    body: Json = {"code": exc.code, "message": exc.message, **exc.extra}
    if current is not None:
        body["current"] = current
    return body


def wants_json(request: HttpRequest) -> bool:
    """The page's script asks for JSON answers (``Accept: application/json``)."""
    return "application/json" in request.headers.get("Accept", "")


def json_error(exc: GameError, *, current: Json | None = None) -> JsonResponse:
    return JsonResponse(error_body(exc, current=current), status=exc.status)


def page_error(
    request: HttpRequest, exc: GameError, *, back: str, current: Json | None = None
) -> HttpResponse:
    """A page's form refused: the JSON answer for the script, else back to ``back`` (a
    URL) with the message shown there."""
    if wants_json(request):
        return json_error(exc, current=current)
    messages.error(request, exc.message)
    return redirect(back)
