"""The Colorado County board as inline SVG, drawn from an engine view (CC-12 ``view``).

``static/js/board.js`` draws the very same markup from the same view dict on live updates;
keep the two in step (a browser test compares them). Colour is never the only cue: player
markers have a shape and a seat number, flags a pennant and a letter, lakes their value.

Geometry: cells are ``CELL`` units square; column letters A to O along the top, row numbers
1 to 10 down the left, ``A1`` top-left. Every cell is a ``<g class="cell" data-cell="C4">``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

COLS = "ABCDEFGHIJKLMNO"
ROWS = 10
CELL = 40
PAD = 22
WIDTH = PAD + CELL * len(COLS) + 2
HEIGHT = PAD + CELL * ROWS + 2

PLAYER_COLOURS = ("orange", "red", "black", "brown")
# One shape per seat, so that colour is never the only cue (seat numbers are inside too).
SHAPES = ("circle", "square", "triangle", "diamond")
FLAG_LETTERS = {"yellow": "Y", "red": "R", "green": "G", "blue": "B"}


def shape_markup(seat: int, size: float = 13.0) -> str:
    """A player's token centred on (0, 0): shape by seat, filled by the seat's colour class."""
    kind = SHAPES[seat % len(SHAPES)]
    s = size
    if kind == "circle":
        body = f'<circle r="{s:g}"/>'
    elif kind == "square":
        body = f'<rect x="{-s * 0.9:g}" y="{-s * 0.9:g}" width="{s * 1.8:g}" height="{s * 1.8:g}"/>'
    elif kind == "triangle":
        body = (
            f'<polygon points="0,{-s * 1.1:g} {s * 1.05:g},{s * 0.8:g} {-s * 1.05:g},{s * 0.8:g}"/>'
        )
    else:
        body = f'<polygon points="0,{-s * 1.15:g} {s * 1.15:g},0 0,{s * 1.15:g} {-s * 1.15:g},0"/>'
    dy = ' dy="3"' if kind == "triangle" else ""
    return f"{body}<text{dy}>{seat + 1}</text>"


def token_svg(seat: int, size: int = 18) -> SafeString:
    """A small standalone token for legends and player lists."""
    return mark_safe(  # noqa: S308 - built from integers only
        f'<svg class="token p{seat}" width="{size}" height="{size}" viewBox="-15 -15 30 30" '
        f'aria-hidden="true" focusable="false">{shape_markup(seat)}</svg>'
    )


def flag_markup(colour: str) -> str:
    letter = FLAG_LETTERS.get(colour, "?")
    return (
        f'<g class="flag f-{escape(colour)}"><line x1="11" y1="6" x2="11" y2="35"/>'
        f'<path d="M12 6 L34 14 L12 22 Z"/><text x="19" y="18">{letter}</text></g>'
    )


def cell_xy(name: str) -> tuple[int, int]:
    return PAD + COLS.index(name[0]) * CELL, PAD + (int(name[1:]) - 1) * CELL


def board_strings() -> dict[str, str]:
    """The translated sentences of the board, shared with ``board.js`` (same templates)."""
    return {
        "title": _("The valley: 15 columns A to O, 10 rows"),
        "seat": _("seat %(n)s"),
        "nobody": _("nobody"),
        "lake": _("%(cell)s: lake worth %(value)s, owned by %(who)s"),
        "border": _("border"),
        "marker": _("marker of %(who)s"),
        "flag": _("%(colour)s flag"),
        "for_sale": _("for sale by %(who)s"),
        "free": _("free"),
        "yellow": _("yellow"),
        "red": _("red"),
        "green": _("green"),
        "blue": _("blue"),
    }


def _fmt(template: str, **values: Any) -> str:
    return template % values


def _name(names: Sequence[str], seat: int, t: Mapping[str, str]) -> str:
    return names[seat] if 0 <= seat < len(names) else _fmt(t["seat"], n=seat + 1)


def cell_title(
    name: str,
    content: Mapping[str, Any] | None,
    lake: Mapping[str, Any] | None,
    border: bool,
    names: Sequence[str],
    t: Mapping[str, str],
) -> str:
    if lake is not None:
        owner = lake.get("owner")
        who = _name(names, int(owner), t) if owner is not None else t["nobody"]
        return _fmt(t["lake"], cell=name, value=lake["value"], who=who)
    parts = [name]
    if border:
        parts.append(t["border"])
    if content:
        if "marker" in content:
            parts.append(_fmt(t["marker"], who=_name(names, int(content["marker"]), t)))
        elif "flag" in content:
            colour = str(content["flag"])
            parts.append(_fmt(t["flag"], colour=t.get(colour, colour)))
        elif "for_sale" in content:
            parts.append(_fmt(t["for_sale"], who=_name(names, int(content["for_sale"]), t)))
    else:
        parts.append(t["free"])
    return ", ".join(parts)


def render_board(view: Mapping[str, Any], names: Sequence[str] = ()) -> SafeString:
    """The SVG markup for ``view['board']``. ``names`` are the players' names by seat."""
    t = board_strings()
    board = view["board"]
    cells: Mapping[str, Mapping[str, Any]] = board.get("cells", {})
    lakes = board.get("lakes", [])
    border = set(board.get("border", []))
    lake_of: dict[str, Mapping[str, Any]] = {}
    for lake in lakes:
        for c in lake["cells"]:
            lake_of[c] = lake
    out: list[str] = [
        f'<svg class="board-svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'xmlns="http://www.w3.org/2000/svg" aria-labelledby="board-title">',
        f'<title id="board-title">{escape(t["title"])}</title>',
        '<g class="labels" aria-hidden="true">',
    ]
    for i, col in enumerate(COLS):
        out.append(f'<text x="{PAD + i * CELL + CELL // 2}" y="{PAD - 7}">{col}</text>')
    for r in range(ROWS):
        out.append(f'<text x="{PAD // 2}" y="{PAD + r * CELL + CELL // 2 + 5}">{r + 1}</text>')
    out.append('</g><g class="cells">')
    for r in range(ROWS):
        for col in COLS:
            name = f"{col}{r + 1}"
            x, y = cell_xy(name)
            lake = lake_of.get(name)
            content = cells.get(name)
            classes = ["cell", "lake" if lake is not None else "land"]
            if name in border:
                classes.append("border")
            title = cell_title(name, content, lake, name in border, names, t)
            parts = [
                f'<g class="{" ".join(classes)}" data-cell="{name}" '
                f'transform="translate({x},{y})"><title>{escape(title)}</title>'
                f'<rect class="ground" width="{CELL}" height="{CELL}"/>'
            ]
            if lake is None and name in border:
                parts.append('<path class="border-mark" d="M3 3 L9 3 M3 3 L3 9"/>')
            if content:
                if "marker" in content:
                    seat = int(content["marker"])
                    parts.append(
                        f'<g class="marker p{seat}" transform="translate(20,20)">'
                        f"{shape_markup(seat)}</g>"
                    )
                elif "flag" in content:
                    parts.append(flag_markup(str(content["flag"])))
                elif "for_sale" in content:
                    seat = int(content["for_sale"])
                    parts.append(
                        f'<g class="marker p{seat} for-sale" transform="translate(20,20)">'
                        f"{shape_markup(seat)}</g>"
                    )
            parts.append("</g>")
            out.append("".join(parts))
    out.append('</g><g class="lake-labels" aria-hidden="true">')
    for lake in lakes:
        xs = [cell_xy(c) for c in lake["cells"]]
        cx = sum(p[0] for p in xs) / len(xs) + CELL / 2
        cy = sum(p[1] for p in xs) / len(xs) + CELL / 2
        out.append(
            f'<g class="lake-label" data-lake="{escape(lake["id"])}" '
            f'transform="translate({cx:g},{cy:g})">'
            f'<circle class="lake-value" r="11"/><text dy="5">{int(lake["value"])}</text>'
        )
        owner = lake.get("owner")
        if owner is not None:
            out.append(
                f'<g class="marker owner p{int(owner)}" transform="translate(17,-13) scale(0.6)">'
                f"{shape_markup(int(owner))}</g>"
            )
        out.append("</g>")
    out.append("</g></svg>")
    return mark_safe("".join(out))  # noqa: S308 - every dynamic string is escaped above


