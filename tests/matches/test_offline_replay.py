"""What the phone's offline queue sends later (static/js/offline/): the
same posts as the pages, with the htmx header. A refused edit or undo is
answered in words with its status, so the phone can show it next to its own
version, and nothing waits in the messages for another page."""

from __future__ import annotations

import pytest

from scorekeeper.models import Match

from ..conftest import HX, S1, basis, play, snapshot

pytestmark = pytest.mark.django_db


def test_a_replayed_edit_refused_says_so_in_words_and_changes_nothing(web, owned):
    match = owned("spades", hands=S1)
    stale = str(Match.objects.get(pk=match.pk).version)
    play(match, {"bids": [3, 6], "tricks": [3, 10]})
    before = snapshot(match)
    data = {"version": stale, "bids_0": "4", "bids_1": "5", "tricks_0": "7", "tricks_1": "6"}
    response = web.post(f"/matches/{match.pk}/hands/1/edit/", data, **HX)
    assert response.status_code == 409
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "Someone else changed this match while you were editing. Nothing was saved" in response.content.decode()
    assert snapshot(match) == before
    # No message is left waiting for the next page: the phone shows this one itself.
    assert "Someone else changed" not in web.get(f"/matches/{match.pk}/").content.decode()


def test_a_replayed_undo_refused_says_so_in_words(web, owned):
    match = owned("spades", hands=S1)
    stale = str(Match.objects.get(pk=match.pk).version)
    play(match, {"bids": [3, 6], "tricks": [3, 10]})
    before = snapshot(match)
    response = web.post(f"/matches/{match.pk}/undo/", {"version": stale}, **HX)
    assert response.status_code == 409
    assert "Nothing was saved" in response.content.decode()
    assert snapshot(match) == before


def test_a_replayed_undo_of_a_match_without_hands_is_refused(web, owned):
    match = owned("spades")
    response = web.post(f"/matches/{match.pk}/undo/", {"version": "0"}, **HX)
    assert response.status_code == 409
    assert response.content.decode() == "There is no hand to undo."


def test_a_replayed_hand_sent_twice_is_stored_once(web, owned):
    match = owned("spades")
    data = {**basis(match), "bids_0": "4", "bids_1": "5", "tricks_0": "7", "tricks_1": "6"}
    first = web.post(f"/matches/{match.pk}/hands/", data, **HX)
    again = web.post(f"/matches/{match.pk}/hands/", data, **HX)
    assert first.status_code == again.status_code == 200
    assert "Hand 1 saved." in first.content.decode()
    assert "Hand 1 was already saved." in again.content.decode()
    assert match.hands.count() == 1
