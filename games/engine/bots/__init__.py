"""Bots: automatic players that see exactly what a seated human sees.

A bot chooses one action for one seat from that seat's view (``rules.view(state, seat)``)
and that seat's legal actions (``rules.legal_actions(state, seat)``); it never receives
the state itself, so it cannot read another seat's hidden information.

Each title lists its own bots in ``Rules.bots``; the generic ``random`` bot (this package)
plays every title. This package imports no title package.

Caller duties: pass the view and the legal actions of the same seat and state; call
``choose`` only when the list is non-empty; pass a seeded ``random.Random`` (bots never
use the global ``random`` functions), so the same inputs always give the same action.
The returned dict is one action in the engine's JSON form (CC-12); it may be one that
``legal_actions`` does not list but ``apply`` accepts (e.g. a bid of several pieces).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Protocol

from .. import Rules, get_rules
from .random_bot import RandomBot

__all__ = ["GENERIC_BOTS", "Bot", "bot_names", "get_bot"]

Action = dict[str, Any]


class Bot(Protocol):
    """A player that picks one of ``legal_actions`` (or another action ``apply`` takes)."""

    name: str

    def choose(
        self,
        rules: Rules,
        view: dict[str, Any],
        legal_actions: list[Action],
        rng: random.Random,
    ) -> Action: ...


GENERIC_BOTS: Mapping[str, Bot] = MappingProxyType({"random": RandomBot()})
"""Bots that play any title. A title's own bot of the same name takes precedence."""


def _bots(slug: str) -> dict[str, Bot]:
    return {**GENERIC_BOTS, **get_rules(slug).bots}


def bot_names(slug: str) -> list[str]:
    """The names of the bots that can play ``slug`` (generic and the title's), sorted;
    ``KeyError`` if the title is unknown."""
    return sorted(_bots(slug))


def get_bot(slug: str, name: str) -> Bot:
    """The bot ``name`` for title ``slug``; ``KeyError`` with a clear message if the title
    is unknown or has no such bot. Bots hold no per-game state, so one object may play
    several seats and games."""
    bots = _bots(slug)
    try:
        return bots[name]
    except (KeyError, TypeError):
        raise KeyError(
            f"Unknown bot {name!r} for {slug}; known bots: {', '.join(sorted(bots))}."
        ) from None
