"""CC-1 components and terms, CC-2 setup, CC-3 round structure."""

from __future__ import annotations

import pytest

from titles.colorado_county.engine import board, rank_bids, rules
from titles.colorado_county.engine.data import CARDS, DATA, check_layout
from titles.colorado_county.tests.engine.helpers import G, new, random_move, rng


@pytest.mark.parametrize("n", [2, 3, 4])
def test_cc_1_1_two_to_four_players_seats_and_colours(n: int) -> None:
    view = G.view(new(n), None)
    assert [p["seat"] for p in view["players"]] == list(range(n))
    assert [p["colour"] for p in view["players"]] == ["orange", "red", "black", "brown"][:n]


@pytest.mark.parametrize("n", [0, 1, 5, True, "4"])
def test_cc_1_1_other_player_counts_are_refused(n: object) -> None:
    with pytest.raises(ValueError, match="2, 3 or 4"):
        G.setup(n, 1)  # type: ignore[arg-type]


def test_cc_1_2_board_cells_and_orthogonal_adjacency() -> None:
    assert board.NCELLS == 150
    assert board.CELL_NAMES[0] == "A1"
    assert board.CELL_NAMES[149] == "O10"
    c3 = board.CELL_INDEX["C3"]
    assert sorted(board.CELL_NAMES[i] for i in board.bits(board.NEIGHBOURS[c3])) == [
        "B3",
        "C2",
        "C4",
        "D3",
    ]
    a1 = board.CELL_INDEX["A1"]
    assert len(board.bits(board.NEIGHBOURS[a1])) == 2
    o5 = board.CELL_INDEX["O5"]  # no wrap-around to the next row
    assert "A6" not in [board.CELL_NAMES[i] for i in board.bits(board.NEIGHBOURS[o5])]


def test_cc_1_3_lakes_cover_22_cells_leaving_128_land_cells() -> None:
    s = new(4)
    assert s.layout.water.bit_count() == 22
    assert s.layout.land.bit_count() == 128


def test_cc_1_4_border_cells_are_land_cells_on_the_edge() -> None:
    s = new(4)
    border = s.layout.border
    assert border.bit_count() == 46 - 3  # the value-3 lake covers three edge cells
    assert not border & s.layout.water
    names = G.view(s, None)["board"]["border"]
    assert "A1" in names
    assert "G1" not in names  # under the value-3 lake


def test_cc_1_5_shore_is_orthogonally_adjacent_land() -> None:
    lakes = {lk["id"]: lk for lk in G.view(new(4), None)["board"]["lakes"]}
    assert sorted(lakes["lake-2"]["shore"]) == ["B4", "B5", "C3", "C6", "D4", "D5"]
    assert sorted(lakes["lake-3"]["shore"]) == ["E1", "F2", "G2", "H2", "I1"]


def test_cc_1_6_power_more_cards_then_highest_number() -> None:
    assert rank_bids({0: [1, 2], 1: [66]}) == [0, 1]
    assert rank_bids({0: [1, 50], 1: [2, 49]}) == [0, 1]
    assert rank_bids({0: [], 1: [3]}) == [1, 0]


def test_cc_1_7_markers_are_not_limited() -> None:
    s = new(2)
    s = s.copy()
    s.markers[0] = s.layout.land & ~board.EDGE  # far more than 40 stones
    assert G.view(s, None)["board"]["cells"]["B2"] == {"marker": 0}


def test_cc_1_8_twelve_flag_stones_three_per_colour() -> None:
    for n in (2, 3, 4):
        flags = [f for p in G.view(new(n), None)["players"] for f in p["flags_in_hand"]]
        assert len(flags) == 12
        assert all(flags.count(c) == 3 for c in ("yellow", "red", "green", "blue"))


def test_cc_1_9_land_cards_patterns_and_stable_ids() -> None:
    assert len(CARDS) == 48
    by_id = {c.id: c for c in CARDS}
    assert by_id["red-knight-1"].offset == (2, 1)
    assert by_id["blue-single-2"].offset is None
    for colour in ("yellow", "red", "green", "blue"):
        offsets = sorted(str(c.offset) for c in CARDS if c.colour == colour)
        assert len(offsets) == 12
        assert len(set(offsets)) == 6
        assert all(offsets.count(o) == 2 for o in offsets)


def test_cc_1_10_lake_tiles_sizes_and_values() -> None:
    tiles = sorted((len(t.shape), t.value) for t in DATA.lake_tiles)
    assert tiles == [(2, 2), (3, 3), (4, 4), (4, 4), (4, 4), (5, 5)]


