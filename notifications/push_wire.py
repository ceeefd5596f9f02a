"""Web Push on the wire: the site's VAPID key (RFC 8292), the payload's encryption for one
browser (RFC 8291, ``aes128gcm``) and the POST to its push service (RFC 8030).

The VAPID key is made once: from ``VAPID_PRIVATE_KEY`` (a PEM) when set, else from
``DATA_DIR/vapid_private.pem``, written at first use (created exclusively, so two processes
starting together keep one key). Browsers bind a subscription to the key's public half: a
new key would orphan every device, so the file is kept with the data.

Only the standard library speaks HTTP here; ``py_vapid`` signs and ``http_ece`` encrypts
(the two libraries pywebpush is built on).
"""

from __future__ import annotations

import base64
import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02

#: The push services browsers subscribe with (Chrome and Edge, Firefox, Safari, Windows):
#: a subscription elsewhere is refused, so the site never posts to an address a user chose.
PUSH_HOSTS = (
    "fcm.googleapis.com",
    "android.googleapis.com",
    "updates.push.services.mozilla.com",
    "push.services.mozilla.com",
    "web.push.apple.com",
    "notify.windows.com",
)


class PushGone(Exception):
    """The push service dropped the subscription (404 or 410)."""


class PushRefused(Exception):
    """The push service refused this message for good (another 4xx): not retried."""


class PushUnavailable(OSError):
    """The push service could not take it now (429, 5xx, network): retried later."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@cache
def vapid() -> Vapid02:
    pem = getattr(settings, "VAPID_PRIVATE_KEY", "")
    if pem:
        return Vapid02.from_pem(pem.encode())
    path = Path(settings.DATA_DIR) / "vapid_private.pem"
    if not path.exists():
        key = Vapid02()
        key.generate_keys()
        data = key.private_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process wrote it first: use that one
        else:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
    return Vapid02.from_pem(path.read_bytes())


def public_key() -> str:
    """The application server key a browser subscribes with (base64url, uncompressed)."""
    raw = vapid().public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(raw)


def endpoint_allowed(endpoint: str) -> bool:
    """Whether the site may post to ``endpoint``: HTTPS on a browser's push service
    (``PUSH_HOSTS``), or anything when ``PUSH_ANY_ENDPOINT`` is set (the tests' own
    push service)."""
    parts = urlsplit(endpoint)
    if getattr(settings, "PUSH_ANY_ENDPOINT", False):
        return parts.scheme in ("http", "https") and bool(parts.hostname)
    host = (parts.hostname or "").lower()
    return parts.scheme == "https" and any(
        host == allowed or host.endswith("." + allowed) for allowed in PUSH_HOSTS
    )


@dataclass(frozen=True)
class Target:
    endpoint: str
    p256dh: str
    auth: str


def encrypt(payload: bytes, target: Target) -> bytes:
    """The payload encrypted for the browser that holds ``target``'s keys (RFC 8291): a
    fresh server key per message; the salt and that key travel in the body's header."""
    server_key = ec.generate_private_key(ec.SECP256R1())
    body: bytes = http_ece.encrypt(
        payload,
        private_key=server_key,
        dh=b64url_decode(target.p256dh),
        auth_secret=b64url_decode(target.auth),
        version="aes128gcm",
    )
    return body


def send(target: Target, payload: dict[str, Any], *, ttl: int, topic: str = "") -> int:
    """POST ``payload`` (JSON, encrypted) to the target's push service; the answer's
    status. Raises ``PushGone`` (404, 410), ``PushRefused`` (another 4xx) or
    ``PushUnavailable`` (429, 5xx, the network)."""
    parts = urlsplit(target.endpoint)
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + 12 * 3600,
        "sub": getattr(settings, "VAPID_SUBJECT", "") or f"mailto:{settings.DEFAULT_FROM_EMAIL}",
    }
    headers = dict(vapid().sign(claims))
    headers.update(
        {
            "TTL": str(ttl),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "Urgency": "high",
        }
    )
    if topic:
        headers["Topic"] = topic[:32]
    body = encrypt(json.dumps(payload, ensure_ascii=False).encode(), target)
    request = urllib.request.Request(  # noqa: S310 - the endpoint was checked at subscription
        target.endpoint, data=body, method="POST", headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as answer:  # noqa: S310
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        if exc.code in (404, 410):
            raise PushGone(str(exc.code)) from exc
        if exc.code == 429 or exc.code >= 500:
            raise PushUnavailable(f"push service answered {exc.code}") from exc
        raise PushRefused(f"push service answered {exc.code}") from exc
    except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
        raise PushUnavailable(str(exc)) from exc
