"""Sending to the channel layer from synchronous code, in every run mode.

With Redis (channels-redis's Pub/Sub layer) a group send is one ``PUBLISH`` of the layer's
own encoding of the message on the layer's own channel name for the group, and this
module makes it directly, with a plain (blocking) Redis client on a connection pool shared
by the process's threads: a move's database thread publishes its frames itself. It used to
hand each send to a sender event loop in a thread of its own (``run_coroutine_threadsafe``
there and a future back): two thread hops and an event loop's turn per move, about a
millisecond of the two cores per move under load (docs/benchmarks/history.md). What the receivers
see is the same bytes on the same channel (``layer_channel``, ``layer.serialize``); a layer
configured otherwise (several hosts, sentinels) is sent to through the layer's own
``group_send`` on a sender loop as before.

In embedded mode (no Redis) the in-memory layer lives on the web server's event loop; the
task worker runs in a thread of that same process, so sends from such threads are handed to
the server's loop (``asyncio.run_coroutine_threadsafe``) instead of running on a private
loop where the waiting sockets would never notice them. Other in-memory uses (tests) keep
``async_to_sync``.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import queue
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

log = logging.getLogger(__name__)

_server_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()
_sender: tuple[int, asyncio.AbstractEventLoop] | None = None  # (process id, loop)
_publisher: tuple[int, Any, Publisher | None] | None = None  # (process id, layer, publisher)
#: The channels-redis release whose Pub/Sub layer this adapter was checked against: it
#: reads the layer's configuration (``_kwargs``) and rebuilds its group channel name
#: (``RedisPubSubLoopLayer._get_group_channel_name``), neither of which is public.
#: tests/games/test_realtime.py fails when another release is installed, so that the
#: adapter is checked again (its tests compare the name and the bytes with the layer's own).
CHANNELS_REDIS_CHECKED = "4.3.0"
SEND_TIMEOUT = 2
"""Seconds a send may take (connecting included) before it is given up, with everything
queued behind it: a Redis that hangs must not pile up the frames of every move meanwhile,
and a frame that is not sent is caught up by the sockets themselves within
``SOCKET_RESYNC_SECONDS`` + 1 s (``games.live.watch.VersionWatch``). A local Redis answers a
PUBLISH in well under a millisecond."""


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


def layer_channel(layer: Any, group: str) -> str:
    """The Redis channel the Pub/Sub layer subscribes a group's members to
    (``RedisPubSubLoopLayer._get_group_channel_name``; a test holds the two together)."""
    return f"{layer._kwargs.get('prefix', 'asgi')}__group__{group}"


def _redis_publisher(layer: Any) -> Publisher | None:
    """The publisher thread of a blocking Redis client for ``layer`` (channels-redis's
    Pub/Sub layer with one ``address``), one per process (started again after a fork), or
    ``None`` for another layer or configuration."""
    global _publisher
    if _publisher is not None and _publisher[0] == os.getpid() and _publisher[1] is layer:
        return _publisher[2]
    from channels_redis.pubsub import RedisPubSubChannelLayer

    hosts = layer._kwargs.get("hosts") if isinstance(layer, RedisPubSubChannelLayer) else None
    client = None
    if isinstance(hosts, list) and len(hosts) == 1 and isinstance(hosts[0], dict):
        options = dict(hosts[0])
        address = options.pop("address", None)
        if isinstance(address, str) and set(options) <= {"socket_timeout", "protocol"}:
            import redis
            from redis.backoff import NoBackoff
            from redis.retry import Retry

            client = redis.Redis.from_url(
                address,
                socket_connect_timeout=SEND_TIMEOUT,
                socket_timeout=SEND_TIMEOUT,
                # A send that fails is not tried again: the sockets catch up by themselves
                # (games.live.watch.VersionWatch), and a move must not wait on a dead Redis.
                retry=Retry(NoBackoff(), 0),
            )
    with _lock:
        if _publisher is not None and _publisher[0] == os.getpid() and _publisher[1] is layer:
            return _publisher[2]  # another thread got here first
        _publisher = (os.getpid(), layer, Publisher(client) if client else None)
        return _publisher[2]


class Publisher:
    """A thread that sends queued ``(channel, payload)`` pairs to Redis, everything queued
    at the time in one pipeline (one round trip), in the order queued. A send that fails
    drops what was queued meanwhile too: during an outage the queue stays short, and the
    sockets read what they missed themselves."""

    BATCH = 256

    def __init__(self, client: Any) -> None:
        self.client = client
        self.queue: queue.SimpleQueue[tuple[str, bytes]] = queue.SimpleQueue()
        self.sent = threading.Condition()
        self.queued = 0
        self.done = 0
        threading.Thread(target=self._run, name="redis-publisher", daemon=True).start()

    def put(self, channel: str, payload: bytes) -> None:
        with self.sent:
            self.queued += 1
        self.queue.put((channel, payload))

    def flush(self, timeout: float = SEND_TIMEOUT + 1) -> bool:
        """Wait until everything queued so far has been sent (or given up on)."""
        with self.sent:
            target = self.queued
            return self.sent.wait_for(lambda: self.done >= target, timeout)

    def _run(self) -> None:
        while True:
            batch = [self.queue.get()]
            while len(batch) < self.BATCH:
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            ended = len(batch)
            try:
                if len(batch) == 1:
                    self.client.publish(*batch[0])
                else:
                    pipe = self.client.pipeline(transaction=False)
                    for channel, payload in batch:
                        pipe.publish(channel, payload)
                    pipe.execute()
            except Exception as exc:  # committed already: the sockets catch up by themselves
                ended += self._drop_queued()
                log.warning("%d live message(s) not sent to Redis: %s", ended, exc)
            finally:
                with self.sent:
                    self.done += ended
                    self.sent.notify_all()

    def _drop_queued(self) -> int:
        dropped = 0
        while True:
            try:
                self.queue.get_nowait()
            except queue.Empty:
                return dropped
            dropped += 1


def flush(timeout: float = SEND_TIMEOUT + 1) -> bool:
    """Wait until this process's queued Redis sends have left (tests; on exit)."""
    publisher = _publisher[2] if _publisher is not None and _publisher[0] == os.getpid() else None
    return publisher is None or publisher.flush(timeout)


atexit.register(flush)


def set_server_loop(loop: asyncio.AbstractEventLoop | None) -> None:
    """Called by ``manage.py serve`` once its event loop runs (embedded mode only)."""
    global _server_loop
    with _lock:
        _server_loop = loop


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` from synchronous code. With Redis it is queued for the
    process's publisher thread and this returns at once; otherwise it returns once sent."""
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
        publisher = _redis_publisher(layer)
        if publisher is not None:
            publisher.put(layer_channel(layer, group), layer.serialize(message))
            return
        loop = _sender_loop()
    future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
    future.result(timeout=SEND_TIMEOUT)
