"""A player's own pages and API: settings, API tokens, profile and record, the
leaderboard, mutes, and the sign-up adapter. Above ``games`` and ``notifications`` (it shows
their data); ``accounts`` below them holds the identity (users, names, tokens, ratings' rows).
"""
