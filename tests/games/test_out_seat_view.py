"""A person who resigned (or was replaced by vote) sees the table as a spectator does
(issue 41, item 10): their old seat's hand, sealed bid and private events stay with the
bot that plays it, so a player who left cannot pass them to a friend still at the table."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.clocks.seats import seat_resign
from games.models import Game, Seat
from games.selectors import documents
from games.tables import lifecycle
from tests.games.fixtures import ApiClient

pytestmark = [pytest.mark.django_db]


def _three_with_a_resigned(make_user: Callable[..., User]) -> tuple[Game, User, User, int]:
    alice, bob, carol = make_user(), make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=3, options={"flags": "random"})
    lifecycle.game_join(game_id=game.pk, user=bob)
    lifecycle.game_join(game_id=game.pk, user=carol)
    seat = seat_resign(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game, alice, bob, int(seat.seat)  # type: ignore[arg-type]


def test_a_resigned_player_sees_what_a_spectator_sees(make_user: Callable[..., User]) -> None:
    game, alice, _bob, seat = _three_with_a_resigned(make_user)
    watcher = make_user()
    mine = ApiClient(alice).get(f"/api/games/{game.pk}").json()
    theirs = ApiClient(watcher).get(f"/api/games/{game.pk}").json()
    assert mine["view"] == theirs["view"]
    assert "hand" not in mine["view"]
    assert mine["legal_actions"] == []
    mine_log = ApiClient(alice).get(f"/api/games/{game.pk}/log").json()
    theirs_log = ApiClient(watcher).get(f"/api/games/{game.pk}/log").json()
    assert mine_log == theirs_log
    # The seat they held is still named, so a page can say "you resigned".
    assert mine["my_seat"] == seat


def test_a_resigned_players_socket_frames_are_the_spectators(
    make_user: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, _alice, bob, seat = _three_with_a_resigned(make_user)
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(
        "games.live.broadcast.group_send", lambda _group, message: sent.append(message)
    )
    # Bob moves (a bid of nothing is always legal at the start); the bot of alice's seat too.
    doc = documents.game_document(game=game, user=bob)
    bob_seat = doc["my_seat"]
    action = doc["legal_actions"][0] if doc["legal_actions"] else None
    if action is None:
        pytest.skip("bob has nothing to do at the start")
    from games.moves import action_submit

    with django_capture_on_commit_callbacks(execute=True):
        action_submit(game_id=game.pk, user=bob, action=action, version=game.version)
    frames = [m for m in sent if m.get("type") == "game.frame"]
    assert frames, sent
    for message in frames:
        out_frame = json.loads(message["frames"][str(seat)])
        watch = json.loads(message["frames"]["watch"])
        assert out_frame["view"] == watch["view"]
        assert out_frame["events"] == watch["events"]
        assert out_frame["legal_actions"] == []
        assert json.loads(message["frames"][str(bob_seat)])["my_seat"] == bob_seat


def test_a_resigned_player_may_not_query_their_old_seat(make_user: Callable[..., User]) -> None:
    game, alice, _bob, _seat = _three_with_a_resigned(make_user)
    client = Client()
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/query/claim_preview/")
    assert response.status_code == 403
    assert response.json()["code"] == "not_a_player"


def test_the_game_page_of_a_resigned_player_shows_no_hand(make_user: Callable[..., User]) -> None:
    game, alice, _bob, _seat = _three_with_a_resigned(make_user)
    client = Client()
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    watcher = Client()
    watcher.force_login(make_user())
    # The page's client data holds the same view as a spectator's.
    mine = response.context["client"]["view"]
    theirs = watcher.get(f"/games/{game.pk}/").context["client"]["view"]
    assert mine == theirs
    assert Seat.objects.get(game=game, user=alice).resigned
