"""The hard bot's ordinary moves (``search_hooks.search_actions``' first candidate): the
medium bot's move, with two differences no search sees one round ahead, so they are
rules, not candidates weighed:

- with a complete outfit, in a shop, it buys a second card of an item it holds
  (``SPARES``, the cheapest first) while its money pays for it. Money is what sheriffs,
  cardsharps and Incidents take; an Incident that takes an item in the West leaves the
  family behind (LC-20) and sends the pawn to a shop at the West's price and back, and a
  spare card turns that into nothing lost. An Opportunity card giving an item it holds
  once is played at once, for a spare that costs nothing (the medium bot keeps such a
  card: it plays one only for a missing item);
- with a complete outfit it travels carefully (``GreedyBot(careful=True)``): an Incident
  space weighs ``routes.CAREFUL_INCIDENT`` rolls on its road instead of 0.3, because
  there an Incident can take a card and leave the family behind, send the pawn to the
  Indian prison without its revolvers, or make it miss a turn.

Screened against the medium bot without search, 4,000 two-player games each (seeds
``screen:0`` to ``screen:3999``): the medium bot's moves won 48.9 %, with the spares
55.3 %, with the spares and careful roads 58.7 % (an Incident space weighed 1, 2, 3, 4.5,
6, 9 or 15 rolls: 55.2, 56.7, 57.2, 58.9, 58.7, 58.3, 57.6 %; careful before the outfit is
complete too: no better). Over 20,000 games (``screen:0`` to ``screen:19999``) the free
card played as a spare took 58.85 % to 59.7 %. The other rules screened and the figures
with the search: ``titles/la_conquista_del_oeste/docs/rules.md``, "The bots".
"""

from __future__ import annotations

from typing import Any

from . import views
from .data import DATA
from .greedy_bot import NO_DRAWS, GreedyBot
from .state import State

Action = dict[str, Any]
#: The items bought twice with a complete outfit, in this order (the cheapest first).
SPARES = ("provisions", "revolver", "oxen", "wagon")
_GREEDY = GreedyBot(careful=True)
#: The medium bot's choices kept as they are: answers, cards, and a purchase it makes.
_MEDIUM_KEPT = frozenset({"accept", "refuse", "withdraw", "discard", "poker_answer", "play", "buy"})


def usual_action(s: State, seat: int, legal: list[Action]) -> Action:
    """The hard bot's move where the search weighs nothing else."""
    p = s.players[seat]
    if p.complete():
        for a in legal:  # a free card of an item held once is a spare that costs nothing
            if a["type"] == "play":
                effect = DATA.opportunity[a["card"]].effect
                if effect["kind"] == "free_item" and p.outfit[effect["item"]] < 2:
                    return a
    move: Action = _GREEDY.choose(None, views.view(s, seat), legal, NO_DRAWS)
    if move["type"] in _MEDIUM_KEPT:
        return move
    if s.phase == "town" and p.complete():
        for item in SPARES:
            buy = {"type": "buy", "item": item}
            if p.outfit[item] < 2 and buy in legal:
                return buy
    return move
