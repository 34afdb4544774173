"""The two games with partnerships, a whole match each on a phone held in
one hand (390x844, touch): Partnership Spades in English and Court Piece in
Urdu, from the new-match page to the winner banner, with the taps counted.

The expected numbers are RULES.md's worked examples (P1, P2; C2), worked by
hand there. Screenshots: partnership-*--phone.png and ur-courtpiece-*."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from .test_right_to_left import check_screen, choose
from .test_right_to_left_games import match_id_of, radio, save

pytestmark = pytest.mark.e2e
FOUR = ["Ann", "Bob", "Cat", "Dan"]


@pytest.fixture
def size() -> str:
    return "phone"


def test_partnership_spades_in_seven_taps_a_hand(app, shot):
    page = app.page
    app.create_organiser_through_setup()
    page.goto("/matches/new/?game=partnership_spades")
    expect(page.locator(".partners-hint")).to_have_text(
        "In the order of play: partners sit opposite, seats 1 and 3 against seats 2 and 4."
    )
    expect(page.locator('label[for="seat_0"]')).to_contain_text("partner of seat 3")
    match_id = app.start_match_through_ui("Partnership Spades", FOUR, {"#opt_target": 200})
    app.expect_totals({"Ann & Cat": 0, "Bob & Dan": 0})
    shot("partnership-spades-hand-1")

    # P1: bids Ann 3, Bob 4, Cat 2, Dan 4 (Bob bids first: Ann deals), then Ann & Cat's 6 tricks.
    expect(page.locator("#entry .next-hand")).to_contain_text("Ann deals. Bob bids first and leads.")
    before = app.taps
    for seat, bid in ((1, 4), (2, 2), (3, 4), (0, 3)):
        app.step_to(f"bids_{seat}", bid)
    app.press("Save bids")
    app.expect_notice("Bids saved")
    app.step_to("tricks_0", 6)
    expect(app.chosen("tricks_1")).to_have_value("7")  # the rest of 13, filled in
    app.expect_preview({"Ann & Cat": "+51", "Bob & Dan": "-80"})
    shot("partnership-spades-tricks")
    app.press("Save hand 1")
    assert app.taps - before == 7
    app.expect_notice("Hand 1 saved.")
    app.expect_totals({"Ann & Cat": 51, "Bob & Dan": -80})
    expect(app.history_row(1)).to_contain_text("3 + 2 / 6")

    # Hand 2: Bob deals, Cat bids first. Bob & Dan are 131 behind: only they are offered Blind Nil.
    expect(page.locator("#entry .next-hand")).to_contain_text("Bob deals. Cat bids first and leads.")
    expect(page.locator("#entry .next-hand")).to_contain_text("Bob & Dan are 100 or more behind")
    expect(app.chip("bids_1", "blind_nil")).to_have_count(1)
    expect(app.chip("bids_0", "blind_nil")).to_have_count(0)
    # P2's first hand: Ann bids Nil and takes none; Cat 5, the side 6; Bob 4, Dan 3: one tap more, Ann's Nil tricks.
    before = app.taps
    for seat, bid in ((2, 5), (3, 3), (0, 0), (1, 4)):
        app.step_to(f"bids_{seat}", bid)
    app.press("Save bids")
    app.step_to("tricks_0", 6)
    app.step_to("nil_tricks_0", 0)
    app.expect_preview({"Ann & Cat": "+151", "Bob & Dan": "+70"})
    app.press("Save hand 2")
    assert app.taps - before == 8
    # 51 + 151 = 202 reaches 200: Ann & Cat win.
    app.expect_totals({"Ann & Cat": 202, "Bob & Dan": -10})
    app.expect_winner("Ann & Cat win", 2)
    shot("partnership-spades-won")
    assert app.hand_count(match_id) == 2


def test_court_piece_in_urdu_in_two_taps_a_deal(app, shot, axe_check):
    page, lang, problems = app.page, "ur", []
    app.create_organiser_through_setup()
    page.goto("/")
    choose(app, lang)
    page.goto("/matches/new/?game=courtpiece")
    for seat, name in enumerate(FOUR):
        page.locator(f"#seat_{seat}").fill(name)
    check_screen(app, shot, axe_check, lang, "courtpiece-new-match", problems)
    app.tap(page.locator("main form button[type=submit]"))
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    match_id = match_id_of(page)
    with translation.override(lang):
        guidance = translation.gettext("<b>%(d)s</b> deals. <b>%(c)s</b> calls trumps and leads.")
        bob_dan = translation.gettext("%(first)s & %(second)s") % {"first": "Bob", "second": "Dan"}
        ann_cat = translation.gettext("%(first)s & %(second)s") % {"first": "Ann", "second": "Cat"}
    said = lambda d, c: re.sub(r"</?b>", "", guidance % {"d": d, "c": c})  # noqa: E731
    expect(page.locator("#entry .next-hand")).to_contain_text(said("Ann", "Bob"))
    check_screen(app, shot, axe_check, lang, "courtpiece-deal", problems)

    # Trumps in one tap before play (Bob calls hearts), then C2: Bob & Dan take the first seven, a kot.
    before = app.taps
    app.tap(page.locator('#entry-form button[name="trumps"][value="H"]'))
    expect(page.locator("#entry .big-contract")).to_contain_text("♥")
    assert app.taps - before == 1
    radio(app, "winner", 1)
    radio(app, "court", "first7")
    save(app, "hands")
    app.expect_totals({ann_cat: 0, bob_dan: 1})
    # The callers scored a court: Ann's partner Cat deals and Dan calls (C2).
    expect(page.locator("#entry .next-hand")).to_contain_text(said("Cat", "Dan"))

    # Deal 2 in two taps: Bob & Dan (the callers) win, no court; Cat deals again.
    before = app.taps
    radio(app, "winner", 1)
    save(app, "hands")
    expect(page.locator('#entry-form input[name="number"]')).to_have_value("3")  # the answer is in
    expect(page.locator("#entry .next-hand")).to_contain_text(said("Cat", "Dan"))
    assert app.taps - before == 2
    # Deal 3: another kot by the callers, the second court: the target (2) is reached.
    radio(app, "winner", 1)
    radio(app, "court", "first7")
    save(app, "hands")
    app.expect_totals({ann_cat: 0, bob_dan: 2})
    banner = page.locator("#entry .winner-banner h2")
    expect(banner).to_contain_text(bob_dan)
    check_screen(app, shot, axe_check, lang, "courtpiece-won", problems)
    page.emulate_media(color_scheme="dark")
    check_screen(app, shot, axe_check, lang, "courtpiece-won-dark", problems)
    assert app.hand_count(match_id) == 3
    assert not problems, problems


def test_partnership_spades_in_urdu(app, shot, axe_check):
    """P1 then P2's first hand, picked by structure (input names and values), never by English words."""
    page, lang, problems = app.page, "ur", []
    user = app.make_organiser()
    app.log_in_fast(user)
    page.goto("/")
    choose(app, lang)
    match = app.make_match("partnership_spades", FOUR, {"target": 200}, owner=user)
    page.goto(f"/matches/{match.pk}/")
    with translation.override(lang):
        ann_cat = translation.gettext("%(first)s & %(second)s") % {"first": "Ann", "second": "Cat"}
        bob_dan = translation.gettext("%(first)s & %(second)s") % {"first": "Bob", "second": "Dan"}
    check_screen(app, shot, axe_check, lang, "partnership-spades-bids", problems)
    before = app.taps
    for seat, bid in ((1, 4), (2, 2), (3, 4), (0, 3)):
        app.step_to(f"bids_{seat}", bid)
    save(app, "bids")
    app.step_to("tricks_0", 6)
    expect(app.chosen("tricks_1")).to_have_value("7")
    check_screen(app, shot, axe_check, lang, "partnership-spades-tricks", problems)
    save(app, "hands")
    assert app.taps - before == 7
    app.expect_totals({ann_cat: 51, bob_dan: -80})
    for seat, bid in ((2, 5), (3, 3), (0, 0), (1, 4)):
        app.step_to(f"bids_{seat}", bid)
    save(app, "bids")
    app.step_to("tricks_0", 6)
    app.step_to("nil_tricks_0", 0)
    save(app, "hands")
    app.expect_totals({ann_cat: 202, bob_dan: -10})
    expect(page.locator("#entry .winner-banner h2")).to_contain_text(ann_cat)
    check_screen(app, shot, axe_check, lang, "partnership-spades-won", problems)
    assert not problems, problems


