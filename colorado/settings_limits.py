"""What the site allows one account and how soon it acts: sockets, tables and bots per
account, the bots' timing, invitations, webhooks, tournaments, API tokens, and how long a
"your turn" mail or push waits. Read from the environment like the rest of the settings
(README "Configuration"); ``colorado.settings`` takes every name from here.
"""

from __future__ import annotations

from colorado import env

# Sockets one account (signed out: one address) may hold per server process
# (games/live/socket_limits.py).
SOCKETS_PER_ACCOUNT = env.env_int("SOCKETS_PER_ACCOUNT", 20, minimum=2)
SOCKETS_PER_ADDRESS = env.env_int("SOCKETS_PER_ADDRESS", 50, minimum=2)
# How often each server process compares the versions its sockets show with the database,
# so a socket that missed a message (channel layer down) catches up (games/live/consumers.py).
SOCKET_RESYNC_SECONDS = env.env_int("SOCKET_RESYNC_SECONDS", 5, minimum=1)

# A bot that is to act and has not moved for this long is queued again by the sweep (its
# task was lost: a killed worker, a Redis restart, a database error). games.bots.stalled.
BOT_STALL_SECONDS = env.env_int("BOT_STALL_SECONDS", 30, minimum=1)
# The search bot's thinking time per move, in seconds: the "hard" bot level uses it
# (games.bots.players.LEVEL_SECONDS). Each bot move is one bot task (soft time limit 60 s), so at
# most 30; the deadline sweep's stand-ins share a thinking allowance of their own
# (games.clocks.sweep). docs/bots.md.
BOT_SEARCH_SECONDS = env.env_float("BOT_SEARCH_SECONDS", 2.0, minimum=0.01, maximum=30.0)
# What one account may ask of the shared capacity (games.tables.capacity, docs/bots.md): tables
# opened an hour, and tables with bots going at once.
TABLES_PER_HOUR = env.env_int("TABLES_PER_HOUR", 20, minimum=1)
BOT_TABLES_MAX = env.env_int("BOT_TABLES_MAX", 5, minimum=1)
# Invitations an account may send an hour, and to one person a day (games.tables.invitations).
# Fair bot work (games/bots/fair_queue.py): workers an account's tables share, and workers the
# tables with no person left share site-wide (played out at the lowest priority).
BOT_WORK_PER_ACCOUNT = env.env_int("BOT_WORK_PER_ACCOUNT", 1, minimum=1)
BOT_WORK_BOTS_ONLY = env.env_int("BOT_WORK_BOTS_ONLY", 1, minimum=1)
INVITATIONS_PER_HOUR = env.env_int("INVITATIONS_PER_HOUR", 30, minimum=1)
INVITATIONS_PER_INVITEE = env.env_int("INVITATIONS_PER_INVITEE", 5, minimum=1)
# Webhooks (docs/webhooks.md): hooks per account; whether a hook may point at a private,
# loopback or link-local address (only for tests and local development); how long a
# process trusts its list of accounts that have hooks.
WEBHOOKS_PER_ACCOUNT = env.env_int("WEBHOOKS_PER_ACCOUNT", 5, minimum=1)
WEBHOOKS_ALLOW_PRIVATE = env.env_bool("WEBHOOKS_ALLOW_PRIVATE", False)
WEBHOOKS_OWNERS_SECONDS = env.env_int("WEBHOOKS_OWNERS_SECONDS", 30, minimum=0)
# Tournaments a player (not an admin) may have taking entries or under way at once.
TOURNAMENTS_PER_PLAYER = env.env_int("TOURNAMENTS_PER_PLAYER", 3, minimum=1)

# "Your turn" mails wait this long, then go out only if the player has not seen the table.
# How long a process trusts a bearer token it has checked (accounts.services.token_user).
API_TOKEN_CACHE_SECONDS = env.env_int("API_TOKEN_CACHE_SECONDS", 60, minimum=0)
# How long a new API token works; its owner can revoke it sooner on the settings page.
API_TOKEN_DAYS = env.env_int("API_TOKEN_DAYS", 90, minimum=1)
TURN_EMAIL_DELAY_SECONDS = env.env_int("TURN_EMAIL_DELAY_SECONDS", 120, minimum=0)
# Web Push (issue 43, notifications/push.py): a turn is pushed this long after the move (a
# player watching the table sees it live and gets nothing), and while a device pushes the
# player's turns the "your turn" mail waits this long, so that an answered push sends none.
PUSH_DELAY_SECONDS = env.env_int("PUSH_DELAY_SECONDS", 20, minimum=0)
PUSH_MAIL_DELAY_SECONDS = env.env_int("PUSH_MAIL_DELAY_SECONDS", 3600, minimum=0)
