"""A move as it arrives, before the database: who sends it, the action (or a page's form),
the version it was chosen at and its client id; and the checks that need no database.

Every surface hands its moves over in this one shape (``MoveRequest``): the socket and the
API through ``games.moves.answer``, the page's no-socket form (``games.web.posts.act``) the
same way, the bots and the clocks' sweep directly. A page's form is read here and only here
(``action_from_form``), by the title's web side (``WebTitle.action_from_post``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext as _

from games.errors import BadRequest
from games.models import Move
from games.titles import web_title

CLIENT_ID_MAX = 64
# The client ids the server makes for its own moves (``bot:<version>:<seat>`` in
# games.bots.tasks, ``timeout:<version>:<seat>`` in games.clocks.sweep). A player who sent one first
# made the server's move look like a retry, and it was never made: players may not use them.
RESERVED_CLIENT_ID_PREFIXES = ("bot:", "timeout:")


@dataclass(frozen=True)
class MoveRequest:
    """One action for ``games.moves.submit``: who sends it (``user``; or ``seat`` with the
    bot's ``actor``), the action, the version it was chosen at and its client id."""

    action: Any
    user: Any = None
    seat: int | None = None
    version: Any = None
    client_id: Any = None
    actor: str = "player"


def check_request(request: MoveRequest) -> None:
    """The checks that need no database: 400 with a stable code for a malformed request."""
    actor, client_id, version = request.actor, request.client_id, request.version
    if actor not in Move.Actor.values:
        raise BadRequest(_("Unknown actor."), code="bad_actor")
    if client_id is not None and (
        not isinstance(client_id, str) or not 0 < len(client_id) <= CLIENT_ID_MAX
    ):
        raise BadRequest(
            _("client_id must be a string of at most 64 characters."), code="bad_client_id"
        )
    if (
        client_id is not None
        and actor == Move.Actor.PLAYER
        and client_id.startswith(RESERVED_CLIENT_ID_PREFIXES)
    ):
        raise BadRequest(
            _("client_id may not start with %(prefixes)s: the server uses those.")
            % {"prefixes": " or ".join(RESERVED_CLIENT_ID_PREFIXES)},
            code="bad_client_id",
        )
    if version is not None and (
        isinstance(version, bool) or not isinstance(version, int) or version < 0
    ):
        raise BadRequest(_("version must be a whole number."), code="bad_version")
    if not isinstance(request.action, dict):
        raise BadRequest(_("The action must be a JSON object."), code="bad_action")


def action_from_form(title: str, form: Any) -> dict[str, Any]:
    """The action a page's form makes (``{field: [values]}``, as the browser would post
    it), read by the title's web side (``WebTitle.action_from_post``). 400 ``bad_request``
    when it is not understood."""
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
