"""Component data (CC-1.9, CC-1.10, CC-8 table) loaded from ``components.json``.

The file is validated when this module is imported; a malformed file raises
``ComponentDataError`` naming the problem, so a bad edit never reaches a game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from . import board

DATA_FILE: Final = Path(__file__).with_name("components.json")


class ComponentDataError(ValueError):
    """The component data file is malformed."""


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    colour: str
    colour_index: int
    offset: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class LakeTile:
    id: str
    value: int
    shape: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Components:
    player_colours: tuple[str, ...]
    flag_colours: tuple[str, ...]
    cowboys: int
    starting_hand: int
    sale_cards: dict[int, int]
    sales_per_round: int
    cards: tuple[Card, ...]
    lake_tiles: tuple[LakeTile, ...]
    first_game_layout: tuple[tuple[str, tuple[int, ...]], ...]
    border_points: tuple[tuple[int, int], ...]
    lake_points: tuple[int | None, ...]  # None: the lake's printed value
    double_points: tuple[int, ...]
    area_points: tuple[tuple[int, int], ...]


def _fail(msg: str) -> ComponentDataError:
    return ComponentDataError(f"{DATA_FILE.name}: {msg}")


def orientations(shape: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], ...]]:
    """The distinct rotations (no mirror images) of a shape, each normalised and sorted."""
    out: list[tuple[tuple[int, int], ...]] = []
    cur = list(shape)
    for _ in range(4):
        mx = min(x for x, _ in cur)
        my = min(y for _, y in cur)
        norm = tuple(sorted((x - mx, y - my) for x, y in cur))
        if norm not in out:
            out.append(norm)
        cur = [(-y, x) for x, y in cur]
    return out


def check_layout(
    lakes: tuple[tuple[str, tuple[int, ...]], ...], tiles: tuple[LakeTile, ...]
) -> str | None:
    """Return why a lake placement breaks CC-2.3 (or uses wrong shapes), or None if fine."""
    by_id = {t.id: t for t in tiles}
    if sorted(lid for lid, _ in lakes) != sorted(by_id):
        return "the layout must place every lake tile exactly once"
    masks = []
    for lid, cells in lakes:
        tile = by_id[lid]
        pts = [board.xy(c) for c in cells]
        mx = min(x for x, _ in pts)
        my = min(y for _, y in pts)
        norm = tuple(sorted((x - mx, y - my) for x, y in pts))
        if len(set(cells)) != len(cells) or norm not in orientations(tile.shape):
            return f"{lid} does not have the shape of its tile"
        mask = sum(1 << c for c in cells)
        on_edge = (mask & board.EDGE).bit_count()
        if tile.value == 3:
            corners = {board.index(0, 0), board.index(14, 0), board.index(0, 9), board.index(14, 9)}
            if on_edge != len(cells) or corners & set(cells):
                return f"{lid} must lie on border cells and not in a corner"
        elif on_edge:
            return f"{lid} must not lie on a border cell"
        masks.append(mask)
    for i, a in enumerate(masks):
        for b in masks[i + 1 :]:
            if board.lakes_touch(a, b):
                return "two lakes overlap or are adjacent"
    return None


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _fail(f"{what} must be an integer")
    return v


def parse(raw: Any) -> Components:
    """Validate the decoded JSON and build the component tables."""
    if not isinstance(raw, dict):
        raise _fail("top level must be an object")
    try:
        flag_colours = tuple(str(c) for c in raw["flag_colours"])
        player_colours = tuple(str(c) for c in raw["player_colours"])
        if len(flag_colours) != 4 or len(set(flag_colours)) != 4:
            raise _fail("flag_colours must list four distinct colours")
        if len(player_colours) != 4:
            raise _fail("player_colours must list four colours")
        b = raw["board"]
        if b != {"columns": board.COLS, "rows": board.ROWS}:
            raise _fail("board must be 15 columns by 10 rows")
        cards: list[Card] = []
        for c in raw["cards"]:
            cid, colour, off = str(c["id"]), c["colour"], c["offset"]
            if colour not in flag_colours:
                raise _fail(f"card {cid} has an unknown colour")
            offset = None
            if off is not None:
                dx, dy = (_int(v, f"offset of {cid}") for v in off)
                if (dx, dy) == (0, 0) or abs(dx) > 14 or abs(dy) > 14:
                    raise _fail(f"card {cid} has a bad offset")
                offset = (dx, dy)
            cards.append(Card(cid, colour, flag_colours.index(colour), offset))
        if len(cards) != 48 or len({c.id for c in cards}) != 48:
            raise _fail("there must be 48 land cards with distinct ids")
        for colour in flag_colours:
            if sum(c.colour == colour for c in cards) != 12:
                raise _fail(f"there must be 12 {colour} cards")
        tiles: list[LakeTile] = []
        for t in raw["lakes"]:
            shape = tuple((_int(x, "lake shape"), _int(y, "lake shape")) for x, y in t["shape"])
            tiles.append(LakeTile(str(t["id"]), _int(t["value"], "lake value"), shape))
        if sorted(len(t.shape) for t in tiles) != [2, 3, 4, 4, 4, 5]:
            raise _fail("lake tiles must have sizes 2, 3, 4, 4, 4, 5")
        if sum(t.value == 3 for t in tiles) != 1:
            raise _fail("exactly one lake tile must have value 3")
        first: list[tuple[str, tuple[int, ...]]] = []
        for t in tiles:
            names = raw["first_game_layout"][t.id]
            if any(n not in board.CELL_INDEX for n in names):
                raise _fail(f"first_game_layout of {t.id} names an unknown cell")
            first.append((t.id, tuple(board.CELL_INDEX[n] for n in names)))
        tiles_t = tuple(tiles)
        layout = tuple(first)
        problem = check_layout(layout, tiles_t)
        if problem:
            raise _fail(f"first_game_layout: {problem}")
        val = raw["valuation"]
        lake_points = tuple(
            None if p == "value" else _int(p, "lake points") for p in val["lake_points"]
        )
        comps = Components(
            player_colours=player_colours,
            flag_colours=flag_colours,
            cowboys=_int(raw["cowboys"], "cowboys"),
            starting_hand=_int(raw["starting_hand"], "starting_hand"),
            sale_cards={int(k): _int(v, "sale_cards") for k, v in raw["sale_cards"].items()},
            sales_per_round=_int(raw["sales_per_round"], "sales_per_round"),
            cards=tuple(cards),
            lake_tiles=tiles_t,
            first_game_layout=layout,
            border_points=tuple((_int(a, "points"), _int(b, "points")) for a, b in val["border"]),
            lake_points=lake_points,
            double_points=tuple(_int(p, "points") for p in val["double"]),
            area_points=tuple((_int(a, "points"), _int(b, "points")) for a, b in val["area"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, ComponentDataError):
            raise
        raise _fail(f"missing or malformed entry ({exc!r})") from exc
    if comps.cowboys != 66 or sorted(comps.sale_cards) != [2, 3, 4]:
        raise _fail("there must be 66 cowboys and sale card counts for 2, 3 and 4 players")
    for table in (comps.border_points, comps.lake_points, comps.double_points, comps.area_points):
        if len(table) != 4:
            raise _fail("the valuation table needs one entry per round")
    return comps


def load(path: Path = DATA_FILE) -> Components:
    """Read and validate a component data file."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ComponentDataError(f"{path.name}: cannot read component data ({exc})") from exc
    return parse(raw)


DATA: Final = load()
CARDS: Final = DATA.cards
CARD_INDEX: Final = {c.id: i for i, c in enumerate(CARDS)}
COLOURS: Final = DATA.flag_colours
COLOUR_INDEX: Final = {c: i for i, c in enumerate(COLOURS)}
LAKE_VALUES: Final = {t.id: t.value for t in DATA.lake_tiles}
