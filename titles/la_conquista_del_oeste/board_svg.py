"""The map of La Conquista del Oeste as SVG, drawn on the server from ``components.json``
and one seat's view: the East and the West, the trails, the railway, each city's symbols
and name, the pawns by seat colour and number, the last roll, and the legal destinations
as buttons that post the move (the template wraps the SVG in the move form)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from .engine.data import DATA
from .log_words import city_name, seat_name

WIDTH, HEIGHT = 1900, 580
NODE_R = 9  # a town's circle; every pawn on it is drawn inside it
PAWN_R = 5.5
LABEL_GAP = 14  # px at most between a name and its town's circle
CAMP_R = 2.5  # a camp's dot: smaller and paler than a town, so towns stand out
LABEL_SIZE = 12  # px at the default zoom (1 map unit = 1 CSS pixel)
CHAR_W = 0.64 * LABEL_SIZE  # a generous width per letter, for placing labels apart
#: Seat colour names (components.json) as fills, with a readable number colour.
COLOURS: dict[str, tuple[str, str]] = {
    "red": ("#c0392b", "#ffffff"),
    "blue": ("#2457a6", "#ffffff"),
    "green": ("#2f7d3a", "#ffffff"),
    "yellow": ("#f2c230", "#111111"),
    "black": ("#222222", "#ffffff"),
    "white": ("#fafafa", "#111111"),
}
#: Pawn outlines differ by seat too, so the colour is never the only clue.
SHAPES = ("circle", "square", "diamond", "triangle", "hexagon", "star")


def symbols() -> list[tuple[str, str, str]]:
    """(flag, glyph, words) of each city symbol, in drawing order (the legend uses it)."""
    return [
        ("bank", "$", _("bank")),
        ("prison", "#", _("prison")),
        ("work", "W", _("work")),
        ("poker", "♠", _("poker")),
        ("sheriff", "★", _("sheriff")),
        ("cardsharp", "♦", _("cardsharp")),
        ("shop", "S", _("shop")),
        ("incident", "*", _("incident (asterisk)")),
        ("arrival", "⚑", _("arrival point")),
        ("indian_prison", "I", _("Indian camp")),
        ("roy_bean", "J", _("Judge Roy Bean")),
    ]


def _has(city: Any, flag: str) -> bool:
    if flag == "shop":
        return bool(city.shops)
    return bool(getattr(city, flag))


#: The flags ``symbols`` draws (its first column), for counting a town's marks cheaply.
FLAGS = (
    "bank",
    "prison",
    "work",
    "poker",
    "sheriff",
    "cardsharp",
    "shop",
    "incident",
    "arrival",
    "indian_prison",
    "roy_bean",
)


def _marks(city: Any) -> int:
    """How many symbols a town shows above its circle."""
    return sum(1 for flag in FLAGS if _has(city, flag))


def colour_of(seat: int) -> tuple[str, str]:
    name = DATA.seat_colours[seat % len(DATA.seat_colours)]
    return COLOURS.get(name, ("#777777", "#ffffff"))


def _shape(seat: int, cx: float, cy: float, r: float, fill: str) -> str:
    kind = SHAPES[seat % len(SHAPES)]
    common = f'fill="{fill}" stroke="#111" stroke-width="{max(r / 6, 1):.1f}"'
    if kind == "circle":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" {common}/>'
    if kind == "square":
        side = 2 * r
        box = f'width="{side:.1f}" height="{side:.1f}"'
        return f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" {box} {common}/>'
    pts = {
        "diamond": [(0, -1.2), (1.2, 0), (0, 1.2), (-1.2, 0)],
        "triangle": [(0, -1.3), (1.25, 1), (-1.25, 1)],
        "hexagon": [
            (1.1, 0),
            (0.55, 0.95),
            (-0.55, 0.95),
            (-1.1, 0),
            (-0.55, -0.95),
            (0.55, -0.95),
        ],
        "star": [
            (0, -1.3),
            (0.4, -0.4),
            (1.3, -0.4),
            (0.6, 0.2),
            (0.85, 1.2),
            (0, 0.6),
            (-0.85, 1.2),
            (-0.6, 0.2),
            (-1.3, -0.4),
            (-0.4, -0.4),
        ],
    }[kind]
    path = " ".join(f"{cx + x * r:.1f},{cy + y * r:.1f}" for x, y in pts)
    return f'<polygon points="{path}" {common}/>'


def pawn_svg(seat: int, cx: float, cy: float, r: float, label: str = "", city: str = "") -> str:
    fill, ink = colour_of(seat)
    title = f"<title>{escape(label)}</title>" if label else ""
    where = f' data-city="{escape(city)}" data-cx="{cx:.1f}" data-cy="{cy:.1f}"' if city else ""
    return (
        f'<g class="pawn p{seat}" data-seat="{seat}"{where}>{title}{_shape(seat, cx, cy, r, fill)}'
        f'<text x="{cx:.1f}" y="{cy + r * 0.45:.1f}" text-anchor="middle" '
        f'font-size="{r * 1.3:.1f}" '
        f'font-weight="700" fill="{ink}">{seat + 1}</text></g>'
    )


def token_svg(seat: int, size: int = 18) -> SafeString:
    """A seat's marker for the players list: its pawn shape, colour and number."""
    half = size / 2
    label = _("Player %(n)s") % {"n": seat + 1}
    return mark_safe(  # noqa: S308 - built from numbers and fixed strings only
        f'<svg class="token" width="{size}" height="{size}" viewBox="0 0 {size} {size}" '
        f'role="img" aria-label="{escape(label)}">'
        f"{pawn_svg(seat, half, half, half * 0.72)}</svg>"
    )


