"""Replay a logged game from its seed: one helper for the fairness check, the
``replay_check`` command and the replay page.

    result = replay(slug, seed=seed, num_players=n, options=options, moves=moves)

``moves`` is an iterable of ``(seat, action)`` pairs (read lazily, so a caller may check
each log row as it goes). Every move is applied with the title's own ``apply``: a refused
move raises ``MoveRefused`` (an ``IllegalAction`` that also says which move), after which
nothing more is read. Setup problems raise what ``setup`` raises (``ValueError`` for a bad
player count, options or seed); an unknown slug raises ``KeyError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from . import Event, IllegalAction, get_rules

__all__ = ["MoveRefused", "Replay", "replay"]


class MoveRefused(IllegalAction):
    """Move ``index`` (0-based in ``moves``) was refused. ``code`` is the rules' code
    (``bad_move`` when the item is not a ``(seat, action)`` pair), ``reason`` the rules'
    message, and ``message`` says which move it was."""

    def __init__(self, index: int, seat: Any, action: Any, code: str, reason: str) -> None:
        super().__init__(code, f"Move {index + 1} (by seat {seat!r}) is refused: {reason}")
        self.index = index
        self.seat = seat
        self.action = action
        self.reason = reason


@dataclass(frozen=True)
class Replay:
    """The outcome of a replay. ``events[i]`` are the events of move ``i``; ``states`` is
    empty unless asked for (``keep_states=True``): then ``states[0]`` is the state after
    setup and ``states[i + 1]`` the state after move ``i``."""

    state: Any
    setup_events: list[Event]
    events: list[list[Event]]
    states: tuple[Any, ...] = ()

    @property
    def moves(self) -> int:
        """How many moves were applied."""
        return len(self.events)


def replay(
    slug: str,
    *,
    seed: int | str,
    num_players: int,
    options: Mapping[str, Any] | None,
    moves: Iterable[tuple[int, Any]],
    keep_states: bool = False,
) -> Replay:
    """Set the title up from ``seed`` and apply ``moves`` in order (see the module doc)."""
    rules = get_rules(slug)
    state, setup_events = rules.setup_events(num_players, seed, options)
    states = [state] if keep_states else []
    events: list[list[Event]] = []
    for index, move in enumerate(moves):
        try:
            seat, action = move
        except (TypeError, ValueError):
            raise MoveRefused(
                index, None, move, "bad_move", "a move must be a (seat, action) pair."
            ) from None
        try:
            state, move_events = rules.apply(state, seat, action)
        except IllegalAction as exc:
            raise MoveRefused(index, seat, action, exc.code, exc.message) from exc
        events.append(move_events)
        if keep_states:
            states.append(state)
    return Replay(state, setup_events, events, tuple(states))
