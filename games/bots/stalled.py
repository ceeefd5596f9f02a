"""Bots that should have moved and did not: found by the sweep and queued again.

Nothing waits on a single task. ``bot_move`` is queued on commit after every change that
leaves a bot to act, but that task can be lost: a worker killed while holding it (its
message comes back only after the broker's visibility timeout), a Redis restart (the queue
is gone), a database error it could not retry past, a publish that failed while the broker
was away. The game then shows the bot to act and nothing happens until the bot's own
deadline, days later.

So the sweep (``games.clocks.tasks.sweep_deadlines``) asks ``bots_stalled`` for running games
where a bot is to act (``games.bots.players.seats_bot_due``: a bot account's seat, or a person's
seat handed to the bot, in ``Game.to_act``) and nothing has changed for
``BOT_STALL_SECONDS`` (every move sets ``Game.updated_at``), and queues ``bot_move`` again.
That is safe to do any number of times: ``bot_move`` refuses a version the game has left
and its ``client_id`` (``bot:<version>:<seat>``) makes the move once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from colorado.task_queue import eager
from games.bots.fair_queue import moving
from games.bots.players import seats_bot_due
from games.bots.wakeup import queue_bot_move

log = logging.getLogger(__name__)

#: Stalled games queued per sweep run, the longest stalled first (the rest wait a sweep).
STALL_LIMIT = 200
#: A task queued again by the sweep is dropped unstarted after this long: while the workers
#: are away, each sweep queues the stalled bots again, and the copies must not pile up.
REQUEUE_EXPIRES = timedelta(minutes=5)


@dataclass(frozen=True)
class Stall:
    game_id: int
    version: int
    seat: int
    idle_seconds: float


def bots_stalled(
    *, now: datetime | None = None, grace_seconds: int | None = None, limit: int = STALL_LIMIT
) -> list[Stall]:
    """Running games where a bot is to act and nothing has moved for ``grace_seconds``
    (default ``settings.BOT_STALL_SECONDS``), one per game, the longest stalled first.

    One query: the running games idle since before the cutoff (``game_running_updated``, a
    partial index on ``updated_at``), joined to their bot seats that are in ``to_act``.
    """
    now = now or timezone.now()
    grace = settings.BOT_STALL_SECONDS if grace_seconds is None else grace_seconds
    cutoff = now - timedelta(seconds=grace)
    rows = (
        seats_bot_due()
        .filter(game__updated_at__lt=cutoff)
        .order_by("game__updated_at", "game_id", "seat")
        .values_list("game_id", "game__version", "seat", "game__updated_at")
    )
    found: dict[int, Stall] = {}
    for game_id, version, seat, updated_at in rows[: limit * 4]:
        if seat is None:  # not drawn yet; seats_bot_due keeps drawn seats only
            continue
        if game_id not in found:
            idle = (now - updated_at).total_seconds()
            found[game_id] = Stall(int(game_id), int(version), int(seat), idle)
        if len(found) >= limit:
            break
    return list(found.values())


def bots_requeue(*, now: datetime | None = None, limit: int = STALL_LIMIT) -> int:
    """Queue ``bot_move`` again for every stalled bot (``bots_stalled``); returns how many.
    Logged, so an operator sees tasks being lost.

    Bot work is shared fairly (``games.bots.fair_queue``): while the workers keep making bot
    moves, a table whose bot has waited past the grace period is waiting for its turn (its
    account's share, or the share of tables only bots play), not lost; then one token is
    queued for all of them, noted at INFO, instead of a warning and a token each."""
    stalls = bots_stalled(now=now, limit=limit)
    if stalls and not eager() and moving(within=float(settings.BOT_STALL_SECONDS)):
        log.info("%d bot tables are waiting for their turn; one more token queued", len(stalls))
        first = stalls[0]
        queue_bot_move(
            game_id=first.game_id,
            version=first.version,
            expires=REQUEUE_EXPIRES.total_seconds(),
        )
        return 1
    for stall in stalls:
        log.warning(
            "bot of game %s (seat %s) has not moved at version %s for %.0f s; queued again",
            stall.game_id,
            stall.seat,
            stall.version,
            stall.idle_seconds,
        )
        queue_bot_move(
            game_id=stall.game_id,
            version=stall.version,
            expires=REQUEUE_EXPIRES.total_seconds(),
        )
    return len(stalls)
