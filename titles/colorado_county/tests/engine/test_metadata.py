"""Colorado County's title metadata agrees with what its rules actually do."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import get_rules
from titles.colorado_county.engine import RULES
from titles.colorado_county.tests.engine.helpers import G, random_move, rng


def test_the_registry_serves_this_title() -> None:
    assert get_rules("colorado-county") is RULES
    assert RULES.stand_in_bot == "greedy"
    # Its own random bot takes the generic one's name: bids from the whole hand.
    assert set(RULES.bots) == {"greedy", "random"}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seat_colours_are_the_colours_the_view_shows(n: int) -> None:
    assert len(RULES.seat_colours) == RULES.max_players == 4
    for seed in (1, 2):
        players = G.view(G.setup(n, seed), None)["players"]
        assert [p["colour"] for p in players] == list(RULES.seat_colours[:n])
    assert tuple(RULES.seat_colours) == ("orange", "red", "black", "brown")


def test_sealed_steps_are_offered_hidden_and_then_revealed() -> None:
    """Every sealed action type is offered during play, its content stays out of public
    events until its reveal event, and that reveal event occurs."""
    assert RULES.sealed_steps == {
        "bid": "bids_revealed",
        "sale_interest": "sale_interest_revealed",
        "sale_bid": "sale_bids_revealed",
    }
    offered: set[str] = set()
    revealed: set[str] = set()
    for seed in range(4):
        s = G.setup(4, f"sealed-{seed}")
        rnd = rng(seed)
        while not G.is_over(s):
            for seat in range(s.n):
                offered |= {a["type"] for a in G.legal_actions(s, seat)}
            seat, action = random_move(s, rnd, sell_chance=0.1)
            s, events = G.apply(s, seat, action)
            kind = action["type"]
            revealed |= {k for k, e in RULES.sealed_steps.items() if any_of(events, e)}
            if kind in RULES.sealed_steps and not any_of(events, RULES.sealed_steps[kind]):
                assert_hidden(action, events)
    assert offered >= set(RULES.sealed_steps)
    assert revealed == set(RULES.sealed_steps)


def any_of(events: list[dict[str, Any]], event_type: str) -> bool:
    return any(e["type"] == event_type for e in events)


def assert_hidden(action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """No public event of a sealed move that does not reveal carries the move's content."""
    content = {k for k in action if k != "type"}
    for event in events:
        if event["visible_to"] == "all":
            assert not content & set(event), (action, event)