def render_card(card: Mapping[str, Any]) -> SafeString:
    """A land card: its flag colour (with letter) and the star pattern on a small grid."""
    colour = str(card.get("colour", ""))
    offset = card.get("offset")
    dx, dy = offset or (0, 0)
    # grid spans the star positions; flag star at (0,0)
    cols = max(dx, 0) + 1
    rows = max(dy, 0) + 1
    size = 14
    w, h = cols * size, rows * size
    stars = [(0, 0)] + ([(dx, dy)] if offset else [])
    inner = [f'<rect class="card-grid" width="{w}" height="{h}"/>']
    for gx in range(cols):
        for gy in range(rows):
            inner.append(
                f'<rect class="card-cell" x="{gx * size}" y="{gy * size}" '
                f'width="{size}" height="{size}"/>'
            )
    for i, (sx, sy) in enumerate(stars):
        cls = "star flag-star" if i == 0 else "star"
        inner.append(
            f'<path class="{cls}" transform="translate({sx * size + 7},{sy * size + 7})" '
            'd="M0,-6 L1.8,-1.9 L6,-1.9 L2.6,0.8 L3.8,5 L0,2.5 L-3.8,5 L-2.6,0.8 L-6,-1.9 '
            'L-1.8,-1.9 Z"/>'
        )
    label = FLAG_LETTERS.get(colour, "?")
    return mark_safe(  # noqa: S308 - colour escaped, numbers only otherwise
        f'<svg class="card-svg c-{escape(colour)}" viewBox="-4 -4 {w + 8} {h + 8}" '
        f'width="{(w + 8) * 2}" height="{(h + 8) * 2}" aria-hidden="true" focusable="false">'
        f'{"".join(inner)}</svg><span class="card-letter">{label}</span>'
    )
