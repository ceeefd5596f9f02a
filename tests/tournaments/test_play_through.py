"""A round robin and a Swiss tournament of four people and two bots play to the end through
the API: rounds start by themselves, and the standings and tie-breaks match a hand
computation from the tables played (docs/tournaments.md)."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.services import token_create
from games.models import Game, Seat
from tests.accounts.factories import make_user
from tournaments.models import Round, Tournament
from tournaments.rounds import tournament_step
from tournaments.tasks import sweep_tournaments

pytestmark = pytest.mark.django_db(transaction=True)

#: Each person always picks this number at tiny-duel; the bots (medium: "high") pick 5.
STRENGTHS = {"ann": 5, "ben": 4, "cat": 3, "dan": 2}


class Api:
    def __init__(self, user: Any) -> None:
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {token_create(user=user)}"}

    def get(self, path: str) -> Any:
        answer = self.client.get(path, headers=self.headers)
        assert answer.status_code == 200, answer.content
        return answer.json()

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(
            path, json.dumps(body or {}), content_type="application/json", headers=self.headers
        )


def _people() -> dict[str, Api]:
    return {name: Api(make_user(name)) for name in STRENGTHS}


def _make(api: Api, **fields: Any) -> int:
    body = {
        "title": "tiny-duel",
        "seats": 2,
        "options": {"rounds": 1},
        "rated": False,
        "bots_allowed": True,
        "min_entrants": 6,
        "max_entrants": 6,
        "starts": "when_full",
        **fields,
    }
    answer = api.post("/api/tournaments", body)
    assert answer.status_code == 201, answer.content
    return int(answer.json()["id"])


def _enter_all(people: dict[str, Api], tid: int, maker: str = "ann") -> None:
    for name, api in people.items():
        assert api.post(f"/api/tournaments/{tid}/join").status_code == 200, name
    for _ in range(2):
        assert (
            people[maker].post(f"/api/tournaments/{tid}/bots", {"level": "medium"}).status_code
            == 200
        )


def _play_out(people: dict[str, Api], tid: int) -> dict[str, Any]:
    """Each person plays their number wherever they are to act, until the tournament ends;
    nothing else moves it on (the rounds start by themselves)."""
    for _ in range(200):
        doc = people["ann"].get(f"/api/tournaments/{tid}")
        if doc["status"] == "finished":
            return doc
        moved = False
        for game_id in doc["rounds"][-1]["games"]:
            for name, api in people.items():
                game = api.get(f"/api/games/{game_id}")
                if game["my_seat"] is not None and game["my_seat"] in game["to_act"]:
                    action = {"type": "pick", "number": STRENGTHS[name]}
                    answer = api.post(f"/api/games/{game_id}/actions", {"action": action})
                    assert answer.status_code == 200, answer.content
                    moved = True
        assert moved, f"nobody could move in round {doc['round']}: {doc}"
    raise AssertionError("the tournament did not end")


def _by_hand(doc: dict[str, Any], seats: int = 2) -> dict[str, dict[str, Fraction]]:
    """Points, Buchholz, Sonneborn-Berger and head to head from the tables played."""
    tables: list[dict[str, int]] = []
    for r in doc["rounds"]:
        for game_id in r["games"]:
            ranks = {
                s.user.username: s.final_rank
                for s in Seat.objects.filter(game_id=game_id).select_related("user")
            }
            tables.append(ranks)
    names = [e["username"] for e in doc["entrants"]]
    points: dict[str, Fraction] = defaultdict(Fraction)
    for ranks in tables:
        (a, ra), (b, rb) = ranks.items()
        points[a] += 1 if ra < rb else Fraction(1, 2) if ra == rb else 0
        points[b] += 1 if rb < ra else Fraction(1, 2) if ra == rb else 0
    for r in doc["rounds"]:
        for name in r["byes"]:
            points[name] += 1
    out: dict[str, dict[str, Fraction]] = {n: {"points": points[n]} for n in names}
    for n in names:
        out[n]["buchholz"] = Fraction(0)
        out[n]["sonneborn_berger"] = Fraction(0)
    for ranks in tables:
        (a, ra), (b, rb) = ranks.items()
        out[a]["buchholz"] += points[b]
        out[b]["buchholz"] += points[a]
        score_a = 1 if ra < rb else Fraction(1, 2) if ra == rb else 0
        out[a]["sonneborn_berger"] += score_a * points[b]
        out[b]["sonneborn_berger"] += (1 - score_a) * points[a]
    return out


def _number(value: Fraction) -> Any:
    return int(value) if value.denominator == 1 else round(float(value), 3)


def test_a_round_robin_of_four_people_and_two_bots_plays_to_the_end() -> None:
    people = _people()
    tid = _make(people["ann"], format="round_robin", name="Winter round robin")
    _enter_all(people, tid)
    doc = _play_out(people, tid)
    assert doc["rounds"][-1]["number"] == doc["rounds"][0]["number"] + 4  # 6 entrants: 5 rounds
    assert all(len(r["games"]) == 3 and not r["byes"] for r in doc["rounds"])
    games = {g for r in doc["rounds"] for g in r["games"]}
    assert Game.objects.filter(pk__in=games, status=Game.Status.FINISHED).count() == 15
    hand = _by_hand(doc)
    # ann (5) draws both bots and beats the others: 4; each bot too (they draw each other);
    # ben 2, cat 1, dan 0. Level on 4: every two of them drew (head to head 1 each) and
    # their Sonneborn-Berger is the same (7), so the seed order (entry order) decides.
    names = [row["username"] for row in doc["standings"]]
    assert names[:1] == ["ann"]
    assert sorted(names[1:3]) == ["bot-high", "bot-high-2"]
    assert names[3:] == ["ben", "cat", "dan"]
    for row in doc["standings"]:
        mine = hand[row["username"]]
        assert row["points"] == _number(mine["points"])
        assert row["tiebreaks"]["sonneborn_berger"] == _number(mine["sonneborn_berger"])
    assert [row["points"] for row in doc["standings"]] == [4, 4, 4, 2, 1, 0]
    assert doc["standings"][0]["tiebreaks"] == {"head_to_head": 1, "sonneborn_berger": 7}
    # Each person had a mail at each round (TR-R-6): their table, and the page.
    from django.core import mail

    rounds = [m for m in mail.outbox if "Winter round robin has started" in m.subject]
    assert len(rounds) == 5 * 4
    assert {m.to[0] for m in rounds} == {f"{n}@example.org" for n in STRENGTHS}
    assert all(f"/tournaments/{tid}/" in m.body and "/games/" in m.body for m in rounds)


def test_a_swiss_of_four_people_and_two_bots_plays_to_the_end() -> None:
    people = _people()
    tid = _make(people["ben"], format="swiss", rounds=3)
    _enter_all(people, tid, maker="ben")
    doc = _play_out(people, tid)
    assert [r["number"] for r in doc["rounds"]] == [1, 2, 3]
    hand = _by_hand(doc)
    # No two entrants met twice.
    met = []
    for r in doc["rounds"]:
        for game_id in r["games"]:
            met.append(
                frozenset(
                    Seat.objects.filter(game_id=game_id).values_list("user__username", flat=True)
                )
            )
    assert len(met) == len(set(met)) == 9
    rows = doc["standings"]
    for row in rows:
        mine = hand[row["username"]]
        assert row["points"] == _number(mine["points"])
        assert row["tiebreaks"]["buchholz"] == _number(mine["buchholz"])
        assert row["tiebreaks"]["sonneborn_berger"] == _number(mine["sonneborn_berger"])
    key = [
        (
            -hand[r["username"]]["points"],
            -hand[r["username"]]["buchholz"],
            -hand[r["username"]]["sonneborn_berger"],
        )
        for r in rows
    ]
    assert key == sorted(key)
    assert rows[-1]["username"] == "dan"


def test_a_lost_task_is_redone_by_the_sweep_and_a_late_round_is_played_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    people = _people()
    tid = _make(
        people["cat"], format="swiss", rounds=2, bots_allowed=False, min_entrants=4, max_entrants=4
    )
    from tournaments import receivers, rounds, services

    for module in (receivers, rounds, services):  # every queued step is lost
        monkeypatch.setattr(module, "step_queue", lambda *args: None)
    for api in people.values():
        assert api.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert Tournament.objects.get(pk=tid).status == "open"
    assert sweep_tournaments()["started"] == 1
    t = Tournament.objects.get(pk=tid)
    assert (t.status, t.current_round) == ("running", 1)
    # Nobody moves; past the round's deadline the stand-in bot plays for the late seats.
    current = Round.objects.get(tournament=t, number=1)
    assert tournament_step(tid) == "playing"
    later = current.deadline + timedelta(minutes=1)
    assert tournament_step(tid, now=later) == "adjudicating"
    ids = Round.objects.get(pk=current.pk).pairings.values_list("game_id", flat=True)
    assert set(Game.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"finished"}
    # The table's end queued a step that was lost too: the sweep starts round 2.
    assert Tournament.objects.get(pk=tid).current_round == 1
    assert sweep_tournaments()["round_started"] == 1
    assert Tournament.objects.get(pk=tid).current_round == 2
    assert timezone.now() < Round.objects.get(tournament=t, number=2).deadline


def test_a_knockout_seeds_the_bracket_gives_byes_and_sends_the_higher_seed_through_a_tie() -> None:
    people = _people()
    tid = _make(people["ann"], format="knockout", min_entrants=5, max_entrants=5)
    for api in people.values():
        assert api.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert (
        people["ann"].post(f"/api/tournaments/{tid}/bots", {"level": "medium"}).status_code == 200
    )
    doc = _play_out(people, tid)
    # Five entrants, a bracket of eight: seeds 1-3 have byes, dan (4) meets the bot (5).
    first = doc["rounds"][0]
    assert sorted(first["byes"]) == ["ann", "ben", "cat"]
    assert len(first["games"]) == 1
    assert [len(r["games"]) for r in doc["rounds"]] == [1, 2, 1]
    # The bot beats dan (5 > 2); ann and the bot tie (5 = 5): ann, the higher seed, goes
    # through (TR-P-7); ben beats cat; ann beats ben in the final.
    rows = doc["standings"]
    assert [r["username"] for r in rows] == ["ann", "ben", "cat", "bot-high", "dan"]
    assert [r["tiebreaks"]["lost_in_round"] for r in rows] == [None, 3, 2, 2, 1]
    assert [r["points"] for r in rows] == [3, 2, 1, 1, 0]


def test_a_player_who_withdraws_loses_their_table_and_is_paired_no_more() -> None:
    people = _people()
    tid = _make(
        people["ann"], format="swiss", rounds=2, bots_allowed=False, min_entrants=4, max_entrants=4
    )
    for api in people.values():
        assert api.post(f"/api/tournaments/{tid}/join").status_code == 200
    doc = people["ann"].get(f"/api/tournaments/{tid}")
    assert doc["status"] == "running"
    left = people["dan"].post(f"/api/tournaments/{tid}/leave")
    assert left.status_code == 200
    assert [e["withdrawn"] for e in left.json()["entrants"] if e["username"] == "dan"] == [True]
    again = people["dan"].post(f"/api/tournaments/{tid}/leave")
    assert again.status_code == 409
    assert again.json()["code"] == "not_running"
    people.pop("dan")
    doc = _play_out(people, tid)
    second = doc["rounds"][1]
    assert len(second["games"]) == 1
    assert len(second["byes"]) == 1
    dan = next(r for r in doc["standings"] if r["username"] == "dan")
    assert dan["withdrawn"] is True
    assert dan["points"] == 0
    assert doc["standings"][-1]["username"] == "dan"


def test_refusals_have_stable_codes() -> None:
    ann = Api(make_user("ann"))
    base = {
        "title": "tiny-duel",
        "format": "swiss",
        "rounds": 2,
        "min_entrants": 2,
        "max_entrants": 4,
    }
    cases = [
        ({"format": "ladder"}, "bad_format"),
        ({"title": "chess"}, "unknown_game"),
        ({"rounds": 0}, "bad_rounds"),
        ({"format": "knockout", "seats": 3}, "bad_players"),
        ({"min_entrants": 1}, "bad_entrants"),
        ({"max_entrants": 65}, "bad_entrants"),
        ({"starts": "tomorrow"}, "bad_starts"),
        ({"starts": "2020-01-01T00:00:00+00:00"}, "bad_starts"),
        ({"options": {"rounds": 7}}, "bad_options"),
    ]
    for change, code in cases:
        answer = ann.post("/api/tournaments", {**base, **change})
        assert answer.status_code == 400, (change, answer.content)
        assert answer.json()["code"] == code, change
    for _ in range(3):
        assert ann.post("/api/tournaments", base).status_code == 201
    fourth = ann.post("/api/tournaments", base)
    assert fourth.status_code == 409
    assert fourth.json()["code"] == "too_many_tournaments"
    unverified = Api(make_user("zed", verified=False)).post("/api/tournaments", base)
    assert unverified.json()["code"] == "email_unverified"
    tid = ann.get("/api/tournaments")[0]["id"]
    no_bots = ann.post(f"/api/tournaments/{tid}/bots", {"level": "easy"})
    assert no_bots.json()["code"] == "no_bots"
    assert Client().get("/api/tournaments/999999").json()["code"] == "unknown_tournament"
    assert ann.post(f"/api/tournaments/{tid}/leave").json()["code"] == "not_entered"
