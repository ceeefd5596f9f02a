"""Engine states loaded from ``Game.state``, kept in a small per-process cache.

A state at a given game version never changes (the engine's ``apply`` returns new states and
never mutates its input), so the loaded object for ``(game id, version, seed hash)`` can be
shared by every reader in this process. The seed hash is part of the key so a reused id (a
flushed test database) can never return another game's state.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from games.engine import Rules, get_rules

if TYPE_CHECKING:
    from games.models import Game

_SIZE = 512
_cache: OrderedDict[tuple[int, int, str], Any] = OrderedDict()
_lock = threading.Lock()


def engine_for(game: Game) -> Rules:
    return get_rules(game.title)


def _key(game: Game, version: int | None = None) -> tuple[int, int, str]:
    return (int(game.pk), int(game.version if version is None else version), game.seed_hash)


def load_state(game: Game) -> Any:
    """The engine state stored on ``game`` (which must have started)."""
    key = _key(game)
    with _lock:
        state = _cache.get(key)
        if state is not None:
            _cache.move_to_end(key)
            return state
    if game.state is None:
        raise ValueError(f"game {game.pk} has no state yet")
    state = engine_for(game).load(game.state)
    remember_state(game, state)
    return state


def remember_state(game: Game, state: Any, *, version: int | None = None) -> None:
    """Record ``state`` as the state of ``game`` at ``version`` (default: its current one).

    Writers call this only once their transaction has committed (``on_commit``): a rolled
    back move must never be remembered."""
    key = _key(game, version)
    with _lock:
        _cache[key] = state
        _cache.move_to_end(key)
        while len(_cache) > _SIZE:
            _cache.popitem(last=False)
