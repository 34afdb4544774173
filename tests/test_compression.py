"""HTML answers travel gzip-compressed to a browser that takes it
(GZipMiddleware, README "What an answer costs on the way"): a quarter of
the bytes for a slow phone. A 304 and the standings' poll (compressed once
by its view for every screen) are sent as they are."""

from __future__ import annotations

import gzip

import pytest
from django.test import Client
from django.urls import reverse

from .conftest import HX
from .tournaments.helpers import make, publish_next

pytestmark = pytest.mark.django_db
GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def test_a_sheet_goes_out_compressed_and_reads_the_same(make_match):
    match = make_match("spades", hands=[{"bids": [4, 5], "tricks": [6, 7]}])
    url = reverse("match", args=[match.pk])
    plain = Client().get(url)
    packed = Client().get(url, **GZIP)
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    page = gzip.decompress(packed.content).decode()
    assert 'id="totals"' in page and "Ann" in page
    assert len(packed.content) < len(plain.content) / 2


def test_a_304_and_the_standings_poll_are_sent_as_they_are(organiser, make_match, settings):
    match = make_match("spades")
    url = reverse("match_changed", args=[match.pk])
    unchanged = Client().get(url, HTTP_IF_NONE_MATCH=f'"{match.version}-en"', **HX, **GZIP)
    assert unchanged.status_code == 304 and "Content-Encoding" not in unchanged
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"])
    publish_next(t, organiser)
    poll = Client().get(f"/tournaments/{t.pk}/standings/", **HX, **GZIP)
    assert poll["Content-Encoding"] == "gzip"
    assert "standings-live" in gzip.decompress(poll.content).decode()  # compressed once, not twice
