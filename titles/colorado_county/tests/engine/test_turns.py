"""CC-5 turns (reveal, sealed bids, ranking, claims, draws) and CC-6 occupying spaces."""

from __future__ import annotations

import json

import pytest

from titles.colorado_county.engine import rank_bids
from titles.colorado_county.engine.state import State
from titles.colorado_county.tests.engine.helpers import G, at_bid, bid_all, cows, illegal, set_board

NELLY, JOE, DAISY, BILL = 0, 1, 2, 3
EXAMPLE = {NELLY: [16, 21, 43], JOE: [2, 7, 29, 32], DAISY: [4, 5, 55], BILL: [62, 63]}


@pytest.mark.parametrize(("n", "k"), [(2, 2), (3, 2), (4, 3)])
def test_cc_5_1_reveal_two_or_three_cards(n: int, k: int) -> None:
    s = at_bid(n)
    view = G.view(s, None)
    assert len(view["face_up"]) == k
    assert view["stack_left"] == 12 - k
    assert view["phase"] == "bid"
    assert set(view["face_up"][0]) == {"id", "colour", "offset"}


def test_cc_5_2_bids_are_sealed_until_all_are_in() -> None:
    s = at_bid(4, hands=EXAMPLE)
    s, events = G.apply(s, JOE, {"type": "bid", "cowboys": [2, 7, 29, 32]})
    public = [e for e in events if e["visible_to"] == "all"]
    assert public == [
        {
            "type": "bid_submitted",
            "visible_to": "all",
            "seat": JOE,
            "replaced": False,
            "auto": False,
        }
    ]
    private = [e for e in events if e["visible_to"] != "all"]
    assert private[0]["visible_to"] == [JOE]
    assert private[0]["cowboys"] == [2, 7, 29, 32]
    assert G.view(s, JOE)["my_bid"] == [2, 7, 29, 32]
    for seat in (None, NELLY, DAISY, BILL):
        view = G.view(s, seat)
        assert view["players"][JOE]["has_bid"] is True
        assert view["players"][NELLY]["has_bid"] is False
        assert view.get("my_bid") is None
        assert "29" not in json.dumps(view["players"])
        assert view["last_bids"] is None
    assert G.to_act(s) == frozenset({NELLY, DAISY, BILL})


def test_cc_5_2_a_bid_may_be_replaced_until_the_last_is_in() -> None:
    s = at_bid(4, hands=EXAMPLE)
    s, _ = G.apply(s, JOE, {"type": "bid", "cowboys": [2]})
    assert any(a["type"] == "bid" for a in G.legal_actions(s, JOE))
    s, events = G.apply(s, JOE, {"type": "bid", "cowboys": [2, 7, 29, 32]})
    assert events[0]["replaced"] is True
    s, events = bid_all(s, {NELLY: EXAMPLE[NELLY], DAISY: EXAMPLE[DAISY], BILL: EXAMPLE[BILL]})
    revealed = next(e for e in events if e["type"] == "bids_revealed")
    assert revealed["bids"][0] == {
        "seat": JOE,
        "cowboys": [2, 7, 29, 32],
        "rank": 1,
        "claims": True,
        "draws": 0,
    }


def test_cc_5_3_revealed_bids_are_public_and_go_back_to_the_bag() -> None:
    s = at_bid(4, hands={p: [*c, 60 - p] for p, c in EXAMPLE.items()})
    bag_before = s.bag
    s, _ = bid_all(s, EXAMPLE)
    view = G.view(s, None)
    assert view["last_bids"] == {str(p): c for p, c in EXAMPLE.items()}
    assert view["last_ranking"] == [JOE, DAISY, NELLY, BILL]
    all_bid = cows(c for bid in EXAMPLE.values() for c in bid)
    assert s.bag == bag_before | all_bid
    assert s.hands[JOE] == cows([60 - JOE])


def test_cc_5_4_claims_in_rank_order_empty_bids_get_nothing() -> None:
    s = at_bid(4, hands={0: [10, 11], 1: [20], 2: [30], 3: [40]})
    s, _ = bid_all(s, {0: [10, 11], 1: [], 2: [30], 3: []})
    assert s.phase == "claim"
    assert G.view(s, None)["claim_order"] == [0, 2]
    assert G.to_act(s) == frozenset({0})
    assert illegal(s, 2, G.legal_actions(s, 0)[0]).code == "not_your_turn"
    s, _ = G.apply(s, 0, G.legal_actions(s, 0)[0])
    assert G.to_act(s) == frozenset({2})
    s, events = G.apply(s, 2, G.legal_actions(s, 2)[0])
    discarded = next(e for e in events if e["type"] == "cards_discarded")
    assert len(discarded["cards"]) == 1
    assert G.view(s, None)["turn"] == 2


