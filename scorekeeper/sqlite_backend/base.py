"""Django's SQLite backend, with writers queueing briskly.

SQLite lets one transaction write at a time. A second writer's BEGIN
IMMEDIATE gets "busy" and SQLite retries after sleeps that grow to 100 ms,
so under a burst of saved hands writers waited seconds for a lock that was
free most of that time. Here each write transaction first takes an
exclusive flock on a file beside the database, trying again every 2 ms at
most. If a process dies holding it, the kernel lets it go; if it cannot be
had within the connection's timeout (a stuck writer), the transaction goes
on without it and SQLite's own busy wait decides, as before. SQLite's
locking still guards the data; this only shortens the queue. Set as the
ENGINE for SQLite databases."""

from __future__ import annotations

import fcntl
import time

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    _writer_file = None  # this connection's own handle: flock is per open file
    _writing = False

    def _start_transaction_under_autocommit(self):
        self._take_writer_lock()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._let_go_writer_lock()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._let_go_writer_lock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._let_go_writer_lock()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._let_go_writer_lock()
            if self._writer_file is not None:
                self._writer_file.close()
                self._writer_file = None

    def _take_writer_lock(self) -> None:
        if self.is_in_memory_db() or self._writing:
            return
        if self._writer_file is None:
            self._writer_file = open(f"{self.settings_dict['NAME']}-writers.lock", "a+b")  # noqa: SIM115
        deadline = time.monotonic() + self.settings_dict["OPTIONS"].get("timeout", 5)
        pause = 0.0002
        while True:
            try:
                fcntl.flock(self._writer_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return  # SQLite's busy timeout takes over
                time.sleep(pause)
                pause = min(pause * 2, 0.002)
            else:
                self._writing = True
                return

    def _let_go_writer_lock(self) -> None:
        if self._writing:
            self._writing = False
            fcntl.flock(self._writer_file, fcntl.LOCK_UN)
