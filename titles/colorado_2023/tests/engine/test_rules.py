"""Colorado's rules, by ruling (``docs/rules.md``): set-up, the call, the answer."""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, get_rules
from titles.colorado_2023.engine import RULES
from titles.colorado_2023.engine.state import State


def started(n: int = 2, seed: str = "seed") -> State:
    s = RULES.setup(n, seed)
    for q in range(n):
        s, _ = RULES.apply(s, q, {"type": "start", "town": "T1" if q % 2 == 0 else "T2"})
    return s


def with_hands(s: State, *hands: tuple[str, ...]) -> State:
    return s.with_(players=tuple(p.with_(hand=h) for p, h in zip(s.players, hands, strict=False)))


def test_the_title_is_registered_from_its_folder() -> None:
    assert get_rules("colorado-2023") is RULES
    assert RULES.slug != "colorado-county"


def test_co8_set_up_hands_grow_by_seat_and_each_play_area_holds_one_card() -> None:
    s = RULES.setup(4, "seed")
    assert [len(p.hand) for p in s.players] == [4, 5, 6, 7]
    assert all(len(p.area) == 1 and p.nuggets == 3 for p in s.players)
    assert len(s.deck) == 54 - 22 - 4
    assert RULES.to_act(s) == frozenset(range(4))


def test_co9_each_seat_starts_in_a_town_then_seat_0_calls() -> None:
    s = started(3)
    assert [p.flags for p in s.players] == [("T1",), ("T2",), ("T1",)]
    assert s.phase == "call"
    assert RULES.to_act(s) == frozenset({0})
    assert RULES.view(s, 1)["players"][0]["flag_points"] == 1  # the red track's first box


def test_the_exact_card_is_given_when_held() -> None:
    s = with_hands(started(), ("grey-1",), ("blue-2", "red-2", "red-3"))
    s, events = RULES.apply(s, 0, {"type": "call", "seat": 1, "card": "red-2"})
    assert "red-2" in s.players[0].area
    assert s.players[1].hand == ("blue-2", "red-3")
    assert s.phase == "action"
    assert s.action == "nugget"
    assert any(e["type"] == "answered" and e["how"] == "exact" for e in events)


def test_co11_with_several_matches_the_called_seat_chooses_on_its_own_turn() -> None:
    s = with_hands(started(), ("grey-1",), ("blue-2", "red-1", "red-3"))
    s, _ = RULES.apply(s, 0, {"type": "call", "seat": 1, "card": "red-2"})
    assert s.phase == "answer"
    assert RULES.to_act(s) == frozenset({1})
    gives = [a for a in RULES.legal_actions(s, 1) if a["type"] == "give"]
    assert [a["card"] for a in gives] == ["red-1", "blue-2", "red-3"]
    with pytest.raises(IllegalAction):
        RULES.apply(s, 1, {"type": "give", "card": "grey-1"})
    s, _ = RULES.apply(s, 1, {"type": "give", "card": "blue-2"})
    assert s.action == "check"
    assert "blue-2" in s.players[0].area


def test_co11_a_standing_answer_gives_without_waiting() -> None:
    s = with_hands(started(), ("grey-1",), ("blue-2", "red-1", "red-3"))
    s = s.put(1, s.players[1].with_(standing="high"))
    s, events = RULES.apply(s, 0, {"type": "call", "seat": 1, "card": "red-2"})
    assert s.phase == "action"
    assert "red-3" in s.players[0].area
    assert events[-2]["how"] == "standing"
    hidden = [e for e in events if e["type"] == "my_standing"]
    assert hidden == []  # the standing answer itself stays private


def test_the_help_page_random_card_when_nothing_matches() -> None:
    s = with_hands(started(), ("grey-1",), ("blue-1", "green-3"))
    s, events = RULES.apply(s, 0, {"type": "call", "seat": 1, "card": "red-2"})
    answered = next(e for e in events if e["type"] == "answered")
    assert answered["how"] == "random"
    assert answered["card"] in ("blue-1", "green-3")


def test_a_card_already_in_the_play_area_is_discarded_for_a_nugget() -> None:
    s = with_hands(started(), ("grey-1",), ("red-2",))
    s = s.put(0, s.players[0].with_(area=("red-2",)))
    s, _ = RULES.apply(s, 0, {"type": "call", "seat": 1, "card": "red-2"})
    assert s.players[0].area == ("red-2",)
    assert s.players[0].nuggets == 4
    assert s.discard[-1] == "red-2"


def test_bad_calls_are_refused_and_change_nothing() -> None:
    s = started()
    before = RULES.dump(s)
    for bad in (
        {"type": "call", "seat": 0, "card": "red-2"},
        {"type": "call", "seat": 1, "card": "red-4"},
        {"type": "call", "seat": True, "card": "red-1"},
        {"type": "give", "card": "red-1"},
        "call",
    ):
        with pytest.raises(IllegalAction):
            RULES.apply(s, 0, bad)
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(s, 1, {"type": "call", "seat": 0, "card": "red-1"})
    assert refused.value.code == "not_your_turn"
    assert RULES.dump(s) == before


def test_dump_and_load_round_trip() -> None:
    s = started(4)
    assert RULES.dump(RULES.load(RULES.dump(s))) == RULES.dump(s)
    with pytest.raises(ValueError, match="not a Colorado state"):
        RULES.load({"format": 1})
