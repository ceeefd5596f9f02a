"""CC-9 land sale: when it is allowed, the waiting rule, committed cowboys and the three
outcomes; ruling (c): the phase reads ``sale`` and the interrupted phase resumes."""

from __future__ import annotations

from titles.colorado_county.engine.board import CELL_INDEX
from titles.colorado_county.engine.state import State
from titles.colorado_county.tests.engine.helpers import (
    G,
    at_bid,
    bid_all,
    cows,
    illegal,
    new,
    set_board,
)

HANDS = {0: [1, 2], 1: [10, 11], 2: [20, 21], 3: [30, 31]}


def selling(markers: dict[int, list[str]] | None = None) -> State:
    s = at_bid(4, hands=HANDS)
    return set_board(s, markers=markers or {0: ["B2", "J9", "E4"], 1: ["K6"]})


def test_cc_9_1_at_most_two_sales_per_round() -> None:
    s = selling()
    for cell in ("B2", "J9"):
        s, _ = G.apply(s, 0, {"type": "sell", "cell": cell})
        for seat in (1, 2, 3):
            s, _ = G.apply(s, seat, {"type": "sale_interest", "interested": False})
    assert G.view(s, None)["players"][0]["sales_this_round"] == 2
    assert illegal(s, 0, {"type": "sell", "cell": "E4"}).code == "sale_limit_round"
    assert not [a for a in G.legal_actions(s, 0) if a["type"] == "sell"]


def test_cc_9_1_sales_limited_by_sale_cards() -> None:
    s = selling()
    s.sale_cards = (0, 4, 4, 4)
    assert illegal(s, 0, {"type": "sell", "cell": "B2"}).code == "no_sale_cards"
    s.sale_cards = (1, 4, 4, 4)
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    assert G.view(s, None)["players"][0]["sale_cards_left"] == 0


def test_cc_9_2_sale_allowed_during_flag_placement() -> None:
    s = set_board(new(4, 2), markers={0: ["B2"]})
    seller = (s.flag_turn + 1) % 4  # not the seat placing a flag
    s = set_board(s, markers={seller: ["B2"]})
    s, events = G.apply(s, seller, {"type": "sell", "cell": "B2"})
    assert events[0]["type"] == "sale_opened"
    assert G.view(s, None)["phase"] == "sale"
    assert G.view(s, None)["resume_phase"] == "flags"


def test_cc_9_2_no_sale_once_the_stack_is_used_up() -> None:
    s = selling()
    s.stack = ()
    assert illegal(s, 0, {"type": "sell", "cell": "B2"}).code == "sale_after_stack"
    assert G.view(s, None)["sale_possible"] is False


def test_cc_9_2_seller_names_a_cell_with_their_marker() -> None:
    s = selling()
    assert illegal(s, 0, {"type": "sell", "cell": "K6"}).code == "not_your_marker"
    assert illegal(s, 0, {"type": "sell", "cell": "C5"}).code == "cell_under_water"
    assert illegal(s, 0, {"type": "sell", "cell": "P1"}).code == "unknown_cell"
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    view = G.view(s, None)
    # The marker left its seller's land (CC-9.2); the board shows the cell as for sale.
    assert view["board"]["cells"]["B2"] == {"for_sale": 0}
    assert not s.markers[0] >> CELL_INDEX["B2"] & 1
    assert (view["sale"]["cell"], view["sale"]["seller"]) == ("B2", 0)


def test_cc_9_2_only_one_sale_at_a_time() -> None:
    s = selling()
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    assert illegal(s, 1, {"type": "sell", "cell": "K6"}).code == "sale_open"


def test_cc_9_3_the_game_waits_while_a_sale_is_open() -> None:
    """Ruling (c): the view says ``sale``; the bid phase resumes afterwards."""
    s = selling()
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    assert illegal(s, 2, {"type": "bid", "cowboys": [20]}).code == "sale_open"
    assert G.to_act(s) == frozenset({1, 2, 3})
    assert G.view(s, None)["phase"] == "sale"
    for seat in (1, 2, 3):
        s, _ = G.apply(s, seat, {"type": "sale_interest", "interested": False})
    assert G.view(s, None)["phase"] == "bid"
    assert G.to_act(s) == frozenset({0, 1, 2, 3})


def test_cc_9_3_committed_cowboys_cannot_be_used_in_the_sale() -> None:
    s = selling()
    s, _ = G.apply(s, 1, {"type": "bid", "cowboys": [10]})
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    for seat, yes in ((1, True), (2, False), (3, False)):
        s, _ = G.apply(s, seat, {"type": "sale_interest", "interested": yes})
    assert G.view(s, None)["sale"]["stage"] == "pay"
    assert illegal(s, 1, {"type": "sale_pay", "cowboy": 10}).code == "cowboy_committed"
    assert G.legal_actions(s, 1) == [{"type": "sale_pay", "cowboy": 11}]
    s, _ = G.apply(s, 1, {"type": "sale_pay", "cowboy": 11})
    assert G.view(s, 1)["my_bid"] == [10]


def test_cc_9_4_seats_without_uncommitted_cowboys_are_not_asked() -> None:
    s = selling()
    s, _ = G.apply(s, 2, {"type": "bid", "cowboys": [20, 21]})
    s = s.copy()
    s.hands[3] = 0
    s.bag |= cows([30, 31])
    s, events = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    assert events[0]["asked"] == [1]
    assert G.to_act(s) == frozenset({1})
    assert illegal(s, 2, {"type": "sale_interest", "interested": True}).code == "not_in_sale"


