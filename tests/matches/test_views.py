"""The pages, through Django's test client, as an organiser at the table
would use them: full pages without JavaScript, fragments for htmx.

Expected scores are worked out from RULES.md (worked examples S1, D1, D5,
X1, O1, O5), never taken from the app's output."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.matches import services
from scorekeeper.models import Hand, Match
from scorekeeper.scoring import get_game

from ..conftest import (
    D1,
    D5,
    HX,
    MODEL_BACKEND,
    O1,
    S1,
    basis,
    bid,
    entries,
    form_values,
    snapshot,
    text_of,
)
from .page_helpers import (
    ALL_GAMES,
    BAD_HAND_POST,
    GUIDANCE,
    HAND_POST,
    totals_shown,
    url,
)

pytestmark = pytest.mark.django_db


# ======================================================================
# Home


def test_home_lists_matches_in_progress_before_finished_ones(web, owned):
    owned("spades", names=["Ivy", "Jon"], hands=S1)
    # Finished last, so it is the most recently changed match.
    owned("drawbridge", names=["Finn", "Gus"], options={"target": 200}, hands=[D5])
    page = text_of(web.get(reverse("home")))
    assert page.index("In progress") < page.index("Ivy") < page.index("Recently finished") < page.index("Finn")


def test_home_shows_an_abandoned_match_apart(web, owned):
    match = owned("sixtysix", names=["Hal", "Kim"])
    services.abandon_match(match_id=match.pk)
    page = text_of(web.get(reverse("home")))
    assert page.index("Abandoned") < page.index("Hal")
    assert "No match in progress" in page


# ======================================================================
# New match


def test_new_match_starts_with_the_game_picker(web):
    page = text_of(web.get(reverse("new_match")))
    for game_id in ALL_GAMES:
        assert f"?game={game_id}" in page
        assert get_game(game_id).spec.name in page


def test_new_oh_hell_match_form_has_seven_seats_and_explained_options(web):
    page = text_of(web.get(reverse("new_match"), {"game": "ohhell"}))
    seats = re.findall(r'<input id="seat_\d" name="(seat_\d)"', page)
    assert seats == [f"seat_{i}" for i in range(7)]
    for option in get_game("ohhell").spec.options:
        assert option.label in page
        assert option.help in page


def test_new_match_post_creates_the_match_and_redirects_to_it(web, organiser):
    response = web.post(
        reverse("new_match"),
        {"game": "spades", "seat_0": "Ann", "seat_1": "Bob", "opt_target": "300", "opt_failed_nil_bags": "on"},
    )
    match = Match.objects.get()
    assert response.status_code == 302
    assert response.url == match.get_absolute_url()
    assert match.game == "spades"
    assert match.options == {"target": 300, "failed_nil_bags": True}
    assert match.owner == organiser
    assert [s.player.name for s in match.seats.order_by("position")] == ["Ann", "Bob"]
    page = text_of(web.get(response.url))
    assert "to 300" in page
    assert 'id="entry-form"' in page


def test_new_match_with_one_player_is_refused(web):
    response = web.post(reverse("new_match"), {"game": "spades", "seat_0": "Ann"})
    assert response.status_code == 422
    assert "exactly 2 players" in text_of(response)
    assert Match.objects.count() == 0


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (
            {"game": "spades", "seat_0": "Ann", "seat_1": "ann"},
            "Seats 1 and 2 have the same player (Ann; names are compared ignoring capitals",
        ),
        ({"game": "spades", "seat_0": "Ann", "seat_1": "Bob", "opt_target": "lots"}, "whole number"),
        ({"game": "spades", "seat_0": "Ann", "seat_1": "Bob", "opt_target": "0"}, "target"),
        ({"game": "spades", "seat_0": "Ann", "seat_1": "x" * 10_000}, "at most 40"),
        (
            {
                "game": "ohhell",
                "seat_0": "A",
                "seat_1": "B",
                "seat_2": "C",
                "opt_hook": "on",
                "opt_simultaneous_bidding": "on",
            },
            "hook",
        ),
        ({"game": "ohhell", "seat_0": "A", "seat_1": "B", "seat_2": "C", "opt_schedule": "x" * 10_000}, "schedule"),
    ],
)
def test_new_match_with_bad_input_is_refused_with_a_message(web, data, words):
    response = web.post(reverse("new_match"), data)
    assert response.status_code == 422
    assert words in text_of(response)
    assert Match.objects.count() == 0


# ======================================================================
# Entering hands


@pytest.mark.parametrize("game", ALL_GAMES)
def test_entry_form_shows_who_deals_and_leads(web, owned, game):
    match = owned(game)
    response = web.get(url("match", match))
    assert response.status_code == 200
    page = text_of(response)
    assert 'id="entry-form"' in page
    for words in GUIDANCE[game]:
        assert words in page


def test_oh_hell_guidance_for_a_later_hand(web, owned):
    match = owned("ohhell", hands=[O1])
    page = text_of(web.get(url("match", match)))
    # Hand 2: 2 cards, Bob deals, Cat bids first (RULES.md 5.1).
    assert "2 cards each" in page
    assert "<b>Bob</b> deals" in page
    assert "<b>Cat</b> bids first and leads" in page


# What the table calls one: Sixty-Six plays deals.
SAVED_1 = {
    "spades": "Hand 1 saved.",
    "drawbridge": "Hand 1 saved.",
    "ohhell": "Hand 1 saved.",
    "sixtysix": "Deal 1 saved.",
    "partnership_spades": "Hand 1 saved.",
    "courtpiece": "Deal 1 saved.",
}


@pytest.mark.parametrize("game", ALL_GAMES)
def test_post_a_hand_without_htmx_redirects_and_stores_it(web, owned, game):
    data, entry, totals = HAND_POST[game]
    match = owned(game)
    response = web.post(url("record_hand", match), {**data, **basis(match, number="1", client_key="k1")})
    assert response.status_code == 302
    assert response.url == match.get_absolute_url()
    assert entries(match) == [entry]
    page = text_of(web.get(response.url))
    assert SAVED_1[game] in page
    assert totals_shown(page) == totals


@pytest.mark.parametrize("game", ALL_GAMES)
def test_post_a_hand_with_htmx_returns_the_changed_fragments(web, owned, game):
    data, entry, totals = HAND_POST[game]
    match = owned(game)
    response = web.post(url("record_hand", match), {**data, **basis(match, number="1", client_key="k1")}, **HX)
    assert response.status_code == 200
    page = text_of(response)
    assert "<html" not in page
    assert re.search(r'<section id="totals"[^>]*hx-swap-oob="true"', page)
    assert re.search(r'<section id="history"[^>]*hx-swap-oob="true"', page)
    assert totals_shown(page) == totals
    assert re.search(r'<tr class="is-new">\s*<th scope="row">1\b', page)
    assert SAVED_1[game] in page
    # The fresh form is for hand 2.
    assert 'name="number" value="2"' in page
    assert entries(match) == [entry]
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_later_hand_answers_with_its_new_row_only(web, owned, game):
    """The page showed every hand before this one (its number was checked):
    the answer adds the new row on top and leaves the others in place."""
    data, entry, _totals = HAND_POST[game]
    if game == "ohhell":  # hand 2 has 2 cards: Ann and Bob bid 1 and take one each
        data = {f"bids_{i}": b for i, b in enumerate("1100")} | {f"tricks_{i}": t for i, t in enumerate("1100")}
    match = owned(game, hands=[entry])
    answer = text_of(web.post(url("record_hand", match), {**data, **basis(match)}, **HX))
    assert 'hx-swap-oob="afterbegin:#history-body"' in answer
    assert '<section id="history"' not in answer
    assert len(re.findall(r'<th scope="row">\d+', answer)) == 1
    assert re.search(r'<tr class="is-new">\s*<th scope="row">2\b', answer)
    assert re.search(r'<section id="totals"[^>]*hx-swap-oob="true"', answer)


def test_saving_bids_answers_with_the_entry_panel_only(web, owned):
    match = owned("spades", hands=S1)
    answer = text_of(web.post(url("save_bids", match), {"bids_0": "4", "bids_1": "5", **basis(match)}, **HX))
    assert "Bids saved" in answer and '<section id="entry"' in answer
    assert "hx-swap-oob" not in answer  # the totals and the hands did not change


def test_hands_are_saved_under_csrf_protection_with_and_without_javascript(organiser, owned):
    """htmx sends the CSRF token in a header (base.html), so the form in
    its answers carries none; the page drawn for a browser without
    JavaScript does, and its plain POST is accepted."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(organiser, backend=MODEL_BACKEND)
    data, _entry, _totals = HAND_POST["spades"]
    match = owned("spades")
    page = browser.get(match.get_absolute_url()).content.decode()
    header_token = re.search(r'"x-csrftoken": "([^"]+)"', page).group(1)
    form_token = re.search(r'id="entry-form".*?name="csrfmiddlewaretoken" value="([^"]+)"', page, re.S).group(1)

    answer = browser.post(
        url("record_hand", match), {**data, **basis(match, number="1")}, HTTP_X_CSRFTOKEN=header_token, **HX
    )
    assert answer.status_code == 200
    assert 'name="number" value="2"' in answer.content.decode()
    entry_form = re.search(r'<form id="entry-form".*?</form>', answer.content.decode(), re.S).group(0)
    assert "csrfmiddlewaretoken" not in entry_form
    assert (
        browser.post(url("record_hand", match), {**data, **basis(match, number="2")}, **HX).status_code == 403
    )  # no token
    plain = browser.post(
        url("record_hand", match), {**data, **basis(match, number="2"), "csrfmiddlewaretoken": form_token}
    )
    assert plain.status_code == 302
    assert len(entries(match)) == 2


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_bad_hand_is_refused_with_the_engines_message(web, owned, game, htmx):
    data, words = BAD_HAND_POST[game]
    match = owned(game)
    before = snapshot(match)
    response = web.post(url("record_hand", match), {**data, **basis(match, number="1")}, **(HX if htmx else {}))
    assert response.status_code == 422
    page = text_of(response)
    assert words in page
    assert ("<html" in page) is not htmx
    assert snapshot(match) == before


