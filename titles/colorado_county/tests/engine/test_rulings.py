"""The engine's rulings where the rules page is silent
(``titles/colorado_county/docs/rulings.md``)."""

from __future__ import annotations

from titles.colorado_county.engine import rules
from titles.colorado_county.tests.engine.helpers import G, at_bid, bid_all, cows, new, set_board


def test_ruling_a_seat_without_cowboys_bids_nothing_automatically() -> None:
    s = at_bid(3, hands={0: [1], 1: [2]})
    s = s.copy()
    s.bag |= s.hands[2]
    s.hands[2] = 0
    s.bids = [None, None, None]
    events: list[dict[str, object]] = []
    rules.check_bids(s, events)
    assert s.bids[2] == 0
    assert events[0] == {
        "type": "bid_submitted",
        "visible_to": "all",
        "seat": 2,
        "replaced": False,
        "auto": True,
    }
    assert G.to_act(s) == frozenset({0, 1})
    assert not [a for a in G.legal_actions(s, 2) if a["type"] == "bid"]
    s, _ = bid_all(s, {0: [1], 1: [2]})
    assert s.phase == "claim"


def test_ruling_a_applies_when_a_purchase_empties_a_hand() -> None:
    s = at_bid(4, hands={0: [1], 1: [10], 2: [20], 3: [30]})
    s = set_board(s, markers={0: ["B2"]})
    s, _ = bid_all(s, {2: [20], 3: []})
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    s, _ = G.apply(s, 1, {"type": "sale_interest", "interested": True})
    s, _ = G.apply(s, 3, {"type": "sale_interest", "interested": False})
    s, events = G.apply(s, 1, {"type": "sale_pay", "cowboy": 10})
    assert s.hands[1] == 0
    auto = [e for e in events if e["type"] == "bid_submitted"]
    assert [(e["seat"], e["auto"]) for e in auto] == [(1, True)]
    assert G.to_act(s) == frozenset({0})


def test_ruling_b_start_player_places_the_first_flag() -> None:
    for seed in range(8):
        s = new(3, seed)
        assert G.to_act(s) == frozenset({s.start_player})
        assert G.view(s, None)["flag_turn"] == s.start_player


def test_ruling_c_sale_phase_and_resume() -> None:
    s = at_bid(2, hands={0: [1], 1: [2]})
    s = set_board(s, markers={0: ["B2"]})
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    view = G.view(s, None)
    assert (view["phase"], view["resume_phase"]) == ("sale", "bid")
    assert view["sale"]["stage"] == "interest"
    s, _ = G.apply(s, 1, {"type": "sale_interest", "interested": False})
    view = G.view(s, None)
    assert (view["phase"], view["resume_phase"], view["sale"]) == ("bid", None, None)
    assert s.hands[0] & cows([1]) == cows([1])
