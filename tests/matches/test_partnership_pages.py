"""The two games with partnerships (RULES.md 1.5, 7 and 8) through the
score sheet's pages, as a table enters them: sides in the totals, the
history, the entry and the winner; the worked examples of sections 7 and 8
and their errors."""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.models import Match

from .page_helpers import totals_shown, url


def page_of(client, match) -> str:
    return client.get(url("match", match)).content.decode()


def basis(page: str) -> dict:
    """What the entry form says it is based on, as the page sends it back."""
    number = re.search(r'name="number" value="(\d+)"', page).group(1)
    bidding = html.unescape(re.search(r'name="bidding" value="([^"]*)"', page).group(1))
    key = re.search(r'name="client_key" value="([^"]*)"', page).group(1)
    return {"number": number, "bidding": bidding, "client_key": key}


def send(client, match, view: str, data: dict):
    """A write from the sheet as it is now drawn (htmx off: a redirect when saved)."""
    return client.post(url(view, match), {**basis(page_of(client, match)), **data})


def bids(*values) -> dict:
    return {f"bids_{seat}": str(v) for seat, v in enumerate(values)}


def side_tricks(first: int, second: int) -> dict:
    return {"tricks_0": str(first), "tricks_1": str(second)}


def nil_tricks(**by_seat) -> dict:
    return {f"nil_tricks_{seat[1:]}": str(v) for seat, v in by_seat.items()}


def chip_values(page: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]+)"', page)


def totals_names(page: str) -> list[str]:
    section = re.search(r'<section id="totals".*?</section>', page, re.S).group(0)
    return [html.unescape(n).strip() for n in re.findall(r'class="total-name">([^<]*)<', section)]


# ------------------------------------------------------- Partnership Spades


def test_p1_a_hand_in_seven_taps_scored_by_side(web, owned):
    match = owned("partnership_spades")
    first = page_of(web, match)
    assert "<b>Ann</b> deals. <b>Bob</b> bids first and leads." in first
    assert totals_names(first) == ["Ann & Cat", "Bob & Dan"]
    # Four bids and Save: the page then asks for one side's tricks (the other's is the rest of 13).
    assert send(web, match, "save_bids", bids(3, 4, 2, 4)).status_code == 302
    page = page_of(web, match)
    assert chip_values(page, "tricks_0") == [str(n) for n in range(14)]
    assert 'data-sum-to="13"' in page and "nil_tricks_0" not in page  # nobody bid Nil: no Nil tricks asked
    assert send(web, match, "record_hand", {**bids(3, 4, 2, 4), **side_tricks(6, 7)}).status_code == 302
    page = page_of(web, match)
    assert totals_shown(page) == [51, -80]
    row = re.search(r'<tbody id="history-body">.*?</tbody>', page, re.S).group(0)
    assert "3 + 2 / 6" in row and "4 + 4 / 7" in row  # each side's bids and its tricks
    assert "<b>Bob</b> deals. <b>Cat</b> bids first and leads." in page


def test_p4_blind_nil_is_offered_only_to_the_side_100_behind(web, owned):
    match = owned("partnership_spades", hands=[{"bids": [3, 4, 2, 4], "tricks": [6, 7]}])  # P1: 51 to -80
    page = page_of(web, match)
    offered = {seat: "blind_nil" in chip_values(page, f"bids_{seat}") for seat in range(4)}
    assert offered == {0: False, 1: True, 2: False, 3: True}
    assert "Bob &amp; Dan are 100 or more behind: either may bid Blind Nil." in page
    # Ann's side is ahead: her Blind Nil is refused in plain words, nothing saved.
    answer = send(web, match, "save_bids", bids("blind_nil", 4, 5, 3))
    assert answer.status_code == 422
    assert "Ann may not bid Blind Nil" in answer.content.decode()
    assert Match.objects.get(pk=match.pk).pending_bidding is None


