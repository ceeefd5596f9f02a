"""Sending to the channel layer from synchronous code, in every run mode.

With Redis the layer is shared by all processes and ``async_to_sync`` is enough. In embedded
mode (no Redis) the in-memory layer lives on the web server's event loop; the task worker
runs in a thread of that same process, so sends from such threads are handed to the server's
loop (``asyncio.run_coroutine_threadsafe``) instead of running on a private loop where the
waiting sockets would never notice them.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

_server_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def set_server_loop(loop: asyncio.AbstractEventLoop | None) -> None:
    """Called by ``manage.py serve`` once its event loop runs (embedded mode only)."""
    global _server_loop
    with _lock:
        _server_loop = loop


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` from synchronous code; returns when it is queued."""
    group_send_many([(group, message)])


def group_send_many(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each ``(group, message)`` in order, with one hop to the event loop for all."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    loop = _server_loop
    if loop is not None and loop.is_running():
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not loop:
            future = asyncio.run_coroutine_threadsafe(send_all(), loop)
            future.result(timeout=10)
            return
    async_to_sync(send_all)()
