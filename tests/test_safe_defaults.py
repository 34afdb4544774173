"""Safe by default on the club laptop: DEBUG off unless asked for, a secret
key of the server's own (never one written in the source), no grant cookie
that anyone on the Wi-Fi could sign, error pages for people."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core import signing
from django.http import HttpResponse
from django.test import Client, override_settings

from config import network
from config.secret_key import NoSecretKey, read_or_create
from scorekeeper.access.links import GRANT_COOKIE, GRANT_SALT
from scorekeeper.access.services import issue_link
from scorekeeper.audit import SYSTEM
from scorekeeper.matches.services import start_match

from .conftest import basis

ROOT = Path(__file__).resolve().parents[1]


def settings_in_a_new_process(env: dict, code: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "ADDRESS")}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


# ------------------------------------------------------------------ the settings


def test_debug_is_off_unless_asked_for(tmp_path):
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    read = "from django.conf import settings; print(settings.DEBUG, settings.SECRET_KEY == open(%r).read().strip())"
    done = settings_in_a_new_process({"DATABASE_URL": db}, read % str(tmp_path / "secret_key"))
    assert done.stdout.split() == ["False", "True"], done.stderr
    assert settings_in_a_new_process({"DATABASE_URL": db, "DEBUG": "1"}, read % str(tmp_path / "secret_key")).stdout
    # No key in the source: the fixed development key of old is gone.
    assert "insecure" not in (ROOT / "config" / "settings.py").read_text()


def test_without_a_key_another_database_refuses_to_start_in_plain_words():
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
        | {"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none", "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "Scorekeeper cannot start. No SECRET_KEY" in done.stderr and "Traceback" not in done.stderr


def test_the_key_file_is_made_once_for_its_owner_only(tmp_path):
    path = tmp_path / "secret_key"
    key = read_or_create(path)
    assert len(key) >= 50 and path.read_text().strip() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_or_create(path) == key  # the second run keeps it
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no half-written file left


def test_processes_starting_at_once_agree_on_one_key(tmp_path):
    path = tmp_path / "secret_key"
    code = "import sys, pathlib; from config.secret_key import read_or_create as r; print(r(pathlib.Path(sys.argv[1])))"
    starts = [
        subprocess.Popen([sys.executable, "-c", code, str(path)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    keys = {p.communicate(timeout=60)[0].strip() for p in starts}
    assert keys == {path.read_text().strip()}


def test_a_damaged_or_unwritable_key_is_refused_in_words(tmp_path):
    damaged = tmp_path / "secret_key"
    damaged.write_text("short")
    with pytest.raises(NoSecretKey, match="is damaged"):
        read_or_create(damaged)
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(NoSecretKey, match="could not be created"):
            read_or_create(locked / "secret_key")


def test_listening_on_the_network_allows_this_computers_own_addresses(monkeypatch):
    monkeypatch.setattr(network, "lan_addresses", lambda: ["192.168.1.20"])
    assert network.join_url("0.0.0.0:8000") == "http://192.168.1.20:8000"
    assert "192.168.1.20" in network.allowed_hosts("0.0.0.0:8000")
    assert network.join_url("127.0.0.1:8000") == ""  # this computer only: nobody joins
    assert network.allowed_hosts("127.0.0.1:8000") == ["localhost", "127.0.0.1", "[::1]"]
    assert network.join_url("192.168.1.20:9000") == "http://192.168.1.20:9000"
    with pytest.raises(ValueError):
        network.split_address("0.0.0.0:http")


# ------------------------------------------------------------------ grants


def _signed_grant(value: str, key: str) -> str:
    with override_settings(SECRET_KEY=key):
        response = HttpResponse()
        response.set_signed_cookie(GRANT_COOKIE, value, salt=GRANT_SALT)
        return response.cookies[GRANT_COOKIE].value


@pytest.mark.django_db
def test_a_grant_signed_with_another_key_or_holding_a_bare_id_opens_nothing(organiser):
    """What anyone on the Wi-Fi could make: a cookie listing link ids, signed
    with a key that is not this server's, or with this server's key but
    without the tag each grant carries."""
    match = start_match(game="spades", player_names=["Ann", "Bob"], options=None, actor=SYSTEM)
    link, token = issue_link(match_id=match.pk, label="table 1", actor=SYSTEM)
    form = {"bids_0": "3", "bids_1": "4", **basis(match)}
    forged = [
        _signed_grant(",".join(str(i) for i in range(1, 51)), "dev-only-insecure-key-do-not-use-in-production"),
        _signed_grant(f"{link.pk}", settings.SECRET_KEY),  # a bare id, the server's own signature
        _signed_grant(f"{link.pk}.", settings.SECRET_KEY),
        _signed_grant(f"{link.pk}.{'A' * 16}", settings.SECRET_KEY),  # a made-up tag
        _signed_grant(f"{link.pk}.{'A' * 16}", "another-server-" + "x" * 40),
    ]
    for value in forged:
        device = Client()
        device.cookies[GRANT_COOKIE] = value
        assert device.post(f"/matches/{match.pk}/bids/", form).status_code == 403, value
        assert "Save bids" not in device.get(f"/matches/{match.pk}/").content.decode()
    match.refresh_from_db()
    assert match.pending_bidding is None and match.version == 1
    # The link itself, opened and confirmed, still works.
    device = Client()
    assert device.post(f"/l/{token}/").status_code == 302
    assert device.post(f"/matches/{match.pk}/bids/", form).status_code == 302
    assert signing.get_cookie_signer(salt=GRANT_COOKIE + GRANT_SALT)  # the cookie is a signed one


# ------------------------------------------------------------------ error pages


@pytest.mark.django_db
def test_a_missing_page_or_match_is_a_page_for_people():
    client = Client()
    for url in ("/no-such-page/", "/matches/999999/", "/tournaments/999999/standings/"):
        response = client.get(url)
        body = response.content.decode()
        assert response.status_code == 404
        assert "Page not found" in body and 'href="/"' in body
        assert "URLconf" not in body and "Traceback" not in body and "DEBUG" not in body


@pytest.mark.django_db
def test_a_bad_host_is_a_400_page_without_detail():
    response = Client().get("/", HTTP_HOST="evil.example")
    body = response.content.decode()
    assert response.status_code == 400
    assert "This request could not be read" in body and 'href="/"' in body
    assert "ALLOWED_HOSTS" not in body and "evil.example" not in body


@pytest.mark.django_db
@override_settings(ROOT_URLCONF="tests.failing_urls")
def test_a_server_error_is_a_page_in_the_readers_language():
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    assert response.status_code == 500
    body = response.content.decode()
    assert "Something went wrong" in body and "Traceback" not in body and "boom" not in body
    urdu = client.get("/boom/", HTTP_ACCEPT_LANGUAGE="ur")
    assert urdu.status_code == 500 and 'lang="ur" dir="rtl"' in urdu.content.decode()
    assert "Something went wrong" not in urdu.content.decode()


@pytest.mark.django_db
def test_error_pages_speak_urdu_and_sindhi():
    for language in ("ur", "sd"):
        response = Client().get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
        body = response.content.decode()
        assert response.status_code == 404 and f'lang="{language}" dir="rtl"' in body
        assert "Page not found" not in body
        bad_host = Client().get("/", HTTP_HOST="evil.example", HTTP_ACCEPT_LANGUAGE=language)
        assert f'lang="{language}"' in bad_host.content.decode()
