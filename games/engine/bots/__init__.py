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

Searching bots (``search``, ``bots/search.py``) also implement ``StateBot``: they are
given the state and the seat, and their first step is the title's ``determinise`` hook
(``games.engine.Determinising``), which rebuilds everything the seat cannot see from
public information, so they too decide from what the seat may know (the tests check that
two states differing only in hidden parts give the same move). Callers that hold the
state use ``choose_action(bot, rules, state, seat, rng)``, which gives a ``StateBot`` the
state and any other bot the view and legal actions. ``get_bot(slug, "search", seconds=,
iterations=)`` sets the search budget; the search bot is offered only for titles with the
``determinise`` hook.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Protocol, cast, runtime_checkable

from .. import Rules, determinising, get_rules
from .random_bot import RandomBot
from .search import DEFAULT_SECONDS, SearchBot

__all__ = [
    "DEFAULT_SECONDS",
    "GENERIC_BOTS",
    "Bot",
    "SearchBot",
    "StateBot",
    "bot_names",
    "choose_action",
    "get_bot",
]

Action = dict[str, Any]


class Bot(Protocol):
    """A player that picks one of ``legal_actions`` (or another action ``apply`` takes).

    ``reads_view``: False for a bot that never looks at the view (it is then given an
    empty one: building views was most of the time of a random playout, issue 16).
    ``reads_state``: True for a searching bot (a ``StateBot``), which is given the state
    and reads its hidden parts only through the title's ``determinise`` hook."""

    name: str
    reads_view: bool
    reads_state: bool

    def choose(
        self,
        rules: Rules,
        view: dict[str, Any],
        legal_actions: list[Action],
        rng: random.Random,
    ) -> Action: ...


@runtime_checkable
class StateBot(Bot, Protocol):
    """A bot that is given the state (a searching bot). It must read hidden parts of
    ``state`` only through the title's ``determinise`` hook."""

    def choose_state(self, rules: Rules, state: Any, seat: int, rng: random.Random) -> Action: ...


GENERIC_BOTS: Mapping[str, Bot] = MappingProxyType({"random": RandomBot()})
"""Bots that play any title. A title's own bot of the same name takes precedence."""

SEARCH_BOT = SearchBot()
"""The ``search`` bot at the default budget (offered for titles with ``determinise``)."""


def _bots(slug: str) -> dict[str, Bot]:
    rules = get_rules(slug)
    searching: dict[str, Bot] = {"search": SEARCH_BOT} if determinising(rules) else {}
    return {**GENERIC_BOTS, **searching, **rules.bots}


def bot_names(slug: str) -> list[str]:
    """The names of the bots that can play ``slug`` (generic and the title's), sorted;
    ``KeyError`` if the title is unknown."""
    return sorted(_bots(slug))


def get_bot(
    slug: str, name: str, *, seconds: float | None = None, iterations: int | None = None
) -> Bot:
    """The bot ``name`` for title ``slug``; ``KeyError`` with a clear message if the title
    is unknown or has no such bot. Bots hold no per-game state, so one object may play
    several seats and games.

    ``seconds`` (thinking time per move, default ``DEFAULT_SECONDS`` = 2.0) and
    ``iterations`` (a cap on search iterations per move; None = no cap) set the budget of
    a searching bot; with a cap and the same ``rng`` its moves are reproducible. Bots that
    do not search ignore them. ``ValueError`` for a budget that is not positive."""
    bots = _bots(slug)
    try:
        bot = bots[name]
    except (KeyError, TypeError):
        raise KeyError(
            f"Unknown bot {name!r} for {slug}; known bots: {', '.join(sorted(bots))}."
        ) from None
    if isinstance(bot, SearchBot) and (seconds is not None or iterations is not None):
        return bot.with_budget(seconds=seconds, iterations=iterations)
    return bot


def choose_action(bot: Bot, rules: Rules, state: Any, seat: int, rng: random.Random) -> Action:
    """``bot``'s action for ``seat`` in ``state`` (the seat must be to act): a ``StateBot``
    gets the state (it sees hidden parts only through ``determinise``); any other bot gets
    the seat's view and legal actions only. A bot that does not read views (the random
    bots) gets an empty one. The bot's declared ``reads_state`` decides, not a run-time
    protocol check (one on every move halved the speed of random playouts)."""
    if bot.reads_state:
        action: Action = cast(StateBot, bot).choose_state(rules, state, seat, rng)
        return action
    view = rules.view(state, seat) if bot.reads_view else {}
    return bot.choose(rules, view, rules.legal_actions(state, seat), rng)
