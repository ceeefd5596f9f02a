"""Nothing waits on a single task: a bot whose task was lost is queued again by the sweep,
and the tasks that lose their database connection retry instead of dying.

Fast and in-process (eager tasks); the drills with real workers, a real Redis restart and
a real PostgreSQL restart are in tests/ops/test_drills.py.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.bots import stalled as stalls
from games.bots.tasks import bot_move
from games.clocks.tasks import sweep_deadlines
from games.models import Game, Move, Seat
from games.tables import lifecycle

pytestmark = pytest.mark.django_db(transaction=True)

BID_FIRST = {"flags": "random"}  # everyone bids first: both seats are to act at once


def _table(make_user: Callable[..., User]) -> tuple[Game, Seat, Seat]:
    """A two-player table where both seats must bid, and Bob's seat is played by the bot
    whose task never ran: the seat was handed over and the queued ``bot_move`` was lost
    (a killed worker, a Redis restart). Bob's seat is set by hand, so no task is queued."""
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2, options=BID_FIRST)
    lifecycle.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert len(game.to_act) == 2
    Seat.objects.filter(game=game, user=bob).update(bot_kind="greedy")
    return game, Seat.objects.get(game=game, user=alice), Seat.objects.get(game=game, user=bob)


def _run(task: Any, *args: object) -> Any:
    """Run ``task`` as the worker would (``apply``: retries included), in this thread. Once a
    real worker ran in this process (tests/games/test_worker.py), Celery refuses a plain
    ``get()``, which it takes for a task waiting on another."""
    return task.apply(args=args).get(disable_sync_subtasks=False)


def _idle(game: Game, seconds: float) -> None:
    """Nothing has happened at the table for ``seconds`` (``update`` skips auto_now)."""
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))


def test_the_sweep_queues_again_a_bot_whose_task_was_lost(make_user, settings):
    settings.BOT_STALL_SECONDS = 30
    game, alice, bob = _table(make_user)
    version = game.version
    _idle(game, 31)
    outcomes = _run(sweep_deadlines)
    assert outcomes["bots_requeued"] == 1
    move = Move.objects.get(game=game)
    assert (move.seat, move.actor, move.version) == (bob.seat, "bot", version + 1)
    game.refresh_from_db()
    assert game.to_act == [alice.seat]  # Alice still bids; the bot has
    # The table is not stalled any more: the next sweep queues nothing.
    assert _run(sweep_deadlines)["bots_requeued"] == 0
    assert Move.objects.filter(game=game).count() == 1


def test_a_bot_inside_the_grace_period_or_a_table_waiting_for_a_person_is_left_alone(
    make_user, settings
):
    settings.BOT_STALL_SECONDS = 30
    game, alice, bob = _table(make_user)
    _idle(game, 20)  # the task may still be on its way
    assert stalls.bots_stalled() == []
    _idle(game, 40)
    with CaptureQueriesContext(connection) as queries:
        (stall,) = stalls.bots_stalled()
    assert len(queries) == 1
    assert (stall.game_id, stall.version, stall.seat) == (game.pk, game.version, bob.seat)
    assert stall.idle_seconds >= 40
    # Only Alice (a person) to act, for days: not the bot's business.
    Game.objects.filter(pk=game.pk).update(to_act=[alice.seat])
    _idle(game, 3 * 86400)
    assert stalls.bots_stalled() == []
    # A finished game is not either.
    Game.objects.filter(pk=game.pk).update(to_act=[bob.seat], status=Game.Status.FINISHED)
    assert stalls.bots_stalled() == []


def _cut_my_connection() -> None:
    """What a PostgreSQL restart does to this process's open connection: the server ends
    it (pg_terminate_backend from another session). The next query fails."""
    import psycopg

    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        (pid,) = cur.fetchone()
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], autocommit=True
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.mark.postgres
def test_a_bot_move_that_loses_its_database_connection_retries_and_moves(make_user):
    game, _alice, bob = _table(make_user)
    version = game.version
    _cut_my_connection()
    assert _run(bot_move, game.pk, version) == "moved"
    assert Move.objects.filter(game=game, seat=bob.seat, actor="bot").count() == 1


@pytest.mark.postgres
def test_the_sweep_that_loses_its_database_connection_retries(make_user, settings):
    settings.BOT_STALL_SECONDS = 30
    game, _alice, bob = _table(make_user)
    _idle(game, 60)
    _cut_my_connection()
    assert _run(sweep_deadlines)["bots_requeued"] == 1
    assert Move.objects.filter(game=game, seat=bob.seat, actor="bot").count() == 1