@pytest.mark.parametrize("game", ALL_GAMES)
def test_the_same_form_posted_twice_stores_one_hand(web, owned, game):
    data, entry, totals = HAND_POST[game]
    match = owned(game)
    form = {**data, **basis(match, number="1", client_key="same-form")}
    web.post(url("record_hand", match), form)
    response = web.post(url("record_hand", match), form, follow=True)
    assert response.status_code == 200
    assert "already saved" in text_of(response)
    assert entries(match) == [entry]
    # With htmx, the same.
    response = web.post(url("record_hand", match), form, **HX)
    assert response.status_code == 200
    assert "already saved" in text_of(response)
    assert Hand.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).totals == totals


def test_a_hand_saved_from_another_device_first_is_a_conflict(web, owned):
    match = owned("spades", hands=S1)
    before = snapshot(match)
    data, _entry, _totals = HAND_POST["spades"]
    response = web.post(url("record_hand", match), {**data, **basis(match, number="1", client_key="other")}, **HX)
    assert response.status_code == 409
    assert "Hand 1 was already saved from another device" in text_of(response)
    assert snapshot(match) == before


@pytest.mark.parametrize("game", ["spades", "ohhell", "drawbridge"])
def test_bids_first_then_tricks(web, owned, game):
    data, entry, totals = HAND_POST[game]
    bidding = {k: v for k, v in data.items() if not k.startswith("tricks")}
    match = owned(game)
    response = web.post(url("save_bids", match), {**bidding, **basis(match, number="1")})
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).pending_bidding == {k: v for k, v in entry.items() if k != "tricks"}
    page = text_of(web.get(url("match", match)))
    assert ("Contract saved" if game == "drawbridge" else "Bids saved") in page
    assert "Save hand 1" in page
    # The pending bids are on the form, so posting it with the tricks completes the hand.
    response = web.post(url("record_hand", match), {**data, **basis(match, number="1")})
    assert response.status_code == 302
    assert entries(match) == [entry]
    match = Match.objects.get(pk=match.pk)
    assert match.pending_bidding is None
    assert match.totals == totals


