"""The bot task: bots move by themselves.

``bot_move(game_id, version)`` is queued on commit whenever a bot seat must act. It is
idempotent by version: if the game moved on (or already finished) it does nothing, and its
``client_id`` is derived from the version, so a redelivered task (``acks_late``) cannot play
twice. The move itself is ``games.bots.play.bot_play`` (the bot sees only its own seat's
view, like a person using the API).

Nothing waits on this one task: if it is lost (a killed worker, a Redis restart) the sweep
queues it again (``games.bots.stalled``); if the database is away it retries with backoff
(``colorado.db_retry``).
"""

from __future__ import annotations

import logging

from celery import Task, shared_task

from colorado.db_retry import DB_ERRORS, retry_on_db_error
from games.bots.fair_queue import claim_next, note_move
from games.bots.play import bot_play
from games.bots.players import bot_to_act
from games.bots.wakeup import BOT_MOVE_TASK
from games.models import Game

log = logging.getLogger(__name__)


#: Tries of a bot move while the database is away (about 4 minutes with the backoff); then
#: the sweep takes over.
BOT_MOVE_DB_RETRIES = 10


@shared_task(
    bind=True,
    name=BOT_MOVE_TASK,
    acks_late=True,
    ignore_result=True,
    soft_time_limit=60,
    time_limit=90,
    serializer="json",
)
def bot_move(self: Task, game_id: int, version: int) -> str:
    """A token for bot work (``games.bots.fair_queue``): serve the bot move the site owes most,
    fairly between accounts and tables where a person waits first, whichever game queued
    it. With eager tasks (tests, scripts): play ``game_id`` at ``version`` at once."""
    try:
        if self.app.conf.task_always_eager:
            return _bot_move(game_id, version)
        return serve_next()
    except DB_ERRORS as exc:
        return retry_on_db_error(self, exc, max_retries=BOT_MOVE_DB_RETRIES)


def serve_next() -> str:
    """Claim the bot work owed most (``bot_queue.claim_next``), play it, release it. Then,
    when it moved or other work was waiting, one more token is queued: the move's own
    token (queued when it committed) may have been taken by another worker while this
    one still held the shares, and found nothing it could claim."""
    claim = claim_next()
    if claim is None:
        return "nothing owed"
    try:
        result = _bot_move(claim.due.game_id, claim.due.version)
    finally:
        claim.release()
    if result == "moved":
        note_move()
    if result == "moved" or claim.others_waiting:
        try:
            bot_move.delay(claim.due.game_id, claim.due.version)
        except Exception as exc:  # the broker is away: the sweep queues it again
            log.warning("could not queue the next bot work: %s", exc)
    return result


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
