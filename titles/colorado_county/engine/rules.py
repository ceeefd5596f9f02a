"""State transitions of Colorado County (CC-2 .. CC-8, CC-10; lakes in ``lakes``, land
sales in ``sales``).

Every function here mutates the ``State`` it is given (always a private copy made by
``apply``/``setup``) and appends event dicts to ``ev``. The engine's own rulings, where the
rules page is silent (``titles/colorado_county/docs/rulings.md``):

- (a) a seat holding no cowboys at all bids the empty bid automatically;
- (b) the round's start player is the first to place flags (CC-4.2);
- (c) during a sale ``phase`` reads ``sale`` and the interrupted phase resumes after it;
- (d) sale interest and sale bids are sealed and may be replaced until the last is in;
- (e) draws happen after the claims (Article 4), clockwise from the start player;
- (f) flag colours are dealt at random from the seed (CC-4.1 constraints); with
  ``flags: random`` each seat in turn places its first held colour on a random legal cell;
- (g) a cell for sale belongs to nobody until the sale closes; lakes are re-evaluated then;
- (h) the cowboy paid by a single buyer is seen by buyer and seller only;
- (i) a claimer with no usable face-up card (only after CC-4.3) is skipped.
"""

from __future__ import annotations

from typing import Any, Final

from games.engine import _rng

from . import board
from .data import CARDS, COLOURS, DATA
from .lakes import random_lakes, update_lakes
from .scoring import rank_masks, score_round
from .state import State, replace_at

Event = dict[str, Any]
ALL: Final = "all"
CARD_COLOUR: Final[tuple[int, ...]] = tuple(c.colour_index for c in CARDS)


