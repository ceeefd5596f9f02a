"""Fair scheduling of bot work (issue 41, item 1).

Before, every bot move was a task for one game, queued first come first served: one
account opened 20 six-seat tables of hard bots and resigned from each, and the workers spent
their time on those tables; another player's easy bot answered in 21-25 s instead of 1 s.

Now a queued ``games.bot_move`` task is a *token*: a worker that takes one serves the bot
work the site owes most, whichever game queued it (``claim_next``):

1. **Tables where a person waits come first**: a running table with a seat a person still
   plays. A table where no person is left (every seat a bot's: its people resigned or were
   replaced, or a bot opened it) is played out at the lowest priority, and only
   ``BOT_WORK_BOTS_ONLY`` (1) worker at a time does that work site-wide, so it never takes
   the last worker from a table where someone waits.
2. **Per account**: the tables an account opened share ``BOT_WORK_PER_ACCOUNT`` (1) worker
   at a time. While one of its tables is being thought about, its other tables wait and
   another account's table is served: one account's twenty tables cannot delay another's
   bot by more than the move a worker is thinking on.
3. **Per table**: within that, the table that has waited longest (``Game.updated_at``: every
   move sets it) goes first, so an account's tables take turns.

What is held is counted in the shared cache (Redis; process memory in embedded mode):
a lease on the game at its version, and a slot of its account (and of the bots-only
share); each expires after ``lease_seconds`` (the thinking time and 10 s), so a worker
killed mid-move frees them by itself. A move changes the version, so its lease is spent.
A worker that served one table queues one more token when other work was waiting, so work
held back by its account's share is picked up as soon as a slot frees; the sweep's stall
check (``games.bots.stalled``) stays the safety net for a token lost with a worker or Redis.

With eager tasks (tests, scripts) each token plays its own game at once, as before.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.core.cache import cache

from games.bots.players import seats_bot_due
from games.models import Seat

log = logging.getLogger(__name__)

#: Due games looked at per claim (the longest waiting first, by priority).
CANDIDATES = 200
#: Seconds a lease lasts beyond the search bot's thinking time.
LEASE_MARGIN_SECONDS = 10.0


def lease_seconds() -> float:
    return float(settings.BOT_SEARCH_SECONDS) + LEASE_MARGIN_SECONDS


@dataclass(frozen=True)
class Due:
    """A running game where a bot is to act."""

    game_id: int
    version: int
    owner: int  # the account that opened it (0: none left)
    person_waits: bool  # a person still plays a seat there
    since: datetime


def due_work(*, limit: int = CANDIDATES) -> list[Due]:
    """The games where a bot is to act, in the order they are owed: tables where a person
    waits first, then by how long they have waited. Two queries."""
    rows = (
        seats_bot_due()
        .order_by("game__updated_at", "game_id", "seat")
        .values_list("game_id", "game__version", "game__created_by_id", "game__updated_at")
    )
    found: dict[int, tuple[int, int, datetime]] = {}
    for game_id, version, owner, since in rows[: limit * 6]:
        if game_id not in found:
            found[int(game_id)] = (int(version), int(owner or 0), since)
        if len(found) >= limit:
            break
    people = set(
        Seat.objects.filter(game_id__in=list(found), bot_kind="").values_list("game_id", flat=True)
    )
    work = [
        Due(game_id, version, owner, game_id in people, since)
        for game_id, (version, owner, since) in found.items()
    ]
    work.sort(key=lambda due: (not due.person_waits, due.since, due.game_id))
    return work


@dataclass
class Claim:
    """Bot work a worker holds: the game at its version, and the slots it counts in."""

    due: Due
    keys: list[str] = field(default_factory=list)
    others_waiting: bool = False

    def release(self) -> None:
        for key in self.keys:
            try:
                cache.delete(key)
            except Exception as exc:  # the cache is away: the keys expire by themselves
                log.warning("bot lease %s not released: %s", key, exc)
        self.keys = []


def _slot(prefix: str, count: int, seconds: float) -> str | None:
    """One of ``count`` slots named ``prefix``, if one is free (taken for ``seconds``)."""
    for n in range(max(1, count)):
        key = f"{prefix}:{n}"
        if cache.add(key, 1, timeout=seconds):
            return key
    return None


def _try(due: Due, seconds: float) -> list[str] | None:
    """The keys of ``due``'s lease and slots, all taken, or None (nothing kept)."""
    taken: list[str] = []

    def give_back() -> None:
        for key in taken:
            cache.delete(key)

    if not due.person_waits:
        key = _slot("bot-work:bots-only", int(settings.BOT_WORK_BOTS_ONLY), seconds)
        if key is None:
            return None
        taken.append(key)
    key = _slot(f"bot-work:account:{due.owner}", int(settings.BOT_WORK_PER_ACCOUNT), seconds)
    if key is None:
        give_back()
        return None
    taken.append(key)
    lease = f"bot-work:game:{due.game_id}:{due.version}"
    if not cache.add(lease, 1, timeout=seconds):
        give_back()
        return None
    taken.append(lease)
    return taken


#: The cache key of the last time a worker made a bot move (``moving``).
LAST_MOVE_KEY = "bot-work:last-move"


def note_move() -> None:
    """Record that a worker made a bot move now (the sweep tells waiting from lost)."""
    try:
        cache.set(LAST_MOVE_KEY, time.time(), timeout=3600)
    except Exception as exc:  # the cache is away: the sweep then queues every stall again
        log.warning("bot work's last move not recorded: %s", exc)


def moving(*, within: float) -> bool:
    """Whether a worker made a bot move in the last ``within`` seconds: bot work is flowing,
    and a table whose bot has waited longer is waiting for its turn (its account's share,
    or the share of tables only bots play), not lost."""
    try:
        last = cache.get(LAST_MOVE_KEY)
    except Exception:
        return False
    return isinstance(last, float) and time.time() - last < within


def claim_next() -> Claim | None:
    """The bot work owed most that no worker holds and whose shares are free, claimed for
    this worker; None when there is none."""
    seconds = lease_seconds()
    work = due_work()
    for index, due in enumerate(work):
        keys = _try(due, seconds)
        if keys is not None:
            others = len(work) > index + 1 or index > 0
            return Claim(due=due, keys=keys, others_waiting=others)
    return None
