"""Unchanged polls answered from the cache alone (scorekeeper/polls.py):
no query, no session, none of the middleware after it; a write makes the
next poll an answer with news, on this server or on another sharing the
cache; a cold cache falls through to the view, which fills it; a private
tournament's polls are never answered by the cache."""

from __future__ import annotations

import gzip
import re
from unittest import mock

import pytest
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.cache import caches
from django.db import connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.models import Match

from .conftest import HX, play, text_of
from .matches.page_helpers import totals_shown
from .tournaments.helpers import client_for, device_for, make, publish_next, spades_form, tables_of

pytestmark = pytest.mark.django_db
NAMES = ["Ann", "Bob", "Cat", "Dan"]


class NoQueries:
    """No SQL on any database connection, and the session never looked at
    (SessionMiddleware never even ran) inside the block."""

    def __enter__(self):
        self.captured = [CaptureQueriesContext(connections[alias]) for alias in connections]
        for context in self.captured:
            context.__enter__()
        self.sessions = mock.patch.object(SessionMiddleware, "process_request", side_effect=AssertionError("session"))
        self.sessions.__enter__()
        return self

    def __exit__(self, *exc):
        self.sessions.__exit__(*exc)
        for context in self.captured:
            context.__exit__(*exc)
        if exc[0] is None:
            queries = [q["sql"] for context in self.captured for q in context.captured_queries]
            assert queries == [], queries


def tag_of(page: str) -> str:
    """The ETag an open sheet's poll sends (its hx-headers)."""
    return re.search(r'"If-None-Match": "\\"([^\\]+)\\""', page).group(1)


def poll(client: Client, match_id: int, tag: str):
    return client.get(reverse("match_changed", args=[match_id]), HTTP_IF_NONE_MATCH=f'"{tag}"', **HX)


@pytest.fixture
def table(organiser):
    """A public tournament's table 1, playing, and a phone holding its link."""
    t = make(organiser, NAMES, round_minutes=30)
    first = tables_of(publish_next(t, organiser))[0]
    return t, first, device_for(first)


def test_an_unchanged_poll_touches_neither_the_database_nor_the_session(table):
    _t, first, phone = table
    tag = tag_of(text_of(phone.get(f"/matches/{first.match_id}/")))
    assert poll(phone, first.match_id, tag).status_code == 304  # the first poll fills the cache
    for client in (phone, Client()):  # the table's phone (its link's cookie) and a watcher
        with NoQueries():
            answer = poll(client, first.match_id, tag)
        assert answer.status_code == 304 and answer.content == b""
        assert answer["ETag"] == f'"{tag}"'
        assert "Content-Security-Policy" not in answer  # the middleware after the cache never ran


def test_the_caches_304_says_what_the_views_304_says(table):
    _t, first, phone = table
    tag = tag_of(text_of(phone.get(f"/matches/{first.match_id}/")))
    from_the_view = poll(phone, first.match_id, tag)  # nothing cached yet
    with NoQueries():
        from_the_cache = poll(phone, first.match_id, tag)
    assert from_the_view.status_code == from_the_cache.status_code == 304
    for header in ("ETag", "Cache-Control"):
        assert from_the_cache[header] == from_the_view[header]
    vary = lambda r: {v.strip() for v in r["Vary"].split(",")}  # noqa: E731
    assert vary(from_the_view) <= vary(from_the_cache) == {"HX-Request", "Cookie", "Accept-Language"}


def test_a_hand_saved_by_the_other_side_makes_the_next_poll_bring_it(table):
    _t, first, phone = table
    watcher = Client()
    page = text_of(watcher.get(f"/matches/{first.match_id}/"))
    tag = tag_of(page)
    assert poll(watcher, first.match_id, tag).status_code == 304
    # The table's phone saves hand 1 through the page: Ann 4 bid, took 5 (41); Bob 3 bid, took 8 (35).
    match = Match.objects.get(pk=first.match_id)
    saved = phone.post(f"/matches/{match.pk}/hands/", spades_form(match, [4, 3], [5, 8]), **HX)
    assert saved.status_code == 200
    with CaptureQueriesContext(connections["default"]) as queries:
        answer = poll(watcher, first.match_id, tag)
    assert answer.status_code == 200 and len(queries) > 0
    assert totals_shown(answer.content.decode()) == [41, 35]
    with NoQueries():  # and the answer's new tag is what the cache holds now
        assert poll(watcher, first.match_id, tag_of(text_of(answer))).status_code == 304
    # The phone that saved it: its answer carries the new tag, the cache agrees.
    with NoQueries():
        assert poll(phone, first.match_id, tag_of(text_of(saved))).status_code == 304


