"""A player's reliability record (docs/accounts.md, "Reliability record", REL-…): do they
finish their games, and how fast do they move. Made from every table, like the ratings:
only totals are shown, never a table.

- REL-1 finished: finished games in which the player kept their seat to the end;
  abandoned: finished games they resigned, or in which the others replaced them by the bot.
- REL-2 finish rate: finished / (finished + abandoned), in percent; none before the first.
- REL-3 timeouts: moves the bot made for the player after a missed deadline; current
  timeouts: running games in which the player has missed a deadline.
- REL-4 median time to move: over the player's last 200 moves, the time from the table's
  previous move (or its start) to theirs.
- REL-5 a table's minimum: a table that asks for a finish rate of N % takes a player whose
  rate is at least N, or who has fewer than ``NEWCOMER_GAMES`` games behind them.
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass
from typing import Any

from django.db.models import Q

from games.models import Game, Move, Seat

MOVES_MEASURED = 200
NEWCOMER_GAMES = 5


@dataclass(frozen=True)
class Record:
    finished: int
    abandoned: int
    resigned: int
    replaced: int
    finish_rate: float | None
    timeouts: int
    current_timeouts: int
    median_move_seconds: float | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def record_of(user: Any) -> Record:
    done = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED)
    resigned = done.filter(resigned=True).count()
    replaced = done.filter(resigned=False).exclude(bot_kind="").count()
    abandoned = resigned + replaced
    finished = done.count() - abandoned
    total = finished + abandoned
    rate = round(100.0 * finished / total, 1) if total else None
    timeouts = Move.objects.filter(user=user, actor=Move.Actor.TIMEOUT).count()
    current = Seat.objects.filter(
        user=user, game__status=Game.Status.RUNNING, missed_deadlines__gt=0
    ).count()
    return Record(
        finished=finished,
        abandoned=abandoned,
        resigned=resigned,
        replaced=replaced,
        finish_rate=rate,
        timeouts=timeouts,
        current_timeouts=current,
        median_move_seconds=_median_move_seconds(user),
    )


def _median_move_seconds(user: Any) -> float | None:
    mine = list(
        Move.objects.filter(user=user, actor=Move.Actor.PLAYER)
        .order_by("-id")
        .values_list("game_id", "version", "created_at")[:MOVES_MEASURED]
    )
    if not mine:
        return None
    wanted = Q()
    for game_id, version, _at in mine:
        wanted |= Q(game_id=game_id, version=version - 1)
    before = {
        (g, v): at
        for g, v, at in Move.objects.filter(wanted).values_list("game_id", "version", "created_at")
    }
    starts = dict(
        Game.objects.filter(pk__in={g for g, _v, _a in mine}).values_list("pk", "started_at")
    )
    waits = []
    for game_id, version, at in mine:
        since = before.get((game_id, version - 1)) or starts.get(game_id)
        if since is not None and at >= since:
            waits.append((at - since).total_seconds())
    return round(statistics.median(waits), 1) if waits else None


def meets_minimum(user: Any, minimum: int) -> bool:
    """REL-5: whether ``user`` may sit at a table asking for a ``minimum`` % finish rate."""
    if not minimum or getattr(user, "is_bot", False):
        return True
    record = record_of(user)
    if record.finished + record.abandoned < NEWCOMER_GAMES or record.finish_rate is None:
        return True
    return record.finish_rate >= minimum
