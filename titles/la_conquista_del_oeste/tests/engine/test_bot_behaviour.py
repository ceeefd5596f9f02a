"""What a player would hold against a bot (issue 40): selling in a turn what it bought that
turn, buying back what it sold, travelling away from the Pacific with a full outfit for
no reason it could name. Whole games, the medium (greedy) and hard (search) bots."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.bots import choose_action, get_bot
from titles.la_conquista_del_oeste.engine import RULES as G
from titles.la_conquista_del_oeste.engine import routes, search_hooks
from titles.la_conquista_del_oeste.engine.data import CITIES
from titles.la_conquista_del_oeste.engine.rules import has_lily
from titles.la_conquista_del_oeste.engine.state import State

Record = dict[str, Any]


def _play(bot_name: str, players: int, seed: str, cap: int = 4000) -> list[Record]:
    """Play one game with ``bot_name`` in every seat; one record per bot action, with the
    state it was chosen in."""
    bot = get_bot(G.slug, bot_name, iterations=12)
    s = G.setup(players, seed, {"round_limit": 30})
    rngs = [random.Random(f"{seed}:{q}") for q in range(players)]  # noqa: S311 - a bot's dice
    out: list[Record] = []
    while not G.is_over(s) and len(out) < cap:
        q = min(G.to_act(s))
        action = choose_action(bot, G, s, q, rngs[q])
        out.append({"seat": q, "state": s, "action": action, "turn": (s.round, s.seat)})
        s, _ = G.apply(s, q, action)
    return out


def _round_trips(log: list[Record]) -> list[str]:
    """Every sale of an item bought the same turn, and every purchase of an item the seat
    sold before (in that game)."""
    bought: dict[tuple[int, tuple[int, int]], set[str]] = {}
    sold: dict[int, set[str]] = {}
    bad = []
    for r in log:
        a, q = r["action"], r["seat"]
        if a["type"] == "buy":
            if a["item"] in sold.get(q, set()):
                bad.append(f"seat {q} bought back {a['item']} in round {r['turn'][0]}")
            bought.setdefault((q, r["turn"]), set()).add(a["item"])
        elif a["type"] == "sell":
            if a["item"] in bought.get((q, r["turn"]), set()):
                bad.append(f"seat {q} sold the {a['item']} it bought in round {r['turn'][0]}")
            sold.setdefault(q, set()).add(a["item"])
    return bad


def _aimless_moves(log: list[Record], careful: bool = False) -> list[str]:
    """Moves of a fully equipped pawn (family with it) to a space farther from the Pacific
    in expected rolls when a nearer one was offered, unless the space has a bank, work
    or a shop, or a rival stands there (a duel): a reason the bot could name. A
    ``careful`` bot (the hard one) may also name a road with fewer Incidents: a move
    nearer when an Incident space counts ``routes.CAREFUL_INCIDENT`` rolls is not
    aimless either."""
    bad = []
    for r in log:
        a, s = r["action"], r["state"]
        if a["type"] != "move":
            continue
        p = s.players[r["seat"]]
        if not p.complete() or p.family:
            continue
        lily = has_lily(p)
        options = [m["to"] for m in G.legal_actions(s, r["seat"]) if m["type"] == "move"]
        nearer: set[str] = set()
        for road in {False, careful}:
            leg = routes.plan(p.pos, p.outfit, p.money, p.family, lily, road)
            here = leg.cost(p.pos)
            nearer |= {c for c in options if leg.cost(c) < here}
        town = CITIES[a["to"]]
        rivals = {q.pos for k, q in enumerate(s.players) if k != r["seat"] and not q.jail}
        named = town.bank or town.work or town.shops or a["to"] in rivals
        if nearer and a["to"] not in nearer and not named:
            bad.append(f"seat {r['seat']} went from {p.pos} to {a['to']}, away from the Pacific")
    return bad


@pytest.mark.parametrize("players", [2, 4])
def test_the_medium_bot_never_sells_at_a_loss_nor_wanders(players: int) -> None:
    for g in range(6):
        log = _play("greedy", players, f"behaviour-{players}-{g}")
        assert _round_trips(log) == []
        assert _aimless_moves(log) == []
        assert not any(r["action"]["type"] == "sell" for r in log)


def test_the_hard_bot_never_sells_at_a_loss_nor_wanders() -> None:
    for g in range(2):
        log = _play("search", 2, f"hard-behaviour-{g}")
        assert _round_trips(log) == []
        assert _aimless_moves(log, careful=True) == []


def _scene_with(outfit: dict[str, int], city: str) -> State:
    s = G.setup(2, "hooks")
    s = s.copy()
    s.phase, s.seat = "town", 0
    s.players[0].pos = city
    s.players[0].outfit = dict(outfit)
    s.players[0].money = 1500
    return s


def test_the_search_never_weighs_a_sale_a_second_item_or_a_step_back() -> None:
    s = _scene_with({"oxen": 1, "revolver": 0, "provisions": 0, "wagon": 0}, "st_louis")
    kinds = {(a["type"], a.get("item")) for a in search_hooks.search_actions(s, 0)}
    assert ("buy", "revolver") in kinds
    assert ("buy", "oxen") not in kinds  # held already
    assert not any(k == "sell" for k, _ in kinds)
    full = _scene_with({"oxen": 1, "revolver": 1, "provisions": 1, "wagon": 1}, "denver")
    full.phase, full.steps = "move", 6
    dests = [a["to"] for a in search_hooks.search_actions(full, 0) if a["type"] == "move"]
    assert dests
    assert all(routes.to_pacific(c) < routes.to_pacific("denver") for c in dests)


def test_the_playout_estimate_ranks_the_player_nearer_the_pacific_first() -> None:
    s = _scene_with({"oxen": 1, "revolver": 1, "provisions": 1, "wagon": 1}, "sacramento")
    s.players[1].pos = "boston"
    left = [search_hooks.remaining(p) for p in s.players]
    assert left[0] < left[1]
    assert search_hooks.win_chance(left[0], left[1]) > 0.95
    start = s.copy()
    start.round = s.round - search_hooks.HORIZON
    guess = search_hooks.playout_estimate(start, s)
    assert guess is not None
    assert guess[0] >= guess[1]
    assert search_hooks.playout_estimate(s, s) is None  # not before the horizon
    four = G.setup(4, "hooks-4").copy()
    four.players[2].pos, four.players[2].outfit = "sacramento", dict(s.players[0].outfit)
    four.round = start.round + search_hooks.HORIZON
    guess = search_hooks.playout_estimate(start, four)
    assert guess is not None
    assert max(guess) == guess[2]


def test_two_seats_are_scored_by_their_chance_to_win() -> None:
    """The two-seat estimate is a win or a tie drawn so that its mean is the chance."""
    s = _scene_with({"oxen": 1, "revolver": 1, "provisions": 1, "wagon": 0}, "denver")
    s.players[1].pos = "nashville"
    s.players[1].outfit = {"oxen": 1, "revolver": 1, "provisions": 1, "wagon": 1}
    start = s.copy()
    start.round = s.round - search_hooks.HORIZON
    left = [search_hooks.remaining(p) for p in s.players]
    chance = search_hooks.win_chance(left[0], left[1], 0.5 if s.seat == 0 else -0.5)
    assert 0.1 < chance < 0.9
    draws = []
    for k in range(2000):
        s.rng = k
        guess = search_hooks.playout_estimate(start, s)
        assert guess in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])
        draws.append(guess[0])
    assert abs(sum(draws) / len(draws) - chance) < 0.03
    assert search_hooks.win_chance(10, 10) == 0.5
    assert search_hooks.win_chance(10, 10, 0.5) > 0.5 > search_hooks.win_chance(12, 10)


def test_buying_a_missing_item_where_it_is_sold_never_looks_worse() -> None:
    """The estimate counts a tour of the shops still needed: the wagon bought in a town
    that does not sell the revolver also missing is a step forward, not a detour (it was
    more than a roll). A stop the tour needs pays no toll, so a little is allowed: at most
    the toll of one stop."""
    for city, zone in (("san_antonio", "west"), ("st_louis", "east"), ("boston", "east")):
        for held in ((), ("oxen",), ("oxen", "provisions")):
            outfit = {i: int(i in held) for i in ("oxen", "revolver", "provisions", "wagon")}
            s = _scene_with(outfit, city)
            p = s.players[0]
            p.money = 5000
            if zone == "west":
                p.family = city
            for item in CITIES[city].shops:
                if outfit[item]:
                    continue
                after = p.copy()
                after.outfit[item] = 1
                after.money -= 500
                slack = max(routes.TOLL.values())
                assert search_hooks.remaining(after) <= search_hooks.remaining(p) + slack, (
                    city,
                    held,
                    item,
                )


def test_the_search_weighs_the_medium_move_and_the_race_changing_ones_only() -> None:
    s = _scene_with({"oxen": 1, "revolver": 1, "provisions": 0, "wagon": 0}, "richmond")
    s.players[1].pos = "boston"
    assert search_hooks.search_actions(s, 0) == [_greedy_move(s, 0)]  # work, or roll
    s.phase, s.steps = "move", 6
    rival = next(a["to"] for a in G.legal_actions(s, 0) if a["type"] == "move")
    s.players[1].pos = rival
    weighed = search_hooks.search_actions(s, 0)
    assert weighed[0] == _greedy_move(s, 0)
    assert {"type": "move", "to": rival} in weighed  # to duel there
    s.players[0].outfit["revolver"] = 0
    assert search_hooks.search_actions(s, 0) == [_greedy_move(s, 0)] or rival == (
        _greedy_move(s, 0).get("to")
    )


def _greedy_move(s: State, seat: int) -> dict[str, Any]:
    bot = get_bot(G.slug, "greedy")
    return choose_action(bot, G, s, seat, random.Random(0))  # noqa: S311 - unused dice


def test_the_hard_bot_takes_an_item_from_an_unarmed_rival_in_its_town() -> None:
    """A rival without a revolver loses a duel for sure: it gives up the item and misses
    three turns. The medium bot never duels; the hard one does, for an item it lacks."""
    from games.engine.bots.search import SearchBot

    s = _scene_with({"oxen": 1, "revolver": 1, "provisions": 0, "wagon": 0}, "richmond")
    s.players[1].pos = "richmond"
    s.players[1].outfit = {"oxen": 1, "revolver": 0, "provisions": 1, "wagon": 1}
    assert _greedy_move(s, 0)["type"] != "duel"
    bot = SearchBot(seconds=None, iterations=100)
    action, _stats = bot.search(G, s, 0, random.Random(3))  # noqa: S311 - the bot's dice
    assert action == {"type": "duel", "kind": "steal", "target": 1, "item": "provisions"}


def test_a_decision_spends_its_share_of_the_move_budget() -> None:
    """A turn's searched decisions (in town, the move, after it) share one move's budget,
    so a bot's turn thinks about as long as one Colorado County move."""
    from games.engine.bots.search import SearchBot

    assert sum(search_hooks.BUDGET.values()) <= 1.0
    s = _scene_with({"oxen": 0, "revolver": 0, "provisions": 0, "wagon": 0}, "st_louis")
    assert len(search_hooks.search_actions(s, 0)) > 1
    bot = SearchBot(seconds=None, iterations=100, stop_when_decided=False)
    _action, stats = bot.search(G, s, 0, random.Random(1))  # noqa: S311 - the bot's dice
    assert stats.iterations == 100 * search_hooks.BUDGET["town"]


