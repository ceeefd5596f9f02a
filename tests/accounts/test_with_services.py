"""Ratings, profiles and the fairness check on games played to the end through the real game
services (random bots and random people), with bot moves run by the eager Celery task."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import Rating, RatingChange, User
from games.models import Game, Seat
from games.records.fairness import verify_export
from games.records.ratings import ratings_apply
from games.tables import lifecycle
from games.tables.handover import seat_hand_to_bot
from tests.accounts.factories import make_user
from tests.play import play_randomly

# transaction=True: on-commit callbacks (the bot task) run as in production.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Celery runs eagerly here (the root conftest's ``eager_tasks``)."""


RANDOM_FLAGS = {"flags": "random"}


def _play(players: int, *, seed: int, people: int = 1, **create: Any) -> tuple[Game, list[User]]:
    users = [make_user() for _ in range(people)]
    game = lifecycle.game_create(
        creator=users[0],
        players=players,
        bots=["random"] * (players - people),
        options=RANDOM_FLAGS,
        **create,
    )
    for user in users[1:]:
        lifecycle.game_join(game_id=game.pk, user=user)
    game = play_randomly(game, users, seed=seed)
    assert game.status == Game.Status.FINISHED
    return game, users


def _export(client: Client, game: Game) -> dict[str, Any]:
    response = client.get(f"/api/games/{game.pk}/export")
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_a_finished_game_is_rated_once_and_its_export_verifies(
    client: Client, tmp_path: Path, players: int, seed: int
) -> None:
    game, _users = _play(players, seed=seed)
    seated = list(Seat.objects.filter(game=game).values_list("user_id", flat=True))
    changes = RatingChange.objects.filter(game_obj=game)
    assert sorted(changes.values_list("user_id", flat=True)) == sorted(seated)
    assert all(r.games == 1 for r in Rating.objects.filter(user_id__in=seated))
    # Bots (each seat its own bot account) are rated too.
    assert Rating.objects.filter(user__is_bot=True).count() == players - 1
    assert ratings_apply(game=Game.objects.get(pk=game.pk)) == []  # a repeated finish
    assert changes.count() == players

    export = _export(client, game)
    verdict = verify_export(export)
    assert verdict.ok, verdict.summary
    assert verdict.moves_replayed == len(export["moves"]) == game.version - 1

    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    call_command("verify_game", str(path))
    tampered = copy.deepcopy(export)
    tampered["moves"][-1]["seat"] = (tampered["moves"][-1]["seat"] + 1) % players
    path.write_text(json.dumps(tampered))
    with pytest.raises(CommandError):
        call_command("verify_game", str(path))


def test_verify_page_for_a_finished_game(client: Client) -> None:
    game, _users = _play(2, seed=21)
    page = client.get(f"/games/{game.pk}/verify/").content.decode()
    assert "Fair:" in page
    assert game.seed_hash in page
    data = client.get(f"/games/{game.pk}/verify/?format=json").json()
    assert data["ok"] is True
    assert [c["name"] for c in data["checks"]] == ["seed", "moves", "result", "sealed"]
    assert data["scores"] == game.result["scores"]


def test_verify_page_keeps_a_running_game_secret(client: Client) -> None:
    alice = make_user()
    game = lifecycle.game_create(creator=alice, players=2, bots=["random"], options=RANDOM_FLAGS)
    response = client.get(f"/games/{game.pk}/verify/")
    assert response.status_code == 409
    assert game.seed not in response.content.decode()
    response = client.get(f"/games/{game.pk}/verify/?format=json")
    assert response.status_code == 409
    assert response.json()["code"] == "not_finished"
    assert client.get("/games/999999/verify/").status_code == 404


def test_resigned_player_is_ranked_last_and_the_bot_earns_nothing() -> None:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2, options=RANDOM_FLAGS)
    lifecycle.game_join(game_id=game.pk, user=bob)
    bob_seat = Seat.objects.get(game=game, user=bob).seat
    seat_hand_to_bot(game_id=game.pk, seat=bob_seat, reason="resign")
    game = play_randomly(game, [alice], seed=31)
    assert game.status == Game.Status.FINISHED
    ranks = dict(RatingChange.objects.filter(game_obj=game).values_list("user_id", "rank"))
    assert ranks == {alice.pk: 1, bob.pk: 2}
    assert not Rating.objects.filter(user__is_bot=True).exists()
    assert Rating.objects.get(user=bob).mu < Rating.objects.get(user=alice).mu


def test_unrated_and_aborted_tables_leave_ratings_alone() -> None:
    _play(2, seed=41, rated=False)
    alice = make_user()
    open_table = lifecycle.game_create(creator=alice, players=3, options=RANDOM_FLAGS)
    lifecycle.game_abort(game_id=open_table.pk)
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_profile_and_history_of_a_real_game(client: Client) -> None:
    game, (alice,) = _play(3, seed=51)
    data = client.get(f"/api/users/{alice.username}").json()
    assert data["ratings"]["colorado-county"]["games"] == 1
    stats = data["stats"]["colorado-county"]
    mine = Seat.objects.get(game=game, user=alice)
    assert stats["best_score"] == mine.final_score
    assert stats["wins"] == (1 if mine.final_rank == 1 else 0)
    history = client.get(f"/api/users/{alice.username}/games?status=finished").json()["games"]
    assert [(g["id"], g["score"], g["rank"]) for g in history] == [
        (game.pk, mine.final_score, mine.final_rank)
    ]
    page = client.get(f"/users/{alice.username}/").content.decode()
    assert f'href="/games/{game.pk}/"' in page
    assert "bot-random" in page


def test_finished_game_page_offers_the_fairness_check_and_shows_rating_changes(
    client: Client,
) -> None:
    game, (alice,) = _play(2, seed=61)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/verify/"' in page
    # The move log downloads as a file (issue 15), the API's export behind it.
    assert f'href="/games/{game.pk}/download/" download' in page
    assert "Rating changes" in page
    assert f'href="/users/{alice.username}/"' in page
