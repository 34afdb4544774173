"""Two phones on one match. Every write says what its page showed (the
hand number and the bids in force): a page that is out of date is refused
in plain words and changes nothing, with plain form posts (no JavaScript)
and with htmx alike. Expected scores are worked out from RULES.md."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scorekeeper.access.services import issue_link
from scorekeeper.audit import SYSTEM
from scorekeeper.models import Hand, Match

from ..conftest import HX, entries, form_values, snapshot, text_of

pytestmark = pytest.mark.django_db

# Per game: the bids phone B saves, the bids phone A tries from its old page,
# the tricks A enters once it shows B's bids, the hand stored, its points.
CASES = {
    # Ann bid 4 took 6: 40 + 2 bags; Bob bid 5 took 7: 50 + 2 bags.
    "spades": (
        {"bids_0": "4", "bids_1": "5"},
        {"bids_0": "2", "bids_1": "3"},
        {"tricks_0": "6", "tricks_1": "7"},
        {"bids": [4, 5], "tricks": [6, 7]},
        [42, 52],
    ),
    # Bob 4♠ doubled, 10 tricks: made exactly, 4 x 30 x 2 = 240.
    "drawbridge": (
        {"declarer": "1", "level": "4", "strain": "S", "double": "double"},
        {"declarer": "0", "level": "3", "strain": "NT", "double": "none"},
        {"tricks": "10"},
        {"declarer": 1, "level": 4, "strain": "S", "double": "double", "tricks": 10},
        [0, 240],
    ),
    # One card each; Cat bid 1 and takes the trick; everyone makes the bid: 10 + tricks.
    "ohhell": (
        {"bids_0": "0", "bids_1": "0", "bids_2": "1", "bids_3": "0"},
        {"bids_0": "1", "bids_1": "0", "bids_2": "0", "bids_3": "0"},
        {"tricks_0": "0", "tricks_1": "0", "tricks_2": "1", "tricks_3": "0"},
        {"bids": [0, 0, 1, 0], "tricks": [0, 0, 1, 0]},
        [10, 10, 11, 10],
    ),
}
GAMES = list(CASES)
# How the sheet shows B's bids in force, per game (names as the page has them).
IN_FORCE = {
    "spades": [("Bob", "5"), ("Ann", "4")],
    "drawbridge": "<b>Bob</b>: 4",
    "ohhell": [("Bob", "0"), ("Cat", "1"), ("Dan", "0"), ("Ann", "0")],
}


def phone_with_link(match: Match) -> Client:
    """A table device that opened the match's scoring link."""
    _link, token = issue_link(match_id=match.pk, label="table 3", actor=SYSTEM)
    phone = Client()
    phone.post(f"/l/{token}/")
    return phone


def entry_form(client: Client, match: Match) -> dict[str, str]:
    return form_values(client.get(match.get_absolute_url()).content.decode(), "entry-form")


def assert_shows_bids_in_force(page: str, game: str) -> None:
    box = re.search(r'<div class="bids-in-play">.*?</div>', page, re.S)
    if game == "ohhell":  # three players or more: each one's bid heads their tricks
        head = r'<legend>(\w+)(?: <span class="auto-note">[^<]*</span>)? <span class="head-bid">bid (\w+)<'
        heads = re.findall(head, page)
        assert heads == IN_FORCE[game], "the sheet does not show the bids in force"
        return
    assert box, "the sheet does not show the bids in force"
    if isinstance(IN_FORCE[game], str):
        assert IN_FORCE[game] in box.group(0)
    else:
        shown = re.findall(r'<span class="who">(\w+)</span> <b class="bid">([^<]+)</b>', box.group(0))
        assert shown == IN_FORCE[game]


def post(client, url, data, htmx):
    return client.post(url, data, **(HX if htmx else {}))


@pytest.mark.parametrize("htmx", [False, True], ids=["plain-form", "htmx"])
@pytest.mark.parametrize("game", GAMES)
def test_a_stale_page_cannot_overwrite_bids_or_enter_a_hand_on_other_bids(web, owned, game, htmx):
    theirs, mine, tricks, stored, points = CASES[game]
    match = owned(game)
    phone_a, phone_b = web, phone_with_link(match)
    page_a, page_b = entry_form(phone_a, match), entry_form(phone_b, match)
    record_url, bids_url = f"{match.get_absolute_url()}hands/", f"{match.get_absolute_url()}bids/"

    # Phone B saves its bids first.
    assert post(phone_b, bids_url, {**page_b, **theirs}, htmx).status_code in (200, 302)
    in_force = Match.objects.get(pk=match.pk).pending_bidding
    before = snapshot(match)

    # Phone A, still showing the page from before, saves other bids: refused.
    refused = post(phone_a, bids_url, {**page_a, **mine}, htmx)
    assert refused.status_code == 409
    words = text_of(refused)
    assert "table 3" in words and "a moment ago" in words
    assert "Nothing was changed" in words
    assert_shows_bids_in_force(refused.content.decode(), game)
    assert snapshot(match) == before

    # ... then enters the whole hand on its own bids: refused too, nothing stored.
    refused = post(phone_a, record_url, {**page_a, **mine, **tricks}, htmx)
    assert refused.status_code == 409
    assert_shows_bids_in_force(refused.content.decode(), game)
    assert snapshot(match) == before
    assert Match.objects.get(pk=match.pk).pending_bidding == in_force

    # The page it now shows carries B's bids: the tricks complete B's hand, once.
    fresh_a = entry_form(phone_a, match)
    saved = post(phone_a, record_url, {**fresh_a, **tricks}, htmx)
    assert saved.status_code in (200, 302)
    again = post(phone_a, record_url, {**fresh_a, **tricks}, htmx)  # a second tap
    assert "already saved" in text_of(again if htmx else phone_a.get(match.get_absolute_url()))
    assert entries(match) == [stored]
    assert Hand.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).totals == points


@pytest.mark.parametrize("htmx", [False, True], ids=["plain-form", "htmx"])
def test_a_second_device_entering_the_same_hand_is_told_and_stores_nothing(web, owned, htmx):
    theirs, _mine, tricks, stored, _points = CASES["spades"]
    match = owned("spades")
    phone_a, phone_b = web, phone_with_link(match)
    page_a, page_b = entry_form(phone_a, match), entry_form(phone_b, match)
    record_url = f"{match.get_absolute_url()}hands/"
    assert post(phone_b, record_url, {**page_b, **theirs, **tricks}, htmx).status_code in (200, 302)
    before = snapshot(match)
    refused = post(phone_a, record_url, {**page_a, **theirs, **tricks}, htmx)
    assert refused.status_code == 409
    assert "Hand 1 was already saved from another device" in text_of(refused)
    assert snapshot(match) == before
    assert entries(match) == [stored]
    # The form it now shows is for hand 2, empty.
    assert form_values(refused.content.decode(), "entry-form")["number"] == "2"
