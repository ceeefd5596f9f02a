# ruff: noqa: S608 — every name in these statements comes from model metadata, quoted by the
# backend; values always travel as parameters.
"""Plain-SQL writes of model rows for the move path (the locking reads are in
``games.store.row_locks``), and what both share.

A move is the hottest write of the site (``moves.action_submit``, every bot and timeout
move too). Building a statement through the ORM costs about 0.5 ms of Python on a small
machine, more than the statement itself; the move's half-dozen statements are therefore
written here once, as SQL strings built from the models' own metadata, and run through
Django's connection (same transaction, same converters, so the rows come back as the
usual model instances with the usual Python values on PostgreSQL and SQLite alike).

Only the shapes the move path needs: insert a row, update some fields of rows (a move's
all in one statement on PostgreSQL: ``collecting``, the batch chosen by ``games.store.backends``),
raise a counter that never moves back, read one field of a row, read some fields of the
rows whose field is one of some values.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, cast

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, ForeignKey, Model

from games.store import pgvalues

F = TypeVar("F", bound=Callable[..., Any])


def once(fn: F) -> F:
    """``functools.cache``, typed as the function itself (its keys: models and strings)."""
    return cast(F, functools.cache(fn))


def prepared_cursor(db: Any) -> Any:
    """A cursor of ``db`` (PostgreSQL, psycopg 3) whose statements are prepared on the
    server, once per connection: the parameters travel apart from the text, and PostgreSQL
    parses, analyses and plans the statement once instead of at every call (a third of its
    CPU per move went there, measured with ``perf``). Django's own cursors bind client-side
    and never prepare; only this cursor does (``prepare_threshold`` 0 applies to
    server-binding cursors alone). Wrapped like any Django cursor: same errors, same query
    logging. A transaction-mode pooler in between must pass prepared statements through
    (PgBouncer 1.21 and later: ``max_prepared_statements``)."""
    import psycopg

    db.ensure_connection()
    raw = db.connection
    if raw.prepare_threshold != 0:
        raw.prepare_threshold = 0
    with db.wrap_database_errors:
        cursor = psycopg.Cursor(raw)
        if pgvalues.utc(db):
            cursor.adapters.register_loader("timestamptz", pgvalues.timestamptz_loader())
        return db._prepare_cursor(cursor)


def thread_connection() -> Any:
    """This thread's default connection itself (not the proxy: every attribute read through
    ``django.db.connection`` is a thread-local lookup)."""
    return connections[DEFAULT_DB_ALIAS]


def table_name(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def concrete_field(model: type[Model], name: str) -> Field[Any, Any]:
    """``model``'s field ``name``, which must have a column of its own (not a reverse
    relation or a generic key)."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or not field.column:
        raise LookupError(f"{model.__name__}.{name} has no column")
    return field


def foreign_key(model: type[Model], name: str) -> ForeignKey[Any, Any]:
    """``model``'s foreign key ``name``."""
    field = model._meta.get_field(name)
    if not isinstance(field, ForeignKey):
        raise TypeError(f"{model.__name__}.{name} is not a foreign key")
    return field


def column_name(model: type[Model], name: str) -> str:
    return connection.ops.quote_name(str(concrete_field(model, name).column))


def _columns(model: type[Model], values: dict[str, Any]) -> tuple[list[str], list[Any]]:
    """The quoted column of each field name of ``values`` (foreign keys by name, their id as
    the value), with each value prepared for the database as the ORM would."""
    columns, params = [], []
    for name, value in values.items():
        field: Any = model._meta.get_field(name)
        columns.append(connection.ops.quote_name(field.column))
        params.append(pgvalues.prep_save(field, value, thread_connection()))
    return columns, params


def _equals(model: type[Model], values: dict[str, Any]) -> tuple[list[str], list[Any]]:
    """``"<column> = %s"`` for each field name of ``values``, and the values (``_columns``)."""
    columns, params = _columns(model, values)
    return [f"{column} = %s" for column in columns], params


def _values(instance: Model, fields: Sequence[str]) -> dict[str, Any]:
    model = type(instance)
    return {n: getattr(instance, concrete_field(model, n).attname) for n in fields}


def _insert_sql(instance: Model, fields: Sequence[str]) -> tuple[str, list[Any]]:
    db = thread_connection()
    model = type(instance)
    sql, prepared = _insert_text(model, tuple(fields), db.vendor)
    return sql, [
        pgvalues.prep_save(field, getattr(instance, field.attname), db) for field in prepared
    ]


