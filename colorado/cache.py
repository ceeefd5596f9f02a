"""One Redis connection pool per process for Django's cache.

Django keeps a cache object per thread, and its Redis client a connection pool per cache
object. Under ASGI every request runs in a thread of its own, so each request would open a
new Redis connection (the API throttles read the cache on every call). This pool class hands
every cache object of the process the same thread-safe pool for the same server.
"""

from __future__ import annotations

import threading
from typing import Any

import redis


class SharedConnectionPool(redis.ConnectionPool):
    _shared: dict[str, redis.ConnectionPool] = {}
    _shared_lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Any:
        key = f"{url}|{sorted((k, repr(v)) for k, v in kwargs.items())}"
        with cls._shared_lock:
            pool = cls._shared.get(key)
            if pool is None:
                pool = redis.ConnectionPool.from_url(url, **kwargs)
                cls._shared[key] = pool
            return pool
