"""A tiny ASGI app for ``test_web_workers``: answers every HTTP request with its process id."""

from __future__ import annotations

import os
from typing import Any


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    body = str(os.getpid()).encode()
    headers = [(b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})
