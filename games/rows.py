# ruff: noqa: S608 — every name in these statements comes from model metadata, quoted by the
# backend; values always travel as parameters.
"""Plain-SQL reads and writes of model rows for the move path.

A move is the hottest write of the site (``services.action_submit``, every bot and timeout
move too). Building a statement through the ORM costs about 0.5 ms of Python on a small
machine, more than the statement itself; the move's half-dozen statements are therefore
written here once, as SQL strings built from the models' own metadata, and run through
Django's connection (same transaction, same converters, so the rows come back as the
usual model instances with the usual Python values on PostgreSQL and SQLite alike).

Only the shapes the move path needs: lock one row (with a related row read along), lock the
rows of a parent (with a related row each), insert a row, update some fields of a row.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, Model
from django.db.models.expressions import Col

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


class _Shape:
    """A model's concrete columns, in order, with the converters Django applies to them."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        self.fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
        self.attnames = [f.attname for f in self.fields]
        self.select = ", ".join(
            f"{alias}.{connection.ops.quote_name(f.column)}" for f in self.fields
        )
        self.converters: list[tuple[int, list[Converter], Col]] = []
        for i, field in enumerate(self.fields):
            expression = Col(model._meta.db_table, field)
            found = connection.ops.get_db_converters(expression) + expression.get_db_converters(
                connection
            )
            if found:
                self.converters.append((i, found, expression))

    def build(self, row: Sequence[Any]) -> Any:
        values = list(row)
        for i, converters, expression in self.converters:
            value = values[i]
            for convert in converters:
                value = convert(value, expression, connection)
            values[i] = value
        return self.model.from_db(connection.alias, self.attnames, values)


@functools.cache
def _shape(model: type[Model], alias: str, vendor: str) -> _Shape:
    return _Shape(model, alias)


def shape(model: type[Model], alias: str) -> _Shape:
    return _shape(model, alias, connection.vendor)  # type: ignore[arg-type]


