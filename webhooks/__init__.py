"""Webhooks: a player's URLs that the site tells of their turns, invitations, finished games
and tournament rounds (docs/webhooks.md)."""
