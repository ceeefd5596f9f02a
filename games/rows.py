# ruff: noqa: S608 — every name in these statements comes from model metadata, quoted by the
# backend; values always travel as parameters.
"""Plain-SQL reads and writes of model rows for the move path.

A move is the hottest write of the site (``moves.action_submit``, every bot and timeout
move too). Building a statement through the ORM costs about 0.5 ms of Python on a small
machine, more than the statement itself; the move's half-dozen statements are therefore
written here once, as SQL strings built from the models' own metadata, and run through
Django's connection (same transaction, same converters, so the rows come back as the
usual model instances with the usual Python values on PostgreSQL and SQLite alike).

Only the shapes the move path needs: lock one row (with a related row read along), lock the
rows of a parent (with a related row each), insert a row, update some fields of rows, raise
a counter that never moves back, read one field of a row.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, cast

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model
from django.db.models.expressions import Col

from games import pgvalues

M = TypeVar("M", bound=Model)
F = TypeVar("F", bound=Callable[..., Any])


def _once(fn: F) -> F:
    """``functools.cache``, typed as the function itself (its keys: models and strings)."""
    return cast(F, functools.cache(fn))


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
            found = pgvalues.converters(field, found)
            if found:
                self.converters.append((i, found, expression))

    def build(self, row: Sequence[Any], db: Any = None) -> Any:
        """The model instance of ``row`` (``db``: the real connection, looked up once by a
        caller building many rows; Django's ``connection`` is a per-thread proxy)."""
        db = db if db is not None else _db()
        values = list(row)
        for i, converters, expression in self.converters:
            value = values[i]
            for convert in converters:
                value = convert(value, expression, db)
            values[i] = value
        return self.model.from_db(db.alias, self.attnames, values)


def _prepared_cursor(db: Any) -> Any:
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


def _db() -> Any:
    """This thread's default connection itself (not the proxy: every attribute read through
    ``django.db.connection`` is a thread-local lookup)."""
    return connections[DEFAULT_DB_ALIAS]


@_once
def _shape(model: type[Model], alias: str, vendor: str) -> _Shape:
    return _Shape(model, alias)


def _shape_of(model: type[Model], alias: str) -> _Shape:
    return _shape(model, alias, connection.vendor)


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
    own, other = _shape_of(model, "a"), _shape_of(target, "b")
    quote = connection.ops.quote_name
    order = f" ORDER BY a.{_column(model, order_by)}" if order_by else ""
    sql = (
        f"SELECT {own.select}, {other.select} FROM {_table(model)} a "
        f"{'LEFT JOIN' if outer else 'JOIN'} {_table(target)} b "
        f"ON b.{quote(target._meta.pk.column)} = a.{quote(fk.column)} "
        f"WHERE a.{_column(model, where)} = %s{order}{_lock_clause('a')}"
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


def _column(model: type[Model], name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)  # type: ignore[union-attr]


def _columns(model: type[Model], values: dict[str, Any]) -> tuple[list[str], list[Any]]:
    """The quoted column of each field name of ``values`` (foreign keys by name, their id as
    the value), with each value prepared for the database as the ORM would."""
    columns, params = [], []
    for name, value in values.items():
        field: Any = model._meta.get_field(name)
        columns.append(connection.ops.quote_name(field.column))
        params.append(pgvalues.prep_save(field, value, _db()))
    return columns, params


def _equals(model: type[Model], values: dict[str, Any]) -> tuple[list[str], list[Any]]:
    """``"<column> = %s"`` for each field name of ``values``, and the values (``_columns``)."""
    columns, params = _columns(model, values)
    return [f"{column} = %s" for column in columns], params


def _values(instance: Model, fields: Sequence[str]) -> dict[str, Any]:
    meta = type(instance)._meta
    return {n: getattr(instance, meta.get_field(n).attname) for n in fields}  # type: ignore[union-attr]


def _insert_sql(instance: Model, fields: Sequence[str]) -> tuple[str, list[Any]]:
    db = _db()
    model = type(instance)
    sql, prepared = _insert_text(model, tuple(fields), db.vendor)
    return sql, [
        pgvalues.prep_save(field, getattr(instance, field.attname), db) for field in prepared
    ]


@_once
def _insert_text(model: type[Model], fields: tuple[str, ...], vendor: str) -> tuple[str, list[Any]]:
    """The INSERT of ``fields`` of ``model`` (built once per shape and backend), and the
    fields whose values it takes, in order."""
    prepared: list[Any] = [model._meta.get_field(n) for n in fields]
    columns = [connection.ops.quote_name(f.column) for f in prepared]
    marks = ", ".join(["%s"] * len(columns))
    return f"INSERT INTO {_table(model)} ({', '.join(columns)}) VALUES ({marks})", prepared


def _update(model: type[Model], values: dict[str, Any], where: str, where_params: list) -> None:
    sets, params = _equals(model, values)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_table(model)} SET {', '.join(sets)} WHERE {where}", [*params, *where_params]
        )


