"""Operational tasks: the scheduler's heartbeat, which /healthz reports."""

from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

HEARTBEAT_KEY = "ops:scheduler-heartbeat"


@shared_task(name="colorado.tasks.heartbeat", ignore_result=True, time_limit=30, soft_time_limit=20)
def heartbeat() -> str:
    """Record that the scheduler and a worker are alive (beat sends it every minute)."""
    stamp = timezone.now().isoformat()
    cache.set(HEARTBEAT_KEY, stamp, timeout=None)
    return stamp
