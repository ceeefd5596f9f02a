"""The tournaments' step task by its registered name (``tournaments.tasks``), queued by the
services and the rounds without importing the task module (``colorado.task_queue``)."""

from __future__ import annotations

from colorado.task_queue import queue_task

STEP = "tournaments.tasks.tournament_step"


def step_queue(tournament_id: int) -> None:
    queue_task(STEP, tournament_id)
