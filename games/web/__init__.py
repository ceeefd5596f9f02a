"""The site's pages for games, by job: ``lobby`` (my tables, a new table, the inbox),
``page`` (the game page and its panels, queries, rules pages), ``posts`` (the forms the
game page posts), ``finished`` (a finished game's verification, rematch and replay),
``notes`` (the private notepad) and ``bots`` (the Bots page); with ``forms`` (the pages'
forms) and ``context`` (what every page's template gets)."""
