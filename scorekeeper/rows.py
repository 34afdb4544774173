"""Single-row INSERT and UPDATE in plain SQL, for the hot path of saving a
hand (services.record_hand) and for the audit trail.

Each value goes through its model field's own preparation for the database
(JSON, dates, foreign keys), exactly as ``Model.objects.create`` and
``QuerySet.update`` prepare them; only the building of a queryset is
skipped. On the 2-core benchmark machine that building cost more than the
three writes of a saved hand themselves."""

from __future__ import annotations

from django.db import connection


def _prepared(model, values: dict) -> tuple[list[str], list]:
    fields = [model._meta.get_field(name) for name in values]
    columns = [connection.ops.quote_name(field.column) for field in fields]
    return columns, [field.get_db_prep_save(values[field.name], connection) for field in fields]


def insert_row(model, **values) -> int:
    """INSERT one row of ``model`` (give every column without a database
    default; foreign keys by field name, as ids). Returns its id."""
    columns, params = _prepared(model, values)
    sql = (
        f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)} ({', '.join(columns)})"
        f" VALUES ({', '.join(['%s'] * len(columns))})"
    )
    with connection.cursor() as cursor:
        if connection.features.can_return_columns_from_insert:
            cursor.execute(f"{sql} RETURNING {connection.ops.quote_name(model._meta.pk.column)}", params)
            return cursor.fetchone()[0]
        cursor.execute(sql, params)
        return cursor.lastrowid


def update_row(model, pk: int, where: dict, **values) -> int:
    """UPDATE the row ``pk`` of ``model`` if its ``where`` columns hold those
    values. Returns how many rows changed (0 or 1)."""
    columns, params = _prepared(model, values)
    where_columns, where_params = _prepared(model, where)
    conditions = " AND ".join(
        [f"{connection.ops.quote_name(model._meta.pk.column)} = %s"] + [f"{column} = %s" for column in where_columns]
    )
    sql = (
        f"UPDATE {connection.ops.quote_name(model._meta.db_table)}"
        f" SET {', '.join(f'{column} = %s' for column in columns)} WHERE {conditions}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, pk, *where_params])
        return cursor.rowcount
