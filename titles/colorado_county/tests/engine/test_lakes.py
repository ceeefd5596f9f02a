"""CC-7 lakes (with the CC-7.3 rulings) and CC-9.8 re-evaluation after a sale."""

from __future__ import annotations

from typing import Any

from titles.colorado_county.engine.state import State
from titles.colorado_county.tests.engine.helpers import G, at_bid, bid_all, set_board

LAKE2 = 0  # index of lake-2 in the first-game layout; shore B4 B5 C3 C6 D4 D5


def owner(s: State, lake: str = "lake-2") -> Any:
    return next(lk["owner"] for lk in G.view(s, None)["board"]["lakes"] if lk["id"] == lake)


def claim_c3(markers: dict[int, list[str]], owners: dict[int, int]) -> tuple[State, list[Any]]:
    """Seat 0 claims the red flag on C3 (a shore cell of lake-2) with a single-star card."""
    s = at_bid(4, hands={0: [50]}, face_up=["red-single-1", "blue-single-1", "green-single-1"])
    s = set_board(s, markers=markers, flags={"red": ["C3"]})
    for lake, seat in owners.items():
        s.lake_owners = tuple(seat if i == lake else o for i, o in enumerate(s.lake_owners))
    s, _ = bid_all(s, {0: [50], 1: [], 2: [], 3: []})
    return G.apply(s, 0, {"type": "claim", "card": "red-single-1", "flag": "C3"})


def test_cc_7_1_first_marker_on_the_shore_takes_an_unowned_lake() -> None:
    s, events = claim_c3({}, {})
    assert owner(s) == 0
    change = next(e for e in events if e["type"] == "lake_owner_changed")
    assert change == {
        "type": "lake_owner_changed",
        "visible_to": "all",
        "lake": "lake-2",
        "value": 2,
        "owner": 0,
        "previous": None,
    }


def test_cc_7_2_owner_keeps_the_lake_on_a_tie() -> None:
    s, _ = claim_c3({1: ["B4"]}, {LAKE2: 1})
    assert owner(s) == 1


def test_cc_7_2_strictly_more_shore_cells_take_the_lake() -> None:
    s, events = claim_c3({0: ["D4"], 1: ["B4"]}, {LAKE2: 1})
    assert owner(s) == 0
    change = next(e for e in events if e["type"] == "lake_owner_changed")
    assert (change["owner"], change["previous"]) == (0, 1)


def sale_state(
    markers: dict[int, list[str]], lake_owner: int, hands: dict[int, list[int]]
) -> State:
    s = at_bid(4, hands=hands)
    s = set_board(s, markers=markers)
    s.lake_owners = (lake_owner, -1, -1, -1, -1, -1)
    return s


def test_cc_7_3_tie_after_a_sale_goes_to_the_buyer() -> None:
    s = sale_state({0: ["B4"], 1: ["B5"]}, 0, {0: [1], 1: [2], 2: [3], 3: [4]})
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B4"})
    for seat, yes in ((1, False), (2, True), (3, False)):
        s, _ = G.apply(s, seat, {"type": "sale_interest", "interested": yes})
    s, _ = G.apply(s, 2, {"type": "sale_pay", "cowboy": 3})
    assert owner(s) == 2  # seats 1 and 2 both have one shore cell; 2 bought


def test_cc_7_3_tie_without_the_buyer_goes_clockwise_from_the_seller() -> None:
    s = sale_state({2: ["B4"], 0: ["B5"], 3: ["D5"]}, 2, {0: [1], 1: [2], 2: [3], 3: [4]})
    s, _ = G.apply(s, 2, {"type": "sell", "cell": "B4"})
    for seat in (3, 0, 1):
        s, _ = G.apply(s, seat, {"type": "sale_interest", "interested": False})
    assert owner(s) == 3  # seats 3 and 0 tie; 3 is first clockwise from seller 2


def test_cc_7_3_lake_becomes_unowned_when_its_last_shore_cell_is_sold() -> None:
    s = sale_state({0: ["B4", "J9"]}, 0, {0: [1], 1: [2], 2: [3], 3: [4]})
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B4"})
    for seat in (1, 2, 3):
        s, events = G.apply(s, seat, {"type": "sale_interest", "interested": False})
    assert owner(s) is None
    assert any(e["type"] == "lake_owner_changed" and e["owner"] is None for e in events)


def test_cc_9_8_lakes_are_re_evaluated_after_every_sale() -> None:
    s = sale_state({0: ["B4", "D4"], 1: ["B5", "D5"]}, 0, {0: [1], 1: [2], 2: [3], 3: [4]})
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "D4"})
    for seat, yes in ((1, True), (2, False), (3, False)):
        s, _ = G.apply(s, seat, {"type": "sale_interest", "interested": yes})
    s, _ = G.apply(s, 1, {"type": "sale_pay", "cowboy": 2})
    assert owner(s) == 1  # 3 shore cells against 1
