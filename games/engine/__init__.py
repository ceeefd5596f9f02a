"""The rules engines: the protocol every title (game) implements, and the title registry.

This package is pure Python: it imports no Django, database, network or clock (CC-12).
The web app, the bots and outside tools reach a title only through ``get_rules(slug)``.
Each title's rules are one package ``titles.<package>.engine`` exporting ``RULES``; the
titles are listed once, in ``titles.TITLE_PACKAGES``, and imported on the first registry
call. Nothing else in ``games.engine`` imports a title package.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from titles import TITLE_PACKAGES

from . import _native

_native.extend(__path__, __name__)  # the compiled engine, when built (``_native``)

if TYPE_CHECKING:
    from .bots import Bot

__all__ = [
    "TITLE_PACKAGES",
    "Determinising",
    "Generator",
    "IllegalAction",
    "ManyViews",
    "OptionSpec",
    "Rules",
    "get_rules",
    "register",
    "title_slugs",
    "unregister",
    "validate_options",
    "views",
]


class IllegalAction(Exception):
    """An action (or query) the rules refuse. ``code`` is stable snake_case for programs;
    ``message`` is a sentence for the player and never reveals hidden information. The
    state the action was applied to is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


OptionSpec = Mapping[str, Mapping[str, Any]]
"""``{name: {"choices": [...], "default": value, "help": str}}``."""

Event = dict[str, Any]


@runtime_checkable
class Rules(Protocol):
    """One title's rules as pure functions over an opaque, copyable state, and its
    metadata.

    Caller duties: pass states only obtained from ``setup``/``apply``/``load``; send state
    out of the engine only through ``view`` and ``query``; store it only through ``dump``.
    """

    slug: str
    name: str
    min_players: int
    max_players: int
    options_schema: OptionSpec
    seat_colours: Sequence[str]
    """One colour word per seat, ``len == max_players`` (the same whatever the count)."""
    sealed_steps: Mapping[str, str]
    """Action type whose content is hidden from the other seats -> the event type that
    reveals it."""
    bots: Mapping[str, Bot]
    """The title's own bots by name (the generic ``random`` bot is not listed)."""
    stand_in_bot: str
    """The bot that plays a seat whose player is late or has left."""

    def setup(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> Any: ...

    def setup_events(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> tuple[Any, list[Event]]: ...

    def to_act(self, state: Any) -> frozenset[int]: ...

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]: ...

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Event]]: ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    def query(self, state: Any, seat: int, name: str, args: Mapping[str, Any]) -> Any:
        """A read-only extra for ``seat`` (never changes ``state``; the answer is JSON and
        holds only what that seat may see). Raises ``IllegalAction("unknown_query", ...)``
        for an unknown ``name`` and ``IllegalAction(code, ...)`` when the seat may not ask
        now or ``args`` are wrong."""
        ...

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> list[int]: ...

    def dump(self, state: Any) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> Any: ...


class ManyViews(Protocol):
    """The optional hook a title adds to its ``Rules`` when it can build several seats'
    views of one state for less than one ``view`` each (the public part once): ``views``
    returns ``{seat: view(state, seat)}`` for ``seats`` (``None``: the spectators'), equal
    to ``view``'s one by one. Callers treat the views as read-only: they may share their
    public members."""

    def views(
        self, state: Any, seats: Sequence[int | None]
    ) -> dict[int | None, dict[str, Any]]: ...


def views(
    rules: Rules, state: Any, seats: Sequence[int | None]
) -> dict[int | None, dict[str, Any]]:
    """Each of ``seats``' view of ``state`` (``None``: the spectators'), as ``rules.view``
    gives it: through the title's ``ManyViews`` hook when it has one (after a move the
    server builds every seat's frame at once), else one ``view`` per seat."""
    many = getattr(rules, "views", None)  # the hook (``ManyViews``), without a protocol check
    if many is not None:
        return many(state, seats)  # type: ignore[no-any-return]
    return {seat: rules.view(state, seat) for seat in seats}