def _pk(model: type[Model]) -> str:
    return _pk_text(model, connection.vendor)


@_once
def _pk_text(model: type[Model], vendor: str) -> str:
    return connection.ops.quote_name(model._meta.pk.column)


class Batch:
    """The inserts and updates of a move, collected while ``collecting()`` is open in this
    thread and sent when it closes: on PostgreSQL as ONE statement (data-modifying
    ``WITH`` clauses: the inserts, then one ``UPDATE`` per model and set of columns, each
    row once), elsewhere one statement each, in the order they were made. What the move's
    code and its receivers read in between comes from the rows in memory, never from the
    database; a failure raises from the flush and rolls the transaction back."""

    def __init__(self) -> None:
        self.inserts: list[tuple[Model, Sequence[str]]] = []
        self.updates: dict[tuple[type[Model], Any], dict[str, Any]] = {}

    def update(self, model: type[Model], pk: Any, values: dict[str, Any]) -> None:
        self.updates.setdefault((model, pk), {}).update(values)

    def flush(self) -> None:
        db = _db()
        if db.vendor != "postgresql":
            for instance, fields in self.inserts:
                _insert_now(instance, fields)
            for (model, pk), values in self.updates.items():
                _update(model, values, f"{_pk(model)} = %s", [pk])
            return
        clauses: list[str] = []
        params: list[Any] = []
        for i, (instance, fields) in enumerate(self.inserts):
            sql, inserted = _insert_sql(instance, fields)
            clauses.append(f"i{i} AS ({sql} RETURNING {_pk(type(instance))})")
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
            f"SELECT {i}, {_pk(type(instance))} FROM i{i}"
            for i, (instance, _f) in enumerate(self.inserts)
        )
        sql = f"WITH {', '.join(clauses)} " + (selects or "SELECT NULL, NULL")
        with _prepared_cursor(db) as cursor:
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
    db = _db()
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


@_once
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
        return f"UPDATE {_table(model)} SET {terms} WHERE {columns[0]} = %s", fields
    row = "(" + ", ".join(f"%s::{f.db_type(connection)}" for f in fields) + ")"
    sets = ", ".join(f"{c} = v.{c}" for c in columns[1:])
    sql = (
        f"UPDATE {_table(model)} AS t SET {sets} FROM (VALUES "
        f"{', '.join([row] * count)}) AS v({', '.join(columns)}) "
        f"WHERE t.{columns[0]} = v.{columns[0]}"
    )
    return sql, fields


_collecting = threading.local()


def _batch() -> Batch | None:
    return getattr(_collecting, "batch", None)


@contextlib.contextmanager
def collecting() -> Iterator[Batch]:
    """Collect this thread's ``insert``, ``update`` and ``update_pks`` into one ``Batch``,
    sent when the block ends without an error (inside the caller's transaction)."""
    if _batch() is not None:
        raise RuntimeError("already collecting")
    batch = _collecting.batch = Batch()
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
        cursor.execute(f"{sql} RETURNING {_pk(type(instance))}", params)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False


