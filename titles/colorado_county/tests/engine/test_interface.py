"""CC-10 end, CC-11 information, CC-12 engine interface and every IllegalAction code."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import IllegalAction, Rules, get_rules, title_slugs, validate_options
from titles.colorado_county.engine.state import State
from titles.colorado_county.tests.engine.helpers import (
    G,
    at_bid,
    bid_all,
    finish_flags,
    illegal,
    new,
    random_move,
    rng,
    set_board,
)

# --- CC-10 ---------------------------------------------------------------------------


def last_turn_of_round_4(scores: list[int]) -> State:
    s = at_bid(2, hands={0: [1], 1: [2]})
    s.round = 4
    s.stack = ()
    s.scores = tuple(scores)
    s.markers = [0, 0]
    s.lake_owners = (-1,) * 6
    return s


def test_cc_10_1_game_ends_after_the_fourth_valuation() -> None:
    s, events = bid_all(last_turn_of_round_4([10, 7]), {0: [], 1: []})
    assert G.is_over(s)
    assert G.to_act(s) == frozenset()
    assert G.result(s) == [10, 7]
    over = events[-1]
    assert over == {"type": "game_over", "visible_to": "all", "scores": [10, 7], "winners": [0]}
    assert G.view(s, None)["phase"] == "over"
    assert G.legal_actions(s, 0) == []
    assert illegal(s, 0, {"type": "bid", "cowboys": []}).code == "game_over"


def test_cc_10_1_players_tied_for_highest_share_the_win() -> None:
    s, _ = bid_all(last_turn_of_round_4([10, 10]), {0: [], 1: []})
    assert G.view(s, None)["winners"] == [0, 1]
    assert G.winners(s) == [0, 1]


# --- CC-11 ---------------------------------------------------------------------------


def test_cc_11_1_hand_and_bid_only_in_the_own_view() -> None:
    s = at_bid(3, hands={0: [5, 6], 1: [7], 2: [8]})
    s, _ = G.apply(s, 0, {"type": "bid", "cowboys": [6]})
    spectator = G.view(s, None)
    assert "hand" not in spectator
    assert "my_bid" not in spectator
    mine = G.view(s, 0)
    assert mine["hand"] == [5, 6]
    assert mine["my_bid"] == [6]
    other = G.view(s, 1)
    assert other["hand"] == [7]
    assert other["my_bid"] is None


def test_cc_11_2_public_information_is_in_every_view() -> None:
    s = at_bid(4)
    view = G.view(s, None)
    for key in (
        "phase",
        "round",
        "to_act",
        "bag_count",
        "stack_left",
        "face_up",
        "board",
        "players",
        "last_bids",
        "sale",
        "valuations",
    ):
        assert key in view
    assert set(view["board"]) >= {"cells", "lakes"}
    assert set(view["players"][0]) >= {
        "seat",
        "score",
        "cowboy_count",
        "sale_cards_left",
        "sales_this_round",
        "has_bid",
        "flags_in_hand",
    }


def test_cc_11_3_bag_stack_and_seed_are_secret() -> None:
    s = at_bid(4, seed="secret-seed-xyz")
    for seat in (None, 0, 1, 2, 3):
        text = json.dumps(G.view(s, seat))
        assert "secret-seed-xyz" not in text
        stack_ids = [G.dump(s)["stack"][0]]
        assert stack_ids[0] not in text
        assert "bag" not in G.view(s, seat)
        assert "stack" not in G.view(s, seat)


# --- CC-12 ---------------------------------------------------------------------------


def test_cc_12_registry() -> None:
    assert "colorado-county" in title_slugs()
    rules = get_rules("colorado-county")
    assert rules is G
    assert isinstance(rules, Rules)
    assert (rules.slug, rules.min_players, rules.max_players) == ("colorado-county", 2, 4)


def test_cc_12_validate_options() -> None:
    assert validate_options("colorado-county", None) == {"lakes": "first-game", "flags": "players"}
    assert validate_options("colorado-county", {"lakes": "random"}) == {
        "lakes": "random",
        "flags": "players",
    }
    with pytest.raises(ValueError, match="Unknown option"):
        validate_options("colorado-county", {"speed": "fast"})
    with pytest.raises(ValueError, match="lakes must be one of"):
        validate_options("colorado-county", {"lakes": "none"})
    with pytest.raises(ValueError, match="must be an object"):
        validate_options("colorado-county", ["lakes"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Unknown option"):
        G.setup(2, 1, {"lake": "random"})


def test_cc_12_seed_types() -> None:
    assert G.dump(G.setup(2, "7")) == {**G.dump(G.setup(2, 7)), "seed": "7"}
    for bad in (None, 1.5, True, [1]):
        with pytest.raises(ValueError, match="seed"):
            G.setup(2, bad)  # type: ignore[arg-type]


def test_cc_12_apply_never_changes_the_given_state() -> None:
    s = at_bid(4, hands={0: [1], 1: [2], 2: [3], 3: [4]})
    before = G.dump(s)
    s1, _ = G.apply(s, 0, {"type": "bid", "cowboys": [1]})
    assert G.dump(s) == before
    assert G.dump(s1) != before


def test_cc_12_dump_is_json_and_load_restores_it() -> None:
    s = at_bid(3, lakes="random")
    data = json.loads(json.dumps(G.dump(s)))
    s2 = G.load(data)
    assert G.dump(s2) == G.dump(s)
    for seat in (None, 0, 1, 2):
        assert G.view(s2, seat) == G.view(s, seat)
    assert G.legal_actions(s2, 0) == G.legal_actions(s, 0)


def test_cc_12_load_refuses_malformed_data() -> None:
    data = G.dump(new(2))
    with pytest.raises(ValueError, match="Not a valid"):
        G.load({**data, "hands": [[1, 2], [2]]})
    with pytest.raises(ValueError, match="Not a valid"):
        G.load({**data, "format": 99})
    with pytest.raises(ValueError, match="Not a valid"):
        G.load({k: v for k, v in data.items() if k != "bag"})


def test_cc_12_views_are_plain_json() -> None:
    s = at_bid(4)
    s, _ = G.apply(s, 0, {"type": "bid", "cowboys": []})
    for seat in (None, 0, 1, 2, 3):
        view = G.view(s, seat)
        assert json.loads(json.dumps(view)) == view
    with pytest.raises(ValueError, match="seat"):
        G.view(s, 4)


def test_cc_12_legal_actions_are_all_accepted() -> None:
    s = finish_flags(new(3, 5))
    rnd = rng(5)
    for _ in range(60):
        for seat in range(3):
            for act in G.legal_actions(s, seat):
                G.apply(s, seat, act)
        seat, act = random_move(s, rnd)
        s, _ = G.apply(s, seat, act)


def test_cc_12_bid_legal_actions_list_empty_and_single_cowboys() -> None:
    s = at_bid(2, hands={0: [3, 9], 1: [4]})
    bids = [a for a in G.legal_actions(s, 0) if a["type"] == "bid"]
    assert bids == [{"type": "bid", "cowboys": c} for c in ([], [3], [9])]
    assert G.check(s, 0, {"type": "bid", "cowboys": [9, 3]}) is None


def test_cc_12_events_have_type_and_visibility() -> None:
    s, events = G.setup_events(4, 3)
    rnd = rng(1)
    while not G.is_over(s):
        for e in events:
            assert isinstance(e["type"], str)
            vis = e["visible_to"]
            assert vis == "all" or (isinstance(vis, list) and all(0 <= p < 4 for p in vis))
            assert json.loads(json.dumps(e)) == e
            if vis == "all":
                assert "cowboys" not in e or e["type"] in {"bids_revealed"}
        seat, act = random_move(s, rnd)
        s, events = G.apply(s, seat, act)


def test_cc_12_setup_events_hide_starting_hands() -> None:
    s, events = G.setup_events(2, 3)
    details = [e for e in events if e["type"] == "cowboys_drawn_detail"]
    assert [e["visible_to"] for e in details] == [[0], [1]]
    assert details[0]["cowboys"] == G.view(s, 0)["hand"]


# --- every IllegalAction code ---------------------------------------------------------


def flags_state() -> tuple[State, int, str]:
    s = new(4, 3)
    seat = s.flag_turn
    return s, seat, G.view(s, None)["players"][seat]["flags_in_hand"][0]


def claim_state() -> State:
    s = at_bid(
        4, hands={0: [50], 1: [51]}, face_up=["red-neighbour-1", "blue-single-1", "green-single-1"]
    )
    s = set_board(s, markers={1: ["A2", "B1", "C2"]}, flags={"red": ["B2"], "blue": ["J5"]})
    s, _ = bid_all(s, {0: [50], 1: [], 2: [], 3: []})
    return s


def sale_state(stage: str) -> State:
    s = at_bid(4, hands={0: [1], 1: [10, 11], 2: [20], 3: [30]})
    s = set_board(s, markers={0: ["B2", "E4", "J9"]})
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    if stage == "interest":
        return s
    s, _ = G.apply(s, 1, {"type": "sale_interest", "interested": True})
    s, _ = G.apply(s, 2, {"type": "sale_interest", "interested": stage == "bid"})
    s, _ = G.apply(s, 3, {"type": "sale_interest", "interested": False})
    return s


def bid_state() -> State:
    return at_bid(4, hands={0: [1, 2], 1: [10], 2: [20], 3: [30]})


CASES: list[tuple[str, Callable[[], State], Any, Any]] = [
    ("unknown_action", bid_state, 0, {"type": "pass"}),
    ("bad_action", bid_state, 0, "bid"),
    ("bad_action", bid_state, 0, {"cowboys": [1]}),
    ("bad_action", bid_state, 0, {"type": 7}),
    ("bad_action", bid_state, 0, {"type": "bid"}),
    ("bad_action", bid_state, 0, {"type": "bid", "cowboys": [1], "extra": 1}),
    ("bad_action", bid_state, 0, {"type": "bid", "cowboys": "1,2"}),
    ("bad_action", bid_state, 0, {"type": "bid", "cowboys": ["1"]}),
    ("bad_action", bid_state, 0, {"type": "bid", "cowboys": [True]}),
    ("bad_action", bid_state, 0, {"type": "bid", "cowboys": [1.0]}),
    ("bad_action", bid_state, 0, {"type": "bid", "cowboys": list(range(1000))}),
    ("bad_action", lambda: flags_state()[0], 0, {"type": "place_flag", "colour": 3, "cell": "B2"}),
    ("bad_action", claim_state, 0, {"type": "claim", "card": 5, "flag": "B2"}),
    ("bad_action", claim_state, 0, {"type": "claim", "card": "red-neighbour-1", "flag": ["B2"]}),
    (
        "bad_action",
        lambda: sale_state("interest"),
        1,
        {"type": "sale_interest", "interested": "yes"},
    ),
    ("bad_action", lambda: sale_state("pay"), 1, {"type": "sale_pay", "cowboy": "11"}),
    ("not_a_player", bid_state, 4, {"type": "bid", "cowboys": []}),
    ("not_a_player", bid_state, "0", {"type": "bid", "cowboys": []}),
    ("wrong_phase", bid_state, 0, {"type": "claim", "card": "red-single-1", "flag": "B2"}),
    ("wrong_phase", bid_state, 0, {"type": "sale_interest", "interested": True}),
    ("wrong_phase", lambda: sale_state("pay"), 1, {"type": "sale_bid", "cowboys": [10]}),
    ("wrong_phase", lambda: sale_state("bid"), 1, {"type": "sale_pay", "cowboy": 10}),
    ("wrong_phase", lambda: sale_state("pay"), 1, {"type": "sale_interest", "interested": True}),
    ("not_your_turn", lambda: new(4, 1), 0, {"type": "place_flag", "colour": "red", "cell": "B2"}),
    ("not_your_turn", claim_state, 1, {"type": "claim", "card": "blue-single-1", "flag": "J5"}),
    ("cowboy_not_held", bid_state, 0, {"type": "bid", "cowboys": [10]}),
    ("cowboy_not_held", bid_state, 0, {"type": "bid", "cowboys": [0]}),
    ("cowboy_not_held", bid_state, 0, {"type": "bid", "cowboys": [10**30]}),
    ("cowboy_not_held", lambda: sale_state("pay"), 1, {"type": "sale_pay", "cowboy": 99}),
    ("duplicate_cowboy", bid_state, 0, {"type": "bid", "cowboys": [1, 1]}),
    (
        "second_cell_not_free",
        claim_state,
        0,
        {"type": "claim", "card": "red-neighbour-1", "flag": "B2", "second": "A2"},
    ),
    ("cell_under_water", bid_state, 0, {"type": "sell", "cell": "C4"}),
    ("unknown_cell", bid_state, 0, {"type": "sell", "cell": "a1"}),
    ("unknown_cell", claim_state, 0, {"type": "claim", "card": "red-neighbour-1", "flag": "Q2"}),
    ("card_not_face_up", claim_state, 0, {"type": "claim", "card": "red-gap-1", "flag": "B2"}),
    ("card_not_face_up", claim_state, 0, {"type": "claim", "card": "nonsense", "flag": "B2"}),
    (
        "no_flag_of_colour",
        claim_state,
        0,
        {"type": "claim", "card": "green-single-1", "flag": "B2"},
    ),
    (
        "not_a_flag_of_colour",
        claim_state,
        0,
        {"type": "claim", "card": "blue-single-1", "flag": "B2"},
    ),
    (
        "wrong_offset",
        claim_state,
        0,
        {"type": "claim", "card": "red-neighbour-1", "flag": "B2", "second": "B4"},
    ),
    (
        "wrong_offset",
        claim_state,
        0,
        {"type": "claim", "card": "blue-single-1", "flag": "J5", "second": "J6"},
    ),
    (
        "second_cell_required",
        claim_state,
        0,
        {"type": "claim", "card": "red-neighbour-1", "flag": "B2", "second": None},
    ),
    ("not_your_marker", bid_state, 0, {"type": "sell", "cell": "B2"}),
    ("sale_open", lambda: sale_state("interest"), 2, {"type": "sell", "cell": "E4"}),
    ("sale_open", lambda: sale_state("interest"), 1, {"type": "bid", "cowboys": []}),
    (
        "not_in_sale",
        lambda: sale_state("interest"),
        0,
        {"type": "sale_interest", "interested": True},
    ),
    ("not_in_sale", lambda: sale_state("pay"), 2, {"type": "sale_pay", "cowboy": 20}),
    ("not_in_sale", lambda: sale_state("bid"), 3, {"type": "sale_bid", "cowboys": [30]}),
    ("sale_bid_empty", lambda: sale_state("bid"), 1, {"type": "sale_bid", "cowboys": []}),
]


@pytest.mark.parametrize(("code", "make", "seat", "action"), CASES)
def test_cc_12_illegal_action_codes(
    code: str, make: Callable[[], State], seat: Any, action: Any
) -> None:
    exc = illegal(make(), seat, action)
    assert exc.code == code, exc.message
    assert isinstance(exc, IllegalAction)
    assert exc.message.endswith(".")


def test_cc_12_flag_codes() -> None:
    s, seat, colour = flags_state()
    s1, _ = G.apply(s, seat, {"type": "place_flag", "colour": colour, "cell": "E5"})
    nxt = s1.flag_turn
    c2 = G.view(s1, None)["players"][nxt]["flags_in_hand"][0]
    held = G.view(s1, None)["players"][nxt]["flags_in_hand"]
    missing = next(c for c in ("yellow", "red", "green", "blue") if c not in held)
    assert illegal(s1, nxt, {"type": "place_flag", "colour": c2, "cell": "E6"}).code == (
        "flag_adjacent"
    )
    assert illegal(s1, nxt, {"type": "place_flag", "colour": c2, "cell": "E5"}).code == (
        "cell_not_free"
    )
    assert illegal(s1, nxt, {"type": "place_flag", "colour": missing, "cell": "J9"}).code == (
        "colour_not_held"
    )


def test_cc_12_sale_codes() -> None:
    s = at_bid(4, hands={0: [1], 1: [10]})
    s = set_board(s, markers={0: ["B2", "E4", "J9"]})
    s.sale_cards = (0, 4, 4, 4)
    assert illegal(s, 0, {"type": "sell", "cell": "B2"}).code == "no_sale_cards"
    s.sale_cards = (3, 4, 4, 4)
    s.sales_round = (2, 0, 0, 0)
    assert illegal(s, 0, {"type": "sell", "cell": "B2"}).code == "sale_limit_round"
    s.sales_round = (0, 0, 0, 0)
    s.stack = ()
    assert illegal(s, 0, {"type": "sell", "cell": "B2"}).code == "sale_after_stack"


def test_cc_12_committed_cowboy_code() -> None:
    s = at_bid(4, hands={0: [1], 1: [10, 11], 2: [20], 3: [30]})
    s = set_board(s, markers={0: ["B2"]})
    s, _ = G.apply(s, 1, {"type": "bid", "cowboys": [10]})
    s, _ = G.apply(s, 0, {"type": "sell", "cell": "B2"})
    s, _ = G.apply(s, 1, {"type": "sale_interest", "interested": True})
    s, _ = G.apply(s, 2, {"type": "sale_interest", "interested": True})
    s, _ = G.apply(s, 3, {"type": "sale_interest", "interested": False})
    assert illegal(s, 1, {"type": "sale_bid", "cowboys": [10, 11]}).code == "cowboy_committed"


@pytest.mark.parametrize("seat", ["0", None, 1.0, 7, -1])
def test_cc_12_a_seat_that_is_no_seat_gets_the_documented_answers(seat: Any) -> None:
    """Whatever a caller passes as a seat, the rules object answers as CC-12 says (and the
    same whether the engine runs compiled or interpreted: compiled functions check their
    declared argument types, so the rules object checks the seat first)."""
    s = G.setup(2, "seat-check")
    assert G.legal_actions(s, seat) == []
    assert G.search_actions(s, seat) == []  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction) as info:
        G.apply(s, seat, {"type": "bid", "cowboys": []})
    assert info.value.code == "not_a_player"
    with pytest.raises(IllegalAction) as info:
        G.query(s, seat, "claim_preview", {"card": "red-neighbour-1"})
    assert info.value.code == "not_a_player"
    if seat is not None:
        with pytest.raises(ValueError, match=r"seat must be None or 0\.\.1"):
            G.view(s, seat)
