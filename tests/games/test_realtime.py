"""``colorado.realtime.group_send`` with the Redis Pub/Sub layer: a move's thread publishes
the layer's own encoding on the layer's own channel for the group itself (no sender loop),
and a member of the group receives exactly the message sent."""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from colorado import realtime

pytestmark = pytest.mark.redis


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
