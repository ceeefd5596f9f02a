"""Project-wide test setup.

Tests that need PostgreSQL or Redis carry the ``postgres`` / ``redis`` marks. Without the
service they are skipped, except under ``REQUIRE_SERVICES=1`` (CI), where they fail: a
green CI run therefore proves they ran.
"""

from __future__ import annotations

import os

import pytest

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"


def _missing(reason: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def redis_available() -> bool:
    url = os.environ.get("REDIS_URL")
    if not url:
        return False
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres"):
        from django.conf import settings

        if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
            _missing("this test needs PostgreSQL: set DATABASE_URL=postgres://…")
    if item.get_closest_marker("redis") and not redis_available():
        _missing("this test needs Redis: set REDIS_URL=redis://… to a running server")
