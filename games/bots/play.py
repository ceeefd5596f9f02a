"""One bot move: the service behind the bot task (``games.bots.tasks.bot_move``) and the deadline
sweep's stand-in (``games.clocks.sweep``).

The bot sees only its own seat's view and legal actions, exactly like a person using the API
(the search bot is handed the state, and reads what the seat cannot see only through the
title's ``determinise`` hook, which redraws it from public information), picks its action
with ``games.bots.players.bot_choose`` (a generator seeded by the game, the version
and the seat: the same table plays the same way again) and plays it through
``games.moves.action_submit`` at the version it read. The caller names the ``client_id``
(derived from the version, so a redelivered task or a second sweep cannot play twice) and
the ``actor`` written in the move log: ``bot`` for a seat a bot plays (a bot account's, or a
person's handed to the bot for good), ``timeout`` for the single move the bot makes for a
late player who keeps the seat.
"""

from __future__ import annotations

import logging
from typing import Literal

from django.conf import settings

from games.bots.players import bot_choose, bot_rng, bot_seconds
from games.bots.search_process import think
from games.errors import GameError
from games.models import Game
from games.moves import action_submit
from games.store.state_cache import engine_for, load_state

log = logging.getLogger(__name__)

#: What ``bot_play`` did: played (or found its ``client_id`` already played: a retry), found
#: nothing legal (a due seat without a legal action is a bug, logged), or had its move
#: refused (the game moved on under it).
BotPlayed = Literal["moved", "no legal action", "refused"]


def _think_apart() -> bool:
    """Whether a searching bot thinks in a process of its own: in embedded mode, where the
    worker shares the web process, except with eager tasks (tests, scripts)."""
    return bool(settings.EMBEDDED) and not bool(settings.CELERY_TASK_ALWAYS_EAGER)


def bot_play(
    *,
    game: Game,
    seat: int,
    kind: str,
    actor: str,
    client_id: str,
    seconds: float | None = None,
) -> BotPlayed:
    """The bot of ``kind`` plays one action for ``seat`` of ``game`` at ``game.version``.
    ``seconds``: a searching bot's thinking time (default: its level's,
    ``games.bots.players.bot_seconds``; the deadline sweep gives less when its time runs short)."""
    engine = engine_for(game)
    state = load_state(game)
    if not engine.legal_actions(state, seat):
        log.warning("seat %s of game %s is due but has no legal action", seat, game.pk)
        return "no legal action"
    rng = bot_rng(seed=game.seed, version=game.version, seat=seat)
    budget = bot_seconds(kind) if seconds is None else seconds
    if budget is not None and _think_apart():
        # Embedded mode: the search in a process of its own, off the web's interpreter
        # lock (games.bots.search_process).
        action = think(
            slug=engine.slug,
            dumped=game.state,
            kind=kind,
            seat=seat,
            rng=rng,
            seconds=budget,
            iterations=getattr(settings, "BOT_SEARCH_ITERATIONS", None),
        )
    else:
        action = bot_choose(
            kind=kind, engine=engine, state=state, seat=seat, rng=rng, seconds=seconds
        )
    try:
        action_submit(
            game_id=game.pk,
            seat=seat,
            action=action,
            version=game.version,
            client_id=client_id,
            actor=actor,
        )
    except GameError as exc:
        log.info(
            "%s move for seat %s of game %s at version %s refused: %r",
            actor,
            seat,
            game.pk,
            game.version,
            exc,
        )
        return "refused"
    return "moved"