def test_cc_9_4_nobody_asked_closes_the_sale_at_once() -> None:
    s = at_bid(2, hands={0: [1], 1: [2]})
    s = set_board(s, markers={0: ["B2"]})
    s, _ = G.apply(s, 1, {"type": "bid", "cowboys": [2]})
    s, events = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    assert [e["type"] for e in events][:2] == ["sale_opened", "sale_closed"]
    assert s.sale is None


def test_cc_9_5_nobody_interested_frees_the_cell_and_seller_draws_two() -> None:
    s = selling()
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    for seat in (1, 2, 3):
        s, events = G.apply(s, seat, {"type": "sale_interest", "interested": False})
    closed = next(e for e in events if e["type"] == "sale_closed")
    assert (closed["outcome"], closed["buyer"]) == ("no_buyer", None)
    assert "B2" not in G.view(s, None)["board"]["cells"]
    assert s.hands[0].bit_count() == 4
    assert G.view(s, None)["players"][0]["sale_cards_left"] == 3


def test_cc_9_6_one_buyer_pays_one_cowboy_of_their_choice() -> None:
    s = selling()
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    for seat, yes in ((1, False), (2, True), (3, False)):
        s, events = G.apply(s, seat, {"type": "sale_interest", "interested": yes})
    assert G.to_act(s) == frozenset({2})
    assert G.view(s, None)["sale"]["buyer"] == 2
    s, events = G.apply(s, 2, {"type": "sale_pay", "cowboy": 21})
    paid = next(e for e in events if e["type"] == "sale_paid")
    assert paid["visible_to"] == [2, 0]
    assert G.view(s, None)["board"]["cells"]["B2"] == {"marker": 2}
    assert s.hands[2] == cows([20])
    assert s.hands[0] & cows([1, 2, 21]) == cows([1, 2, 21])
    assert s.hands[0].bit_count() == 5


def test_cc_9_7_several_buyers_bid_and_the_strongest_pays_all() -> None:
    s = selling()
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    for seat in (1, 2, 3):
        s, _ = G.apply(s, seat, {"type": "sale_interest", "interested": seat != 2})
    view = G.view(s, None)
    assert view["sale"]["stage"] == "bid"
    assert view["sale"]["interested"] == [1, 3]
    assert illegal(s, 1, {"type": "sale_bid", "cowboys": []}).code == "sale_bid_empty"
    assert illegal(s, 2, {"type": "sale_bid", "cowboys": [20]}).code == "not_in_sale"
    s, _ = G.apply(s, 1, {"type": "sale_bid", "cowboys": [10, 11]})
    assert G.view(s, 1)["sale"]["my_sale_bid"] == [10, 11]
    assert "my_sale_bid" not in G.view(s, None)["sale"]
    assert G.view(s, 3)["sale"]["my_sale_bid"] is None
    s, events = G.apply(s, 3, {"type": "sale_bid", "cowboys": [31]})
    revealed = next(e for e in events if e["type"] == "sale_bids_revealed")
    assert revealed["ranking"] == [1, 3]
    assert G.view(s, None)["board"]["cells"]["B2"] == {"marker": 1}
    assert s.hands[1] == 0
    assert s.hands[3] == cows([30, 31])
    assert s.hands[0] & cows([10, 11]) == cows([10, 11])


def test_cc_9_2_sale_allowed_during_the_claims() -> None:
    s = at_bid(4, hands={0: [1], 1: [10, 11], 2: [20], 3: [30]})
    s = set_board(s, markers={3: ["J9"]})
    s, _ = bid_all(s, {0: [1], 1: [10], 2: [], 3: []})
    assert s.phase == "claim"
    claimer = min(G.to_act(s))
    s, _ = G.apply(s, 3, {"type": "sell", "cell": "J9"})
    assert G.to_act(s) == frozenset({1, 2})  # seat 0 has no cowboys left after its bid
    for seat in (1, 2):
        s, _ = G.apply(s, seat, {"type": "sale_interest", "interested": False})
    assert G.view(s, None)["phase"] == "claim"
    assert G.to_act(s) == frozenset({claimer})


def test_cc_9_3_a_seat_that_bid_all_its_cowboys_is_not_asked() -> None:
    s = selling()
    s, _ = G.apply(s, 1, {"type": "bid", "cowboys": [10, 11]})
    s, events = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    assert events[0]["asked"] == [2, 3]


def test_cc_9_5_seller_bid_stays_valid_and_seller_may_replace_it() -> None:
    s = selling()
    s, _ = G.apply(s, 0, {"type": "bid", "cowboys": [1]})
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    for seat in (1, 2, 3):
        s, _ = G.apply(s, seat, {"type": "sale_interest", "interested": False})
    assert G.view(s, 0)["my_bid"] == [1]
    assert len(G.view(s, 0)["hand"]) == 4
    assert G.to_act(s) == frozenset({1, 2, 3})
    s, _ = G.apply(s, 0, {"type": "bid", "cowboys": G.view(s, 0)["hand"]})
    assert len(G.view(s, 0)["my_bid"]) == 4


def test_sale_answers_are_sealed_and_replaceable() -> None:
    """Ruling (d)."""
    s = selling()
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    s, events = G.apply(s, 1, {"type": "sale_interest", "interested": True})
    assert [e["visible_to"] for e in events] == ["all", [1]]
    for seat in (None, 0, 2, 3):
        assert G.view(s, seat)["sale"]["interested"] is None
        assert G.view(s, seat)["sale"]["answered"] == [1]
    assert G.view(s, 1)["sale"]["my_interest"] is True
    s, events = G.apply(s, 1, {"type": "sale_interest", "interested": False})
    assert events[0]["replaced"] is True
    assert G.to_act(s) == frozenset({2, 3})
