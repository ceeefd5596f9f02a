"""The hard bot's ordinary moves (``search_hooks.search_actions``' first candidate): the
medium bot's move, except that with a complete outfit, in a shop, it buys a second card
of an item it holds (``SPARES``, the cheapest first) while its money pays for it. Money
is what sheriffs, cardsharps and Incidents take; an Incident that takes an item in the
West leaves the family behind (LC-20) and sends the pawn to a shop at the West's price
and back, and a spare card turns that into nothing lost. No search sees it one round
ahead, so it is a rule, not a candidate weighed.

Screened against the medium bot without search, 4,000 two-player games each: the
medium bot's moves won 48.9 %, with these spares 55.3 %
(``titles/la_conquista_del_oeste/docs/rules.md``, "The bots", has the other rules
screened and the figures with the search).
"""

from __future__ import annotations

from typing import Any

from . import views
from .greedy_bot import NO_DRAWS, GreedyBot
from .state import State

Action = dict[str, Any]
#: The items bought twice with a complete outfit, in this order (the cheapest first).
SPARES = ("provisions", "revolver", "oxen", "wagon")
_GREEDY = GreedyBot()
#: The medium bot's choices kept as they are: answers, cards, and a purchase it makes.
_MEDIUM_KEPT = frozenset({"accept", "refuse", "withdraw", "discard", "poker_answer", "play", "buy"})


def usual_action(s: State, seat: int, legal: list[Action]) -> Action:
    """The hard bot's move where the search weighs nothing else."""
    move: Action = _GREEDY.choose(None, views.view(s, seat), legal, NO_DRAWS)
    if move["type"] in _MEDIUM_KEPT:
        return move
    p = s.players[seat]
    if s.phase == "town" and p.complete():
        for item in SPARES:
            buy = {"type": "buy", "item": item}
            if p.outfit[item] < 2 and buy in legal:
                return buy
    return move
