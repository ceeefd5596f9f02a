"""The site with ``REDIS_URL`` on Redis's Unix socket (``unix:///path/redis.sock?db=N``, which
the settings accept): the channel layer and the cache read it as redis-py does, and Celery's
broker through kombu's own form of it (``colorado.env.celery_broker_url``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from tests.games.outage import private_redis

ROOT = Path(__file__).resolve().parents[2]

# A task queued as the site queues one (the broker), a cache entry, a channel-layer message.
PROBE = """
import asyncio
from channels.layers import get_channel_layer
from django.core.cache import cache
from colorado.celery import app
app.send_task("colorado.probe")
cache.set("probe", 7)
async def layer():
    channels = get_channel_layer()
    name = await channels.new_channel()
    await channels.send(name, {"type": "probe"})
    return (await channels.receive(name))["type"]
print(cache.get("probe"), asyncio.run(layer()))
"""


@pytest.mark.redis
def test_the_site_queues_caches_and_broadcasts_over_a_redis_unix_socket() -> None:
    with private_redis() as server:
        env = {
            **os.environ,
            "REDIS_URL": f"unix://{server.socket_path}?db=3",
            "DJANGO_ENV": "test",
        }
        out = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", PROBE],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.stdout.strip().splitlines()[-1:] == ["7 probe"], out.stdout + out.stderr
        queued = redis.Redis(unix_socket_path=str(server.socket_path), db=3).llen("celery")
    assert queued == 1  # the task is waiting in the broker's queue, in the URL's database
