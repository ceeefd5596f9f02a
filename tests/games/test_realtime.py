"""``colorado.realtime.group_send`` with the Redis Pub/Sub layer: a move's thread queues the
layer's own encoding on the layer's own channel for the group, the process's publisher
thread sends it (no sender loop), and a member of the group receives exactly the message
sent, in the order sent, without the move's thread waiting for Redis."""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from colorado import realtime
from tests.waiting import wait_until

pytestmark = pytest.mark.redis


def test_the_adapter_was_checked_against_the_installed_channels_redis() -> None:
    from importlib.metadata import version

    assert version("channels-redis") == realtime.CHANNELS_REDIS_CHECKED, (
        "channels-redis changed: check colorado.realtime's direct publishing against the "
        "new release's Pub/Sub layer (these tests), then update CHANNELS_REDIS_CHECKED"
    )


def test_a_group_send_from_a_thread_reaches_the_groups_members(monkeypatch: Any) -> None:
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    layer = RedisPubSubChannelLayer(
        hosts=[{"address": url, "socket_timeout": 30}], prefix=f"realtime-test-{os.getpid()}"
    )
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: layer)
    message = {"type": "game.frame", "version": 3, "frames": {"0": '{"type": "game"}'}}

    async def scenario() -> dict[str, Any]:
        loop_layer = layer._get_layer()
        assert realtime.layer_channel(layer, "game-7") == loop_layer._get_group_channel_name(
            "game-7"
        )
        channel = await layer.new_channel()
        await layer.group_add("game-7", channel)
        sender = threading.Thread(target=realtime.group_send, args=("game-7", message))
        sender.start()
        try:
            return await asyncio.wait_for(layer.receive(channel), timeout=10)
        finally:
            sender.join()
            await layer.flush()

    assert asyncio.run(scenario()) == message
    assert realtime._redis_publisher(layer) is not None  # the direct way was taken


def test_a_redis_that_hangs_does_not_hold_up_the_moves_thread(monkeypatch: Any) -> None:
    """A Redis that accepts connections but never answers (hung, not down): ``group_send``
    returns at once (the move's answer does not wait for Redis), and the publisher thread
    gives up on what it holds after ``SEND_TIMEOUT``, with what was queued meanwhile, not
    batch after batch (the sockets catch up by themselves, games.live.watch.VersionWatch)."""
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)  # never read, never answered

    threading.Thread(target=accept, daemon=True).start()
    port = server.getsockname()[1]
    layer = RedisPubSubChannelLayer(hosts=[{"address": f"redis://127.0.0.1:{port}/0"}])
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: layer)
    sent = threading.Event()

    def moves() -> None:
        for version in range(1000):  # the frames of many moves, made while it hangs
            realtime.group_send("game-8", {"type": "game.frame", "version": version})
        sent.set()

    try:
        # The server never answers: a send that waited for it would never get through these.
        threading.Thread(target=moves, daemon=True).start()
        wait_until(sent.is_set, timeout=20, message="group_send returning without Redis")
        assert realtime.flush(timeout=realtime.SEND_TIMEOUT * 2 + 2)  # given up, not stuck
    finally:
        server.close()
        for conn in held:
            conn.close()


def test_messages_queued_together_arrive_all_and_in_order(monkeypatch: Any) -> None:
    """What a burst of moves queues leaves in few pipelined round trips, in queue order."""
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    layer = RedisPubSubChannelLayer(hosts=[{"address": url}], prefix=f"order-{os.getpid()}")
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: layer)

    async def scenario() -> list[int]:
        channel = await layer.new_channel()
        await layer.group_add("game-9", channel)

        def burst() -> None:
            for version in range(200):
                realtime.group_send("game-9", {"type": "game.frame", "version": version})

        await asyncio.get_running_loop().run_in_executor(None, burst)
        got = [(await asyncio.wait_for(layer.receive(channel), 10))["version"] for _ in range(200)]
        await layer.flush()
        return got

    assert asyncio.run(scenario()) == list(range(200))