def test_a_cold_cache_falls_through_to_the_view_which_fills_it(table):
    _t, first, phone = table
    tag = tag_of(text_of(phone.get(f"/matches/{first.match_id}/")))
    poll(phone, first.match_id, tag)
    caches["polls"].clear()  # a new cache: Redis restarted, the cache folder emptied
    with CaptureQueriesContext(connections["default"]) as queries:
        assert poll(phone, first.match_id, tag).status_code == 304
    assert len(queries) == 1  # the view's one query
    with NoQueries():
        assert poll(phone, first.match_id, tag).status_code == 304


def test_two_servers_sharing_one_cache_share_the_tag(table, organiser):
    """Two app servers: two handlers (each client loads the middleware of its own) and one cache."""
    t, first, phone = table
    server_a, server_b = client_for(), client_for()
    tag = tag_of(text_of(server_b.get(f"/matches/{first.match_id}/")))
    assert poll(server_b, first.match_id, tag).status_code == 304
    # The round clock paused on server A (the organiser's press): B's next poll brings it.
    clock = client_for(organiser).post(
        f"/tournaments/{t.pk}/rounds/{first.round_id}/clock/", {"action": "pause", "clock": clock_stamp(first)}
    )
    assert clock.status_code == 302
    paused = poll(server_b, first.match_id, tag)
    assert paused.status_code == 200 and "Round clock paused" in text_of(paused)
    with NoQueries():
        assert poll(server_a, first.match_id, paused["ETag"].strip('"')).status_code == 304
    # A hand saved through server A: server B's next poll has it.
    match = Match.objects.get(pk=first.match_id)
    assert phone.post(f"/matches/{match.pk}/hands/", spades_form(match, [4, 3], [5, 8]), **HX).status_code == 200
    answer = poll(server_b, first.match_id, paused["ETag"].strip('"'))
    assert answer.status_code == 200 and totals_shown(answer.content.decode()) == [41, 35]


def clock_stamp(table) -> str:
    from scorekeeper.tournaments import selectors

    table.round.refresh_from_db()
    return selectors.clock_stamp(table.round)


def test_a_write_that_rolls_back_never_makes_a_wrong_304(table):
    _t, first, phone = table
    tag = tag_of(text_of(phone.get(f"/matches/{first.match_id}/")))
    poll(phone, first.match_id, tag)
    match = Match.objects.get(pk=first.match_id)
    with pytest.raises(RuntimeError), transaction.atomic():
        play(match, {"bids": [4, 3], "tricks": [5, 8]})  # the cache now holds its version...
        raise RuntimeError("the write fails before it commits")
    answer = poll(phone, first.match_id, tag)  # ...which no page shows: the view answers
    assert answer.status_code == 304
    # The next write that commits puts the cache right again.
    play(match, {"bids": [4, 3], "tricks": [5, 8]})
    answer = poll(phone, first.match_id, tag)
    assert answer.status_code == 200 and totals_shown(answer.content.decode()) == [41, 35]
    with NoQueries():
        assert poll(phone, first.match_id, tag_of(text_of(answer))).status_code == 304


def test_a_private_tournaments_table_is_never_answered_by_the_cache(organiser):
    t = make(organiser, NAMES, is_public=False)
    first = tables_of(publish_next(t, organiser))[0]
    phone = device_for(first)
    tag = tag_of(text_of(phone.get(f"/matches/{first.match_id}/")))
    play(Match.objects.get(pk=first.match_id), {"bids": [4, 3], "tricks": [5, 8]})  # the cache holds it
    answer = poll(phone, first.match_id, tag)
    tag = answer["ETag"].strip('"')
    with CaptureQueriesContext(connections["default"]) as queries:
        assert poll(phone, first.match_id, tag).status_code == 304  # the table's phone, checked by the view
    assert len(queries) > 0
    stranger = Client()
    refused = poll(stranger, first.match_id, tag)  # the right tag, sent by someone without the link
    assert refused.status_code == 403 and "ETag" not in refused


