"""Helpers for the engine tests: scenario builders and a random player.

Scenario builders edit a private copy of the internal state directly (tests only), keeping
the cowboy invariant: the bag is recomputed as everything no hand holds.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from games.engine import IllegalAction
from titles.colorado_county.engine import RULES, board
from titles.colorado_county.engine.data import CARD_INDEX, CARDS, COLOUR_INDEX
from titles.colorado_county.engine.state import State

G = RULES
ALL_COWBOYS = sum(1 << c for c in range(1, 67))


def new(n: int = 4, seed: int | str = 1, **options: str) -> State:
    return G.setup(n, seed, options or None)


def mask(cells: Iterable[str]) -> int:
    return sum(1 << board.CELL_INDEX[c] for c in cells)


def cows(nums: Iterable[int]) -> int:
    return sum(1 << c for c in nums)


def set_hands(s: State, hands: Mapping[int, Iterable[int]]) -> State:
    s = s.copy()
    for seat, nums in hands.items():
        m = cows(nums)
        for other in range(s.n):
            s.hands[other] &= ~m
        s.hands[seat] = m
    held = 0
    for h in s.hands:
        held |= h
    s.bag = ALL_COWBOYS & ~held
    return s


def set_board(
    s: State,
    markers: Mapping[int, Iterable[str]] | None = None,
    flags: Mapping[str, Iterable[str]] | None = None,
) -> State:
    s = s.copy()
    if markers is not None:
        s.markers = [0] * s.n
        for seat, cells in markers.items():
            s.markers[seat] = mask(cells)
    if flags is not None:
        s.flags = [0, 0, 0, 0]
        for colour, cells in flags.items():
            s.flags[COLOUR_INDEX[colour]] = mask(cells)
    taken = 0
    for m in s.markers:
        taken |= m
    s.flags = [f & ~taken for f in s.flags]  # a marker replaces any flag on its cell
    return s


def finish_flags(s: State) -> State:
    """Place the remaining flags, each on the first legal cell offered."""
    while s.phase == "flags" and s.sale is None:
        seat = s.flag_turn
        act = next(a for a in G.legal_actions(s, seat) if a["type"] == "place_flag")
        s, _ = G.apply(s, seat, act)
    return s


def at_bid(
    n: int = 4,
    seed: int | str = 1,
    hands: Mapping[int, Iterable[int]] | None = None,
    face_up: Iterable[str] | None = None,
    **options: str,
) -> State:
    """A state in the bid phase of turn 1, optionally with chosen hands and face-up cards."""
    s = finish_flags(new(n, seed, **options))
    if hands:
        s = set_hands(s, hands)
    if face_up is not None:
        s = s.copy()
        s.face_up = tuple(CARD_INDEX[c] for c in face_up)
    return s


def bid_all(s: State, bids: Mapping[int, Iterable[int]]) -> tuple[State, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for seat, nums in bids.items():
        s, ev = G.apply(s, seat, {"type": "bid", "cowboys": list(nums)})
        events += ev
    return s, events


def card(cid: str) -> int:
    return CARD_INDEX[cid]


def card_colour(cid: str) -> str:
    return CARDS[CARD_INDEX[cid]].colour


def illegal(s: State, seat: int, action: Any) -> IllegalAction:
    """Apply an action expected to be refused; check the state is unchanged."""
    before = G.dump(s)
    with pytest.raises(IllegalAction) as info:
        G.apply(s, seat, action)
    assert G.dump(s) == before
    assert info.value.code
    assert info.value.message
    return info.value


def rng(seed: int) -> random.Random:
    """A seeded generator for the tests' random players (not for secrets)."""
    return random.Random(seed)  # noqa: S311


# --- random player --------------------------------------------------------------------


def random_move(s: State, rnd: random.Random, sell_chance: float = 0.03) -> tuple[int, Any]:
    """A random legal (seat, action): random subsets for bids, occasional sales and bid
    replacements by seats that already bid."""
    if rnd.random() < sell_chance:
        seat = rnd.randrange(s.n)
        sells = [a for a in G.legal_actions(s, seat) if a["type"] == "sell"]
        if sells:
            return seat, rnd.choice(sells)
    to_act = sorted(G.to_act(s))
    if s.phase == "bid" and s.sale is None and rnd.random() < 0.05:
        seat = rnd.randrange(s.n)  # may replace an earlier bid
    else:
        seat = rnd.choice(to_act)
    acts = [a for a in G.legal_actions(s, seat) if a["type"] != "sell"]
    if not acts:
        seat = rnd.choice(to_act)
        acts = [a for a in G.legal_actions(s, seat) if a["type"] != "sell"]
    act = rnd.choice(acts)
    if act["type"] in ("bid", "sale_bid"):
        pool = [a["cowboys"][0] for a in acts if a["cowboys"]]
        if act["type"] == "bid" and rnd.random() < 0.2:
            return seat, {"type": "bid", "cowboys": []}
        k = rnd.randint(1, len(pool))
        if rnd.random() < 0.7:
            k = min(k, rnd.randint(1, 4))
        return seat, {"type": act["type"], "cowboys": rnd.sample(pool, k)}
    return seat, act


def check_invariants(s: State, deep: bool = True) -> None:
    """Structural invariants, checked after every step of the fuzzer; ``deep`` also asks
    every seat in ``to_act`` for its legal actions."""
    total = s.bag
    for h in s.hands:
        assert not total & h, "a cowboy is in two places"
        total |= h
    assert total == ALL_COWBOYS, "66 cowboys are not all accounted for"
    for seat, b in enumerate(s.bids):
        if b is not None:
            assert b & ~s.hands[seat] == 0
    if s.sale is not None:
        for seat, b in enumerate(s.sale.sale_bids):
            if b is not None:
                assert b & ~s.hands[seat] == 0
    occupied = 0
    for m in [*s.markers, *s.flags]:
        assert not occupied & m, "two things on one cell"
        occupied |= m
    assert not occupied & s.layout.water, "something on a lake"
    if s.sale is not None:
        assert not occupied >> s.sale.cell & 1
    over = s.phase == "over"
    to_act = G.to_act(s)
    assert bool(to_act) != over
    for seat in to_act if deep else ():
        assert G.legal_actions(s, seat), f"seat {seat} must act but has no legal action"
    if s.phase == "claim" and s.sale is None:
        for c in s.face_up:  # CC-6.4
            assert s.flags[CARDS[c].colour_index]
    assert all(0 <= k <= 2 for k in s.sales_round)


def public_json(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)
