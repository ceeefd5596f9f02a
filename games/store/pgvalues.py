"""How the move path's values cross to and from PostgreSQL (``games.store.rows``), cheaper than
Django's generic way, with the same values.

JSON: Django encodes a ``JSONField``'s value with the standard library's ``json.dumps`` and
decodes it with ``json.loads``. On the move path (``games.store.rows``) the game's state, about
4.6 KB of JSON, is decoded and encoded once a move: the standard library took 36 µs and
28 µs for it, ``orjson`` 3 µs and 11 µs (measured on this project's machine), and a busy
server's profile put 4 % of its interpreter time in ``json.dumps`` alone. The stored
``jsonb`` and the decoded value are the same either way; what ``orjson`` refuses (``NaN``,
an integer beyond 64 bits) goes through Django's own code.

Times: an aware ``datetime`` is sent as it is (Django's preparation of it reads a lazy
setting per value), and ``timestamptz`` columns are read by psycopg's own loader
(``timestamptz_loader``).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable
from typing import Any

import orjson
from django.db.models import DateTimeField, JSONField

from games.store import jsontext

Converter = Callable[[Any, Any, Any], Any]


def prep_save(field: Any, value: Any, db: Any) -> Any:
    """``field.get_db_prep_save(value, db)``; for PostgreSQL a JSON object or array is
    encoded by ``orjson`` (``jsontext.dumpb``) and an aware ``datetime`` goes as it is
    (what Django's preparation returns for it there)."""
    if (
        type(value) is datetime.datetime
        and value.tzinfo is not None
        and db.vendor == "postgresql"
        and isinstance(field, DateTimeField)
    ):
        return value
    if (
        value is not None
        and db.vendor == "postgresql"
        and isinstance(field, JSONField)
        and field.encoder is None
        and isinstance(value, dict | list)
    ):
        from psycopg.types.json import Jsonb

        return Jsonb(value, dumps=jsontext.dumpb)
    return field.get_db_prep_save(value, db)


def converters(field: Any, found: list[Converter]) -> list[Converter]:
    """``found``, a column's converters, with a ``JSONField``'s own (``from_db_value``)
    replaced by one that decodes with ``orjson`` and hands what it refuses to Django's."""
    if not isinstance(field, JSONField) or field.decoder is not None:
        return found
    return [_from_db(c) if c == field.from_db_value else c for c in found]


def _from_db(django_converter: Converter) -> Converter:
    def convert(value: Any, expression: Any, db: Any) -> Any:
        if value is None:
            return None
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return django_converter(value, expression, db)

    return convert


def utc(db: Any) -> bool:
    """Whether ``db`` reads its times in UTC, as this site's settings have it (``USE_TZ``,
    no ``TIME_ZONE`` of the database's own): its session's time zone is UTC then."""
    from django.conf import settings

    return bool(settings.USE_TZ) and db.settings_dict.get("TIME_ZONE") in (None, "UTC")


@functools.cache
def timestamptz_loader() -> Any:
    """psycopg's own ``timestamptz`` loader (in C with psycopg's binary package), for the
    move path's cursors: Django's, a Python subclass that sets the time zone after
    psycopg's Python parser, took 78 µs of the ~390 of locking a four-seat game and reading
    its rows. In a UTC session psycopg's gives the same values, with the same
    ``datetime.timezone.utc``."""
    import psycopg
    from psycopg.pq import Format

    oid = psycopg.postgres.types["timestamptz"].oid
    return psycopg.adapters.get_loader(oid, Format.TEXT)
