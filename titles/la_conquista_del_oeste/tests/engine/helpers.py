"""Scenario and playout helpers (no script needed: ``play_game`` plays one game to the
end with the named bot in every seat)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine import _rng
from games.engine.bots.random_bot import RandomBot
from titles.la_conquista_del_oeste.engine import RULES as G
from titles.la_conquista_del_oeste.engine.data import DATA
from titles.la_conquista_del_oeste.engine.state import State

BOTS: dict[str, Any] = {"random": RandomBot(), "greedy": G.bots["greedy"]}
STEP_CAP = 6000
FULL = {"oxen": 1, "revolver": 1, "provisions": 1, "wagon": 1}


def dice_seq(rng: int, k: int) -> tuple[int, list[int]]:
    out = []
    for _ in range(k):
        rng, d = _rng.below(rng, 6)
        out.append(d + 1)
    return rng, out


def rigged(s: State, pred: Callable[[list[int]], bool], k: int = 2) -> State:
    """A copy of ``s`` whose generator's next ``k`` dice satisfy ``pred``."""
    for r in range(1, 200_000):
        if pred(dice_seq(r, k)[1]):
            t = s.copy()
            t.rng = r
            return t
    raise AssertionError("no generator state gives those dice")


def scene(n: int = 2, seat: int = 0, city: str = "boston", **player: Any) -> State:
    """A fresh game where ``seat`` is to play in its town phase at ``city``."""
    s = G.setup(n, "scene")
    s = s.copy()
    s.seat = s.first = seat
    s.phase, s.did, s.forced, s.steps, s.resume = "town", (), "", 0, ""
    p = s.players[seat]
    p.pos = city
    for k, v in player.items():
        setattr(p, k, dict(v) if isinstance(v, dict) else v)
    return s


def give_card(s: State, seat: int, kind: str) -> str:
    """Move the first Opportunity card of ``kind`` from the deck into ``seat``'s hand."""
    card = next(c for c in s.opp_deck if DATA.opportunity[c].effect["kind"] == kind)
    s.opp_deck.remove(card)
    s.players[seat].hand.append(card)
    return card


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def play_game(
    n: int, seed: str, bot: str = "random", check: Callable[[State, State], None] | None = None
) -> tuple[State, list[tuple[int, Any]]]:
    """Play one game to the end; return the final state and the ``(seat, action)`` log."""
    s = G.setup(n, seed)
    rng = random.Random(seed)  # noqa: S311
    moves: list[tuple[int, Any]] = []
    while not G.is_over(s):
        seat = min(G.to_act(s))
        legal = G.legal_actions(s, seat)
        action = BOTS[bot].choose(G, G.view(s, seat), legal, rng)
        t, _ = G.apply(s, seat, action)
        if check is not None:
            check(s, t)
        moves.append((seat, action))
        s = t
        assert len(moves) < STEP_CAP, "the game does not end"
    return s, moves
