"""What a seat (or a spectator) sees: every sheet and play area, hand sizes, nuggets and
reward lines; its own hand, pending actions and standing answer. During the action step
the other seats' sheets are shown as they were when it began (sealed, CO-12)."""

from __future__ import annotations

from typing import Any

from . import actionstep, endstep
from .data import BADGES_TO_END
from .state import Player, State


def _public(p: Player, done: bool) -> dict[str, Any]:
    return {
        "area": list(p.area),
        "hand_size": len(p.hand),
        "nuggets": p.nuggets,
        "flags": list(p.flags),
        "legs": list(p.legs),
        "rail": list(p.rail),
        "tipi": p.tipi,
        "wanted": p.wanted,
        "saloon": p.saloon,
        "ends": list(p.ends),
        "badges": list(p.badges),
        "flag_points": endstep.flag_track_points(p),
        "score": endstep.score(p),
        "done": done,
        "sets": p.sets,
    }


def view(s: State, seat: int | None) -> dict[str, Any]:
    sealed = s.phase == "action"
    players = []
    for q, p in enumerate(s.players):
        mine = q == seat
        shown = p if mine or not sealed else s.shown[q]
        entry = _public(shown, p.done)
        entry["seat"] = q
        if mine:
            entry.update(
                hand=list(p.hand),
                pending=list(p.pending),
                draws=p.draws,
                discards=list(p.discards),
                standing=p.standing,
                moves=list(p.log),
            )
        players.append(entry)
    out: dict[str, Any] = {
        "phase": s.phase,
        "round": s.round,
        "round_limit": s.round_limit,
        "caller": s.caller,
        "target": s.target,
        "named": s.named,
        "received": s.received,
        "action": s.action,
        "deck": len(s.deck),
        "discard": list(s.discard),
        "claimed": list(s.claimed),
        "flags_done": list(s.flags_done),
        "badges_to_end": BADGES_TO_END,
        "players": players,
        "over": s.phase == "over",
    }
    if seat is not None and s.phase == "action" and not s.players[seat].done:
        p = s.players[seat]
        out["tickable"] = actionstep.tickable_legs(p)
        out["tickable_rail"] = actionstep.tickable_rail(p)
    if seat is not None and s.phase == "flags":
        out["flag_choices"] = endstep.flag_choices(s.players[seat])
    if s.phase == "over":
        out["winners"] = endstep.winners(s)
    return out