@pytest.mark.parametrize(
    ("game", "bidding", "tricks", "entry", "totals"),
    [
        # Bob bids first in hand 1; S1 again.
        ("spades", {"bids_0": "7", "bids_1": "4"}, {"tricks_0": "8", "tricks_1": "5"}, S1[0], [71, 41]),
        (
            "ohhell",
            {"bids_0": "0", "bids_1": "1", "bids_2": "0", "bids_3": "0"},
            {"tricks_0": "0", "tricks_1": "1", "tricks_2": "0", "tricks_3": "0"},
            O1,
            [10, 11, 10, 10],
        ),
        (
            "drawbridge",
            {"declarer": "0", "level": "3", "strain": "NT", "double": "none"},
            {"tricks": "9"},
            {**D1, "double": "none"},
            [100, 0],
        ),
        ("drawbridge", {"passed_out": "yes"}, {}, {"passed_out": True}, [0, 0]),
    ],
    ids=["spades", "ohhell", "drawbridge", "drawbridge-passed-out"],
)
def test_the_form_after_saving_bids_completes_the_hand_as_a_browser_sends_it(
    web, owned, game, bidding, tricks, entry, totals
):
    match = owned(game)
    page = text_of(web.get(url("match", match)))
    web.post(url("save_bids", match), {**form_values(page, "entry-form"), **bidding})
    # The page drawn after the bids: the player only adds the tricks.
    form = form_values(web.get(url("match", match)).content.decode(), "entry-form")
    assert form["number"] == "1"
    response = web.post(url("record_hand", match), {**form, **tricks})
    assert response.status_code == 302
    assert entries(match) == [entry]
    assert Match.objects.get(pk=match.pk).totals == totals


