"""``dump``/``load``: the full (secret) state as a JSON-able dict and back.

Cells are stored by name and cowboys by number so a stored game is readable; the
generator state is a hex string (64-bit integers do not survive every JSON reader).
``load`` checks the shape and the cowboy/cell invariants and raises ``ValueError`` on a
malformed document.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final

from . import board
from .data import CARD_INDEX, CARDS, DATA, check_layout
from .state import Sale, State

FORMAT: Final = 1
NAMES: Final = board.CELL_NAMES


@lru_cache(maxsize=256)
def layout_problem(lakes: tuple[tuple[str, tuple[int, ...]], ...]) -> str | None:
    return check_layout(lakes, DATA.lake_tiles)


def cells(mask: int) -> list[str]:
    return [NAMES[c] for c in board.bits(mask)]


def mask_of(names: Any) -> int:
    if not isinstance(names, list):
        raise ValueError("expected a list of cell names")
    mask = 0
    for n in names:
        mask |= 1 << board.CELL_INDEX[n]
    return mask


def cow_mask(nums: Any) -> int:
    if not isinstance(nums, list):
        raise ValueError("expected a list of cowboy numbers")
    mask = 0
    for c in nums:
        if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= DATA.cowboys:
            raise ValueError(f"bad cowboy {c!r}")
        mask |= 1 << c
    return mask


def opt_cows(v: Any) -> int | None:
    return None if v is None else cow_mask(v)


def card_ids(idxs: tuple[int, ...]) -> list[str]:
    return [CARDS[i].id for i in idxs]


def card_idxs(ids: Any) -> tuple[int, ...]:
    if not isinstance(ids, list):
        raise ValueError("expected a list of card ids")
    return tuple(CARD_INDEX[i] for i in ids)


def dump(s: State) -> dict[str, Any]:
    sale = s.sale
    return {
        "format": FORMAT,
        "game": "colorado-county",
        "num_players": s.n,
        "seed": s.seed,
        "rng": f"{s.rng:016x}",
        "options": {"lakes": s.lakes_opt, "flags": s.flags_opt},
        "lakes": [{"id": lid, "cells": [NAMES[c] for c in cs]} for lid, cs in s.lakes],
        "round": s.round,
        "turn": s.turn,
        "start_player": s.start_player,
        "phase": s.phase,
        "bag": board.bits(s.bag),
        "hands": [board.bits(h) for h in s.hands],
        "markers": [cells(m) for m in s.markers],
        "flags": [cells(m) for m in s.flags],
        "flag_hands": [list(h) for h in s.flag_hands],
        "flag_turn": s.flag_turn,
        "piles": [card_ids(p) for p in s.piles],
        "stack": card_ids(s.stack),
        "face_up": card_ids(s.face_up),
        "bids": [None if b is None else board.bits(b) for b in s.bids],
        "last_bids": None if s.last_bids is None else [board.bits(b) for b in s.last_bids],
        "claim_order": list(s.claim_order),
        "draws": [list(d) for d in s.draws],
        "lake_owners": list(s.lake_owners),
        "scores": list(s.scores),
        "valuations": [
            [{**item, "lakes_owned": list(item["lakes_owned"])} for item in entry]
            for entry in s.valuations
        ],
        "sale_cards": list(s.sale_cards),
        "sales_round": list(s.sales_round),
        "sale": None
        if sale is None
        else {
            "seller": sale.seller,
            "cell": NAMES[sale.cell],
            "stage": sale.stage,
            "asked": list(sale.asked),
            "answers": list(sale.answers),
            "sale_bids": [None if b is None else board.bits(b) for b in sale.sale_bids],
            "buyer": sale.buyer,
        },
    }


def _int_list(v: Any, n: int) -> list[int]:
    if not isinstance(v, list) or len(v) != n:
        raise ValueError("expected a list of integers")
    for x in v:
        if isinstance(x, bool) or not isinstance(x, int):
            raise ValueError("expected a list of integers")
    return list(v)


def load(d: Mapping[str, Any]) -> State:
    try:
        return _load(d)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise ValueError(f"Not a valid colorado-county state: {exc!r}") from exc


def _load(d: Mapping[str, Any]) -> State:
    if d.get("format") != FORMAT or d.get("game") != "colorado-county":
        raise ValueError("unknown format")
    n = d["num_players"]
    if n not in (2, 3, 4):
        raise ValueError("bad num_players")
    seed = d["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ValueError("bad seed")
    lakes = tuple(
        (str(lk["id"]), tuple(board.CELL_INDEX[c] for c in lk["cells"])) for lk in d["lakes"]
    )
    if layout_problem(lakes) is not None:
        raise ValueError("bad lake layout")
    opts = d["options"]
    s = State(n, seed, int(d["rng"], 16), lakes, {"lakes": opts["lakes"], "flags": opts["flags"]})
    s.round = int(d["round"])
    s.turn = int(d["turn"])
    s.start_player = int(d["start_player"])
    s.phase = d["phase"]
    if s.phase not in ("flags", "bid", "claim", "over"):
        raise ValueError("bad phase")
    s.bag = cow_mask(d["bag"])
    s.hands = [cow_mask(h) for h in d["hands"]]
    s.markers = [mask_of(m) for m in d["markers"]]
    s.flags = [mask_of(m) for m in d["flags"]]
    s.flag_hands = tuple(tuple(_int_list(h, 4)) for h in d["flag_hands"])
    s.flag_turn = int(d["flag_turn"])
    s.piles = tuple(card_idxs(p) for p in d["piles"])
    s.stack = card_idxs(d["stack"])
    s.face_up = card_idxs(d["face_up"])
    s.bids = [opt_cows(b) for b in d["bids"]]
    lb = d["last_bids"]
    s.last_bids = None if lb is None else tuple(cow_mask(b) for b in lb)
    s.claim_order = tuple(_int_list(d["claim_order"], len(d["claim_order"])))
    s.draws = tuple((int(a), int(b)) for a, b in d["draws"])
    s.lake_owners = tuple(_int_list(d["lake_owners"], len(lakes)))
    s.scores = tuple(_int_list(d["scores"], n))
    s.valuations = tuple(
        tuple({**item, "lakes_owned": list(item["lakes_owned"])} for item in entry)
        for entry in d["valuations"]
    )
    s.sale_cards = tuple(_int_list(d["sale_cards"], n))
    s.sales_round = tuple(_int_list(d["sales_round"], n))
    sd = d["sale"]
    if sd is not None:
        sale = Sale(int(sd["seller"]), board.CELL_INDEX[sd["cell"]], tuple(sd["asked"]), n)
        sale.stage = sd["stage"]
        sale.answers = [None if a is None else bool(a) for a in sd["answers"]]
        sale.sale_bids = [opt_cows(b) for b in sd["sale_bids"]]
        sale.buyer = int(sd["buyer"])
        s.sale = sale
    if len(s.hands) != n or len(s.markers) != n or len(s.flags) != 4 or len(s.bids) != n:
        raise ValueError("wrong number of seats")
    total = s.bag
    for h in s.hands:
        if total & h:
            raise ValueError("a cowboy is in two places")
        total |= h
    if total != sum(1 << c for c in range(1, DATA.cowboys + 1)):
        raise ValueError("cowboys are missing")
    return s
