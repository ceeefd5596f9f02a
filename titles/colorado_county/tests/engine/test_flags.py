"""CC-4 flag placement."""

from __future__ import annotations

import pytest

from titles.colorado_county.engine import board
from titles.colorado_county.tests.engine.helpers import (
    G,
    finish_flags,
    illegal,
    mask,
    new,
    random_move,
    rng,
    set_board,
)


def flags_in_hand(n: int, seed: int) -> list[list[str]]:
    return [p["flags_in_hand"] for p in G.view(new(n, seed), None)["players"]]


@pytest.mark.parametrize("seed", range(10))
def test_cc_4_1_three_players_get_one_of_each_colour(seed: int) -> None:
    for hand in flags_in_hand(3, seed):
        assert sorted(hand) == ["blue", "green", "red", "yellow"]


@pytest.mark.parametrize("seed", range(10))
def test_cc_4_1_four_players_get_three_different_colours(seed: int) -> None:
    hands = flags_in_hand(4, seed)
    for hand in hands:
        assert len(hand) == 3
        assert len(set(hand)) == 3


@pytest.mark.parametrize("seed", range(10))
def test_cc_4_1_two_players_get_all_colours_and_never_three_of_one(seed: int) -> None:
    for hand in flags_in_hand(2, seed):
        assert len(hand) == 6
        assert set(hand) == {"blue", "green", "red", "yellow"}
        assert max(hand.count(c) for c in hand) == 2


def test_cc_4_2_start_player_places_first_then_clockwise() -> None:
    """Ruling (b): the round's start player is the first to place a flag."""
    s = new(4, 3)
    order = []
    while s.phase == "flags":
        (seat,) = G.to_act(s)
        order.append(seat)
        act = G.legal_actions(s, seat)[0]
        s, _ = G.apply(s, seat, act)
    start = new(4, 3).start_player
    assert order == [(start + i) % 4 for i in range(12)]


def test_cc_4_2_flag_needs_a_free_land_cell_not_next_to_a_flag() -> None:
    s = new(4, 3)
    seat = s.flag_turn
    colour = G.view(s, None)["players"][seat]["flags_in_hand"][0]
    s1, events = G.apply(s, seat, {"type": "place_flag", "colour": colour, "cell": "B2"})
    assert G.view(s1, None)["board"]["cells"]["B2"] == {"flag": colour}
    assert events[0]["type"] == "flag_placed"
    nxt = s1.flag_turn
    c2 = G.view(s1, None)["players"][nxt]["flags_in_hand"][0]
    assert illegal(s1, nxt, {"type": "place_flag", "colour": c2, "cell": "B3"}).code == (
        "flag_adjacent"
    )
    assert illegal(s1, nxt, {"type": "place_flag", "colour": c2, "cell": "B2"}).code == (
        "cell_not_free"
    )
    assert illegal(s1, nxt, {"type": "place_flag", "colour": c2, "cell": "C4"}).code == (
        "cell_under_water"
    )
    assert illegal(s1, nxt, {"type": "place_flag", "colour": c2, "cell": "Z9"}).code == (
        "unknown_cell"
    )
    diagonal = G.apply(s1, nxt, {"type": "place_flag", "colour": c2, "cell": "C3"})[0]
    assert G.view(diagonal, None)["board"]["cells"]["C3"] == {"flag": c2}
    marked = set_board(s1, markers={0: ["J5"]})
    assert illegal(marked, nxt, {"type": "place_flag", "colour": c2, "cell": "J5"}).code == (
        "cell_not_free"
    )


def test_cc_4_2_colour_must_be_held_and_turn_respected() -> None:
    s = new(4, 3)
    seat = s.flag_turn
    held = G.view(s, None)["players"][seat]["flags_in_hand"]
    missing = next(c for c in ("yellow", "red", "green", "blue") if c not in held)
    assert illegal(s, seat, {"type": "place_flag", "colour": missing, "cell": "B2"}).code == (
        "colour_not_held"
    )
    other = (seat + 1) % 4
    assert illegal(s, other, {"type": "place_flag", "colour": held[0], "cell": "B2"}).code == (
        "not_your_turn"
    )


def test_cc_4_3_adjacency_dropped_when_no_other_cell_is_free() -> None:
    s = new(2, 1)
    land = s.layout.land
    # Everything is taken except A1 and its neighbour B1; a flag sits on B2 next to both.
    s = set_board(s, flags={"red": ["B2"]})
    s.markers[0] = land & ~mask(["A1", "B1", "B2"])
    seat = s.flag_turn
    colour = G.view(s, None)["players"][seat]["flags_in_hand"][0]
    s1, _ = G.apply(s, seat, {"type": "place_flag", "colour": colour, "cell": "A1"})
    assert G.view(s1, None)["board"]["cells"]["A1"] == {"flag": colour}


def test_cc_4_3_stone_set_aside_when_no_free_land_cell_exists() -> None:
    s = new(2, 1)
    s = set_board(s)
    s.markers[0] = s.layout.land & ~mask(["A1"])
    seat = s.flag_turn
    colour = G.view(s, None)["players"][seat]["flags_in_hand"][0]
    s1, events = G.apply(s, seat, {"type": "place_flag", "colour": colour, "cell": "A1"})
    assert sum(e["type"] == "flag_set_aside" for e in events) == 11
    assert s1.phase == "bid"
    assert all(not p["flags_in_hand"] for p in G.view(s1, None)["players"])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_cc_4_4_random_flags_are_placed_without_player_choice(n: int) -> None:
    s, events = G.setup_events(n, 9, {"flags": "random"})
    assert s.phase == "bid"
    placed = [e for e in events if e["type"] == "flag_placed"]
    assert len(placed) == 12
    assert all(e["random"] for e in placed)
    flags = 0
    for m in s.flags:
        flags |= m
    assert flags.bit_count() == 12
    for c in board.bits(flags):
        assert not board.NEIGHBOURS[c] & flags
    assert G.setup(n, 9, {"flags": "random"}).flags == s.flags


def test_cc_4_5_flags_left_at_round_end_are_removed() -> None:
    rnd = rng(2)
    s = finish_flags(new(3, 4))
    while s.round == 1:
        seat, act = random_move(s, rnd, sell_chance=0)
        s, _ = G.apply(s, seat, act)
    assert not any(s.flags)
    assert s.phase == "flags"
    assert sum(len(p["flags_in_hand"]) for p in G.view(s, None)["players"]) == 12