def test_the_hard_bot_buys_a_spare_where_the_medium_bot_rolls() -> None:
    """With a complete outfit and money, in a shop, the hard bot buys a second card of an
    item (the cheapest first), never a third: an Incident that takes one costs nothing."""
    full = {"oxen": 1, "revolver": 1, "provisions": 1, "wagon": 1}
    s = _scene_with(full, "st_louis")
    assert _greedy_move(s, 0)["type"] == "roll"
    assert search_hooks.search_actions(s, 0)[0] == {"type": "buy", "item": "provisions"}
    s.players[0].outfit["provisions"] = 2
    assert search_hooks.search_actions(s, 0)[0] == {"type": "buy", "item": "revolver"}
    s.players[0].outfit = dict.fromkeys(full, 2)
    assert search_hooks.search_actions(s, 0)[0] == {"type": "roll"}
    s.players[0].outfit = dict(full)
    s.players[0].money = 100  # too poor for any spare
    assert search_hooks.search_actions(s, 0)[0] == _greedy_move(s, 0)


def test_the_equipped_hard_bot_plays_a_free_card_of_an_item_it_holds_as_a_spare() -> None:
    """An Opportunity card giving oxen, to a pawn with its outfit complete: the medium bot
    keeps it (it plays one only for a missing item); the hard bot plays it at once, for
    a second card of oxen that costs nothing, never a third."""
    full = {"oxen": 1, "revolver": 1, "provisions": 1, "wagon": 1}
    s = _scene_with(full, "boston")
    s.players[0].hand = ["opp-07"]  # free oxen
    play = {"type": "play", "card": "opp-07"}
    assert _greedy_move(s, 0) != play
    assert search_hooks.search_actions(s, 0)[0] == play
    s.players[0].outfit["oxen"] = 2
    assert search_hooks.search_actions(s, 0)[0] != play


def test_the_equipped_hard_bot_goes_round_an_incident_space_the_medium_bot_stops_on() -> None:
    """Equipped in the West, an Incident can cost a card and the family's wait, a stay in
    the Indian prison or a turn: the hard bot weighs an Incident space at
    ``routes.CAREFUL_INCIDENT`` rolls and takes the road without one where the medium bot
    takes the shorter road through it. Before its outfit is complete it travels as the
    medium bot does."""
    full = {"oxen": 1, "revolver": 1, "provisions": 1, "wagon": 1}
    s = _scene_with(full, "santa_fe")
    s.players[1].pos = "boston"
    s.phase, s.steps = "move", 4
    assert _greedy_move(s, 0) == {"type": "move", "to": "durango"}
    assert CITIES["durango"].incident
    assert not CITIES["albuquerque"].incident
    assert search_hooks.search_actions(s, 0)[0] == {"type": "move", "to": "albuquerque"}
    s.players[0].outfit["wagon"] = 0
    s.players[0].family = "santa_fe"
    assert search_hooks.search_actions(s, 0)[0] == _greedy_move(s, 0)
