"""The plain-SQL helpers of the hot paths (scorekeeper/rows.py) write and read
exactly what the ORM would, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper.models import AuditEvent, Hand, Match, Player
from scorekeeper.rows import columns, instances, select_sets, update_then_insert

from .conftest import S1, snapshot


def hand_row(match: Match, number: int, key: str) -> dict:
    now = timezone.now()
    return {
        "match": match.pk,
        "number": number,
        "entry": S1[0],
        "client_key": key,
        "created_at": now,
        "updated_at": now,
    }


def audit_row(match: Match) -> dict:
    return {
        "match": match.pk,
        "tournament": None,
        "user": None,
        "link": None,
        "actor": "table 1",
        "action": "hand recorded",
        "hand_number": 1,
        "before": None,
        "after": S1[0],
        "at": timezone.now(),
    }


def bump(match: Match, read_version: int, **changes):
    return update_then_insert(
        Match,
        match.pk,
        {"version": read_version},
        {"version": read_version + 1, **changes},
        inserts=[(Hand, hand_row(match, 1, "k1")), (AuditEvent, audit_row(match))],
    )


def test_update_then_insert_writes_the_row_and_the_new_rows(make_match):
    match = make_match("spades")
    ids = bump(match, match.version, totals=[71, 41], hands_played=1)
    match.refresh_from_db()
    assert (match.version, match.totals, match.hands_played) == (2, [71, 41], 1)
    hand, event = Hand.objects.get(pk=ids[0]), AuditEvent.objects.get(pk=ids[1])
    assert (hand.match_id, hand.number, hand.entry, hand.client_key) == (match.pk, 1, S1[0], "k1")
    assert (event.match_id, event.user_id, event.before, event.after) == (match.pk, None, None, S1[0])
    assert event.at is not None and timezone.is_aware(event.at)


def test_update_then_insert_writes_nothing_when_the_row_changed_meanwhile(make_match):
    match = make_match("spades")
    before = snapshot(match)
    audit_events = AuditEvent.objects.count()
    assert bump(match, match.version - 1, totals=[1, 2]) is None  # read an older version
    assert snapshot(match) == before
    assert AuditEvent.objects.count() == audit_events


@pytest.mark.django_db(transaction=True)
def test_update_then_insert_is_all_or_nothing(make_match):
    """A refused insert (here: hand 1 is there already) undoes the update
    too, as a server in autocommit mode runs it."""
    match = make_match("spades", hands=[S1[0]])
    before = snapshot(match)
    with pytest.raises(IntegrityError):
        bump(match, match.version, totals=[0, 0])
    assert snapshot(match) == before
    # The same statement works next time (on PostgreSQL: its PREPARE, sent
    # with the refused write, still holds).
    Hand.objects.filter(match=match).delete()
    assert bump(match, match.version, totals=[5, 6]) is not None
    match.refresh_from_db()
    assert match.totals == [5, 6]


def test_select_sets_gives_each_querys_rows_in_order(make_match):
    match = make_match("spades", hands=[S1[0], S1[0]])
    found = select_sets(
        (f"SELECT id FROM {Match._meta.db_table} WHERE id = %s", [match.pk]),
        (f"SELECT id FROM {Match._meta.db_table} WHERE id = %s", [-1]),  # no rows
        (f"SELECT number FROM {Hand._meta.db_table} WHERE match_id = %s ORDER BY number", [match.pk]),
    )
    assert found == [[(match.pk,)], [], [(1,), (2,)]]


def test_select_sets_is_one_round_trip_on_postgresql(make_match):
    match = make_match("spades")
    with CaptureQueriesContext(connection) as queries:
        select_sets(*[(f"SELECT id FROM {Match._meta.db_table} WHERE id = %s", [match.pk])] * 3)
    assert len(queries) == (1 if connection.vendor == "postgresql" else 3)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
@pytest.mark.django_db(transaction=True)  # to close the connection
def test_postgresql_prepares_each_statement_once_per_connection(make_match):
    match = make_match("spades", hands=[S1[0]])
    # A statement no other test sends, so this connection has not prepared it.
    query = (f"SELECT number FROM {Hand._meta.db_table} WHERE match_id = %s AND number > %s /* once */", [match.pk, 0])

    def read():
        with CaptureQueriesContext(connection) as queries:
            assert select_sets(query) == [[(1,)]]
        [sent] = queries.captured_queries
        return sent["sql"]

    first, second = read(), read()
    assert first.startswith("PREPARE ") and "EXECUTE " in first
    assert second.startswith("EXECUTE ") and "PREPARE" not in second
    connection.close()  # a new connection has none of them
    assert read().startswith("PREPARE ")


def test_instances_read_every_field_as_the_orm_does(make_match):
    match = make_match("spades", hands=[S1[0]])
    Match.objects.filter(pk=match.pk).update(pending_bidding={"bids": [3, 4]}, finished_at=timezone.now())
    expected = Match.objects.get(pk=match.pk)
    [read] = instances(
        Match, select_sets((f"SELECT {columns(Match)} FROM {Match._meta.db_table} WHERE id = %s", [match.pk]))[0]
    )
    for field in Match._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(expected, field.attname), field.name
    assert not read._state.adding  # saved like any instance the ORM read
    players = instances(Player, select_sets((f"SELECT {columns(Player)} FROM {Player._meta.db_table}", []))[0])
    assert sorted(p.name for p in players) == sorted(Player.objects.values_list("name", flat=True))
