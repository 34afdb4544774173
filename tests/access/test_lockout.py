"""The login throttle behind a reverse proxy. Five wrong passwords for a
user name from one client lock that user name from that client for an
hour; the organiser, from another address, still logs in. Behind the
proxy (TRUSTED_PROXY_COUNT) the client's address is the one our proxy put
in X-Forwarded-For, so one stranger's guesses do not lock out everyone who
comes through the proxy; without the setting the header is ignored."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory

from scorekeeper.access.client_ip import client_ip

pytestmark = pytest.mark.django_db

User = get_user_model()
PROXY = "10.0.0.2"
ORGANISER_HOME = "203.0.113.5"
STRANGER = "198.51.100.9"
PASSWORD = "right-horse-battery"


@pytest.fixture
def victim(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return User.objects.create_user(username="victim", password=PASSWORD)


def _browser(remote: str, forwarded: str | None = None) -> Client:
    headers = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return Client(**headers)


def _log_in(client: Client, password: str = PASSWORD) -> bool:
    client.post("/login/", {"username": "victim", "password": password})
    return "_auth_user_id" in client.session


def _guess(client: Client, times: int) -> None:
    for _ in range(times):
        assert not _log_in(client, "wrong")


def test_a_strangers_guesses_from_another_address_do_not_lock_the_organiser_out(victim):
    _guess(_browser(STRANGER), 10)
    assert _log_in(_browser(ORGANISER_HOME))


def test_behind_the_proxy_a_strangers_guesses_do_not_lock_the_organiser_out(victim, settings):
    """Everyone comes from the proxy's address; our proxy appends the real one."""
    settings.TRUSTED_PROXY_COUNT = 1
    _guess(_browser(PROXY, STRANGER), 10)
    assert _log_in(_browser(PROXY, ORGANISER_HOME))


def test_behind_the_proxy_repeated_guesses_from_one_client_are_stopped(victim, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    stranger = _browser(PROXY, STRANGER)
    _guess(stranger, 5)
    assert not _log_in(stranger)  # even the right password, from that client
    response = stranger.post("/login/", {"username": "victim", "password": PASSWORD})
    assert b"Too many tries" in response.content
    assert not _log_in(_browser(PROXY, STRANGER))  # a fresh browser at the same address too


def test_a_stranger_cannot_borrow_the_organisers_address_by_writing_the_header(victim, settings):
    """The client may send X-Forwarded-For itself; our proxy appends the
    address it really came from, and only that entry is read."""
    settings.TRUSTED_PROXY_COUNT = 1
    stranger = _browser(PROXY, f"{ORGANISER_HOME}, {STRANGER}")
    _guess(stranger, 5)
    assert not _log_in(stranger)
    assert _log_in(_browser(PROXY, ORGANISER_HOME))


def test_without_the_setting_the_header_is_ignored(victim, settings):
    """No proxy: a client writing any X-Forwarded-For is still its own
    address, so changing the header does not buy it more guesses."""
    settings.TRUSTED_PROXY_COUNT = 0
    _guess(_browser(STRANGER, "192.0.2.1"), 5)
    assert not _log_in(_browser(STRANGER, "192.0.2.77"))
    assert _log_in(_browser(ORGANISER_HOME, STRANGER))


@pytest.mark.parametrize(
    ("count", "remote", "forwarded", "expected"),
    [
        (0, "10.0.0.2", "198.51.100.9", "10.0.0.2"),  # off: the header is ignored
        (0, "10.0.0.2", None, "10.0.0.2"),
        (1, "10.0.0.2", "198.51.100.9", "198.51.100.9"),
        (1, "10.0.0.2", "203.0.113.5, 198.51.100.9", "198.51.100.9"),  # the client's own entry is skipped
        (2, "10.0.0.3", "203.0.113.5, 198.51.100.9, 10.0.0.2", "198.51.100.9"),  # CDN then nginx
        (2, "10.0.0.2", "198.51.100.9", "10.0.0.2"),  # fewer hops than proxies: not through ours
        (1, "10.0.0.2", None, "10.0.0.2"),
        (1, "10.0.0.2", "", "10.0.0.2"),
        (1, "10.0.0.2", "not-an-address", "10.0.0.2"),
        (1, "10.0.0.2", "198.51.100.9:51234", "198.51.100.9"),
        (1, "10.0.0.2", "[2001:db8::7]:443", "2001:db8::7"),
        (1, "10.0.0.2", " 2001:DB8::7 ", "2001:db8::7"),
    ],
)
def test_the_client_address(settings, count, remote, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = count
    headers = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    assert client_ip(RequestFactory().get("/", **headers)) == expected
