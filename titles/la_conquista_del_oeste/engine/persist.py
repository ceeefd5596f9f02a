"""``dump``/``load``: the full (secret) state as a JSON-able dict and back. The generator
state is a hex string; ``load`` checks the shape and the card invariants and raises
``ValueError`` on a malformed document."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .data import CITIES, DATA, ITEMS
from .state import JAILS, PHASES, Player, State, offer_copy

FORMAT = 1


def dump(s: State) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "n": s.n,
        "rng": f"{s.rng:016x}",
        "players": [
            {
                "pos": p.pos,
                "money": p.money,
                "jail": p.jail,
                "outfit": dict(p.outfit),
                "hand": list(p.hand),
                "reward": p.reward,
                "skip": p.skip,
                "family": p.family,
                "worked_at": p.worked_at,
            }
            for p in s.players
        ],
        "seat": s.seat,
        "first": s.first,
        "round": s.round,
        "round_limit": s.round_limit,
        "phase": s.phase,
        "steps": s.steps,
        "roll": list(s.roll),
        "did": list(s.did),
        "forced": s.forced,
        "resume": s.resume,
        "opp_deck": list(s.opp_deck),
        "inc_deck": list(s.inc_deck),
        "winner": s.winner,
        "offers": [offer_copy(o) for o in s.offers],
        "next_offer": s.next_offer,
        "poker": {
            "host": s.poker_host,
            "bet": s.poker_bet,
            "wait": list(s.poker_wait),
            "in": list(s.poker_in),
        },
    }


def _int(v: Any, lo: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise ValueError(f"bad integer {v!r}")
    return v


def _city(v: Any, empty: bool = False) -> str:
    if (empty and v == "") or (isinstance(v, str) and v in CITIES):
        return str(v)
    raise ValueError(f"unknown city {v!r}")


def _offer(o: Any, n: int) -> dict[str, Any]:
    if set(o) != {"id", "from", "to", "give", "take", "lapse"}:
        raise ValueError("bad offer")
    if not (0 <= _int(o["from"]) < n and 0 <= _int(o["to"]) < n):
        raise ValueError("bad offer seats")
    give, take = o["give"], o["take"]
    return {
        "id": _int(o["id"], 1),
        "from": o["from"],
        "to": o["to"],
        "give": {
            "money": _int(give["money"]),
            "items": {str(i): _int(c, 1) for i, c in give["items"].items()},
            "cards": [str(c) for c in give["cards"]],
        },
        "take": {
            "money": _int(take["money"]),
            "items": {str(i): _int(c, 1) for i, c in take["items"].items()},
            "cards": [],
        },
        "lapse": _int(o["lapse"], 1),
    }


def load(d: Mapping[str, Any]) -> State:
    try:
        if d["format"] != FORMAT:
            raise ValueError("unknown state format")
        n = _int(d["n"], 2)
        if n > 6:
            raise ValueError("too many players")
        players = []
        for q in d["players"]:
            if set(q["outfit"]) != set(ITEMS) or q["jail"] not in JAILS:
                raise ValueError("bad player")
            players.append(
                Player(
                    pos=_city(q["pos"]),
                    money=_int(q["money"]),
                    jail=q["jail"],
                    outfit={i: _int(q["outfit"][i]) for i in ITEMS},
                    hand=[str(c) for c in q["hand"]],
                    reward=_int(q["reward"]),
                    skip=_int(q["skip"]),
                    family=_city(q["family"], empty=True),
                    worked_at=_city(q["worked_at"], empty=True),
                )
            )
        s = State(
            n=n,
            rng=int(d["rng"], 16),
            players=players,
            seat=_int(d["seat"]),
            first=_int(d["first"]),
            round=_int(d["round"], 1),
            round_limit=_int(d["round_limit"], 1),
            phase=str(d["phase"]),
            steps=_int(d["steps"]),
            roll=tuple(_int(x, 1) for x in d["roll"]),
            did=tuple(str(x) for x in d["did"]),
            forced=str(d["forced"]),
            resume=str(d["resume"]),
            opp_deck=[str(c) for c in d["opp_deck"]],
            inc_deck=[str(c) for c in d["inc_deck"]],
            winner=int(d["winner"]),
            poker_host=int(d["poker"]["host"]),
            poker_bet=_int(d["poker"]["bet"]),
            poker_wait=tuple(_int(x) for x in d["poker"]["wait"]),
            poker_in=tuple(_int(x) for x in d["poker"]["in"]),
            offers=[_offer(o, n) for o in d["offers"]],
            next_offer=_int(d["next_offer"], 1),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"malformed state ({exc!r})") from None
    seats = set(range(n))
    if not {*s.poker_wait, *s.poker_in} <= seats or s.poker_host >= n:
        raise ValueError("inconsistent poker game")
    if len(players) != n or s.seat >= n or s.first >= n or s.phase not in PHASES:
        raise ValueError("inconsistent state")
    cards = s.opp_deck + [c for p in players for c in p.hand]
    if sorted(cards) != sorted(DATA.opportunity) or sorted(s.inc_deck) != sorted(DATA.incident):
        raise ValueError("the cards do not add up")
    return s