@once
def _insert_text(model: type[Model], fields: tuple[str, ...], vendor: str) -> tuple[str, list[Any]]:
    """The INSERT of ``fields`` of ``model`` (built once per shape and backend), and the
    fields whose values it takes, in order."""
    prepared: list[Any] = [model._meta.get_field(n) for n in fields]
    columns = [connection.ops.quote_name(f.column) for f in prepared]
    marks = ", ".join(["%s"] * len(columns))
    return f"INSERT INTO {table_name(model)} ({', '.join(columns)}) VALUES ({marks})", prepared


def _update(model: type[Model], values: dict[str, Any], where: str, where_params: list) -> None:
    sets, params = _equals(model, values)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table_name(model)} SET {', '.join(sets)} WHERE {where}",
            [*params, *where_params],
        )


def pk_column(model: type[Model]) -> str:
    return _pk_text(model, connection.vendor)


@once
def _pk_text(model: type[Model], vendor: str) -> str:
    return connection.ops.quote_name(model._meta.pk.column)


class Batch:
    """The inserts and updates of a move, collected while ``collecting()`` is open in this
    thread and sent when it closes. What the move's code and its effects read in between
    comes from the rows in memory, never from the database; a failure raises from the
    flush and rolls the transaction back. How they are sent is the store's choice
    (``games.store.backends``): ``EachStatementBatch`` or ``OneStatementBatch``."""

    def __init__(self) -> None:
        self.inserts: list[tuple[Model, Sequence[str]]] = []
        self.updates: dict[tuple[type[Model], Any], dict[str, Any]] = {}

    def update(self, model: type[Model], pk: Any, values: dict[str, Any]) -> None:
        self.updates.setdefault((model, pk), {}).update(values)

    def flush(self) -> None:
        raise NotImplementedError


class EachStatementBatch(Batch):
    """One statement each, in the order they were made (any database)."""

    def flush(self) -> None:
        for instance, fields in self.inserts:
            _insert_now(instance, fields)
        for (model, pk), values in self.updates.items():
            _update(model, values, f"{pk_column(model)} = %s", [pk])


class OneStatementBatch(Batch):
    """ONE statement (PostgreSQL's data-modifying ``WITH`` clauses: the inserts, then one
    ``UPDATE`` per model and set of columns, each row once), prepared on the server."""

    def flush(self) -> None:
        db = thread_connection()
        clauses: list[str] = []
        params: list[Any] = []
        for i, (instance, fields) in enumerate(self.inserts):
            sql, inserted = _insert_sql(instance, fields)
            clauses.append(f"i{i} AS ({sql} RETURNING {pk_column(type(instance))})")
            params += inserted
        groups: dict[tuple[type[Model], tuple[str, ...]], list[tuple[Any, dict[str, Any]]]] = {}
        for (model, pk), values in self.updates.items():
            groups.setdefault((model, tuple(values)), []).append((pk, values))
        for j, ((model, names), members) in enumerate(groups.items()):
            clause, updated = _update_group(model, names, members)
            clauses.append(f"u{j} AS ({clause})")
            params += updated
        if not clauses:
            return
        selects = " UNION ALL ".join(
            f"SELECT {i}, {pk_column(type(instance))} FROM i{i}"
            for i, (instance, _f) in enumerate(self.inserts)
        )
        sql = f"WITH {', '.join(clauses)} " + (selects or "SELECT NULL, NULL")
        with prepared_cursor(db) as cursor:
            cursor.execute(sql, params)
            for i, pk in cursor.fetchall():
                if i is not None:
                    instance = self.inserts[i][0]
                    instance.pk = pk
                    instance._state.adding = False


def _update_group(
    model: type[Model], names: tuple[str, ...], members: list[tuple[Any, dict[str, Any]]]
) -> tuple[str, list[Any]]:
    """One UPDATE of the rows ``members`` (pk, values), all setting the fields ``names``."""
    db = thread_connection()
    sql, fields = _update_group_text(model, names, len(members), db.vendor)
    pk_field, *named = fields
    params: list[Any] = []
    if len(members) == 1:
        pk, values = members[0]
        params += [pgvalues.prep_save(f, values[n], db) for f, n in zip(named, names, strict=True)]
        params.append(pk)
        return sql, params
    for pk, values in members:
        params.append(pgvalues.prep_save(pk_field, pk, db))
        params += [pgvalues.prep_save(f, values[n], db) for f, n in zip(named, names, strict=True)]
    return sql, params


@once
def _update_group_text(
    model: type[Model], names: tuple[str, ...], count: int, vendor: str
) -> tuple[str, list[Any]]:
    """``_update_group``'s SQL for ``count`` rows (built once per shape and backend), and
    the fields whose values it takes: the primary key, then ``names``."""
    meta = model._meta
    fields: list[Any] = [meta.pk, *(meta.get_field(n) for n in names)]
    columns = [connection.ops.quote_name(f.column) for f in fields]
    if count == 1:
        terms = ", ".join(f"{c} = %s" for c in columns[1:])
        return f"UPDATE {table_name(model)} SET {terms} WHERE {columns[0]} = %s", fields
    row = "(" + ", ".join(f"%s::{f.db_type(connection)}" for f in fields) + ")"
    sets = ", ".join(f"{c} = v.{c}" for c in columns[1:])
    sql = (
        f"UPDATE {table_name(model)} AS t SET {sets} FROM (VALUES "
        f"{', '.join([row] * count)}) AS v({', '.join(columns)}) "
        f"WHERE t.{columns[0]} = v.{columns[0]}"
    )
    return sql, fields