def _split() -> float:
    """The x where the West's background ends and the East's begins."""
    west = max(c.x for c in DATA.cities.values() if c.west)
    east = min(c.x for c in DATA.cities.values() if not c.west)
    return (west + east) / 2


def _zones() -> str:
    split = _split()
    west_name, east_name = _("The West"), _("The East")
    return (
        f'<g class="zones"><rect class="zone west" x="0" y="0" width="{split:.0f}" '
        f'height="{HEIGHT}"/><rect class="zone east" x="{split:.0f}" y="0" '
        f'width="{WIDTH - split:.0f}" height="{HEIGHT}"/>'
        f'<text class="zone-name" x="14" y="{HEIGHT - 12}">{escape(west_name)}</text>'
        f'<text class="zone-name" x="{WIDTH - 14}" y="{HEIGHT - 12}" text-anchor="end">'
        f"{escape(east_name)}</text></g>"
    )


def _lines() -> str:
    out = ['<g class="trails">']
    for a, b in DATA.edges:
        ca, cb = DATA.cities[a], DATA.cities[b]
        out.append(f'<line x1="{ca.x}" y1="{ca.y}" x2="{cb.x}" y2="{cb.y}"/>')
    out.append("</g>")
    ra, rb = (DATA.cities[c] for c in DATA.rail_cities)
    railway = _("The railway")
    out.append(
        f'<g class="railway"><title>{escape(railway)}</title>'
        f'<line class="rail-bed" x1="{ra.x}" y1="{ra.y}" x2="{rb.x}" y2="{rb.y}"/>'
        f'<line class="rail-ties" x1="{ra.x}" y1="{ra.y}" x2="{rb.x}" y2="{rb.y}"/></g>'
    )
    return "".join(out)


def _camp(cid: str, legal: bool) -> str:
    """LC-31: a camp is a small dot on its trail, named only in its tooltip."""
    c = DATA.cities[cid]
    cls = "city camp " + ("west" if c.west else "east") + (" dest" if legal else "")
    return (
        f'<g class="{cls}" data-city="{escape(cid)}"><title>{escape(city_name(cid))}</title>'
        f'<circle class="node" cx="{c.x}" cy="{c.y}" r="{CAMP_R}"/></g>'
    )


