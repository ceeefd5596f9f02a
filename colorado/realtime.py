"""Sending to the channel layer from synchronous code, in every run mode.

With Redis the layer is shared by all processes, and sends from synchronous code go through
one sender event loop per process, running in a thread of its own with its own Redis
connection. In a thread with no server loop behind it (a Celery task, a command)
``async_to_sync`` would build a new loop, and the layer a new Redis connection, for every
send; in a request's thread it would hop onto the server's loop, which measured the same
as the sender loop, so one way serves both.

In embedded mode (no Redis) the in-memory layer lives on the web server's event loop; the
task worker runs in a thread of that same process, so sends from such threads are handed to
the server's loop (``asyncio.run_coroutine_threadsafe``) instead of running on a private
loop where the waiting sockets would never notice them. Other in-memory uses (tests) keep
``async_to_sync``.
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

_server_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()
_sender: tuple[int, asyncio.AbstractEventLoop] | None = None  # (process id, loop)
SEND_TIMEOUT = 10


def _sender_loop() -> asyncio.AbstractEventLoop:
    """This process's sender loop, started on first use (again after a fork)."""
    global _sender
    with _lock:
        if _sender is None or _sender[0] != os.getpid():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(
                target=loop.run_forever, name="channel-layer-sender", daemon=True
            )
            thread.start()
            _sender = (os.getpid(), loop)
        return _sender[1]


def set_server_loop(loop: asyncio.AbstractEventLoop | None) -> None:
    """Called by ``manage.py serve`` once its event loop runs (embedded mode only)."""
    global _server_loop
    with _lock:
        _server_loop = loop


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` from synchronous code; returns when it is sent."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        loop = _server_loop
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if loop is None or not loop.is_running() or running is loop:
            async_to_sync(layer.group_send)(group, message)
            return
    else:
        loop = _sender_loop()
    future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
    future.result(timeout=SEND_TIMEOUT)
