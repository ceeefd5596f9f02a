"""Waking the bots: queue the bot task (``games.bots.tasks.bot_move``) by its registered name.

The services (a move, a start, a hand-over) and the sweeps must wake the bot task, and the
task plays through the services (``games.bots.play`` → ``games.moves``): the lower layer
names the higher one's task instead of importing it, so the move path has no import cycle.

With eager tasks (tests, scripts) a bot move that wakes the next bot would recurse through
the whole game: the calls are run one after another instead.
"""

from __future__ import annotations

import threading

from colorado.task_queue import eager, queue_task, registered_task

#: The bot task's registered name (``games.bots.tasks.bot_move``).
BOT_MOVE_TASK = "games.bot_move"

_local = threading.local()


def queue_bot_move(*, game_id: int, version: int, expires: float | None = None) -> None:
    """Queue a bot token for ``game_id`` at ``version`` (``expires``: seconds after which
    a worker drops it unplayed; the sweep queues it again if it is still owed)."""
    if not eager():
        queue_task(BOT_MOVE_TASK, game_id, version, expires=expires)
        return
    pending: list[tuple[int, int]] | None = getattr(_local, "pending", None)
    if pending is not None:
        pending.append((game_id, version))
        return
    _local.pending = pending = [(game_id, version)]
    try:
        task = registered_task(BOT_MOVE_TASK)
        while pending:
            gid, ver = pending.pop(0)
            task.delay(gid, ver)
    finally:
        _local.pending = None