def test_a_sixty_six_deal_as_a_browser_sends_it(web, owned):
    match = owned("sixtysix")
    form = form_values(web.get(url("match", match)).content.decode(), "entry-form")
    # X5: Bob closed and fell short; Ann had no trick at the close: Ann +3.
    deal = {"end": "closed", "player": "1", "points_0": "34", "points_1": "51"}
    deal |= {"opponent_took_trick": "yes", "opponent_trick_at_close": "no"}
    response = web.post(url("record_hand", match), {**form, **deal})
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).totals == [3, 0]
    assert entries(match)[0]["opponent_trick_at_close"] is False
    assert "opponent_claimed" not in entries(match)[0]


def test_pending_spades_bids_are_shown_on_the_sheet(web, owned):
    match = owned("spades")
    bid(match, {"bids": [0, "blind_nil"]})
    page = text_of(web.get(url("match", match)))
    bids = re.findall(r'<span class="who">(\w+)</span> <b class="bid">([^<]+)</b>', page)
    # Bob bids first in hand 1.
    assert bids == [("Bob", "Blind Nil"), ("Ann", "Nil")]


def test_a_missing_value_is_marked_on_its_chips_and_the_rest_is_kept(web, owned):
    match = owned("spades", names=["Ann <b>", "Bob"])
    form = {**basis(match), "bids_0": "4", "bids_1": "5", "tricks_0": "7", "tricks_1": ""}
    page = web.post(url("record_hand", match), form, **HX).content.decode()  # raw: entities as sent
    # The missing one: its radio group flagged for screen readers and tied to its message.
    group = re.search(r'<fieldset id="in-tricks_1" class="chips has-error"[^>]*>', page).group(0)
    assert 'role="radiogroup"' in group
    assert 'aria-invalid="true"' in group and 'aria-describedby="err-tricks_1"' in group
    assert re.search(r'<p id="err-tricks_1" class="field-error">[^<]+</p>', page)
    # The others keep what was chosen (one chip checked), and say nothing.
    tricks_0 = re.search(r'<fieldset id="in-tricks_0".*?</fieldset>', page, re.S).group(0)
    assert re.findall(r'<input type="radio" name="tricks_0" value="(\d+)"( checked)?>', tricks_0) == [
        (str(n), " checked" if n == 7 else "") for n in range(14)
    ]
    assert "aria-invalid" not in re.search(r'<fieldset id="in-bids_0"[^>]*>', page).group(0)
    # A name is text, never markup, in its group's legend.
    assert re.search(r'<fieldset id="in-bids_0"[^>]*>\s*<legend>Ann &lt;b&gt;</legend>', page)
    assert "<b>" not in re.search(r'<fieldset id="in-bids_0".*?</fieldset>', page, re.S).group(0)
    assert Hand.objects.filter(match=match).count() == 0


