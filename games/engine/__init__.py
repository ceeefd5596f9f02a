"""The rules engines: a small protocol every game implements, and the registry.

This package is pure Python: it imports no Django, database, network or clock (CC-12).
The web app, the bots and outside tools reach a game only through ``get_game(slug)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "Game",
    "IllegalAction",
    "OptionSpec",
    "game_slugs",
    "get_game",
    "validate_options",
]


class IllegalAction(Exception):
    """An action the rules refuse. ``code`` is stable snake_case for programs; ``message``
    is a sentence for the player and never reveals hidden information. The state the
    action was applied to is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


OptionSpec = Mapping[str, Mapping[str, Any]]
"""``{name: {"choices": [...], "default": value, "help": str}}``."""


@runtime_checkable
class Game(Protocol):
    """One game's rules as pure functions over an opaque, copyable state.

    Caller duties: pass states only obtained from ``setup``/``apply``/``load``; send state
    out of the engine only through ``view``; store it only through ``dump``.
    """

    slug: str
    name: str
    min_players: int
    max_players: int
    options_schema: OptionSpec

    def setup(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> Any: ...

    def setup_events(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> tuple[Any, list[dict[str, Any]]]: ...

    def to_act(self, state: Any) -> frozenset[int]: ...

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]: ...

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[dict[str, Any]]]: ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> list[int]: ...

    def dump(self, state: Any) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> Any: ...


def _registry() -> dict[str, Game]:
    from .colorado_county import GAME

    return {GAME.slug: GAME}


_GAMES: dict[str, Game] | None = None


def _games() -> dict[str, Game]:
    global _GAMES
    if _GAMES is None:
        _GAMES = _registry()
    return _GAMES


def game_slugs() -> list[str]:
    """The slugs of all registered games, sorted."""
    return sorted(_games())


def get_game(slug: str) -> Game:
    """The game object for ``slug``; ``KeyError`` with a clear message if unknown."""
    try:
        return _games()[slug]
    except (KeyError, TypeError):
        raise KeyError(f"Unknown game {slug!r}; known games: {', '.join(game_slugs())}.") from None


def validate_options(slug: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Normalise table options for ``slug``: fill defaults, refuse unknown names and values
    with a ``ValueError`` whose message can be shown to the table's creator."""
    schema = get_game(slug).options_schema
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise ValueError("Options must be an object mapping option names to values.")
    unknown = sorted(str(k) for k in options if k not in schema)
    if unknown:
        raise ValueError(
            f"Unknown option(s) {', '.join(unknown)}; allowed: {', '.join(sorted(schema))}."
        )
    out: dict[str, Any] = {}
    for name, spec in schema.items():
        value = options.get(name, spec["default"])
        choices = list(spec["choices"])
        if isinstance(value, bool) or value not in choices:
            raise ValueError(
                f"Option {name} must be one of {', '.join(map(str, choices))}, not {value!r}."
            )
        out[name] = value
    return out
