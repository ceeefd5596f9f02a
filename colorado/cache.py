"""Django's Redis cache, shared per process and forgiving when Redis is down.

Django keeps a cache object per thread, and its Redis client a connection pool per cache
object. Under ASGI every request runs in a thread of its own, so each request would open a
new Redis connection (the API throttles read the cache on every call). This pool class hands
every cache object of the process the same thread-safe pool for the same server.

Nothing the site keeps in the cache must outlive Redis: anonymous callers' throttle counts,
sign-in rate limits, the scheduler's heartbeat. So when Redis does not answer, ``cache`` is
not a reason to answer 500: ``ForgivingRedisCache`` logs it and serves the call from a small
memory cache of this process instead (the throttles then count per process, like the
signed-in ones always do), and for ``RETRY_SECONDS`` asks Redis no more, so a page does not
wait for a dead server on every call. Once Redis answers again the counts start afresh there.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import redis
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)

# Redis answers a cache call in well under a millisecond; a server that has not connected
# or answered within these many seconds is taken as down.
CONNECT_TIMEOUT = 2
READ_TIMEOUT = 2
# After a failure, the cache calls of this process go to memory for this long.
RETRY_SECONDS = 5


class SharedConnectionPool(redis.ConnectionPool):
    _shared: dict[str, redis.ConnectionPool] = {}
    _shared_lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Any:
        kwargs.setdefault("socket_connect_timeout", CONNECT_TIMEOUT)
        kwargs.setdefault("socket_timeout", READ_TIMEOUT)
        key = f"{url}|{sorted((k, repr(v)) for k, v in kwargs.items())}"
        with cls._shared_lock:
            pool = cls._shared.get(key)
            if pool is None:
                pool = redis.ConnectionPool.from_url(url, **kwargs)
                cls._shared[key] = pool
            return pool


class _Outage:
    """Whether this process has given up on a cache server for the moment (one record per
    location, shared by the per-thread cache objects), and a warning once per outage."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_until: dict[str, float] = {}
        self.fallbacks: dict[str, LocMemCache] = {}

    def is_down(self, location: str) -> bool:
        return time.monotonic() < self.down_until.get(location, 0.0)

    def failed(self, location: str, exc: Exception) -> None:
        with self.lock:
            first = location not in self.down_until
            self.down_until[location] = time.monotonic() + RETRY_SECONDS
        if first:
            log.warning("cache unavailable, using this process's memory: %s", exc)

    def recovered(self, location: str) -> None:
        if location in self.down_until:
            with self.lock:
                if self.down_until.pop(location, None) is not None:
                    log.warning("cache available again")

    def fallback(self, location: str, params: dict[str, Any]) -> LocMemCache:
        with self.lock:
            cache = self.fallbacks.get(location)
            if cache is None:
                options = {"MAX_ENTRIES": 10_000, "CULL_FREQUENCY": 3}
                cache = LocMemCache(f"fallback-{location}", {**params, "OPTIONS": options})
                self.fallbacks[location] = cache
            return cache


_outage = _Outage()


class ForgivingRedisCache(RedisCache):
    """``RedisCache`` whose calls fall back to this process's memory while Redis is down."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._location = server if isinstance(server, str) else ",".join(server)
        self._params = {k: v for k, v in params.items() if k != "OPTIONS"}

    def _either(self, name: str, *args: Any, **kwargs: Any) -> Any:
        fallback = _outage.fallback(self._location, self._params)
        if not _outage.is_down(self._location):
            try:
                result = getattr(super(), name)(*args, **kwargs)
            except redis.RedisError as exc:
                _outage.failed(self._location, exc)
            else:
                _outage.recovered(self._location)
                return result
        return getattr(fallback, name)(*args, **kwargs)

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("add", *args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get_many", *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete_many", *args, **kwargs)

    def clear(self) -> Any:
        return self._either("clear")
