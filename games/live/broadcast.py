"""Messages to a game's sockets, through the channel layer (``colorado.realtime``).

Everything here runs after the commit of the change it tells of: a rolled back change is
never told. A channel layer that fails is logged and the change stays committed; the sockets
catch up by themselves (``games.live.watch.VersionWatch``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from kombu.exceptions import OperationalError as BrokerUnreachable
from redis.exceptions import RedisError

from colorado.realtime import group_send
from games.live.frames import frames_json, move_frames_and_documents
from games.models import Game, Move, Seat

log = logging.getLogger(__name__)

Json = dict[str, Any]


def group_name(game_id: int) -> str:
    """The channel-layer group of all of a game's sockets (changes other than moves: each
    socket then reads its own document)."""
    return f"game-{game_id}"


def frame_key(seat: int | None) -> str:
    """The key of a seat's frame (``None``: the spectators') in a move's ``game.frame``
    message; each socket passes on its own entry and nothing else."""
    return "watch" if seat is None else str(seat)


def layer_failed(what: str, game_id: int, exc: Exception) -> None:
    """Log an after-commit step that failed. The change is committed; the sockets catch up
    by themselves (``games.live.watch.VersionWatch``) and the periodic sweep queues a lost
    bot move, so an unreachable Redis is one line per step, not a traceback for every move
    of an outage; anything else (a bug in building the frames) keeps its traceback."""
    if isinstance(exc, (RedisError, BrokerUnreachable, OSError, TimeoutError)):
        log.warning("%s of game %s failed: %s", what, game_id, exc)
    else:
        log.error("%s of game %s failed", what, game_id, exc_info=exc)


def broadcast(game_id: int, message: Json) -> None:
    """``message`` to every socket of the game, now (after a commit)."""
    try:
        group_send(group_name(game_id), {"game_id": game_id, **message})
    except Exception as exc:  # the change is committed; a broken layer must not turn it into a 500
        layer_failed("broadcast", game_id, exc)


def announce_update(*, game_id: int, version: int, refresh: bool = False) -> None:
    """On commit, have every socket of the game read its document again (a change other than
    a move); with ``refresh`` even at the version it shows (a change that keeps the version:
    a seat handed to a bot, a replace vote cast)."""
    message = {"type": "game.update", "version": version, "refresh": refresh}
    transaction.on_commit(lambda: broadcast(game_id, message))


def frames_send(
    game: Game, seats: list[Seat], moves: list[Move], state: Any
) -> dict[int | None, Json]:
    """After committed moves (one, or a batch of ``games.moves.submit``): one ``game.frame``
    message to the game's group carrying each seat's frame and the spectators'
    (``frame_key``), built once here from memory instead of once per socket from the
    database. It stays inside the server (channel layer); each socket sends on the entry of
    its own seat only, and a socket that missed a version reads its own document instead
    (``since``: the version before the first of the moves). Returns each seat's document
    the frames were built from (empty when building them failed)."""
    game_id, version = int(game.pk), int(moves[-1].version)
    documents: dict[int | None, Json] = {}
    try:
        frames, documents = move_frames_and_documents(
            game=game, seats=seats, moves=moves, state=state
        )
        group_send(
            group_name(game_id),
            {
                "type": "game.frame",
                "game_id": game_id,
                "version": version,
                "since": int(moves[0].version) - 1,
                "to_act": list(game.to_act),
                "frames": {frame_key(seat): text for seat, text in frames_json(frames).items()},
            },
        )
    except Exception as exc:  # the move is committed; a broken layer must not turn it into a 500
        layer_failed("frames", game_id, exc)
    return documents
