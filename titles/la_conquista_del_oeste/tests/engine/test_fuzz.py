"""Random playouts and Hypothesis properties: ``apply`` never changes its input, money
never goes negative (LC-9), cards are conserved, views never show another seat's
Opportunity cards (LC-25), dump/load is the identity, replay from the seed is identical,
and every game ends within a step cap for 2-6 players (LC-27)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import bots
from games.engine.replay import replay
from titles.la_conquista_del_oeste.engine import RULES as G
from titles.la_conquista_del_oeste.engine.data import DATA
from titles.la_conquista_del_oeste.engine.state import State
from titles.la_conquista_del_oeste.tests.engine.helpers import STEP_CAP, play_game

OPP = sorted(DATA.opportunity)
INC = sorted(DATA.incident)


def check_invariants(s: State) -> None:
    assert sorted(s.opp_deck + [c for p in s.players for c in p.hand]) == OPP
    assert sorted(s.inc_deck) == INC
    for seat, p in enumerate(s.players):
        assert p.money >= 0
        assert all(v >= 0 for v in p.outfit.values())
        assert p.reward % DATA.poster_value == 0
        assert p.skip >= 0
        if not (s.phase == "discard" and seat == s.seat):
            assert len(p.hand) <= DATA.hand_limit
        if p.family:
            assert p.family in DATA.cities
        if p.jail == "roy_bean":
            assert p.pos == DATA.roy_bean_city
        if p.jail == "indian":
            assert p.pos == DATA.indian_prison_city
        if p.jail == "prison":
            assert DATA.cities[p.pos].prison


def check_views(s: State) -> None:
    for seat in (None, *range(s.n)):
        text = json.dumps(G.view(s, seat))
        offered = {c for o in s.offers if o["to"] == seat for c in o["give"]["cards"]}
        for other, p in enumerate(s.players):
            if other == seat:
                continue
            for card in p.hand:
                # Only the receiver of an offer sees the cards it offers (LC-24).
                assert card not in text or card in offered
        assert "rng" not in text
        assert all(c not in text for c in s.opp_deck)
        assert all(c not in text for c in s.inc_deck)


def step_check(before: State, after: State) -> None:
    frozen = json.dumps(G.dump(before), sort_keys=True)
    check_invariants(after)
    assert json.dumps(G.dump(before), sort_keys=True) == frozen  # apply never mutates
    assert G.dump(G.load(G.dump(after))) == G.dump(after)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_playouts_end_and_keep_every_invariant(n: int) -> None:
    for game in range(15):
        s, moves = play_game(n, f"fuzz-{n}-{game}", "random", check=step_check)
        assert G.is_over(s)
        assert len(moves) < STEP_CAP
        scores = G.result(s)
        assert len(scores) == n
        if s.winner >= 0:
            assert scores[s.winner] == max(scores)
            assert scores.count(max(scores)) == 1


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_greedy_games_are_won_on_an_arrival_point(n: int) -> None:
    wins = 0
    for game in range(8):
        s, _ = play_game(n, f"greedy-{n}-{game}", "greedy", check=step_check)
        assert G.is_over(s)
        wins += s.winner >= 0
        if s.winner >= 0:
            assert DATA.cities[s.players[s.winner].pos].arrival
    assert wins >= 6


def _random_game(n: int, seed: int, pick: random.Random) -> tuple[State, list[tuple[int, Any]]]:
    s = G.setup(n, seed)
    moves: list[tuple[int, Any]] = []
    while not G.is_over(s):
        seat = pick.choice(sorted(G.to_act(s)))
        action = pick.choice(G.legal_actions(s, seat))
        s, _ = G.apply(s, seat, action)
        moves.append((seat, action))
        assert len(moves) < STEP_CAP
    return s, moves


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_hypothesis_playouts_views_and_persistence(n: int, seed: int, choices: int) -> None:
    s = G.setup(n, seed)
    pick = random.Random(choices)  # noqa: S311
    steps = 0
    while not G.is_over(s):
        seat = pick.choice(sorted(G.to_act(s)))
        legal = G.legal_actions(s, seat)
        assert legal
        if pick.random() < 0.2:  # now and then a seat answers an offer on its own time
            answering = [x for x in range(n) if x != seat and G.legal_actions(s, x)]
            if answering:
                seat = pick.choice(answering)
                legal = G.legal_actions(s, seat)
        t, events = G.apply(s, seat, pick.choice(legal))
        step_check(s, t)
        for e in events:  # private events only reach their seat (an offer: both parties)
            if e["type"] == "offer_detail":
                assert e["visible_to"] == [e["from"], e["to"]]
            elif e["visible_to"] != "all":
                assert e["visible_to"] == [e["seat"]]
        if steps % 5 == 0:
            check_views(t)
        if steps % 25 == 0:  # every listed action is accepted
            for other in range(n):
                for action in G.legal_actions(s, other):
                    G.apply(s, other, action)
        s = t
        steps += 1
        assert steps < STEP_CAP


@pytest.mark.usefixtures("lcdo")
@pytest.mark.parametrize("n", [2, 6])
def test_replay_from_the_seed_is_identical(n: int) -> None:
    s, moves = _random_game(n, 77 + n, random.Random(n))  # noqa: S311
    again = replay(G.slug, seed=77 + n, num_players=n, options=None, moves=moves)
    assert G.dump(again.state) == G.dump(s)
    twice = replay(G.slug, seed=77 + n, num_players=n, options=None, moves=moves)
    assert twice.events == again.events


@pytest.mark.usefixtures("lcdo")
def test_bots_through_the_registry() -> None:
    assert bots.bot_names(G.slug) == ["greedy", "random", "search"]
    greedy = bots.get_bot(G.slug, "greedy")
    s = G.setup(6, "bots")
    rng = random.Random(1)  # noqa: S311
    for _ in range(200):
        if G.is_over(s):
            break
        seat = rng.choice(sorted(G.to_act(s)))
        legal = G.legal_actions(s, seat)
        action = greedy.choose(G, G.view(s, seat), legal, rng)
        assert action in legal
        s, _ = G.apply(s, seat, action)


def test_seeds_give_the_same_game() -> None:
    assert G.dump(G.setup(4, 7)) == G.dump(G.setup(4, "7"))
    assert G.dump(G.setup(4, 7)) != G.dump(G.setup(4, 8))
