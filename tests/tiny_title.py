"""A test-only title, ``tiny-duel``: two players each pick a hidden number from 1 to 5;
when both have picked the numbers are revealed and the higher scores a point (a tie
scores nothing). After ``rounds`` rounds the higher score wins. It implements the whole
``Rules`` protocol in a few dozen lines, to show the engine's generic parts need nothing
more; ``registered()`` adds it to the registry for one test."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any

from games.engine import (
    Declaration,
    IllegalAction,
    Length,
    Option,
    normalise_options,
    register,
    unregister,
)

State = dict[str, Any]


class HighBot:
    """Always picks the highest number."""

    name = "high"
    reads_view = False
    reads_state = False

    def choose(
        self, rules: Any, view: dict[str, Any], legal_actions: list[Any], rng: random.Random
    ) -> Any:
        return max(legal_actions, key=lambda a: a["number"])


class TinyDuel:
    slug: str = "tiny-duel"
    name: str = "Tiny duel"
    min_players: int = 2
    max_players: int = 2
    options_schema: Mapping[str, Option] = MappingProxyType(
        {"rounds": Option(choices=(1, 3), default=3, label="Rounds", help="Rounds to play.")}
    )
    seat_colours: Sequence[str] = ("white", "black")
    sealed_steps: Mapping[str, str] = MappingProxyType({"pick": "picks_revealed"})
    bots: Mapping[str, Any] = MappingProxyType({"high": HighBot()})
    stand_in_bot: str = "high"
    declaration = Declaration(
        simultaneous=True,
        chance=False,
        hidden_information=True,
        length=Length(unit="rounds", typical={2: (1, 3)}, most={2: 3}),
        bot_levels=MappingProxyType({"easy": "random", "medium": "high"}),
        queries=("lead",),
    )

    def setup_events(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> tuple[State, list[dict[str, Any]]]:
        if num_players != 2:
            raise ValueError("Tiny duel is played by 2 players.")
        opts = normalise_options(self.options_schema, options)
        state = {"rounds": opts["rounds"], "round": 1, "picks": [None, None], "scores": [0, 0]}
        return state, [{"type": "game_started", "visible_to": "all"}]

    def setup(
        self, num_players: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> State:
        return self.setup_events(num_players, seed, options)[0]

    def is_over(self, state: State) -> bool:
        return bool(state["round"] > state["rounds"])

    def to_act(self, state: State) -> frozenset[int]:
        if self.is_over(state):
            return frozenset()
        return frozenset(p for p in (0, 1) if state["picks"][p] is None)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "pick", "number": n} for n in range(1, 6)]

    def apply(self, state: State, seat: int, action: Any) -> tuple[State, list[dict[str, Any]]]:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("not_legal", "That pick is not allowed now.")
        s = {**state, "picks": list(state["picks"]), "scores": list(state["scores"])}
        s["picks"][seat] = action["number"]
        events: list[dict[str, Any]] = [{"type": "picked", "visible_to": "all", "seat": seat}]
        if None not in s["picks"]:
            a, b = s["picks"]
            if a != b:
                s["scores"][0 if a > b else 1] += 1
            events.append({"type": "picks_revealed", "visible_to": "all", "picks": [a, b]})
            s["round"] += 1
            s["picks"] = [None, None]
        return s, events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": state["round"],
            "scores": list(state["scores"]),
            "players": [{"seat": p, "colour": self.seat_colours[p]} for p in (0, 1)],
        }
        if seat is not None:
            out["my_pick"] = state["picks"][seat]
        return out

    def query(self, state: State, seat: int, name: str, args: Mapping[str, Any]) -> Any:
        if name != "lead":
            raise IllegalAction("unknown_query", "Unknown query.")
        return state["scores"][seat] - state["scores"][1 - seat]

    def result(self, state: State) -> list[int]:
        return list(state["scores"])

    def elapsed(self, state: State) -> int:
        return min(int(state["round"]), int(state["rounds"]))

    def ended_by_limit(self, state: State) -> bool:
        return False

    def dump(self, state: State) -> dict[str, Any]:
        return {**state, "picks": list(state["picks"]), "scores": list(state["scores"])}

    def load(self, data: Mapping[str, Any]) -> State:
        return self.dump(dict(data))


@contextmanager
def registered(rules: Any = None) -> Iterator[TinyDuel]:
    """Register a ``TinyDuel`` (or ``rules``) for the duration of the block."""
    rules = rules or TinyDuel()
    register(rules)
    try:
        yield rules
    finally:
        unregister(rules.slug)
