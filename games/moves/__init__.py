"""Moves: the one path every move takes (``submit``), from the request to the effects.

* ``request`` — a move as it arrives (``MoveRequest``), its checks without the database,
  a page's form read into an action;
* (the move's locks, reads and writes of the database are ``games.store.backends``);
* ``submit`` — load, check, apply, store, hand on (read it first);
* ``result`` — what a move hands on (``MoveResult``, ``Advance``);
* ``effects`` — the named effects, in the transaction and after the commit;
* ``answer`` — the sender's answer, the same on every surface;
* ``queue`` — a game's moves that wait for a database thread together, made together.

docs/architecture.md, "One move, from frame to frame", follows one move through them.
"""

from games.moves.request import MoveRequest, check_request
from games.moves.result import MoveResult, Outcome
from games.moves.submit import action_submit, submit

__all__ = ["MoveRequest", "MoveResult", "Outcome", "action_submit", "check_request", "submit"]