def test_p2_a_nil_bidders_tricks_are_asked_of_that_player_only(web, owned):
    match = owned("partnership_spades")
    send(web, match, "save_bids", bids(0, 4, 5, 3))
    page = page_of(web, match)
    assert chip_values(page, "nil_tricks_0") and not any(chip_values(page, f"nil_tricks_{s}") for s in (1, 2, 3))
    saved = send(web, match, "record_hand", {**bids(0, 4, 5, 3), **side_tricks(6, 7), **nil_tricks(s0=0)})
    assert saved.status_code == 302
    send(web, match, "save_bids", bids(4, 0, 3, 5))
    send(web, match, "record_hand", {**bids(4, 0, 3, 5), **side_tricks(5, 8), **nil_tricks(s1=2)})
    page = page_of(web, match)
    assert totals_shown(page) == [81, 23]
    assert "Nil (2)" in page  # Bob's failed Nil, with the tricks he took


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({**bids(3, 4, 2, 4), **side_tricks(6, 6)}, "tricks add up to 12, but 13 tricks are played"),
        ({**bids(0, 4, 5, 3), **side_tricks(6, 7)}, "Ann bid Nil, so the hand needs"),
        ({**bids(0, 4, 5, 3), **side_tricks(6, 7), **nil_tricks(s0=7)}, "Ann took 7 tricks as a Nil bidder"),
        ({**bids(0, 4, 0, 3), **side_tricks(6, 7), **nil_tricks(s0=2, s2=3)}, "Ann &amp; Cat both bid Nil"),
        ({**bids(3, 4, 2, 4), "tricks_0": "6"}, "Fill in Bob &amp; Dan&#x27;s tricks."),
    ],
)
def test_p9_a_wrong_hand_is_refused_in_plain_words_and_nothing_is_saved(web, owned, data, words):
    match = owned("partnership_spades")
    answer = send(web, match, "record_hand", data)
    assert answer.status_code == 422
    assert words in answer.content.decode()
    assert Match.objects.get(pk=match.pk).hands_played == 0


def test_p7_the_side_past_the_target_wins(web, owned):
    hands = [{"bids": [3, 3, 3, 3], "tricks": [7, 6]}, {"bids": [2, 2, 2, 2], "tricks": [6, 7]}]
    match = owned("partnership_spades", options={"target": 100}, hands=hands)
    assert "Ann &amp; Cat" in page_of(web, match) and totals_shown(page_of(web, match)) == [103, 103]  # level: play on
    send(web, match, "record_hand", {**bids(3, 3, 3, 3), **side_tricks(5, 8)})
    page = page_of(web, match)
    assert totals_shown(page) == [43, 165]
    assert re.search(r"<h2>\s*Bob &amp; Dan\s*win</h2>", page)


# --------------------------------------------------------------- Court Piece


def test_a_deal_in_two_taps_and_trumps_in_one(web, owned):
    match = owned("courtpiece")
    page = page_of(web, match)
    assert "<b>Ann</b> deals. <b>Bob</b> calls trumps and leads." in page
    assert chip_values(page, "winner") == ["0", "1"]
    assert 'name="court" value="none" data-word="No court" checked' in page  # no court unless tapped
    # One tap records the trumps (C1: Bob calls hearts) ...
    assert send(web, match, "save_bids", {"trumps": "H"}).status_code == 302
    page = page_of(web, match)
    assert 'name="trumps" value="H"' in page and "hearts" in page
    # ... and a deal is the side that took seven, then Save.
    assert send(web, match, "record_hand", {"winner": "1", "trumps": "H", "court": "none"}).status_code == 302
    page = page_of(web, match)
    assert totals_shown(page) == [0, 0]
    assert "<b>Ann</b> deals. <b>Bob</b> calls trumps and leads." in page  # the callers won: same dealer (C1)
    assert Match.objects.get(pk=match.pk).hands_played == 1


# C5: who deals each of ten deals, the winners 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, and then deal 11.
C5_WINNERS = [1, 1, 0, 0, 0, 0, 0, 0, 0, 1]
C5_DEALERS = ["Ann", "Ann", "Ann", "Bob", "Bob", "Bob", "Bob", "Bob", "Bob", "Dan", "Ann"]
C5_CALLERS = ["Bob", "Bob", "Bob", "Cat", "Cat", "Cat", "Cat", "Cat", "Cat", "Ann", "Bob"]


def test_c5_the_guidance_names_the_dealer_and_caller_of_every_deal(web, owned):
    match = owned("courtpiece")
    for number, winner in enumerate(C5_WINNERS, start=1):
        page = page_of(web, match)
        dealer, caller = C5_DEALERS[number - 1], C5_CALLERS[number - 1]
        assert f"<h2>Deal {number}</h2>" in page
        assert f"<b>{dealer}</b> deals. <b>{caller}</b> calls trumps and leads." in page
        assert send(web, match, "record_hand", {"winner": str(winner)}).status_code == 302
    page = page_of(web, match)
    assert "<b>Ann</b> deals. <b>Bob</b> calls trumps and leads." in page
    assert totals_shown(page) == [1, 0]  # deal 9: the seventh in a row, a court


def test_the_runs_are_shown_while_they_grow(web, owned):
    match = owned("courtpiece", hands=[{"winner": 1}] * 5)
    assert "Bob &amp; Dan: 5 deals in a row." in page_of(web, match)


