"""The database check an operator sees at ``migrate`` and ``manage.py check --database
default``: PostgreSQL's autovacuum must be on (every move updates its game's and seats' rows)."""

from __future__ import annotations

import pytest
from django.core.checks import run_checks
from django.db import connection

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
