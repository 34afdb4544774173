"""Shared fixtures and helpers for the app tests (models, services, views).

Matches are always built through the services, the way the app builds
them, so the cached totals and versions are real. Every expected score in
the tests is worked out from docs/rules.md, never copied from the
engine's output.
"""

from __future__ import annotations

import html
import os
import re
import uuid
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.core.cache import cache, caches
from django.db import connection
from django.utils import translation

from scorekeeper.audit import SYSTEM, Actor
from scorekeeper.matches import services
from scorekeeper.matches.forms import bidding_stamp
from scorekeeper.models import AuditEvent, Hand, Match

ON_SQLITE = connection.vendor == "sqlite"
ON_POSTGRES = connection.vendor == "postgresql"

DEFAULT_NAMES = {
    "spades": ["Ann", "Bob"],
    "drawbridge": ["Ann", "Bob"],
    "sixtysix": ["Ann", "Bob"],
    "ohhell": ["Ann", "Bob", "Cat", "Dan"],
    "partnership_spades": ["Ann", "Bob", "Cat", "Dan"],  # Ann & Cat against Bob & Dan
    "courtpiece": ["Ann", "Bob", "Cat", "Dan"],
}


# ------------------------------------------------------------ hand builders


def spades_hand(bids, tricks) -> dict:
    return {"bids": list(bids), "tricks": list(tricks)}


ohhell_hand = spades_hand


def contract(declarer, level, strain, tricks, double=None) -> dict:
    entry = {"declarer": declarer, "level": level, "strain": strain, "tricks": tricks}
    if double is not None:
        entry["double"] = double
    return entry


PASSED_OUT = {"passed_out": True}


def deal(end, player, points, took=True, at_close=None, claimed=None) -> dict:
    entry = {"end": end, "player": player, "points": list(points), "opponent_took_trick": took}
    if at_close is not None:
        entry["opponent_trick_at_close"] = at_close
    if claimed is not None:
        entry["opponent_claimed"] = claimed
    return entry


# RULES.md worked examples, as entered at the table.
S1 = [spades_hand([7, 4], [8, 5])]
S2 = [spades_hand([0, 5], [0, 13]), spades_hand(["blind_nil", 9], [1, 12])]
S3 = [
    spades_hand([4, 5], [7, 6]),
    spades_hand([3, 6], [6, 7]),
    spades_hand([4, 4], [9, 4]),
    spades_hand([6, 7], [4, 9]),
]
S4 = [spades_hand([5, 5], [7, 6]), spades_hand([5, 5], [6, 7]), spades_hand([4, 6], [5, 8])]
D1 = contract(0, 3, "NT", 9)
D2 = contract(1, 4, "S", 11, "double")
D3 = contract(0, 2, "H", 7, "redouble")
D4 = [PASSED_OUT, contract(1, 1, "C", 8)]
D5 = contract(0, 6, "NT", 12, "double")
X1 = deal("out", 0, [71, 38], True)
X2 = deal("out", 1, [25, 66], True)
X3 = deal("out", 0, [82, 0], False)
X4 = deal("out", 0, [58, 40], True)
X5 = deal("closed", 1, [34, 51], True, at_close=False)
X6 = [deal("played_out", 0, [75, 55], True), deal("played_out", 1, [65, 65], True)]
O1 = ohhell_hand([0, 1, 0, 0], [0, 1, 0, 0])
O3 = [ohhell_hand([0, 0, 1, 0], [0, 1, 0, 0]), ohhell_hand([2, 0, 0, 1], [1, 0, 0, 1])]
O5_PLAYERS = ["A", "B", "C", "D", "E", "F", "G"]
O5 = [
    ohhell_hand([0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 1]),
    ohhell_hand([1, 0, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0]),
    ohhell_hand([0, 1, 0, 1, 0, 0, 0], [0, 1, 0, 1, 0, 1, 0]),
    ohhell_hand([1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0, 1]),
    ohhell_hand([2, 0, 1, 1, 0, 0, 1], [2, 0, 1, 1, 0, 0, 1]),
    ohhell_hand([1, 1, 1, 1, 1, 0, 1], [1, 1, 1, 1, 1, 0, 1]),
    ohhell_hand([2, 1, 1, 1, 1, 0, 1], [1, 2, 1, 1, 1, 0, 1]),
]


# ----------------------------------------------------------------- fixtures


@pytest.fixture
def make_match(db):
    """make_match(game, names=None, options=None, hands=(), owner=None) -> a
    fresh Match started (owned by ``owner``) and played through the services."""

    def _make(game: str = "spades", names=None, options=None, hands=(), owner=None) -> Match:
        actor = Actor.organiser(owner) if owner else SYSTEM
        match = services.start_match(
            game=game, player_names=list(names or DEFAULT_NAMES[game]), options=options, actor=actor
        )
        for entry in hands:
            play(match, entry)
        match.refresh_from_db()
        return match

    return _make


# --------------------------------------------------------- people at the table

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def organiser(django_user_model):
    # No password: hashing one costs more time than a whole test.
    return django_user_model.objects.create_user(username="olga")


@pytest.fixture
def web(client, organiser):
    """A logged-in organiser's browser."""
    client.force_login(organiser, backend=MODEL_BACKEND)
    return client


@pytest.fixture
def owned(make_match, organiser):
    """owned(game, **kwargs): a match the logged-in organiser owns."""

    def _make(game, **kwargs):
        return make_match(game, owner=organiser, **kwargs)

    return _make


# ---------------------------------------------- writes, as a current page sends them


