"""The medium bot, ``greedy``: from its own view it scores each legal move by what it
brings at once (sets near completion in the play area, region points, track ends, flags
on the better tracks) and plays the best, with a little noise to break ties."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .data import (
    ACTION_OF,
    CARDS,
    FLAG_TRACK_POINTS,
    NEIGHBOURS,
    RAILWAY,
    REGION,
    TIPI_BOXES,
    colour_of,
    value_of,
)

Action = dict[str, Any]
BENEFIT_WORTH = {
    "": 0.0,
    "nugget": 1.2,
    "card": 1.2,
    "check": 2.0,
    "tipi": 1.0,
    "wanted": 1.3,
    "saloon": 1.3,
    "gold": 0.8,
}


def set_worth(area: Sequence[str], card: str) -> float:
    """How much ``card`` added to ``area`` helps towards a set of its colour."""
    if card in area:
        return -1.0
    have = sum(colour_of(c) == colour_of(card) for c in area)
    return (1.0, 3.0, 9.0)[min(have, 2)]


def rank_calls(
    area: Sequence[str], hands: Sequence[int], checks: bool, calls: list[Action]
) -> list[Action]:
    """Calls best first: a card that completes or grows a set, asked of a big hand, of
    the check colours when ``checks`` (a leg is waiting to be ticked)."""

    def worth(a: Action) -> float:
        card = a["card"]
        bonus = 1.5 if checks and ACTION_OF[colour_of(card)] == "check" else 0.0
        return set_worth(area, card) + bonus + 0.1 * hands[a["seat"]] - 0.01 * value_of(card)

    return sorted(calls, key=lambda a: (-worth(a), a["seat"], CARDS.index(a["card"])))


def tickable_legs_of(flags: Sequence[str], legs: Sequence[str]) -> bool:
    """Whether some leg hangs on a ticked flag or leg and is not ticked yet."""
    for rid in flags:
        r = REGION[rid]
        for i, parent in enumerate(r.parents):
            if r.leg(i) not in legs and (parent < 0 or r.leg(parent) in legs):
                return True
    return False


def _region_left(legs: Sequence[str], rid: str) -> int:
    r = REGION[rid]
    return sum(r.leg(i) not in legs for i in range(len(r.parents)))


def _flag_worth(me: dict[str, Any], rid: str) -> float:
    kind = REGION[rid].kind
    track = FLAG_TRACK_POINTS[kind]
    count = sum(REGION[f].kind == kind for f in me["flags"])
    gain = track[min(count + 1, len(track) - 1)] - track[count]
    open_near = sum(n not in me["flags"] for n in NEIGHBOURS[rid])
    return gain + REGION[rid].points / (1 + len(REGION[rid].parents)) + 0.3 * open_near


def _tipi_worth(me: dict[str, Any], direction: str) -> float:
    pos, ends = me["tipi"], me["ends"]
    target = "tipi_west" if direction == "west" else "tipi_east"
    if target in ends:
        return 0.2
    distance = pos if direction == "west" else TIPI_BOXES - 1 - pos
    return 2.0 / max(int(distance), 1)


def action_worth(me: dict[str, Any], a: Action, view: dict[str, Any]) -> float:
    t = a["type"]
    if t == "done":
        return 0.0
    if t == "take":
        return 1.0 + (0.5 if me["nuggets"] < 2 else 0.0)
    if t == "buy":
        c = a["card"]
        return (
            set_worth(me["area"], c)
            - 0.4 * value_of(c)
            + 0.8
            + (0.6 if ACTION_OF[colour_of(c)] == "check" else 0.0)
        )
    if t == "draw":
        return 2.2 if len(me["hand"]) < 5 else 1.0
    if t == "swap":
        c, pay = a["card"], a["pay"]
        kept = list(me["area"])
        loss = sum(0.3 + 0.2 * value_of(x) for x in pay)
        return set_worth(kept, c) + 0.8 - loss
    if t == "tick":
        rid, _, index = a["leg"].partition(".")
        r = REGION[rid]
        left = _region_left(me["legs"], rid)
        finish = r.points if left == 1 else r.points / (left + 1)
        return 2.0 + finish + BENEFIT_WORTH[r.benefits[int(index)]]
    if t == "rail":
        leg = RAILWAY[a["leg"]]
        return 2.2 + leg.points + BENEFIT_WORTH[leg.benefit]
    if t == "tipi":
        return _tipi_worth(me, a["dir"])
    if t == "flag":
        return _flag_worth(me, a["region"])
    if t == "start":
        return 1.0 if a["town"] == "T1" else 0.9
    return -5.0  # standing answers: the bot answers itself


def give_worth(me: dict[str, Any], caller_area: Sequence[str], card: str) -> float:
    """The lower, the better to give: what the card does for us and for the caller."""
    mine = sum(colour_of(c) == colour_of(card) for c in me["area"]) * 2.0 + value_of(card) * 0.2
    return mine + set_worth(caller_area, card)


class GreedyBot:
    name = "greedy"
    reads_view = True
    reads_state = False

    def choose(
        self, rules: Any, view: dict[str, Any], legal_actions: list[Action], rng: random.Random
    ) -> Action:
        me = next(p for p in view["players"] if "hand" in p)
        kind = legal_actions[0]["type"]
        if kind == "call":
            hands = [p["hand_size"] for p in view["players"]]
            checks = bool(tickable_legs_of(me["flags"], me["legs"]))
            return dict(rank_calls(me["area"], hands, checks, legal_actions)[0])
        if kind == "give":
            caller_area = view["players"][view["caller"]]["area"]
            gives = [a for a in legal_actions if a["type"] == "give"]
            return dict(min(gives, key=lambda a: give_worth(me, caller_area, a["card"])))
        best = max(legal_actions, key=lambda a: action_worth(me, a, view) + rng.random() * 0.05)
        return dict(best)
