"""Client ids: a seat's own, the server's prefixes reserved, a retry answered as the first
time (docs/api.md, "Moves")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games import moves
from games.errors import BadRequest
from games.models import Game, Move
from games.store.state_cache import engine_for, load_state
from games.tables import lifecycle
from tests.games.fixtures import ApiClient, running_pair

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

Api = Callable[[User | None], ApiClient]


def _move_that_hands_over_to(game: Game, seat: int, other: int) -> dict[str, Any] | None:
    """One of ``seat``'s legal actions after which ``other`` must act, if any."""
    engine = engine_for(game)
    state = load_state(game)
    for action in engine.legal_actions(state, seat):
        new_state, _events = engine.apply(state, seat, action)
        if other in engine.to_act(new_state):
            return dict(action)
    return None


def test_a_player_cannot_block_the_bots_move_with_its_client_id(
    api: Api, make_user: Callable[..., User]
) -> None:
    """The bot's client id is ``bot:<version>:<seat>``: a player who sent it first made the
    bot's move look like a retry, and the table stalled. Reserved prefixes are refused."""
    alice = make_user()
    game = lifecycle.game_create(creator=alice, players=2, bots=["greedy"])
    client = api(alice)
    for _ in range(200):
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING
        doc = client.get(f"/api/games/{game.pk}").json()
        mine, bot = doc["my_seat"], 1 - doc["my_seat"]
        assert bot not in doc["to_act"], "the bot did not move"
        action = _move_that_hands_over_to(game, mine, bot)
        if action is not None:
            break
        first = doc["legal_actions"][0]
        assert client.post(f"/api/games/{game.pk}/actions", {"action": first}).status_code == 200
    else:
        pytest.fail("the bot never came to act after the player")
    made = Move.objects.filter(game=game).count()
    taken = client.post(
        f"/api/games/{game.pk}/actions",
        {"action": action, "version": doc["version"], "client_id": f"bot:{game.version + 1}:{bot}"},
    )
    game.refresh_from_db()
    assert bot not in game.to_act or game.status != Game.Status.RUNNING, "the bot was blocked"
    assert (taken.status_code, taken.json()["code"]) == (400, "bad_client_id")
    assert Move.objects.filter(game=game).count() == made
    for reserved in ("timeout:9:0", "bot:x"):
        refused = client.post(
            f"/api/games/{game.pk}/actions", {"action": action, "client_id": reserved}
        )
        assert (refused.status_code, refused.json()["code"]) == (400, "bad_client_id")
    with pytest.raises(BadRequest):
        moves.action_submit(game_id=game.pk, user=alice, action=action, client_id="bot:1:1")
    assert Move.objects.filter(game=game).count() == made
    # The same move with an id of its own goes through, and the bot answers.
    ok = client.post(f"/api/games/{game.pk}/actions", {"action": action, "client_id": "mine-1"})
    assert ok.status_code == 200
    game.refresh_from_db()
    assert bot not in game.to_act or game.status != Game.Status.RUNNING
    assert Move.objects.filter(game=game).count() > made + 1  # hers, and the bot's


def test_a_client_id_is_one_seats_own(api: Api, make_user: Callable[..., User]) -> None:
    """Two seats may use the same client id: the second seat's move is applied, not taken
    for a retry of the first's."""
    game, (alice, bob) = running_pair(make_user)
    body = {"action": {"type": "bid", "cowboys": []}, "client_id": "same-id"}
    assert api(alice).post(f"/api/games/{game.pk}/actions", body).status_code == 200
    second = api(bob).post(f"/api/games/{game.pk}/actions", body)
    assert second.status_code == 200
    assert second.json()["replayed"] is False
    assert Move.objects.filter(game=game, client_id="same-id").count() == 2


def test_a_retry_answers_as_the_first_time_with_the_version_it_applied_at(
    api: Api, make_user: Callable[..., User]
) -> None:
    game, (alice, bob) = running_pair(make_user)
    hand = api(alice).get(f"/api/games/{game.pk}").json()["view"]["hand"]
    body = {"action": {"type": "bid", "cowboys": hand[:1]}, "version": 1, "client_id": "a-1"}
    first = api(alice).post(f"/api/games/{game.pk}/actions", body)
    assert first.status_code == 200
    assert (first.json()["applied_version"], first.json()["replayed"]) == (2, False)
    api(bob).post(f"/api/games/{game.pk}/actions", {"action": {"type": "bid", "cowboys": []}})
    # The table moved on (Bob's bid revealed both): the retry is not stale, not applied
    # again, and says at which version it was applied; the document is the current one.
    again = api(alice).post(f"/api/games/{game.pk}/actions", body)
    assert again.status_code == 200, again.content[:300]
    answer = again.json()
    assert (answer["applied_version"], answer["replayed"]) == (2, True)
    assert answer["version"] == 3
    assert answer["my_seat"] is not None
    assert Move.objects.filter(game=game).count() == 2
