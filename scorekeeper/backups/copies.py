"""Copies of the SQLite database while an event runs, so a laptop that dies
mid-event loses at most what was played since the last one.

A copy is made after every round completes and when a match finishes
(at most one every MATCH_COPY_SECONDS for finished matches: at a big
event's end of round hundreds finish within a minute, and the round's own
copy follows them), with SQLite's online backup API into
``settings.DATABASE_COPIES_DIR`` (``backups/`` beside the database); the
newest ``DATABASE_COPIES_KEPT`` (20) are kept. The database is in WAL mode,
so the copy reads a snapshot while writers go on. It runs after the
write's commit: a copy never holds a write that was rolled back, and a
failed copy never undoes a saved hand (it is logged instead).

PostgreSQL keeps no such copies: use pg_dump on a schedule or the host's
backups (README, "Backups and moving data").
"""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction

logger = logging.getLogger(__name__)

MATCH_COPY_SECONDS = 30
PREFIX = "scorekeeper-"
SUFFIX = ".sqlite3"


def enabled() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"


def database_path() -> Path:
    return Path(connection.settings_dict["NAME"])


def copies_folder() -> Path:
    return Path(settings.DATABASE_COPIES_DIR)


def after_commit(reason: str, *, every_time: bool = True) -> None:
    """Copy the database once the current transaction commits. ``every_time``
    False (a finished match) skips it when a copy is younger than
    MATCH_COPY_SECONDS."""
    if enabled():
        transaction.on_commit(lambda: _copy_quietly(reason, every_time))


def _copy_quietly(reason: str, every_time: bool) -> None:
    try:
        if every_time or not _recent(MATCH_COPY_SECONDS):
            make_copy(reason)
    except (OSError, sqlite3.Error):
        logger.exception("The database copy after %s could not be made", reason)


def copies() -> list[Path]:
    """The copies kept, oldest first."""
    folder = copies_folder()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.name.startswith(PREFIX) and p.name.endswith(SUFFIX))


def _recent(seconds: float) -> bool:
    kept = copies()
    return bool(kept) and time.time() - kept[-1].stat().st_mtime < seconds


def make_copy(reason: str) -> Path:
    """A whole, consistent copy of the database as it is now, named by the
    time and the reason; the oldest beyond DATABASE_COPIES_KEPT removed."""
    folder = copies_folder()
    folder.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^a-z0-9]+", "-", reason.lower()).strip("-")[:60]
    target = folder / f"{PREFIX}{datetime.now():%Y%m%d-%H%M%S-%f}-{slug}{SUFFIX}"
    partial = target.with_name(target.name + ".partial")
    copy_database(database_path(), partial)
    partial.replace(target)  # a copy is whole or absent
    for old in copies()[: -settings.DATABASE_COPIES_KEPT]:
        old.unlink(missing_ok=True)
    return target


def copy_database(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into ``target``, in one step (a
    read snapshot: writers are not blocked in WAL mode), then made a plain
    single file (rollback journal), so the copy is one file to keep."""
    src = sqlite3.connect(source, timeout=20)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")
    finally:
        dst.close()
        src.close()


def check_copy(path: Path) -> str | None:
    """Why ``path`` is not a copy of a Scorekeeper database, or None."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                return "it is damaged (SQLite's integrity check fails)"
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            db.close()
    except sqlite3.Error as e:
        return f"it is not an SQLite database ({e})"
    if not {"django_migrations", "scorekeeper_match", "scorekeeper_hand"} <= tables:
        return "it is an SQLite database, but not Scorekeeper's"
    return None
