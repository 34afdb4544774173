"""Editing and undoing hands, finished and abandoned matches, playing again,
and a stored hand the rules no longer accept, through the pages."""

from __future__ import annotations

import re

import pytest

from scorekeeper.models import Hand, Match

from ..conftest import (
    D1,
    D5,
    HX,
    O5,
    O5_PLAYERS,
    S1,
    S4,
    X1,
    basis,
    checked_radio,
    entries,
    play,
    selected_option,
    snapshot,
    text_of,
)
from .page_helpers import (
    HAND_POST,
    totals_shown,
    url,
)

pytestmark = pytest.mark.django_db


# ======================================================================
# Editing and undoing


def test_edit_page_shows_the_hand_as_entered(web, owned):
    match = owned("spades", hands=S1)
    response = web.get(url("edit_hand", match, 1))
    assert response.status_code == 200
    page = text_of(response)
    assert selected_option(page, "bids_0") == "7"
    assert selected_option(page, "bids_1") == "4"
    assert selected_option(page, "tricks_0") == "8"
    assert selected_option(page, "tricks_1") == "5"
    assert f'name="version" value="{Match.objects.get(pk=match.pk).version}"' in page


def test_edit_page_of_a_draw_bridge_and_a_sixty_six_hand(web, owned):
    bridge = owned("drawbridge", hands=[D1])
    page = text_of(web.get(url("edit_hand", bridge, 1)))
    assert checked_radio(page, "declarer") == "0"
    assert checked_radio(page, "level") == "3"
    assert checked_radio(page, "strain") == "NT"
    assert checked_radio(page, "double") == "none"
    assert selected_option(page, "tricks") == "9"

    sixty_six = owned("sixtysix", hands=[X1])
    page = text_of(web.get(url("edit_hand", sixty_six, 1)))
    assert checked_radio(page, "end") == "out"
    assert checked_radio(page, "player") == "0"
    assert re.search(r'name="points_0"[^>]*value="71"', page, re.S)
    assert re.search(r'name="points_1"[^>]*value="38"', page, re.S)
    assert checked_radio(page, "opponent_took_trick") == "yes"


def test_edit_changes_the_totals(web, owned):
    match = owned("spades", hands=S1)
    version = Match.objects.get(pk=match.pk).version
    data = {"bids_0": "7", "bids_1": "4", "tricks_0": "7", "tricks_1": "6", "version": str(version)}
    response = web.post(url("edit_hand", match, 1), data)
    assert response.status_code == 302
    assert response.url == match.get_absolute_url()
    page = text_of(web.get(response.url))
    assert "Hand 1 changed" in page
    # Ann bid 7 took 7: 70; Bob bid 4 took 6: 42.
    assert totals_shown(page) == [70, 42]
    assert Match.objects.get(pk=match.pk).totals == [70, 42]


def test_edit_with_htmx_redirects_the_whole_page(web, owned):
    match = owned("sixtysix", hands=[X1])
    version = Match.objects.get(pk=match.pk).version
    # Deal 1 becomes X3: Ann out, Bob without a trick: 3.
    data = {"end": "out", "player": "0", "points_0": "82", "points_1": "0", "opponent_took_trick": "no"}
    response = web.post(url("edit_hand", match, 1), {**data, "version": str(version)}, **HX)
    assert response.status_code == 204
    assert response["HX-Location"] == match.get_absolute_url()
    assert Match.objects.get(pk=match.pk).totals == [3, 0]


def test_edit_from_a_stale_page_is_refused_and_says_so(web, owned):
    match = owned("spades", hands=S1)
    stale = Match.objects.get(pk=match.pk).version
    play(match, S1[0])  # another device saves hand 2
    before = snapshot(match)
    data = {"bids_0": "7", "bids_1": "4", "tricks_0": "7", "tricks_1": "6", "version": str(stale)}
    response = web.post(url("edit_hand", match, 1), data, follow=True)
    assert response.redirect_chain[-1][0] == match.get_absolute_url()
    assert "Someone else changed this match" in text_of(response)
    assert snapshot(match) == before


def test_edit_that_ends_the_game_before_a_later_hand_is_refused(web, owned):
    match = owned("spades", options={"target": 100}, hands=S4[:2])
    before = snapshot(match)
    data = {"bids_0": "10", "bids_1": "3", "tricks_0": "10", "tricks_1": "3", "version": str(before["version"])}
    response = web.post(url("edit_hand", match, 1), data)
    assert response.status_code == 422
    page = text_of(response)
    assert "Hand 2: the game is already over" in page
    # The form keeps what was typed.
    assert selected_option(page, "bids_0") == "10"
    assert snapshot(match) == before


@pytest.mark.parametrize(
    "data",
    [
        {"bids_0": "seven", "bids_1": "4", "tricks_0": "7", "tricks_1": "6"},
        {"bids_0": "7", "bids_1": "4", "tricks_0": "7"},
        {"bids_0": "7" * 10_000, "bids_1": "4", "tricks_0": "7", "tricks_1": "6"},
    ],
)
def test_edit_with_junk_is_refused(web, owned, data):
    match = owned("spades", hands=S1)
    before = snapshot(match)
    response = web.post(url("edit_hand", match, 1), {**data, "version": str(before["version"])})
    assert response.status_code == 422
    assert snapshot(match) == before


