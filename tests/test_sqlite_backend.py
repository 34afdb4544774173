"""SQLite write transactions queue on a file lock beside the database
(scorekeeper/sqlite_backend): a writer waits while another process holds
it, and goes on without it (SQLite's own locking still guards the data)
if it is held for longer than the connection's timeout."""

from __future__ import annotations

import fcntl
import threading
import time

import pytest
from django.db import connection, transaction

from scorekeeper.models import AuditEvent

from .conftest import ON_SQLITE

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not ON_SQLITE, reason="the file lock is the SQLite backend's"),
]


def held_by_another_process():
    """The lock file, locked through a handle of its own (as another
    server process's writer would hold it)."""
    handle = open(f"{connection.settings_dict['NAME']}-writers.lock", "a+b")  # noqa: SIM115
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


def write_one() -> float:
    started = time.monotonic()
    with transaction.atomic():
        AuditEvent.objects.create(actor="test", action="lock test")
    return time.monotonic() - started


def test_a_writer_waits_for_the_writer_before_it():
    connection.ensure_connection()
    other = held_by_another_process()
    threading.Timer(0.3, lambda: (fcntl.flock(other, fcntl.LOCK_UN), other.close())).start()
    waited = write_one()
    assert waited >= 0.25
    assert AuditEvent.objects.filter(action="lock test").count() == 1


def test_a_writer_goes_on_when_the_lock_is_held_too_long(monkeypatch):
    connection.ensure_connection()
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "timeout", 0.2)
    other = held_by_another_process()
    try:
        waited = write_one()
    finally:
        fcntl.flock(other, fcntl.LOCK_UN)
        other.close()
    assert 0.15 <= waited < 5
    assert AuditEvent.objects.filter(action="lock test").count() == 1
    # The next transaction takes the lock as usual.
    assert write_one() < 0.15
