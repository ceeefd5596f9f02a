"""Colorado's action and end steps, by ruling (``docs/rules.md``)."""

from __future__ import annotations

import random

import pytest

from games.engine import IllegalAction, final_ranks
from titles.colorado_2023.engine import RULES
from titles.colorado_2023.engine.data import ACTION_OF, colour_of
from titles.colorado_2023.engine.endstep import winners
from titles.colorado_2023.engine.state import Player, State


def action_state(kind: str, *players: Player) -> State:
    s = State(n=len(players), rng=1, players=players, phase="call", deck=("grey-1",) * 10)
    s = s.with_(
        phase="action",
        action=kind,
        players=tuple(p.with_(pending=(kind,), done=False) for p in players),
    )
    return s.with_(shown=s.players)


def finish(s: State) -> State:
    for q in range(s.n):
        if not s.players[q].done:
            s, _ = RULES.apply(s, q, {"type": "done"})
    return s


def test_co12_the_action_step_is_sealed_until_the_last_seat_is_done() -> None:
    a = Player(hand=("blue-1", "red-3"), area=("green-1",), nuggets=3, flags=("T1",))
    s = action_state("nugget", a, Player(flags=("T2",)))
    s, events = RULES.apply(s, 0, {"type": "buy", "card": "blue-1"})
    assert all(e["visible_to"] == [0] for e in events)
    seen = RULES.view(s, 1)["players"][0]
    assert seen["area"] == ["green-1"]
    assert seen["nuggets"] == 3
    assert RULES.view(s, 0)["players"][0]["pending"] == ["check"]  # the card's bonus
    s, _ = RULES.apply(s, 0, {"type": "tick", "leg": "T1.0"})
    s, _ = RULES.apply(s, 0, {"type": "done"})
    s, events = RULES.apply(s, 1, {"type": "done"})
    assert events[1]["type"] == "actions_revealed"
    assert events[1]["moves"][0] == ["buy:blue-1", "tick:T1.0"]
    assert RULES.view(s, 1)["players"][0]["area"] == ["green-1", "blue-1"]


def test_co5_a_leg_benefit_comes_at_once_and_a_region_scores_into_the_next_badge() -> None:
    me = Player(flags=("T1",), legs=("T1.0",), nuggets=0)
    s = action_state("check", me, Player(flags=("T2",)))
    legal = RULES.legal_actions(s, 0)
    assert {"type": "tick", "leg": "T1.1"} in legal
    s, _ = RULES.apply(s, 0, {"type": "tick", "leg": "T1.1"})
    p = s.players[0]
    assert p.badges == (2,)
    assert p.nuggets == 0
    assert p.pending == ("nugget",)


def test_a_leg_needs_its_flag_and_the_leg_it_hangs_on() -> None:
    s = action_state("check", Player(flags=("T1",)), Player(flags=("T2",)))
    legal = [a["leg"] for a in RULES.legal_actions(s, 0) if a["type"] == "tick"]
    assert legal == ["T1.0"]
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, {"type": "tick", "leg": "T2.0"})


def test_co3_a_railway_leg_matches_a_region_leg_of_its_kind_one_branch_only() -> None:
    me = Player(flags=("L5",), legs=("L5.0", "L5.2"))
    s = action_state("check", me, Player(flags=("T2",)))
    assert {"type": "rail", "leg": 0} in RULES.legal_actions(s, 0)
    me = me.with_(rail=(0, 1, 2, 3), legs=("L5.0", "L5.1", "L5.2", "L5.3", "F4.0", "D3.0"))
    s = action_state("check", me.with_(flags=("L5", "F4", "D3")), Player(flags=("T2",)))
    rails = [a["leg"] for a in RULES.legal_actions(s, 0) if a["type"] == "rail"]
    assert 6 not in rails  # the other branch is closed past the junction


def test_co14_a_set_ticks_a_flag_next_to_ones_own_not_across_mountains() -> None:
    me = Player(area=("red-1", "red-2", "red-3", "blue-1"), flags=("L5",), hand=("grey-2",) * 3)
    s = action_state("nugget", me, Player(flags=("T2",), hand=("grey-3",) * 3))
    s = finish(s)
    # L5's neighbours are T1 and F5 (F4 is behind mountains): two choices, so it asks.
    assert s.phase == "flags"
    assert RULES.to_act(s) == frozenset({0})
    assert RULES.view(s, 0)["flag_choices"] == ["F5", "T1"]
    assert s.players[0].area == ("blue-1",)
    s, _events = RULES.apply(s, 0, {"type": "flag", "region": "T1"})
    assert s.players[0].flags == ("L5", "T1")
    assert s.phase == "call"


def test_co15_only_the_first_to_complete_a_flag_track_score_its_points() -> None:
    me = Player(area=("red-1", "red-2", "red-3"), flags=("T1", "L5"), hand=("grey-2",) * 3)
    s = action_state("nugget", me, Player(flags=("T2",), hand=("grey-3",) * 3))
    s = finish(s)
    assert s.phase == "flags"
    s, _ = RULES.apply(s, 0, {"type": "flag", "region": "L3"})
    assert s.flags_done == ()
    assert s.players[0].badges == ()
    both = Player(area=("red-1", "red-2", "red-3"), flags=("T1", "L5", "F5"), hand=("grey-2",) * 3)
    s = action_state("nugget", both, Player(flags=("T2",), hand=("grey-3",) * 3))
    s = finish(s)
    s, events = RULES.apply(s, 0, {"type": "flag", "region": "T2"})
    assert s.flags_done == ("town",)
    assert s.players[0].badges == (2,)
    assert any(e["type"] == "flag_track_done" for e in events)
    later = s.with_(phase="flags", players=(s.players[0], s.players[1].with_(sets=1)))
    later = later.put(1, later.players[1].with_(flags=("T2", "F5", "L5")))
    later, _ = RULES.apply(later, 1, {"type": "flag", "region": "T1"})
    assert later.players[1].badges == ()  # the town track's points are gone


