"""Colorado's sheets and reward board as inline SVG, drawn on the server from a view.

A road map is four by four regions (CO-2) above the railway (CO-3). Each region shows its
kind by colour and by a letter (T, F, D, L: colour is never the only cue), its points, its
flag (a pennant, filled once ticked) and its legs, each with its benefit's symbol (the
legend names them). Legs and flags the player may tick now are buttons (``<button>`` in a
``foreignObject``) that post the move: the template wraps one's own sheet in the form.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from . import words
from .engine.data import (
    BADGE_BOXES,
    END_REWARDS,
    FLAG_TRACK_POINTS,
    KINDS,
    MOUNTAINS,
    NEIGHBOURS,
    RAILWAY,
    REGION,
    REGIONS,
    SALOON_BOXES,
    TIPI_BOXES,
    WANTED_BOXES,
)

W, H, GAP = 150, 104, 18
MAP_W = 4 * W + 3 * GAP
RAIL_Y = 4 * H + 3 * GAP + 24
SHEET_H = RAIL_Y + 92
KIND_FILL = {"town": "#f2c4b3", "forest": "#b7dcae", "desert": "#f3e19b", "lake": "#a9cfef"}
KIND_LETTER = {"town": "T", "forest": "F", "desert": "D", "lake": "L"}
FLAG_FILL = {"town": "#c0392b", "forest": "#2e7d32", "desert": "#b8860b", "lake": "#1f5fa8"}
SEAT_FILL = ("#c62828", "#1565c0", "#2e7d32", "#f9a825")
#: One symbol per leg benefit (the legend names them).
SYMBOL = {
    "": "",
    "nugget": "◆",
    "card": "▭",
    "check": "✓",
    "tipi": "▲",
    "wanted": "★",
    "saloon": "♣",
    "gold": "●",
}


def _origin(x: int, y: int) -> tuple[int, int]:
    return x * (W + GAP), y * (H + GAP)


def _leg_xy(parents: Sequence[int], i: int) -> tuple[int, int]:
    """Legs hang in rows under the flag: a new row starts at each leg on the flag."""
    roots = [j for j, p in enumerate(parents) if p < 0]
    row = max(k for k, r in enumerate(roots) if r <= i)
    depth = i - roots[row]
    return 44 + depth * 34, 30 + row * 36


def _button(x: float, y: float, size: int, action: Mapping[str, Any], label: str) -> str:
    value = escape(json.dumps(dict(action), sort_keys=True))
    return (
        f'<foreignObject x="{x:g}" y="{y:g}" width="{size}" height="{size}">'
        f'<button xmlns="http://www.w3.org/1999/xhtml" class="co-hit" type="submit" '
        f'name="action" value="{value}" aria-label="{escape(label)}" title="{escape(label)}">'
        f"</button></foreignObject>"
    )


def _region(r: Any, sheet: Mapping[str, Any], moves: Mapping[str, Mapping[str, Any]]) -> str:
    ox, oy = _origin(r.x, r.y)
    flagged = r.id in (sheet.get("flags") or ())
    legs = set(sheet.get("legs") or ())
    out = [
        f'<g class="co-region{" on" if flagged else ""}" transform="translate({ox},{oy})">',
        f'<rect width="{W}" height="{H}" rx="10" fill="{KIND_FILL[r.kind]}" '
        f'stroke="{FLAG_FILL[r.kind] if flagged else "#8a7a66"}" '
        f'stroke-width="{3 if flagged else 1}"/>',
        f'<text class="co-id" x="{W - 8}" y="16" text-anchor="end">'
        f"{KIND_LETTER[r.kind]}{r.id[1:]}</text>",
        f'<text class="co-points" x="{W - 8}" y="{H - 8}" text-anchor="end">{r.points}</text>',
    ]
    # the flag: a pole and a pennant, filled when ticked
    fill = FLAG_FILL[r.kind] if flagged else "#fff"
    out.append(
        f'<path d="M14 16 v28" stroke="#333" stroke-width="2"/>'
        f'<path d="M15 16 l16 6 l-16 6 z" fill="{fill}" '
        f'stroke="{FLAG_FILL[r.kind]}" stroke-width="1.5"/>'
    )
    for i, parent in enumerate(r.parents):
        x, y = _leg_xy(r.parents, i)
        px, py = (16, 30) if parent < 0 else _leg_xy(r.parents, parent)
        out.append(f'<path d="M{px + 12} {py} H{x - 12}" stroke="#555" stroke-width="2"/>')
    for i in range(len(r.parents)):
        x, y = _leg_xy(r.parents, i)
        code = r.leg(i)
        ticked = code in legs
        lit = code in moves
        cls = "co-leg" + (" ticked" if ticked else "") + (" lit" if lit else "")
        out.append(
            f'<g class="{cls}"><rect x="{x - 12}" y="{y - 12}" width="24" height="24" rx="5"/>'
            f'<text x="{x}" y="{y + 5}" text-anchor="middle">{SYMBOL[r.benefits[i]]}</text>'
        )
        if ticked:
            out.append(f'<path class="co-tick" d="M{x - 9} {y} l6 7 l12 -15"/>')
        out.append("</g>")
        if lit:
            out.append(_button(x - 12, y - 12, 24, moves[code], words.action_label(moves[code])))
    if r.id in moves:
        out.append(_button(6, 10, 34, moves[r.id], words.action_label(moves[r.id])))
        out.append('<rect class="co-flag-lit" x="6" y="10" width="30" height="36" rx="6"/>')
    out.append("</g>")
    return "".join(out)


def _between() -> str:
    """Dashed paths between neighbours, mountains where no flag may cross."""
    out = []
    done: set[frozenset[str]] = set()
    by_id = {r.id: r for r in REGIONS}
    for a in REGIONS:
        for b in REGIONS:
            pair = frozenset((a.id, b.id))
            if pair in done or abs(a.x - b.x) + abs(a.y - b.y) != 1:
                continue
            done.add(pair)
            ax, ay = _origin(a.x, a.y)
            bx, by = _origin(b.x, b.y)
            cx, cy = (ax + bx) / 2 + W / 2, (ay + by) / 2 + H / 2
            if pair in MOUNTAINS:
                out.append(
                    f'<path class="co-mountain" '
                    f'd="M{cx - 14:g} {cy + 8:g} l8 -16 l6 10 l5 -7 l9 13 z"/>'
                )
            elif b.id in NEIGHBOURS[a.id]:
                dx, dy = (bx - ax) / (W + GAP), (by - ay) / (H + GAP)
                x1, y1 = cx - dx * (GAP / 2 + 10), cy - dy * (GAP / 2 + 10)
                x2, y2 = cx + dx * (GAP / 2 + 10), cy + dy * (GAP / 2 + 10)
                out.append(f'<path class="co-path" d="M{x1:g} {y1:g} L{x2:g} {y2:g}"/>')
    del by_id
    return "".join(out)


def _railway(sheet: Mapping[str, Any], moves: Mapping[str, Mapping[str, Any]]) -> str:
    rail = set(sheet.get("rail") or ())
    pos = {
        0: (40, 46),
        1: (100, 46),
        2: (160, 46),
        3: (230, 22),
        4: (290, 22),
        5: (350, 22),
        6: (230, 70),
        7: (290, 70),
    }
    out = [
        f'<g class="co-rail" transform="translate(0,{RAIL_Y})">',
        f'<rect x="0" y="0" width="{MAP_W}" height="90" rx="10" class="co-rail-bg"/>',
    ]
    for i, leg in enumerate(RAILWAY):
        x, y = pos[i]
        px, py = (10, 46) if leg.after < 0 else pos[leg.after]
        out.append(f'<path class="co-track" d="M{px + 12} {py} L{x - 12} {y}"/>')
    for i, leg in enumerate(RAILWAY):
        x, y = pos[i]
        key = f"rail:{i}"
        cls = "co-leg" + (" ticked" if i in rail else "") + (" lit" if key in moves else "")
        out.append(
            f'<g class="{cls}"><rect x="{x - 12}" y="{y - 12}" width="24" height="24" rx="5" '
            f'stroke="{FLAG_FILL[leg.kind]}" stroke-width="3"/>'
            f'<text x="{x}" y="{y + 5}" text-anchor="middle">'
            f"{SYMBOL[leg.benefit] or leg.points}</text>"
        )
        if i in rail:
            out.append(f'<path class="co-tick" d="M{x - 9} {y} l6 7 l12 -15"/>')
        out.append("</g>")
        if key in moves:
            out.append(_button(x - 12, y - 12, 24, moves[key], words.action_label(moves[key])))
    out.append("</g>")
    return "".join(out)


def sheet_svg(
    sheet: Mapping[str, Any],
    seat: int,
    label: str,
    legal: Sequence[Mapping[str, Any]] = (),
    small: bool = False,
) -> SafeString:
    """One player's road map; ``legal``: the moves to draw as buttons (one's own sheet)."""
    moves: dict[str, Mapping[str, Any]] = {}
    for a in legal:
        if a.get("type") == "tick":
            moves[str(a.get("leg"))] = a
        elif a.get("type") == "flag":
            moves[str(a.get("region"))] = a
        elif a.get("type") == "rail":
            moves[f"rail:{a.get('leg')}"] = a
    body = _between() + "".join(_region(r, sheet, moves) for r in REGIONS)
    body += _railway(sheet, moves)
    cls = "co-sheet small" if small else "co-sheet"
    return mark_safe(  # noqa: S308 - numbers, fixed symbols and escaped words only
        f'<svg class="{cls} seat{seat}" viewBox="-4 -4 {MAP_W + 8} {SHEET_H + 8}" role="img" '
        f'aria-label="{escape(label)}">{body}</svg>'
    )


def _track_row(
    y: int, label: str, boxes: int, marks: dict[int, list[int]], notes: dict[int, str]
) -> str:
    out = [f'<text class="co-row-label" x="0" y="{y + 17}">{escape(label)}</text>']
    for b in range(boxes):
        x = 120 + b * 38
        out.append(f'<rect class="co-box" x="{x}" y="{y}" width="34" height="26" rx="4"/>')
        if b in notes:
            out.append(
                f'<text class="co-note" x="{x + 17}" y="{y + 17}" '
                f'text-anchor="middle">{notes[b]}</text>'
            )
        for k, seat in enumerate(marks.get(b, [])):
            out.append(
                f'<circle cx="{x + 7 + k * 7}" cy="{y + 22}" r="4" fill="{SEAT_FILL[seat % 4]}" '
                f'stroke="#000" stroke-width=".6"/>'
            )
    return "".join(out)


def reward_svg(view: Mapping[str, Any]) -> SafeString:
    """The reward board: the four flag tracks (points by column), the tipi, wanted and
    saloon tracks with their end rewards, and each player's sheriff badges."""
    players = [p for p in view.get("players") or () if isinstance(p, Mapping)]
    rows = []
    y = 0
    for kind in KINDS:
        marks: dict[int, list[int]] = {}
        for p in players:
            count = sum(REGION[f].kind == kind for f in p.get("flags") or () if f in REGION)
            marks.setdefault(count, []).append(int(p.get("seat", 0)))
        pts = FLAG_TRACK_POINTS[kind]
        notes = {b: str(v) for b, v in enumerate(pts)}
        rows.append(_track_row(y, words.kind(kind), len(pts), marks, notes))
        y += 32
    tipi: dict[int, list[int]] = {}
    wanted: dict[int, list[int]] = {}
    saloon: dict[int, list[int]] = {}
    for p in players:
        seat = int(p.get("seat", 0))
        if int(p.get("tipi", -1)) >= 0:
            tipi.setdefault(int(p["tipi"]), []).append(seat)
        wanted.setdefault(int(p.get("wanted", 0)) - 1, []).append(seat) if p.get("wanted") else None
        saloon.setdefault(int(p.get("saloon", 0)) - 1, []).append(seat) if p.get("saloon") else None
    w1, w2 = END_REWARDS["tipi_west"]
    e1, e2 = END_REWARDS["tipi_east"]
    rows.append(
        _track_row(
            y,
            "▲ " + words.TRACK_WORDS["tipi"](),
            TIPI_BOXES,
            tipi,
            {0: f"{w1}/{w2}", TIPI_BOXES - 1: f"{e1}/{e2}"},
        )
    )
    y += 32
    a, b = END_REWARDS["wanted"]
    rows.append(
        _track_row(
            y,
            "★ " + words.TRACK_WORDS["wanted"](),
            WANTED_BOXES,
            wanted,
            {WANTED_BOXES - 1: f"{a}/{b}", 1: "+2◆"},
        )
    )
    y += 32
    a, b = END_REWARDS["saloon"]
    rows.append(
        _track_row(
            y,
            "♣ " + words.TRACK_WORDS["saloon"](),
            SALOON_BOXES,
            saloon,
            {SALOON_BOXES - 1: f"{a}/{b}"},
        )
    )
    y += 40
    for p in players:
        seat = int(p.get("seat", 0))
        badges = list(p.get("badges") or ())
        rows.append(
            f'<circle cx="8" cy="{y + 13}" r="7" fill="{SEAT_FILL[seat % 4]}"/>'
            f'<text class="co-row-label" x="22" y="{y + 18}">{seat + 1}</text>'
        )
        for k in range(BADGE_BOXES):
            x = 120 + k * 38
            seventh = " seventh" if k == 6 else ""
            rows.append(
                f'<path class="co-badge{seventh}" '
                f'd="M{x + 17} {y} l15 8 v10 l-15 8 l-15 -8 v-10 z"/>'
            )
            if k < len(badges):
                rows.append(
                    f'<text class="co-note" x="{x + 17}" y="{y + 18}" '
                    f'text-anchor="middle">{int(badges[k])}</text>'
                )
        y += 32
    return mark_safe(  # noqa: S308 - numbers, fixed symbols and escaped words only
        f'<svg class="co-rewards" viewBox="-2 -2 {120 + 38 * 10 + 4} {y + 4}" role="img" '
        f'aria-label="{escape(words.reward_board_words())}">{"".join(rows)}</svg>'
    )