def play(match: Match, entry: dict, *, key: str | None = None, actor: Actor = SYSTEM) -> services.HandSaved:
    """Record the next hand from a page that shows the match as it is: the
    next hand's number and the bids in force."""
    now = Match.objects.get(pk=match.pk)
    return services.record_hand(
        match_id=match.pk,
        entry=entry,
        number=now.hands_played + 1,
        bidding_in_force=now.pending_bidding,
        client_key=key or uuid.uuid4().hex,
        actor=actor,
    )


def bid(match: Match, bidding: dict, *, actor: Actor = SYSTEM) -> Match:
    """Save the bids (or contract) of the next hand from a current page."""
    now = Match.objects.get(pk=match.pk)
    return services.save_bidding(
        match_id=match.pk,
        bidding=bidding,
        number=now.hands_played + 1,
        bidding_in_force=now.pending_bidding,
        actor=actor,
    )


def edit(match: Match, number: int, entry: dict, *, actor: Actor = SYSTEM) -> Match:
    version = Match.objects.get(pk=match.pk).version
    return services.edit_hand(match_id=match.pk, number=number, entry=entry, version=version, actor=actor)


def undo(match: Match, *, actor: Actor = SYSTEM) -> Match:
    version = Match.objects.get(pk=match.pk).version
    return services.undo_last_hand(match_id=match.pk, version=version, actor=actor)


def basis(match: Match, **changes) -> dict[str, str]:
    """The hidden fields of the entry form of a page drawn now (what a
    write from it says it was based on), for posting through the client."""
    now = Match.objects.get(pk=match.pk)
    fields = {
        "number": str(now.hands_played + 1),
        "bidding": bidding_stamp(now.pending_bidding),
        "client_key": uuid.uuid4().hex,
    }
    return {**fields, **changes}


# ------------------------------------------------------------------ helpers


def entries(match: Match) -> list[dict]:
    return list(Hand.objects.filter(match=match).order_by("number").values_list("entry", flat=True))


def snapshot(match: Match) -> dict:
    """Everything a write could change, to show that a refused write changed nothing."""
    match = Match.objects.get(pk=match.pk)
    return {
        "entries": entries(match),
        "numbers": list(Hand.objects.filter(match=match).order_by("number").values_list("number", flat=True)),
        "totals": match.totals,
        "winners": match.winners,
        "status": match.status,
        "hands_played": match.hands_played,
        "version": match.version,
        "pending": match.pending_bidding,
        "audit_events": AuditEvent.objects.filter(match=match).count(),
    }


def text_of(response) -> str:
    """The response body with HTML entities decoded (messages contain quotes)."""
    return html.unescape(response.content.decode())


def selected_option(page: str, name: str) -> str | None:
    """The value chosen for the number ``name`` (its chips: a radio group), or None."""
    assert re.search(rf'<input type="radio" name="{re.escape(name)}"', page), f"no chips named {name!r} on the page"
    return checked_radio(page, name)


def checked_radio(page: str, name: str) -> str | None:
    found = re.search(rf'<input type="radio" name="{re.escape(name)}" value="([^"]*)"[^>]*?\schecked', page)
    return found.group(1) if found else None


class _FormReader(HTMLParser):
    """What a browser without JavaScript would submit from one <form>."""

    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.depth = 0  # > 0 inside the form
        self.values: dict[str, str] = {}
        self.select: str | None = None
        self.first_option: str | None = None
        self.chosen: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == self.form_id:
            self.depth = 1
            return
        if not self.depth:
            return
        if tag == "form":
            self.depth += 1
        elif tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("radio", "checkbox"):
                if "checked" in a:
                    self.values[a["name"]] = a.get("value", "on")
            elif kind not in ("submit", "button"):
                self.values[a["name"]] = a.get("value", "")
        elif tag == "select":
            self.select, self.first_option, self.chosen = a.get("name"), None, None
        elif tag == "option" and self.select:
            value = a.get("value", "")
            if self.first_option is None:
                self.first_option = value
            if "selected" in a:
                self.chosen = value

    def handle_endtag(self, tag):
        if not self.depth:
            return
        if tag == "select" and self.select:
            self.values[self.select] = self.chosen if self.chosen is not None else (self.first_option or "")
            self.select = None
        elif tag == "form":
            self.depth -= 1


def form_values(page: str, form_id: str) -> dict[str, str]:
    """``page``: the HTML as sent (not unescaped: hidden values hold quotes)."""
    reader = _FormReader(form_id)
    reader.feed(page)
    assert reader.values, f"no form #{form_id} on the page"
    return reader.values


@pytest.fixture(autouse=True, scope="session")
def _own_cache_files(tmp_path_factory):
    """The file cache in a folder of this test run's own (not the app's .cache)."""
    if not os.environ.get("REDIS_URL"):
        settings.CACHES["default"]["LOCATION"] = str(tmp_path_factory.mktemp("cache"))
        settings.CACHES["polls"]["LOCATION"] = str(tmp_path_factory.mktemp("poll-cache"))


@pytest.fixture(autouse=True)
def _language_of_no_request():
    """A request in Urdu or Sindhi leaves its language active in the thread
    (LocaleMiddleware activates it; nothing deactivates it): the next test
    starts in the default language, as a new request would."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _standings_always_fresh(settings):
    """In production the standings are looked at every few seconds at most;
    tests look right after a change. Each test starts with an empty cache
    (ids repeat across tests)."""
    settings.STANDINGS_REFRESH_SECONDS = 0
    cache.clear()
    caches["polls"].clear()
    yield
    cache.clear()
    caches["polls"].clear()
