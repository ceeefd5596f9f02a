"""A person's seat handed to a bot for the rest of the game: they resigned, or the other
players replaced them after missed deadlines (``games.clocks.seats``). Rules:
``docs/clocks.md``."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.bots import players as bot_players
from games.errors import BadRequest, Conflict, NotFound
from games.models import Game, Seat, SeatHandover
from games.moves import effects
from games.store.backends import locked

HANDOVER_REASONS = ("resign", "vote")


def seat_hand_to_bot(*, game_id: int, seat: int, bot_kind: str | None = None, reason: str) -> Seat:
    """Let a bot (``bot_kind``; default: the table's stand-in, ``games.bots.players.stand_in_kind``)
    play a person's ``seat`` for the rest of the game. ``reason``: ``resign``
    (the player gave up) or ``vote`` (the other players replaced them after missed
    deadlines). Either way the person is out: they can no longer act at this table and are
    ranked last (``Seat.is_out``); a ``SeatHandover`` row puts it in the game log. Queues
    the bot if it must act. 409 ``already_bot`` for a seat a bot already plays."""
    if reason not in HANDOVER_REASONS:
        raise BadRequest(_("Unknown reason."), code="bad_reason")
    with transaction.atomic():
        game = locked(game_id)
        if bot_kind is not None and bot_kind not in bot_players.bot_kinds(game.title):
            raise BadRequest(_("Unknown bot kind."), code="unknown_bot")
        if game.status != Game.Status.RUNNING:
            raise Conflict(_("This game is not running."), code="not_running")
        bot_kind = bot_kind or bot_players.stand_in_kind(game)
        row = Seat.objects.filter(game=game, seat=seat).select_related("user").first()
        if row is None:
            raise NotFound(_("There is no such seat."), code="no_such_seat")
        if row.bot_kind or row.resigned:
            raise Conflict(_("A bot already plays that seat."), code="already_bot")
        row.bot_kind = bot_kind
        row.resigned = reason == "resign"
        row.save(update_fields=["bot_kind", "resigned"])
        SeatHandover.objects.create(
            game=game,
            seat=seat,
            user=row.user,
            bot_kind=bot_kind,
            reason=reason,
            version=game.version,
        )
        effects.after_change(
            game, bot_due=bot_players.bot_to_act(game, [row]) is not None, refresh=True
        )
    return row