def _city(cid: str, legal: bool) -> str:
    c = DATA.cities[cid]
    if c.camp:
        return _camp(cid, legal)
    marks = [(g, w) for flag, g, w in symbols() if _has(c, flag)]
    words = ", ".join(w for _g, w in marks)
    label = f"{c.name}: {words}" if words else c.name
    cls = "city " + ("west" if c.west else "east") + (" dest" if legal else "")
    out = [f'<g class="{cls}" data-city="{escape(cid)}"><title>{escape(label)}</title>']
    out.append(f'<circle class="node" cx="{c.x}" cy="{c.y}" r="{NODE_R}"/>')
    for i, (glyph, _w) in enumerate(marks):
        sx = c.x - (len(marks) - 1) * 6 + i * 12
        out.append(
            f'<text class="sym" x="{sx}" y="{c.y - 12}" text-anchor="middle">{escape(glyph)}</text>'
        )
    out.append("</g>")
    return "".join(out)


def _names() -> str:
    """Every town's name, in a layer over the trails, camps and towns (under the pawns),
    each with a halo of the background it lies on (board.css) as printed maps do, so a
    name stays readable where it crosses a trail or a camp."""
    out = ['<g class="names">']
    split = _split()
    for cid in DATA.city_order:
        c = DATA.cities[cid]
        if c.camp:
            continue
        lx, ly, anchor = LABELS[cid]
        box = _label_box(c.name, lx, ly, anchor)
        zone = "west" if (box[0] + box[2]) / 2 < split else "east"  # the colour under it
        out.append(
            f'<text class="name {zone}" data-city="{escape(cid)}" x="{lx:.0f}" y="{ly:.0f}" '
            f'text-anchor="{anchor}">{escape(c.name)}</text>'
        )
    out.append("</g>")
    return "".join(out)


Box = tuple[float, float, float, float]  # left, top, right, bottom
#: The corner where the last roll is drawn (``_roll``: its words and up to three dice).
ROLL_BOX: Box = (0.0, 0.0, 130.0, 66.0)


def _label_spots(cid: str) -> list[tuple[float, float, str]]:
    """Where a town's name may go, in order of preference: below, right, left, above
    (over its symbols), then the corners; (x, baseline y, text-anchor)."""
    c = DATA.cities[cid]
    up = 26 if _marks(c) else 14
    r = NODE_R + 3
    return [
        (c.x, c.y + r + LABEL_SIZE - 1, "middle"),
        (c.x + r, c.y + LABEL_SIZE / 2 - 1, "start"),
        (c.x - r, c.y + LABEL_SIZE / 2 - 1, "end"),
        (c.x, c.y - up, "middle"),
        (c.x + r - 4, c.y + r + LABEL_SIZE - 1, "start"),
        (c.x - r + 4, c.y + r + LABEL_SIZE - 1, "end"),
        (c.x + r - 2, c.y - up, "start"),
        (c.x - r + 2, c.y - up, "end"),
        (c.x, c.y + r + 2 * LABEL_SIZE, "middle"),
    ]


def _far_spots(cid: str) -> Iterator[tuple[float, float, str]]:
    """Spots a little further off, nearest first, for the towns whose trails are thick
    with camps: a name never ends more than ``LABEL_GAP`` px from its town's circle."""
    c = DATA.cities[cid]
    r = NODE_R + 3
    spots: list[tuple[float, float, float, str]] = []
    for dy in range(-34, 40, 4):
        y = c.y + dy
        candidates = [(c.x + dx, y, "middle") for dx in range(-24, 25, 4)]
        candidates += [(c.x + r + dx, y, "start") for dx in range(-12, 13, 4)]
        candidates += [(c.x - r - dx, y, "end") for dx in range(-12, 13, 4)]
        for x, yy, anchor in candidates:
            gap = _gap(_label_box(c.name, x, yy, anchor), c.x, c.y) - NODE_R
            if 2 <= gap <= LABEL_GAP:
                spots.append((gap, x, yy, anchor))
    spots.sort()
    yield from ((x, y, anchor) for _gap, x, y, anchor in spots)