@pytest.mark.parametrize(("n", "cards"), [(2, 5), (3, 5), (4, 4)])
def test_cc_1_11_sale_cards(n: int, cards: int) -> None:
    assert all(p["sale_cards_left"] == cards for p in G.view(new(n), None)["players"])


def test_cc_1_12_doubles_and_areas_are_orthogonal_groups() -> None:
    m = sum(1 << board.CELL_INDEX[c] for c in ["B2", "C2", "E2", "F3", "H2", "H3", "H4"])
    sizes = sorted(g.bit_count() for g in board.components(m))
    assert sizes == [1, 1, 2, 3]  # E2 and F3 touch only diagonally


def test_cc_2_1_first_game_layout_is_the_default() -> None:
    assert new(3).lakes == DATA.first_game_layout
    assert G.view(new(3), None)["options"] == {"lakes": "first-game", "flags": "players"}


def test_cc_2_1_random_layout_comes_from_the_seed() -> None:
    a = new(3, "abc", lakes="random")
    b = new(3, "abc", lakes="random")
    assert a.lakes == b.lakes
    layouts = {new(3, seed, lakes="random").lakes for seed in range(10)}
    assert len(layouts) > 5


@pytest.mark.parametrize("n", [2, 3, 4])
def test_cc_2_2_everyone_draws_15_cowboys(n: int) -> None:
    s = new(n)
    assert [h.bit_count() for h in s.hands] == [15] * n
    assert G.view(s, None)["bag_count"] == 66 - 15 * n


def test_cc_2_3_random_layouts_obey_the_placement_rules() -> None:
    for seed in range(40):
        s = new(2, seed, lakes="random")
        assert check_layout(s.lakes, DATA.lake_tiles) is None
        lake3 = next(cells for lid, cells in s.lakes if lid == "lake-3")
        assert all(board.EDGE >> c & 1 for c in lake3)


def test_cc_2_3_first_game_layout_obeys_the_placement_rules() -> None:
    assert check_layout(DATA.first_game_layout, DATA.lake_tiles) is None


def test_cc_2_4_each_round_stack_has_three_cards_of_each_colour() -> None:
    s = new(4, 7)
    used: list[int] = []
    for _ in range(4):
        assert len(s.stack) == 12
        colours = [CARDS[c].colour for c in s.stack]
        assert all(colours.count(c) == 3 for c in ("yellow", "red", "green", "blue"))
        used += s.stack
        if s.round == 4:
            break
        s = s.copy()
        s.stack = ()
        rules.start_round(s, [])
    assert sorted(used) == list(range(48))
    assert all(len(p) == 0 for p in s.piles)


def test_cc_2_5_scores_start_at_zero() -> None:
    assert G.result(new(4)) == [0, 0, 0, 0]


def test_cc_2_6_start_player_is_drawn_and_then_rotates() -> None:
    starts = {new(4, seed).start_player for seed in range(30)}
    assert starts == {0, 1, 2, 3}
    rnd = rng(3)
    s = new(3, 11)
    first = s.start_player
    seen = {1: first}
    while not G.is_over(s):
        seat, act = random_move(s, rnd)
        s, _ = G.apply(s, seat, act)
        seen.setdefault(s.round, s.start_player)
    assert seen == {r: (first + r - 1) % 3 for r in range(1, 5)}


@pytest.mark.parametrize(("n", "turns"), [(2, 6), (3, 6), (4, 4)])
def test_cc_3_a_round_is_flags_then_turns_until_the_stack_is_used(n: int, turns: int) -> None:
    rnd = rng(n)
    s = new(n, 5)
    reveals: dict[int, int] = {}
    valuations = 0
    while not G.is_over(s):
        seat, act = random_move(s, rnd, sell_chance=0)
        s, events = G.apply(s, seat, act)
        for e in events:
            if e["type"] == "cards_revealed":
                reveals[e["round"]] = reveals.get(e["round"], 0) + 1
            if e["type"] == "valuation":
                valuations += 1
    assert reveals == dict.fromkeys(range(1, 5), turns)
    assert valuations == 4


def test_cc_1_12_component_sizes_match_the_groups() -> None:
    r = rng(12)
    for _ in range(300):
        m = r.getrandbits(150)
        expected = sorted(g.bit_count() for g in board.components(m))
        assert sorted(board.component_sizes(m)) == expected
