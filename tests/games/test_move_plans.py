"""The move's statements are prepared once per connection and planned once too: PostgreSQL's
plan cache would otherwise plan a prepared statement again for its parameters (at least the
first five executions, and then whenever the generic plan's estimate looks dearer), which
cost about a twentieth of PostgreSQL's CPU per move under load (docs/benchmarks.md, "Ninth
pass")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection

from accounts.models import User
from games import services
from tests.play import play_randomly

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def test_a_connections_move_statements_are_planned_once_not_per_move(
    make_user: Callable[..., User],
) -> None:
    alice, bob = make_user(), make_user()
    game = services.game_create(creator=alice, players=2, invite=[bob.username])
    game = services.game_join(game_id=game.pk, user=bob)
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
