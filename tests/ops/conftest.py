"""Fixtures of the operations tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest


@pytest.fixture
def services_env(worker_id: str) -> Iterator[dict[str, str]]:
    """DATABASE_URL and REDIS_URL for a run command: the test run's Redis database, and a
    scratch PostgreSQL database (``<name>_run_<test worker>``) created here and dropped
    afterwards, since ``dev.py run`` migrates and creates the demo account in it. Its
    channel, cache and task queue names are its own, so sites started by tests running at
    the same time in other test workers share nothing with it on that Redis database."""
    import psycopg

    url = urlsplit(os.environ["DATABASE_URL"])
    scratch = f"{url.path.lstrip('/')}_run_{worker_id}"
    admin = urlunsplit(url._replace(path="/postgres"))

    def sql(statement: str) -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(statement)

    sql(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
    sql(f'CREATE DATABASE "{scratch}"')
    try:
        yield {
            "DATABASE_URL": urlunsplit(url._replace(path=f"/{scratch}")),
            "REDIS_URL": os.environ["REDIS_URL"],
            "CHANNEL_PREFIX": f"runtest{os.getpid()}",
            "CACHE_PREFIX": f"runtest{os.getpid()}",
            "CELERY_QUEUE": f"runtest{os.getpid()}",
        }
    finally:
        sql(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
