"""The games app's routers of the JSON API (paths and shapes: docs/api.md), mounted by
``colorado.api``: ``tables`` (tables, moves, chat, bots' levels), ``clock`` (resigning and
replace votes) and ``notes`` (the private notepad)."""
