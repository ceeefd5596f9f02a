"""``RULES.query``: the claim preview (formerly games/preview.py) and refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import IllegalAction
from titles.colorado_county.engine.scoring import score_round
from titles.colorado_county.engine.state import State
from titles.colorado_county.tests.engine.helpers import (
    G,
    at_bid,
    bid_all,
    random_move,
    rng,
    set_board,
    set_hands,
)

ITEMS = ("border", "lakes", "doubles", "area", "total")
FACE_UP = ["red-neighbour-1", "blue-single-1", "green-single-1"]
MARKERS = {0: ["A3", "A4"], 1: ["A2", "B1", "C2"]}
FLAGS = {"red": ["B2"], "blue": ["D4"]}


def claiming(round_no: int = 2) -> State:
    """Seat 0 is the claimer in round ``round_no``; its claims: red B2(+B3), blue D4."""
    s = at_bid(4, hands={0: [50], 1: [51]}, face_up=FACE_UP)
    s = set_board(s, markers=MARKERS, flags=FLAGS)
    s, _ = bid_all(s, {0: [50], 1: [], 2: [], 3: []})
    s = s.copy()
    s.round = round_no
    return s


def old_preview(s: State, seat: int, card: str) -> list[dict[str, Any]]:
    """games/preview.py as it was before the move into the engine (the reference)."""

    def round_scores(state: State, round_no: int) -> list[dict[str, int]]:
        markers = dict(enumerate(state.markers))
        lake_ids = [lid for lid, _cells in state.lakes]
        full = score_round(
            markers, list(state.lake_owners), lake_ids, state.layout.border, round_no
        )
        return [{k: int(full[p][k]) for k in ITEMS} for p in range(len(state.markers))]

    actions = [a for a in G.legal_actions(s, seat) if a["type"] == "claim" and a["card"] == card]
    round_no = max(1, min(4, s.round))
    before = round_scores(s, round_no)
    return [
        {
            "flag": a["flag"],
            "second": a["second"],
            "before": before,
            "after": round_scores(G.apply(s, seat, a)[0], round_no),
        }
        for a in actions
    ]


def seats(*totals: tuple[int, int, int, int]) -> list[dict[str, int]]:
    rows = [dict(zip(ITEMS, (*parts, sum(parts)), strict=True)) for parts in totals]
    return rows + [dict.fromkeys(ITEMS, 0)] * (4 - len(rows))


def test_claim_preview_scores_this_round_before_and_after_each_claim() -> None:
    s = claiming(round_no=2)
    before = seats((9, 0, 3, 0), (9, 0, 0, 0))  # both 2 border cells (tie: 9 each), a double
    red = G.query(s, 0, "claim_preview", {"card": "red-neighbour-1"})
    assert red == [
        {
            "flag": "B2",
            "second": "B3",
            "before": before,
            "after": seats((9, 0, 0, 4), (9, 0, 0, 0)),  # the double becomes an area of 4
        }
    ]
    blue = G.query(s, 0, "claim_preview", {"card": "blue-single-1"})
    assert blue == [
        {
            "flag": "D4",
            "second": None,
            "before": before,
            "after": seats((9, 2, 3, 0), (9, 0, 0, 0)),  # D4 takes lake-2 (CC-7)
        }
    ]
    assert json.loads(json.dumps(red)) == red


def test_claim_preview_uses_the_current_rounds_table() -> None:
    for round_no, after_area in ((1, 0), (2, 4), (3, 7)):
        got = G.query(claiming(round_no), 0, "claim_preview", {"card": "red-neighbour-1"})
        assert got[0]["after"][0]["area"] == after_area


@pytest.mark.parametrize("round_no", [1, 2, 3, 4])
@pytest.mark.parametrize("card", ["red-neighbour-1", "blue-single-1"])
def test_claim_preview_matches_the_old_web_preview(round_no: int, card: str) -> None:
    s = claiming(round_no)
    assert G.query(s, 0, "claim_preview", {"card": card}) == old_preview(s, 0, card)


def test_claim_preview_matches_the_old_web_preview_in_random_games() -> None:
    compared = 0
    for seed in range(6):
        s = G.setup(3, f"preview-{seed}")
        rnd = rng(seed)
        while not G.is_over(s):
            if s.phase == "claim" and s.sale is None:
                seat = s.claim_order[0]
                for card in {a["card"] for a in G.legal_actions(s, seat) if a["type"] == "claim"}:
                    assert G.query(s, seat, "claim_preview", {"card": card}) == old_preview(
                        s, seat, card
                    )
                    compared += 1
            s, _ = G.apply(s, *random_move(s, rnd))
    assert compared > 50


def test_the_query_never_changes_the_state() -> None:
    s = claiming()
    dumped, views = G.dump(s), [G.view(s, p) for p in (None, 0, 1, 2, 3)]
    G.query(s, 0, "claim_preview", {"card": "red-neighbour-1"})
    G.query(s, 0, "claim_preview", {"card": "blue-single-1"})
    assert G.dump(s) == dumped
    assert [G.view(s, p) for p in (None, 0, 1, 2, 3)] == views
    s2, _ = G.apply(s, 0, {"type": "claim", "card": "blue-single-1", "flag": "D4"})
    assert G.view(s2, None)["board"]["cells"]["D4"] == {"marker": 0}


def test_the_answer_holds_public_information_only() -> None:
    s = claiming()
    other = set_hands(s, {0: [1, 2, 3], 1: [60], 2: [61, 62]})  # other hidden hands and bag
    for card in ("red-neighbour-1", "blue-single-1"):
        args = {"card": card}
        assert G.query(other, 0, "claim_preview", args) == G.query(s, 0, "claim_preview", args)


@pytest.mark.parametrize(
    ("seat", "name", "args", "code"),
    [
        (1, "claim_preview", {"card": "red-neighbour-1"}, "not_your_claim"),  # not the claimer
        (0, "claim_preview", {"card": "green-single-1"}, "not_your_claim"),  # no green flag
        (0, "claim_preview", {"card": "red-gap-1"}, "not_your_claim"),  # not face up
        (0, "claim_preview", {}, "bad_query"),
        (0, "claim_preview", {"card": 5}, "bad_query"),
        (0, "claim_preview", {"card": "red-neighbour-1", "x": 1}, "bad_query"),
        (0, "claim_preview", ["red-neighbour-1"], "bad_query"),
        (4, "claim_preview", {"card": "red-neighbour-1"}, "not_a_player"),
        ("0", "claim_preview", {"card": "red-neighbour-1"}, "not_a_player"),
        (0, "scores", {}, "unknown_query"),
        (0, None, {}, "unknown_query"),
    ],
)
def test_refusals_have_stable_codes(seat: Any, name: Any, args: Any, code: str) -> None:
    s = claiming()
    with pytest.raises(IllegalAction) as info:
        G.query(s, seat, name, args)
    assert info.value.code == code
    assert info.value.message.endswith(".")


def test_no_preview_outside_a_claim() -> None:
    s = at_bid(4, face_up=FACE_UP)
    with pytest.raises(IllegalAction, match="cannot claim"):
        G.query(s, 0, "claim_preview", {"card": "red-neighbour-1"})
