"""Signals the game services send inside the move's transaction.

Receivers run in that transaction: they may write rows (ratings, clocks) and must defer
anything that leaves the database (mail, sockets, tasks) with ``transaction.on_commit``.

* ``game_advanced(sender=Game, game, move, previous_to_act, to_act)`` after every accepted
  action (``move`` is the new ``Move``), and after the start (``move`` is ``None``).
* ``game_finished(sender=Game, game)`` once, when the engine says the game is over; the
  result is already stored on ``game.result`` and the seats' ``final_score``/``final_rank``.
"""

from django.dispatch import Signal

game_advanced = Signal()
game_finished = Signal()
