"""A delivery's body in its hook's format, and its signature (docs/webhooks.md).

The fields come from ``WebhookDelivery.body``, written when the event happened from public
facts only (the table's number, title and address, a sentence, the tournament's round): no
view, state, hand, note or secret ever enters one. ``json`` sends them as they are with the
event's id; ``discord`` and ``slack`` send the sentence and the link in the shape those
services take. Every format is signed alike.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from webhooks.models import Webhook, WebhookDelivery


def body_bytes(delivery: WebhookDelivery, hook: Webhook) -> bytes:
    fields: dict[str, Any] = dict(delivery.body)
    text = f"{fields.get('text', '')} {fields.get('url', '')}".strip()
    payload: dict[str, Any]
    if hook.format == Webhook.Format.DISCORD:
        payload = {"content": text, "allowed_mentions": {"parse": []}}
    elif hook.format == Webhook.Format.SLACK:
        payload = {"text": f"{fields.get('text', '')} <{fields.get('url', '')}>"}
    else:
        payload = {"id": str(delivery.event_id), **fields}
    return json.dumps(payload, ensure_ascii=False, sort_keys=True).encode()


def signature(secret: str, body: bytes) -> str:
    """``sha256=<hex HMAC-SHA256 of the body with the hook's secret>``."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def headers(
    delivery: WebhookDelivery, hook: Webhook, body: bytes, user_agent: str
) -> dict[str, str]:
    return {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": user_agent,
        "X-Signature-256": signature(hook.secret, body),
        "X-Event-Id": str(delivery.event_id),
        "X-Event-Type": delivery.event,
        "X-Delivery-Attempt": str(delivery.attempts),
    }
