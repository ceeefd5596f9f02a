"""A standing challenge ladder (tournaments.ladder, LAD-…): a challenge moves places, a
held place changes nothing, reach and one challenge at a time, and the sweep settles a
challenge whose settling was lost."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from accounts.services import token_create
from games.models import Game
from tests.accounts.factories import make_user
from tournaments.models import LadderChallenge
from tournaments.tasks import sweep_tournaments

pytestmark = pytest.mark.django_db(transaction=True)


class Api:
    def __init__(self, name: str, pick: int) -> None:
        self.user = make_user(name)
        self.pick = pick
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {token_create(user=self.user)}"}

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(
            path, json.dumps(body or {}), content_type="application/json", headers=self.headers
        )

    def play(self, game_id: int) -> None:
        game = self.client.get(f"/api/games/{game_id}", headers=self.headers).json()
        if game["my_seat"] in game["to_act"]:
            action = {"type": "pick", "number": self.pick}
            answer = self.post(f"/api/games/{game_id}/actions", {"action": action})
            assert answer.status_code == 200, answer.content


def _play_out(game_id: int, *players: Api) -> None:
    for _ in range(20):
        if Game.objects.get(pk=game_id).status == "finished":
            return
        for player in players:
            player.play(game_id)
    raise AssertionError("the table did not end")


def _ladder() -> list[str]:
    return [r["username"] for r in Client().get("/api/ladders/tiny-duel").json()["rungs"]]


def _challenge(a: Api, b: Api) -> int:
    answer = a.post("/api/ladders/tiny-duel/challenge", {"username": b.user.username})
    assert answer.status_code == 200, answer.content
    return int(answer.json()["game"])


def test_a_challenge_won_moves_places_and_a_held_place_changes_nothing() -> None:
    ann, ben, cat, dan, eve = (
        Api(n, p) for n, p in (("ann", 4), ("ben", 1), ("cat", 2), ("dan", 5), ("eve", 3))
    )
    for player in (ann, ben, cat, dan):
        assert player.post("/api/ladders/tiny-duel/join").status_code == 200
    assert _ladder() == ["ann", "ben", "cat", "dan"]
    again = ann.post("/api/ladders/tiny-duel/join")
    assert again.json()["code"] == "already_on_ladder"
    # dan (4th) challenges ben (2nd) and wins: dan 2nd, ben 3rd, cat 4th.
    game = _challenge(dan, ben)
    busy = ann.post("/api/ladders/tiny-duel/challenge", {"username": "ben"})
    assert busy.json()["code"] == "out_of_reach"  # ann is above ben
    busy = cat.post("/api/ladders/tiny-duel/challenge", {"username": "ben"})
    assert busy.json()["code"] == "challenge_under_way"
    _play_out(game, dan, ben)
    assert Game.objects.get(pk=game).status == "finished"
    assert _ladder() == ["ann", "dan", "ben", "cat"]
    # cat (4th) challenges ann (1st, three places up) and loses: nothing moves.
    game = _challenge(cat, ann)
    _play_out(game, cat, ann)
    assert _ladder() == ["ann", "dan", "ben", "cat"]
    history = Client().get("/api/ladders/tiny-duel").json()["challenges"]
    assert [(c["challenger"], c["defender"], c["status"]) for c in history] == [
        ("cat", "ann", "held"),
        ("dan", "ben", "won"),
    ]
    # eve joins 5th: ann (1st) is out of her reach.
    eve.post("/api/ladders/tiny-duel/join")
    far = eve.post("/api/ladders/tiny-duel/challenge", {"username": "ann"})
    assert far.status_code == 400
    assert far.json()["code"] == "out_of_reach"
    # Leaving closes the gap.
    assert dan.post("/api/ladders/tiny-duel/leave").status_code == 200
    assert _ladder() == ["ann", "ben", "cat", "eve"]
    page = Client().get("/tournaments/ladder/tiny-duel/").content.decode()
    assert "dan (#4) challenged ben (#2)" in page


def test_the_sweep_settles_a_challenge_whose_settling_was_lost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann, ben = Api("ann", 1), Api("ben", 5)
    for player in (ann, ben):
        player.post("/api/ladders/tiny-duel/join")
    from tournaments import receivers

    monkeypatch.setattr(receivers, "challenge_settle", lambda **kwargs: None)  # lost
    game = _challenge(ben, ann)
    _play_out(game, ben, ann)
    assert _ladder() == ["ann", "ben"]
    assert LadderChallenge.objects.get().status == "playing"
    assert sweep_tournaments()["ladder_challenges_settled"] == 1
    assert _ladder() == ["ben", "ann"]
    assert sweep_tournaments()["ladder_challenges_settled"] == 0
