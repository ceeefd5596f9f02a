"""Celery tasks of the tournaments: one step (queued when a table ends or a tournament
fills) and the sweep (beat, every minute) that steps every live tournament, so that none
waits on a lost task (``tournaments.rounds``)."""

from __future__ import annotations

import logging

from celery import shared_task

from tournaments.ladder import challenges_settle_lost
from tournaments.rounds import live_ids
from tournaments.rounds import tournament_step as step

log = logging.getLogger(__name__)


@shared_task(
    name="tournaments.tasks.tournament_step",
    acks_late=True,
    ignore_result=True,
    serializer="json",
    soft_time_limit=50,
    time_limit=58,
)
def tournament_step(tournament_id: int) -> str:
    return step(int(tournament_id))


@shared_task(
    name="tournaments.tasks.sweep_tournaments",
    acks_late=True,
    ignore_result=True,
    serializer="json",
    soft_time_limit=50,
    time_limit=58,
    expires=55,
)
def sweep_tournaments() -> dict[str, int]:
    outcomes: dict[str, int] = {}
    for tournament_id in live_ids():
        try:
            outcome = step(tournament_id)
        except Exception:
            log.exception("tournament %s could not be moved on", tournament_id)
            outcome = "error"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    outcomes["ladder_challenges_settled"] = challenges_settle_lost()
    return outcomes
