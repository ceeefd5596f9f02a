"""Tasks that touch the database retry when it goes away, with backoff.

While PostgreSQL restarts (or fails over, or a pooled connection was cut) a task's queries
raise ``OperationalError`` / ``InterfaceError``. Such a task is not wrong, only early: it
closes its broken connections (a pooled one is then dropped by the pool, not handed out
again) and is queued again a little later, waiting longer each time. After
``max_retries`` it gives up; for bot moves the sweep finds the stalled bot and queues it
again (``games.bots.stalled``), so a long outage costs time, never a stuck game.
"""

from __future__ import annotations

import contextlib
import logging
import random
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError, connections

log = logging.getLogger(__name__)

#: The errors of a database that is away (not of a bad query).
DB_ERRORS = (OperationalError, InterfaceError)
#: First wait and the longest wait between tries, in seconds (doubling, with jitter).
BACKOFF_FIRST = 1.0
BACKOFF_MAX = 30.0


def connections_close() -> None:
    """Close every connection this thread opened; errors of a dead one are ignored."""
    for conn in connections.all(initialized_only=True):
        with contextlib.suppress(DatabaseError, InterfaceError, OSError):
            conn.close()


def backoff(retries: int) -> float:
    """Seconds before try ``retries + 1``: 1, 2, 4 … up to 30, each between half and all
    of that so workers that lost the database together do not come back together."""
    return min(BACKOFF_MAX, BACKOFF_FIRST * 2**retries) * random.uniform(0.5, 1.0)  # noqa: S311


def retry_on_db_error(task: Any, exc: Exception, *, max_retries: int) -> Any:
    """Close the broken connections and queue ``task`` (a bound Celery task, in its
    ``except DB_ERRORS`` block) again after ``backoff``: raises ``celery.exceptions.Retry``,
    or ``exc`` once ``max_retries`` tries are spent. Run eagerly (tests, scripts: there is
    no queue to go back to) it tries again at once and returns that try's result."""
    connections_close()
    retries = int(task.request.retries or 0)
    countdown = backoff(retries)
    log.warning(
        "%s lost the database (%s); try %s of %s in %.1f s",
        task.name,
        exc.__class__.__name__,
        retries + 1,
        max_retries,
        countdown,
    )
    if task.request.is_eager:
        again = task.retry(exc=exc, countdown=countdown, max_retries=max_retries, throw=False)
        # (not a wait on another task: it ran just now, in this thread)
        return again.sig.apply().get(disable_sync_subtasks=False)
    raise task.retry(exc=exc, countdown=countdown, max_retries=max_retries)
