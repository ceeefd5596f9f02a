"""Colorado's words: cards, regions, tracks, the moves and the log, in the reader's
language (this title's catalogue)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from .engine.data import ACTION_OF, RAILWAY, REGION

COLOUR_WORDS: dict[str, Callable[[], str]] = {
    "red": lambda: _("red"),
    "green": lambda: _("green"),
    "grey": lambda: _("grey"),
    "purple": lambda: _("purple"),
    "blue": lambda: _("blue"),
    "orange": lambda: _("orange"),
}
ACTION_WORDS: dict[str, Callable[[], str]] = {
    "nugget": lambda: _("nugget action"),
    "card": lambda: _("card action"),
    "check": lambda: _("check action"),
    "tipi": lambda: _("a tipi step"),
}
KIND_WORDS: dict[str, Callable[[], str]] = {
    "town": lambda: _("town"),
    "forest": lambda: _("forest"),
    "desert": lambda: _("desert"),
    "lake": lambda: _("lake"),
}
END_WORDS: dict[str, Callable[[], str]] = {
    "tipi_west": lambda: _("the west end of the tipi track"),
    "tipi_east": lambda: _("the east end of the tipi track"),
    "wanted": lambda: _("the end of the wanted track"),
    "saloon": lambda: _("the end of the saloon track"),
}
BENEFIT_WORDS: dict[str, Callable[[], str]] = {
    "": lambda: _("nothing"),
    "nugget": lambda: _("a nugget action"),
    "card": lambda: _("a card action"),
    "check": lambda: _("a check action"),
    "tipi": lambda: _("a tipi step"),
    "wanted": lambda: _("a wanted step"),
    "saloon": lambda: _("a saloon step"),
    "gold": lambda: _("a nugget"),
}
HOW_WORDS: dict[str, Callable[[], str]] = {
    "exact": lambda: _("the very card"),
    "only": lambda: _("the only matching card"),
    "choice": lambda: _("a matching card of their choice"),
    "standing": lambda: _("a matching card (standing answer)"),
    "random": lambda: _("a random card (nothing matched)"),
    "deck": lambda: _("the deck's top card (an empty hand)"),
}


def _word(table: Mapping[str, Callable[[], str]], key: Any) -> str:
    maker = table.get(str(key))
    return maker() if maker else str(key)


def card(code: Any) -> str:
    colour, _sep, value = str(code).rpartition("-")
    return _("%(colour)s %(value)s") % {"colour": _word(COLOUR_WORDS, colour), "value": value}


def region(rid: Any) -> str:
    r = REGION.get(str(rid))
    if r is None:
        return str(rid)
    return _("%(kind)s %(id)s") % {"kind": _word(KIND_WORDS, r.kind), "id": r.id}


def leg(code: Any) -> str:
    rid, _sep, index = str(code).partition(".")
    return _("leg %(n)s of %(region)s") % {
        "n": int(index) + 1 if index.isdigit() else index,
        "region": region(rid),
    }


def action_type(kind: Any) -> str:
    return _word(ACTION_WORDS, kind)


def kind(k: Any) -> str:
    return _word(KIND_WORDS, k)


def benefit(b: Any) -> str:
    return _word(BENEFIT_WORDS, b)


def track_end(e: Any) -> str:
    return _word(END_WORDS, e)


def move(code: str) -> str:
    """One move of an action step, from its log code (``buy:red-2``, ``tick:F1.0`` …)."""
    head, _sep, rest = code.partition(":")
    if head == "take":
        return _("took a nugget")
    if head == "buy":
        return _("played %(card)s") % {"card": card(rest)}
    if head == "draw":
        return _("drew three cards")
    if head == "swap":
        pay, _sep, got = rest.partition(":")
        a, _sep, b = pay.partition(",")
        return _("discarded %(a)s and %(b)s to play %(card)s") % {
            "a": card(a),
            "b": card(b),
            "card": card(got),
        }
    if head == "tick":
        return _("ticked %(leg)s") % {"leg": leg(rest)}
    if head == "region":
        return _("completed %(region)s") % {"region": region(rest)}
    if head == "rail":
        return _("ticked railway leg %(n)s") % {"n": int(rest) + 1 if rest.isdigit() else rest}
    if head == "tipi":
        return (
            _("moved west on the tipi track")
            if rest == "west"
            else _("moved east on the tipi track")
        )
    return code


def action_label(a: Mapping[str, Any]) -> str:
    t = a.get("type")
    if t == "start":
        return _("Start in %(region)s") % {"region": region(a.get("town"))}
    if t == "call":
        seat = a.get("seat")
        return _("Ask player %(n)s for %(card)s") % {
            "n": seat + 1 if isinstance(seat, int) else "?",
            "card": card(a.get("card")),
        }
    if t == "give":
        return _("Give %(card)s") % {"card": card(a.get("card"))}
    if t == "standing":
        return {
            "ask": lambda: _("Ask me when I am called"),
            "low": lambda: _("From now on, give my lowest matching card"),
            "high": lambda: _("From now on, give my highest matching card"),
        }.get(str(a.get("answer")), lambda: str(a.get("answer")))()
    if t == "take":
        return _("Take a nugget")
    if t == "buy":
        code = str(a.get("card"))
        return _("Play %(card)s for %(n)s nuggets") % {
            "card": card(code),
            "n": code.rpartition("-")[2],
        }
    if t == "draw":
        return _("Draw three cards")
    if t == "swap":
        pay = a.get("pay") or ["", ""]
        return _("Discard %(a)s and %(b)s to play %(card)s") % {
            "a": card(pay[0]),
            "b": card(pay[-1]),
            "card": card(a.get("card")),
        }
    if t == "tick":
        return _("Tick %(leg)s") % {"leg": leg(a.get("leg"))}
    if t == "rail":
        leg_no = a.get("leg")
        return _("Tick railway leg %(n)s") % {"n": leg_no + 1 if isinstance(leg_no, int) else "?"}
    if t == "tipi":
        return _("Tipi: one box west") if a.get("dir") == "west" else _("Tipi: one box east")
    if t == "done":
        return _("End my action step")
    if t == "flag":
        return _("Tick the flag of %(region)s") % {"region": region(a.get("region"))}
    return str(t)


def who(seat: Any, names: Sequence[str], me: int | None) -> str:
    if seat == me:
        return _("You")
    if isinstance(seat, int) and 0 <= seat < len(names):
        return str(names[seat])
    return _("Player %(n)s") % {"n": (seat + 1) if isinstance(seat, int) else "?"}


TRACK_WORDS: dict[str, Callable[[], str]] = {
    "tipi": lambda: _("tipi"),
    "wanted": lambda: _("wanted"),
    "saloon": lambda: _("saloon"),
}


def reward_board_words() -> str:
    return _("The reward board: flag tracks, the tipi, wanted and saloon tracks, the badges")


def gives(a: Mapping[str, Any]) -> str:
    """What a move gives at once, in a few words (the action panel shows it)."""
    t = a.get("type")
    if t == "tick":
        rid, _sep, index = str(a.get("leg")).partition(".")
        r = REGION.get(rid)
        if r is not None and index.isdigit() and int(index) < len(r.benefits):
            return benefit(r.benefits[int(index)])
    if t == "rail":
        i = a.get("leg")
        if isinstance(i, int) and 0 <= i < len(RAILWAY):
            leg_ = RAILWAY[i]
            if leg_.points:
                return _("%(n)s points") % {"n": leg_.points}
            return benefit(leg_.benefit)
    if t in ("buy", "swap"):
        colour = str(a.get("card")).rpartition("-")[0]
        return action_type(ACTION_OF.get(colour, ""))
    if t == "take":
        return benefit("gold")
    return ""
