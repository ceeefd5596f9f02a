"""The embedded task worker and scheduler: Celery running in threads of the current process.

Used by ``manage.py serve`` when there is no Redis (the broker is then kombu's in-memory
transport, which only reaches threads of one process).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from celery import Celery
from celery.beat import EmbeddedService


@contextmanager
def worker_and_scheduler(
    app: Celery, *, schedule_filename: str, concurrency: int = 2, beat: bool = True
) -> Iterator[None]:
    """Run a Celery worker (thread pool) and, optionally, beat until the block ends."""
    app.finalize()
    app.set_current()
    app.set_default()
    worker = app.WorkController(
        pool="threads",
        concurrency=concurrency,
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        loglevel="WARNING",
    )
    thread = threading.Thread(target=worker.start, name="celery-worker", daemon=True)
    thread.start()
    scheduler = EmbeddedService(app, thread=True, schedule_filename=schedule_filename)
    if beat:
        scheduler.start()
    try:
        yield
    finally:
        if beat:
            scheduler.stop()
        worker.stop(in_sighandler=False)
        thread.join(timeout=15)
