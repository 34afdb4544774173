"""HTTP details of the score sheet: 404s, 405s, junk of every kind as a 4xx
that writes nothing, what a write must say it was based on, and query
counts that do not grow with the match."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.models import Hand, Match

from ..conftest import (
    D5,
    HX,
    S1,
    basis,
    snapshot,
    text_of,
)
from .page_helpers import (
    HAND_POST,
    url,
)

pytestmark = pytest.mark.django_db


# ======================================================================
# HTTP details


def test_the_sheet_varies_on_the_htmx_header(web, owned):
    match = owned("spades")
    response = web.get(url("match", match))
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize(
    ("name", "method", "args"),
    [
        ("match", "get", ()),
        ("record_hand", "post", ()),
        ("save_bids", "post", ()),
        ("preview", "post", ()),
        ("undo_hand", "get", ()),
        ("edit_hand", "get", (1,)),
    ],
)
def test_an_unknown_match_is_404(web, name, method, args):
    path = reverse(name, args=[999_999, *args])
    for match_id in ("999999", "99999999999999999999"):  # the second is beyond a 64-bit id
        response = getattr(web, method)(path.replace("999999", match_id, 1))
        assert response.status_code == 404


@pytest.mark.parametrize("name", ["record_hand", "save_bids", "preview"])
def test_get_on_a_post_only_endpoint_is_405(web, owned, name):
    match = owned("spades")
    assert web.get(url(name, match)).status_code == 405


def test_get_on_a_match_action_is_405_and_changes_nothing(web, owned):
    match = owned("spades")
    assert web.get(url("match_action", match, "abandon")).status_code == 405
    assert Match.objects.get(pk=match.pk).status == "in_progress"


JUNK = {
    "spades": [
        {"bids_0": "seven", "bids_1": "4", "tricks_0": "8", "tricks_1": "5"},
        {"bids_0": "7", "bids_1": "4", "tricks_0": "8" * 10_000, "tricks_1": "5"},
        {"bids_0": "7", "bids_1": "4", "tricks_0": "8"},
        {},
    ],
    "ohhell": [
        {f"bids_{i}": "x" for i in range(4)} | {f"tricks_{i}": "0" for i in range(4)},
        {f"bids_{i}": "blind_nil" for i in range(4)} | {f"tricks_{i}": "0" for i in range(4)},
        {f"bids_{i}": "0" for i in range(4)},
    ],
    "drawbridge": [
        {"declarer": "0", "level": "high", "strain": "NT", "tricks": "9"},
        {"declarer": "0", "level": "3", "strain": "Z" * 10_000, "tricks": "9"},
        {"declarer": "0", "level": "3", "strain": "NT"},
        {"passed_out": "maybe"},
    ],
    "sixtysix": [
        {"end": "out", "player": "0", "points_0": "lots", "points_1": "38", "opponent_took_trick": "yes"},
        {"end": "bogus", "player": "0", "points_0": "71", "points_1": "38", "opponent_took_trick": "yes"},
        {"end": "out", "player": "0", "points_0": "71", "points_1": "38", "opponent_took_trick": "maybe"},
        {"end": "out", "player": "Ann", "points_0": "71", "points_1": "38", "opponent_took_trick": "yes"},
        {"end": "out"},
    ],
}
# Every other case is sent as an htmx request.
JUNK_CASES = [(game, i, bool(i % 2)) for game, cases in JUNK.items() for i in range(len(cases))]


@pytest.mark.parametrize(("game", "case", "htmx"), JUNK_CASES)
def test_junk_in_a_hand_is_a_422_never_a_500(web, owned, game, case, htmx):
    match = owned(game)
    before = snapshot(match)
    web.raise_request_exception = False
    response = web.post(
        url("record_hand", match), {**JUNK[game][case], **basis(match, number="1")}, **(HX if htmx else {})
    )
    assert response.status_code == 422
    assert snapshot(match) == before


@pytest.mark.parametrize("game", ["spades", "ohhell", "drawbridge"])
def test_junk_bids_are_a_422(web, owned, game):
    match = owned(game)
    before = snapshot(match)
    web.raise_request_exception = False
    data = {"bids_0": "x" * 10_000, "bids_1": "?", "declarer": "me", "level": "", "strain": "NT"}
    response = web.post(url("save_bids", match), {**data, **basis(match)})
    assert response.status_code == 422
    assert snapshot(match) == before


JUNK_BASIS = ["abc", "9" * 10_000, "", "-3", "0", "٣", "1_0", "１"]


# What each hidden field must not be (None: left out of the form).
JUNK_FIELDS = [
    *(("number", junk) for junk in [*JUNK_BASIS, None]),
    *(("bidding", junk) for junk in ["{", "[4, 5]", '"none"', "x" * 10_000, "", None]),
    *(("client_key", junk) for junk in ["", "k" * 65, "٣", "a b", "<script>", None]),
]


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("field", "junk"), JUNK_FIELDS)
def test_a_hand_without_what_it_was_based_on_is_a_400_and_writes_nothing(web, owned, field, junk, htmx):
    """A hand number, bids in force or one-time key that is missing or junk
    is refused in words, never taken as "no check"."""
    data, _entry, _totals = HAND_POST["spades"]
    match = owned("spades")
    before = snapshot(match)
    form = {**data, **basis(match, **{field: junk})}
    if junk is None:
        del form[field]
    response = web.post(url("record_hand", match), form, **(HX if htmx else {}))
    assert response.status_code == 400
    assert "Nothing was saved" in response.content.decode()
    assert "Reload the page" in response.content.decode()
    assert snapshot(match) == before


@pytest.mark.parametrize("junk", [*JUNK_BASIS, None])
def test_bids_without_what_they_were_based_on_are_a_400(web, owned, junk):
    match = owned("spades")
    before = snapshot(match)
    form = {"bids_0": "4", "bids_1": "5", **basis(match, number=junk)}
    if junk is None:
        del form["number"]
    assert web.post(url("save_bids", match), form).status_code == 400
    assert web.post(url("save_bids", match), {**form, **basis(match), "bidding": "[4, 5]"}).status_code == 400
    assert snapshot(match) == before


@pytest.mark.parametrize("junk", [*JUNK_BASIS, None])
def test_an_edit_or_undo_without_a_version_is_a_400(web, owned, junk):
    match = owned("spades", hands=S1)
    before = snapshot(match)
    data = {"bids_0": "7", "bids_1": "4", "tricks_0": "7", "tricks_1": "6"}
    version = {} if junk is None else {"version": junk}
    assert web.post(url("edit_hand", match, 1), {**data, **version}).status_code == 400
    assert web.post(url("undo_hand", match), version).status_code == 400
    assert snapshot(match) == before


def test_a_visitor_without_rights_cannot_score(client, owned):
    match = owned("spades")
    page = text_of(client.get(url("match", match)))
    assert 'id="entry-form"' not in page
    response = client.post(url("record_hand", match), {**HAND_POST["spades"][0], **basis(match, number="1")})
    assert response.status_code == 403
    assert not Hand.objects.exists()


# ======================================================================
# Query counts do not grow with the size of a match or of the lists


def count_queries(web, path) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = web.get(path)
    assert response.status_code == 200
    return len(queries)


def test_score_sheet_queries_do_not_grow_with_the_hands(web, owned, django_assert_max_num_queries):
    # target 10,000 keeps S1 hands going for 30 hands.
    small = owned("spades", options={"target": 10_000}, hands=S1 * 3)
    large = owned("spades", options={"target": 10_000}, hands=S1 * 30)
    assert Match.objects.get(pk=large.pk).hands_played == 30
    web.get(url("match", small))  # warm up the session
    small_count = count_queries(web, url("match", small))
    large_count = count_queries(web, url("match", large))
    assert large_count == small_count
    with django_assert_max_num_queries(small_count):
        web.get(url("match", large))


def test_score_sheet_htmx_write_queries_do_not_grow_with_the_hands(web, owned):
    counts = []
    for hands in (3, 30):
        match = owned("spades", options={"target": 10_000}, hands=S1 * hands)
        data = {**HAND_POST["spades"][0], **basis(match, number=str(hands + 1))}
        with CaptureQueriesContext(connection) as queries:
            response = web.post(url("record_hand", match), data, **HX)
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_home_queries_do_not_grow_with_the_matches(web, owned, django_assert_max_num_queries):
    def make(n):
        for i in range(n):
            if i % 2:
                owned("drawbridge", names=[f"P{i}a", f"P{i}b"], options={"target": 200}, hands=[D5])
            else:
                owned("spades", names=[f"P{i}a", f"P{i}b"], hands=S1)

    make(2)
    web.get(reverse("home"))
    two = count_queries(web, reverse("home"))
    make(18)
    assert Match.objects.count() == 20
    twenty = count_queries(web, reverse("home"))
    assert twenty == two
    with django_assert_max_num_queries(two):
        web.get(reverse("home"))