class Generator(Protocol):
    """What the engine's search hooks use of the caller's seeded ``random.Random`` (the
    engine itself never imports ``random``)."""

    def random(self) -> float: ...

    def randrange(self, n: int, /) -> int: ...

    def shuffle(self, x: list[Any], /) -> None: ...

    def getrandbits(self, k: int, /) -> int: ...


@runtime_checkable
class Determinising(Protocol):
    """The optional hook a title adds to its ``Rules`` so that the ``search`` bot can play
    it (``games.engine.bots.search``); a title without it is not offered that bot.

    ``determinise(state, seat, rng)`` returns a new state (``state`` is unchanged) that
    ``seat`` cannot tell from ``state``: the same view and legal actions for ``seat``, with
    every part hidden from ``seat`` rebuilt from public information and the seat's own
    knowledge only, drawn with ``rng`` (other seats' hands, the order and make-up of decks,
    stacks and bags, other seats' sealed actions not yet revealed, the random generator and
    seed). The result must not depend on any hidden part of ``state``: two states that
    differ only in what ``seat`` cannot see give the same result for the same ``rng``.
    A title may instead drop other seats' pending sealed actions (they have not been
    revealed, so the search chooses them again); the result is then a state where those
    seats are still to act."""

    def determinise(self, state: Any, seat: int, rng: Generator) -> Any: ...


_LOCK = threading.Lock()
_TITLES: dict[str, Rules] | None = None


def _builtin() -> dict[str, Rules]:
    out: dict[str, Rules] = {}
    for package in TITLE_PACKAGES:
        rules: Rules = importlib.import_module(f"titles.{package}.engine").RULES
        if rules.slug in out:
            raise ValueError(f"Two built-in titles use the slug {rules.slug!r}.")
        out[rules.slug] = rules
    return out


def _titles() -> dict[str, Rules]:
    global _TITLES
    if _TITLES is None:
        with _LOCK:
            if _TITLES is None:
                _TITLES = _builtin()
    return _TITLES


def title_slugs() -> list[str]:
    """The slugs of all registered titles, sorted."""
    return sorted(_titles())


def get_rules(slug: str) -> Rules:
    """The rules object of ``slug``; ``KeyError`` with a clear message if unknown."""
    try:
        return _titles()[slug]
    except (KeyError, TypeError):
        raise KeyError(
            f"Unknown title {slug!r}; known titles: {', '.join(title_slugs())}."
        ) from None


def register(rules: Rules) -> None:
    """Add a title at run time (e.g. a test-only title). Registering the same object again
    does nothing; ``ValueError`` if its slug belongs to another object, ``TypeError`` if it
    lacks part of the ``Rules`` protocol."""
    if not isinstance(rules, Rules):
        raise TypeError(f"{rules!r} does not implement the Rules protocol.")
    if not isinstance(rules.slug, str) or not rules.slug:
        raise ValueError("A title's slug must be a non-empty string.")
    if len(rules.seat_colours) != rules.max_players:
        raise ValueError(f"{rules.slug}: seat_colours must name one colour per seat.")
    titles = _titles()
    with _LOCK:
        known = titles.get(rules.slug)
        if known is not None and known is not rules:
            raise ValueError(f"The slug {rules.slug!r} is already taken by {known!r}.")
        titles[rules.slug] = rules


def unregister(slug: str) -> None:
    """Remove the title ``slug`` (``KeyError`` if it is not registered)."""
    titles = _titles()
    with _LOCK:
        if slug not in titles:
            raise KeyError(f"Unknown title {slug!r}; nothing to unregister.")
        del titles[slug]


def validate_options(slug: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Normalise table options for ``slug``: fill defaults, refuse unknown names and values
    with a ``ValueError`` whose message can be shown to the table's creator."""
    schema = get_rules(slug).options_schema
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