def _label_box(name: str, x: float, y: float, anchor: str) -> Box:
    w = CHAR_W * len(name)
    left = {"middle": x - w / 2, "start": x, "end": x - w}[anchor]
    return (left - 1, y - LABEL_SIZE, left + w + 1, y + 4)


def _gap(box: Box, x: float, y: float) -> float:
    """How far the point (x, y) lies outside ``box`` (0 inside it)."""
    return math.hypot(max(box[0] - x, 0.0, x - box[2]), max(box[1] - y, 0.0, y - box[3]))


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _place_labels() -> dict[str, tuple[float, float, str]]:
    """Each town's label, placed once: the first spot that overlaps no town's circle,
    symbols, camp or other label and lies nearer its own town than any other (else the
    least bad one), crowded towns first, the East before the West."""
    towns = [c for c in DATA.city_order if not DATA.cities[c].camp]
    obstacles: list[Box] = [ROLL_BOX]
    for cid in towns:
        c = DATA.cities[cid]
        half = max(NODE_R, 6 * _marks(c))
        obstacles.append((c.x - half - 1, c.y - NODE_R - 16, c.x + half + 1, c.y + NODE_R + 1))
    # A name over a camp's dot hides it: each camp weighs as much as a town's circle.
    camps = [
        (c.x - CAMP_R - 1, c.y - CAMP_R - 1, c.x + CAMP_R + 1, c.y + CAMP_R + 1)
        for c in DATA.cities.values()
        if c.camp
    ]

    def crowd(cid: str) -> int:
        c = DATA.cities[cid]
        return sum(
            1
            for o in towns
            if abs(DATA.cities[o].x - c.x) < 70 and abs(DATA.cities[o].y - c.y) < 40
        )

    def near(boxes: list[Box], x: float, y: float) -> list[Box]:
        # Every spot of a name up to 20 letters long lies within this window.
        return [b for b in boxes if b[0] < x + 190 and x - 190 < b[2] and y - 90 < b[1] < y + 50]

    placed: dict[str, tuple[float, float, str]] = {}
    for cid in sorted(towns, key=lambda t: (-crowd(t), DATA.cities[t].west, t)):
        c = DATA.cities[cid]
        around = near(obstacles, c.x, c.y)
        dots = near(camps, c.x, c.y)
        others = [DATA.cities[o] for o in towns if o != cid]
        others = [o for o in others if abs(o.x - c.x) < 200 and abs(o.y - c.y) < 70]
        best: tuple[float, float, str] = (c.x, c.y, "middle")
        best_cost = float("inf")
        for spot in itertools.chain(_label_spots(cid), _far_spots(cid)):
            box = _label_box(c.name, *spot)
            inside = box[0] >= 0 and box[2] <= WIDTH and box[1] >= 0 and box[3] <= HEIGHT
            left, top, right, bottom = box
            cost = 100.0 * sum(
                1 for o in dots if o[0] < right and left < o[2] and o[1] < bottom and top < o[3]
            )
            cost += 0 if inside else 1e6
            if cost >= best_cost:
                continue
            own = _gap(box, c.x, c.y)
            cost += sum(100 for o in others if _gap(box, o.x, o.y) < own)  # whose name?
            if cost >= best_cost:
                continue
            cost += sum(_overlap(box, o) for o in around)
            if cost < best_cost:
                best, best_cost = spot, cost
            if cost == 0:
                break
        placed[cid] = best
        obstacles.append(_label_box(c.name, *best))
    return placed


LABELS = _place_labels()


def _dest_button(cid: str) -> str:
    c = DATA.cities[cid]
    words = escape(_("Move to %(city)s") % {"city": city_name(cid)})
    return (
        f'<foreignObject x="{c.x - 13}" y="{c.y - 13}" width="26" height="26">'
        f'<button xmlns="http://www.w3.org/1999/xhtml" class="dest-button" type="submit" '
        f'name="to" value="{escape(cid)}" tabindex="0" role="button" aria-label="{words}" '
        f'title="{words}"></button></foreignObject>'
    )