def test_the_standings_poll_is_answered_by_the_cache_while_the_generation_is_fresh(organiser, settings):
    settings.STANDINGS_REFRESH_SECONDS = 60
    t = make(organiser, NAMES)
    first = tables_of(publish_next(t, organiser))[0]
    screen = Client()
    url = f"/tournaments/{t.pk}/standings/"
    drawn = screen.get(url, **HX)
    etag = drawn["ETag"]
    from_the_view = screen.get(url, HTTP_IF_NONE_MATCH=etag, **HX)
    with NoQueries():
        from_the_cache = screen.get(url, HTTP_IF_NONE_MATCH=etag, **HX)
    assert from_the_view.status_code == from_the_cache.status_code == 304
    assert screen.get(url + "?big=1", HTTP_IF_NONE_MATCH=etag, **HX).status_code == 200  # the big screen's drawing
    for header in ("ETag", "Cache-Control", "Vary"):
        assert from_the_cache[header] == from_the_view[header]
    # A hand saved: within the refresh time the cache still answers (as the view did before);
    # once the refresh time is over the view looks again and brings it.
    play(first.match, {"bids": [4, 3], "tricks": [5, 8]})
    assert screen.get(url, HTTP_IF_NONE_MATCH=etag, **HX).status_code == 304
    settings.STANDINGS_REFRESH_SECONDS = 0
    moved = screen.get(url, HTTP_IF_NONE_MATCH=etag, **HX)
    assert moved.status_code == 200 and moved["ETag"] != etag


def test_a_screen_behind_gets_the_newer_standings_from_the_cache_as_the_view_sends_them(organiser, settings):
    """While some table saves a hand every moment each screen's poll finds
    newer standings: their answer, drawn and compressed once per generation,
    comes from the cache alone, the same bytes and headers as from the view."""
    settings.STANDINGS_REFRESH_SECONDS = 60
    t = make(organiser, NAMES)
    first = tables_of(publish_next(t, organiser))[0]
    play(first.match, {"bids": [4, 3], "tricks": [5, 8]})
    url = f"/tournaments/{t.pk}/standings/"
    older = '"0.0.0-0-en"'  # what a screen drawn before that hand shows
    gzip_ok = {"HTTP_ACCEPT_ENCODING": "gzip, deflate", **HX}
    # The organiser's poll (a session) always goes to the view: it draws this generation's answer.
    from_the_view = client_for(organiser).get(url, HTTP_IF_NONE_MATCH=older, **gzip_ok)
    with NoQueries():
        from_the_cache = Client().get(url, HTTP_IF_NONE_MATCH=older, **gzip_ok)
    assert from_the_view.status_code == from_the_cache.status_code == 200
    assert from_the_cache.content == from_the_view.content and from_the_cache["Content-Encoding"] == "gzip"
    vary = lambda r: {v.strip() for v in r["Vary"].split(",")}  # noqa: E731
    assert vary(from_the_cache) == vary(from_the_view)
    for header in ("ETag", "Cache-Control", "Content-Type", "Content-Length", "Content-Language", "X-Frame-Options",
                   "Content-Security-Policy"):  # fmt: skip
        assert from_the_cache[header] == from_the_view[header], header
    # Its tag is the current one: the screen's next poll is a 304, from the cache too.
    with NoQueries():
        assert Client().get(url, HTTP_IF_NONE_MATCH=from_the_cache["ETag"], **gzip_ok).status_code == 304
    # A client that takes no gzip gets the same standings unpacked; the table's own words are in it.
    plain = Client().get(url, HTTP_IF_NONE_MATCH=older, **HX)
    assert plain.status_code == 200 and "Content-Encoding" not in plain
    assert gzip.decompress(from_the_cache.content) == plain.content and b"Ann" in plain.content


def test_a_private_tournaments_standings_are_never_answered_by_the_cache(organiser, settings):
    settings.STANDINGS_REFRESH_SECONDS = 60
    t = make(organiser, NAMES, is_public=False)
    publish_next(t, organiser)
    url = f"/tournaments/{t.pk}/standings/"
    etag = client_for(organiser).get(url, **HX)["ETag"]
    refused = Client().get(url, HTTP_IF_NONE_MATCH=etag, **HX)
    assert refused.status_code == 403


def test_a_host_not_allowed_is_refused_even_when_the_cache_could_answer(table):
    _t, first, phone = table
    tag = tag_of(text_of(phone.get(f"/matches/{first.match_id}/")))
    assert poll(phone, first.match_id, tag).status_code == 304
    url = reverse("match_changed", args=[first.match_id])
    assert phone.get(url, HTTP_IF_NONE_MATCH=f'"{tag}"', HTTP_HOST="evil.example", **HX).status_code == 400