def test_court_piece_in_english(app, shot):
    """C5's first three deals and C2's kot, in English: the guidance after each deal."""
    page = app.page
    app.create_organiser_through_setup()
    app.start_match_through_ui("Court Piece", FOUR)
    app.expect_totals({"Ann & Cat": 0, "Bob & Dan": 0})
    for number, (winner, dealer, caller) in enumerate(((1, "Ann", "Bob"), (1, "Ann", "Bob"), (0, "Ann", "Bob")), 1):
        expect(page.locator('#entry-form input[name="number"]')).to_have_value(str(number))  # the last answer is in
        expect(page.locator("#entry .next-hand")).to_contain_text(f"{dealer} deals. {caller} calls trumps and leads.")
        before = app.taps
        radio(app, "winner", winner)
        save(app, "hands")
        assert app.taps - before == 2
    expect(page.locator('#entry-form input[name="number"]')).to_have_value("4")
    # C5: Ann & Cat, the dealer's side, won deal 3: the deal passes to Bob, and Cat calls.
    expect(page.locator("#entry .next-hand")).to_contain_text("Bob deals. Cat calls trumps and leads.")
    radio(app, "winner", 0)
    radio(app, "court", "all13")
    save(app, "hands")
    app.expect_winner("Ann & Cat win", 4)
    shot("courtpiece-won")
