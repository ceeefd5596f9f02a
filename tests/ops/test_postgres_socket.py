"""The site on the same machine as PostgreSQL, connected over PostgreSQL's Unix socket (the
host of ``DATABASE_URL`` is the socket's directory, percent-encoded): no TCP on the move's
round trips (docs/operations.md, "PostgreSQL"; docs/benchmarks.md, "Eleventh pass")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.games.outage import private_postgres

ROOT = Path(__file__).resolve().parents[2]

# What the site's own connection reports, and the outage probe's fresh connection.
PROBE = """
from django.db import connection
from colorado.outage import database_answers
with connection.cursor() as cursor:
    cursor.execute("SELECT inet_client_addr() IS NULL, current_setting('plan_cache_mode')")
    print(cursor.fetchone(), database_answers())
"""


@pytest.mark.postgres
def test_the_site_reaches_postgresql_over_its_unix_socket() -> None:
    with private_postgres() as server:
        url = f"postgres://postgres@{quote(str(server.folder), safe='')}:{server.port}/postgres"
        out = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", PROBE],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": url, "DJANGO_ENV": "test"},
            capture_output=True,
            text=True,
            timeout=60,
        )
    # Over the socket (no client address), with the site's startup options, and the outage
    # probe (colorado.outage) reaches the same server the same way.
    last = out.stdout.strip().splitlines()[-1:]  # after the shell's own banner
    assert last == ["(True, 'force_generic_plan') True"], out.stdout + out.stderr
