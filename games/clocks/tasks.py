"""Celery tasks for clocks: the deadline sweep (beat, every minute).

Thin: the work is in ``games.clocks.sweep``. The sweep claims each due seat with a conditional
UPDATE (safe with two schedulers running) and handles it in one transaction, so a worker
killed mid-task leaves no half move; the claim's lease makes the seat due again, and the
timeout move's ``client_id`` (``timeout:<version>:<seat>``) means it is made once.

The sweep also queues again the bots that should have moved and did not (``games.bots.stalled``):
their task was lost. While the database is away the sweep retries a few times with backoff;
beat sends a new one every ``SWEEP_SECONDS`` anyway.
"""

from __future__ import annotations

from celery import Task, shared_task
from django.utils import timezone

from colorado.db_retry import DB_ERRORS, retry_on_db_error
from colorado.task_queue import SWEEP_DB_RETRIES, SWEEP_TASK
from games.bots.stalled import bots_requeue
from games.clocks.sweep import deadlines_sweep


@shared_task(name="games.tasks_clock.sweep_deadlines", **SWEEP_TASK)
def sweep_deadlines(self: Task) -> dict[str, int]:
    """Handle every seat whose deadline passed and queue the stalled bots again. (The mails
    and pushes this makes due have their own sweep: ``notifications.tasks.sweep_notifications``.)"""
    try:
        return _sweep()
    except DB_ERRORS as exc:
        return retry_on_db_error(self, exc, max_retries=SWEEP_DB_RETRIES)


def _sweep() -> dict[str, int]:
    now = timezone.now()
    outcomes = deadlines_sweep(now=now)
    outcomes["bots_requeued"] = bots_requeue(now=now)
    return outcomes