def test_cc_5_4_two_players_both_claim() -> None:
    s = at_bid(2, hands={0: [10], 1: [20]})
    s, _ = bid_all(s, {0: [10], 1: [20]})
    assert s.claim_order == (1, 0)


def test_cc_5_4_three_players_third_gets_nothing() -> None:
    s = at_bid(3, hands={0: [10], 1: [20], 2: [30]})
    s, _ = bid_all(s, {0: [10], 1: [20], 2: [30]})
    assert s.claim_order == (2, 1)


def test_cc_5_4_all_empty_bids_discard_every_card() -> None:
    s = at_bid(3)
    s, events = bid_all(s, {0: [], 1: [], 2: []})
    assert [len(e["cards"]) for e in events if e["type"] == "cards_discarded"] == [2]
    assert s.turn == 2


def test_cc_5_5_empty_bidders_draw_two_and_nobody_draws_one() -> None:
    s = at_bid(4, hands={0: [10], 1: [20], 2: [30], 3: [40]})
    s, _ = bid_all(s, {0: [10], 1: [], 2: [30], 3: []})
    while s.phase == "claim":
        (seat,) = G.to_act(s)
        s, events = G.apply(s, seat, G.legal_actions(s, seat)[0])
    drawn = {e["seat"]: e["count"] for e in events if e["type"] == "cowboys_drawn"}
    assert drawn == {1: 2, 3: 2}
    assert [s.hands[p].bit_count() for p in range(4)] == [0, 3, 0, 3]


def test_cc_5_5_lowest_bidder_draws_one() -> None:
    s = at_bid(3, hands={0: [10, 11], 1: [20], 2: [30, 1]})
    s, _ = bid_all(s, {0: [10, 11], 1: [20], 2: [30, 1]})
    events = []
    while s.phase == "claim":
        (seat,) = G.to_act(s)
        s, ev = G.apply(s, seat, G.legal_actions(s, seat)[0])
        events += ev
    drawn = [(e["seat"], e["count"]) for e in events if e["type"] == "cowboys_drawn"]
    assert drawn == [(1, 1)]
    detail = next(e for e in events if e["type"] == "cowboys_drawn_detail")
    assert detail["visible_to"] == [1]


def test_cc_5_5_draws_stop_when_the_bag_is_empty() -> None:
    s = at_bid(2, hands={0: list(range(1, 34)), 1: list(range(34, 67))})
    assert s.bag == 0
    s, events = bid_all(s, {0: [], 1: []})
    drawn = [(e["seat"], e["wanted"], e["count"]) for e in events if e["type"] == "cowboys_drawn"]
    assert sorted(drawn) == [(0, 2, 0), (1, 2, 0)]
    assert not [e for e in events if e["type"] == "cowboys_drawn_detail"]
    assert s.turn == 2


def test_cc_5_6_rulebook_example() -> None:
    assert rank_bids(EXAMPLE) == [JOE, DAISY, NELLY, BILL]
    s = at_bid(4, hands=EXAMPLE)
    s, events = bid_all(s, EXAMPLE)
    revealed = next(e for e in events if e["type"] == "bids_revealed")
    assert revealed["ranking"] == [JOE, DAISY, NELLY, BILL]
    assert revealed["claim_order"] == [JOE, DAISY, NELLY]
    assert [b["draws"] for b in revealed["bids"]] == [0, 0, 0, 1]
    hand_before = s.hands[BILL]
    while s.phase == "claim":
        (seat,) = G.to_act(s)
        s, _ = G.apply(s, seat, G.legal_actions(s, seat)[0])
    assert s.hands[BILL].bit_count() == hand_before.bit_count() + 1


# --- CC-6 -------------------------------------------------------------------------------


def claim_state(
    cards: list[str], flags: dict[str, list[str]], markers: dict[int, list[str]]
) -> State:
    """Seat 0 is the only bidder, so seat 0 claims first; seat 1..3 bid nothing."""
    s = at_bid(4, hands={0: [50]}, face_up=cards)
    s = set_board(s, markers=markers, flags=flags)
    s, _ = bid_all(s, {0: [50], 1: [], 2: [], 3: []})
    assert G.to_act(s) == frozenset({0})
    return s


