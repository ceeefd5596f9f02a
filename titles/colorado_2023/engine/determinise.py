"""The search bot's hooks: ``determinise`` (the unseen hands and the deck rebuilt from what
a seat knows; the others' sealed action steps dropped), the moves the search considers,
and the playouts' policy."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import Generator

from .actionstep import tickable_legs
from .cards import card_order
from .data import full_deck
from .greedy_bot import action_worth, give_worth, rank_calls
from .state import Player, State

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


#: How many moves the search weighs at a decision: the medium bot's best few …
SEARCH_WIDTH = {"call": 4, "default": 3}
#: … and of those only the ones the medium bot scores within this margin of its best.
SEARCH_MARGIN = 1.5


def _close(scored: list[tuple[float, Action]], width: int) -> list[Action]:
    """The best ``width`` moves (highest score first) within ``SEARCH_MARGIN`` of the best."""
    scored = sorted(scored, key=lambda sa: -sa[0])[:width]
    return [a for v, a in scored if v >= scored[0][0] - SEARCH_MARGIN]


def search_actions(s: State, seat: int, legal: list[Action]) -> list[Action]:
    """The search weighs only the close calls: the medium bot's best few moves (four
    calls, three of any other kind) that it scores nearly as well as its best, never a
    standing answer. Where the medium bot sees one clear best move, that is the only
    candidate and the search plays it at once; with the playouts this engine affords in a
    couple of seconds, a wider choice left it picking among noise (docs/figures.md)."""
    moves = [a for a in legal if a["type"] != "standing"]
    p = s.players[seat]
    if s.phase == "call":
        hands = [len(q.hand) for q in s.players]
        ranked = rank_calls(p.area, hands, bool(tickable_legs(p)), moves)
        return [
            a for a in ranked[: SEARCH_WIDTH["call"]] if a["card"][:-2] == ranked[0]["card"][:-2]
        ] or ranked[:1]
    if s.phase == "answer":
        caller = s.players[s.caller].area
        return _close([(-give_worth(_me(p), caller, a["card"]), a) for a in moves], 3)
    me = _me(p)
    return _close([(action_worth(me, a, {}), a) for a in moves], SEARCH_WIDTH["default"])


def _me(p: Player) -> dict[str, Any]:
    """The few fields of a seat's view the medium bot's scoring reads."""
    return {
        "area": p.area,
        "hand": p.hand,
        "nuggets": p.nuggets,
        "legs": p.legs,
        "flags": p.flags,
        "tipi": p.tipi,
        "ends": p.ends,
    }


def playout_action(s: State, seat: int, legal: list[Action], rng: Generator) -> Action:
    """The medium bot's choice three times in four (scored from the state, without a
    view), else a uniform move other than a standing answer or, if possible, "done"."""
    moves = [a for a in legal if a["type"] != "standing"]
    if rng.random() < 0.25:
        busy = [a for a in moves if a["type"] != "done"] or moves
        return busy[rng.randrange(len(busy))]
    p = s.players[seat]
    kind = moves[0]["type"]
    if kind == "call":
        hands = [len(q.hand) for q in s.players]
        ranked = rank_calls(p.area, hands, bool(tickable_legs(p)), moves)
        return ranked[rng.randrange(min(3, len(ranked)))]
    if kind == "give":
        caller = s.players[s.caller].area
        return min(moves, key=lambda a: give_worth(_me(p), caller, a["card"]))
    me = _me(p)
    return max(moves, key=lambda a: action_worth(me, a, {}) + rng.random() * 0.05)
