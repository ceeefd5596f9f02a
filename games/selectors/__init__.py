"""Reads: ``documents`` (what a caller may see of a game: its document, seats and log),
``inbox`` (the games waiting for a player, the lobby's open and public tables) and
``log_words`` (the game log in words)."""
