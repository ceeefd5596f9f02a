"""Colorado County's game log in words, built from its engine events.

``describe(event, names, me)`` turns one event the caller may see (the selectors filter by
``visible_to`` before anything reaches here) into a sentence. Private events are worded for
their owner only ("You drew 12, 40"); other seats never receive them in the first place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

# Marked for the catalogues here, translated where they are shown (``card_words``).
PATTERNS = {
    "single": gettext_noop("one star"),
    "neighbour": gettext_noop("two neighbouring stars"),
    "diagonal": gettext_noop("two diagonal stars"),
    "gap": gettext_noop("two stars, one cell apart"),
    "knight": gettext_noop("two stars, a knight's step apart"),
    "long": gettext_noop("two stars, two cells apart"),
}


def pattern_of(card_id: str) -> str:
    parts = str(card_id).split("-")
    return parts[1] if len(parts) >= 3 else ""


def card_words(card: Mapping[str, Any] | str) -> str:
    """``yellow card (two diagonal stars)``."""
    card_id = card if isinstance(card, str) else str(card.get("id", ""))
    colour = card_id.split("-")[0]
    pattern = PATTERNS.get(pattern_of(card_id))
    if pattern is None:
        return _("%(colour)s card") % {"colour": _(colour)}
    return _("%(colour)s card (%(pattern)s)") % {"colour": _(colour), "pattern": _(pattern)}


def numbers(cowboys: Sequence[int]) -> str:
    return ", ".join(str(c) for c in cowboys)


def _who(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    if isinstance(seat, int):
        return _("seat %(n)s") % {"n": seat + 1}
    return _("someone")


def describe(event: Mapping[str, Any], names: Sequence[str], me: int | None = None) -> str | None:
    """One sentence for ``event``, or None for events not worth a line."""
    kind = event.get("type")
    who = _who(names, event.get("seat"))
    if kind == "game_started":
        return _("The game starts; %(who)s begins.") % {
            "who": _who(names, event.get("start_player"))
        }
    if kind == "round_started":
        return _("Round %(round)s begins; %(who)s places the first flag.") % {
            "round": event.get("round"),
            "who": _who(names, event.get("start_player")),
        }
    if kind == "flag_placed":
        return _("%(who)s placed a %(colour)s flag on %(cell)s.") % {
            "who": who,
            "colour": _(str(event.get("colour"))),
            "cell": event.get("cell"),
        }
    if kind == "flag_set_aside":
        return _("%(who)s had no free cell for a %(colour)s flag; it was set aside.") % {
            "who": who,
            "colour": _(str(event.get("colour"))),
        }
    if kind == "cards_revealed":
        cards = "; ".join(card_words(c) for c in event.get("cards", []))
        return _("Turn %(turn)s of round %(round)s: face up are %(cards)s.") % {
            "turn": event.get("turn"),
            "round": event.get("round"),
            "cards": cards,
        }
    if kind == "bid_submitted":
        if event.get("auto"):
            return _("%(who)s has no cowboys and bids nothing.") % {"who": who}
        if event.get("replaced"):
            return _("%(who)s changed their sealed bid.") % {"who": who}
        return _("%(who)s made a sealed bid.") % {"who": who}
    if kind == "my_bid":
        cowboys = event.get("cowboys", [])
        if not cowboys:
            return _("Your sealed bid: nothing.")
        return _("Your sealed bid: %(numbers)s.") % {"numbers": numbers(cowboys)}
    if kind == "bids_revealed":
        lines = []
        for bid in event.get("bids", []):
            name = _who(names, bid.get("seat"))
            cowboys = bid.get("cowboys", [])
            if not cowboys:
                lines.append(_("%(who)s bid nothing") % {"who": name})
                continue
            ordinal = {1: _("first choice"), 2: _("second choice"), 3: _("third choice")}.get(
                bid.get("rank"), _("no card")
            )
            if not bid.get("claims"):
                ordinal = _("no card")
            lines.append(
                ngettext(
                    "%(who)s bid %(count)s cowboy: %(numbers)s — %(choice)s",
                    "%(who)s bid %(count)s cowboys: %(numbers)s — %(choice)s",
                    len(cowboys),
                )
                % {
                    "who": name,
                    "count": len(cowboys),
                    "numbers": numbers(cowboys),
                    "choice": ordinal,
                }
            )
        return _("Bids revealed. %(lines)s.") % {"lines": "; ".join(lines)}
    if kind == "card_claimed":
        if event.get("second"):
            return _("%(who)s took the %(card)s and staked %(flag)s and %(second)s.") % {
                "who": who,
                "card": card_words(str(event.get("card"))),
                "flag": event.get("flag"),
                "second": event.get("second"),
            }
        return _("%(who)s took the %(card)s and staked %(flag)s.") % {
            "who": who,
            "card": card_words(str(event.get("card"))),
            "flag": event.get("flag"),
        }
    if kind == "claim_skipped":
        return _("%(who)s could take no card.") % {"who": who}
    if kind == "cards_discarded":
        return _("Nobody took %(cards)s.") % {
            "cards": "; ".join(card_words(c) for c in event.get("cards", []))
        }
    if kind == "cowboys_drawn":
        count = int(event.get("count", 0))
        if event.get("reason") == "setup":
            return None
        return ngettext(
            "%(who)s drew %(count)s cowboy.", "%(who)s drew %(count)s cowboys.", count
        ) % {"who": who, "count": count}
    if kind == "cowboys_drawn_detail":
        if event.get("reason") == "setup":
            return _("Your starting cowboys: %(numbers)s.") % {
                "numbers": numbers(event.get("cowboys", []))
            }
        return _("You drew %(numbers)s.") % {"numbers": numbers(event.get("cowboys", []))}
    if kind == "lake_owner_changed":
        owner = event.get("owner")
        if owner is None:
            return _("The lake worth %(value)s has no owner any more.") % {
                "value": event.get("value")
            }
        return _("%(who)s now owns the lake worth %(value)s.") % {
            "who": _who(names, owner),
            "value": event.get("value"),
        }
    if kind == "valuation":
        parts = [
            _("%(who)s %(total)s") % {"who": _who(names, i), "total": item.get("total", 0)}
            for i, item in enumerate(event.get("seats", []))
        ]
        return _("Valuation of round %(round)s: %(parts)s.") % {
            "round": event.get("round"),
            "parts": ", ".join(parts),
        }
    if kind == "flags_removed":
        return None
    if kind == "game_over":
        winners = [_who(names, s) for s in event.get("winners", [])]
        return _("The game is over. Winner: %(who)s.") % {"who": " & ".join(winners)}
    if kind == "sale_opened":
        return _("%(who)s puts %(cell)s up for sale.") % {
            "who": _who(names, event.get("seller")),
            "cell": event.get("cell"),
        }
    if kind == "sale_interest_declared":
        return _("%(who)s answered the sale.") % {"who": who}
    if kind == "my_sale_interest":
        return (
            _("Your answer: interested.")
            if event.get("interested")
            else _("Your answer: not interested.")
        )
    if kind == "sale_interest_revealed":
        buyers = [_who(names, s) for s in event.get("interested", [])]
        if not buyers:
            return _("Nobody wants the land.")
        return _("Interested: %(who)s.") % {"who": ", ".join(buyers)}
    if kind == "sale_bid_submitted":
        return _("%(who)s made a sealed bid for the land.") % {"who": who}
    if kind == "my_sale_bid":
        return _("Your sealed bid for the land: %(numbers)s.") % {
            "numbers": numbers(event.get("cowboys", []))
        }
    if kind == "sale_bids_revealed":
        lines = [
            _("%(who)s bid %(numbers)s")
            % {"who": _who(names, b.get("seat")), "numbers": numbers(b.get("cowboys", []))}
            for b in event.get("bids", [])
        ]
        return _("Sale bids revealed: %(lines)s.") % {"lines": "; ".join(lines)}
    if kind == "sale_paid":
        return _("%(buyer)s paid %(seller)s cowboy %(numbers)s.") % {
            "buyer": _who(names, event.get("buyer")),
            "seller": _who(names, event.get("seller")),
            "numbers": numbers(event.get("cowboys", [])),
        }
    if kind == "sale_closed":
        if event.get("buyer") is None:
            return _("Nobody bought %(cell)s; it is free land again.") % {"cell": event.get("cell")}
        return _("%(buyer)s bought %(cell)s from %(seller)s.") % {
            "buyer": _who(names, event.get("buyer")),
            "cell": event.get("cell"),
            "seller": _who(names, event.get("seller")),
        }
    if kind == "chat":
        return None
    return None
