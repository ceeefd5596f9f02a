"""What a move hands on: the explicit objects the move path passes from the transaction to
its effects and to the caller's answer (nothing travels as an attribute of a model
instance).

* ``Advance``: one step of a game inside its transaction — an accepted move, or the start
  (``move`` is ``None``). The durable effects (``games.moves.effects.DURABLE``) take it.
* ``MoveResult``: what ``games.moves.submit.submit`` made of a batch of requests (often one):
  the game as its last move left it, the seats locked with it, the new state, the accepted
  moves with their events, each request's outcome, and, once the frames are built after the
  commit, each seat's document. The after-commit effects take it; the answer reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.errors import GameError
from games.models import Game, Move, Seat

Json = dict[str, Any]

#: What ``submit`` answers for each request: the version its move made and whether it was
#: a retry (``replayed``), or the error that refused it (nothing of it written).
Outcome = tuple[int, bool] | GameError


@dataclass(frozen=True)
class Advance:
    """One step of ``game``, inside its transaction, with ``game`` as that step left it."""

    game: Game
    seats: list[Seat]  # every seat of the game, with its user, locked with the game
    move: Move | None  # None: the game started
    previous_to_act: frozenset[int]
    to_act: frozenset[int]


@dataclass
class MoveResult:
    """A batch of moves at one game, as ``submit`` made it (nothing written for a refused
    request; ``moves`` empty when every request was refused or a retry)."""

    game: Game
    seats: list[Seat]
    outcomes: list[Outcome]
    moves: list[Move] = field(default_factory=list)
    state: Any = None  # the engine's state after the last move (None: no move)
    advances: list[Advance] = field(default_factory=list)
    finished: bool = False  # a move of this batch ended the game
    bot_due: bool = False  # a bot (or a stand-in) must act next
    #: Each seat's document (``None``: the spectators') after the moves, filled by the
    #: frames effect after the commit (``games.live.frames``); the mover's answer is one.
    documents: dict[int | None, Json] = field(default_factory=dict)

    @property
    def events(self) -> list[Json]:
        """The events of the accepted moves, in order (private ones included: each seat
        is shown only its own through ``games.selectors.documents``)."""
        return [event for move in self.moves for event in move.events]
