"""Colorado's log in words: one line per event, in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from . import words
from .words import who

__all__ = ["describe", "who"]


def _seats(seats: Any, names: Sequence[str], me: int | None) -> str:
    return ", ".join(who(q, names, me) for q in seats or ())


def describe(event: Mapping[str, Any], names: Sequence[str], me: int | None) -> str | None:
    """One log line. Seats are named by their players' names, the reader's own too (the
    lines are third-person); the lines only the reader sees say "you"."""
    me = None
    kind = event.get("type")
    w = who(event.get("seat"), names, me)
    if kind == "game_started":
        return _("The game begins: everyone chooses a starting town.")
    if kind == "my_hand":
        return _("Your hand: %(cards)s.") % {
            "cards": ", ".join(words.card(c) for c in event.get("cards") or ())
        }
    if kind == "started":
        return _("%(who)s starts in %(region)s.") % {
            "who": w,
            "region": words.region(event.get("town")),
        }
    if kind == "round_started":
        return _("Round %(r)s: %(who)s calls.") % {
            "r": event.get("round"),
            "who": who(event.get("caller"), names, me),
        }
    if kind == "called":
        return _("%(who)s asks %(target)s for %(card)s.") % {
            "who": w,
            "target": who(event.get("target"), names, me),
            "card": words.card(event.get("card")),
        }
    if kind == "answered":
        line = _("%(who)s gives %(card)s: %(how)s.") % {
            "who": w,
            "card": words.card(event.get("card")),
            "how": words.HOW_WORDS.get(str(event.get("how")), lambda: "")(),
        }
        if event.get("duplicate"):
            line += " " + _("The caller already had it: discarded for a nugget.")
        return line
    if kind == "action_step":
        return _("Everyone takes a %(action)s.") % {
            "action": words.action_type(event.get("action"))
        }
    if kind == "my_move":
        return _("You %(move)s.") % {"move": words.move(str(event.get("move")))}
    if kind == "finished":
        return _("%(who)s has finished the action step.") % {"who": w}
    if kind == "actions_revealed":
        parts = []
        for q, moves in enumerate(event.get("moves") or ()):
            done = "; ".join(words.move(str(m)) for m in moves) or _("passed")
            parts.append(f"{who(q, names, me)}: {done}")
        return _("The action step is revealed. %(moves)s.") % {"moves": " · ".join(parts)}
    if kind == "drew":
        return _("%(who)s draws %(n)s cards.") % {"who": w, "n": event.get("count")}
    if kind == "my_draw":
        return _("You drew %(cards)s.") % {
            "cards": ", ".join(words.card(c) for c in event.get("cards") or ())
        }
    if kind == "track_end":
        return _("%(seats)s reached %(end)s: %(points)s points.") % {
            "seats": _seats(event.get("seats"), names, me),
            "end": words.track_end(event.get("end")),
            "points": event.get("points"),
        }
    if kind == "set":
        return _("%(who)s completes a %(colour)s set and will tick a flag.") % {
            "who": w,
            "colour": words.COLOUR_WORDS.get(str(event.get("colour")), lambda: "?")(),
        }
    if kind == "no_flag":
        return _("%(who)s has no flag left to tick.") % {"who": w}
    if kind == "flag":
        return _("%(who)s ticks the flag of %(region)s.") % {
            "who": w,
            "region": words.region(event.get("region")),
        }
    if kind == "flag_track_done":
        return _("%(seats)s completed the %(kind)s flag track first: %(points)s points.") % {
            "seats": _seats(event.get("seats"), names, me),
            "kind": words.kind(event.get("kind")),
            "points": event.get("points"),
        }
    if kind == "my_standing":
        return _("Your standing answer is saved.")
    if kind == "game_over":
        return _("The game is over. Winner: %(seats)s.") % {
            "seats": _seats(event.get("winners"), names, me)
        }
    return None
