"""Plain SQL for the hot paths: saving a hand (services.record_hand), drawing
a score sheet (selectors.match_state) and the audit trail.

Each value goes through its model field's own preparation for the database
(JSON, dates, foreign keys) and each value read through its field's own
conversion, exactly as the ORM does; only the building of querysets is
skipped. On the 2-core benchmark machine that building cost more than the
queries themselves.

On PostgreSQL a round trip to the server costs more than the query: the
reads of a sheet go in one round trip, and so do the writes of a saved hand.
And planning these statements cost the server more than running them: each
is prepared once per connection (PREPARE) and then only EXECUTEd.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from functools import lru_cache
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction

# The SQL of each statement is built once per shape (model and columns) and
# cached: only the values change from one saved hand to the next. The
# vendor is part of each key: a process talks to one database, but tests
# may switch.


@lru_cache(maxsize=64)
def _fields(model, names: tuple[str, ...]) -> tuple:
    return tuple(model._meta.get_field(name) for name in names)


def _params(model, values: dict) -> list:
    """Each value prepared for the database by its field, as the ORM does."""
    # The connection itself: each attribute read through django.db.connection
    # looks it up again, and a field reads several per value.
    db = connections[DEFAULT_DB_ALIAS]
    return [field.get_db_prep_save(values[field.name], db) for field in _fields(model, tuple(values))]


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


@lru_cache(maxsize=64)
def _insert_sql(vendor: str, model, names: tuple[str, ...], returning: bool) -> str:
    columns_ = ", ".join(_quote(field.column) for field in _fields(model, names))
    sql = f"INSERT INTO {_quote(model._meta.db_table)} ({columns_}) VALUES ({', '.join(['%s'] * len(names))})"
    return f"{sql} RETURNING {_quote(model._meta.pk.column)}" if returning else sql


@lru_cache(maxsize=64)
def _update_sql(vendor: str, model, names: tuple[str, ...], where: tuple[str, ...]) -> str:
    """UPDATE of ``names`` of the row with the pk (the parameter after
    those of ``names``) and ``where`` values (the last parameters)."""
    assignments = ", ".join(f"{_quote(field.column)} = %s" for field in _fields(model, names))
    conditions = " AND ".join(
        [f"{_quote(model._meta.pk.column)} = %s"] + [f"{_quote(field.column)} = %s" for field in _fields(model, where)]
    )
    return f"UPDATE {_quote(model._meta.db_table)} SET {assignments} WHERE {conditions}"


@lru_cache(maxsize=64)
def _update_then_insert_sql(
    vendor: str, model, names: tuple[str, ...], where: tuple[str, ...], inserts: tuple[tuple]
) -> str:
    """One statement: it is its own transaction, and one round trip. The
    inserts read from the update, so they write nothing when it matched no
    row. Parameters: the update's, then each insert's."""
    parts = [f"changed AS ({_update_sql(vendor, model, names, where)} RETURNING {_quote(model._meta.pk.column)})"]
    for i, (insert_model, insert_names) in enumerate(inserts):
        fields = _fields(insert_model, insert_names)
        # Typed, since a bare parameter in a SELECT list would be text.
        typed = ", ".join(f"CAST(%s AS {field.cast_db_type(connection)})" for field in fields)
        parts.append(
            f"new_{i} AS (INSERT INTO {_quote(insert_model._meta.db_table)}"
            f" ({', '.join(_quote(field.column) for field in fields)})"
            f" SELECT {typed} FROM changed RETURNING {_quote(insert_model._meta.pk.column)})"
        )
    ids = ", ".join(f"(SELECT {_quote(m._meta.pk.column)} FROM new_{i})" for i, (m, _names) in enumerate(inserts))
    return f"WITH {', '.join(parts)} SELECT {ids}"


def columns(model, alias: str = "") -> str:
    """Every column of ``model``, in the order ``instances`` reads them."""
    prefix = f"{alias}." if alias else ""
    return ", ".join(f"{prefix}{connection.ops.quote_name(f.column)}" for f in model._meta.concrete_fields)


def instances(model, rows: list[tuple]) -> list:
    """Model instances from rows of ``SELECT {columns(model)}``."""
    db = connections[DEFAULT_DB_ALIAS]
    converters = _converters(db, model)
    found = []
    for row in rows:
        values = list(row)
        for i, (col, convert) in enumerate(converters):
            for converter in convert:
                values[i] = converter(values[i], col, db)
        found.append(model.from_db(db.alias, None, values))
    return found


# Per connection (one per thread) and model: asking each field for them cost
# more than converting the values of a saved hand's reads.
_CONVERTERS: WeakKeyDictionary = WeakKeyDictionary()


def _converters(db, model) -> list[tuple]:
    """(column, its converters) of each of ``model``'s columns, as the ORM
    converts them when reading from ``db``."""
    by_model = _CONVERTERS.setdefault(db, {})
    if model not in by_model:
        by_model[model] = [
            (field.cached_col, db.ops.get_db_converters(field.cached_col) + field.get_db_converters(db))
            for field in model._meta.concrete_fields
        ]
    return by_model[model]


def _one_round_trip(cursor) -> bool:
    """psycopg's client-side binding (Django's default) takes several
    statements in one execute, and sends them in one round trip."""
    if connection.vendor != "postgresql":
        return False
    import psycopg

    return isinstance(cursor.cursor, psycopg.ClientCursor)


# The statements prepared on each PostgreSQL connection (by its psycopg
# connection object: a new connection starts with none). A prepared
# statement lives as long as its connection, whatever becomes of the
# transaction that prepared it.
_PREPARED: WeakKeyDictionary = WeakKeyDictionary()


@lru_cache(maxsize=256)
def _statement(sql: str) -> tuple[str, str, str]:
    """(name, ``PREPARE name AS …`` with $1, $2, … for the ``%s``
    parameters, ``EXECUTE name(%s, …)``) of ``sql``."""
    name = "sk_" + hashlib.sha1(sql.encode()).hexdigest()[:20]
    numbers = itertools.count(1)
    prepare = f"PREPARE {name} AS " + re.sub("%s", lambda _m: f"${next(numbers)}", sql)
    count = sql.count("%s")
    return name, prepare, f"EXECUTE {name}({', '.join(['%s'] * count)})" if count else f"EXECUTE {name}"


def _execute_prepared(cursor, statements: list[str], params: list) -> None:
    """Run ``statements`` (with ``%s`` parameters, ``params`` in order) in one
    round trip as prepared statements of ``cursor``'s connection, preparing
    first those this connection has not had yet. The cursor is left at the
    first statement's result."""
    prepared = _PREPARED.setdefault(cursor.cursor.connection, set())
    prepares, executes = [], []
    for sql in statements:
        name, prepare, execute = _statement(sql)
        if name not in prepared:
            prepares.append(prepare)
            # Counted as prepared even if what follows it fails: a PREPARE
            # fails only on bad SQL, and a lost connection is a new one.
            prepared.add(name)
        executes.append(execute)
    cursor.execute("; ".join([*prepares, *executes]), params)
    for _ in prepares:  # a PREPARE's result holds no rows
        cursor.nextset()


