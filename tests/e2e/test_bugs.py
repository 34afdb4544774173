"""Bugs the end-to-end tests once found, kept as regression tests. They run
at one size only (the bugs did not depend on the size, except where a test
says so)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import FINISHED, IN_PROGRESS, NAMES2, NAMES7

pytestmark = pytest.mark.e2e
PHONE = pytest.mark.parametrize("size", ["phone"], indirect=True)
TABLET = pytest.mark.parametrize("size", ["tablet"], indirect=True)


@PHONE
def test_menu_offers_undo_after_a_hand_saved_in_place(app):
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    match = app.make_match("sixtysix", NAMES2, {"target": 7}, owner=user)
    page.goto(f"/matches/{match.pk}/")
    app.pick("How did the deal end?", "Someone claimed 66")
    app.pick("Who claimed, closed or won the last trick?", "Ann")
    page.locator("#in-points_0").fill("71")
    page.locator("#in-points_1").fill("38")
    app.pick("Did the other player", "Yes")
    app.press("Save deal 1")
    app.expect_totals({"Ann": 1, "Bob": 0})
    app.tap(page.locator("details.menu > summary"))
    expect(page.locator("details.menu")).to_have_attribute("open", "")
    expect(page.get_by_role("link", name="Undo the last deal")).to_be_visible(timeout=2_000)


@PHONE
def test_hook_refusal_names_the_hook_and_keeps_the_bid(app):
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    # 4 players, hook on, hand 1 played: hand 2 has 2 cards and Bob deals.
    names, options, hands, _bidding = IN_PROGRESS["ohhell"]
    match = app.make_match("ohhell", names, options, hands, owner=user)
    page.goto(f"/matches/{match.pk}/")
    app.step_to("bids_1", 1)  # Bob, the dealer, says 1 first
    for seat, bid in ((2, 0), (3, 0), (0, 1)):  # then Cat 0, Dan 0, Ann 1: total 2 of 2 cards
        app.step_to(f"bids_{seat}", bid)
    expect(page.locator("#preview .problem")).to_contain_text("Bob deals and may not bid 1 (the hook)")
    expect(app.chosen("bids_1")).to_have_value("1")  # what the scorer sees
    app.press("Save bids")
    error = page.locator("#entry .field-error, #entry .banner-error")
    expect(error.first).to_be_visible()
    assert app.match(match.pk).pending_bidding is None
    expect(error.first).to_contain_text("(the hook)", timeout=2_000)
    expect(app.chosen("bids_1")).to_have_value("1")


@PHONE
def test_wide_history_table_does_not_make_the_page_scroll_sideways(app):
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    hands = FINISHED["ohhell"][2][:3]  # three hands of RULES.md O5
    match = app.make_match("ohhell", NAMES7, {}, hands, owner=user)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#entry-form")).to_be_visible()
    table = page.evaluate(
        "() => { const t = document.querySelector('.table-scroll'); return t.scrollWidth - t.clientWidth; }"
    )
    assert table <= 0  # seven players' columns fit the phone's width (issue 28: no sideways swipe)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow == 0, f"the page scrolls sideways by {overflow}px"


@PHONE
def test_edit_links_are_44px_tap_targets(app):
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    names, options, hands, _bidding = IN_PROGRESS["spades"]
    match = app.make_match("spades", names, options, hands, owner=user)
    page.goto(f"/matches/{match.pk}/")
    box = app.history_row(1).get_by_role("link", name="Edit hand 1").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, f"{box['width']:.0f}x{box['height']:.0f}"


@TABLET
def test_drawbridge_history_shows_the_contract_on_one_line(app):
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    names, options, hands, _bidding = IN_PROGRESS["drawbridge"]  # Ann 3NT, 9 tricks
    match = app.make_match("drawbridge", names, options, hands, owner=user)
    page.goto(f"/matches/{match.pk}/")
    line = app.history_row(1).locator(".entry-line")
    expect(line).to_contain_text(re.compile(r"Ann:\s*3\s*NT"))
    # The boxes from the declarer's name to the end of the strain ("Ann: 3NT",
    # or a suit's symbol) all sit on one line.
    tops = line.evaluate(
        """l => {
            const b = l.querySelector('b'), range = document.createRange();
            range.setStartBefore(b);
            const symbol = l.querySelector('[aria-hidden]');
            if (symbol) range.setEndAfter(symbol); else range.setEnd(b.nextSibling, b.nextSibling.length);
            return [...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top));
        }"""
    )
    assert tops and max(tops) - min(tops) < 8, f"declarer and contract at y={tops}: not one line"


@PHONE
def test_ohhell_bids_in_play_show_zero_as_0(app):
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    names, options, hands, bidding = IN_PROGRESS["ohhell"]  # hand 2: Ann 1, Bob, Cat, Dan 0
    match = app.make_match("ohhell", names, options, hands, owner=user, pending=bidding)
    page.goto(f"/matches/{match.pk}/")
    # Four players: each one's bid heads their tricks.
    expect(page.locator("#in-tricks_2 .head-bid")).to_have_text("bid 0", timeout=2_000)
    expect(page.locator("#entry .head-bid").filter(has_text="Nil")).to_have_count(0)
