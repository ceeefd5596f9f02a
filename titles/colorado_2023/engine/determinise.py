"""The search bot's hooks: ``determinise`` (the unseen hands and the deck rebuilt from what
a seat knows; the others' sealed action steps dropped), the moves the search considers,
the playouts' cheap policy, and where a playout stops to score the sheets as they stand."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import Generator

from . import endstep
from .actionstep import tickable_legs
from .cards import card_order
from .data import REGION, colour_of, full_deck
from .greedy_bot import rank_calls
from .state import State

Action = dict[str, Any]


def determinise(s: State, seat: int, rng: Generator) -> State:
    """A state ``seat`` cannot tell from ``s``. During the action step the others' sheets
    go back to how it began (their sealed moves are dropped: those still acting choose
    again, those done are taken to have passed). The cards ``seat`` cannot see (the
    others' hands and the deck) are dealt again at random from the cards not in sight."""
    players = list(s.players)
    if s.phase == "action":
        for q in range(s.n):
            if q != seat:
                shown = s.shown[q]
                players[q] = shown.with_(
                    done=s.players[q].done,
                    pending=() if s.players[q].done else (s.action,),
                    log=(),
                )
    unseen = Counter(full_deck())
    unseen.subtract(s.discard)
    for q, p in enumerate(players):
        unseen.subtract(p.area)
        if q == seat:
            unseen.subtract(p.hand)
            unseen.subtract(p.discards)
    pool = sorted(unseen.elements(), key=card_order)
    rng.shuffle(pool)
    for q, p in enumerate(players):
        if q != seat:
            k = len(p.hand)
            players[q] = p.with_(hand=tuple(sorted(pool[:k], key=card_order)))
            pool = pool[k:]
    return s.with_(players=tuple(players), deck=tuple(pool), rng=rng.getrandbits(64))


def search_actions(s: State, seat: int, legal: list[Action]) -> list[Action]:
    """The search leaves out the standing answers and weighs only the six most promising
    calls (by the medium bot's reckoning)."""
    moves = [a for a in legal if a["type"] != "standing"]
    if s.phase == "call":
        me = s.players[seat]
        hands = [len(p.hand) for p in s.players]
        return rank_calls(me.area, hands, bool(tickable_legs(me)), moves)[:6]
    return moves


def playout_action(legal: list[Action], rng: Generator) -> Action:
    """Uniform among the moves, but ``done`` only when nothing else is left (three times
    in four), so that playouts use their actions."""
    moves = [a for a in legal if a["type"] != "standing"]
    busy = [a for a in moves if a["type"] != "done"]
    if busy and rng.random() < 0.75:
        return busy[rng.randrange(len(busy))]
    return moves[rng.randrange(len(moves))]


#: Rounds a playout plays before ``playout_estimate`` scores the sheets as they stand.
HORIZON = 2


def estimate(start: State, s: State) -> list[float] | None:
    """Cut a playout ``HORIZON`` rounds after it began, at the start of a round: each
    seat's score so far plus what its sheet promises (regions under way by the share of
    their legs ticked, play-area colours towards a set, nuggets), and a bonus for the
    badges that bring the end nearer."""
    if s.round - start.round < HORIZON or s.phase != "call":
        return None
    out = []
    for p in s.players:
        value = float(endstep.score(p))
        ticked = set(p.legs)
        for rid in p.flags:
            r = REGION[rid]
            done = sum(r.leg(i) in ticked for i in range(len(r.parents)))
            if done < len(r.parents):
                value += 0.6 * r.points * done / len(r.parents)
        colours = Counter(colour_of(c) for c in p.area)
        value += sum(1.5 * (k - 1) for k in colours.values() if k >= 2)
        value += 0.3 * p.nuggets + 0.5 * len(p.badges) + 0.4 * len(p.flags)
        out.append(value)
    return out
