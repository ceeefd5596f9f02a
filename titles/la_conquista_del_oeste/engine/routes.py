"""Routes in expected turns, for the bots (LC-4, LC-31): how many movement rolls a pawn
needs, on average, to reach one of a set of spaces when it always takes the best
destination its roll offers. A roll of the first die ``d`` lets the pawn stop on any space
up to ``d`` lines away, going on only through camps; the table of those reaches is built
once from the map. Each target set is solved once (value iteration) and cached.

Public data only: the bots call this from a seat's view."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from .data import ARRIVALS, CITIES, DATA, ITEMS, NB

DIE = range(1, 7)
SWEEPS = 60
#: Turns a stop costs beyond the roll, roughly what the town takes from the player:
#: a sheriff's fee or a cardsharp's likely loss is a turn of work or more; an Incident
#: space is a small risk.
TOLL = {"sheriff": 0.2, "cardsharp": 0.1, "incident": 0.3}
#: An Incident space's toll for a careful pawn with a complete outfit (the hard bot,
#: ``careful``): there an Incident can take an item and leave the family behind (LC-20),
#: send the pawn to the Indian prison (losing its revolvers) or make it miss a turn, which
#: costs several turns; screened against 0.3: see ``hard_policy``.
CAREFUL_INCIDENT = 5.0
UNREACHABLE = 999.0


def _reach(start: str, steps: int, west_ok: bool) -> tuple[str, ...]:
    """The spaces a move of at most ``steps`` lines may end on (LC-4, LC-6, LC-31)."""
    seen = {start}
    frontier = [start]
    out: list[str] = []
    for _ in range(steps):
        nxt: list[str] = []
        for a in frontier:
            if a != start and not CITIES[a].camp:
                continue
            for b in NB[a]:
                if b not in seen and (west_ok or not CITIES[b].west):
                    seen.add(b)
                    nxt.append(b)
                    out.append(b)
        frontier = nxt
    return tuple(out)


@cache
def reach(start: str, steps: int, west_ok: bool) -> tuple[str, ...]:
    return _reach(start, steps, west_ok)


def toll(city: str, lily: bool, careful: bool = False) -> float:
    c = CITIES[city]
    if c.roy_bean and not lily:
        return 30.0  # his prison: a double to leave, then a move out
    return (
        TOLL["sheriff"] * c.sheriff
        + TOLL["cardsharp"] * c.cardsharp
        + (CAREFUL_INCIDENT if careful else TOLL["incident"]) * c.incident
    )


@cache
def turns_to(
    targets: frozenset[str], west_ok: bool, lily: bool = False, careful: bool = False
) -> dict[str, float]:
    """Expected movement rolls from every space to the nearest of ``targets``."""
    return _solve(tuple(sorted((t, 0.0) for t in targets)), west_ok, lily, careful)


@cache
def turns_via(
    stops: frozenset[str], west_ok: bool, lily: bool = False, then: str = "", careful: bool = False
) -> dict[str, float]:
    """Expected movement rolls to one of ``stops`` and from there to the Pacific (through
    the family's city ``then`` if the family waits there): each stop ends the route with
    its own rolls still to come, so a bot that needs a shop prefers the one on its way
    west to one behind it. ``careful``: the tolls of a careful pawn (``toll``)."""
    after = (
        turns_via(frozenset({then}), True, lily, careful=careful)
        if then
        else to_pacific_table(lily, careful)
    )
    ends = tuple(sorted((t, after.get(t, UNREACHABLE)) for t in stops))
    return _solve(ends, west_ok, lily, careful)


@cache
def turns_tour(
    stages: tuple[frozenset[str], ...], west_ok: bool, lily: bool = False, then: str = ""
) -> dict[str, float]:
    """Expected movement rolls to stop on one space of each of ``stages`` in turn, then
    (the outfit complete) on the family's city ``then`` if the family waits, then on the
    Pacific. A space of two stages ends both at once (a town selling two missing items)."""
    if not stages:
        return turns_via(frozenset({then}), True, lily) if then else to_pacific_table(lily)
    after = turns_tour(stages[1:], west_ok, lily, then)
    return _solve(tuple(sorted((t, after.get(t, UNREACHABLE)) for t in stages[0])), west_ok, lily)


@cache
def shops(item: str, west: bool) -> frozenset[str]:
    """The towns of one side of the frontier selling ``item``."""
    return frozenset(c for c, t in CITIES.items() if item in t.shops and t.west == west)


def _solve(
    ends: tuple[tuple[str, float], ...], west_ok: bool, lily: bool, careful: bool = False
) -> dict[str, float]:
    """Value iteration: ``ends`` are the spaces where the route ends, with the rolls still
    to come from each; every other space costs one roll plus the best stop it offers.
    A die of ``d`` offers the stops of ``d - 1`` and one more ring (``rings``), so the best
    stop of each die is the running minimum over the rings."""
    final = dict(ends)
    spaces = [c for c in CITIES if west_ok or not CITIES[c].west]
    est = {c: final.get(c, UNREACHABLE) for c in spaces}
    tolls = _tolls(lily, careful)
    stop = {c: 0.0 if c in final else tolls[c] for c in spaces}  # a stop's toll
    todo = [(c, rings(c, west_ok)) for c in spaces if c not in final]
    for _ in range(SWEEPS):
        changed = 0.0
        for c, by_die in todo:
            total = 0.0
            best = math.inf
            for ring in by_die:
                for x in ring:
                    v = est[x] + stop[x]
                    if v < best:
                        best = v
                total += best if best != math.inf else UNREACHABLE
            value = min(UNREACHABLE, 1.0 + total / len(DIE))
            changed = max(changed, abs(value - est[c]))
            est[c] = value
        if changed < 0.01:
            break
    return est


@cache
def rings(start: str, west_ok: bool) -> tuple[tuple[str, ...], ...]:
    """For each die ``d`` the stops ``reach(start, d)`` adds to ``reach(start, d - 1)``."""
    out = []
    before = 0
    for d in DIE:
        options = reach(start, d, west_ok)
        out.append(options[before:])
        before = len(options)
    return tuple(out)


@cache
def _tolls(lily: bool, careful: bool = False) -> dict[str, float]:
    return {c: toll(c, lily, careful) for c in CITIES}


def to_pacific_table(lily: bool = False, careful: bool = False) -> dict[str, float]:
    return turns_to(frozenset(ARRIVALS), True, lily, careful)


def to_pacific(city: str, lily: bool = False) -> float:
    """Expected movement rolls from ``city`` to an arrival point, outfit complete."""
    return to_pacific_table(lily).get(city, UNREACHABLE)


@dataclass(frozen=True, slots=True)
class Plan:
    """Where a pawn is heading: the spaces that end its current leg (``ends``) and the
    expected rolls from every space to the Pacific through one of them (``table``)."""

    goal: str  # "pacific", "family", "shop" or "work"
    ends: frozenset[str]
    table: dict[str, float]
    lily: bool
    careful: bool = False

    def cost(self, city: str) -> float:
        here = 0.0 if city in self.ends else toll(city, self.lily, self.careful)
        return self.table.get(city, UNREACHABLE) + here

    def ranked(self, options: list[str]) -> list[str]:
        """``options`` from the fewest expected rolls left to the most, ties by id."""
        return sorted(options, key=lambda c: (self.cost(c), c))


def missing_items(outfit: Mapping[str, int]) -> list[str]:
    return [i for i in ITEMS if outfit.get(i, 0) == 0]


def plan(
    pos: str,
    outfit: Mapping[str, int],
    money: int,
    family: str,
    lily: bool,
    careful: bool = False,
) -> Plan:
    """The leg a pawn should travel now: to the Pacific with a full outfit (through its
    family's city if the family waits), else to a shop selling a missing item (in the
    East while the pawn may not enter the West), else, with too little money for any
    missing item, to a town with work. ``careful`` (the hard bot) weighs Incident spaces
    at ``CAREFUL_INCIDENT`` once the outfit is complete."""
    missing = missing_items(outfit)
    if not missing:
        if family:
            ends = frozenset({family})
            table = turns_via(ends, True, lily, careful=careful)
            return Plan("family", ends, table, lily, careful)
        ends = frozenset(ARRIVALS)
        return Plan("pacific", ends, to_pacific_table(lily, careful), lily, careful)
    west_ok = bool(family) or CITIES[pos].west
    zone = "west" if west_ok else "east"
    cheapest = min(DATA.prices[i][zone][0] for i in missing)
    if money < cheapest:
        ends = work_towns(pos, west_ok)
        return Plan("work", ends, turns_via(ends, west_ok, lily, family), lily)
    ends = shop_towns(tuple(missing), west_ok)
    return Plan("shop", ends, turns_via(ends, west_ok, lily, family), lily)


@cache
def work_towns(pos: str, west_ok: bool) -> frozenset[str]:
    """The towns with work a pawn on ``pos`` may head for (not ``pos``: it worked there)."""
    return frozenset(
        c for c, t in CITIES.items() if t.work and c != pos and (west_ok or not t.west)
    )


@cache
def shop_towns(missing: tuple[str, ...], west: bool) -> frozenset[str]:
    """The towns of one side of the frontier selling one of the ``missing`` items."""
    return frozenset(
        c for c, t in CITIES.items() if any(i in t.shops for i in missing) and t.west == west
    )
