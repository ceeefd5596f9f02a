"""``view``: what one seat (or an onlooker, ``None``) may see. Opportunity cards in hand
are shown only to their holder (the others see how many); the decks' order and the
generator state are shown to nobody (LC-25)."""

from __future__ import annotations

from typing import Any

from . import rules as R
from . import trades
from .data import DATA
from .state import State


def view(s: State, seat: int | None) -> dict[str, Any]:
    players = []
    for i, p in enumerate(s.players):
        entry: dict[str, Any] = {
            "seat": i,
            "colour": DATA.seat_colours[i],
            "city": p.pos,
            "prison": p.jail,
            "money": p.money,
            "outfit": dict(p.outfit),
            "reward": p.reward,
            "posters": p.reward // DATA.poster_value,
            "turns_to_miss": p.skip,
            "family": p.family,
            "worked_here": p.worked_at == p.pos and bool(p.worked_at),
            "hand_count": len(p.hand),
            "complete": p.complete(),
        }
        if seat == i:
            entry["hand"] = list(p.hand)
        players.append(entry)
    out: dict[str, Any] = {
        "players": players,
        "turn": s.seat,
        "round": s.round,
        "round_limit": s.round_limit,
        "phase": s.phase,
        "steps": s.steps,
        "last_roll": list(s.roll),
        "done_this_turn": list(s.did),
        "must_flee": s.forced == "rob",
        "opportunity_deck": len(s.opp_deck),
        "incident_deck": len(s.inc_deck),
        "winner": s.winner if s.winner >= 0 else None,
    }
    out["offers"] = trades.visible(s, seat)
    if s.poker_host >= 0:
        out["poker"] = {
            "host": s.poker_host,
            "bet": s.poker_bet,
            "waiting_for": list(s.poker_wait),
            "joined": list(s.poker_in),
        }
    if s.phase == "over":
        out["scores"] = R.scores(s)
    if seat is not None:
        out["seat"] = seat
    return out
