"""The queries of the hot path, counted and pinned, at every game and at a
tournament table (issue 26): a write reads the match once under its lock
(with its table) and its answer is drawn from what the write holds; no
template runs a query (``no_query_in_templates`` makes one an error).

Each pin is the sum of what the queries are for, so that a new query fails
here with the SQL listed. The test client's transaction adds a SAVEPOINT
and its RELEASE around each write (``SAVEPOINT``)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.db import connection
from django.template.backends.django import Template
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.models import Match

from ..conftest import HX, basis
from ..tournaments.helpers import device_for, make, publish_next, tables_of
from .page_helpers import HAND_POST

SAVEPOINT = 2
SHEET = 2  # the match with its table, round and tournament; its hands
HANDS = 1  # a match's hands, once its row is read
LOCKED = 2  # the same, under the write's lock
HAND_WRITTEN = 3  # the hand, the match's new result, the audit event
BIDS_WRITTEN = 2  # the match's pending bids, the audit event
POLL = 1  # the match with its table, round and tournament: its version and its round's clock
# Who asks, on a page (``reader``) and before a write (``access``):
ORGANISER = {"reader": 2, "access": 3}  # session, user; and the match (its owner or co-organisers)
DEVICE = {"reader": 1, "access": 1}  # the link with its match


FORMS = {
    "spades": {"bids_0": "3", "bids_1": "4"},
    "ohhell": {"bids_0": "0", "bids_1": "1", "bids_2": "0", "bids_3": "0"},
    "drawbridge": {"declarer": "0", "level": "3", "strain": "NT", "double": "none"},
    "partnership_spades": {"bids_0": "3", "bids_1": "4", "bids_2": "2", "bids_3": "4"},
    "courtpiece": {"trumps": "H"},
}


@pytest.fixture(autouse=True)
def no_query_in_templates(monkeypatch):
    """A query while a template renders fails the test: every value a page
    shows is read before it is drawn."""
    rendering = []

    def refuse(execute, sql, params, many, context):
        if rendering:
            raise AssertionError(f"a template ran a query: {sql[:200]}")
        return execute(sql, params, many, context)

    original = Template.render

    def render(self, *args, **kwargs):
        rendering.append(self.origin.name if self.origin else "?")
        try:
            return original(self, *args, **kwargs)
        finally:
            rendering.pop()

    monkeypatch.setattr(Template, "render", render)
    with connection.execute_wrapper(refuse):
        yield


@contextmanager
def pinned(what: str, expected: int):
    with CaptureQueriesContext(connection) as captured:
        yield
    sql = [q["sql"][:160] for q in captured.captured_queries]
    listed = "\n  ".join(sql)
    assert len(sql) == expected, f"{what}: {len(sql)} queries, pinned at {expected}:\n  {listed}"


def url(name: str, match: Match) -> str:
    return reverse(name, kwargs={"match_id": match.pk})


def hot_path(client, match: Match, game: str, *, reader: int, access: int, table: bool) -> None:
    """The sheet, the bids, a hand, both polls and an undo, each pinned."""
    post, before = HAND_POST[game][0], match.hands_played
    client.get(url("match", match))  # the session's first use
    with pinned("sheet", SHEET + reader):
        assert client.get(url("match", match)).status_code == 200
    with pinned("sheet, htmx", SHEET + reader):
        assert client.get(url("match", match), **HX).status_code == 200
    if game in FORMS:
        form = {**FORMS[game], **basis(match)}
        with pinned("save bids", access + SAVEPOINT + LOCKED + BIDS_WRITTEN):
            response = client.post(url("save_bids", match), form, **HX)
        assert response.status_code == 200 and Match.objects.get(pk=match.pk).pending_bidding
    form = {**post, **basis(match)}
    with pinned("save a hand", access + SAVEPOINT + LOCKED + HAND_WRITTEN):
        response = client.post(url("record_hand", match), form, **HX)
    assert response.status_code == 200 and Match.objects.get(pk=match.pk).hands_played == before + 1
    tag = client.get(url("match_changed", match), **HX)["ETag"]
    # A device's unchanged poll is answered from the cache (scorekeeper/polls.py); a login's goes to the view.
    with pinned("unchanged poll", 0 if table else POLL + reader):
        assert client.get(url("match_changed", match), HTTP_IF_NONE_MATCH=tag, **HX).status_code == 304
    stale = f'"1{"/" if table else ""}-en"'
    with pinned("changed poll", POLL + HANDS + reader):
        assert client.get(url("match_changed", match), HTTP_IF_NONE_MATCH=stale, **HX).status_code == 200
    form = {"version": str(Match.objects.get(pk=match.pk).version)}
    # Undo reads the sheet first (what the page may undo), then writes.
    with pinned("undo", access + SHEET + SAVEPOINT + LOCKED + HAND_WRITTEN):
        assert client.post(url("undo_hand", match), form, **HX).status_code == 204


@pytest.mark.parametrize("game", ["spades", "ohhell", "drawbridge", "sixtysix", "partnership_spades", "courtpiece"])
def test_an_organisers_sheet_and_its_writes(web, owned, game):
    # A sheet with hands on it (Oh Hell's form below is hand 1's: one card each).
    match = owned(game, hands=[] if game in ("ohhell", "courtpiece") else [HAND_POST[game][1]] * 2)
    hot_path(web, match, game, **ORGANISER, table=False)


def test_a_tournament_tables_device(organiser):
    tournament = make(organiser, [f"P{i}" for i in range(4)])
    table = tables_of(publish_next(tournament, organiser))[0]
    hot_path(device_for(table), table.match, "spades", **DEVICE, table=True)