def test_spades_bids_are_one_chip_each_with_nil_and_blind_nil_of_their_own(web, owned):
    match = owned("spades")
    page = web.get(url("match", match)).content.decode()
    bids = re.search(r'<fieldset id="in-bids_0".*?</fieldset>', page, re.S).group(0)
    chips = re.findall(
        r'<label class="([^"]+)"><input type="radio" name="bids_0" value="([^"]+)"[^>]*><span>([^<]+)</span>', bids
    )
    assert [(value, text) for _classes, value, text in chips] == [
        ("0", "Nil"),
        *((str(n), str(n)) for n in range(1, 14)),
        ("blind_nil", "Blind Nil"),
    ]
    assert chips[-1][0] == "chip chip-wide"  # two cells wide
    # The tricks: 0 to 13; the last player in bidding order (Ann in hand 1) is filled in.
    assert re.search(r'<fieldset id="in-tricks_0" class="chips" role="radiogroup" data-auto[ >]', page)
    # What the offline queue says of a choice, and of a missing one (docs/page-contract.md).
    assert 'data-says="Ann bid {}" data-label="Ann (bid)"' in page
    assert 'value="0" data-word="Nil"' in bids
    assert re.search(r'<fieldset class="chip-groups" data-sum-to="13">', page)


def test_draw_bridge_marks_the_tricks_the_contract_needs(web, owned):
    match = owned("drawbridge")
    bid(match, {"declarer": 1, "level": 4, "strain": "S"})
    page = web.get(url("match", match)).content.decode()
    tricks = re.search(r'<fieldset id="in-tricks".*?</fieldset>', page, re.S).group(0)
    assert "Bob&#x27;s tricks in the contract half (needs 10)" in tricks
    assert re.findall(r'<input type="radio" name="tricks" value="(\d+)">', tricks) == [str(n) for n in range(14)]
    marked = re.findall(r'<label class="chip chip-mark"><input type="radio" name="tricks" value="(\d+)">', tricks)
    assert marked == ["10"]
    assert '10<span class="visually-hidden"> (needed)</span>' in tricks


def test_a_passed_out_draw_bridge_hand_is_saved_by_one_button(web, owned):
    match = owned("drawbridge")
    page = web.get(url("match", match)).content.decode()
    button = re.search(r'<button type="submit"[^>]*name="passed_out"[^>]*>', page).group(0)
    assert 'value="yes"' in button and f'formaction="{url("record_hand", match)}"' in button
    # What the button posts without JavaScript: the form and its own value.
    form = form_values(page, "entry-form")
    response = web.post(url("record_hand", match), {**form, "passed_out": "yes"})
    assert response.status_code == 302
    assert entries(match) == [{"passed_out": True}]
    assert Match.objects.get(pk=match.pk).pending_bidding is None


def test_sixty_six_has_no_bids_to_save(web, owned):
    match = owned("sixtysix")
    response = web.post(url("save_bids", match), basis(match), **HX)
    assert response.status_code == 422
    assert "no bidding" in text_of(response)
    assert Match.objects.get(pk=match.pk).pending_bidding is None


