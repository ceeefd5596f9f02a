"""The hard bot's ordinary moves (``search_hooks.search_actions``' first candidate): the
medium bot's move, except in two things that the medium bot gets wrong and that no
search can see one round ahead:

- it never works (a whole turn for 300 $) when its money already pays every item it
  lacks at the prices where it stands (with a complete outfit: never); it plays the
  medium bot's next move instead, mostly the roll;
- with a complete outfit, in a shop, it buys a second card of an item it holds
  (``SPARES``, the cheapest first) while its money pays for it. Money is what sheriffs,
  cardsharps and Incidents take; an Incident that takes an item in the West leaves the
  family behind (LC-20) and sends the pawn to a shop at the West's price and back, and
  a spare card turns that into nothing lost.

Screened against the medium bot without search (``docs/rules.md``, "The bots"): 4,000
two-player games each, the medium bot's moves 48.9 % of wins, never working with the
money 54.0 %, spares 54.0 %, both 58.1 %.
"""

from __future__ import annotations

from typing import Any

from . import views
from .data import CITIES, DATA
from .greedy_bot import NO_DRAWS, GreedyBot
from .routes import missing_items
from .state import Player, State

Action = dict[str, Any]
#: The items bought twice with a complete outfit, in this order (the cheapest first).
SPARES = ("provisions", "revolver", "oxen", "wagon")
_GREEDY = GreedyBot()
_OWN = frozenset({"accept", "refuse", "withdraw", "discard", "poker_answer", "play", "buy"})


def usual_action(s: State, seat: int, legal: list[Action]) -> Action:
    """The hard bot's move where the search weighs nothing else."""
    move: Action = _GREEDY.choose(None, views.view(s, seat), legal, NO_DRAWS)
    if move["type"] in _OWN:
        return move
    p = s.players[seat]
    if s.phase == "town" and p.complete():
        for item in SPARES:
            buy = {"type": "buy", "item": item}
            if p.outfit[item] < 2 and buy in legal:
                return buy
    if move["type"] == "work" and p.money >= price_of_missing(p):
        rest = [a for a in legal if a["type"] != "work"]
        choice: Action = _GREEDY.choose(None, views.view(s, seat), rest, NO_DRAWS)
        return choice
    return move


def price_of_missing(p: Player) -> int:
    """What the items ``p`` lacks cost where it may buy them now (the West's prices once
    it is in the West or its family waits there)."""
    zone = "west" if p.family or CITIES[p.pos].west else "east"
    return sum(DATA.prices[i][zone][0] for i in missing_items(p.outfit))
