"""The reliability record (games.records.reliability, REL-…): finished and abandoned games, the
finish rate, timeouts and the median time to move, on the profile and in the API; a table
that asks for a minimum finish rate (docs/accounts.md, "Reliability record")."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import moves
from games.clocks.seats import seat_resign
from games.clocks.sweep import deadlines_sweep
from games.models import Game, Move, Seat
from games.records.reliability import NEWCOMER_GAMES, record_of
from games.tables import lifecycle
from tests.games.fixtures import ApiClient

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _setup(tiny_title: Any, settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.INVITATIONS_PER_INVITEE = 100
    settings.TABLES_PER_HOUR = 100


def _duel(a: User, b: User, *, resigns: User | None = None, late: User | None = None) -> Game:
    """A one-round tiny duel of ``a`` and ``b``: each picks 3, unless ``resigns`` resigns
    first or ``late`` lets the deadline pass (the bot picks for them)."""
    game = lifecycle.game_create(
        creator=a, title="tiny-duel", players=2, options={"rounds": 1}, invite=[b.username]
    )
    lifecycle.game_join(game_id=game.pk, user=b)
    if resigns is not None:
        seat_resign(game_id=game.pk, user=resigns)
    if late is not None:
        User.objects.filter(pk=late.pk).update(vacation_days=0)  # no vacation day to spend
        Seat.objects.filter(game=game, user=late).update(deadline=timezone.now() - timedelta(1))
        deadlines_sweep()
    for user in (a, b):
        game.refresh_from_db()
        seat = Seat.objects.get(game=game, user=user)
        if game.status == Game.Status.RUNNING and seat.seat in game.to_act and not seat.is_out:
            moves.action_submit(
                game_id=game.pk, user=user, action={"type": "pick", "number": 3}, version=None
            )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_the_record_counts_finished_abandoned_and_late(make_user: Callable[..., User]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    assert record_of(alice).finish_rate is None
    _duel(alice, bob)
    _duel(alice, bob, resigns=alice)
    _duel(alice, bob, late=alice)
    record = record_of(alice)
    assert (record.finished, record.abandoned, record.resigned, record.replaced) == (2, 1, 1, 0)
    assert record.finish_rate == pytest.approx(66.7)
    assert record.timeouts == 1
    assert record.current_timeouts == 0
    assert record.median_move_seconds is not None
    assert record_of(bob).finish_rate == 100.0
    # The median: a move a day after the table's previous one counts a day.
    mine = Move.objects.filter(user=alice, actor="player").order_by("id")
    for move in mine:
        earlier = Move.objects.filter(game=move.game, version=move.version - 1).first()
        since = earlier.created_at if earlier else move.game.started_at
        Move.objects.filter(pk=move.pk).update(created_at=since + timedelta(days=1))
    assert record_of(alice).median_move_seconds == 86400.0


def test_the_record_shows_on_the_profile_and_in_the_api(make_user: Callable[..., User]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    _duel(alice, bob)
    _duel(alice, bob, resigns=alice)
    doc = Client().get("/api/users/alice").json()
    assert doc["record"]["finished"] == 1
    assert doc["record"]["abandoned"] == 1
    assert doc["record"]["finish_rate"] == 50.0
    page = Client().get("/users/alice/").content.decode()
    assert "Reliability" in page
    assert "50 % of their games (1 of 2)" in page
    assert "1 resigned, 0 replaced by the bot" in page


def test_a_table_may_ask_for_a_minimum_finish_rate(make_user: Callable[..., User]) -> None:
    alice, bob, carol, newcomer = (make_user(n) for n in ("alice", "bob", "carol", "newbie"))
    for _ in range(NEWCOMER_GAMES - 1):
        _duel(bob, carol)
    _duel(bob, carol, resigns=bob)  # bob: 4 of 5, 80 %
    made = ApiClient(alice).post(
        "/api/games", {"players": 4, "min_finish_rate": 90, "game": "colorado-county"}
    )
    assert made.status_code == 201, made.content
    table = made.json()["id"]
    refused = ApiClient(bob).post(f"/api/games/{table}/join")
    assert refused.status_code == 403
    assert refused.json()["code"] == "record_too_low"
    assert "90 %" in refused.json()["message"]
    assert ApiClient(carol).post(f"/api/games/{table}/join").status_code == 200  # 100 %
    assert ApiClient(newcomer).post(f"/api/games/{table}/join").status_code == 200  # no record yet
    bad = ApiClient(alice).post("/api/games", {"players": 2, "min_finish_rate": 101})
    assert bad.json()["code"] == "bad_min_finish_rate"
    page = Client()
    page.force_login(carol)
    assert (
        "For players who finish at least 90 % of their games"
        in page.get(f"/games/{table}/").content.decode()
    )