def test_cc_6_1_card_used_on_a_flag_of_its_colour() -> None:
    s = claim_state(
        ["red-single-1", "blue-single-1", "green-single-1"],
        {"red": ["B2", "J5"], "blue": ["D2"]},
        {},
    )
    assert illegal(s, 0, {"type": "claim", "card": "red-single-1", "flag": "D2"}).code == (
        "not_a_flag_of_colour"
    )
    assert illegal(s, 0, {"type": "claim", "card": "green-single-1", "flag": "D2"}).code == (
        "no_flag_of_colour"
    )
    assert illegal(s, 0, {"type": "claim", "card": "red-single-2", "flag": "B2"}).code == (
        "card_not_face_up"
    )
    s1, events = G.apply(s, 0, {"type": "claim", "card": "red-single-1", "flag": "J5"})
    cells = G.view(s1, None)["board"]["cells"]
    assert cells["J5"] == {"marker": 0}
    assert cells["B2"] == {"flag": "red"}
    claimed = next(e for e in events if e["type"] == "card_claimed")
    assert (claimed["card"], claimed["flag"], claimed["second"]) == ("red-single-1", "J5", None)
    assert (
        illegal(s, 0, {"type": "claim", "card": "red-single-1", "flag": "J5", "second": "J6"}).code
        == "wrong_offset"
    )


def test_cc_6_2_second_star_at_the_offset_under_any_rotation() -> None:
    s = claim_state(
        ["red-knight-1", "blue-single-1", "green-single-1"], {"red": ["J3"]}, {1: ["H2"]}
    )
    # knight (2,1) from J3: L4 (lake), I5, H2 (taken), K1
    seconds = sorted(a["second"] for a in G.legal_actions(s, 0) if a.get("card") == "red-knight-1")
    assert seconds == ["I5", "K1"]
    base = {"type": "claim", "card": "red-knight-1", "flag": "J3"}
    assert illegal(s, 0, {**base, "second": "J4"}).code == "wrong_offset"
    assert illegal(s, 0, {**base, "second": "L4"}).code == "cell_under_water"
    assert illegal(s, 0, {**base, "second": "H2"}).code == "second_cell_not_free"
    s1, _ = G.apply(s, 0, {**base, "second": "K1"})
    cells = G.view(s1, None)["board"]["cells"]
    assert cells["J3"] == cells["K1"] == {"marker": 0}


def test_cc_6_2_the_second_star_may_jump_a_lake() -> None:
    # long (3,0) from F5 jumps lake-5 (G5, H5) to I5
    s = claim_state(["red-long-1", "blue-single-1", "green-single-1"], {"red": ["F5"]}, {})
    s1, _ = G.apply(s, 0, {"type": "claim", "card": "red-long-1", "flag": "F5", "second": "I5"})
    assert G.view(s1, None)["board"]["cells"]["I5"] == {"marker": 0}


def test_cc_6_3_second_cell_mandatory_when_one_is_free() -> None:
    s = claim_state(
        ["red-neighbour-1", "blue-single-1", "green-single-1"],
        {"red": ["B2"]},
        {1: ["A2", "B1", "C2"]},
    )
    assert illegal(s, 0, {"type": "claim", "card": "red-neighbour-1", "flag": "B2"}).code == (
        "second_cell_required"
    )
    assert (
        illegal(
            s, 0, {"type": "claim", "card": "red-neighbour-1", "flag": "B2", "second": None}
        ).code
        == "second_cell_required"
    )
    s1, _ = G.apply(
        s, 0, {"type": "claim", "card": "red-neighbour-1", "flag": "B2", "second": "B3"}
    )
    assert G.view(s1, None)["board"]["cells"]["B3"] == {"marker": 0}


def test_cc_6_3_only_the_flag_cell_when_no_rotation_is_free() -> None:
    s = claim_state(
        ["red-neighbour-1", "blue-single-1", "green-single-1"],
        {"red": ["B2"], "blue": ["B3"]},
        {1: ["A2", "B1", "C2"]},
    )
    acts = [a for a in G.legal_actions(s, 0) if a.get("card") == "red-neighbour-1"]
    assert acts == [{"type": "claim", "card": "red-neighbour-1", "flag": "B2", "second": None}]
    assert illegal(s, 0, {**acts[0], "second": "B3"}).code == "second_cell_not_free"
    s1, _ = G.apply(s, 0, acts[0])
    assert G.view(s1, None)["board"]["cells"]["B2"] == {"marker": 0}


def test_cc_6_4_a_face_up_card_always_has_a_flag_of_its_colour() -> None:
    s = at_bid(4, seed=8)
    for c in G.view(s, None)["face_up"]:
        assert c["colour"] in {
            f["flag"] for f in G.view(s, None)["board"]["cells"].values() if "flag" in f
        }
