"""The state of a game of Colorado: immutable records (``apply`` builds new ones), dumped
to JSON and loaded back with their shape checked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .data import BADGE_BOXES, ROUND_LIMIT

PHASES = ("start", "call", "answer", "action", "flags", "over")
STANDING = ("ask", "low", "high")


class Player(NamedTuple):
    """One seat's sheet, hand, play area and reward lines. ``pending``: the actions still
    to take in this action step (the first is the current one); ``draws``/``discards``:
    what the action step drew and discarded, settled at the reveal (CO-12); ``arrived``:
    the track ends reached this round; ``sets``: flags still to tick in the end step."""

    hand: tuple[str, ...] = ()
    area: tuple[str, ...] = ()
    nuggets: int = 0
    flags: tuple[str, ...] = ()
    legs: tuple[str, ...] = ()
    rail: tuple[int, ...] = ()
    tipi: int = -1
    wanted: int = 0
    saloon: int = 0
    ends: tuple[str, ...] = ()
    badges: tuple[int, ...] = ()
    pending: tuple[str, ...] = ()
    done: bool = True
    draws: int = 0
    discards: tuple[str, ...] = ()
    arrived: tuple[str, ...] = ()
    sets: int = 0
    standing: str = "ask"
    log: tuple[str, ...] = ()  # what this seat did in the action step, shown at the reveal

    def with_(self, **changes: Any) -> Player:
        return self._replace(**changes)

    def gain(self, points: int) -> Player:
        """CO-10: a point gain is written into the next empty badge (into the last one
        when the row is full)."""
        if points <= 0:
            return self
        if len(self.badges) < BADGE_BOXES:
            return self._replace(badges=(*self.badges, points))
        return self._replace(badges=(*self.badges[:-1], self.badges[-1] + points))


class State(NamedTuple):
    n: int
    rng: int
    players: tuple[Player, ...]
    phase: str = "start"
    round: int = 1
    caller: int = 0
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    shown: tuple[Player, ...] = ()  # the sheets as others see them during the action step
    target: int = -1  # the called seat
    named: str = ""  # the card the caller named
    received: str = ""  # the card the caller received this round
    action: str = ""  # the round's action type
    claimed: tuple[int, ...] = (0, 0, 0, 0)  # rewards of each track end given (0, 1, 2)
    flags_done: tuple[str, ...] = ()  # flag tracks whose completion points are gone
    round_limit: int = ROUND_LIMIT
    limited: bool = False  # ended by the round limit

    def with_(self, **changes: Any) -> State:
        return self._replace(**changes)

    def put(self, seat: int, player: Player) -> State:
        ps = list(self.players)
        ps[seat] = player
        return self._replace(players=tuple(ps))


_TUPLES_OF_STR = {"hand", "area", "flags", "legs", "ends", "pending", "discards", "arrived", "log"}
_TUPLES_OF_INT = {"rail", "badges"}


def _dump_player(p: Player) -> dict[str, Any]:
    return {name: list(v) if isinstance(v := getattr(p, name), tuple) else v for name in p._fields}


def dump(s: State) -> dict[str, Any]:
    return {
        "format": 1,
        "n": s.n,
        "rng": f"{s.rng:016x}",
        "players": [_dump_player(p) for p in s.players],
        "shown": [_dump_player(p) for p in s.shown],
        "phase": s.phase,
        "round": s.round,
        "caller": s.caller,
        "deck": list(s.deck),
        "discard": list(s.discard),
        "target": s.target,
        "named": s.named,
        "received": s.received,
        "action": s.action,
        "claimed": list(s.claimed),
        "flags_done": list(s.flags_done),
        "round_limit": s.round_limit,
        "limited": s.limited,
    }


def _load_player(d: Any) -> Player:
    if not isinstance(d, Mapping):
        raise ValueError("a player is not an object")
    values: dict[str, Any] = {}
    for name in Player._fields:
        v = d[name]
        if name in _TUPLES_OF_STR:
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise ValueError(f"{name} is not a list of strings")
            values[name] = tuple(v)
        elif name in _TUPLES_OF_INT:
            values[name] = tuple(_int(x, -1) for x in v)
        elif name == "done":
            if not isinstance(v, bool):
                raise ValueError("done is not a boolean")
            values[name] = v
        elif name == "standing":
            if v not in STANDING:
                raise ValueError("unknown standing answer")
            values[name] = v
        else:
            values[name] = _int(v, -1)
    return Player(**values)


def _int(v: Any, lo: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise ValueError(f"{v!r} is not a whole number of at least {lo}")
    return v


def _strs(v: Any) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValueError("not a list of strings")
    return tuple(v)


def load(data: Any) -> State:
    """A state from ``dump``'s JSON; ``ValueError`` when it is not one."""
    try:
        if data["format"] != 1 or data["phase"] not in PHASES:
            raise ValueError("unknown format or phase")
        n = _int(data["n"], 2)
        players = tuple(_load_player(p) for p in data["players"])
        shown = tuple(_load_player(p) for p in data["shown"])
        if len(players) != n or len(shown) not in (0, n):
            raise ValueError("the seats do not add up")
        claimed = tuple(_int(c) for c in data["claimed"])
        if len(claimed) != 4:
            raise ValueError("four track ends")
        limited = data["limited"]
        if not isinstance(limited, bool):
            raise ValueError("limited is not a boolean")
        return State(
            n=n,
            rng=int(str(data["rng"]), 16),
            players=players,
            phase=str(data["phase"]),
            round=_int(data["round"], 1),
            caller=_int(data["caller"]),
            deck=_strs(data["deck"]),
            discard=_strs(data["discard"]),
            shown=shown,
            target=_int(data["target"], -1),
            named=str(data["named"]),
            received=str(data["received"]),
            action=str(data["action"]),
            claimed=claimed,
            flags_done=_strs(data["flags_done"]),
            round_limit=_int(data["round_limit"], 1),
            limited=limited,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a Colorado state: {exc}") from None