def test_edit_of_a_hand_that_does_not_exist_is_404(web, owned):
    match = owned("spades", hands=S1)
    assert web.get(url("edit_hand", match, 2)).status_code == 404


def test_undo_asks_first_then_removes_the_last_hand(web, owned):
    match = owned("spades", hands=S1 * 2)
    response = web.get(url("undo_hand", match))
    assert response.status_code == 200
    page = text_of(response)
    assert "Undo hand 2?" in page
    assert entries(match) == S1 * 2  # a GET changes nothing
    version = Match.objects.get(pk=match.pk).version
    response = web.post(url("undo_hand", match), {"version": str(version)}, follow=True)
    page = text_of(response)
    assert "Hand 2 removed." in page
    assert entries(match) == S1
    assert totals_shown(page) == [71, 41]


def test_undo_from_a_stale_page_changes_nothing(web, owned):
    match = owned("spades", hands=S1)
    stale = Match.objects.get(pk=match.pk).version
    play(match, S1[0])
    before = snapshot(match)
    response = web.post(url("undo_hand", match), {"version": str(stale)}, follow=True)
    assert "Someone else changed this match" in text_of(response)
    assert snapshot(match) == before


# ======================================================================
# Finished, abandoned, played again


def test_a_finished_match_shows_the_winner_and_no_entry_form(web, owned):
    match = owned("drawbridge", options={"target": 200}, hands=[D5])
    page = text_of(web.get(url("match", match)))
    assert re.search(r"Ann\s+wins", page)
    assert "after 1 hand" in page
    assert "Play again" in page
    assert 'id="entry-form"' not in page
    assert totals_shown(page) == [380, 0]


def test_a_shared_win_names_both_winners(web, owned):
    match = owned("ohhell", names=O5_PLAYERS, hands=O5)
    page = text_of(web.get(url("match", match)))
    assert re.search(r"C and D\s+share the win", page)
    assert 'id="entry-form"' not in page


def test_a_finished_match_refuses_a_posted_hand(web, owned):
    match = owned("drawbridge", options={"target": 200}, hands=[D5])
    before = snapshot(match)
    response = web.post(url("record_hand", match), {**HAND_POST["drawbridge"][0], **basis(match, number="2")}, **HX)
    assert response.status_code == 409
    assert "This match is over" in text_of(response)
    assert snapshot(match) == before


def test_play_again_starts_a_new_match_with_rotated_seats(web, owned):
    match = owned("drawbridge", options={"target": 200}, hands=[D5])
    response = web.post(url("match_action", match, "again"))
    again = Match.objects.exclude(pk=match.pk).get()
    assert response.status_code == 302
    assert response.url == again.get_absolute_url()
    assert [s.player.name for s in again.seats.order_by("position")] == ["Bob", "Ann"]
    assert again.options == {"target": 200}
    page = text_of(web.get(response.url))
    assert "<b>Bob</b> deals and bids first" in page


def test_abandon_and_reopen_from_the_sheet(web, owned):
    match = owned("spades", hands=S1)
    response = web.post(url("match_action", match, "abandon"), follow=True)
    page = text_of(response)
    assert "This match was abandoned." in page
    assert 'id="entry-form"' not in page
    assert Match.objects.get(pk=match.pk).status == "abandoned"
    response = web.post(url("match_action", match, "reopen"), follow=True)
    assert 'id="entry-form"' in text_of(response)
    assert Match.objects.get(pk=match.pk).status == "in_progress"


# ======================================================================
# A stored hand the rules no longer accept (e.g. after an engine fix)


@pytest.fixture
def outdated(owned):
    """A Spades match whose stored hand 1 the engine now refuses (tricks 12)."""
    match = owned("spades", hands=S1 * 2)
    Hand.objects.filter(match=match, number=1).update(entry={"bids": [7, 4], "tricks": [6, 6]})
    return match


def test_a_sheet_with_a_hand_the_rules_no_longer_accept_still_opens(web, outdated):
    web.raise_request_exception = False
    response = web.get(url("match", outdated))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Hand 1: tricks add up to 12" in page
    assert "Edit that hand" in page


def test_a_hand_the_rules_no_longer_accept_can_be_fixed_by_editing(web, outdated):
    web.raise_request_exception = False
    response = web.get(url("edit_hand", outdated, 1))
    assert response.status_code == 200
    version = Match.objects.get(pk=outdated.pk).version
    fixed = {"bids_0": "7", "bids_1": "4", "tricks_0": "8", "tricks_1": "5", "version": str(version)}
    assert web.post(url("edit_hand", outdated, 1), fixed).status_code == 302
    # Two S1 hands: Ann bid 7 took 8 = 71, Bob bid 4 took 5 = 41, each time
    assert Match.objects.get(pk=outdated.pk).totals == [142, 82]