def render_board(
    view: Mapping[str, Any],
    names: Sequence[str] = (),
    legal: Sequence[Mapping[str, Any]] = (),
) -> SafeString:
    """The whole map for ``view``; ``legal`` (the viewer's legal actions) lights and
    wires the cities a ``move`` may reach."""
    dests = [str(a["to"]) for a in legal if a.get("type") == "move" and a.get("to") in DATA.cities]
    title = escape(_("Map of the West"))
    out = [
        f'<svg class="lc-map" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="group" aria-label="{title}"{_focus(view)}>',
        _zones(),
        _lines(),
        '<g class="cities">',
    ]
    lit = set(dests)
    # Camps first, so that no camp's dot is ever drawn over a town.
    for camps in (True, False):
        out.extend(_city(c, c in lit) for c in DATA.city_order if DATA.cities[c].camp is camps)
    out.append("</g>")
    out.append(_names())
    out.append(_pawns(view, names))
    out.append(_roll(view))
    if dests:
        out.append('<g class="dests">')
        out.extend(_dest_button(cid) for cid in dests)
        out.append("</g>")
    out.append("</svg>")
    return mark_safe("".join(out))  # noqa: S308 - every name and id is escaped above


def _focus(view: Mapping[str, Any]) -> str:
    """Where the map opens: the viewer's pawn, else the pawn whose turn it is."""
    players = [p for p in view.get("players") or () if isinstance(p, Mapping)]
    seat = view.get("seat", view.get("turn"))
    mine = next((p for p in players if p.get("seat") == seat), None)
    city = DATA.cities.get(str(mine.get("city"))) if mine else None
    if city is None:
        return ""
    who = f' data-seat="{int(seat)}"' if isinstance(view.get("seat"), int) else ""
    return f' data-focus-x="{city.x}" data-focus-y="{city.y}"{who}'


def _pawns(view: Mapping[str, Any], names: Sequence[str]) -> str:
    by_city: dict[str, list[int]] = {}
    for p in view.get("players") or ():
        if isinstance(p, Mapping) and str(p.get("city")) in DATA.cities:
            by_city.setdefault(str(p["city"]), []).append(int(p["seat"]))
    out = ['<g class="pawns">']
    for cid, seats in by_city.items():
        c = DATA.cities[cid]
        for i, seat in enumerate(seats):
            # One pawn on the town's centre; several on a small ring inside its circle.
            dx, dy = 0.0, 0.0
            if len(seats) > 1:
                angle = 2 * math.pi * i / len(seats) - math.pi / 2
                ring = NODE_R * 0.45 if not DATA.cities[cid].camp else CAMP_R * 0.6
                dx, dy = ring * math.cos(angle), ring * math.sin(angle)
            label = _("%(who)s in %(city)s") % {
                "who": seat_name(seat, names),
                "city": city_name(cid),
            }
            out.append(pawn_svg(seat, c.x + dx, c.y + dy, PAWN_R, label, cid))
    out.append("</g>")
    return "".join(out)


def _roll(view: Mapping[str, Any]) -> str:
    dice = [d for d in view.get("last_roll") or () if isinstance(d, int)]
    if not dice:
        return ""
    last_roll = escape(_("Last roll"))
    out = [f'<g class="last-roll"><title>{last_roll}</title>']
    out.append(f'<text class="roll-label" x="16" y="26">{last_roll}</text>')
    for i, d in enumerate(dice):
        x = 16 + i * 34
        out.append(f'<rect class="die" x="{x}" y="34" width="28" height="28" rx="5"/>')
        out.append(f'<text class="pip" x="{x + 14}" y="55" text-anchor="middle">{d}</text>')
    out.append("</g>")
    return "".join(out)