def update(instance: Model, fields: Sequence[str]) -> None:
    """UPDATE ``instance``'s row: ``fields`` only, from the instance's values."""
    model = type(instance)
    batch = _batch()
    if batch is not None:
        batch.update(model, instance.pk, _values(instance, fields))
        return
    _update(model, _values(instance, fields), f"{_pk(model)} = %s", [instance.pk])


def update_pks(model: type[Model], pks: Sequence[Any], **values: Any) -> None:
    """UPDATE the rows ``pks`` of ``model``: each gets the same ``values`` (one statement)."""
    batch = _batch()
    if batch is not None:
        for pk in pks:
            batch.update(model, pk, values)
        return
    if pks:
        _update(model, values, f"{_pk(model)} IN ({', '.join(['%s'] * len(pks))})", list(pks))


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
            f"SELECT {_column(model, name)} FROM {_table(model)} "
            f"WHERE {' AND '.join(terms)} LIMIT 1",
            params,
        )
        found = cursor.fetchone()
    return None if found is None else found[0]


def lock_family(
    model: type[M],
    pk: int,
    *,
    related: str,
    children: type[Model],
    parent: str,
    child_related: str,
    order_by: str,
    lookup: tuple[str, list[Any]] | None = None,
    version: str | None = None,
) -> tuple[M | None, list[tuple[Any, Any]], bool] | None:
    """On PostgreSQL, ONE statement that locks the row ``pk`` of ``model`` (its nullable
    foreign key ``related`` read along) and then every row of ``children`` whose foreign
    key ``parent`` points at it, in ``order_by`` order (each with its foreign key
    ``child_related`` read along): the same locks in the same order as ``lock_one`` then
    ``lock_children`` (the parent's lock is taken first: the children's scan needs its id),
    in one round trip. ``lookup``: an SQL expression and its parameters computed for each
    child (``p`` is the parent's row, ``c`` the child's). Returns ``(row, [(child, looked
    up), …], current)`` (``(None, [], True)`` when there is no such row); ``None`` on
    other backends (SQLite), where the caller takes the two-statement way.

    The lookup reads the statement's snapshot, taken before the lock was granted: a row a
    transaction that held the lock committed meanwhile is not in it. ``current`` says
    whether the snapshot is as new as the locked row: the parent's field ``version`` (a
    counter every such transaction raises) read without the lock equals the locked
    row's. When it is not, the caller looks up again in a statement of its own."""
    db = _db()
    if db.vendor != "postgresql":
        return None
    extra_sql, extra_params = lookup if lookup is not None else ("NULL", [])
    sql = _family_sql(
        model, related, children, parent, child_related, order_by, extra_sql, version, db.vendor
    )
    vendor = db.vendor
    own, other = _shape(model, "p", vendor), _shape(fk_target(model, related), "b", vendor)
    kid = _shape(children, "c", vendor)
    kid_other = _shape(fk_target(children, child_related), "d", vendor)
    fk: Any = model._meta.get_field(related)
    child_fk: Any = children._meta.get_field(child_related)
    with _prepared_cursor(db) as cursor:
        cursor.execute(sql, [pk, *extra_params])
        found = cursor.fetchall()
    if not found:
        return None, [], True
    a, b, c, d = (len(s.fields) for s in (own, other, kid, kid_other))
    first = found[0]
    row = own.build(first[:a], db)
    current = version is None or first[-1] == getattr(row, version)
    if first[a] is not None:
        fk.set_cached_value(row, other.build(first[a : a + b], db))
    out: list[tuple[Any, Any]] = []
    for values in found:
        if values[a + b] is None:  # no children: one row, NULLs on their side
            continue
        child = kid.build(values[a + b : a + b + c], db)
        if values[a + b + c] is not None:
            child_fk.set_cached_value(child, kid_other.build(values[a + b + c : a + b + c + d], db))
        out.append((child, values[-2]))
    return row, out, current


