"""The move path's own conversions (``games.store.pgvalues``, through ``games.store.rows``) give the
values Django's would: JSON that ``orjson`` encodes and decodes, JSON it refuses and hands
back to the standard library, and times read by psycopg's loader instead of Django's."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.db import transaction
from django.db.models import Model

from accounts.models import User
from games.models import Game, Seat
from games.store import rows
from games.store.backends import store
from games.tables import lifecycle

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _game(make_user: Callable[..., User]) -> Game:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2, invite=[bob.username])
    return lifecycle.game_join(game_id=game.pk, user=bob)


@pytest.mark.parametrize(
    "state",
    [
        {"hands": [[3, 9], [1]], "seed": "ab" * 16, "note": "é ✓ \u2028", "x": 1.5, "none": None},
        {"beyond 64 bits": 2**70, "nested": [{"n": -(2**65)}]},  # orjson refuses these
    ],
)
def test_a_state_written_and_locked_on_the_move_path_is_the_state_django_reads(
    make_user: Callable[..., User], state: dict[str, object]
) -> None:
    game = _game(make_user)
    when = datetime.datetime(2026, 12, 5, 6, 7, 8, 901234, tzinfo=datetime.UTC)
    with transaction.atomic():
        with store().collecting():
            game.state, game.updated_at = state, when
            rows.update(game, ["state", "updated_at"])
        locked, _seats, _applied = store().lock_move_rows(game.pk, None, user=None, seat=None)
    assert locked.state == state
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.state == state
    assert fresh.updated_at == locked.updated_at == when
    assert locked.updated_at.tzinfo is fresh.updated_at.tzinfo is datetime.UTC
    assert _columns(locked) == _columns(fresh)
    assert _columns(locked.created_by) == _columns(fresh.created_by)


def test_the_seats_and_users_locked_with_a_game_carry_djangos_times(
    make_user: Callable[..., User],
) -> None:
    game = _game(make_user)
    with transaction.atomic():
        _game_row, seats, _applied = store().lock_move_rows(game.pk, None, user=None, seat=None)
    assert seats
    for seat in seats:
        user = User.objects.get(pk=seat.user_id)
        assert seat.user.date_joined == user.date_joined
        assert seat.user.date_joined.tzinfo is datetime.UTC
        assert _columns(seat) == _columns(Seat.objects.get(pk=seat.pk))
        assert _columns(seat.user) == _columns(user)


def _columns(row: Model) -> dict[str, tuple[type, object, object]]:
    """Every column of ``row`` as the instance holds it: its value and its type (a
    converter that gives an equal value of another type, a ``str`` for a ``UUID``, a naive
    time, still differs)."""
    values = {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields}
    return {
        name: (type(value), value, getattr(value, "tzinfo", None)) for name, value in values.items()
    }


def test_rows_locked_on_the_move_path_are_instances_django_would_have_made(
    make_user: Callable[..., User],
) -> None:
    """``row_locks`` builds its instances without ``Model.__init__``: they are saved as
    existing rows, compare equal to Django's, and a ``post_init`` receiver, once there is
    one, sees every instance again (then they go through ``from_db``)."""
    from django.db.models.signals import post_init

    game = _game(make_user)
    with transaction.atomic():
        locked, seats, _applied = store().lock_move_rows(game.pk, None, user=None, seat=None)
    assert seats is not None
    assert (locked._state.adding, locked._state.db) == (False, "default")
    assert locked == Game.objects.get(pk=game.pk)
    assert seats[0].user == User.objects.get(pk=seats[0].user_id)
    seats[1].user.display_name = "Renamed"
    seats[1].user.save(update_fields=["display_name"])  # an UPDATE: the row exists
    assert User.objects.get(pk=seats[1].user_id).display_name == "Renamed"
    seen: list[Model] = []

    def receiver(sender: type[Model], instance: Model, **kwargs: object) -> None:
        seen.append(instance)

    post_init.connect(receiver, sender=Seat)
    try:
        with transaction.atomic():
            _game_row, seats, _applied = store().lock_move_rows(game.pk, None, user=None, seat=None)
    finally:
        post_init.disconnect(receiver, sender=Seat)
    assert seats is not None
    assert [s.pk for s in seen] == [s.pk for s in seats]