def test_oh_hell_hook_violation_in_bids_is_refused(web, owned):
    match = owned("ohhell", options={"hook": True})
    before = snapshot(match)
    # 1 card each, Ann deals; the others bid 0, so Ann may not bid 1.
    data = {"bids_0": "1", "bids_1": "0", "bids_2": "0", "bids_3": "0"}
    response = web.post(url("save_bids", match), {**data, **basis(match)})
    assert response.status_code == 422
    assert "Ann deals and may not bid 1" in text_of(response)
    assert snapshot(match) == before


# ======================================================================
# Preview


def test_preview_explains_the_spades_score(web, owned):
    match = owned("spades")
    response = web.post(url("preview", match), {"bids_0": "4", "bids_1": "6", "tricks_0": "6", "tricks_1": "7"}, **HX)
    assert response.status_code == 200
    page = text_of(response)
    # Ann bid 4 took 6: 40 + 2 bags; Bob bid 6 took 7: 60 + 1 bag.
    assert "bid 4, took 6: 40 + 2 bags" in page
    assert "+42" in page
    assert "bid 6, took 7: 60 + 1 bag" in page
    assert "+61" in page
    assert not Hand.objects.exists()


def test_preview_shows_the_oh_hell_hook(web, owned):
    match = owned("ohhell", options={"hook": True})
    response = web.post(url("preview", match), {"bids_1": "0", "bids_2": "0", "bids_3": "0"}, **HX)
    assert response.status_code == 200
    assert "Ann deals and may not bid 1" in text_of(response)


def test_preview_warns_when_tricks_do_not_add_up(web, owned):
    match = owned("spades")
    response = web.post(url("preview", match), {"bids_0": "4", "bids_1": "6", "tricks_0": "6", "tricks_1": "6"})
    assert "12 of 13" in text_of(response)


def test_preview_says_when_a_hand_ends_the_game(web, owned):
    match = owned("drawbridge", options={"target": 200})
    data = {"declarer": "0", "level": "6", "strain": "NT", "double": "double", "tricks": "12"}
    page = text_of(web.post(url("preview", match), data))
    # D5: (40 + 5 x 30) x 2 = 380.
    assert "+380" in page
    assert "ends the game" in page


def test_preview_of_a_sixty_six_deal(web, owned):
    match = owned("sixtysix")
    page = text_of(web.post(url("preview", match), HAND_POST["sixtysix"][0]))
    assert "+1" in page
    assert "33 or more" in page


def preview_trigger(page: str) -> str:
    return re.search(r'id="preview"[^>]*hx-trigger="([^"]*)"', page, re.S).group(1)


def test_a_fresh_form_does_not_ask_for_a_preview_until_something_is_entered(web, owned):
    # After a saved hand the next form is empty: nothing to preview, so no
    # second request per hand; the preview comes as soon as a value changes.
    match = owned("spades")
    answer = web.post(
        url("record_hand", match), {**HAND_POST["spades"][0], **basis(match, number="1")}, **HX
    ).content.decode()
    assert preview_trigger(answer).split(", ")[0].startswith("change")
    assert "load" not in preview_trigger(web.get(url("match", match)).content.decode())


def test_a_form_that_starts_with_bids_asks_for_its_preview_at_once(web, owned):
    # Saved bids: the total and the hook are shown without touching the form.
    match = owned("ohhell")
    data = {"bids_0": "1", "bids_1": "0", "bids_2": "1", "bids_3": "0"}
    answer = web.post(url("save_bids", match), {**data, **basis(match)}, **HX)
    assert preview_trigger(answer.content.decode()).startswith("load, ")


@pytest.mark.parametrize(
    "junk",
    [
        "seven",
        "x" * 10_000,
        "-1",
        "4.5",
        "²",  # isdigit() but not int()
        "1" * 5000,  # more digits than int() takes
    ],
    ids=["letters", "10000-chars", "negative", "decimal", "superscript-two", "5000-digits"],
)
def test_preview_never_fails_on_junk(web, owned, junk):
    match = owned("ohhell", options={"hook": True})
    web.raise_request_exception = False
    response = web.post(url("preview", match), {"bids_0": junk, "bids_1": "0", "bids_2": junk, "tricks_0": junk})
    assert response.status_code < 500
