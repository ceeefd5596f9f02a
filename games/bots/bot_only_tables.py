"""Tables with no person left (issue 41, item 1): one account opened twenty tables of hard
bots and resigned from each; nothing stopped them, and nobody could.

The rule (docs/bots.md, "Tables with no person left"): a running table where every seat
is played by a bot — its people resigned or were replaced by vote, or a bot opened it — is
**played out at the lowest priority** (``games.bots.fair_queue``: after every table where a
person waits, and by one worker at a time site-wide), and when it ends it is rated like any
game (the people who left are ranked last, as they would be anyway). Its creator, or an
admin, may **abort** it instead (``table_abort``): an aborted game is not rated, so nobody's
rating changes. An admin may abort any table that has not ended; a creator only one where no
person plays any more.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.errors import Conflict, NotAllowed, NotFound
from games.models import Game, Seat
from games.tables.lifecycle import game_abort


def people_playing(*, game: Game) -> bool:
    """Whether a person still plays a seat of ``game`` (a seat no bot plays)."""
    return Seat.objects.filter(game=game, bot_kind="").exists()


def may_abort(*, game: Game, user: Any) -> bool:
    """Whether ``user`` may abort ``game`` now (the page's button)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if game.status not in (Game.Status.OPEN, Game.Status.RUNNING):
        return False
    if user.is_staff:
        return True
    return (
        game.created_by_id == user.pk
        and game.status == Game.Status.RUNNING
        and not (people_playing(game=game))
    )


def table_abort(*, game_id: int, user: Any) -> Game:
    """Abort ``game_id`` for its creator (once no person plays it) or an admin: nothing
    more is played and it is not rated (``games.tables.lifecycle.game_abort``). 403
    ``not_allowed``, 409 ``people_playing`` / ``game_over``."""
    game = Game.objects.filter(pk=game_id).first() if 0 < game_id < 2**62 else None
    if game is None:
        raise NotFound()
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict(_("This game is already over."), code="game_over")
    staff = bool(getattr(user, "is_staff", False))
    if not staff and game.created_by_id != getattr(user, "pk", None):
        raise NotAllowed(
            _("Only the table's creator or an admin may abort it."), code="not_allowed"
        )
    if not staff and (game.status != Game.Status.RUNNING or people_playing(game=game)):
        raise Conflict(
            _("Someone still plays at this table; it can be aborted once only bots are left."),
            code="people_playing",
        )
    return game_abort(game_id=game_id)
