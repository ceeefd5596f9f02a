"""Component data of La Conquista del Oeste, loaded from ``components.json``.

The map, the prices and the card texts are original edition data of this site (the game
is by NAC, Madrid, 1982; see ``titles/la_conquista_del_oeste/docs/rules.md``). The file is
validated when this module is imported: a malformed file raises ``ComponentDataError``
naming the problem, so a bad edit never reaches a game.
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("components.json")

ITEMS: tuple[str, ...] = ("oxen", "revolver", "provisions", "wagon")
OPPORTUNITY_KINDS = frozenset(
    {"lily_langtry", "money", "free_item", "leave_prison", "pardon", "free_rail", "extra_steps"}
)
INCIDENT_KINDS = frozenset(
    {"lose_item", "indian_prison", "money", "skip", "prison_if_wanted", "free_item", "none"}
)
FLAGS = (
    "start",
    "arrival",
    "work",
    "poker",
    "sheriff",
    "cardsharp",
    "prison",
    "incident",
    "indian_prison",
    "roy_bean",
)


class ComponentDataError(ValueError):
    """The component data file is malformed."""


def _fail(msg: str) -> ComponentDataError:
    return ComponentDataError(f"{DATA_FILE.name}: {msg}")


@dataclass(frozen=True, slots=True)
class City:
    id: str
    name: str
    west: bool
    x: int
    y: int
    shops: tuple[str, ...]
    bank: int  # vault value, 0: no bank
    start: bool = False
    arrival: bool = False
    work: bool = False
    poker: bool = False
    sheriff: bool = False
    cardsharp: bool = False
    prison: bool = False
    incident: bool = False
    indian_prison: bool = False
    roy_bean: bool = False
    camp: bool = False  # LC-31: a camp on a trail, no name, nothing drawn but a dot
    trail: tuple[str, str] = ("", "")  # a camp's two towns


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    title: str
    text: str
    effect: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Components:
    seat_colours: tuple[str, ...]
    start_money: int
    rail_cities: tuple[str, str]
    rail_fare: int
    work_pay: int
    sheriff_fee: int
    cardsharp_stake: int
    cardsharp_win_max: int
    poster_value: int
    poker_max_bet: int
    rob_success_max: int
    escape_min_die: int
    hand_limit: int
    opportunity_totals: frozenset[int]
    starting_cities: tuple[tuple[int, int, str], ...]
    prices: dict[str, dict[str, tuple[int, int]]]  # item -> zone -> (buy, sell)
    cities: dict[str, City]
    city_order: tuple[str, ...]
    neighbours: dict[str, tuple[str, ...]]
    edges: tuple[tuple[str, str], ...]
    opportunity: dict[str, Card]
    incident: dict[str, Card]
    indian_prison_city: str
    roy_bean_city: str


def _int(v: Any, what: str, lo: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise _fail(f"{what} must be an integer >= {lo}")
    return v


def _cards(raw: Any, prefix: str, kinds: frozenset[str]) -> dict[str, Card]:
    if not isinstance(raw, list) or not raw:
        raise _fail(f"the {prefix} deck must be a non-empty list")
    out: dict[str, Card] = {}
    for c in raw:
        if not isinstance(c, dict):
            raise _fail(f"a {prefix} card must be an object")
        cid, eff = c.get("id"), c.get("effect")
        if not isinstance(cid, str) or not cid.startswith(prefix) or cid in out:
            raise _fail(f"bad or duplicate card id {cid!r}")
        if not isinstance(c.get("title"), str) or not isinstance(c.get("text"), str):
            raise _fail(f"{cid}: title and text must be strings")
        if not isinstance(eff, dict) or eff.get("kind") not in kinds:
            raise _fail(f"{cid}: unknown effect {eff!r}")
        kind = eff["kind"]
        if kind in ("lose_item", "free_item") and eff.get("item") not in ITEMS:
            raise _fail(f"{cid}: unknown item")
        if kind == "money" and (
            isinstance(eff.get("amount"), bool) or not isinstance(eff.get("amount"), int)
        ):
            raise _fail(f"{cid}: money needs an integer amount")
        if kind in ("skip", "extra_steps"):
            _int(eff.get("turns", eff.get("steps")), f"{cid}: count", 1)
        out[cid] = Card(cid, c["title"], c["text"], dict(eff))
    return out


def parse(raw: Any) -> Components:
    """Validate the decoded JSON and build the component tables."""
    if not isinstance(raw, dict) or raw.get("format") != 1:
        raise _fail("top level must be an object with format 1")
    try:
        colours = tuple(str(c) for c in raw["seat_colours"])
        if len(colours) != 6 or len(set(colours)) != 6:
            raise _fail("seat_colours must list six distinct colours")
        cities: dict[str, City] = {}
        for c in raw["cities"]:
            cid = c["id"]
            if not isinstance(cid, str) or cid in cities:
                raise _fail(f"bad or duplicate city id {cid!r}")
            if c["zone"] not in ("east", "west"):
                raise _fail(f"{cid}: zone must be east or west")
            shops = tuple(c.get("shops", ()))
            if any(s not in ITEMS for s in shops) or len(set(shops)) != len(shops):
                raise _fail(f"{cid}: bad shops")
            unknown = set(c) - {"id", "name", "zone", "x", "y", "shops", "bank", *FLAGS}
            if unknown:
                raise _fail(f"{cid}: unknown keys {sorted(unknown)}")
            flags: dict[str, Any] = {f: c.get(f, False) is True for f in FLAGS}
            town = City(
                cid,
                str(c["name"]),
                c["zone"] == "west",
                _int(c["x"], f"{cid}.x"),
                _int(c["y"], f"{cid}.y"),
                shops,
                _int(c.get("bank", 0), f"{cid}.bank"),
            )
            cities[cid] = replace(town, **flags)
        nb: dict[str, list[str]] = {cid: [] for cid in cities}
        edges: list[tuple[str, str]] = []
        trails: set[frozenset[str]] = set()
        for edge in raw["edges"]:
            a, b = edge[0], edge[1]
            camps = _int(edge[2], f"camps {a}-{b}") if len(edge) == 3 else 0
            if a not in cities or b not in cities or a == b or len(edge) not in (2, 3):
                raise _fail(f"bad edge {a!r}-{b!r}")
            if frozenset((a, b)) in trails:
                raise _fail(f"duplicate edge {a}-{b}")
            trails.add(frozenset((a, b)))
            chain = [a, *_camps(cities, a, b, camps), b]
            for x, y in itertools.pairwise(chain):
                nb.setdefault(x, []).append(y)
                nb.setdefault(y, []).append(x)
                edges.append((x, y))
        rail = tuple(raw["railway"]["cities"])
        if len(rail) != 2 or any(r not in cities or cities[r].west for r in rail):
            raise _fail("the railway joins two East cities")
        starts = tuple(
            (_int(s["min"], "start.min"), _int(s["max"], "start.max"), str(s["city"]))
            for s in raw["starting_cities"]
        )
        covered = sorted(t for lo, hi, _ in starts for t in range(lo, hi + 1))
        if covered != list(range(2, 13)) or any(not cities[c].start for *_, c in starts):
            raise _fail("starting_cities must cover the totals 2-12 once, on start cities")
        prices: dict[str, dict[str, tuple[int, int]]] = {}
        for item in ITEMS:
            p = raw["prices"][item]
            prices[item] = {
                z: (_int(p[z][0], f"{item} price", 1), _int(p[z][1], f"{item} price", 0))
                for z in ("east", "west")
            }
        comp = Components(
            seat_colours=colours,
            start_money=_int(raw["start_money"], "start_money"),
            rail_cities=(rail[0], rail[1]),
            rail_fare=_int(raw["railway"]["fare"], "fare"),
            work_pay=_int(raw["work_pay"], "work_pay"),
            sheriff_fee=_int(raw["sheriff_fee"], "sheriff_fee"),
            cardsharp_stake=_int(raw["cardsharp_stake"], "cardsharp_stake"),
            cardsharp_win_max=_int(raw["cardsharp_win_max"], "cardsharp_win_max", 2),
            poster_value=_int(raw["poster_value"], "poster_value", 1),
            poker_max_bet=_int(raw["poker_max_bet"], "poker_max_bet", 1),
            rob_success_max=_int(raw["rob_success_max"], "rob_success_max", 2),
            escape_min_die=_int(raw["escape_min_die"], "escape_min_die", 1),
            hand_limit=_int(raw["hand_limit"], "hand_limit", 1),
            opportunity_totals=frozenset(
                _int(t, "opportunity total", 2) for t in raw["opportunity_totals"]
            ),
            starting_cities=starts,
            prices=prices,
            cities=cities,
            city_order=tuple(cities),
            neighbours={k: tuple(v) for k, v in nb.items()},
            edges=tuple(edges),
            opportunity=_cards(raw["opportunity"], "opp-", OPPORTUNITY_KINDS),
            incident=_cards(raw["incident"], "inc-", INCIDENT_KINDS),
            indian_prison_city=_only(cities, "indian_prison"),
            roy_bean_city=_only(cities, "roy_bean"),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, ComponentDataError):
            raise
        raise _fail(f"malformed data ({exc!r})") from None
    _check_graph(comp)
    return comp


def _camps(cities: dict[str, City], a: str, b: str, n: int) -> list[str]:
    """LC-31: ``n`` camps evenly spaced on the trail from ``a`` to ``b``, added to
    ``cities``; a camp lies in the West when both towns do."""
    ca, cb = cities[a], cities[b]
    out = []
    for i in range(1, n + 1):
        cid = f"camp-{a}-{b}-{i}"
        t = i / (n + 1)
        cities[cid] = City(
            cid,
            "",
            ca.west and cb.west,
            round(ca.x + (cb.x - ca.x) * t),
            round(ca.y + (cb.y - ca.y) * t),
            (),
            0,
            camp=True,
            trail=(a, b),
        )
        out.append(cid)
    return out


def _only(cities: dict[str, City], flag: str) -> str:
    found = [c.id for c in cities.values() if getattr(c, flag)]
    if len(found) != 1:
        raise _fail(f"exactly one city must have {flag}")
    return found[0]


def distances(nb: dict[str, tuple[str, ...]], sources: list[str]) -> dict[str, int]:
    """Fewest edges from any of ``sources`` to every reachable city."""
    dist = dict.fromkeys(sources, 0)
    queue = deque(sources)
    while queue:
        a = queue.popleft()
        for b in nb[a]:
            if b not in dist:
                dist[b] = dist[a] + 1
                queue.append(b)
    return dist


def _check_graph(comp: Components) -> None:
    first = comp.city_order[0]
    if len(distances(comp.neighbours, [first])) != len(comp.cities):
        raise _fail("the city graph must be connected")
    arrivals = [c.id for c in comp.cities.values() if c.arrival]
    if not arrivals or any(not comp.cities[a].west for a in arrivals):
        raise _fail("arrival points must exist and lie in the West")
    west_nb = {
        k: tuple(b for b in v if comp.cities[b].west)
        for k, v in comp.neighbours.items()
        if comp.cities[k].west
    }
    reach = distances(west_nb, arrivals)
    if any(c.west and c.id not in reach for c in comp.cities.values()):
        raise _fail("every West city must reach an arrival point through the West")
    if not any(c.prison and not c.west for c in comp.cities.values()):
        raise _fail("the East needs a prison")
    for c in comp.cities.values():
        if c.start and c.west:
            raise _fail(f"{c.id}: starting cities lie in the East")
        if c.incident and not c.west:
            raise _fail(f"{c.id}: incident spaces lie in the West")


def load(path: Path = DATA_FILE) -> Components:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise _fail(f"cannot read the file ({exc})") from None
    return parse(raw)


DATA = load()
CITIES = DATA.cities
NB = DATA.neighbours
PRISON_CITIES = [c for c in DATA.city_order if CITIES[c].prison]
ARRIVALS = [c for c in DATA.city_order if CITIES[c].arrival]
