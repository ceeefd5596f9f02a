"""The ``colorado-county`` rules object implementing ``games.engine.Rules``."""

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

from . import actions, determinise, persist, queries, rules, views
from .data import DATA
from .greedy_bot import GreedyBot
from .random_bot import ColoradoCountyRandomBot
from .state import State

if TYPE_CHECKING:
    from games.engine.bots import Bot

OPTIONS_SCHEMA: Mapping[str, Option] = MappingProxyType(
    {
        "lakes": Option(
            choices=("first-game", "random"),
            default="first-game",
            label=gettext_noop("Lakes"),
            help=gettext_noop("Where the lakes lie: the first-game layout, or a random one."),
            choice_labels={
                "first-game": gettext_noop("first-game layout"),
                "random": gettext_noop("random layout"),
            },
        ),
        "flags": Option(
            choices=("players", "random"),
            default="players",
            label=gettext_noop("Flags"),
            help=gettext_noop(
                "Who places the flags: the players in turn, or the game on random legal cells."
            ),
            choice_labels={
                "players": gettext_noop("players place them"),
                "random": gettext_noop("placed at random"),
            },
        ),
    }
)

DECLARATION = Declaration(
    simultaneous=True,  # every seat bids at once (CC-5.2), sales' interest and bids too
    chance=True,  # the deck's order, random lakes and flags
    hidden_information=True,  # hands, the deck, sealed bids
    # Four rounds, each valued (CC-8); a round is as long as its cards last.
    length=Length(
        unit="rounds", typical=dict.fromkeys((2, 3, 4), (4, 4)), most=dict.fromkeys((2, 3, 4), 4)
    ),
    bot_levels=MappingProxyType({"easy": "random", "medium": "greedy", "hard": "search"}),
    queries=("claim_preview",),
    hooks=frozenset(
        {"views", "determinise", "search_actions", "playout_action", "playout_estimate"}
    ),
    # The legal actions and the views are built once per state and handed out again
    # (docs/architecture.md, "The title protocol"): callers never change them.
    shared=frozenset({"legal_actions", "view", "views"}),
)


def _state(state: Any) -> State:
    if type(state) is not State:
        raise TypeError("expected a colorado-county state (from setup, apply or load)")
    return state


class ColoradoCountyRules:
    """Colorado County (Reinhard Staupe, 1999) for 2-4 players; rules CC-1..CC-11 of
    ``titles/colorado_county/docs/rules.md``.

    Rulings where the rules page is silent: (a) a seat holding no cowboys at all bids the
    empty bid automatically; (b) the round's start player places the first flag; (c) during
    a sale the view's ``phase`` is ``sale`` and the interrupted phase resumes after it. The
    others (d)-(i) are listed in ``rules`` and in ``titles/colorado_county/docs/rulings.md``.

    ``legal_actions`` lists, for a bid, the empty bid and each single cowboy only: any
    subset of the hand is legal (for a sale bid, any non-empty subset of the uncommitted
    cowboys). Returned action dicts are fresh but should be treated as read-only.
    """

    slug = "colorado-county"
    name = "Colorado County"
    min_players = 2
    max_players = 4
    options_schema: Mapping[str, Option] = OPTIONS_SCHEMA
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
    declaration: Declaration = DECLARATION

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, str]:
        return {k: str(v) for k, v in normalise_options(OPTIONS_SCHEMA, options).items()}

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

    def elapsed(self, state: Any) -> int:
        """Rounds begun (1-4); 4 once the game is over."""
        return min(4, max(1, _state(state).round))

    def ended_by_limit(self, state: Any) -> bool:
        return False  # the game always ends after its fourth valuation

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
