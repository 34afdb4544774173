"""One kind of refusal, one renderer (issue 26): every kind of
``errors.Refusal`` is answered by ``answers.refusal`` with its status and
its words, the same way for htmx, a browser's full page and a plain
client, and declared in HX-Trigger for the scripts; the views' refusals go
through it (a stranger's write, a device whose table has ended, a damaged
form)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.fallback import FallbackStorage
from django.test import Client, RequestFactory
from django_htmx.middleware import HtmxDetails

from scorekeeper.answers import ANSWER_EVENT, refusal
from scorekeeper.errors import Refusal
from scorekeeper.models import Hand, Match

from .conftest import HX, basis

STATUS = {  # the README's table of refusals, not the code's
    "invalid": 422,
    "conflict": 409,
    "bids_changed": 409,
    "closed": 409,
    "state": 409,
    "locked": 403,
    "forbidden": 403,
    "not_found": 404,
    "malformed": 400,
}
READERS = {
    "htmx": {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT": "*/*"},
    "page": {"HTTP_ACCEPT": "text/html,application/xhtml+xml,*/*;q=0.8"},  # a browser without JavaScript
    "plain": {"HTTP_ACCEPT": "text/plain"},
}


def asked(reader: str):
    request = RequestFactory().post("/somewhere/", **READERS[reader])
    request.htmx = HtmxDetails(request)
    request.user = AnonymousUser()
    request.session = {}
    request._messages = FallbackStorage(request)
    return request


def declared(response) -> dict:
    return json.loads(response["HX-Trigger"])[ANSWER_EVENT]


def test_every_kind_has_its_status():
    assert {kind.value: kind.status for kind in Refusal} == STATUS


@pytest.mark.parametrize("kind", list(Refusal))
def test_every_kind_is_answered_the_same_way_for_every_reader(kind, db):
    words = f"Nothing was saved: the {kind.value} words, <plain> & clear."
    answers = {reader: refusal(asked(reader), kind, words) for reader in READERS}
    for reader, response in answers.items():
        assert response.status_code == kind.status, reader
        assert declared(response) == {"outcome": "refused", "words": words}, reader
    # htmx and a plain client read the words as they are; a browser reads them on a page, escaped.
    for reader in ("htmx", "plain"):
        assert answers[reader]["Content-Type"] == "text/plain; charset=utf-8"
        assert answers[reader].content.decode() == words
    page = answers["page"]
    if kind == Refusal.MALFORMED:  # a damaged form is answered in words only, as Django's own 400s
        assert page.content.decode() == words
    else:
        text = page.content.decode()
        assert page["Content-Type"].startswith("text/html") and "<h1>" in text
        assert f"the {kind.value} words, &lt;plain&gt; &amp; clear." in text
        assert ("Not allowed" in text) is (kind.status == 403)


@pytest.mark.parametrize("reader", list(READERS))
def test_the_views_refusals_go_through_it(web, owned, reader):
    headers = READERS[reader]
    # A stranger's write: forbidden, nothing saved.
    match = owned("spades")
    form = {"bids_0": "3", "bids_1": "4", **basis(match)}
    stranger = Client().post(f"/matches/{match.pk}/bids/", form, **headers)
    assert stranger.status_code == 403 and declared(stranger)["outcome"] == "refused"
    assert "scoring link" in stranger.content.decode()
    assert Match.objects.get(pk=match.pk).pending_bidding is None
    # A damaged form (no hand number): 400 in words, nothing saved.
    damaged = web.post(f"/matches/{match.pk}/bids/", {"bids_0": "3", "bids_1": "4"}, **headers)
    assert damaged.status_code == 400 and damaged.content.decode().startswith("Nothing was saved")
    assert declared(damaged)["words"] == damaged.content.decode()
    # Nothing to undo, for htmx: a conflict in words.
    if reader == "htmx":
        undo = web.post(f"/matches/{match.pk}/undo/", {"version": str(match.version)}, **HX)
        assert undo.status_code == 409 and undo.content.decode() == "There is no hand to undo."
    assert Hand.objects.filter(match=match).count() == 0
