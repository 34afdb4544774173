"""The databases and the cache are set up the plain Django way: SQLite
through Django's own backend and options, Redis through Django's own cache
backend when REDIS_URL is set (bin/test runs the PostgreSQL pass with it)."""

from __future__ import annotations

import os
import uuid

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection


@pytest.mark.django_db
def test_sqlite_is_set_up_for_a_real_server():
    if connection.vendor != "sqlite":
        assert settings.DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] is True  # PgBouncer in transaction mode
        return
    config = settings.DATABASES["default"]
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert config["OPTIONS"]["timeout"] >= 10
    with connection.cursor() as cursor:
        assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert cursor.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: a saved score survives a power cut
        assert cursor.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_the_cache_is_redis_exactly_when_redis_url_is_set():
    backend = settings.CACHES["default"]["BACKEND"]
    if os.environ.get("REDIS_URL"):
        assert backend == "django.core.cache.backends.redis.RedisCache"
    else:
        assert backend == "django.core.cache.backends.filebased.FileBasedCache"  # shared by the server's processes
    key = f"settings-test-{uuid.uuid4().hex}"
    cache.set(key, {"totals": [71, 41]}, timeout=30)
    assert cache.get(key) == {"totals": [71, 41]}
    cache.delete(key)
    assert cache.get(key) is None
