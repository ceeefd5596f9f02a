"""Celery tasks of the games app: bots move by themselves.

``bot_move(game_id, version)`` is queued on commit whenever a bot seat must act. It is
idempotent by version: if the game moved on (or already finished) it does nothing, and its
``client_id`` is derived from the version, so a redelivered task (``acks_late``) cannot play
twice. The move itself is ``games.bot_play.bot_play`` (the bot sees only its own seat's
view, like a person using the API).

Nothing waits on this one task: if it is lost (a killed worker, a Redis restart) the sweep
queues it again (``games.stalls``); if the database is away it retries with backoff
(``colorado.db_retry``).
"""

from __future__ import annotations

import threading

from celery import Task, shared_task

from colorado.db_retry import DB_ERRORS, retry_on_db_error
from games.bot_play import bot_play
from games.bots import bot_to_act
from games.models import Game

_local = threading.local()


def queue_bot_move(*, game_id: int, version: int) -> None:
    """Queue ``bot_move``. With eager tasks (tests, scripts) a bot move that queues the next
    one would recurse through the whole game; the calls are run one after another instead."""
    if not bot_move.app.conf.task_always_eager:
        bot_move.delay(game_id, version)
        return
    pending: list[tuple[int, int]] | None = getattr(_local, "pending", None)
    if pending is not None:
        pending.append((game_id, version))
        return
    _local.pending = pending = [(game_id, version)]
    try:
        while pending:
            gid, ver = pending.pop(0)
            bot_move.delay(gid, ver)
    finally:
        _local.pending = None


#: Tries of a bot move while the database is away (about 4 minutes with the backoff); then
#: the sweep takes over.
BOT_MOVE_DB_RETRIES = 10


@shared_task(
    bind=True,
    name="games.bot_move",
    acks_late=True,
    ignore_result=True,
    soft_time_limit=60,
    time_limit=90,
    serializer="json",
)
def bot_move(self: Task, game_id: int, version: int) -> str:
    """Play one action for the first bot seat that must act at ``version``."""
    try:
        return _bot_move(game_id, version)
    except DB_ERRORS as exc:
        return retry_on_db_error(self, exc, max_retries=BOT_MOVE_DB_RETRIES)


def _bot_move(game_id: int, version: int) -> str:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING or game.version != version:
        return "stale"
    seat = bot_to_act(game)
    if seat is None or seat.seat is None:
        return "no bot to act"
    # A bot account's seat, or a person's seat handed to the bot for good (resigned, or
    # replaced by vote). "timeout" is the single move the bot makes for a late player who
    # keeps the seat (games.clocks.sweep).
    return bot_play(
        game=game,
        seat=int(seat.seat),
        kind=seat.bot_kind,
        actor="bot",
        client_id=f"bot:{version}:{seat.seat}",
    )
