"""What may leave the engine: legal actions and per-seat views (CC-11, CC-12).

A view holds public information plus, for the seat's own view only, ``hand`` and
``my_bid`` (and the seat's own sale answer or sale bid). The bag order, the stacks and the
seed are never in a view.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from operator import is_, itemgetter
from typing import Any, Final

from . import board, rules, sales
from .data import CARDS, COLOURS, DATA, LAKE_VALUES
from .rules import CARD_COLOUR
from .scoring import rank_masks
from .state import State

NAMES: Final = board.CELL_NAMES
Action = dict[str, Any]
# Every action legal_actions can list is built once here (claims on first use) and the same
# dict is returned each time: building hundreds of flag actions per call dominated random
# playouts (issue 16). Callers treat listed actions as read-only (a bot that returns one
# returns a copy).
_FLAG_ACTIONS: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple({"type": "place_flag", "colour": colour, "cell": name} for name in NAMES)
    for colour in COLOURS
)


def _by_byte(protos: tuple[Action, ...]) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """For bit-indexed ``protos``: per byte of a mask, per value of that byte, the actions
    of its set bits in order (each value's tuple is a smaller value's plus its top bit)."""
    chunks = []
    for k in range((len(protos) + 7) // 8):
        own = protos[8 * k : 8 * k + 8]
        table: list[tuple[Action, ...]] = [()]
        for b in range(1, 256):
            top = b.bit_length() - 1
            table.append(table[b ^ (1 << top)] + own[top : top + 1])
        chunks.append(tuple(table))
    return tuple(chunks)


_FLAG_BYTES: Final = tuple(_by_byte(protos) for protos in _FLAG_ACTIONS)
_SELL_ACTIONS: Final[tuple[Action, ...]] = tuple({"type": "sell", "cell": name} for name in NAMES)
_COWBOY_ACTIONS: Final[dict[str, tuple[Action, ...]]] = {
    kind: tuple({"type": kind, "cowboys": [c]} for c in range(DATA.cowboys + 1))
    for kind in ("bid", "sale_bid")
}
_COWBOY_BYTES: Final = {kind: _by_byte(protos) for kind, protos in _COWBOY_ACTIONS.items()}
_EMPTY_BID: Final[Action] = {"type": "bid", "cowboys": []}
_PAY_ACTIONS: Final[tuple[Action, ...]] = tuple(
    {"type": "sale_pay", "cowboy": c} for c in range(DATA.cowboys + 1)
)
_INTEREST_ACTIONS: Final[tuple[Action, ...]] = (
    {"type": "sale_interest", "interested": True},
    {"type": "sale_interest", "interested": False},
)
# (card, flag) -> the claim actions of that card on that flag, one per possible second
# cell (or the one without a second cell) with the cells' bits
# keyed by ``card * 256 + flag`` (an int hashes faster than a pair)
_CLAIMS: Final[dict[int, tuple[tuple[int, Action], ...]]] = {}
_NO_SECOND: Final[dict[int, Action]] = {}
# a seat's markers -> its sell actions (markers change only on claims and sales)
_SELLS: Final[dict[int, tuple[Action, ...]]] = {}


def _picked(protos: tuple[Action, ...], idx: list[int]) -> list[Action]:
    """``[protos[i] for i in idx]``, done in C."""
    if len(idx) > 1:
        return list(itemgetter(*idx)(protos))
    return [protos[i] for i in idx]


_ONE_SEAT: Final[tuple[frozenset[int], ...]] = tuple(frozenset((seat,)) for seat in range(4))
_NO_SEAT: Final[frozenset[int]] = frozenset()
_NONES: Final = (None,) * 4
# which seats have not bid (one flag per seat) -> those seats
_WAITING: Final[dict[tuple[bool, ...], frozenset[int]]] = {
    flags: frozenset(seat for seat, waiting in enumerate(flags) if waiting)
    for n in range(1, 5)
    for flags in product((False, True), repeat=n)
}


def to_act(s: State) -> frozenset[int]:
    if s.phase == "over":
        return _NO_SEAT
    sale = s.sale
    if sale is not None:
        if sale.stage == "interest":
            return frozenset(o for o in sale.asked if sale.answers[o] is None)
        if sale.stage == "bid":
            return frozenset(o for o in sale.interested() if sale.sale_bids[o] is None)
        return frozenset((sale.buyer,))
    phase = s.phase
    if phase == "flags":
        turn = s.flag_turn
        return _ONE_SEAT[turn] if 0 <= turn < 4 else frozenset((turn,))
    if phase == "bid":
        return _WAITING[tuple(map(is_, s.bids, _NONES))]
    return _ONE_SEAT[s.claim_order[0]] if s.claim_order else _NO_SEAT


def cowboy_actions(kind: str, mask: int, empty: bool) -> list[Action]:
    out = [_EMPTY_BID] if empty else []
    raw = mask.to_bytes((mask.bit_length() + 7) >> 3, "little")
    tables = _COWBOY_BYTES[kind]
    for i in range(len(raw)):  # an index loop: compiled, bytes and tuples index natively
        b = raw[i]
        if b:
            out += tables[i][b]
    return out


def legal_actions(s: State, seat: int) -> list[Action]:
    """Every legal action of ``seat``. For a bid or a sale bid any subset (non-empty for a
    sale bid) of the allowed cowboys is legal; only the empty bid and single cowboys are
    listed. ``sell`` actions are included whenever CC-9 lets the seat sell, always after
    the others. The dicts are shared between calls: treat them as read-only."""
    if s.phase == "over" or type(seat) is not int or not 0 <= seat < s.n:
        return []
    sale = s.sale
    if sale is not None:
        if sale.stage == "interest":
            if seat in sale.asked:
                return list(_INTEREST_ACTIONS)
        elif sale.stage == "bid":
            if seat in sale.interested():
                return cowboy_actions("sale_bid", rules.uncommitted(s, seat), empty=False)
        elif seat == sale.buyer:
            return _picked(_PAY_ACTIONS, board.bits(rules.uncommitted(s, seat)))
        return []
    out: list[Action]
    phase = s.phase
    if phase == "flags":
        out = []
        if seat == s.flag_turn:
            # the cells a byte at a time, each byte's actions from a table
            cells = rules.flag_cells(s)
            raw = cells.to_bytes((cells.bit_length() + 7) >> 3, "little")
            hand = s.flag_hands[seat]
            for colour in range(4):
                if hand[colour]:
                    tables = _FLAG_BYTES[colour]
                    for i in range(len(raw)):
                        b = raw[i]
                        if b:
                            out += tables[i][b]
    elif phase == "bid":
        hand_mask = s.hands[seat]
        out = cowboy_actions("bid", hand_mask, empty=True) if hand_mask else []
    elif s.claim_order and s.claim_order[0] == seat:
        out = claim_actions(s)
    else:
        out = []
    markers = s.markers[seat]
    if (
        markers
        and s.stack
        and s.sale_cards[seat] > 0
        and s.sales_round[seat] < DATA.sales_per_round
    ):
        sells = _SELLS.get(markers)
        if sells is None:
            if len(_SELLS) >= 4096:
                _SELLS.clear()
            sells = _SELLS[markers] = tuple(_picked(_SELL_ACTIONS, board.bits(markers)))
        out += sells
    return out


def _claim_protos(card: int, flag: int) -> tuple[tuple[int, Action], ...]:
    info = CARDS[card]
    fname = NAMES[flag]
    _NO_SECOND[card * 256 + flag] = {
        "type": "claim",
        "card": info.id,
        "flag": fname,
        "second": None,
    }
    protos: tuple[tuple[int, Action], ...] = ()
    if info.offset is not None:
        dx, dy = info.offset
        protos = tuple(
            (1 << t, {"type": "claim", "card": info.id, "flag": fname, "second": NAMES[t]})
            for t in board.targets(flag, dx, dy)
        )
    _CLAIMS[card * 256 + flag] = protos
    return protos


def claim_actions(s: State) -> list[Action]:
    out: list[Action] = []
    free = rules.free_land(s)
    flags = s.flags
    for card in s.face_up:
        for flag in board.bits(flags[CARD_COLOUR[card]]):
            key = card * 256 + flag
            protos = _CLAIMS.get(key)
            if protos is None:
                protos = _claim_protos(card, flag)
            found = False
            for bit, a in protos:
                if free & bit:
                    out.append(a)
                    found = True
            if not found:
                out.append(_NO_SECOND[key])
    return out


LakeNames = tuple[tuple[str, int, tuple[str, ...], tuple[str, ...]], ...]


@lru_cache(maxsize=256)
def _layout_names(lay: board.Layout) -> tuple[LakeNames, tuple[str, ...]]:
    """The names a view shows for one lake layout: per lake (id, value, cells, shore), and
    the border cells; the view copies them into fresh lists."""
    lakes = tuple(
        (
            lid,
            LAKE_VALUES[lid],
            tuple(NAMES[c] for c in cells),
            tuple(NAMES[c] for c in board.bits(shore)),
        )
        for (lid, cells), shore in zip(lay.lakes, lay.shores, strict=True)
    )
    return lakes, tuple(NAMES[c] for c in board.bits(lay.border))


def view(s: State, seat: int | None) -> dict[str, Any]:
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n
    ):
        raise ValueError(f"seat must be None or 0..{s.n - 1}")
    cells: dict[str, dict[str, Any]] = {}
    for p, mask in enumerate(s.markers):
        for c in board.bits(mask):
            cells[NAMES[c]] = {"marker": p}
    for colour, mask in enumerate(s.flags):
        for c in board.bits(mask):
            cells[NAMES[c]] = {"flag": COLOURS[colour]}
    if s.sale is not None:
        # The land on sale has left its seller's markers (CC-9.3) but stays on the board,
        # shown as for sale by its seller until the sale is settled.
        cells[NAMES[s.sale.cell]] = {"for_sale": s.sale.seller}
    static = _layout_names(s.layout)
    lakes = [
        {
            "id": lid,
            "value": value,
            "cells": list(lcells),
            "owner": None if owner < 0 else owner,
            "shore": list(shore),
        }
        for (lid, value, lcells, shore), owner in zip(static[0], s.lake_owners, strict=True)
    ]
    bidding = s.phase == "bid"
    players = [
        {
            "seat": p,
            "colour": DATA.player_colours[p],
            "score": s.scores[p],
            "cowboy_count": s.hands[p].bit_count(),
            "sale_cards_left": s.sale_cards[p],
            "sales_this_round": s.sales_round[p],
            "has_bid": bidding and s.bids[p] is not None,
            "flags_in_hand": rules.flag_names(s.flag_hands[p]),
        }
        for p in range(s.n)
    ]
    last_bids = None
    last_ranking = None
    if s.last_bids is not None:
        last_bids = {str(p): board.bits(b) for p, b in enumerate(s.last_bids)}
        last_ranking = rank_masks(list(s.last_bids), s.seats_from(s.start_player))
    k = rules.cards_per_turn(s)
    out: dict[str, Any] = {
        "game": "colorado-county",
        "num_players": s.n,
        "options": {"lakes": s.lakes_opt, "flags": s.flags_opt},
        "phase": "sale" if s.sale is not None else s.phase,
        "resume_phase": s.phase if s.sale is not None else None,
        "round": s.round,
        "turn": s.turn,
        "turns_per_round": 12 // k,
        "cards_per_turn": k,
        "start_player": s.start_player,
        "to_act": sorted(to_act(s)),
        "flag_turn": s.flag_turn if s.phase == "flags" else None,
        "claim_order": list(s.claim_order) if s.phase == "claim" else [],
        "claimer": s.claim_order[0] if s.phase == "claim" and s.claim_order else None,
        "bag_count": s.bag.bit_count(),
        "stack_left": len(s.stack),
        "face_up": [rules.card_json(c) for c in s.face_up],
        "board": {
            "cells": cells,
            "lakes": lakes,
            "border": list(static[1]),
        },
        "players": players,
        "last_bids": last_bids,
        "last_ranking": last_ranking,
        "sale": sale_view(s, seat),
        "sale_possible": sales.sale_possible(s),
        "valuations": [
            {
                "round": r + 1,
                "seats": [{**item, "lakes_owned": list(item["lakes_owned"])} for item in entry],
            }
            for r, entry in enumerate(s.valuations)
        ],
        "scores": list(s.scores),
        "winners": None,
        "seat": seat,
    }
    if s.phase == "over":
        top = max(s.scores)
        out["winners"] = [p for p in range(s.n) if s.scores[p] == top]
    if seat is not None:
        out["hand"] = board.bits(s.hands[seat])
        bid = s.bids[seat] if bidding else None
        out["my_bid"] = board.bits(bid) if bid is not None else None
    return out


def views(s: State, seats: list[int | None]) -> dict[int | None, dict[str, Any]]:
    """``{seat: view(s, seat)}`` for each of ``seats`` (``None``: the spectators' view),
    equal to ``view``'s one by one, the public part built once: each seat's view is a
    shallow copy of the public one with the seat's own ``sale``, ``seat``, ``hand`` and
    ``my_bid``. The views share their public members (the board, the players, ...):
    callers treat views as read-only."""
    public = view(s, None)
    bidding = s.phase == "bid"
    out: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        if seat is None:
            out[None] = public
            continue
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n:
            raise ValueError(f"seat must be None or 0..{s.n - 1}")
        own = dict(public)
        own["sale"] = sale_view(s, seat)
        own["seat"] = seat
        own["hand"] = board.bits(s.hands[seat])
        bid = s.bids[seat] if bidding else None
        own["my_bid"] = board.bits(bid) if bid is not None else None
        out[seat] = own
    return out


def sale_view(s: State, seat: int | None) -> dict[str, Any] | None:
    sale = s.sale
    if sale is None:
        return None
    out: dict[str, Any] = {
        "seller": sale.seller,
        "cell": NAMES[sale.cell],
        "stage": sale.stage,
        "asked": list(sale.asked),
        "answered": [o for o in sale.asked if sale.answers[o] is not None],
        "interested": sale.interested() if sale.stage != "interest" else None,
        "interested_count": len(sale.interested()) if sale.stage != "interest" else None,
        "bid_in": [o for o in sale.interested() if sale.sale_bids[o] is not None]
        if sale.stage == "bid"
        else [],
        "buyer": sale.buyer if sale.stage == "pay" else None,
    }
    if seat is not None:
        out["my_interest"] = sale.answers[seat]
        mine = sale.sale_bids[seat]
        out["my_sale_bid"] = board.bits(mine) if mine is not None else None
    return out
