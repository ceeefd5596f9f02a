"""The webhooks' tasks by their registered names (``webhooks.tasks``): the delivery
services queue them without importing the task module, which imports them
(``colorado.task_queue``)."""

from __future__ import annotations

from colorado.celery import app
from colorado.task_queue import eager, queue_task

DELIVER = "webhooks.tasks.deliver"


def deliver_queue(delivery_id: int) -> None:
    queue_task(DELIVER, delivery_id)


def deliver_later(delivery_id: int, seconds: int) -> None:
    """Queue a retry ``seconds`` from now. With eager tasks nothing is queued: the retry
    would run at once and find the delivery not yet due; the sweep sends it when it is."""
    if not eager():
        app.send_task(DELIVER, args=[delivery_id], countdown=seconds)
