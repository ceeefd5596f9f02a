"""CC-8 valuation: the table for all four rounds, majority ties, areas."""

from __future__ import annotations

import pytest

from titles.colorado_county.engine import valuation
from titles.colorado_county.tests.engine.helpers import G, at_bid, bid_all, set_board

BOARD = {
    # seat 0: two border cells forming a double, and a single cell
    "A1": 0,
    "A2": 0,
    "E4": 0,
    # seat 1: an area of three, one border cell
    "J3": 1,
    "J4": 1,
    "J5": 1,
    "O5": 1,
    # seat 2: four border cells in a row (an area of four)
    "C10": 2,
    "D10": 2,
    "E10": 2,
    "F10": 2,
}
LAKES = {"lake-3": 0, "lake-2": 1, "lake-5": 3}
KEYS = ("border", "lakes", "doubles", "area", "total")
EXPECTED = {
    1: {0: (2, 1, 2, 0), 1: (0, 1, 0, 0), 2: (6, 0, 0, 0), 3: (0, 1, 0, 0)},
    2: {0: (3, 2, 3, 0), 1: (0, 2, 0, 0), 2: (9, 0, 0, 4), 3: (0, 2, 0, 0)},
    3: {0: (2, 3, 2, 0), 1: (0, 3, 0, 2), 2: (4, 0, 0, 7), 3: (0, 3, 0, 0)},
    4: {0: (1, 3, 1, 0), 1: (0, 2, 0, 5), 2: (2, 0, 0, 11), 3: (0, 5, 0, 0)},
}


@pytest.mark.parametrize("round_no", [1, 2, 3, 4])
def test_cc_8_valuation_table(round_no: int) -> None:
    got = valuation(BOARD, LAKES, round_no)
    want = {
        seat: dict(zip(KEYS, (*parts, sum(parts)), strict=True))
        for seat, parts in EXPECTED[round_no].items()
    }
    assert got == want


def test_cc_8_1_tie_for_most_all_get_first_and_nobody_second() -> None:
    board = {"A3": 0, "A4": 0, "O3": 1, "O4": 1, "B1": 2}
    got = valuation(board, {}, 2)
    assert [got[s]["border"] for s in (0, 1, 2)] == [9, 9, 0]


def test_cc_8_1_tie_for_second_all_get_second() -> None:
    board = {"A3": 0, "A4": 0, "A6": 0, "O3": 1, "B1": 2, "N10": 3}
    got = valuation(board, {}, 1)
    assert [got[s]["border"] for s in (0, 1, 2, 3)] == [6, 2, 2, 2]


def test_cc_8_1_a_count_of_zero_scores_nothing() -> None:
    got = valuation({"A3": 0, "J5": 1}, {}, 1)
    assert got[0]["border"] == 6
    assert got[1]["border"] == 0  # second place needs at least one border cell


def test_cc_8_1_area_ties() -> None:
    board = {"B2": 0, "B3": 0, "B4": 0, "J2": 1, "J3": 1, "J4": 1, "E6": 2, "E7": 2}
    got = valuation(board, {}, 3)
    assert [got[s]["area"] for s in (0, 1, 2)] == [7, 7, 0]
    assert got[2]["doubles"] == 2


def test_cc_8_2_one_player_cannot_take_both_area_prizes() -> None:
    board = {
        **dict.fromkeys(["B2", "B3", "B4", "B5", "B6"], 0),  # 5
        **dict.fromkeys(["J2", "J3", "J4", "J5"], 0),  # 4, same player
        **dict.fromkeys(["E4", "E5", "E6"], 1),  # 3
    }
    got = valuation(board, {}, 4)
    assert (got[0]["area"], got[1]["area"]) == (11, 5)


def test_cc_8_2_areas_need_three_cells() -> None:
    got = valuation({"B2": 0, "B3": 0}, {}, 4)
    assert got[0]["area"] == 0
    assert got[0]["doubles"] == 1


def test_cc_8_helper_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="round_no"):
        valuation({}, {}, 5)
    with pytest.raises(ValueError, match="land cell"):
        valuation({"C4": 0}, {}, 1)  # under lake-2
    with pytest.raises(ValueError, match="lake id"):
        valuation({}, {"lake-9": 0}, 1)


def test_cc_8_engine_scores_and_keeps_the_breakdown_per_round() -> None:
    s = at_bid(4, hands={0: [50]})
    s = set_board(s, markers={0: ["A1", "A2"], 2: ["C10", "D10", "E10", "F10"]})
    s.stack = ()  # this is the round's last turn
    s, events = bid_all(s, {0: [], 1: [], 2: [], 3: []})
    val = next(e for e in events if e["type"] == "valuation")
    assert val["round"] == 1
    view = G.view(s, None)
    entry = view["valuations"][0]
    assert entry["round"] == 1
    assert entry["seats"][2]["border"] == 6
    assert entry["seats"][0]["doubles"] == 2
    assert entry["seats"][0]["double_count"] == 1
    assert [p["score"] for p in view["players"]] == [4, 0, 6, 0]
    assert view["round"] == 2
