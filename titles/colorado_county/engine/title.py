"""The ``colorado-county`` rules object implementing ``games.engine.Rules``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from games.engine import Generator, IllegalAction, _rng

from . import actions, determinise, persist, queries, rules, views
from .data import DATA
from .greedy_bot import GreedyBot
from .random_bot import ColoradoCountyRandomBot
from .state import State

if TYPE_CHECKING:
    from games.engine.bots import Bot

OPTIONS_SCHEMA: dict[str, dict[str, Any]] = {
    "lakes": {
        "choices": ["first-game", "random"],
        "default": "first-game",
        "help": "Lake placement: the first-game layout, or random under CC-2.3.",
    },
    "flags": {
        "choices": ["players", "random"],
        "default": "players",
        "help": "Flag placement: chosen by the players in turn, or on random legal cells.",
    },
}


def _state(state: Any) -> State:
    if type(state) is not State:
        raise TypeError("expected a colorado-county state (from setup, apply or load)")
    return state


class ColoradoCountyRules:
    """Colorado County (Reinhard Staupe, 1999) for 2-4 players; rules in the spec, CC-1..11.

    Rulings where the spec is silent: (a) a seat holding no cowboys at all bids the empty
    bid automatically; (b) the round's start player places the first flag; (c) during a
    sale the view's ``phase`` is ``sale`` and the interrupted phase resumes after it.
    The others (d)-(i) are listed in ``rules`` and in ``docs/engine.md``.

    ``legal_actions`` lists, for a bid, the empty bid and each single cowboy only: any
    subset of the hand is legal (for a sale bid, any non-empty subset of the uncommitted
    cowboys). Returned action dicts are fresh but should be treated as read-only.
    """

    slug = "colorado-county"
    name = "Colorado County"
    min_players = 2
    max_players = 4
    options_schema: Mapping[str, Mapping[str, Any]] = OPTIONS_SCHEMA
    seat_colours: Sequence[str] = DATA.player_colours
    sealed_steps: Mapping[str, str] = MappingProxyType(
        {
            "bid": "bids_revealed",
            "sale_interest": "sale_interest_revealed",
            "sale_bid": "sale_bids_revealed",
        }
    )
    bots: Mapping[str, Bot] = MappingProxyType(
        {"greedy": GreedyBot(), "random": ColoradoCountyRandomBot()}
    )
    stand_in_bot: str = "greedy"

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, str]:
        from games.engine import validate_options

        return validate_options(self.slug, options)

    def setup_events(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> tuple[State, list[dict[str, Any]]]:
        """Like ``setup``, also returning the setup events (starting hands are private)."""
        if isinstance(num_players, bool) or num_players not in (2, 3, 4):
            raise ValueError("Colorado County is played by 2, 3 or 4 players.")
        return rules.setup(num_players, _rng.checked_seed(seed), self.normalise_options(options))

    def setup(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> State:
        return self.setup_events(num_players, seed, options)[0]

    # The hot methods check the state's type inline (one call less per step, issue 16).
    def to_act(self, state: Any) -> frozenset[int]:
        if type(state) is not State:
            _state(state)
        return views.to_act(state)

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        if type(state) is not State:
            _state(state)
        if type(seat) is not int:  # checked here: compiled code checks declared types
            return []
        return views.legal_actions(state, seat)

    def apply(self, state: Any, seat: int, action: Any) -> tuple[State, list[dict[str, Any]]]:
        """Apply ``action`` by ``seat``; return the new state and its events. Raises
        ``IllegalAction`` (and changes nothing) if the action is not legal now."""
        if type(state) is not State:
            _state(state)
        return actions.apply_action(state, seat, action)

    def check(self, state: Any, seat: int, action: Any) -> IllegalAction | None:
        """The ``IllegalAction`` that ``apply`` would raise, or None if it is legal."""
        try:
            self.apply(state, seat, action)
        except IllegalAction as exc:
            return exc
        return None

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        s = _state(state)
        if seat is not None and type(seat) is not int:
            raise ValueError(f"seat must be None or 0..{s.n - 1}")
        return views.view(s, seat)

    def views(self, state: Any, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """``{seat: self.view(state, seat)}`` for ``seats``, the public part built once
        (``games.engine.views``)."""
        return views.views(_state(state), list(seats))

    def query(self, state: Any, seat: int, name: str, args: Mapping[str, Any]) -> Any:
        """Read-only extras: ``claim_preview`` (see ``queries``)."""
        return queries.query(_state(state), seat, name, args)

    def is_over(self, state: Any) -> bool:
        if type(state) is not State:
            _state(state)
        phase: str = state.phase
        return phase == "over"

    def result(self, state: Any) -> list[int]:
        return list(_state(state).scores)

    def winners(self, state: Any) -> list[int]:
        """Seats sharing the highest score (CC-10.1); empty while the game runs."""
        s = _state(state)
        if s.phase != "over":
            return []
        top = max(s.scores)
        return [p for p in range(s.n) if s.scores[p] == top]

    # -- the search bot's hooks (``determinise.py``) ----------------------------------

    def determinise(self, state: Any, seat: int, rng: Generator) -> State:
        """A state ``seat`` cannot tell from ``state``, hidden parts redrawn with ``rng``."""
        return determinise.determinise(_state(state), seat, rng)

    def search_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        s = _state(state)
        return determinise.search_actions(s, seat) if type(seat) is int else []

    def playout_action(self, state: Any, seat: int, rng: Generator) -> dict[str, Any]:
        return determinise.playout_action(_state(state), seat, rng)

    def playout_estimate(self, start: Any, state: Any) -> list[float] | None:
        return determinise.playout_estimate(_state(start), _state(state))

    def dump(self, state: Any) -> dict[str, Any]:
        return persist.dump(_state(state))

    def load(self, data: Mapping[str, Any]) -> State:
        return persist.load(data)


RULES = ColoradoCountyRules()