def _lock_clause(alias: str) -> str:
    if not connection.features.has_select_for_update:
        return ""  # SQLite: the write lock is taken at BEGIN (IMMEDIATE)
    if connection.features.has_select_for_update_of:
        return f" FOR UPDATE OF {alias}"
    return " FOR UPDATE"


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _read_with(
    model: type[M],
    related: str,
    *,
    where: str,
    value: Any,
    order_by: str | None = None,
    outer: bool = False,
) -> list[M]:
    """Lock the rows of ``model`` whose field ``where`` is ``value`` and read the row of
    their foreign key ``related`` along (cached on each instance, as ``select_related``
    would; ``outer`` for a nullable key). Only ``model``'s rows are locked."""
    fk = model._meta.get_field(related)
    target: Any = fk.related_model
    if not hasattr(target, "_meta"):
        raise TypeError(f"{related} is not a foreign key")
    own, other = shape(model, "a"), shape(target, "b")
    quote = connection.ops.quote_name
    order = f" ORDER BY a.{quote(model._meta.get_field(order_by).column)}" if order_by else ""
    sql = (
        f"SELECT {own.select}, {other.select} FROM {_table(model)} a "
        f"{'LEFT JOIN' if outer else 'JOIN'} {_table(target)} b "
        f"ON b.{quote(target._meta.pk.column)} = a.{quote(fk.column)} "
        f"WHERE a.{quote(model._meta.get_field(where).column)} = %s{order}{_lock_clause('a')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value])
        found = cursor.fetchall()
    width = len(own.fields)
    out = []
    for row in found:
        instance = own.build(row[:width])
        if row[width] is not None:
            fk.set_cached_value(instance, other.build(row[width:]))  # type: ignore[attr-defined]
        out.append(instance)
    return out


def lock_one(model: type[M], pk: int, *, related: str) -> M | None:
    """Lock the row ``pk`` of ``model`` (``SELECT … FOR UPDATE``) with the row of its
    nullable foreign key ``related`` read along, or ``None`` when there is no such row. Call
    inside a transaction."""
    found = _read_with(model, related, where=model._meta.pk.name, value=pk, outer=True)
    return found[0] if found else None


def lock_children(
    model: type[M], *, parent: str, parent_id: int, related: str, order_by: str
) -> list[M]:
    """Lock the rows of ``model`` whose foreign key ``parent`` is ``parent_id``, ordered by
    ``order_by``, each with the row of its (non-null) foreign key ``related`` read along."""
    return _read_with(model, related, where=parent, value=parent_id, order_by=order_by)


def _prep(model: type[Model], names: Iterable[str], instance: Model) -> tuple[list[str], list]:
    columns, params = [], []
    for name in names:
        field = model._meta.get_field(name)
        columns.append(connection.ops.quote_name(field.column))  # type: ignore[union-attr]
        value = getattr(instance, field.attname)  # type: ignore[union-attr]
        params.append(field.get_db_prep_save(value, connection))  # type: ignore[union-attr]
    return columns, params


def insert(instance: Model, fields: Sequence[str]) -> None:
    """INSERT ``instance``'s ``fields`` (auto fields such as ``created_at`` are the caller's
    to fill) and set its primary key."""
    model = type(instance)
    columns, params = _prep(model, fields, instance)
    pk = connection.ops.quote_name(model._meta.pk.column)
    sql = (
        f"INSERT INTO {_table(model)} ({', '.join(columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))}) RETURNING {pk}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False


def update(instance: Model, fields: Sequence[str]) -> None:
    """UPDATE ``instance``'s row: ``fields`` only, from the instance's values."""
    model = type(instance)
    columns, params = _prep(model, fields, instance)
    sets = ", ".join(f"{c} = %s" for c in columns)
    pk = connection.ops.quote_name(model._meta.pk.column)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {_table(model)} SET {sets} WHERE {pk} = %s", [*params, instance.pk])


def upsert(
    instance: Model, fields: Sequence[str], *, conflict: Sequence[str], update: Sequence[str]
) -> None:
    """INSERT ``instance``'s ``fields``; when a row with the same ``conflict`` columns
    exists, set its ``update`` fields instead (``ON CONFLICT … DO UPDATE``)."""
    model = type(instance)
    columns, params = _prep(model, fields, instance)
    quote = connection.ops.quote_name
    keys = ", ".join(quote(model._meta.get_field(n).column) for n in conflict)  # type: ignore[union-attr]
    sets = ", ".join(
        f"{c} = EXCLUDED.{c}"
        for c in (quote(model._meta.get_field(n).column) for n in update)  # type: ignore[union-attr]
    )
    sql = (
        f"INSERT INTO {_table(model)} ({', '.join(columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))}) ON CONFLICT ({keys}) DO UPDATE SET {sets}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def update_pks(model: type[Model], pks: Sequence[Any], **values: Any) -> None:
    """UPDATE the rows ``pks`` of ``model``: each gets the same ``values``."""
    quote = connection.ops.quote_name
    sets, params = [], []
    for name, value in values.items():
        field = model._meta.get_field(name)
        sets.append(f"{quote(field.column)} = %s")  # type: ignore[union-attr]
        params.append(field.get_db_prep_save(value, connection))  # type: ignore[union-attr]
    marks = ", ".join(["%s"] * len(pks))
    sql = (
        f"UPDATE {_table(model)} SET {', '.join(sets)} "
        f"WHERE {quote(model._meta.pk.column)} IN ({marks})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *pks])


def exists(model: type[Model], **equal: Any) -> bool:
    """Whether a row of ``model`` has these column values (``field=value``, foreign keys by
    their id)."""
    quote = connection.ops.quote_name
    where, params = [], []
    for name, value in equal.items():
        field = model._meta.get_field(name)
        where.append(f"{quote(field.column)} = %s")  # type: ignore[union-attr]
        params.append(value)
    sql = f"SELECT 1 FROM {_table(model)} WHERE {' AND '.join(where)} LIMIT 1"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() is not None


def raise_to(model: type[Model], name: str, value: Any, **equal: Any) -> None:
    """Set the field ``name`` to ``value`` on the rows with these column values
    (``field=value``, foreign keys by their id) where it is lower: it never moves back."""
    quote = connection.ops.quote_name
    column = quote(model._meta.get_field(name).column)  # type: ignore[union-attr]
    where, params = [f"{column} < %s"], [value]
    for key, wanted in equal.items():
        where.append(f"{quote(model._meta.get_field(key).column)} = %s")  # type: ignore[union-attr]
        params.append(wanted)
    sql = f"UPDATE {_table(model)} SET {column} = %s WHERE {' AND '.join(where)}"
    with connection.cursor() as cursor:
        cursor.execute(sql, [value, *params])
