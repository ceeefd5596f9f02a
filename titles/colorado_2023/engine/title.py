"""The ``colorado-2023`` rules object implementing ``games.engine.Rules``: what the title
declares it is and provides, its options, and the protocol's methods."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from games.engine import (
    Declaration,
    Generator,
    IllegalAction,
    Length,
    Option,
    _rng,
    gettext_noop,
    normalise_options,
)

from . import determinise, endstep, rules, views
from .actionstep import STEP_TYPES
from .greedy_bot import GreedyBot
from .state import State, dump, load

if TYPE_CHECKING:
    from games.engine.bots import Bot

SEATS = range(2, 5)
OPTIONS_SCHEMA: Mapping[str, Option] = MappingProxyType(
    {
        "round_limit": Option(
            choices=(40, 25),
            default=40,
            label=gettext_noop("Round limit"),
            help=gettext_noop(
                "The game ends after this round even if nobody has filled a seventh badge."
            ),
            choice_labels={
                40: gettext_noop("40 rounds (rarely reached)"),
                25: gettext_noop("25 rounds (a shorter game)"),
            },
        ),
    }
)
#: The length in rounds by seat count, measured with medium bots (docs/rules.md).
DECLARATION = Declaration(
    simultaneous=True,  # the start flags, the action step and the flags of the end step
    chance=True,  # the shuffled deck, a random card when the call finds no match
    hidden_information=True,  # hands, the deck, the sealed action step
    length=Length(
        unit="rounds",
        typical={2: (22, 28), 3: (23, 29), 4: (24, 31)},
        most=dict.fromkeys(SEATS, 40),
    ),
    bot_levels=MappingProxyType({"easy": "random", "medium": "greedy", "hard": "search"}),
    hooks=frozenset({"determinise", "search_actions", "playout_action", "ranks"}),
)
#: CO-12: every move of the action step stays hidden until the last seat is done.
SEALED: Mapping[str, str] = MappingProxyType(dict.fromkeys(STEP_TYPES, "actions_revealed"))


def _state(state: Any) -> State:
    if not isinstance(state, State):
        raise TypeError("expected a colorado-2023 state (from setup, apply or load)")
    return state


class Colorado2023Rules:
    """Colorado (Joachim Thôme, 2023) for 2-4 players on the site's own road map."""

    slug = "colorado-2023"
    name = "Colorado"
    min_players = SEATS.start
    max_players = SEATS.stop - 1
    options_schema: Mapping[str, Option] = OPTIONS_SCHEMA
    seat_colours: Sequence[str] = ("red", "blue", "green", "yellow")
    sealed_steps: Mapping[str, str] = SEALED
    bots: Mapping[str, Bot] = MappingProxyType({"greedy": GreedyBot()})
    stand_in_bot: str = "greedy"
    declaration: Declaration = DECLARATION

    def setup_events(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> tuple[State, list[dict[str, Any]]]:
        if isinstance(num_players, bool) or num_players not in SEATS:
            raise ValueError(f"{self.name} is played by 2 to 4 players.")
        limit = int(normalise_options(OPTIONS_SCHEMA, options)["round_limit"])
        return rules.setup(num_players, _rng.checked_seed(seed), limit)

    def setup(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> State:
        return self.setup_events(num_players, seed, options)[0]

    def to_act(self, state: Any) -> frozenset[int]:
        return rules.to_act(_state(state))

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return rules.legal_actions(_state(state), seat)

    def apply(self, state: Any, seat: int, action: Any) -> tuple[State, list[dict[str, Any]]]:
        return rules.apply(_state(state), seat, action)

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        s = _state(state)
        if seat is not None and (isinstance(seat, bool) or seat not in range(s.n)):
            raise ValueError(f"seat must be None or 0..{s.n - 1}")
        return views.view(s, seat)

    def query(self, state: Any, seat: int, name: str, args: Mapping[str, Any]) -> Any:
        raise IllegalAction("unknown_query", "This game answers no queries.")

    def is_over(self, state: Any) -> bool:
        return _state(state).phase == "over"

    def result(self, state: Any) -> list[int]:
        return endstep.scores(_state(state))

    def ranks(self, state: Any) -> list[int]:
        """CO-18: ties in score go to more badges, then more nuggets."""
        return endstep.ranks(_state(state))

    def elapsed(self, state: Any) -> int:
        return _state(state).round

    def ended_by_limit(self, state: Any) -> bool:
        return _state(state).limited

    def dump(self, state: Any) -> dict[str, Any]:
        return dump(_state(state))

    def load(self, data: Mapping[str, Any]) -> State:
        return load(data)

    # -- the search bot's hooks ------------------------------------------------------

    def determinise(self, state: Any, seat: int, rng: Generator) -> State:
        return determinise.determinise(_state(state), seat, rng)

    def search_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        s = _state(state)
        return determinise.search_actions(s, seat, rules.legal_actions(s, seat))

    def playout_action(self, state: Any, seat: int, rng: Generator) -> dict[str, Any]:
        s = _state(state)
        return determinise.playout_action(s, seat, rules.legal_actions(s, seat), rng)


RULES = Colorado2023Rules()