def test_co16_hands_are_filled_up_to_three() -> None:
    s = action_state("nugget", Player(flags=("T1",)), Player(flags=("T2",), hand=("red-1",) * 4))
    s = finish(s)
    assert len(s.players[0].hand) == 3
    assert len(s.players[1].hand) == 4


def test_co17_the_seventh_badge_ends_the_game_and_co18_ties_go_to_badges_then_nuggets() -> None:
    me = Player(flags=("T1",), legs=("T1.0",), badges=(1,) * 6, hand=("red-1",) * 3)
    other = Player(flags=("T2",), badges=(4, 4), hand=("red-1",) * 3, nuggets=5)
    s = action_state("check", me, other)
    s, _ = RULES.apply(s, 0, {"type": "tick", "leg": "T1.1"})
    s = finish(s)
    assert RULES.is_over(s)
    assert not RULES.ended_by_limit(s)
    assert RULES.result(s) == [6 + 2 + 1, 8 + 1]
    assert winners(s) == [0]  # nine each: seven badges beat two
    tied = s.with_(players=(s.players[0].with_(badges=(2, 6)), s.players[1]))
    assert winners(tied) == [1]  # nine each, two badges each: five nuggets beat none
    assert RULES.ranks(tied) == [2, 1]
    assert final_ranks(RULES, tied) == [2, 1]  # what the site stores (Game.result)


def test_the_determinised_state_looks_the_same_to_its_seat() -> None:
    s = RULES.setup(3, "seed")
    for q in range(3):
        s, _ = RULES.apply(s, q, {"type": "start", "town": "T1"})
    s, _ = RULES.apply(s, 0, {"type": "call", "seat": 1, "card": "red-2"})
    if s.phase == "answer":
        s, _ = RULES.apply(s, 1, RULES.legal_actions(s, 1)[0])
    legal = RULES.legal_actions(s, 2)
    s, _ = RULES.apply(s, 2, legal[0])
    for seat in range(3):
        t = RULES.determinise(s, seat, random.Random(5))  # noqa: S311
        assert RULES.view(t, seat) == RULES.view(s, seat)
        assert RULES.legal_actions(t, seat) == RULES.legal_actions(s, seat)


def test_the_search_weighs_only_close_calls_and_never_a_standing_answer() -> None:
    """The desert's one leg (6 points at once) is clearly best: the search's only
    candidate; two legs of a lake are a close call."""
    me = Player(flags=("T2", "D4"), legs=("T2.0",), hand=("red-1",))
    s = action_state("check", me, Player(flags=("L5",)))
    assert RULES.search_actions(s, 0) == [{"type": "tick", "leg": "D4.0"}]
    close = [a["leg"] for a in RULES.search_actions(s, 1)]
    assert sorted(close) == ["L5.0", "L5.2"]
    assert all(a["type"] != "standing" for a in RULES.search_actions(s, 1))


def test_a_seat_done_with_its_sealed_step_is_not_taken_to_have_passed() -> None:
    """Seat 1 ticked its desert and is done: seat 0 cannot see what it did, so the
    determinised state has it play the step again, but it still shows as before."""
    s = action_state("check", Player(flags=("T1",)), Player(flags=("D4",), hand=("red-1",)))
    s, _ = RULES.apply(s, 1, {"type": "tick", "leg": "D4.0"})
    s, _ = RULES.apply(s, 1, {"type": "done"})
    for k in range(5):
        t = RULES.determinise(s, 0, random.Random(k))  # noqa: S311
        assert t.players[1].done
        assert "D4.0" in t.players[1].legs  # replayed, not passed
        assert RULES.view(t, 0)["players"] == RULES.view(s, 0)["players"]


def test_the_search_weighs_a_call_of_each_action_type_the_medium_bots_first() -> None:
    s = RULES.setup(2, "calls")
    for q in range(2):
        s, _ = RULES.apply(s, q, {"type": "start", "town": "T1"})
    calls = RULES.search_actions(s, 0)
    greedy = RULES.bots["greedy"].choose(
        RULES,
        RULES.view(s, 0),
        RULES.legal_actions(s, 0),
        random.Random(1),  # noqa: S311
    )
    assert calls[0] == greedy
    assert sorted(ACTION_OF[colour_of(a["card"])] for a in calls) == ["card", "check", "nugget"]


def test_playouts_play_the_medium_bots_move_nearly_always() -> None:
    me = Player(flags=("T2", "D4"), legs=("T2.0",), hand=("red-1",))
    s = action_state("check", me, Player(flags=("L5",)))
    moves = [
        RULES.playout_action(s, 0, random.Random(k))  # noqa: S311
        for k in range(40)
    ]
    assert sum(m == {"type": "tick", "leg": "D4.0"} for m in moves) >= 35
