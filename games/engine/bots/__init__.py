"""Bots: automatic players that see exactly what a seated human sees.

A bot chooses one action for one seat from that seat's view (``game.view(state, seat)``)
and that seat's legal actions (``game.legal_actions(state, seat)``); it never receives the
state itself, so it cannot read another seat's cowboys or bid, the bag or the stacks.

Caller duties: pass the view and the legal actions of the same seat and state; call
``choose`` only when the list is non-empty; pass a seeded ``random.Random`` (bots never
use the global ``random`` functions), so the same inputs always give the same action.
The returned dict is one action in the engine's JSON form (CC-12). Bids may be any subset
of ``view["hand"]`` even though ``legal_actions`` lists only the empty bid and single
cowboys; a bot may also pick an optional ``sell`` action.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from .. import Game

__all__ = ["Bot", "bot_names", "get_bot"]

Action = dict[str, Any]


class Bot(Protocol):
    """A player that picks one of ``legal_actions`` (or a bid built from the hand)."""

    name: str

    def choose(
        self,
        game: Game,
        view: dict[str, Any],
        legal_actions: list[Action],
        rng: random.Random,
    ) -> Action: ...


def _registry() -> dict[str, Bot]:
    from .greedy import GreedyBot
    from .random_bot import RandomBot

    bots: list[Bot] = [RandomBot(), GreedyBot()]
    return {bot.name: bot for bot in bots}


_BOTS: dict[str, Bot] | None = None


def _bots() -> dict[str, Bot]:
    global _BOTS
    if _BOTS is None:
        _BOTS = _registry()
    return _BOTS


def bot_names() -> list[str]:
    """The names of all registered bots, sorted."""
    return sorted(_bots())


def get_bot(name: str) -> Bot:
    """The bot called ``name``; ``KeyError`` with a clear message if unknown. Bots hold no
    per-game state, so one object may play several seats and games."""
    try:
        return _bots()[name]
    except (KeyError, TypeError):
        raise KeyError(f"Unknown bot {name!r}; known bots: {', '.join(bot_names())}.") from None
