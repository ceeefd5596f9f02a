"""Board geometry as bitmasks (CC-1.2 .. CC-1.5, CC-1.12).

Cell ``i = row * 15 + column`` (0-based), named column letter + row number: ``A1`` is 0,
``O10`` is 149. A set of cells is a Python int with bit ``i`` set for cell ``i``; adjacency
is orthogonal only. ``Layout`` holds everything derived from one lake placement (land,
border and shore masks) and is cached, so states only store the lake cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

COLS: Final = 15
ROWS: Final = 10
NCELLS: Final = COLS * ROWS
FULL: Final = (1 << NCELLS) - 1
COL_NAMES: Final = "ABCDEFGHIJKLMNO"
CELL_NAMES: Final[tuple[str, ...]] = tuple(
    f"{COL_NAMES[i % COLS]}{i // COLS + 1}" for i in range(NCELLS)
)
CELL_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(CELL_NAMES)}
COL_A: Final = sum(1 << (r * COLS) for r in range(ROWS))
COL_O: Final = COL_A << (COLS - 1)
NOT_COL_A: Final = FULL & ~COL_A
NOT_COL_O: Final = FULL & ~COL_O
EDGE: Final = FULL & (
    COL_A | COL_O | ((1 << COLS) - 1) | (((1 << COLS) - 1) << (COLS * (ROWS - 1)))
)
BIT: Final[tuple[int, ...]] = tuple(1 << i for i in range(NCELLS))


def xy(i: int) -> tuple[int, int]:
    """Column and row (0-based) of cell ``i``."""
    return i % COLS, i // COLS


def index(x: int, y: int) -> int:
    """Cell index of column ``x`` and row ``y`` (0-based); no bounds check."""
    return y * COLS + x


def on_board(x: int, y: int) -> bool:
    return 0 <= x < COLS and 0 <= y < ROWS


def grow(mask: int) -> int:
    """``mask`` plus every cell orthogonally adjacent to it."""
    return (
        mask
        | ((mask << 1) & NOT_COL_A)
        | ((mask >> 1) & NOT_COL_O)
        | ((mask << COLS) & FULL)
        | (mask >> COLS)
    )


NEIGHBOURS: Final[tuple[int, ...]] = tuple(grow(1 << i) & ~(1 << i) for i in range(NCELLS))
NEIGHBOUR_CELLS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(j for j in range(NCELLS) if NEIGHBOURS[i] >> j & 1) for i in range(NCELLS)
)


_CHUNKS: Final = (NCELLS + 7) // 8 + 1
_BYTE_BITS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256))
    for k in range(_CHUNKS)
)


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask`` (below 160), ascending. Sparse masks (flags, a
    bid) take the lowest bit at a time; dense ones (free land, the bag) a byte at a time
    through a table."""
    out: list[int] = []
    if mask.bit_count() <= 6:
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    raw = mask.to_bytes((mask.bit_length() + 7) >> 3, "little")
    for i in range(len(raw)):  # an index loop: compiled, bytes and tuples index natively
        b = raw[i]
        if b:
            out += _BYTE_BITS[i][b]
    return out


def components(mask: int) -> list[int]:
    """Split ``mask`` into its orthogonally connected groups (CC-1.12)."""
    groups = []
    while mask:
        comp = mask & -mask
        while True:
            nxt = grow(comp) & mask
            if nxt == comp:
                break
            comp = nxt
        groups.append(comp)
        mask &= ~comp
    return groups


def component_sizes(mask: int) -> list[int]:
    """Sizes of the orthogonally connected groups of ``mask``, in no particular order.
    Isolated cells are counted with a few whole-mask shifts; the rest by a search over
    cell indices (small ints, so no big-int arithmetic per cell)."""
    # cells with a neighbour in the mask
    linked = mask & (
        ((mask << 1) & NOT_COL_A) | ((mask >> 1) & NOT_COL_O) | (mask << COLS) | (mask >> COLS)
    )
    sizes = [1] * (mask ^ linked).bit_count()
    if linked:
        sizes.extend(_searched_sizes(linked))
    return sizes


def _searched_sizes(mask: int) -> list[int]:
    """Sizes of the groups of ``mask`` found by a search over cell indices (small ints, so
    no big-int arithmetic per cell)."""
    cells = set(bits(mask))
    pop = cells.pop
    remove = cells.remove
    neighbours = NEIGHBOUR_CELLS
    sizes = []
    while cells:
        todo = [pop()]
        size = 0
        while todo:
            size += 1
            for nb in neighbours[todo.pop()]:
                if nb in cells:
                    remove(nb)
                    todo.append(nb)
        sizes.append(size)
    return sizes


def pairs_and_largest(mask: int) -> tuple[int, int]:
    """The number of groups of exactly two cells in ``mask`` and the size of its largest
    group (0 if empty), as ``component_sizes`` would give them. Lone cells and pairs are
    found with whole-mask shifts; only the cells of larger groups are searched."""
    east = mask & (mask >> 1) & NOT_COL_O  # cells whose east neighbour is in the mask
    west = mask & (mask << 1) & NOT_COL_A
    south = mask & (mask >> COLS)
    north = mask & (mask << COLS)
    linked = east | west | south | north
    if not linked:
        return 0, 1 if mask else 0
    one = linked & ~((east & (west | south | north)) | (west & (south | north)) | (south & north))
    across = one & east & (one >> 1)  # the west cell of each lone horizontal pair
    down = one & south & (one >> COLS)  # the north cell of each lone vertical pair
    pairs = across.bit_count() + down.bit_count()
    rest = linked & ~(across | (across << 1) | down | (down << COLS))
    # What is left after the lone pairs are groups of three or more cells.
    return pairs, max(_searched_sizes(rest)) if rest else 2


def rotations(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """The distinct images of offset ``(dx, dy)`` under the four rotations (CC-6.2)."""
    out: list[tuple[int, int]] = []
    for off in ((dx, dy), (-dy, dx), (-dx, -dy), (dy, -dx)):
        if off not in out:
            out.append(off)
    return tuple(out)


@lru_cache(maxsize=4096)
def targets(cell: int, dx: int, dy: int) -> tuple[int, ...]:
    """Cells (on the board) at offset ``(dx, dy)`` from ``cell`` under any rotation."""
    x, y = xy(cell)
    return tuple(index(x + ox, y + oy) for ox, oy in rotations(dx, dy) if on_board(x + ox, y + oy))


@dataclass(frozen=True, slots=True)
class Layout:
    """Derived masks for one lake placement. ``lakes`` is ``((lake_id, cells), ...)``."""

    lakes: tuple[tuple[str, tuple[int, ...]], ...]
    lake_masks: tuple[int, ...]
    shores: tuple[int, ...]
    water: int
    land: int
    border: int
    shore_lakes: tuple[tuple[int, ...], ...]  # per cell: the lakes whose shore holds it


@lru_cache(maxsize=256)
def layout(lakes: tuple[tuple[str, tuple[int, ...]], ...]) -> Layout:
    """Build (once per distinct placement) the masks of a lake layout."""
    masks = tuple(sum(1 << c for c in cells) for _, cells in lakes)
    water = 0
    for m in masks:
        water |= m
    land = FULL & ~water
    shores = tuple(grow(m) & land for m in masks)
    shore_lakes = tuple(
        tuple(i for i, shore in enumerate(shores) if shore >> c & 1) for c in range(NCELLS)
    )
    return Layout(lakes, masks, shores, water, land, EDGE & land, shore_lakes)


def lakes_touch(a: int, b: int) -> bool:
    """True if two cell sets overlap or are orthogonally adjacent."""
    return bool(grow(a) & b)
