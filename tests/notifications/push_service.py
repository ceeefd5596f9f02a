"""A push service of the tests' own (RFC 8030's receiving side, on 127.0.0.1): it records
each message it is sent and answers with the status it is told to; ``Browser`` holds a
subscription's keys and decrypts what arrived (RFC 8291, ``aes128gcm``) as a browser
would, and checks the VAPID signature (RFC 8292) against the site's public key."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    base: str = ""
    received: list[Received] = field(default_factory=list)
    status: int = 201


@contextmanager
def push_service() -> Iterator[PushService]:
    service = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            service.received.append(
                Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            self.send_response(service.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


class Browser:
    """One browser's subscription: its keys, and what it makes of a message."""

    def __init__(self, service: PushService, name: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = f"{service.base}/push/{name}"

    def subscription(self, events: list[str] | None = None) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
            "events": events if events is not None else ["turn", "invitation", "finished"],
            "label": "Test browser",
        }

    def read(self, message: Received) -> dict[str, Any]:
        plain = http_ece.decrypt(
            message.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return dict(json.loads(plain))


def vapid_claims(message: Received, public_key_b64: str) -> dict[str, Any]:
    """The VAPID token's claims, after checking its ES256 signature with the site's key."""
    scheme, _sep, params = message.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    assert parts["k"] == public_key_b64
    header, claims, signature = parts["t"].split(".")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return dict(json.loads(unb64url(claims)))
