"""What a move does besides its own rows: the named effects, in the order they run.

The move path (``games.moves.submit``) calls them explicitly, never through signals:

* ``DURABLE`` — inside the move's transaction, after each accepted move and at the start
  (with an ``Advance``): rows that must be written exactly when the move is (clocks, the
  "your turn" mail and push owed on the seat, webhook deliveries owed). An error here rolls
  the move back.
* ``DURABLE_FINISH`` — inside the transaction, once, when a move ends the game (with the
  ``MoveResult``): ratings, the "game over" pushes and webhook deliveries owed.
* ``AFTER_COMMIT`` — once per batch, after the commit (with the ``MoveResult``): the state
  remembered, the frames to every socket (their documents kept on the result for the
  answer), the inbox counts nudged, the "game finished" mails queued, a tournament stepped,
  and last the bot woken. Each runs whatever the ones before it did: an error is logged and
  the move stays committed (with eager tasks the bot's own errors are raised).

Effects of the apps above ``games`` (accounts, notifications, webhooks, tournaments) are
named by their dotted path, as a task is (``colorado.task_queue``): the move path wakes them
without importing them, so ``games`` imports none of those apps. A name may also be a
callable (tests add one to see a crash inside the transaction).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.module_loading import import_string

from colorado.task_queue import eager
from games.bots import wakeup
from games.live.broadcast import announce_update, broadcast, frames_send, layer_failed
from games.moves.result import Advance, MoveResult
from games.store.state_cache import remember_state

log = logging.getLogger(__name__)

Effect = str | Callable[..., None]

DURABLE: list[Effect] = [
    "games.clocks.advance.clocks_on_advance",  # clocks stop, start, earn their increment
    "notifications.receivers.turn_owed",  # "your turn" mail (and push) owed on the seat
    "webhooks.events.my_turn_owed",  # my_turn deliveries owed
]
DURABLE_FINISH: list[Effect] = [
    "games.records.ratings.ratings_on_finish",  # the players' ratings
    "notifications.receivers.finished_pushes_owed",  # "game over" pushes owed
    "webhooks.events.game_over_owed",  # game_over deliveries owed
]
AFTER_COMMIT: list[Effect] = [
    "games.moves.effects.state_remember",  # the snapshot cache (games.store.state_cache)
    "games.moves.effects.frames",  # each socket's frame; the documents for the answer
    "notifications.live.inbox_nudge",  # the header's inbox count of whom it concerns
    "notifications.receivers.finished_mails_queue",  # "game finished" mails
    "tournaments.receivers.table_over",  # the tournament or ladder of a finished table
    "games.moves.effects.bot_wake",  # last: with eager tasks the bot plays right here
]


@functools.cache
def _resolve(name: str) -> Callable[..., None]:
    function: Callable[..., None] = import_string(name)
    return function


def resolve_named() -> None:
    """Import every effect named by its dotted path (``GamesConfig.ready``: at startup, not
    in a move)."""
    for effect in (*DURABLE, *DURABLE_FINISH, *AFTER_COMMIT):
        _callable(effect)


def _callable(effect: Effect) -> Callable[..., None]:
    return effect if callable(effect) else _resolve(effect)


def durable(advance: Advance) -> None:
    """``DURABLE``, in order, inside the transaction of ``advance``."""
    for effect in DURABLE:
        _callable(effect)(advance)


def durable_finish(result: MoveResult) -> None:
    """``DURABLE_FINISH``, in order, inside the transaction of the move that ended the game."""
    for effect in DURABLE_FINISH:
        _callable(effect)(result)


def after_commit(result: MoveResult) -> None:
    """``AFTER_COMMIT`` once the transaction commits (now, outside one)."""
    transaction.on_commit(functools.partial(_after_commit, result))


def _after_commit(result: MoveResult) -> None:
    for effect in AFTER_COMMIT:
        function = _callable(effect)
        if function is bot_wake:
            function(result)  # handles its own errors (and raises them with eager tasks)
            continue
        try:
            function(result)
        except Exception as exc:  # committed: the next effects run all the same
            layer_failed(getattr(function, "__name__", str(effect)), int(result.game.pk), exc)


# --- the games app's own after-commit effects ----------------------------------------------


def state_remember(result: MoveResult) -> None:
    if result.state is not None:
        remember_state(result.game, result.state, version=int(result.game.version))


def frames(result: MoveResult) -> None:
    """Moves: each seat's frame (``games.live.broadcast.frames_send``), its documents kept
    for the answers; the start: every socket reads its document again."""
    if result.moves:
        result.documents = frames_send(result.game, result.seats, result.moves, result.state)
    else:
        game_id, version = int(result.game.pk), int(result.game.version)
        broadcast(game_id, {"type": "game.update", "version": version, "refresh": False})


def bot_wake(result: MoveResult) -> None:
    if result.bot_due:
        wake_bot(int(result.game.pk), int(result.game.version))


def wake_bot(game_id: int, version: int) -> None:
    """Queue the bot's move. The change is committed: a broker that is down (Redis) must not
    turn it into a 500, nor stop the on-commit steps queued after this one; the periodic
    sweep queues a bot move that was lost. With eager tasks (tests, scripts) the bot plays
    right here and its errors are raised as they are."""
    if eager():
        wakeup.queue_bot_move(game_id=game_id, version=version)
        return
    try:
        wakeup.queue_bot_move(game_id=game_id, version=version)
    except Exception as exc:
        layer_failed(f"queueing the bot move at version {version}", game_id, exc)


def after_change(game: Any, *, bot_due: bool, refresh: bool = False) -> None:
    """After a change other than a move (a seat taken or handed to a bot, a table left or
    aborted), on commit: every socket reads its document again (with ``refresh`` even at
    the version it shows: a change that keeps the version), and the bot is woken."""
    game_id, version = int(game.pk), int(game.version)
    announce_update(game_id=game_id, version=version, refresh=refresh)
    if bot_due:
        transaction.on_commit(lambda: wake_bot(game_id, version))
