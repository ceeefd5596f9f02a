"""Celery tasks of the webhooks: one delivery, and the sweep (beat, every minute) that
queues again the deliveries whose task was lost (``webhooks.delivery``)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from webhooks.delivery import deliver_one, deliveries_requeue


@shared_task(
    name="webhooks.tasks.deliver",
    acks_late=True,
    ignore_result=True,
    serializer="json",
    soft_time_limit=30,
    time_limit=40,
)
def deliver(delivery_id: int) -> str:
    return deliver_one(int(delivery_id))


@shared_task(
    name="webhooks.tasks.sweep_deliveries",
    acks_late=True,
    ignore_result=True,
    serializer="json",
    soft_time_limit=50,
    time_limit=58,
    expires=55,
)
def sweep_deliveries() -> int:
    return deliveries_requeue(now=timezone.now())
