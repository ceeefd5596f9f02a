"""Queueing a Celery task by its registered name.

A module low in the layers (a service, a sweep) that must wake a task defined above it
(the task calls that service back) names the task instead of importing it, so the import
graph has no cycle. With eager tasks (tests, scripts) the task runs at once, as ``delay``
would run it; otherwise the message goes to the broker without the task module loaded.
"""

from __future__ import annotations

from typing import Any

from celery import Task
from celery.result import AsyncResult

from colorado.celery import app

#: A sweep's task options (beat sends one every ``SWEEP_SECONDS``): acknowledged when done,
#: stopped before the next is due, dropped if it waited past it (the next one does its work).
SWEEP_TASK: dict[str, Any] = {
    "bind": True,
    "acks_late": True,
    "ignore_result": True,
    "serializer": "json",
    "soft_time_limit": 50,
    "time_limit": 58,
    "expires": 55,
}
#: How often a sweep retries while the database is away, before beat's next one.
SWEEP_DB_RETRIES = 3


def eager() -> bool:
    """Whether tasks run at once in the caller (tests, scripts) instead of on a worker."""
    return bool(app.conf.task_always_eager)


def registered_task(name: str) -> Task[Any, Any]:
    """The task registered as ``name``; the apps' task modules are loaded first when none
    has been imported in this process yet (a worker loads them itself)."""
    if name not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks[name]


def queue_task(
    name: str, *args: Any, expires: float | None = None, countdown: float | None = None
) -> AsyncResult[Any]:
    """Queue the task registered as ``name`` with ``args`` (``expires``: seconds after which
    a worker drops it unrun; ``countdown``: seconds before a worker may run it)."""
    if eager():
        return registered_task(name).apply_async(args, expires=expires, countdown=countdown)
    return app.send_task(name, args=args, expires=expires, countdown=countdown)
