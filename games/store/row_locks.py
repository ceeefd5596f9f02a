# ruff: noqa: S608 — every name in these statements comes from model metadata, quoted by the
# backend; values always travel as parameters.
"""Locking reads of model rows for the move path, in plain SQL (``games.store.rows`` holds the
writes and says why): lock one row with a related row read along, lock the rows of a parent
(with a related row each), or, on PostgreSQL, both in one statement with a lookup per child
(``lock_family``); and the first two without the lock (``read_one``, ``read_children``: a
socket's documents). The rows come back as the usual model instances, built with the
converters Django applies to them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, Model
from django.db.models.base import ModelState
from django.db.models.expressions import Col
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init

from games.store import pgvalues, rows

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]
_PLAIN_ATTRIBUTES = (DeferredAttribute, ForeignKeyDeferredAttribute)


class _Shape:
    """A model's concrete columns, in order, with the converters Django applies to them."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        self.fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
        self.attnames = [f.attname for f in self.fields]
        self.select = ", ".join(
            f"{alias}.{connection.ops.quote_name(f.column)}" for f in self.fields
        )
        # Built without ``__init__`` (``build``) unless the model makes its own instances
        # or a field's attribute is not Django's plain one.
        self.plain = (
            model.__init__ is Model.__init__
            # A classmethod read from the class is bound: its function is ``__func__``,
            # which the stubs do not show.
            and model.from_db.__func__ is Model.from_db.__func__  # type: ignore[attr-defined]
            and all(type(getattr(model, name, None)) in _PLAIN_ATTRIBUTES for name in self.attnames)
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
        db = db if db is not None else rows.thread_connection()
        values = list(row)
        for i, converters, expression in self.converters:
            value = values[i]
            for convert in converters:
                value = convert(value, expression, db)
            values[i] = value
        if self.plain and not pre_init.receivers and not post_init.receivers:
            # What ``from_db`` makes of a full row, without ``Model.__init__``'s generic
            # work: 3-4 µs an instance instead of 9-13 (measured), and a move builds ten.
            # On a new instance the plain attributes' setters store the value and nothing
            # else, and no receiver listens for the signals ``__init__`` would send.
            instance: Any = object.__new__(self.model)
            instance.__dict__.update(zip(self.attnames, values, strict=True))
            state = instance._state = ModelState()
            state.adding = False
            state.db = db.alias
            return instance
        return self.model.from_db(db.alias, self.attnames, values)


@rows.once
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


def _read_with(
    model: type[M],
    related: str,
    *,
    where: str,
    value: Any,
    order_by: Sequence[str] = (),
    outer: bool = False,
    lock: bool = True,
) -> list[M]:
    """Lock the rows of ``model`` whose field ``where`` is ``value`` and read the row of
    their foreign key ``related`` along (cached on each instance, as ``select_related``
    would; ``outer`` for a nullable key). Only ``model``'s rows are locked, and none without
    ``lock``. ``order_by``: field names, a nullable one's NULLs last (as on PostgreSQL)."""
    fk = rows.foreign_key(model, related)
    target: Any = fk.related_model
    own, other = _shape_of(model, "a"), _shape_of(target, "b")
    quote = connection.ops.quote_name
    order = _order_text(model, tuple(order_by))
    sql = (
        f"SELECT {own.select}, {other.select} FROM {rows.table_name(model)} a "
        f"{'LEFT JOIN' if outer else 'JOIN'} {rows.table_name(target)} b "
        f"ON b.{quote(target._meta.pk.column)} = a.{quote(fk.column)} "
        f"WHERE a.{rows.column_name(model, where)} = %s{order}{_lock_clause('a') if lock else ''}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value])
        found = cursor.fetchall()
    width = len(own.fields)
    out = []
    for row in found:
        instance = own.build(row[:width])
        if row[width] is not None:
            fk.set_cached_value(instance, other.build(row[width:]))
        out.append(instance)
    return out


@rows.once
def _order_text(model: type[Model], names: tuple[str, ...]) -> str:
    terms = [
        f"a.{rows.column_name(model, name)}"
        + (" NULLS LAST" if getattr(model._meta.get_field(name), "null", False) else "")
        for name in names
    ]
    return f" ORDER BY {', '.join(terms)}" if terms else ""


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
    return _read_with(model, related, where=parent, value=parent_id, order_by=(order_by,))


def read_one(model: type[M], pk: int, *, related: str) -> M | None:
    """``lock_one`` without the lock: a plain read, in whatever transaction there is."""
    found = _read_with(model, related, where=model._meta.pk.name, value=pk, outer=True, lock=False)
    return found[0] if found else None


def read_children(
    model: type[M], *, parent: str, parent_id: int, related: str, order_by: Sequence[str]
) -> list[M]:
    """``lock_children`` without the lock, ordered by the fields ``order_by``."""
    return _read_with(model, related, where=parent, value=parent_id, order_by=order_by, lock=False)


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
) -> tuple[M | None, list[tuple[Any, Any]], bool]:
    """PostgreSQL only (``games.store.backends.PostgresStore``): ONE statement that locks the row
    ``pk`` of ``model`` (its nullable
    foreign key ``related`` read along) and then every row of ``children`` whose foreign
    key ``parent`` points at it, in ``order_by`` order (each with its foreign key
    ``child_related`` read along): the same locks in the same order as ``lock_one`` then
    ``lock_children`` (the parent's lock is taken first: the children's scan needs its id),
    in one round trip. ``lookup``: an SQL expression and its parameters computed for each
    child (``p`` is the parent's row, ``c`` the child's). Returns ``(row, [(child, looked
    up), …], current)`` (``(None, [], True)`` when there is no such row); the row is built
    from the statement's first row, the only one that carries its columns. Other databases
    take the plain way (``games.store.backends.Store``).

    The lookup reads the statement's snapshot, taken before the lock was granted: a row a
    transaction that held the lock committed meanwhile is not in it. ``current`` says
    whether the snapshot is as new as the locked row: the parent's field ``version`` (a
    counter every such transaction raises) read without the lock equals the locked
    row's. When it is not, the caller looks up again in a statement of its own."""
    db = rows.thread_connection()
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
    with rows.prepared_cursor(db) as cursor:
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


@rows.once
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
    fk = rows.foreign_key(model, related)
    child_fk = rows.foreign_key(children, child_related)
    target: Any = fk.related_model
    child_target: Any = child_fk.related_model
    quote = connection.ops.quote_name
    own, other = _shape_of(model, "p"), _shape_of(target, "b")
    kid, kid_other = _shape_of(children, "c"), _shape_of(child_target, "d")
    seen = (
        f"SELECT s.{rows.column_name(model, version)} FROM {rows.table_name(model)} s "
        f"WHERE s.{rows.pk_column(model)} = p.{rows.pk_column(model)}"
        if version is not None
        else "NULL"
    )
    # The parent's row (and its related row) is read from the first row only: on the others
    # its columns are NULL, so the game's state is not written out, sent and decoded again
    # for every seat (docs/benchmarks/history.md, "Ninth pass").
    order = rows.column_name(children, order_by)
    lead = f"c.{order} IS NOT DISTINCT FROM f.lead"

    def first_row_only(shape: _Shape, alias: str) -> str:
        return ", ".join(
            f"CASE WHEN {lead} THEN {alias}.{quote(f.column)} END" for f in shape.fields
        )

    return (
        f"WITH p AS MATERIALIZED (SELECT * FROM {rows.table_name(model)} "
        f"WHERE {rows.pk_column(model)} = %s "
        f"FOR UPDATE), c AS MATERIALIZED (SELECT * FROM {rows.table_name(children)} WHERE "
        f"{rows.column_name(children, parent)} = (SELECT {rows.pk_column(model)} FROM p) "
        f"ORDER BY {rows.column_name(children, order_by)} FOR UPDATE) "
        f"SELECT {first_row_only(own, 'p')}, {first_row_only(other, 'b')}, "
        f"{kid.select}, {kid_other.select}, "
        f"({extra_sql}), ({seen}) FROM p "
        f"LEFT JOIN {rows.table_name(target)} b "
        f"ON b.{quote(target._meta.pk.column)} = p.{quote(fk.column)} "
        f"LEFT JOIN c ON TRUE CROSS JOIN (SELECT min({order}) AS lead FROM c) f "
        f"LEFT JOIN {rows.table_name(child_target)} d "
        f"ON d.{quote(child_target._meta.pk.column)} = c.{quote(child_fk.column)} "
        f"ORDER BY c.{order}"
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
    db = rows.thread_connection()
    sql = _lookup_text(
        model, value, name, parent_model, field, child_model, child_field, tuple(equal), db.vendor
    )
    params = [rows.concrete_field(model, n).get_db_prep_save(v, db) for n, v in equal.items()]
    return sql, params


@rows.once
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
    terms = [f"{rows.column_name(model, n)} = %s" for n in names]
    return (
        f"SELECT x.{rows.column_name(model, value)} FROM {rows.table_name(model)} x "
        f"WHERE x.{rows.column_name(model, name)} = p.{rows.pk_column(parent_model)} "
        f"AND x.{rows.column_name(model, field)} = c.{rows.column_name(child_model, child_field)} "
        + "".join(f"AND x.{term} " for term in terms)
        + "LIMIT 1"
    )