def test_c3_c4_courts_in_the_history_and_the_winner(web, owned):
    match = owned("courtpiece", options={"goon_kot": 2})
    send(web, match, "record_hand", {"winner": "0", "court": "first7"})
    page = page_of(web, match)
    assert totals_shown(page) == [2, 0]
    assert "goon kot" in page
    assert re.search(r"<h2>\s*Ann &amp; Cat\s*win</h2>", page)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"winner": "2"}, "winner must be 0 (Ann &amp; Cat) or 1 (Bob &amp; Dan), got 2"),
        ({"winner": "0", "court": "kot"}, "Court: choose one of the options."),
        ({}, "Won the deal: this is needed."),
        ({"winner": "0", "trumps": "NT"}, "Trumps (rang): choose one of the options."),
    ],
)
def test_c9_a_wrong_deal_is_refused_and_nothing_is_saved(web, owned, data, words):
    match = owned("courtpiece")
    answer = send(web, match, "record_hand", data)
    assert answer.status_code == 422
    assert words in answer.content.decode()
    assert Match.objects.get(pk=match.pk).hands_played == 0


# ------------------------------------------ the rest of the sheet, by side


def test_the_history_of_changes_the_csv_and_the_match_list_speak_of_sides(web, owned):
    spades = owned("partnership_spades")
    send(web, spades, "record_hand", {**bids(0, 4, 5, 3), **side_tricks(6, 7), **nil_tricks(s0=0)})
    history = web.get(url("history", spades)).content.decode()
    assert "Ann bid Nil, took 0 as Nil · Bob bid 4 · Cat bid 5 · Dan bid 3" in history
    assert "Ann &amp; Cat took 6 · Bob &amp; Dan took 7" in history
    csv = web.get(url("match_csv", spades)).content.decode().splitlines()
    assert csv == [
        "hand,Ann & Cat points,Bob & Dan points,Ann & Cat total,Bob & Dan total",
        "1,151,70,151,70",
        "total,151,70,,",
    ]
    court = owned("courtpiece")
    send(web, court, "record_hand", {"winner": "1", "court": "first7"})
    assert "Bob &amp; Dan won the deal · Kot: the first seven tricks" in web.get(url("history", court)).content.decode()
    home = web.get("/").content.decode()
    assert re.search(r"Bob &amp; Dan <b>1</b>", home) and re.search(r"Ann &amp; Cat <b>151</b>", home)


def test_the_new_match_page_seats_partners_opposite(web):
    page = web.get("/matches/new/?game=courtpiece").content.decode()
    assert "partners sit opposite, seats 1 and 3 against seats 2 and 4" in page
    labels = [
        " ".join(re.sub(r"<[^>]+>", " ", label).split())
        for label in re.findall(r"<label for=\"seat_\d\">(.*?)</label>", page, re.S)
    ]
    assert labels == [
        "Seat 1 (partner of seat 3)",
        "Seat 2 (partner of seat 4)",
        "Seat 3 (partner of seat 1)",
        "Seat 4 (partner of seat 2)",
    ]
    answer = web.post(
        "/matches/new/", {"game": "courtpiece", "seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cat", "seat_3": "Dan"}
    )
    match = Match.objects.get()
    assert answer.status_code == 302 and match.player_names == ["Ann", "Bob", "Cat", "Dan"]
    assert totals_names(page_of(web, match)) == ["Ann & Cat", "Bob & Dan"]


def test_the_preview_names_the_sides(web, owned):
    match = owned("partnership_spades", hands=[], options={})
    send(web, match, "save_bids", bids(3, 4, 2, 4))
    preview = web.post(url("preview", match), {**basis(page_of(web, match)), **bids(3, 4, 2, 4), **side_tricks(6, 7)})
    text = preview.content.decode()
    assert re.search(
        r'<b class="who">Ann &amp; Cat</b> <b class="pts">\+51</b> <span class="why">Ann &amp; Cat bid 5, took 6', text
    )
    assert re.search(r'<b class="who">Bob &amp; Dan</b> <b class="pts">-80</b>', text)


def test_an_option_that_may_be_off_is_off_when_left_empty(web):
    """Court Piece's target "Empty: no target"; Partnership Spades' losing score is off by default."""
    page = web.get("/matches/new/?game=partnership_spades").content.decode()
    assert re.search(r'name="opt_losing_score"[^>]*value=""', page)
    seats = {"seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cat", "seat_3": "Dan"}
    web.post("/matches/new/", {"game": "courtpiece", **seats, "opt_target": "", "opt_deals": "3"})
    web.post("/matches/new/", {"game": "partnership_spades", **seats, "opt_losing_score": ""})
    court, spades = Match.objects.order_by("pk")
    assert (court.options["target"], court.options["deals"]) == (None, 3)
    assert spades.options["losing_score"] is None