def cowboy_list(mask: int) -> list[int]:
    """The cowboys of ``mask``, ascending (``board.bits`` for the few of a bid)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_json(idx: int) -> dict[str, Any]:
    cid, colour, offset = _CARD_FIELDS[idx]
    return {"id": cid, "colour": colour, "offset": list(offset) if offset else None}


_CARD_FIELDS: Final = tuple((c.id, c.colour, c.offset) for c in CARDS)
# each colour's cards in card order, the piles before their shuffle
_PILES: Final = tuple(
    tuple(i for i, c in enumerate(CARDS) if c.colour_index == k) for k in range(4)
)


# --- randomness -----------------------------------------------------------------------


def rand_below(s: State, n: int) -> int:
    s.rng, r = _rng.below(s.rng, n)
    return r


def draw(s: State, seat: int, count: int, ev: list[Event], reason: str) -> None:
    """Draw up to ``count`` cowboys for ``seat`` (stops when the bag is empty, CC-5.5)."""
    got = 0
    pool = board.bits(s.bag)  # ascending; the k-th cowboy left in the bag is drawn
    r = s.rng
    below = _rng.below
    for _ in range(min(count, len(pool))):
        r, k = below(r, len(pool))
        got |= 1 << pool.pop(k)
    s.rng = r
    s.bag &= ~got
    s.hands[seat] |= got
    n = got.bit_count()
    ev.append(
        {
            "type": "cowboys_drawn",
            "visible_to": ALL,
            "seat": seat,
            "count": n,
            "wanted": count,
            "reason": reason,
        }
    )
    if n:
        ev.append(
            {
                "type": "cowboys_drawn_detail",
                "visible_to": [seat],
                "seat": seat,
                "cowboys": cowboy_list(got),
                "reason": reason,
            }
        )


# --- setup and rounds -----------------------------------------------------------------


def setup(n: int, seed: int | str, options: dict[str, str]) -> tuple[State, list[Event]]:
    rng = _rng.seed_to_state(seed)
    if options["lakes"] == "random":
        rng, lakes = random_lakes(rng)
    else:
        lakes = DATA.first_game_layout
    s = State(n, seed, rng, lakes, options)
    ev: list[Event] = []
    s.bag = sum(1 << c for c in range(1, DATA.cowboys + 1))
    s.sale_cards = (DATA.sale_cards[n],) * n
    piles = []
    for colour in range(4):
        pile = list(_PILES[colour])
        s.rng = _rng.shuffle(s.rng, pile)
        piles.append(tuple(pile))
    s.piles = tuple(piles)
    s.start_player = rand_below(s, n)
    ev.append(
        {
            "type": "game_started",
            "visible_to": ALL,
            "num_players": n,
            "start_player": s.start_player,
            "options": dict(options),
            "lakes": [
                {"id": lid, "cells": [board.CELL_NAMES[c] for c in cells]} for lid, cells in lakes
            ],
        }
    )
    for seat in range(n):
        draw(s, seat, DATA.starting_hand, ev, "setup")
    start_round(s, ev)
    return s, ev


def start_round(s: State, ev: list[Event]) -> None:
    s.round += 1
    s.turn = 0
    if s.round > 1:
        s.start_player = (s.start_player + 1) % s.n
    s.sales_round = (0,) * s.n
    stack: list[int] = []
    for pile in s.piles:
        stack.extend(pile[:3])
    s.piles = tuple(pile[3:] for pile in s.piles)
    s.rng = _rng.shuffle(s.rng, stack)
    s.stack = tuple(stack)
    s.face_up = ()
    s.last_bids = None
    ev.append(
        {
            "type": "round_started",
            "visible_to": ALL,
            "round": s.round,
            "start_player": s.start_player,
        }
    )
    deal_flags(s, ev)
    s.phase = "flags"
    s.flag_turn = s.start_player
    if s.flags_opt == "random":
        while s.phase == "flags":
            seat = s.flag_turn
            colour = next(c for c in range(4) if s.flag_hands[seat][c])
            cells = board.bits(flag_cells(s))
            cell = cells[rand_below(s, len(cells))] if cells else -1
            put_flag(s, seat, colour, cell, ev, random=True)
    else:
        advance_flags(s, ev, first=True)


def deal_flags(s: State, ev: list[Event]) -> None:
    """CC-4.1 with the colour rulings."""
    n = s.n
    hands: list[tuple[int, ...]]
    if n == 3:
        hands = [(1, 1, 1, 1)] * 3
    elif n == 4:
        missing = [0, 1, 2, 3]
        s.rng = _rng.shuffle(s.rng, missing)
        hands = [tuple(0 if c == missing[seat] else 1 for c in range(4)) for seat in range(4)]
    else:
        extra = [0, 1, 2, 3]
        s.rng = _rng.shuffle(s.rng, extra)
        hands = [
            tuple(2 if c in extra[:2] else 1 for c in range(4)),
            tuple(2 if c in extra[2:] else 1 for c in range(4)),
        ]
    s.flag_hands = tuple(hands)
    ev.append(
        {
            "type": "flags_dealt",
            "visible_to": ALL,
            "flags": {str(seat): flag_names(hands[seat]) for seat in range(n)},
        }
    )


def flag_names(counts: tuple[int, ...]) -> list[str]:
    names = _FLAG_NAMES.get(counts)
    if names is None:
        names = tuple(COLOURS[c] for c in range(4) for _ in range(counts[c]))
        if len(_FLAG_NAMES) < 256:
            _FLAG_NAMES[counts] = names
    return list(names)


_FLAG_NAMES: Final[dict[tuple[int, ...], tuple[str, ...]]] = {}  # a flag hand -> its colour names


def all_flags(s: State) -> int:
    f = s.flags
    return f[0] | f[1] | f[2] | f[3]


def free_land(s: State) -> int:
    f = s.flags
    taken = f[0] | f[1] | f[2] | f[3]
    for m in s.markers:
        taken |= m
    return s.layout.land & ~taken


def flag_cells(s: State, free: int = -1) -> int:
    """Cells where the next flag may go: free land not adjacent to a flag (CC-4.2), or any
    free land if there is no such cell (CC-4.3). ``free`` may pass ``free_land(s)``."""
    if free < 0:
        free = free_land(s)
    f = s.flags
    ok = free & ~board.grow(f[0] | f[1] | f[2] | f[3])
    return ok or free


def put_flag(s: State, seat: int, colour: int, cell: int, ev: list[Event], random: bool) -> None:
    hands = list(s.flag_hands)
    hand = list(hands[seat])
    hand[colour] -= 1
    hands[seat] = tuple(hand)
    s.flag_hands = tuple(hands)
    if cell >= 0:
        s.flags[colour] |= 1 << cell
        ev.append(
            {
                "type": "flag_placed",
                "visible_to": ALL,
                "seat": seat,
                "colour": COLOURS[colour],
                "cell": board.CELL_NAMES[cell],
                "random": random,
            }
        )
    else:
        ev.append(
            {"type": "flag_set_aside", "visible_to": ALL, "seat": seat, "colour": COLOURS[colour]}
        )
    advance_flags(s, ev)


def advance_flags(s: State, ev: list[Event], first: bool = False) -> None:
    """Pass the flag turn clockwise to the next seat holding a stone; start the first turn
    when all are placed. Stones with no free land cell at all are set aside (CC-4.3)."""
    seats = s.seats_from(s.flag_turn if first else (s.flag_turn + 1) % s.n)
    flag_hands = s.flag_hands
    for seat in seats:
        if any(flag_hands[seat]):
            s.flag_turn = seat
            if not free_land(s):
                colour = next(c for c in range(4) if s.flag_hands[seat][c])
                put_flag(s, seat, colour, -1, ev, random=False)
            return
    s.flag_turn = -1
    start_turn(s, ev)


# --- turns ----------------------------------------------------------------------------


def cards_per_turn(s: State) -> int:
    return 3 if s.n == 4 else 2


def start_turn(s: State, ev: list[Event]) -> None:
    """CC-5.1 reveal, then wait for the sealed bids (CC-5.2)."""
    k = cards_per_turn(s)
    s.turn += 1
    s.face_up = s.stack[:k]
    s.stack = s.stack[k:]
    s.phase = "bid"
    s.bids = [None] * s.n
    ev.append(
        {
            "type": "cards_revealed",
            "visible_to": ALL,
            "round": s.round,
            "turn": s.turn,
            "cards": [card_json(c) for c in s.face_up],
            "stack_left": len(s.stack),
        }
    )
    check_bids(s, ev)


def uncommitted(s: State, seat: int) -> int:
    bid = s.bids[seat] if s.phase == "bid" else None
    return s.hands[seat] & ~(bid or 0)


def check_bids(s: State, ev: list[Event]) -> None:
    """Ruling (a): seats without cowboys bid nothing automatically; reveal once all bid."""
    if s.phase != "bid" or s.sale is not None:
        return
    for seat in range(s.n) if 0 in s.hands else ():
        if s.bids[seat] is None and not s.hands[seat]:
            s.bids[seat] = 0
            ev.append(
                {
                    "type": "bid_submitted",
                    "visible_to": ALL,
                    "seat": seat,
                    "replaced": False,
                    "auto": True,
                }
            )
    if None not in s.bids:
        resolve_bids(s, ev)


def submit_bid(s: State, seat: int, mask: int, ev: list[Event]) -> None:
    replaced = s.bids[seat] is not None
    s.bids[seat] = mask
    ev.append(
        {
            "type": "bid_submitted",
            "visible_to": ALL,
            "seat": seat,
            "replaced": replaced,
            "auto": False,
        }
    )
    ev.append({"type": "my_bid", "visible_to": [seat], "seat": seat, "cowboys": cowboy_list(mask)})
    check_bids(s, ev)


def resolve_bids(s: State, ev: list[Event]) -> None:
    """CC-5.3 reveal and rank, CC-5.4 claim order, CC-5.5 draws (done after the claims)."""
    bids = [b or 0 for b in s.bids]
    ranking = rank_masks(bids, s.seats_from(s.start_player))
    for seat, b in enumerate(bids):
        s.hands[seat] &= ~b
        s.bag |= b
    s.last_bids = tuple(bids)
    s.bids = [None] * s.n
    claimers = [seat for seat in ranking if bids[seat]][: len(s.face_up)]
    s.claim_order = tuple(claimers)
    empties = [seat for seat in ranking if not bids[seat]]
    s.draws = tuple((seat, 2) for seat in empties) if empties else ((ranking[-1], 1),)
    drawn = dict(s.draws)
    ev.append(
        {
            "type": "bids_revealed",
            "visible_to": ALL,
            "round": s.round,
            "turn": s.turn,
            "ranking": ranking,
            "claim_order": claimers,
            "bids": [
                {
                    "seat": seat,
                    "cowboys": cowboy_list(bids[seat]),
                    "rank": i + 1,
                    "claims": seat in claimers,
                    "draws": drawn.get(seat, 0),
                }
                for i, seat in enumerate(ranking)
            ],
        }
    )
    s.phase = "claim"
    next_claim(s, ev)


def next_claim(s: State, ev: list[Event]) -> None:
    """Skip claimers who cannot use any face-up card (only possible after CC-4.3)."""
    flags = s.flags
    while s.claim_order and s.face_up:
        for c in s.face_up:
            if flags[CARD_COLOUR[c]]:
                return
        ev.append({"type": "claim_skipped", "visible_to": ALL, "seat": s.claim_order[0]})
        s.claim_order = s.claim_order[1:]
    finish_turn(s, ev)


_TARGETS: Final[dict[int, tuple[int, ...]]] = {}  # card * 256 + flag -> cells


def second_targets(card: int, flag: int) -> tuple[int, ...]:
    """Cells where the second star of ``card`` falls from ``flag`` (any rotation, CC-6.2)."""
    cells = _TARGETS.get(card * 256 + flag)
    if cells is None:
        off = CARDS[card].offset
        cells = () if off is None else board.targets(flag, off[0], off[1])
        _TARGETS[card * 256 + flag] = cells
    return cells


def claim(s: State, seat: int, card: int, flag: int, second: int, ev: list[Event]) -> None:
    """CC-6: occupy the flag cell (and the second cell if any); CC-7 lakes."""
    cid, colour, offset = _CARD_FIELDS[card]
    bit = 1 << flag
    s.flags[CARD_COLOUR[card]] &= ~bit
    s.markers[seat] |= bit if second < 0 else bit | 1 << second
    face_up = list(s.face_up)
    face_up.remove(card)  # face-up cards are distinct
    s.face_up = tuple(face_up)
    s.claim_order = s.claim_order[1:]
    names = board.CELL_NAMES
    ev.append(
        {
            "type": "card_claimed",
            "visible_to": ALL,
            "seat": seat,
            "id": cid,
            "colour": colour,
            "offset": list(offset) if offset else None,
            "card": cid,
            "flag": names[flag],
            "second": names[second] if second >= 0 else None,
        }
    )
    update_lakes(s, ev, prefer=seat, clockwise_from=seat, cell=flag, second=second)
    next_claim(s, ev)


def finish_turn(s: State, ev: list[Event]) -> None:
    if s.face_up:
        ev.append(
            {
                "type": "cards_discarded",
                "visible_to": ALL,
                "cards": [card_json(c) for c in s.face_up],
            }
        )
    s.face_up = ()
    s.claim_order = ()
    draws, s.draws = s.draws, ()
    for seat, k in draws:
        draw(s, seat, k, ev, "bid")
    if s.stack:
        start_turn(s, ev)
    else:
        end_round(s, ev)


def end_round(s: State, ev: list[Event]) -> None:
    """CC-8 valuation, CC-4.5 flags removed, CC-10 end after round 4."""
    lay = s.layout
    lake_ids = [lid for lid, _ in s.lakes]
    result = score_round(dict(enumerate(s.markers)), s.lake_owners, lake_ids, lay.border, s.round)
    entry = []
    for seat in range(s.n):
        item = {"seat": seat, **result[seat]}
        s.scores = replace_at(s.scores, seat, s.scores[seat] + item["total"])
        item["score"] = s.scores[seat]
        entry.append(item)
    s.valuations = (*s.valuations, tuple(entry))
    ev.append(
        {
            "type": "valuation",
            "visible_to": ALL,
            "round": s.round,
            "seats": [{**item, "lakes_owned": list(item["lakes_owned"])} for item in entry],
        }
    )
    if any(s.flags):
        ev.append(
            {
                "type": "flags_removed",
                "visible_to": ALL,
                "cells": [board.CELL_NAMES[c] for c in board.bits(all_flags(s))],
            }
        )
    s.flags = [0, 0, 0, 0]
    s.phase = "flags"
    if s.round == 4:
        s.phase = "over"
        top = max(s.scores)
        ev.append(
            {
                "type": "game_over",
                "visible_to": ALL,
                "scores": list(s.scores),
                "winners": [seat for seat in range(s.n) if s.scores[seat] == top],
            }
        )
        return
    start_round(s, ev)