_collecting = threading.local()


def _batch() -> Batch | None:
    return getattr(_collecting, "batch", None)


@contextlib.contextmanager
def collecting(kind: type[Batch]) -> Iterator[Batch]:
    """Collect this thread's ``insert``, ``update`` and ``update_pks`` into one batch of
    ``kind`` (the store's: ``games.store.backends.store().collecting()``), sent when the block ends
    without an error (inside the caller's transaction)."""
    if _batch() is not None:
        raise RuntimeError("already collecting")
    batch = _collecting.batch = kind()
    try:
        yield batch
    finally:
        _collecting.batch = None
    batch.flush()


def insert(instance: Model, fields: Sequence[str]) -> None:
    """INSERT ``instance``'s ``fields`` (auto fields such as ``created_at`` are the caller's
    to fill) and set its primary key (while ``collecting``: when the batch is sent)."""
    batch = _batch()
    if batch is not None:
        batch.inserts.append((instance, fields))
        return
    _insert_now(instance, fields)


def _insert_now(instance: Model, fields: Sequence[str]) -> None:
    sql, params = _insert_sql(instance, fields)
    with connection.cursor() as cursor:
        cursor.execute(f"{sql} RETURNING {pk_column(type(instance))}", params)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False


def update(instance: Model, fields: Sequence[str]) -> None:
    """UPDATE ``instance``'s row: ``fields`` only, from the instance's values."""
    model = type(instance)
    batch = _batch()
    if batch is not None:
        batch.update(model, instance.pk, _values(instance, fields))
        return
    _update(model, _values(instance, fields), f"{pk_column(model)} = %s", [instance.pk])


def update_pks(model: type[Model], pks: Sequence[Any], **values: Any) -> None:
    """UPDATE the rows ``pks`` of ``model``: each gets the same ``values`` (one statement)."""
    batch = _batch()
    if batch is not None:
        for pk in pks:
            batch.update(model, pk, values)
        return
    if pks:
        _update(model, values, f"{pk_column(model)} IN ({', '.join(['%s'] * len(pks))})", list(pks))


def update_where(model: type[Model], values: dict[str, Any], where: str, params: list[Any]) -> None:
    """UPDATE the rows of ``model`` that ``where`` (SQL over ``column_name``s, ``%s`` for each
    of ``params``) selects with ``values`` (prepared as the ORM would): one statement, no ORM
    query to compile."""
    _update(model, values, where, params)


def raise_to(model: type[Model], name: str, value: Any, **equal: Any) -> None:
    """Set the field ``name`` to ``value`` on the rows with these column values
    (``field=value``, foreign keys by their id) where it is lower: it never moves back."""
    (column,), (prepared,) = _columns(model, {name: value})
    terms, params = _equals(model, equal)
    _update(model, {name: value}, " AND ".join([f"{column} < %s", *terms]), [prepared, *params])


def first_value(model: type[Model], name: str, **equal: Any) -> Any:
    """The field ``name`` of the first row of ``model`` with these column values
    (``field=value``, foreign keys by their id), or None: one statement, no ORM query."""
    terms, params = _equals(model, equal)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {column_name(model, name)} FROM {table_name(model)} "
            f"WHERE {' AND '.join(terms)} LIMIT 1",
            params,
        )
        found = cursor.fetchone()
    return None if found is None else found[0]


def values_in(
    model: type[Model], names: Sequence[str], name: str, among: Sequence[Any], **equal: Any
) -> list[tuple[Any, ...]]:
    """The fields ``names`` of the rows of ``model`` whose field ``name`` is one of ``among``
    and whose other fields have these values (``field=value``, foreign keys by their id):
    one statement, no ORM query."""
    if not among:
        return []
    terms, params = _equals(model, equal)
    column = column_name(model, name)
    marks = ", ".join(["%s"] * len(among))
    selected = ", ".join(column_name(model, n) for n in names)
    field: Any = model._meta.get_field(name)
    prepared = [pgvalues.prep_save(field, value, thread_connection()) for value in among]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {selected} FROM {table_name(model)} "
            f"WHERE {' AND '.join(terms)} AND {column} IN ({marks})",
            [*params, *prepared],
        )
        return [tuple(row) for row in cursor.fetchall()]
