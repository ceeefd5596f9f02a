"""Clocks of games played over days, split by job (rules in words: ``docs/clocks.md``):

* ``arithmetic``: the pure rules over datetimes and seconds (banks, weekends, vacation days);
* ``seat_clock``: one seat's clock on the database (its zone, counted time, deadline);
* ``advance``: clocks start and stop as the game advances (a durable effect of each move,
  ``games.moves.effects``);
* ``sweep``: the deadline sweep (vacation first, then the bot stands in or the table waits);
* ``tasks``: the sweep's Celery task, run by beat every minute;
* ``vacation``: vacation taken in advance and cancelled;
* ``seats``: resigning, and the votes that hand a late player's seat to the bot.

Lock order, the same everywhere so two writers never wait on each other in a circle: game
rows (by id), then seat rows, then the user row. Moves themselves go through
``games.moves``.
"""
