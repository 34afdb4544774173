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


def _prepared(model, values: dict) -> tuple[list[str], list]:
    fields = [model._meta.get_field(name) for name in values]
    columns = [connection.ops.quote_name(field.column) for field in fields]
    return columns, [field.get_db_prep_save(values[field.name], connection) for field in fields]


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _pk(model) -> str:
    return connection.ops.quote_name(model._meta.pk.column)


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


def _as_prepared(cursor, statements: list[str]) -> tuple[str, int]:
    """One string of SQL that runs ``statements`` (with ``%s`` parameters,
    in order) as prepared statements of ``cursor``'s connection, and how many
    PREPAREs it starts with: those this connection has not had yet. Their
    results come first and hold no rows."""
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
    return "; ".join([*prepares, *executes]), len(prepares)


def select_sets(*queries: tuple[str, list]) -> list[list[tuple]]:
    """The rows of each ``(sql, params)`` query, in order."""
    with connection.cursor() as cursor:
        if _one_round_trip(cursor):
            sql, prepares = _as_prepared(cursor, [sql for sql, _params in queries])
            cursor.execute(sql, [p for _sql, params in queries for p in params])
            for _ in range(prepares):
                cursor.nextset()
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
    columns_, params = _prepared(model, values)
    sql = f"INSERT INTO {_table(model)} ({', '.join(columns_)}) VALUES ({', '.join(['%s'] * len(columns_))})"
    with connection.cursor() as cursor:
        if connection.features.can_return_columns_from_insert:
            cursor.execute(f"{sql} RETURNING {_pk(model)}", params)
            return cursor.fetchone()[0]
        cursor.execute(sql, params)
        return cursor.lastrowid


def _update_sql(model, pk: int, where: dict, values: dict) -> tuple[str, list]:
    set_columns, params = _prepared(model, values)
    where_columns, where_params = _prepared(model, where)
    conditions = " AND ".join([f"{_pk(model)} = %s"] + [f"{column} = %s" for column in where_columns])
    sql = f"UPDATE {_table(model)} SET {', '.join(f'{column} = %s' for column in set_columns)} WHERE {conditions}"
    return sql, [*params, pk, *where_params]


def update_row(model, pk: int, where: dict, **values) -> int:
    """UPDATE the row ``pk`` of ``model`` if its ``where`` columns hold those
    values. Returns how many rows changed (0 or 1)."""
    sql, params = _update_sql(model, pk, where, values)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
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
    # One statement: it is its own transaction, and one round trip. The
    # inserts read from the update, so they write nothing when it matched
    # no row.
    update_sql, params = _update_sql(model, pk, where, values)
    parts = [f"changed AS ({update_sql} RETURNING {_pk(model)})"]
    for i, (insert_model, insert_values) in enumerate(inserts):
        columns_, insert_params = _prepared(insert_model, insert_values)
        # Typed, since a bare parameter in a SELECT list would be text.
        typed = ", ".join(
            f"CAST(%s AS {insert_model._meta.get_field(name).cast_db_type(connection)})" for name in insert_values
        )
        parts.append(
            f"new_{i} AS (INSERT INTO {_table(insert_model)} ({', '.join(columns_)})"
            f" SELECT {typed} FROM changed RETURNING {_pk(insert_model)})"
        )
        params += insert_params
    ids = ", ".join(f"(SELECT {_pk(m)} FROM new_{i})" for i, (m, _v) in enumerate(inserts))
    with connection.cursor() as cursor:
        sql, prepares = _as_prepared(cursor, [f"WITH {', '.join(parts)} SELECT {ids}"])
        cursor.execute(sql, params)
        for _ in range(prepares):
            cursor.nextset()
        found = list(cursor.fetchone())
    return None if found[0] is None else found
