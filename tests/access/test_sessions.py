"""An organiser's login ends after a working day unused (SESSION_COOKIE_AGE,
12 hours by default); every request within it starts the day again (the
session is saved anew at most every SESSION_REFRESH_SECONDS, not on every
poll). A table device's right to score is its own signed cookie and lasts
a month, whatever the sessions do."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone

from scorekeeper.access.services import issue_link
from scorekeeper.audit import SYSTEM

from ..conftest import MODEL_BACKEND, basis

pytestmark = pytest.mark.django_db

HOUR = dt.timedelta(hours=1)


@pytest.fixture
def clock(monkeypatch):
    """clock.move(hours=...): the server's time, as the sessions read it."""
    real_now = timezone.now

    class Clock:
        offset = dt.timedelta()

        def move(self, **delta):
            self.offset += dt.timedelta(**delta)

    c = Clock()
    monkeypatch.setattr(timezone, "now", lambda: real_now() + c.offset)
    return c


def _logged_in(client) -> bool:
    response = client.get("/players/")
    return response.status_code == 200


def test_the_settings(settings):
    assert settings.SESSION_COOKIE_AGE == 12 * 3600
    assert settings.SCORING_GRANT_AGE == 30 * 24 * 3600
    assert not settings.SESSION_EXPIRE_AT_BROWSER_CLOSE


def test_an_organiser_idle_for_more_than_a_working_day_must_log_in_again(client, organiser, clock):
    client.force_login(organiser, backend=MODEL_BACKEND)
    assert _logged_in(client)
    clock.move(hours=13)
    assert not _logged_in(client)
    assert client.get("/players/")["Location"].startswith("/login/")


def test_an_organiser_at_work_stays_logged_in(client, organiser, clock):
    """Every request within the day starts it again: a 30-hour event with
    a request every few hours never asks for the password."""
    client.force_login(organiser, backend=MODEL_BACKEND)
    for _ in range(10):
        clock.move(hours=3)
        assert _logged_in(client)
    clock.move(hours=11)
    assert _logged_in(client)
    clock.move(hours=12, minutes=1)
    assert not _logged_in(client)


def test_the_session_is_saved_again_at_most_every_few_minutes(client, organiser, clock, settings):
    client.force_login(organiser, backend=MODEL_BACKEND)
    client.get("/players/")
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    first = Session.objects.get(session_key=key).expire_date
    assert abs(first - (timezone.now() + 12 * HOUR)) < dt.timedelta(minutes=1)
    clock.move(minutes=2)
    response = client.get("/players/")
    assert settings.SESSION_COOKIE_NAME not in response.cookies  # not saved: nothing new to say
    assert Session.objects.get(session_key=key).expire_date == first
    clock.move(minutes=4)
    response = client.get("/players/")
    assert response.cookies[settings.SESSION_COOKIE_NAME]["max-age"] == 12 * 3600
    moved = Session.objects.get(session_key=key).expire_date - first
    assert dt.timedelta(minutes=6) <= moved < dt.timedelta(minutes=6, seconds=30)


def test_a_table_device_keeps_its_month_long_right(client, make_match, clock):
    match = make_match("spades")
    _link, token = issue_link(match_id=match.pk, label="table", actor=SYSTEM)
    response = client.post(f"/l/{token}/")
    assert response.cookies["scoring_links"]["max-age"] == 30 * 24 * 3600
    clock.move(hours=13)  # an organiser's session would be over
    form = {"bids_0": "4", "bids_1": "5", "tricks_0": "6", "tricks_1": "7", **basis(match)}
    assert client.post(f"/matches/{match.pk}/hands/", form).status_code == 302
