"""The title protocol: what every title's rules object implements (``Rules``), the typed
refusal (``IllegalAction``), and the optional hooks a title declares
(``declaration.HOOKS``) with their protocols."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .declaration import Declaration, Option

if TYPE_CHECKING:
    from .bots import Bot

__all__ = [
    "Determinising",
    "Event",
    "Generator",
    "IllegalAction",
    "ManyViews",
    "OptionSpec",
    "Rules",
    "SearchHooks",
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


OptionSpec = Mapping[str, Option]
"""A title's options by name (``declaration.Option``)."""

Event = dict[str, Any]


@runtime_checkable
class Rules(Protocol):
    """One title's rules as pure functions over an opaque, copyable state, and its
    metadata (``declaration`` says what it is and provides).

    Caller duties: pass states only obtained from ``setup``/``apply``/``load``; send state
    out of the engine only through ``view`` and ``query``; store it only through ``dump``;
    never change a value the declaration lists as shared. The title's duties: ``apply``
    never changes its input; events and dumps share nothing mutable with any state.
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
    declaration: Declaration

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
        for a name not in ``declaration.queries`` and ``IllegalAction(code, ...)`` when the
        seat may not ask now or ``args`` are wrong."""
        ...

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> list[int]: ...

    def elapsed(self, state: Any) -> int:
        """How far the game has got, in its declared length unit (rounds or steps)."""
        ...

    def ended_by_limit(self, state: Any) -> bool:
        """Whether a finished game ended because it reached a length limit (an option such
        as a round limit) rather than by its own end."""
        ...

    def dump(self, state: Any) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> Any: ...


class ManyViews(Protocol):
    """The ``views`` hook: several seats' views of one state for less than one ``view``
    each (the public part once). ``views(state, seats)`` returns ``{seat: view(state,
    seat)}`` for ``seats`` (``None``: the spectators'), equal to ``view``'s one by one."""

    def views(
        self, state: Any, seats: Sequence[int | None]
    ) -> dict[int | None, dict[str, Any]]: ...


class Generator(Protocol):
    """What the engine's search hooks use of the caller's seeded ``random.Random`` (the
    rules themselves never import ``random``)."""

    def random(self) -> float: ...

    def randrange(self, n: int, /) -> int: ...

    def shuffle(self, x: list[Any], /) -> None: ...

    def getrandbits(self, k: int, /) -> int: ...


class Determinising(Protocol):
    """The ``determinise`` hook, so that the ``search`` bot can play the title
    (``games.engine.bots.search``); a title without it is not offered that bot.

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


class SearchHooks(Protocol):
    """The search's optional tuning hooks, each declared on its own:
    ``search_actions(state, seat)`` the moves the search considers (default
    ``legal_actions``); ``playout_action(state, seat, rng)`` the default policy's move
    (default: uniform among those); ``playout_estimate(start, state)`` an estimated final
    result that cuts a playout short (None: play on); ``search_budget(state, seat)`` the
    share, in (0, 1], of the bot's per-move budget this decision may spend (a title whose
    turn is several decisions gives each a part, so a whole turn costs about one move's
    budget)."""

    def search_actions(self, state: Any, seat: int) -> list[dict[str, Any]]: ...

    def playout_action(self, state: Any, seat: int, rng: Generator) -> dict[str, Any]: ...

    def playout_estimate(self, start: Any, state: Any) -> list[float] | None: ...

    def search_budget(self, state: Any, seat: int) -> float: ...