def select_sets(*queries: tuple[str, list]) -> list[list[tuple]]:
    """The rows of each ``(sql, params)`` query, in order."""
    with connection.cursor() as cursor:
        if _one_round_trip(cursor):
            params = [p for _sql, query_params in queries for p in query_params]
            _execute_prepared(cursor, [sql for sql, _params in queries], params)
            found = [cursor.fetchall()]
            while cursor.nextset():
                found.append(cursor.fetchall())
            return found
        found = []
        for sql, params in queries:
            cursor.execute(sql, params)
            found.append(cursor.fetchall())
        return found


def insert_row(model, **values) -> int:
    """INSERT one row of ``model`` (give every column without a database
    default; foreign keys by field name, as ids). Returns its id."""
    returning = connection.features.can_return_columns_from_insert
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(connection.vendor, model, tuple(values), returning), _params(model, values))
        return cursor.fetchone()[0] if returning else cursor.lastrowid


def update_row(model, pk: int, where: dict, **values) -> int:
    """UPDATE the row ``pk`` of ``model`` if its ``where`` columns hold those
    values. Returns how many rows changed (0 or 1)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _update_sql(connection.vendor, model, tuple(values), tuple(where)),
            [*_params(model, values), pk, *_params(model, where)],
        )
        return cursor.rowcount


def update_then_insert(model, pk: int, where: dict, values: dict, inserts: list[tuple]) -> list[int] | None:
    """``update_row(model, pk, where, **values)`` and, only if it changed the
    row, INSERT each ``(model, values)`` of ``inserts`` (one or more): all or nothing.
    Returns the new rows' ids, or None when the row did not match (then
    nothing was written)."""
    if connection.vendor != "postgresql":
        with transaction.atomic():
            if not update_row(model, pk, where, **values):
                return None
            return [insert_row(insert_model, **insert_values) for insert_model, insert_values in inserts]
    shape = tuple((insert_model, tuple(insert_values)) for insert_model, insert_values in inserts)
    sql = _update_then_insert_sql(connection.vendor, model, tuple(values), tuple(where), shape)
    params = [*_params(model, values), pk, *_params(model, where)]
    for insert_model, insert_values in inserts:
        params += _params(insert_model, insert_values)
    with connection.cursor() as cursor:
        _execute_prepared(cursor, [sql], params)
        found = list(cursor.fetchone())
    return None if found[0] is None else found
