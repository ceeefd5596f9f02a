"""The site's own components for Colorado (CO-1 … CO-9 in ``docs/rules.md``): the deck,
the road map (regions, their legs and benefits, the paths and mountains between them, the
railway with its junction) and the reward board (tracks, their rewards, badge row).

Everything here is the site's design after the original, whose map and values are not
public; the numbers are tuned with ``python -m games.engine simulate`` (docs/rules.md).
"""

from __future__ import annotations

from dataclasses import dataclass

#: CO-1: six colours, values 1 to 3, three copies of each card (54 cards).
COLOURS: tuple[str, ...] = ("red", "green", "grey", "purple", "blue", "orange")
VALUES: tuple[int, ...] = (1, 2, 3)
COPIES = 3
#: A colour's action type (the help page).
ACTION_OF: dict[str, str] = {
    "red": "nugget",
    "green": "nugget",
    "grey": "card",
    "purple": "card",
    "blue": "check",
    "orange": "check",
}
ACTION_TYPES: tuple[str, ...] = ("nugget", "card", "check")
CARDS: tuple[str, ...] = tuple(f"{c}-{v}" for c in COLOURS for v in VALUES)


def colour_of(card: str) -> str:
    return card.rpartition("-")[0]


def value_of(card: str) -> int:
    return int(card.rpartition("-")[2])


def full_deck() -> list[str]:
    return [c for c in CARDS for _ in range(COPIES)]


#: Region kinds by flag colour (the help page): towns, forests, deserts, lakes.
KINDS: tuple[str, ...] = ("town", "forest", "desert", "lake")
FLAG_COLOUR: dict[str, str] = {
    "town": "red",
    "forest": "green",
    "desert": "yellow",
    "lake": "blue",
}
#: CO-4: points a completed region scores, by kind.
REGION_POINTS: dict[str, int] = {"town": 2, "forest": 5, "desert": 6, "lake": 4}

#: Leg benefits (CO-5): a bonus action of a type, one step on a track, or a nugget.
BENEFITS: tuple[str, ...] = ("", "nugget", "card", "check", "tipi", "wanted", "saloon", "gold")


@dataclass(frozen=True)
class Region:
    id: str
    kind: str
    x: int  # column on the sheet (0..3)
    y: int  # row on the sheet (0..3)
    parents: tuple[int, ...]  # leg i hangs on leg parents[i] (-1: on the flag)
    benefits: tuple[str, ...]  # what ticking leg i gives (CO-5)

    @property
    def points(self) -> int:
        return REGION_POINTS[self.kind]

    def leg(self, i: int) -> str:
        return f"{self.id}.{i}"


def _r(rid: str, kind: str, x: int, y: int, parents: str, benefits: str) -> Region:
    return Region(
        rid,
        kind,
        x,
        y,
        tuple(int(p) for p in parents.split()),
        tuple("" if b == "-" else b for b in benefits.split()),
    )


#: CO-2: the road map, four by four regions (x: west to east, y: north to south).
REGIONS: tuple[Region, ...] = (
    _r("D1", "desert", 0, 0, "-1", "wanted"),
    _r("F1", "forest", 1, 0, "-1 0 1", "check gold saloon"),
    _r("L1", "lake", 2, 0, "-1 0 -1 2", "nugget check tipi card"),
    _r("D2", "desert", 3, 0, "-1 0", "saloon check"),
    _r("F2", "forest", 0, 1, "-1 0 1", "card check tipi"),
    _r("L2", "lake", 1, 1, "-1 0 -1 2", "check wanted gold check"),
    _r("D3", "desert", 2, 1, "-1 0", "tipi check"),
    _r("F3", "forest", 3, 1, "-1 0 1", "nugget check wanted"),
    _r("L3", "lake", 0, 2, "-1 0 -1 2", "gold check tipi card"),
    _r("F4", "forest", 1, 2, "-1 0 1", "tipi check card"),
    _r("L4", "lake", 2, 2, "-1 0 -1 2", "card saloon check gold"),
    _r("D4", "desert", 3, 2, "-1", "check"),
    _r("T1", "town", 0, 3, "-1 0", "check nugget"),
    _r("L5", "lake", 1, 3, "-1 0 -1 2", "tipi check wanted check"),
    _r("F5", "forest", 2, 3, "-1 0 1", "saloon check card"),
    _r("T2", "town", 3, 3, "-1 0", "card check"),
)
REGION: dict[str, Region] = {r.id: r for r in REGIONS}
TOWNS: tuple[str, ...] = ("T1", "T2")
KIND_COUNT: dict[str, int] = {k: sum(r.kind == k for r in REGIONS) for k in KINDS}
#: CO-2: mountains lie between these neighbours: no flag crosses them.
MOUNTAINS: frozenset[frozenset[str]] = frozenset(
    frozenset(p) for p in (("D1", "F2"), ("L2", "D3"), ("L4", "F5"), ("D2", "F3"), ("F4", "L5"))
)


