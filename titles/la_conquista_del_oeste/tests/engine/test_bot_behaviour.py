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


def _aimless_moves(log: list[Record]) -> list[str]:
    """Moves of a fully equipped pawn (family with it) to a space farther from the Pacific
    in expected rolls when a nearer one was offered, unless the space has a bank, work
    or a shop (a reason the bot could name)."""
    bad = []
    for r in log:
        a, s = r["action"], r["state"]
        if a["type"] != "move":
            continue
        p = s.players[r["seat"]]
        if not p.complete() or p.family:
            continue
        lily = has_lily(p)
        leg = routes.plan(p.pos, p.outfit, p.money, p.family, lily)
        options = [m["to"] for m in G.legal_actions(s, r["seat"]) if m["type"] == "move"]
        here = leg.cost(p.pos)
        nearer = [c for c in options if leg.cost(c) < here]
        town = CITIES[a["to"]]
        named = town.bank or town.work or town.shops
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
        assert _aimless_moves(log) == []


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
    start = s.copy()
    start.round = s.round - search_hooks.HORIZON
    guess = search_hooks.playout_estimate(start, s)
    assert guess is not None
    assert guess[0] > guess[1]
    assert search_hooks.playout_estimate(s, s) is None  # not before the horizon


def test_a_decision_spends_its_share_of_the_move_budget() -> None:
    from games.engine.bots.search import SearchBot

    s = _scene_with({"oxen": 0, "revolver": 0, "provisions": 0, "wagon": 0}, "st_louis")
    assert len(search_hooks.search_actions(s, 0)) > 1
    bot = SearchBot(seconds=None, iterations=100, stop_when_decided=False)
    _action, stats = bot.search(G, s, 0, random.Random(1))  # noqa: S311 - the bot's dice
    assert stats.iterations == 100 * search_hooks.BUDGET["town"]