def fk_target(model: type[Model], name: str) -> Any:
    """The model the foreign key ``name`` of ``model`` points at."""
    return model._meta.get_field(name).related_model


@_once
def _family_sql(
    model: type[Model],
    related: str,
    children: type[Model],
    parent: str,
    child_related: str,
    order_by: str,
    extra_sql: str,
    version: str | None,
    vendor: str,
) -> str:
    """``lock_family``'s statement, built once per shape (and backend)."""
    fk = model._meta.get_field(related)
    child_fk = children._meta.get_field(child_related)
    target: Any = fk.related_model
    child_target: Any = child_fk.related_model
    quote = connection.ops.quote_name
    own, other = _shape_of(model, "p"), _shape_of(target, "b")
    kid, kid_other = _shape_of(children, "c"), _shape_of(child_target, "d")
    seen = (
        f"SELECT s.{_column(model, version)} FROM {_table(model)} s "
        f"WHERE s.{_pk(model)} = p.{_pk(model)}"
        if version is not None
        else "NULL"
    )
    return (
        f"WITH p AS MATERIALIZED (SELECT * FROM {_table(model)} WHERE {_pk(model)} = %s "
        f"FOR UPDATE), c AS MATERIALIZED (SELECT * FROM {_table(children)} WHERE "
        f"{_column(children, parent)} = (SELECT {_pk(model)} FROM p) "
        f"ORDER BY {_column(children, order_by)} FOR UPDATE) "
        f"SELECT {own.select}, {other.select}, {kid.select}, {kid_other.select}, "
        f"({extra_sql}), ({seen}) FROM p "
        f"LEFT JOIN {_table(target)} b ON b.{quote(target._meta.pk.column)} = p.{quote(fk.column)} "
        f"LEFT JOIN c ON TRUE "
        f"LEFT JOIN {_table(child_target)} d "
        f"ON d.{quote(child_target._meta.pk.column)} = c.{quote(child_fk.column)} "
        f"ORDER BY c.{_column(children, order_by)}"
    )


def lookup_sql(
    model: type[Model],
    value: str,
    *,
    parent: tuple[str, type[Model]],
    child: tuple[str, type[Model], str],
    equal: dict[str, Any],
) -> tuple[str, list[Any]]:
    """A ``lookup`` for ``lock_family``: the field ``value`` of the first row of ``model``
    whose foreign key ``parent[0]`` is the parent row (of model ``parent[1]``), whose field
    ``child[0]`` equals the child row's (of model ``child[1]``) field ``child[2]``, and
    whose fields ``equal`` have these values."""
    name, parent_model = parent
    field, child_model, child_field = child
    db = _db()
    sql = _lookup_text(
        model, value, name, parent_model, field, child_model, child_field, tuple(equal), db.vendor
    )
    meta = model._meta
    params = [meta.get_field(n).get_db_prep_save(v, db) for n, v in equal.items()]  # type: ignore[union-attr]
    return sql, params


@_once
def _lookup_text(
    model: type[Model],
    value: str,
    name: str,
    parent_model: type[Model],
    field: str,
    child_model: type[Model],
    child_field: str,
    names: tuple[str, ...],
    vendor: str,
) -> str:
    """``lookup_sql``'s SQL, built once per shape (and backend)."""
    terms = [f"{_column(model, n)} = %s" for n in names]
    return (
        f"SELECT x.{_column(model, value)} FROM {_table(model)} x "
        f"WHERE x.{_column(model, name)} = p.{_pk(parent_model)} "
        f"AND x.{_column(model, field)} = c.{_column(child_model, child_field)} "
        + "".join(f"AND x.{term} " for term in terms)
        + "LIMIT 1"
    )
