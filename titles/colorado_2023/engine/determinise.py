"""The search bot's hooks: ``determinise`` (the unseen hands and the deck rebuilt from what
a seat knows; the others' sealed action steps dropped), the moves the search considers,
and the playouts' policy."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import Generator

from . import actionstep
from .actionstep import tickable_legs
from .cards import card_order
from .data import ACTION_OF, colour_of, full_deck
from .greedy_bot import action_worth, give_worth, rank_calls
from .state import Player, State

Action = dict[str, Any]


def determinise(s: State, seat: int, rng: Generator) -> State:
    """A state ``seat`` cannot tell from ``s``. During the action step the others' sheets
    go back to how it began (their sealed moves are dropped: those still acting choose
    again in the search, those done play the step again as the medium bot would,
    ``_replay``, rather than be taken to have passed). The cards ``seat`` cannot see (the
    others' hands and the deck) are dealt again at random from the cards not in sight."""
    players = list(s.players)
    if s.phase == "action":
        for q in range(s.n):
            if q != seat:
                shown = s.shown[q]
                players[q] = shown.with_(done=s.players[q].done, pending=(s.action,), log=())
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
    if s.phase == "action":
        for q in range(s.n):
            if q != seat and players[q].done:
                players[q] = _replay(players[q], rng)
    return s.with_(players=tuple(players), deck=tuple(pool), rng=rng.getrandbits(64))


def _replay(p: Player, rng: Generator) -> Player:
    """A seat that is done with a sealed action step the searching seat has not seen: it
    did not pass, so it plays the step again (as the medium bot would, from the sheet the
    step began with and the hand dealt to it) and is done."""
    for _ in range(MAX_REPLAY):
        moves = actionstep.legal(p)
        me = _me(p)
        a = max(moves, key=lambda m: action_worth(me, m, {}) + rng.random() * 0.05)
        if a["type"] == "done":
            break
        p = actionstep.apply(p, a)
    return p.with_(done=True, pending=(), log=())


#: At most this many moves in a replayed action step.
MAX_REPLAY = 20
#: How many moves the search weighs at a decision: the medium bot's best few …
SEARCH_WIDTH = 3
#: … and of those only the ones the medium bot scores within this margin of its best.
SEARCH_MARGIN = 1.5


def _close(scored: list[tuple[float, Action]], width: int) -> list[Action]:
    """The best ``width`` moves (highest score first) within ``SEARCH_MARGIN`` of the best."""
    scored = sorted(scored, key=lambda sa: -sa[0])[:width]
    return [a for v, a in scored if v >= scored[0][0] - SEARCH_MARGIN]


def search_actions(s: State, seat: int, legal: list[Action]) -> list[Action]:
    """The search weighs only the close calls: the medium bot's best three moves that it
    scores nearly as well as its best, never a standing answer. Where the medium bot sees
    one clear best move, that is the only candidate and the search plays it at once; with
    the playouts this engine affords in a couple of seconds, a wider choice left it
    picking among noise (docs/figures.md). At a call, the medium bot's best call of each
    action type: the card named sets the round's action for every seat, which the medium
    bot's scoring of the call (a card for its own sets) does not weigh."""
    moves = [a for a in legal if a["type"] != "standing"]
    p = s.players[seat]
    if s.phase == "call":
        hands = [len(q.hand) for q in s.players]
        ranked = rank_calls(p.area, hands, bool(tickable_legs(p)), moves)
        out: list[Action] = []
        kinds: set[str] = set()
        for a in ranked:  # the medium bot's best call of each action type
            kind = ACTION_OF[colour_of(a["card"])]
            if kind not in kinds:
                kinds.add(kind)
                out.append(a)
        return out
    if s.phase == "answer":
        caller = s.players[s.caller].area
        return _close([(-give_worth(_me(p), caller, a["card"]), a) for a in moves], 3)
    me = _me(p)
    return _close([(action_worth(me, a, {}), a) for a in moves], SEARCH_WIDTH)


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


#: The share of a playout's moves played at random (the rest are the medium bot's).
PLAYOUT_RANDOM = 0.05


def playout_action(s: State, seat: int, legal: list[Action], rng: Generator) -> Action:
    """The medium bot's move (scored from the state, without building a view), but for
    ``PLAYOUT_RANDOM`` of the moves a uniform one other than a standing answer or, if
    possible, "done": the opponent the search meets most is the medium bot, so playouts
    by its policy show what a move leads to against it."""
    moves = [a for a in legal if a["type"] != "standing"]
    if rng.random() < PLAYOUT_RANDOM:
        busy = [a for a in moves if a["type"] != "done"] or moves
        return busy[rng.randrange(len(busy))]
    p = s.players[seat]
    kind = moves[0]["type"]
    if kind == "call":
        hands = [len(q.hand) for q in s.players]
        return rank_calls(p.area, hands, bool(tickable_legs(p)), moves)[0]
    if kind == "give":
        caller = s.players[s.caller].area
        return min(moves, key=lambda a: give_worth(_me(p), caller, a["card"]))
    me = _me(p)
    return max(moves, key=lambda a: action_worth(me, a, {}) + rng.random() * 0.05)
