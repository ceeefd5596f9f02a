"""Lakes: the random layout (CC-2.3) and ownership (CC-7, with the CC-7.3 rulings)."""

from __future__ import annotations

from typing import Any, Final

from games.engine import _rng

from . import board
from .data import DATA, LAKE_VALUES, check_layout, orientations
from .state import Lakes, State, replace_at

Event = dict[str, Any]
ALL: Final = "all"


def random_lakes(rng: int) -> tuple[int, Lakes]:
    """A random lake placement obeying CC-2.3, drawn from generator state ``rng``."""
    tiles = sorted(DATA.lake_tiles, key=lambda t: (t.value != 3, -len(t.shape), t.id))
    corners = {board.index(0, 0), board.index(14, 0), board.index(0, 9), board.index(14, 9)}
    while True:
        placed: list[tuple[str, tuple[int, ...]]] = []
        taken = 0
        for tile in tiles:
            options = []
            for shape in orientations(tile.shape):
                w = max(x for x, _ in shape) + 1
                h = max(y for _, y in shape) + 1
                for oy in range(board.ROWS - h + 1):
                    for ox in range(board.COLS - w + 1):
                        cells = tuple(board.index(ox + x, oy + y) for x, y in shape)
                        mask = sum(1 << c for c in cells)
                        edge = (mask & board.EDGE).bit_count()
                        if tile.value == 3:
                            ok = edge == len(cells) and not corners & set(cells)
                        else:
                            ok = edge == 0
                        if ok and not board.lakes_touch(mask, taken):
                            options.append(cells)
            if not options:
                break
            rng, k = _rng.below(rng, len(options))
            placed.append((tile.id, options[k]))
            taken |= sum(1 << c for c in options[k])
        else:
            order = {t.id: i for i, t in enumerate(DATA.lake_tiles)}
            lakes = tuple(sorted(placed, key=lambda p: order[p[0]]))
            if check_layout(lakes, DATA.lake_tiles) is not None:  # pragma: no cover
                raise RuntimeError("random_lakes built a layout that breaks CC-2.3")
            return rng, lakes


def update_lakes(
    s: State, ev: list[Event], prefer: int, clockwise_from: int, cell: int, second: int = -1
) -> None:
    """CC-7.1/7.2, with the CC-7.3 tie rulings (``prefer`` is the claimer or buyer).
    Only lakes whose shore holds ``cell`` or ``second`` (the cells that changed hands,
    ``second`` -1 if only one did) can change."""
    lay = s.layout
    lakes = lay.shore_lakes[cell]
    if second >= 0:
        more = lay.shore_lakes[second]
        if more:
            lakes = tuple(sorted({*lakes, *more})) if lakes else more
    if not lakes:
        return
    markers = s.markers
    shores = lay.shores
    for i in lakes:
        shore = shores[i]
        counts = list(map(int.bit_count, map(shore.__and__, markers)))
        owner = s.lake_owners[i]
        if owner >= 0:
            if s.n > 1:
                own = counts[owner]
                counts[owner] = -1
                best = max(counts)  # the best of the other seats
                counts[owner] = own
            else:
                best = 0
            if best <= counts[owner]:
                if counts[owner] == 0:
                    set_owner(s, i, -1, ev)
                continue
        else:
            best = max(counts)
            if best == 0:
                continue
        tied = [
            seat for seat in s.seats_from(clockwise_from) if counts[seat] == best and seat != owner
        ]
        set_owner(s, i, prefer if prefer in tied else tied[0], ev)


def set_owner(s: State, lake: int, owner: int, ev: list[Event]) -> None:
    previous = s.lake_owners[lake]
    s.lake_owners = replace_at(s.lake_owners, lake, owner)
    lid = s.lakes[lake][0]
    ev.append(
        {
            "type": "lake_owner_changed",
            "visible_to": ALL,
            "lake": lid,
            "value": LAKE_VALUES[lid],
            "owner": None if owner < 0 else owner,
            "previous": None if previous < 0 else previous,
        }
    )
