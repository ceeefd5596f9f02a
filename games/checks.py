"""System checks about the database the site runs on (``manage.py check --database default``;
``migrate`` runs them too)."""

from __future__ import annotations

from typing import Any

from django.core.checks import CheckMessage, Tags, register
from django.core.checks import Warning as CheckWarning
from django.db import DatabaseError, connections


@register(Tags.database)
def autovacuum_on(
    app_configs: Any = None, databases: Any = None, **kwargs: Any
) -> list[CheckMessage]:
    """Warn when PostgreSQL's autovacuum is off. Every move updates its game's row and its
    seats' rows, so without it those tables fill with dead rows and keep no statistics:
    on a bench database left so, the move's lock statement read every user to join four
    seats, and PostgreSQL spent 1.78 ms a move against 1.40 ms after one ``VACUUM
    (ANALYZE)`` (docs/operations.md, "PostgreSQL")."""
    found: list[CheckMessage] = []
    for alias in databases or ():
        connection = connections[alias]
        if connection.vendor != "postgresql":
            continue
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT current_setting('autovacuum')")
                (setting,) = cursor.fetchone()
        except DatabaseError:
            continue  # no database to ask: the commands that need one say so
        if setting != "on":
            found.append(
                CheckWarning(
                    f"PostgreSQL's autovacuum is off for the database {alias!r}.",
                    hint="Turn it on (autovacuum = on, PostgreSQL's default), or run "
                    "VACUUM (ANALYZE) often: every move updates its game's and its seats' "
                    "rows (docs/operations.md, 'PostgreSQL').",
                    id="games.W001",
                )
            )
    return found
