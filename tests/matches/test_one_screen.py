"""Five to seven players on a phone's width (issue 28, item 4): a short form
of each long name, told apart from the others, for the totals bar, the
columns of chips and the table of hands; the whole name kept for screen
readers. The browser side (what fits a 390x844 screen) is
tests/e2e/test_one_screen.py."""

from __future__ import annotations

import re

import pytest

from scorekeeper.matches.selectors import score_sheet
from scorekeeper.matches.wording import short_names

from ..conftest import O1, bid, text_of
from .page_helpers import url

LONG7 = ["Bartholomew", "Christabel", "Christopher", "Maximilian", "Evangeline", "Fitzgerald", "Gwendolyn"]


# ------------------------------------------------------------ short names


def test_a_name_of_six_letters_or_fewer_is_shown_whole():
    # "Hann…" would be hardly narrower than "Hannah".
    assert short_names(["Ann", "Bob", "Hannah", "Ulrich"]) == ["Ann", "Bob", "Hannah", "Ulrich"]


def test_a_long_name_is_cut_to_four_letters_and_an_ellipsis():
    assert short_names(["Bartholomew", "Ann", "Gwendolyn"]) == ["Bart…", "Ann", "Gwen…"]


def test_names_that_begin_alike_are_cut_where_they_differ():
    # "Christ" is common to all three: the seventh letter tells them apart ("Christi…" would be
    # hardly narrower than "Christian").
    assert short_names(["Christabel", "Christopher", "Christian"]) == ["Christa…", "Christo…", "Christian"]
    # Only the names that clash grow.
    assert short_names(["Christabel", "Christopher", "Gwendolyn"])[2] == "Gwen…"


def test_a_name_that_is_the_start_of_another_stays_whole():
    # "Maximilian" is all of "Maximiliana" but its "a": cut, the longer would be no shorter.
    assert short_names(["Maximilian", "Maximiliana", "Ann"]) == ["Maximilian", "Maximiliana", "Ann"]


def test_the_same_name_twice_is_shown_as_it_is():
    assert short_names(["Bartholomew", "Bartholomew"]) == ["Bartholomew", "Bartholomew"]


def test_a_cut_keeps_the_marks_on_its_last_letter_and_drops_spaces():
    # Urdu: a kasra (a mark on the letter before it) is not cut off its letter.
    kasra = "\u0650"
    assert short_names(["عبدالرحیم", "Ann"])[0] == "عبدا…"
    assert short_names([f"عبدا{kasra}لرحیم"])[0] == f"عبدا{kasra}…"
    assert short_names(["Anna Maria Rossi"]) == ["Anna…"]


# ----------------------------------------------------------- the sheet


@pytest.mark.django_db
def test_four_players_are_shown_by_their_whole_names(make_match):
    sheet = score_sheet(make_match("ohhell", names=LONG7[:4]).pk)
    assert not sheet.many_players
    assert sheet.column_heads == [(name, name) for name in LONG7[:4]]


@pytest.mark.django_db
def test_seven_players_have_short_column_heads(make_match):
    sheet = score_sheet(make_match("ohhell", names=LONG7).pk)
    assert sheet.many_players
    assert [short for _name, short in sheet.column_heads] == [
        "Bart…",
        "Christa…",
        "Christo…",
        "Maxi…",
        "Evan…",
        "Fitz…",
        "Gwen…",
    ]


@pytest.mark.django_db
def test_the_page_of_seven_shows_short_names_and_keeps_the_whole_ones(web, owned):
    match = owned("ohhell", names=LONG7, hands=[{"bids": [0] * 6 + [1], "tricks": [0] * 6 + [1]}])
    page = text_of(web.get(url("match", match)))
    heading = re.search(r"<h1>.*?</h1>", page, re.S).group(0)
    assert "7 players" in heading and "Bartholomew" not in heading
    totals = re.search(r'<section id="totals" class="totals totals-many".*?</section>', page, re.S).group(0)
    # Each total: the whole name for screen readers, the short one for the eye (hidden from them).
    assert (
        '<span class="name-full">Christopher</span><bdi class="name-short" aria-hidden="true">Christo…</bdi>' in totals
    )
    head = re.search(r"<thead>.*?</thead>", page, re.S).group(0)
    assert head.count('class="name-full"') == 7
    assert '<table class="sheet sheet-ohhell sheet-many">' in page
    assert 'class="chip-groups chips-many"' in page


@pytest.mark.django_db
def test_the_tricks_of_three_players_or_more_are_headed_by_their_bids(web, owned):
    # Hand 2 of O1's match: 2 cards, Cat bids first (RULES.md 5.1); the bids in force 1, 0, 1, 0.
    match = owned("ohhell", hands=[O1])
    bid(match, {"bids": [1, 0, 1, 0]})
    page = text_of(web.get(url("match", match)))
    tricks = re.search(r"<fieldset class=\"chip-groups\" data-sum-to=\"2\">.*?</fieldset>\s*</div>", page, re.S).group(
        0
    )
    heads = re.findall(
        r"<legend>(\w+)(?: <span class=\"auto-note\">[^<]*</span>)? <span class=\"head-bid\">([^<]+)</span>", tricks
    )
    assert heads == [("Cat", "bid 1"), ("Dan", "bid 0"), ("Ann", "bid 1"), ("Bob", "bid 0")]
    # No box of bids in large type above them: it would leave the chips no room.
    assert 'class="bids-in-play"' not in page
    # Oh Hell in play: who leads, not who dealt.
    assert "<b>Cat</b> leads." in page and "deals." not in re.search(
        r'<div class="next-hand">.*?</div>', page, re.S
    ).group(0)


@pytest.mark.django_db
def test_two_player_tricks_keep_the_box_of_bids_only(web, owned):
    match = owned("spades")
    bid(match, {"bids": [4, 5]})
    page = text_of(web.get(url("match", match)))
    assert 'class="head-bid"' not in page
    assert 'class="bids-in-play"' in page
