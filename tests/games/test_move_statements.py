"""The move's statements on PostgreSQL (docs/benchmarks/history.md, "Ninth pass"):

- prepared once per connection and planned once too: PostgreSQL's plan cache would otherwise
  plan a prepared statement again for its parameters (at least the first five executions,
  and then whenever the generic plan's estimate looks dearer), about a twentieth of its CPU
  per move under load;
- the lock reads the game's row once: its columns (the state, a few kB of JSON) are not
  written out, sent and decoded again for every seat.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection

from accounts.models import User
from games.models import Game, Seat
from games.store import row_locks
from games.tables import lifecycle
from tests.play import play_randomly

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def test_a_connections_move_statements_are_planned_once_not_per_move(
    make_user: Callable[..., User],
) -> None:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2, invite=[bob.username])
    game = lifecycle.game_join(game_id=game.pk, user=bob)
    play_randomly(game, [alice, bob], seed=3, limit=12)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements"
            " WHERE from_sql = false"
        )
        prepared = cursor.fetchall()
    lock = [row for row in prepared if "FOR UPDATE" in row[0]]
    assert lock, prepared
    assert max(generic + custom for _text, generic, custom in lock) >= 6, lock
    replanned = [(text[:80], custom) for text, _generic, custom in prepared if custom]
    assert not replanned, f"planned again for their parameters: {replanned}"


def test_the_lock_reads_the_games_state_once_not_once_per_seat(
    make_user: Callable[..., User],
) -> None:
    users = [make_user() for _ in range(4)]
    game = lifecycle.game_create(
        creator=users[0], players=4, invite=[u.username for u in users[1:]]
    )
    for user in users[1:]:
        game = lifecycle.game_join(game_id=game.pk, user=user)
    assert game.state is not None
    sql = row_locks._family_sql(
        Game, "created_by", Seat, "game", "user", "seat", "NULL", "version", "postgresql"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk])
        found = cursor.fetchall()
    assert len(found) == 4  # one row a seat
    state = [field.column for field in Game._meta.concrete_fields].index("state")
    assert [row[state] is not None for row in found] == [True, False, False, False]
    family = row_locks.lock_family(
        Game,
        game.pk,
        related="created_by",
        children=Seat,
        parent="game",
        child_related="user",
        order_by="seat",
        version="version",
    )
    assert family is not None
    locked, seats, _current = family
    assert locked is not None
    assert locked.state == Game.objects.get(pk=game.pk).state
    assert locked.created_by.pk == users[0].pk
    assert [seat.seat for seat, _looked_up in seats] == [0, 1, 2, 3]
