"""The databases and the cache are set up the plain Django way: SQLite
through Django's own backend and options, Redis through Django's own cache
backend when REDIS_URL is set (bin/test runs the PostgreSQL pass with it)."""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache
from django.db import connection
from django.test import Client
from django.utils.module_loading import import_string

from scorekeeper.audit import SYSTEM
from scorekeeper.matches.services import start_match


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


@pytest.mark.parametrize(("pool", "pooled"), [(None, False), ("on", True)])
def test_postgresql_keeps_persistent_connections_unless_told_to_pool(pool, pooled):
    """Persistent connections with health checks by default (the pool measured no better: README);
    DB_POOL=on: Django's pool."""
    import json
    import subprocess
    import sys

    env = {**os.environ, "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/whatever", "SECRET_KEY": "k" * 50}
    env.pop("DB_POOL", None)
    if pool:
        env["DB_POOL"] = pool
    code = (
        "import json, django; from django.conf import settings; d = settings.DATABASES['default'];"
        "print(json.dumps([d.get('OPTIONS', {}).get('pool'), d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS']]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        cwd=Path(settings.BASE_DIR), capture_output=True, text=True, check=True,
    )  # fmt: skip
    options, max_age, health = json.loads(out.stdout.strip().splitlines()[-1])
    if pooled:
        assert options == {"min_size": 2, "max_size": 4} and max_age == 0
    else:
        assert options is None and max_age > 0 and health is True


def test_the_caches_are_redis_exactly_when_redis_url_is_set():
    for alias in ("default", "polls"):
        backend = settings.CACHES[alias]["BACKEND"]
        if os.environ.get("REDIS_URL"):
            assert backend == "django.core.cache.backends.redis.RedisCache"
        else:
            # Django's file cache (shared by the server's processes), counting its files less often.
            assert issubclass(import_string(backend), FileBasedCache)
        key = f"settings-test-{uuid.uuid4().hex}"
        caches[alias].set(key, {"totals": [71, 41]}, timeout=30)
        assert caches[alias].get(key) == {"totals": [71, 41]}
        caches[alias].delete(key)
        assert caches[alias].get(key) is None
    # A 500-table event's polls (two entries a table) fit without culling.
    assert os.environ.get("REDIS_URL") or settings.CACHES["polls"]["OPTIONS"]["MAX_ENTRIES"] >= 2 * 1100


@pytest.mark.django_db
def test_the_csrf_cookie_is_out_of_reach_of_scripts_and_htmx_does_not_need_it(client, django_user_model):
    """CSRF_COOKIE_HTTPONLY: no script can read the token from the cookie
    (htmx sends the one the page carries, base.html's hx-headers); our
    JavaScript never reads cookies; and a write with the page's token in
    the header, as htmx sends it, goes through with CSRF checks on."""
    assert settings.CSRF_COOKIE_HTTPONLY is True
    user = django_user_model.objects.create_user(username="olga")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    page = browser.get("/players/")
    cookie = page.cookies[settings.CSRF_COOKIE_NAME]
    assert cookie["httponly"] is True
    token = re.search(r"hx-headers='\{\"x-csrftoken\": \"([^\"]+)\"\}'", page.content.decode()).group(1)
    static = Path(settings.BASE_DIR) / "static"
    scripts = list(static.rglob("*.js"))
    assert scripts and not [p.name for p in scripts if "cookie" in p.read_text().lower()]
    assert browser.post("/players/", {"name": "Zoe"}).status_code == 403  # no token: refused
    assert browser.post("/players/", {"name": "Zoe"}, HTTP_X_CSRFTOKEN=token).status_code == 302


@pytest.mark.django_db
def test_the_admin_sends_the_content_security_policy(client, django_user_model):
    """The admin's pages carry the app's policy too (tests/e2e/test_admin.py
    uses them in a browser under it): the change list and a change form."""
    root = django_user_model.objects.create_superuser(username="root", password=None)
    match = start_match(game="spades", player_names=["Ann", "Bob"], options={}, actor=SYSTEM)
    client.force_login(root)
    change = f"/admin/scorekeeper/match/{match.pk}/change/"
    for url in ("/admin/", "/admin/scorekeeper/match/", change, "/admin/login/"):
        response = client.get(url)
        assert response.status_code in (200, 302), url
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy and "unsafe-inline" not in policy, url
    assert change in client.get("/admin/scorekeeper/match/").content.decode()  # the change list lists it
