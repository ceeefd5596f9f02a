"""API rate limits for signed-in callers, counted in each server process's memory.

ninja's throttles keep their counts in the default cache (Redis when ``REDIS_URL`` is set),
which costs two Redis round trips per throttle per call. The limits on signed-in callers are
fair-use limits, not a defence against guessing, so they are counted per process instead: a
caller spread over N processes may reach up to N times the rate. Anonymous limits (the token
endpoint's guard against password guessing included) stay in the shared cache.
"""

from __future__ import annotations

from django.core.cache.backends.locmem import LocMemCache
from ninja.throttling import AuthRateThrottle

local_counts = LocMemCache("colorado-throttles", {"OPTIONS": {"MAX_ENTRIES": 100_000}})


class LocalAuthRateThrottle(AuthRateThrottle):
    """``AuthRateThrottle`` counted in this process (see the module docstring)."""

    cache = local_counts
