"""The game log in words: the site's own entries (a seat handed to the bot), then the
title's events in the title's words (``WebTitle.describe``).

``describe(entry, names, me, title)`` turns one entry the caller may see (the selectors
filter by ``visible_to`` before anything reaches here) into a sentence. Private events are
worded for their owner only; other seats never receive them in the first place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.records.commitments import COMMITMENT_EVENT
from games.titles import WebTitle


def who(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    if isinstance(seat, int):
        return _("seat %(n)s") % {"n": seat + 1}
    return _("someone")


def describe(
    entry: Mapping[str, Any], names: Sequence[str], me: int | None, title: WebTitle
) -> str | None:
    """One sentence for ``entry``, or None for entries not worth a line."""
    kind = entry.get("type")
    if kind == "chat":
        return None
    if kind == "seat_handed_to_bot":
        return _handover(entry, names, me)
    if kind == COMMITMENT_EVENT:
        return _commitment(entry, names, me)
    return title.describe(entry, names, me)


def _handover(event: Mapping[str, Any], names: Sequence[str], me: int | None) -> str:
    who_ = who(names, event.get("seat"))
    if event.get("reason") == "vote":
        if me is not None and event.get("seat") == me:
            return _(
                "You missed your deadlines and the other players voted to replace you: "
                "the bot plays your seat to the end."
            )
        return _(
            "%(who)s missed their deadlines and was replaced by the bot by a vote of the "
            "other players."
        ) % {"who": who_}
    if me is not None and event.get("seat") == me:
        return _("You resigned: the bot plays your seat to the end.")
    return _("%(who)s resigned; the bot plays their seat to the end.") % {"who": who_}


def _commitment(event: Mapping[str, Any], names: Sequence[str], me: int | None) -> str:
    """A sealed move's commitment: the hash's first 16 characters (the whole hash is in
    the entry, and the verify page shows it with its salt once the game is over)."""
    short = str(event.get("commitment", ""))[:16]
    if me is not None and event.get("seat") == me:
        return _("You sealed your move; its commitment is %(hash)s…") % {"hash": short}
    return _("%(who)s sealed a move; its commitment is %(hash)s…") % {
        "who": who(names, event.get("seat")),
        "hash": short,
    }
