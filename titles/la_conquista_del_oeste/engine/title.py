"""The ``la-conquista-del-oeste`` rules object implementing ``games.engine.Rules``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from games.engine import Generator, IllegalAction

from . import actions, determinise, persist, views
from . import rules as R
from .data import DATA
from .greedy_bot import GreedyBot
from .state import State

if TYPE_CHECKING:
    from games.engine.bots import Bot

OPTIONS_SCHEMA: dict[str, dict[str, Any]] = {
    "round_limit": {
        "choices": [30, 50, 80],
        "default": 50,
        "help": "Rounds after which a game nobody has won ends (LC-27).",
    },
}


def _state(state: Any) -> State:
    if type(state) is not State:
        raise TypeError("expected a la-conquista-del-oeste state (from setup, apply or load)")
    return state


class LaConquistaDelOesteRules:
    """La Conquista del Oeste (NAC, Madrid, 1982) for 2-6 players, on this site's own map
    and cards; rulings LC-1..LC-30 in ``docs/titles/la-conquista-del-oeste.md``."""

    slug = "la-conquista-del-oeste"
    name = "La Conquista del Oeste"
    min_players = 2
    max_players = 6
    options_schema: Mapping[str, Mapping[str, Any]] = OPTIONS_SCHEMA
    seat_colours: Sequence[str] = DATA.seat_colours
    sealed_steps: Mapping[str, str] = MappingProxyType({})
    bots: Mapping[str, Bot] = MappingProxyType({"greedy": GreedyBot()})
    stand_in_bot: str = "greedy"

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        from games.engine import validate_options

        return validate_options(self.slug, options)

    def setup_events(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> tuple[State, list[dict[str, Any]]]:
        if isinstance(num_players, bool) or num_players not in range(2, 7):
            raise ValueError("La Conquista del Oeste is played by 2 to 6 players.")
        opts = self._options(options)
        return R.setup(num_players, seed, opts["round_limit"])

    def _options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        # Validate against the schema directly: the title may be unregistered.
        from games.engine import get_rules

        try:
            registered = get_rules(self.slug) is self
        except KeyError:
            registered = False
        if registered:
            return self.normalise_options(options)
        opts = dict(options or {})
        unknown = set(opts) - set(OPTIONS_SCHEMA)
        if unknown:
            raise ValueError(f"Unknown option(s) {', '.join(sorted(map(str, unknown)))}.")
        out: dict[str, Any] = {}
        for name, spec in OPTIONS_SCHEMA.items():
            value = opts.get(name, spec["default"])
            if isinstance(value, bool) or value not in spec["choices"]:
                raise ValueError(f"Option {name} must be one of {spec['choices']}.")
            out[name] = value
        return out

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

    # -- the search bot's hooks (``determinise.py``) ----------------------------------

    def determinise(self, state: Any, seat: int, rng: Generator) -> State:
        """A state ``seat`` cannot tell from ``state``, hidden parts redrawn with ``rng``."""
        return determinise.determinise(_state(state), seat, rng)

    def search_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return determinise.search_actions(_state(state), seat)

    def playout_action(self, state: Any, seat: int, rng: Generator) -> dict[str, Any]:
        return determinise.playout_action(_state(state), seat, rng)

    def dump(self, state: Any) -> dict[str, Any]:
        return persist.dump(_state(state))

    def load(self, data: Mapping[str, Any]) -> State:
        return persist.load(data)


RULES = LaConquistaDelOesteRules()
