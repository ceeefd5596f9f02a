"""Errors the game services raise. Each carries an HTTP ``status``, a stable ``code`` and a
``message`` a player understands (never holding hidden information). The API turns them
into ``{"code", "message"}`` answers; the page shows ``message``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _


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
    """409 ``stale_version``: the caller's own decision changed since the version it sent."""

    code = "stale_version"
    default_message = _("The game moved on since you last looked; here is the current table.")


class IllegalMove(GameError):
    """422: the rules refuse the action; ``code`` is the engine's ``IllegalAction.code``."""

    status = 422
    code = "illegal_action"
    default_message = _("That move is not allowed now.")