def _neighbours() -> dict[str, tuple[str, ...]]:
    at = {(r.x, r.y): r.id for r in REGIONS}
    out: dict[str, tuple[str, ...]] = {}
    for r in REGIONS:
        near = []
        for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
            other = at.get((r.x + dx, r.y + dy))
            if other is not None and frozenset((r.id, other)) not in MOUNTAINS:
                near.append(other)
        out[r.id] = tuple(near)
    return out


#: The dashed paths: neighbours on the sheet not parted by mountains.
NEIGHBOURS: dict[str, tuple[str, ...]] = _neighbours()
LEG_COUNT = sum(len(r.parents) for r in REGIONS)


@dataclass(frozen=True)
class RailLeg:
    kind: str  # CO-3: the region kind a ticked leg must match
    after: int  # the railway leg it continues (-1: the station)
    benefit: str
    points: int = 0  # points at the end of a branch


#: CO-3: the railway: a trunk of three legs, then two branches at the junction.
RAILWAY: tuple[RailLeg, ...] = (
    RailLeg("lake", -1, "gold"),
    RailLeg("forest", 0, "card"),
    RailLeg("lake", 1, "check"),
    RailLeg("desert", 2, "nugget"),  # branch west
    RailLeg("forest", 3, "saloon"),
    RailLeg("lake", 4, "", 6),
    RailLeg("lake", 2, "wanted"),  # branch east
    RailLeg("desert", 6, "", 4),
)
JUNCTION = 2
BRANCHES: tuple[tuple[int, ...], ...] = ((3, 4, 5), (6, 7))

#: CO-6: the flag tracks: points by number of flags of that colour (the furthest column
#: reached scores at the end), and the completion points of the first to fill one.
FLAG_TRACK_POINTS: dict[str, tuple[int, ...]] = {
    "town": (0, 1, 3),
    "forest": (0, 1, 2, 4, 6, 9),
    "desert": (0, 2, 4, 7, 10),
    "lake": (0, 1, 2, 3, 5, 7),
}
FLAG_TRACK_BONUS: dict[str, int] = {"town": 2, "forest": 5, "desert": 5, "lake": 4}

#: CO-7: the tipi (7 boxes, the first entry on the centre), wanted (5) and saloon (4)
#: tracks; the rewards of the first and the second to reach each end.
TIPI_BOXES = 7
TIPI_CENTRE = 3
WANTED_BOXES = 4
SALOON_BOXES = 3
WANTED_SECOND_ENTRY_NUGGETS = 2
ENDS: tuple[str, ...] = ("tipi_west", "tipi_east", "wanted", "saloon")
END_REWARDS: dict[str, tuple[int, int]] = {
    "tipi_west": (5, 2),
    "tipi_east": (5, 2),
    "wanted": (6, 3),
    "saloon": (4, 2),
}

#: CO-8: set-up and the end.
START_NUGGETS = 3
HAND_SIZES: tuple[int, ...] = (4, 5, 6, 7)
REFILL = 3
BADGE_BOXES = 10
BADGES_TO_END = 7
ROUND_LIMIT = 40
