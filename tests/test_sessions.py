"""The session store reads Django's session table with its own SQL: it must
find exactly what Django's own store would."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone

from scorekeeper.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_a_saved_session_is_loaded_again():
    store = SessionStore()
    store["scoring_links"] = [7, 9]
    store.save()
    again = SessionStore(session_key=store.session_key)
    assert again["scoring_links"] == [7, 9]
    assert again.session_key == store.session_key


def test_an_expired_session_is_not_loaded():
    store = SessionStore()
    store["scoring_links"] = [7]
    store.save()
    Session.objects.filter(session_key=store.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    again = SessionStore(session_key=store.session_key)
    assert again.get("scoring_links") is None
    assert again.session_key is None  # a new session will be made, as Django does


def test_an_unknown_session_key_is_a_new_empty_session():
    again = SessionStore(session_key="x" * 32)
    assert dict(again.items()) == {}
    assert again.session_key is None
