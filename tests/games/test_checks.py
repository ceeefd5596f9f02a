"""The database check an operator sees at ``migrate`` and ``manage.py check --database
default``: PostgreSQL's autovacuum must be on (every move updates its game's and seats' rows)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.core.checks import run_checks
from django.db import connection

from tests.games.outage import private_postgres
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db


def _ids() -> list[str]:
    return [m.id for m in run_checks(databases=["default"], tags=["database"]) if m.id]


@pytest.mark.postgres
def test_the_check_warns_exactly_when_postgresqls_autovacuum_is_off() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        (setting,) = cursor.fetchone()
    assert ("games.W001" in _ids()) == (setting != "on")


def test_an_embedded_site_gets_no_autovacuum_warning() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("embedded mode (SQLite) only")
    assert "games.W001" not in _ids()


@pytest.mark.postgres
def test_the_check_follows_a_postgresql_servers_autovacuum_setting_both_ways() -> None:
    """``manage.py check --database default`` as an operator runs it, against a private
    cluster whose setting the test may change (the shared one's is the machine's): the
    warning comes with autovacuum off and goes with it on."""
    with private_postgres() as server:
        env = {**os.environ, "DATABASE_URL": server.url("postgres"), "DJANGO_ENV": "test"}
        with psycopg.connect(server.url("postgres"), autocommit=True) as admin:
            for setting in ("off", "on", "off"):
                admin.execute(f"ALTER SYSTEM SET autovacuum = {setting}")
                admin.execute("SELECT pg_reload_conf()")
                wait_until(  # the reload is a signal: wait for it
                    lambda s=setting: admin.execute(
                        "SELECT current_setting('autovacuum') = %s", [s]
                    ).fetchone()[0],
                    timeout=10,
                )
                out = subprocess.run(
                    [sys.executable, "manage.py", "check", "--database", "default"],
                    cwd=ROOT,
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                assert ("games.W001" in out.stdout + out.stderr) == (setting == "off"), (
                    setting,
                    out.stdout + out.stderr,
                )
