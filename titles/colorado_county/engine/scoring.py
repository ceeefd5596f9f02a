"""Bid ranking (CC-1.6, CC-5.3) and the valuation (CC-8)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, Final

from . import board
from .data import DATA, LAKE_VALUES


def bid_key(mask: int) -> tuple[int, int]:
    """Power of a set of cowboys given as a bitmask: (count, highest number) (CC-1.6)."""
    return (mask.bit_count(), mask.bit_length() - 1 if mask else 0)


def rank_masks(bids: Sequence[int], order: Iterable[int]) -> list[int]:
    """Seats ranked strongest first. Empty bids come last, in ``order`` (usually clockwise
    from the start player); non-empty bids never tie (CC-1.6)."""
    seats = list(order)
    non_empty = [(bids[s].bit_count(), bids[s].bit_length(), s) for s in seats if bids[s]]
    non_empty.sort(key=_POWER, reverse=True)  # the order of bid_key, stable like it
    return [s for _, _, s in non_empty] + [s for s in seats if not bids[s]]


_POWER: Final = itemgetter(0, 1)


def to_mask(cowboys: Iterable[int]) -> int:
    mask = 0
    for c in cowboys:
        mask |= 1 << c
    return mask


def rank_bids(bids: Mapping[int, Iterable[int]]) -> list[int]:
    """CC-12 helper: ``{seat: [cowboys]}`` -> seats strongest first, empty bids last
    (empty bids among themselves by seat number)."""
    masks = {seat: to_mask(cows) for seat, cows in bids.items()}
    seats = sorted(masks)
    non_empty = sorted(
        (s for s in seats if masks[s]), key=lambda s: bid_key(masks[s]), reverse=True
    )
    return non_empty + [s for s in seats if not masks[s]]


def majority(counts: Mapping[int, int], prizes: tuple[int, int]) -> dict[int, int]:
    """CC-8.1: all tied for most get the first prize; only if one player had most, all tied
    for second get the second prize; a count of 0 scores nothing."""
    out = dict.fromkeys(counts, 0)
    top = max(counts.values(), default=0)
    if top <= 0:
        return out
    firsts = [s for s, c in counts.items() if c == top]
    for s in firsts:
        out[s] = prizes[0]
    if len(firsts) == 1:
        second = max((c for c in counts.values() if c < top), default=0)
        if second > 0:
            for s, c in counts.items():
                if c == second:
                    out[s] = prizes[1]
    return out


def score_round(
    markers: Mapping[int, int],
    lake_owners: Sequence[int],
    lake_ids: Sequence[str],
    border_mask: int,
    round_no: int,
) -> dict[int, dict[str, Any]]:
    """The CC-8 valuation for one round. ``markers`` maps seat -> cell mask; ``lake_owners``
    gives the owning seat (or -1) of each lake in ``lake_ids`` order. Returns per seat the
    points per item, ``total`` and the counts behind them."""
    r = round_no - 1
    borders: dict[int, int] = {}
    areas: dict[int, int] = {}
    doubles: dict[int, int] = {}
    for seat, mask in markers.items():
        borders[seat] = (mask & border_mask).bit_count()
        doubles[seat], largest = board.pairs_and_largest(mask)
        areas[seat] = largest if largest >= 3 else 0
    border_pts = majority(borders, DATA.border_points[r])
    area_pts = majority(areas, DATA.area_points[r])
    per_lake = DATA.lake_points[r]
    out: dict[int, dict[str, Any]] = {}
    for seat in markers:
        owned = [lid for lid, o in zip(lake_ids, lake_owners, strict=True) if o == seat]
        lakes = sum(LAKE_VALUES[lid] if per_lake is None else per_lake for lid in owned)
        dbl = doubles[seat] * DATA.double_points[r]
        item = {
            "border": border_pts[seat],
            "lakes": lakes,
            "doubles": dbl,
            "area": area_pts[seat],
            "total": border_pts[seat] + lakes + dbl + area_pts[seat],
            "border_cells": borders[seat],
            "lakes_owned": owned,
            "double_count": doubles[seat],
            "largest_area": areas[seat],
        }
        out[seat] = item
    return out


def valuation(
    markers: Mapping[str, int], lake_owners: Mapping[str, int], round_no: int
) -> dict[int, dict[str, int]]:
    """CC-12 helper: ``markers`` maps cell name -> seat, ``lake_owners`` maps lake id ->
    seat (first-game layout). Returns ``{seat: {"border", "lakes", "doubles", "area",
    "total"}}`` for every seat that appears in either map."""
    if round_no not in (1, 2, 3, 4):
        raise ValueError("round_no must be 1, 2, 3 or 4")
    lay = board.layout(DATA.first_game_layout)
    seats = set(markers.values()) | set(lake_owners.values())
    masks = dict.fromkeys(sorted(seats), 0)
    for cell, seat in markers.items():
        idx = board.CELL_INDEX.get(cell)
        if idx is None or not lay.land >> idx & 1:
            raise ValueError(f"{cell!r} is not a land cell of the first-game layout")
        masks[seat] |= 1 << idx
    lake_ids = [lid for lid, _ in DATA.first_game_layout]
    for lid in lake_owners:
        if lid not in LAKE_VALUES:
            raise ValueError(f"unknown lake id {lid!r}")
    owners = [lake_owners.get(lid, -1) for lid in lake_ids]
    full = score_round(masks, owners, lake_ids, lay.border, round_no)
    keys = ("border", "lakes", "doubles", "area", "total")
    return {seat: {k: int(full[seat][k]) for k in keys} for seat in masks}
