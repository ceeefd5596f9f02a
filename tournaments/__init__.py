"""Tournaments: round robin, Swiss and knockout, over any title (docs/tournaments.md)."""
