"""The ``la-conquista-del-oeste`` rules object implementing ``games.engine.Rules``."""

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
    gettext_noop,
    normalise_options,
)

from . import actions, determinise, persist, search_hooks, views
from . import rules as R
from .data import DATA
from .greedy_bot import GreedyBot
from .state import State

if TYPE_CHECKING:
    from games.engine.bots import Bot

OPTIONS_SCHEMA: Mapping[str, Option] = MappingProxyType(
    {
        "round_limit": Option(
            choices=(30, 50, 80),
            default=50,
            label=gettext_noop("Round limit"),
            help=gettext_noop(
                "If nobody has reached the West by then, the player closest to an arrival "
                "point wins."
            ),
            choice_labels={
                30: gettext_noop("30 rounds (a short game)"),
                50: gettext_noop("50 rounds (the usual game)"),
                80: gettext_noop("80 rounds (a long game)"),
            },
        ),
    }
)

SEATS = range(2, 7)
DECLARATION = Declaration(
    simultaneous=True,  # the seats invited to a poker game answer at once (LC-23)
    chance=True,  # dice, the decks' order
    hidden_information=True,  # Opportunity cards in hand, the decks
    # p10-p90 of 400 greedy games per seat count, seed 2027 (docs/benchmarks.md, LC-32);
    # no game outlasts the round limit.
    length=Length(
        unit="rounds",
        typical={2: (23, 49), 3: (22, 38), 4: (22, 32), 5: (21, 30), 6: (21, 29)},
        most=dict.fromkeys(SEATS, 80),
    ),
    bot_levels=MappingProxyType({"easy": "random", "medium": "greedy", "hard": "search"}),
    hooks=frozenset(
        {"determinise", "search_actions", "playout_action", "playout_estimate", "search_budget"}
    ),
)


def _state(state: Any) -> State:
    if type(state) is not State:
        raise TypeError("expected a la-conquista-del-oeste state (from setup, apply or load)")
    return state


class LaConquistaDelOesteRules:
    """La Conquista del Oeste (NAC, Madrid, 1982) for 2-6 players, on this site's own map
    and cards; rulings LC-1..LC-32 in ``titles/la_conquista_del_oeste/docs/rules.md``."""

    slug = "la-conquista-del-oeste"
    name = "La Conquista del Oeste"
    min_players = 2
    max_players = 6
    options_schema: Mapping[str, Option] = OPTIONS_SCHEMA
    seat_colours: Sequence[str] = DATA.seat_colours
    sealed_steps: Mapping[str, str] = MappingProxyType({})
    bots: Mapping[str, Bot] = MappingProxyType({"greedy": GreedyBot()})
    stand_in_bot: str = "greedy"

    declaration: Declaration = DECLARATION

    def setup_events(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> tuple[State, list[dict[str, Any]]]:
        if isinstance(num_players, bool) or num_players not in SEATS:
            raise ValueError("La Conquista del Oeste is played by 2 to 6 players.")
        opts = normalise_options(OPTIONS_SCHEMA, options)
        return R.setup(num_players, seed, int(opts["round_limit"]))

    def setup(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> State:
        return self.setup_events(num_players, seed, options)[0]

    def to_act(self, state: Any) -> frozenset[int]:
        return actions.to_act(_state(state))

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return actions.legal_actions(_state(state), seat)

    def apply(self, state: Any, seat: int, action: Any) -> tuple[State, list[dict[str, Any]]]:
        """Apply ``action`` by ``seat``; return the new state and its events. Raises
        ``IllegalAction`` (and changes nothing) if the action is not legal now."""
        return actions.apply_action(_state(state), seat, action)

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return views.view(_state(state), seat)

    def query(self, state: Any, seat: int, name: str, args: Mapping[str, Any]) -> Any:
        raise IllegalAction("unknown_query", f"Unknown query {name!r}.")

    def is_over(self, state: Any) -> bool:
        return _state(state).phase == "over"

    def result(self, state: Any) -> list[int]:
        return R.scores(_state(state))

    def elapsed(self, state: Any) -> int:
        """Rounds begun; the round limit once a game has reached it."""
        s = _state(state)
        return min(s.round, s.round_limit)

    def ended_by_limit(self, state: Any) -> bool:
        s = _state(state)
        return s.phase == "over" and s.round > s.round_limit  # LC-27

    # -- the search bot's hooks (``determinise.py``) ----------------------------------

    def determinise(self, state: Any, seat: int, rng: Generator) -> State:
        """A state ``seat`` cannot tell from ``state``, hidden parts redrawn with ``rng``."""
        return determinise.determinise(_state(state), seat, rng)

    def search_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return search_hooks.search_actions(_state(state), seat)

    def playout_action(self, state: Any, seat: int, rng: Generator) -> dict[str, Any]:
        return search_hooks.playout_action(_state(state), seat, rng)

    def search_budget(self, state: Any, seat: int) -> float:
        return search_hooks.search_budget(_state(state), seat)

    def playout_estimate(self, start: Any, state: Any) -> list[float] | None:
        return search_hooks.playout_estimate(_state(start), _state(state))

    def dump(self, state: Any) -> dict[str, Any]:
        return persist.dump(_state(state))

    def load(self, data: Mapping[str, Any]) -> State:
        return persist.load(data)


RULES = LaConquistaDelOesteRules()
