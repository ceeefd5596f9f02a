"""Sending an owed delivery: claim, POST, record (docs/webhooks.md).

``deliver_one`` claims the delivery with a conditional UPDATE that pushes its
``next_attempt_at`` by ``LEASE`` and counts the attempt (of two tasks racing, one claims
it; a task that runs early, or again after a success, finds nothing to do), posts it to the
checked address with a short timeout, and records the outcome only while its claim still
holds. A 2xx answer marks it sent. Anything else is tried again after ``BACKOFF`` (1 min, 5
min, 30 min, 2 h, 6 h); after ``MAX_ATTEMPTS`` it is given up, and a hook whose deliveries
were given up ``DISABLE_AFTER`` times in a row is turned off, with a notice on its owner's
settings page. A worker that dies mid-send leaves the claim to lapse: the sweep
(``deliveries_requeue``) queues it again, and the receiver sees the same ``X-Event-Id``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from webhooks import payloads, task_names
from webhooks.addresses import UrlRefused, check_url, connection
from webhooks.models import Webhook, WebhookDelivery

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=2)
BACKOFF = (60, 300, 1800, 7200, 21600)  # seconds before tries 2, 3, 4, 5, 6
MAX_ATTEMPTS = len(BACKOFF) + 1
DISABLE_AFTER = 5
TIMEOUT_SECONDS = 10.0
ANSWER_MAX = 64 * 1024
REQUEUE_LIMIT = 500


def _claim(delivery_id: int, now: datetime) -> WebhookDelivery | None:
    row = (
        WebhookDelivery.objects.filter(
            pk=delivery_id, status=WebhookDelivery.Status.PENDING, next_attempt_at__lte=now
        )
        .select_related("hook")
        .first()
    )
    if row is None:
        return None
    token = now + LEASE
    claimed = WebhookDelivery.objects.filter(
        pk=row.pk, status=WebhookDelivery.Status.PENDING, next_attempt_at=row.next_attempt_at
    ).update(next_attempt_at=token, attempts=F("attempts") + 1)
    if not claimed:
        return None
    row.next_attempt_at = token
    row.attempts += 1
    return row


def _post(delivery: WebhookDelivery, hook: Webhook) -> str:
    """POST the delivery; ``""`` on a 2xx answer, else a short reason (no answer text)."""
    try:
        target = check_url(hook.url)
    except UrlRefused as exc:
        return exc.code
    body = payloads.body_bytes(delivery, hook)
    agent = f"{settings.SITE_NAME} webhooks"
    conn = connection(target, TIMEOUT_SECONDS)
    try:
        conn.request(
            "POST", target.path, body=body, headers=payloads.headers(delivery, hook, body, agent)
        )
        answer = conn.getresponse()
        answer.read(ANSWER_MAX)
        status = answer.status
    except OSError as exc:
        return f"connection: {type(exc).__name__}"
    finally:
        conn.close()
    return "" if 200 <= status < 300 else f"HTTP {status}"


def deliver_one(delivery_id: int, *, now: datetime | None = None) -> str:
    """Send delivery ``delivery_id`` if it is due: ``sent``, ``retry``, ``failed``, or
    ``skipped`` (not due, claimed by another, already done). Returns after recording."""
    now = now or timezone.now()
    delivery = _claim(delivery_id, now)
    if delivery is None:
        return "skipped"
    hook = delivery.hook
    ours = WebhookDelivery.objects.filter(
        pk=delivery.pk,
        status=WebhookDelivery.Status.PENDING,
        next_attempt_at=delivery.next_attempt_at,
    )
    if hook.disabled_at is not None:
        ours.update(status=WebhookDelivery.Status.FAILED, last_error="webhook turned off")
        return "failed"
    error = _post(delivery, hook)
    done = timezone.now()
    if not error:
        if ours.update(status=WebhookDelivery.Status.SENT, sent_at=done, last_error=""):
            Webhook.objects.filter(pk=hook.pk).update(failures=0)
        return "sent"
    log.info("webhook %s delivery %s failed: %s", hook.pk, delivery.pk, error)
    if delivery.attempts < MAX_ATTEMPTS:
        wait = BACKOFF[delivery.attempts - 1]
        if ours.update(next_attempt_at=done + timedelta(seconds=wait), last_error=error):
            _queue_later(delivery.pk, wait)
        return "retry"
    if ours.update(status=WebhookDelivery.Status.FAILED, last_error=error):
        Webhook.objects.filter(pk=hook.pk).update(failures=F("failures") + 1, last_error=error)
        Webhook.objects.filter(
            pk=hook.pk, failures__gte=DISABLE_AFTER, disabled_at__isnull=True
        ).update(disabled_at=done)
    return "failed"


def _queue_later(delivery_id: int, seconds: int) -> None:
    try:
        task_names.deliver_later(delivery_id, seconds)
    except Exception:  # the broker is away: the sweep sends it when it is due
        log.warning("webhook delivery %s not queued; the sweep will", delivery_id)


def deliveries_requeue(*, now: datetime, limit: int = REQUEUE_LIMIT) -> int:
    """Queue again every pending delivery that is due (a lost task, a lapsed claim, a
    retry whose queued task was lost). Sending twice is harmless: each claims first."""
    due = list(
        WebhookDelivery.objects.filter(
            status=WebhookDelivery.Status.PENDING, next_attempt_at__lte=now
        )
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
    for delivery_id in due:
        task_names.deliver_queue(delivery_id)
    return len(due)
