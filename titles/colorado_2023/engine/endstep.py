"""The end of a round (CO-12 … CO-17): the reveal of the action step, the track ends'
rewards, the sets and their flags, the flag tracks' completion points, the refill, and
the seventh badge."""

from __future__ import annotations

from typing import Any

from .cards import card_order, draw
from .data import (
    BADGES_TO_END,
    COLOURS,
    END_REWARDS,
    ENDS,
    FLAG_TRACK_BONUS,
    FLAG_TRACK_POINTS,
    KIND_COUNT,
    KINDS,
    NEIGHBOURS,
    REFILL,
    REGION,
    VALUES,
)
from .state import Player, State

Event = dict[str, Any]


def seat_order(s: State) -> list[int]:
    """The seats from the caller on, to the left (CO-12)."""
    return [(s.caller + k) % s.n for k in range(s.n)]


def reveal(s: State) -> tuple[State, list[Event]]:
    """The last seat is done: every seat's action step is shown, then settled."""
    events: list[Event] = [
        {
            "type": "actions_revealed",
            "visible_to": "all",
            "round": s.round,
            "moves": [list(p.log) for p in s.players],
        }
    ]
    discard = list(s.discard)
    for p in s.players:
        discard += p.discards
    s = s.with_(discard=tuple(discard), shown=())
    for seat in seat_order(s):
        p = s.players[seat]
        if p.draws:
            s, got = draw(s, p.draws)
            s = s.put(seat, p.with_(hand=tuple(sorted((*p.hand, *got), key=card_order))))
            events.append({"type": "drew", "visible_to": "all", "seat": seat, "count": len(got)})
            events.append({"type": "my_draw", "visible_to": [seat], "seat": seat, "cards": got})
    claimed = list(s.claimed)
    for index, end in enumerate(ENDS):
        arrivers = [q for q, p in enumerate(s.players) if end in p.arrived]
        if not arrivers:
            continue
        rank = claimed[index]
        points = END_REWARDS[end][rank] if rank < 2 else 0
        claimed[index] = min(2, rank + 1)
        for q in arrivers:
            s = s.put(q, s.players[q].gain(points))
        events.append(
            {
                "type": "track_end",
                "visible_to": "all",
                "end": end,
                "seats": arrivers,
                "points": points,
            }
        )
    s = s.with_(
        claimed=tuple(claimed),
        players=tuple(
            p.with_(pending=(), done=True, draws=0, discards=(), arrived=(), log=())
            for p in s.players
        ),
    )
    return sets(s, events)


def sets(s: State, events: list[Event]) -> tuple[State, list[Event]]:
    """CO-14: each seat's sets of a colour (its 1, 2 and 3 in play) are discarded, each for
    one flag to tick."""
    discard = list(s.discard)
    for q, p in enumerate(s.players):
        area, found = list(p.area), 0
        for colour in COLOURS:
            cards = [f"{colour}-{v}" for v in VALUES]
            if all(c in area for c in cards):
                for c in cards:
                    area.remove(c)
                discard += cards
                found += 1
                events.append({"type": "set", "visible_to": "all", "seat": q, "colour": colour})
        if found:
            s = s.put(q, p.with_(area=tuple(area), sets=p.sets + found))
    return settle_flags(s.with_(discard=tuple(discard)), events)


def flag_choices(p: Player) -> list[str]:
    """Regions whose flag ``p`` may tick: next to one of its flags, not across mountains."""
    near = {n for rid in p.flags for n in NEIGHBOURS[rid]}
    return sorted(near - set(p.flags))


def tick_flag(s: State, seat: int, rid: str, events: list[Event]) -> State:
    p = s.players[seat]
    p = p.with_(flags=(*p.flags, rid), sets=p.sets - 1)
    kind = REGION[rid].kind
    if sum(REGION[f].kind == kind for f in p.flags) == KIND_COUNT[kind]:
        p = p.with_(arrived=(*p.arrived, kind))  # CO-15: completed this round
    events.append({"type": "flag", "visible_to": "all", "seat": seat, "region": rid})
    return s.put(seat, p)


def settle_flags(s: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Tick the flags with one choice only (CO-14); wait for the seats with several; when
    no set is left, end the round."""
    waiting = False
    for q in range(s.n):
        while s.players[q].sets > 0:
            choices = flag_choices(s.players[q])
            if not choices:
                events.append({"type": "no_flag", "visible_to": "all", "seat": q})
                s = s.put(q, s.players[q].with_(sets=0))
            elif len(choices) == 1:
                s = tick_flag(s, q, choices[0], events)
            else:
                waiting = True
                break
    if waiting:
        return s.with_(phase="flags"), events
    return end_round(s, events)


def end_round(s: State, events: list[Event]) -> tuple[State, list[Event]]:
    done = list(s.flags_done)
    for kind in KINDS:
        firsts = [q for q, p in enumerate(s.players) if kind in p.arrived]
        if firsts and kind not in done:
            done.append(kind)
            for q in firsts:
                s = s.put(q, s.players[q].gain(FLAG_TRACK_BONUS[kind]))
            events.append(
                {
                    "type": "flag_track_done",
                    "visible_to": "all",
                    "kind": kind,
                    "seats": firsts,
                    "points": FLAG_TRACK_BONUS[kind],
                }
            )
    s = s.with_(flags_done=tuple(done), players=tuple(p.with_(arrived=()) for p in s.players))
    for seat in seat_order(s):  # CO-16: up to three cards
        p = s.players[seat]
        if len(p.hand) < REFILL:
            s, got = draw(s, REFILL - len(p.hand))
            if got:
                s = s.put(seat, p.with_(hand=tuple(sorted((*p.hand, *got), key=card_order))))
                events.append(
                    {"type": "drew", "visible_to": "all", "seat": seat, "count": len(got)}
                )
                events.append({"type": "my_draw", "visible_to": [seat], "seat": seat, "cards": got})
    if any(len(p.badges) >= BADGES_TO_END for p in s.players) or s.round >= s.round_limit:
        s = s.with_(phase="over", limited=all(len(p.badges) < BADGES_TO_END for p in s.players))
        events.append(
            {
                "type": "game_over",
                "visible_to": "all",
                "scores": scores(s),
                "winners": winners(s),
                "limit": s.limited,
            }
        )
        return s, events
    s = s.with_(
        phase="call",
        round=s.round + 1,
        caller=(s.caller + 1) % s.n,
        target=-1,
        named="",
        received="",
        action="",
    )
    events.append(
        {"type": "round_started", "visible_to": "all", "round": s.round, "caller": s.caller}
    )
    return s, events


def flag_track_points(p: Player) -> int:
    return sum(
        FLAG_TRACK_POINTS[kind][sum(REGION[f].kind == kind for f in p.flags)] for kind in KINDS
    )


def score(p: Player) -> int:
    """CO-17: the badges plus each flag track's furthest column."""
    return sum(p.badges) + flag_track_points(p)


def scores(s: State) -> list[int]:
    return [score(p) for p in s.players]


def ranks(s: State) -> list[int]:
    """CO-18 as ranks: by score, then badges filled, then nuggets; equal seats share a rank
    (competition style: 1, 1, 3)."""
    keys = [(score(p), len(p.badges), p.nuggets) for p in s.players]
    return [1 + sum(other > key for other in keys) for key in keys]


def winners(s: State) -> list[int]:
    """CO-18: the highest score; ties go to more badges filled, then more nuggets; seats
    still equal share the win."""
    keys = [(score(p), len(p.badges), p.nuggets) for p in s.players]
    top = max(keys)
    return [q for q in range(s.n) if keys[q] == top]
