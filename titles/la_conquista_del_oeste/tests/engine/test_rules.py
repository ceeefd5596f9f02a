"""Scenario tests, one or more per rule of the rulebook and per ruling (LC-… ids in
``titles/la_conquista_del_oeste/docs/rules.md``)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import IllegalAction
from titles.la_conquista_del_oeste.engine import RULES as G
from titles.la_conquista_del_oeste.engine import rules as R
from titles.la_conquista_del_oeste.engine.data import CITIES, DATA
from titles.la_conquista_del_oeste.tests.engine.helpers import FULL, give_card, rigged, scene, types

NO_OPP = (3, 7, 11)


def dests(s: Any) -> set[str]:
    return {a["to"] for a in G.legal_actions(s, s.seat) if a["type"] == "move"}


def test_lc_2_players_start_by_their_roll_with_1500() -> None:
    s, events = G.setup_events(6, "start")
    placed = [e for e in events if e["type"] == "placed"]
    assert len(placed) == 6
    for e in placed:
        want = "boston" if e["total"] <= 5 else "norfolk" if e["total"] <= 8 else "charleston"
        assert e["city"] == want == s.players[e["seat"]].pos
    assert all(p.money == 1500 for p in s.players)


def test_lc_3_highest_opening_roll_plays_first_ties_roll_again() -> None:
    for seed in range(30):
        s, events = G.setup_events(4, seed)
        rolls = [e["totals"] for e in events if e["type"] == "opening_roll"]
        last = rolls[-1]
        top = max(last.values())
        assert [int(k) for k, v in last.items() if v == top] == [s.first]
        assert s.seat == s.first
        for earlier in rolls[:-1]:  # a tie made them roll again
            assert list(earlier.values()).count(max(earlier.values())) > 1


def test_lc_9_buy_and_sell_at_the_east_and_west_prices() -> None:
    s = scene(city="boston")
    s, _ev = G.apply(s, 0, {"type": "buy", "item": "oxen"})
    assert s.players[0].money == 1000
    assert s.players[0].outfit["oxen"] == 1
    s, _ = G.apply(s, 0, {"type": "sell", "item": "oxen"})
    assert s.players[0].money == 1250
    w = scene(city="independence", outfit=FULL)
    w, _ = G.apply(w, 0, {"type": "buy", "item": "wagon"})
    assert w.players[0].money == 1500 - 800
    poor = scene(city="boston", money=100)
    assert {"type": "buy", "item": "oxen"} not in G.legal_actions(poor, 0)
    with pytest.raises(IllegalAction) as info:
        G.apply(poor, 0, {"type": "buy", "item": "oxen"})
    assert info.value.code == "not_allowed"
    with pytest.raises(IllegalAction) as info:
        G.apply(scene(city="boston"), 0, {"type": "buy", "item": "wagon"})  # no wagon shop
    assert info.value.code == "not_allowed"


def test_lc_4_a_roll_moves_up_to_the_first_die_and_stops_at_the_first_town() -> None:
    s = rigged(scene(city="boston"), lambda d: d[0] == 2 and d[1] == 5)
    s, _ = G.apply(s, 0, {"type": "roll"})
    assert s.steps == 2  # the first die, not the higher
    assert s.phase == "move"
    # Boston's trails have no camps: the first town entered ends the move (LC-31).
    assert dests(s) == {"albany", "new_york"}
    s, _ = G.apply(s, 0, {"type": "move", "to": "new_york"})
    assert s.players[0].pos == "new_york"
    assert s.phase == "after"
    s, _ev = G.apply(s, 0, {"type": "end_turn"})
    assert s.seat == 1


def test_lc_31_a_move_goes_on_through_camps_up_to_the_die() -> None:
    s = rigged(scene(city="st_louis", outfit=FULL), lambda d: d[0] == 2 and sum(d) != 3)
    s, _ = G.apply(s, 0, {"type": "roll"})
    found = dests(s)
    assert "camp-st_louis-independence-2" in found  # two camps out on the trail
    assert "camp-st_louis-independence-3" not in found  # three lines away
    assert "springfield" in found
    assert "camp-springfield-des_moines-1" not in found
    t = rigged(scene(city="st_louis", outfit=FULL), lambda d: d[0] == 6 and sum(d) != 7)
    t, _ = G.apply(t, 0, {"type": "roll"})
    found = dests(t)
    # Liberty lies six lines out (five camps, LC-32), Independence eight (seven camps).
    assert "liberty" in found
    assert "independence" not in found
    assert "camp-st_louis-independence-6" in found
    # no line beyond a town: the pawn stops at the first town it enters
    assert not any(c in found for c in R.NB["liberty"] if CITIES[c].camp and "st_louis" not in c)


def test_lc_6_no_entry_to_the_west_without_a_complete_outfit() -> None:
    s = rigged(scene(city="st_louis"), lambda d: d[0] == 6)
    s, _ = G.apply(s, 0, {"type": "roll"})
    found = dests(s)
    assert found
    assert not any(CITIES[c].west for c in found)
    assert "camp-st_louis-independence-2" in found  # the trail's camps lie in the East
    t = rigged(scene(city="camp-st_louis-independence-6", outfit=FULL), lambda d: d[0] == 3)
    t, _ = G.apply(t, 0, {"type": "roll"})
    assert "independence" in dests(t)


def test_lc_5_roy_bean_without_lily_langtry_sends_to_his_prison() -> None:
    s = rigged(scene(city="san_antonio", outfit=FULL), lambda d: d[0] == 6 and sum(d) != 7)
    s, _ = G.apply(s, 0, {"type": "roll"})
    found = dests(s)
    assert "langtry" in found  # five lines away (four camps, LC-32)
    # No passing through the judge's city (nor any town, LC-31).
    assert not any(c.startswith("camp-langtry") or c == "el_paso" for c in found)
    s, ev = G.apply(s, 0, {"type": "move", "to": "langtry"})
    p = s.players[0]
    assert (p.pos, p.jail) == ("langtry", "roy_bean")
    assert p.outfit["revolver"] == 0
    assert "jailed" in types(ev)
    assert s.seat == 1


def test_lc_5_lily_langtry_lets_the_pawn_stop_at_the_judge() -> None:
    s = scene(city="san_antonio", outfit=FULL)
    give_card(s, 0, "lily_langtry")
    s = rigged(s, lambda d: d[0] == 5 and sum(d) not in NO_OPP)
    s, _ = G.apply(s, 0, {"type": "roll"})
    s, _ = G.apply(s, 0, {"type": "move", "to": "langtry"})
    assert s.players[0].jail == ""
    assert s.phase == "after"
    without = rigged(scene(city="langtry", outfit={**FULL, "oxen": 2}), lambda d: d[0] == 1)
    without, _ = G.apply(without, 0, {"type": "roll"})
    found = dests(without)
    assert found == set(R.NB["langtry"])  # one line out


def test_lc_15_leaving_roy_beans_prison_on_a_double_then_a_normal_move() -> None:
    s = scene(city="langtry", outfit=FULL, jail="roy_bean")
    no = rigged(s, lambda d: d[0] != d[1] and sum(d) not in NO_OPP)
    no, ev = G.apply(no, 0, {"type": "roll"})
    assert no.players[0].jail == "roy_bean"
    assert no.seat == 1
    yes = rigged(s, lambda d: d[:2] == [2, 2] and max(d[2:]) == 3 and sum(d[2:]) != 7, k=4)
    yes, ev = G.apply(yes, 0, {"type": "roll"})
    assert types(ev)[:3] == ["prison_roll", "released", "rolled"]
    assert yes.players[0].jail == ""
    assert yes.phase == "move"
    assert yes.steps == 3
    assert "langtry" not in dests(yes)


def test_lc_12_prison_is_left_only_on_a_double() -> None:
    s = scene(city="new_york", jail="prison")
    assert G.legal_actions(s, 0) == [{"type": "roll"}]
    stay = rigged(s, lambda d: d[0] != d[1] and sum(d) not in NO_OPP)
    stay, _ = G.apply(stay, 0, {"type": "roll"})
    assert stay.players[0].jail == "prison"
    assert stay.seat == 1
    out = rigged(s, lambda d: d[0] == d[1] and sum(d[2:]) not in NO_OPP, k=4)
    out, _ev = G.apply(out, 0, {"type": "roll"})
    assert out.players[0].jail == ""
    assert out.players[0].pos == "new_york"
    assert out.phase == "move"


def test_lc_12_prison_rolls_draw_opportunity_cards() -> None:
    s = rigged(scene(city="new_york", jail="prison"), lambda d: sorted(d) == [3, 4])
    s, ev = G.apply(s, 0, {"type": "roll"})
    assert len(s.players[0].hand) == 1
    assert "opportunity_drawn" in types(ev)


def test_lc_8_robbery_success_pays_the_vault_and_draws_a_poster() -> None:
    s = scene(city="new_york", outfit={"revolver": 1, "oxen": 0, "provisions": 0, "wagon": 0})
    assert {"type": "rob"} in G.legal_actions(s, 0)
    ok = rigged(s, lambda d: sum(d) <= 7)
    ok, _ = G.apply(ok, 0, {"type": "rob"})
    p = ok.players[0]
    assert p.money == 1500 + 3000
    assert p.reward == 500
    assert G.legal_actions(ok, 0) == [{"type": "roll"}]  # must flee at once
    bad = rigged(s, lambda d: sum(d) >= 8)
    bad, _ev = G.apply(bad, 0, {"type": "rob"})
    assert bad.players[0].money == 1500
    assert bad.players[0].reward == 500
    no_gun = scene(city="new_york")
    assert {"type": "rob"} not in G.legal_actions(no_gun, 0)


def test_lc_8_a_failed_escape_goes_to_the_nearest_prison() -> None:
    s = scene(city="boston", outfit={"revolver": 2, "oxen": 1, "provisions": 0, "wagon": 0})
    s = rigged(s, lambda d: sum(d[:2]) <= 7 and max(d[2:]) < 3 and sum(d[2:]) != 3, k=4)
    s, _ = G.apply(s, 0, {"type": "rob"})
    s, ev = G.apply(s, 0, {"type": "roll"})
    p = s.players[0]
    assert "escape_failed" in types(ev)
    assert (p.pos, p.jail) == ("new_york", "prison")
    assert p.outfit["revolver"] == 0
    assert p.reward == 0
    assert p.money == 3000  # the loot is kept
    assert s.seat == 1


def test_lc_13_nearest_prison_is_fewest_edges_ties_by_data_order() -> None:
    assert R.nearest_prison("boston") == "new_york"
    assert R.nearest_prison("new_york") == "new_york"
    # Richmond: Washington is 1 edge away.
    assert R.nearest_prison("richmond") == "washington"
    # Baltimore: Washington at 1 edge, New York at 2.
    assert R.nearest_prison("baltimore") == "washington"
    # Philadelphia: New York and ... both at 1? New York 1, Washington 2.
    assert R.nearest_prison("philadelphia") == "new_york"
    # Pittsburgh: Washington and Columbus both at 1: Washington is listed first.
    assert R.nearest_prison("pittsburgh") == "washington"


def test_lc_7_railway_norfolk_st_louis_for_1500() -> None:
    s = scene(city="norfolk", money=1600)
    s, _ev = G.apply(s, 0, {"type": "rail"})
    assert s.players[0].pos == "st_louis"
    assert s.players[0].money == 100
    acts = G.legal_actions(s, 0)
    assert {"type": "rail"} not in acts  # once a turn
    assert {"type": "end_turn"} in acts  # the ride may be the turn's movement
    assert {"type": "buy", "item": "revolver"} not in acts  # 100 $ is too little
    poor = scene(city="st_louis", money=1400)
    assert {"type": "rail"} not in G.legal_actions(poor, 0)
    after = rigged(scene(city="philadelphia", money=2000), lambda d: sum(d) not in NO_OPP)
    after.players[0].pos = "richmond"
    after, _ = G.apply(after, 0, {"type": "roll"})
    after, _ = G.apply(after, 0, {"type": "move", "to": "norfolk"})
    assert {"type": "rail"} in G.legal_actions(after, 0)  # or after the journey


def test_lc_10_work_pays_300_ends_the_turn_and_needs_a_new_visit() -> None:
    s = scene(city="boston")
    s, _ev = G.apply(s, 0, {"type": "work"})
    assert s.players[0].money == 1800
    assert s.seat == 1
    s.seat = 0
    s = s.copy()
    R.begin_turn(s, [])
    assert {"type": "work"} not in G.legal_actions(s, 0)


def test_lc_11_corrupt_sheriff_charges_on_arrival_and_while_remaining() -> None:
    s = rigged(scene(city="jacksonville"), lambda d: max(d) == 1 and sum(d) != 3)
    s, ev = G.apply(s, 0, {"type": "roll"})
    s, ev = G.apply(s, 0, {"type": "move", "to": "tallahassee"})
    assert s.players[0].money == 1000
    assert "sheriff_paid" in types(ev)


def test_lc_11_sheriff_charges_again_on_the_next_turn_and_never_below_zero() -> None:
    s = scene(n=2, seat=1, city="boston")
    s.players[0].pos = "tallahassee"
    s.players[0].money = 300
    s, ev = G.apply(s, 1, {"type": "work"})
    assert s.seat == 0
    assert s.players[0].money == 0
    assert any(e["type"] == "sheriff_paid" and e["amount"] == 300 for e in ev)


def test_lc_11_cardsharp_rigged_game_on_arrival() -> None:
    win = rigged(
        scene(city="atlanta"),
        lambda d: max(d[:2]) == 1 and sum(d[:2]) != 3 and sum(d[2:]) <= 5,
        k=4,
    )
    win, _ = G.apply(win, 0, {"type": "roll"})
    win, _ev = G.apply(win, 0, {"type": "move", "to": "montgomery"})
    assert win.players[0].money == 2000
    lose = rigged(
        scene(city="atlanta"), lambda d: max(d[:2]) == 1 and sum(d[:2]) != 3 and sum(d[2:]) > 5, k=4
    )
    lose, _ = G.apply(lose, 0, {"type": "roll"})
    lose, _ = G.apply(lose, 0, {"type": "move", "to": "montgomery"})
    assert lose.players[0].money == 1000


@pytest.mark.parametrize("total", [3, 7, 11])
def test_lc_18_opportunity_drawn_on_3_7_11(total: int) -> None:
    s = rigged(scene(city="boston"), lambda d: sum(d) == total)
    s, ev = G.apply(s, 0, {"type": "roll"})
    assert len(s.players[0].hand) == 1
    mine = [e for e in ev if e["type"] == "my_opportunity"]
    assert mine[0]["visible_to"] == [0]
    assert mine[0]["card"] == s.players[0].hand[0]


def test_lc_18_no_card_on_other_totals() -> None:
    s = rigged(scene(city="boston"), lambda d: sum(d) == 8)
    s, _ = G.apply(s, 0, {"type": "roll"})
    assert s.players[0].hand == []


def test_lc_18_a_fourth_card_puts_one_at_the_bottom_of_the_deck() -> None:
    s = scene(city="boston")
    for kind in ("lily_langtry", "pardon", "free_rail"):
        give_card(s, 0, kind)
    s = rigged(s, lambda d: sum(d) == 7)
    top = s.opp_deck[0]
    s, _ = G.apply(s, 0, {"type": "roll"})
    assert s.phase == "discard"
    assert len(s.players[0].hand) == 4
    acts = G.legal_actions(s, 0)
    assert {a["type"] for a in acts} == {"discard"}
    assert len(acts) == 4
    s, _ev = G.apply(s, 0, {"type": "discard", "card": top})
    assert s.opp_deck[-1] == top
    assert len(s.players[0].hand) == 3
    assert s.phase == "move"


def test_lc_18_playing_a_card_returns_it_to_the_deck() -> None:
    s = scene(city="boston")
    card = give_card(s, 0, "money")
    amount = DATA.opportunity[card].effect["amount"]
    s, _ev = G.apply(s, 0, {"type": "play", "card": card})
    assert s.players[0].money == 1500 + amount
    assert s.opp_deck[-1] == card
    assert s.players[0].hand == []


def test_lc_18_leave_prison_card() -> None:
    s = scene(city="new_york", jail="prison")
    card = give_card(s, 0, "leave_prison")
    s = rigged(s, lambda d: sum(d) not in NO_OPP)
    s, _ev = G.apply(s, 0, {"type": "play", "card": card})
    assert s.players[0].jail == ""
    assert s.phase == "move"


def test_lc_18_extra_steps_card_after_the_roll() -> None:
    s = scene(city="boston")
    card = give_card(s, 0, "extra_steps")
    assert {"type": "play", "card": card} not in G.legal_actions(s, 0)
    s = rigged(s, lambda d: max(d) == 1 and sum(d) != 3)
    s, _ = G.apply(s, 0, {"type": "roll"})
    s, _ = G.apply(s, 0, {"type": "play", "card": card})
    assert s.steps == 1 + DATA.opportunity[card].effect["steps"]


def _incident_scene(kind: str) -> tuple[object, str]:
    s = scene(city="liberty", outfit=FULL)
    card = next(c for c, v in DATA.incident.items() if v.effect["kind"] == kind)
    s.inc_deck.remove(card)
    s.inc_deck.insert(0, card)
    return rigged(s, lambda d: d[0] == 2 and sum(d) not in NO_OPP), card


def test_lc_19_incident_on_arriving_at_an_asterisk_space() -> None:
    s, card = _incident_scene("money")
    s, ev = G.apply(s, 0, {"type": "roll"})  # type: ignore[arg-type]
    s, ev = G.apply(s, 0, {"type": "move", "to": "st_joseph"})
    assert [e["card"] for e in ev if e["type"] == "incident"] == [card]
    assert s.inc_deck[-1] == card


def test_lc_19_remaining_on_an_asterisk_space_draws_nothing() -> None:
    s = scene(n=2, seat=1, city="boston")
    s.players[0].pos = "st_joseph"
    s.players[0].outfit = dict(FULL)
    s, ev = G.apply(s, 1, {"type": "work"})
    assert s.seat == 0
    assert "incident" not in types(ev)


def test_lc_19_indian_prison_card() -> None:
    s, _card = _incident_scene("indian_prison")
    s, _ = G.apply(s, 0, {"type": "roll"})  # type: ignore[arg-type]
    s, _ev = G.apply(s, 0, {"type": "move", "to": "st_joseph"})
    p = s.players[0]
    assert (p.pos, p.jail) == ("liberty", "indian")
    assert s.seat == 1


def test_lc_20_family_stays_when_the_outfit_is_lost_in_the_west() -> None:
    s, card = _incident_scene("lose_item")
    item = DATA.incident[card].effect["item"]
    s, _ = G.apply(s, 0, {"type": "roll"})  # type: ignore[arg-type]
    s, ev = G.apply(s, 0, {"type": "move", "to": "st_joseph"})
    p = s.players[0]
    assert p.outfit[item] == 0
    assert p.family == "st_joseph"
    assert "family_left" in types(ev)
    # The pawn may go on through the West to fetch what it lacks ...
    s, _ = G.apply(s, 0, {"type": "end_turn"})
    s.seat = 0
    s = rigged(s, lambda d: d[0] == 2 and sum(d) not in NO_OPP)
    s, _ = G.apply(s, 0, {"type": "roll"})
    assert "omaha" in dests(s)
    # ... and the family rejoins once the pawn is back with the outfit complete.
    s.players[0].outfit[item] = 1
    s, ev = G.apply(s, 0, {"type": "move", "to": "liberty"})
    s = rigged(s, lambda d: d[0] == 2 and sum(d) not in NO_OPP)
    s.phase = "town"
    quiet = next(c for c, v in DATA.incident.items() if v.effect["kind"] == "none")
    s.inc_deck.remove(quiet)
    s.inc_deck.insert(0, quiet)
    s, _ = G.apply(s, 0, {"type": "roll"})
    s, ev = G.apply(s, 0, {"type": "move", "to": "st_joseph"})
    assert s.players[0].family == ""
    assert "family_rejoined" in types(ev)


def test_lc_21_winning_on_an_arrival_point() -> None:
    s = rigged(scene(city="sacramento", outfit=FULL), lambda d: d[0] == 2 and sum(d) not in NO_OPP)
    s, _ = G.apply(s, 0, {"type": "roll"})
    s, _ev = G.apply(s, 0, {"type": "move", "to": "san_francisco"})
    assert G.is_over(s)
    assert s.winner == 0
    assert G.to_act(s) == frozenset()
    scores = G.result(s)
    assert scores[0] == 100
    assert scores[0] > scores[1]
    with pytest.raises(IllegalAction) as info:
        G.apply(s, 0, {"type": "end_turn"})
    assert info.value.code == "game_over"


def test_lc_21_no_win_while_the_family_waits_elsewhere() -> None:
    s = rigged(
        scene(city="sacramento", outfit=FULL, family="reno"),
        lambda d: d[0] == 2 and sum(d) not in NO_OPP,
    )
    s, _ = G.apply(s, 0, {"type": "roll"})
    s, _ = G.apply(s, 0, {"type": "move", "to": "san_francisco"})
    assert not G.is_over(s)


def _duel_scene(**target: object) -> object:
    s = scene(n=3, city="denver", outfit=FULL)
    q = s.players[1]
    q.pos = "denver"
    for k, v in target.items():
        setattr(q, k, v)
    return s


def test_lc_16_capture_duel_won_collects_the_reward() -> None:
    s = _duel_scene(reward=1000, outfit=dict(FULL))
    act = {"type": "duel", "kind": "capture", "target": 1}
    assert act in G.legal_actions(s, 0)  # type: ignore[arg-type]
    s = rigged(s, lambda d: d[0] + d[1] > d[2] + d[3], k=4)  # type: ignore[arg-type]
    s, _ev = G.apply(s, 0, act)
    assert s.players[0].money == 2500
    q = s.players[1]
    assert (q.pos, q.jail, q.reward, q.outfit["revolver"]) == ("denver", "prison", 0, 0)
    assert q.family == "denver"  # its outfit is now incomplete in the West


def test_lc_16_capture_duel_lost_costs_three_turns() -> None:
    s = _duel_scene(reward=500, outfit=dict(FULL))
    s = rigged(s, lambda d: d[0] + d[1] < d[2] + d[3], k=4)  # type: ignore[arg-type]
    s, _ev = G.apply(s, 0, {"type": "duel", "kind": "capture", "target": 1})
    assert s.players[0].skip == 3
    assert s.players[1].jail == ""
    assert s.seat == 1


def test_lc_16_capture_needs_a_revolver_and_no_poster_of_ones_own() -> None:
    s = _duel_scene(reward=500, outfit=dict(FULL))
    s.players[0].reward = 500  # type: ignore[attr-defined]
    assert not any(a.get("kind") == "capture" for a in G.legal_actions(s, 0))  # type: ignore[arg-type]
    t = _duel_scene(reward=500, outfit=dict(FULL))
    t.players[0].outfit["revolver"] = 0  # type: ignore[attr-defined]
    assert not any(a["type"] == "duel" for a in G.legal_actions(t, 0))  # type: ignore[arg-type]


def test_lc_16_unarmed_wanted_player_goes_to_prison_without_a_duel() -> None:
    s = _duel_scene(reward=500, outfit={"oxen": 1, "revolver": 0, "provisions": 0, "wagon": 0})
    s, ev = G.apply(s, 0, {"type": "duel", "kind": "capture", "target": 1})  # type: ignore[arg-type]
    assert s.players[1].jail == "prison"
    assert s.players[0].money == 2000
    assert [e["rolls"] for e in ev if e["type"] == "duel"] == [[]]


def test_lc_16_steal_duel_won_takes_the_card_and_a_poster() -> None:
    s = _duel_scene(outfit=dict(FULL))
    act = {"type": "duel", "kind": "steal", "target": 1, "item": "oxen"}
    assert {
        "type": "duel",
        "kind": "steal",
        "target": 1,
        "item": "revolver",
    } not in G.legal_actions(s, 0)  # type: ignore[arg-type]
    s = rigged(s, lambda d: d[0] + d[1] > d[2] + d[3], k=4)  # type: ignore[arg-type]
    s, _ev = G.apply(s, 0, act)
    assert s.players[0].outfit["oxen"] == 2
    assert s.players[0].reward == 500
    assert s.players[1].outfit["oxen"] == 0
    assert s.players[1].skip == 3
    assert s.players[1].family == "denver"


def test_lc_16_steal_duel_lost_pays_the_victim_and_jails_the_thief() -> None:
    s = _duel_scene(outfit=dict(FULL))
    s.players[0].reward = 500  # type: ignore[attr-defined]
    s = rigged(s, lambda d: d[0] + d[1] < d[2] + d[3], k=4)  # type: ignore[arg-type]
    s, _ev = G.apply(s, 0, {"type": "duel", "kind": "steal", "target": 1, "item": "wagon"})
    assert s.players[1].money == 1500 + 1000
    p = s.players[0]
    assert (p.jail, p.reward, p.outfit["revolver"]) == ("prison", 0, 0)
    assert s.seat == 1


def test_lc_16_duel_ties_are_rolled_again() -> None:
    s = _duel_scene(reward=500, outfit=dict(FULL))
    s = rigged(s, lambda d: d[0] + d[1] == d[2] + d[3] and d[4] + d[5] > d[6] + d[7], k=8)  # type: ignore[arg-type]
    s, ev = G.apply(s, 0, {"type": "duel", "kind": "capture", "target": 1})
    rolls = next(e["rolls"] for e in ev if e["type"] == "duel")
    assert len(rolls) == 2


def test_lc_14_surrender_in_a_city_with_a_prison() -> None:
    s = scene(
        city="new_york", reward=1000, outfit={"revolver": 1, "oxen": 1, "provisions": 0, "wagon": 0}
    )
    s, _ev = G.apply(s, 0, {"type": "surrender"})
    p = s.players[0]
    assert (p.jail, p.reward, p.outfit["revolver"], p.outfit["oxen"]) == ("prison", 0, 0, 1)
    assert {"type": "surrender"} not in G.legal_actions(scene(city="boston", reward=500), 0)


def test_lc_23_poker_alone_against_the_bank() -> None:
    s = scene(city="new_york")
    s.players[1].money = 50  # too poor to be invited
    assert {"type": "poker", "bet": 1000} in G.legal_actions(s, 0)
    won = rigged(s, lambda d: d[0] + d[1] > d[2] + d[3], k=4)
    won, ev = G.apply(won, 0, {"type": "poker", "bet": 350})
    assert won.players[0].money == 1850
    assert next(e for e in ev if e["type"] == "poker")["pot"] == 700
    assert not any(a["type"] == "poker" for a in G.legal_actions(won, 0))  # once a turn
    lost = rigged(s, lambda d: d[0] + d[1] < d[2] + d[3], k=4)
    lost, _ = G.apply(lost, 0, {"type": "poker", "bet": 1000})
    assert lost.players[0].money == 500
    for bet in (1050, 0, 75):
        with pytest.raises(IllegalAction) as info:
            G.apply(s, 0, {"type": "poker", "bet": bet})
        assert info.value.code == "bad_bet"


def test_lc_23_poker_invites_the_others_and_waits_only_for_them() -> None:
    s = scene(n=4, city="new_york")
    s.players[1].money = 100  # cannot cover the bet: not invited
    s.players[2].jail = "prison"  # a city prisoner cannot play
    s.players[2].pos = "chicago"
    s.players[3].pos = "seattle"  # anywhere on the map
    s, ev = G.apply(s, 0, {"type": "poker", "bet": 500})
    assert G.to_act(s) == frozenset({3})
    assert next(e for e in ev if e["type"] == "poker_announced")["invited"] == [3]
    with pytest.raises(IllegalAction) as info:
        G.apply(s, 0, {"type": "roll"})
    assert info.value.code == "waiting_for_poker"
    with pytest.raises(IllegalAction) as info:
        G.apply(s, 3, {"type": "roll"})
    assert info.value.code == "poker_answer_due"
    assert G.view(s, None)["poker"] == {"host": 0, "bet": 500, "waiting_for": [3], "joined": []}
    # Seat 3 joins; seat 3 rolls highest, then seat 0, the bank last.
    s = rigged(s, lambda d: d[2] + d[3] > d[0] + d[1] > d[4] + d[5], k=6)
    s, ev = G.apply(s, 3, {"type": "poker_answer", "join": True})
    poker = next(e for e in ev if e["type"] == "poker")
    assert poker["seats"] == [0, 3]
    assert poker["pot"] == 1500
    assert poker["winner"] == 3
    assert s.players[0].money == 1000
    assert s.players[3].money == 2500
    assert G.to_act(s) == frozenset({0})  # the host's turn goes on
    assert {"type": "roll"} in G.legal_actions(s, 0)


def test_lc_23_declined_poker_is_the_host_against_the_bank() -> None:
    s = scene(n=2, city="new_york")
    s, _ = G.apply(s, 0, {"type": "poker", "bet": 100})
    assert G.to_act(s) == frozenset({1})
    s = rigged(s, lambda d: d[0] + d[1] < d[2] + d[3], k=4)
    s, ev = G.apply(s, 1, {"type": "poker_answer", "join": False})
    assert next(e for e in ev if e["type"] == "poker")["winner"] == -1
    assert s.players[0].money == 1400
    assert s.players[1].money == 1500


def test_lc_23_roy_bean_prisoners_play_poker() -> None:
    s = scene(n=2, city="langtry", jail="roy_bean")
    assert {"type": "poker", "bet": 100} in G.legal_actions(s, 0)
    t = scene(n=2, city="new_york")
    t.players[1].pos, t.players[1].jail = "langtry", "roy_bean"
    t, _ = G.apply(t, 0, {"type": "poker", "bet": 100})
    assert G.to_act(t) == frozenset({1})
    with pytest.raises(IllegalAction) as info:
        G.apply(scene(n=2, city="boston"), 0, {"type": "poker_answer", "join": True})
    assert info.value.code == "not_invited"


def test_lc_17_missed_turns_are_skipped() -> None:
    s = scene(n=3, city="boston")
    s.players[1].skip = 2
    s, ev = G.apply(s, 0, {"type": "work"})
    assert s.seat == 2
    assert s.players[1].skip == 1
    assert "turn_missed" in types(ev)


def test_lc_27_the_game_ends_after_the_round_limit() -> None:
    s = G.setup(2, "limit", {"round_limit": 30})
    s = s.copy()
    s.round = 30
    s.seat = (s.first + 1) % 2
    s.phase = "town"
    s.players[s.seat].pos = "boston"
    s, ev = G.apply(s, s.seat, {"type": "work"})
    assert G.is_over(s)
    assert ev[-1]["type"] == "game_over"
    assert ev[-1]["reason"] == "round_limit"
    assert s.winner == -1


def test_lc_28_scores_rank_the_winner_first_then_by_distance() -> None:
    s = scene(n=3, city="sacramento")
    s.players[1].pos = "boston"
    s.players[2].pos = "denver"
    s.winner = 0
    assert R.scores(s) == [100, 99 - R._TO_ARRIVAL["boston"], 99 - R._TO_ARRIVAL["denver"]]


def test_refusals_have_stable_codes() -> None:
    s = scene(city="boston")
    cases = [
        (0, "roll", "bad_action"),
        (0, {"type": "fly"}, "unknown_action"),
        (0, {"type": "buy", "item": 3}, "bad_action"),
        (0, {"type": "roll", "x": 1}, "bad_action"),
        (7, {"type": "roll"}, "not_a_player"),
        (1, {"type": "roll"}, "not_your_turn"),
        (0, {"type": "move", "to": "boston"}, "not_allowed"),
        (0, {"type": "poker", "bet": 100}, "not_allowed"),
    ]
    for seat, action, code in cases:
        with pytest.raises(IllegalAction) as info:
            G.apply(s, seat, action)
        assert info.value.code == code, action
    with pytest.raises(IllegalAction) as info:
        G.query(s, 0, "anything", {})
    assert info.value.code == "unknown_query"


def _offer_scene() -> Any:
    s = scene(n=3, city="boston", outfit=FULL)
    card = give_card(s, 0, "pardon")
    return s, card


def test_lc_24_an_offer_is_seen_in_full_by_the_two_parties_only() -> None:
    s, card = _offer_scene()
    offer = {
        "type": "offer",
        "to": 1,
        "give": {"items": {"wagon": 1}, "cards": [card]},
        "take": {"money": 700},
    }
    assert any(a["type"] == "offer" for a in G.legal_actions(s, 0))
    s, ev = G.apply(s, 0, offer)
    assert next(e for e in ev if e["type"] == "offer_made")["give"]["cards"] == 1
    detail = next(e for e in ev if e["type"] == "offer_detail")
    assert detail["visible_to"] == [0, 1]
    assert G.view(s, 1)["offers"][0]["give"]["cards"] == [card]
    assert G.view(s, 2)["offers"][0]["give"]["cards"] == 1
    assert card not in str(G.view(s, 2))
    # The receiver answers on its own time, outside its turn.
    assert G.legal_actions(s, 1) == [
        {"type": "accept", "offer": 1},
        {"type": "refuse", "offer": 1},
    ]
    s, ev = G.apply(s, 1, {"type": "accept", "offer": 1})
    assert s.players[0].outfit["wagon"] == 0
    assert s.players[1].outfit["wagon"] == 1
    assert card in s.players[1].hand
    assert s.players[0].money == 2200
    assert s.players[1].money == 800
    assert s.offers == []
    assert s.seat == 0  # the offerer's turn goes on


def test_lc_24_refuse_withdraw_and_bad_offers() -> None:
    s, _ = _offer_scene()
    sell = {"type": "offer", "to": 2, "give": {"items": {"oxen": 1}}, "take": {"money": 600}}
    t, _ = G.apply(s, 0, sell)
    with pytest.raises(IllegalAction) as info:
        G.apply(t, 0, sell)
    assert info.value.code == "not_allowed"  # one open offer at a time
    with pytest.raises(IllegalAction) as info:
        G.apply(t, 1, {"type": "accept", "offer": 1})
    assert info.value.code == "not_your_offer"
    refused, ev = G.apply(t, 2, {"type": "refuse", "offer": 1})
    assert refused.offers == []
    assert "offer_refused" in types(ev)
    withdrawn, _ = G.apply(t, 0, {"type": "withdraw", "offer": 1})
    assert withdrawn.offers == []
    bad = [
        ({"to": 0, "give": {"money": 1}, "take": {}}, "bad_offer"),
        ({"to": 1, "give": {}, "take": {"cards": ["opp-01"]}}, "bad_offer"),
        ({"to": 1, "give": {"money": -5}, "take": {}}, "bad_offer"),
        ({"to": 1, "give": {}, "take": {}}, "bad_offer"),
        ({"to": 1, "give": {"items": {"wagon": 2}}, "take": {}}, "not_held"),
    ]
    for body, code in bad:
        with pytest.raises(IllegalAction) as info:
            G.apply(s, 0, {"type": "offer", **body})
        assert info.value.code == code, body


def test_lc_24_an_offer_that_cannot_be_paid_cannot_be_accepted() -> None:
    s, _ = _offer_scene()
    s.players[1].money = 100
    s, _ = G.apply(
        s, 0, {"type": "offer", "to": 1, "give": {"items": {"oxen": 1}}, "take": {"money": 600}}
    )
    assert G.legal_actions(s, 1) == [{"type": "refuse", "offer": 1}]
    with pytest.raises(IllegalAction) as info:
        G.apply(s, 1, {"type": "accept", "offer": 1})
    assert info.value.code == "offer_not_possible"


def test_lc_24_an_offer_lapses_at_the_end_of_the_offerers_next_turn() -> None:
    s, _ = _offer_scene()
    s.players[1].pos = s.players[2].pos = "boston"
    s, _ = G.apply(s, 0, {"type": "offer", "to": 1, "give": {"money": 100}, "take": {}})
    s, _ = G.apply(s, 0, {"type": "work"})  # end of the turn it was made in
    assert len(s.offers) == 1
    s, _ = G.apply(s, 1, {"type": "work"})
    s, _ = G.apply(s, 2, {"type": "work"})
    assert len(s.offers) == 1
    s = rigged(s, lambda d: max(d) == 1 and sum(d) != 3)
    s, _ = G.apply(s, 0, {"type": "roll"})
    s, _ = G.apply(s, 0, {"type": "move", "to": "albany"})
    s, ev = G.apply(s, 0, {"type": "end_turn"})
    assert s.offers == []
    assert "offer_lapsed" in types(ev)


def test_lc_24_an_offered_card_played_voids_the_offer() -> None:
    s = scene(n=2, city="boston")
    card = give_card(s, 0, "money")
    s, _ = G.apply(s, 0, {"type": "offer", "to": 1, "give": {"cards": [card]}, "take": {}})
    s, ev = G.apply(s, 0, {"type": "play", "card": card})
    assert s.offers == []
    assert "offer_void" in types(ev)


def test_lc_18_railway_pass_and_pardon_cards() -> None:
    s = scene(city="norfolk", money=0, reward=1000)
    rail = give_card(s, 0, "free_rail")
    pardon = give_card(s, 0, "pardon")
    assert {"type": "rail"} not in G.legal_actions(s, 0)  # no money for the fare
    s, _ = G.apply(s, 0, {"type": "play", "card": rail})
    assert s.players[0].pos == "st_louis"
    assert s.players[0].money == 0
    s, _ = G.apply(s, 0, {"type": "play", "card": pardon})
    assert s.players[0].reward == 0
    assert s.players[0].hand == []


def test_lc_7_the_railway_draws_nothing_and_triggers_no_drawing() -> None:
    s = scene(city="st_louis", money=2000)
    s, ev = G.apply(s, 0, {"type": "rail"})
    assert types(ev) == ["railway"]
    assert s.players[0].pos == "norfolk"
