"""A hand in a few taps: a typical hand of each game entered on the phone
(390x844, touch), from the empty form to the saved hand, counting every tap
(Save included) through App.tap. Keys typed (Sixty-Six card points) are
counted apart. The targets (issue 15): Spades <= 6, Draw Bridge <= 7,
Sixty-Six <= 6, Oh Hell <= 2 x players + 2.

Every expected score is worked out by hand from RULES.md and read from the
page (the totals bar and the new history row).

While the chips are on screen the test also checks what a thumb needs: each
chip at least 44 px, none outside the 390 px screen, nothing scrolling
sideways (also right to left), and axe-core (light and dark) finds nothing
serious."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import NAMES2, NAMES7

pytestmark = pytest.mark.e2e
PHONE = pytest.mark.parametrize("size", ["phone"], indirect=True)

# Each shown chip's box, and how far the page and the entry form scroll sideways.
CHIP_BOXES = """() => {
    const doc = document.documentElement, form = document.getElementById('entry-form');
    const chips = [...document.querySelectorAll('#entry .chip > span')]
        .map(el => { const r = el.getBoundingClientRect();
                     return {text: el.textContent.trim(), w: r.width, h: r.height, start: r.left, end: r.right,
                             top: r.top}; })
        .filter(c => c.w > 0 || c.h > 0);
    return {chips, width: window.innerWidth, page: doc.scrollWidth - doc.clientWidth,
            form: form ? form.scrollWidth - form.clientWidth : 0};
}"""


def fresh_sheet(app, game: str, names: list[str], options: dict | None = None) -> None:
    user = app.make_organiser()
    app.log_in_fast(user)
    match = app.make_match(game, names, options or {}, owner=user)
    app.page.goto(f"/matches/{match.pk}/")
    expect(app.page.locator("#entry-form")).to_be_visible()
    app.taps = app.keys = 0


def check_chips(app, axe_check, shot, name: str) -> None:
    """The chips on screen fit a thumb and the phone's width; axe light and dark."""
    page = app.page
    page.evaluate("window.scrollTo(0, 0)")
    shot(f"taps-{name}")
    boxes = page.evaluate(CHIP_BOXES)
    assert boxes["chips"], "no chips on screen"
    small = [c for c in boxes["chips"] if c["w"] < 44 or c["h"] < 44]
    outside = [c for c in boxes["chips"] if c["start"] < 0 or c["end"] > boxes["width"]]
    assert not small, f"chips under 44 px: {small}"
    assert not outside, f"chips outside the screen: {outside}"
    assert boxes["page"] <= 0 and boxes["form"] <= 0, f"scrolls sideways: {boxes['page']}, {boxes['form']}"
    # Right to left (logical CSS only): the rows run from the right, still on screen (the
    # next chip on the first chip's line: with 5 to 7 players, the next player's column).
    page.evaluate("document.documentElement.dir = 'rtl'")
    rtl = page.evaluate(CHIP_BOXES)
    first = rtl["chips"][0]
    second = next(c for c in rtl["chips"][1:] if abs(c["top"] - first["top"]) < 1)
    assert first["start"] > second["start"], f"RTL: {first['text']} should be right of {second['text']}"
    assert all(c["start"] >= 0 and c["end"] <= rtl["width"] for c in rtl["chips"]) and rtl["page"] <= 0
    shot(f"taps-{name}-rtl")
    page.evaluate("document.documentElement.dir = 'ltr'")
    problems = axe_check(f"taps-{name}")
    page.emulate_media(color_scheme="dark")
    shot(f"taps-{name}-dark")
    problems += axe_check(f"taps-{name}-dark")
    page.emulate_media(color_scheme="light")
    assert not problems, "\n".join(problems)


@PHONE
def test_a_spades_hand_in_five_taps(app, axe_check, shot):
    fresh_sheet(app, "spades", NAMES2, {"target": 500})
    # Hand 1: Bob bids first. Bob 5, Ann 4: one tap each.
    app.step_to("bids_1", 5)
    app.step_to("bids_0", 4)
    check_chips(app, axe_check, shot, "spades-bids")
    app.press("Save bids")
    app.expect_notice("Bids saved")
    # Bob took 6; Ann's 7 fills itself in (13 - 6).
    app.step_to("tricks_1", 6)
    expect(app.chosen("tricks_0")).to_have_value("7")
    expect(app.page.locator("#in-tricks_0 .auto-note")).to_have_text("filled in: the rest of 13")
    check_chips(app, axe_check, shot, "spades-tricks")
    app.press("Save hand 1")
    app.expect_notice("Hand 1 saved.")
    # Ann 4/7: 40 + 3 bags = 43. Bob 5/6: 50 + 1 bag = 51.
    app.expect_totals({"Ann": 43, "Bob": 51})
    expect(app.history_row(1)).to_contain_text("4 / 7")
    assert app.taps == 5 <= 6


@PHONE
def test_a_spades_blind_nil_is_one_tap(app):
    fresh_sheet(app, "spades", NAMES2, {"target": 500})
    # All at once: Bob Blind Nil, Ann 6, then Bob took 0, Ann's 13 fills in.
    app.open_all_at_once()
    app.step_to("bids_1", "blind_nil")
    app.step_to("bids_0", 6)
    app.step_to("tricks_1", 0)
    expect(app.chosen("tricks_0")).to_have_value("13")
    app.press("Save hand 1")
    app.expect_notice("Hand 1 saved.")
    # Bob Blind Nil made: +200. Ann 6/13: 60 + 7 bags = 67.
    app.expect_totals({"Ann": 67, "Bob": 200})
    assert app.taps == 5 <= 6


@PHONE
def test_a_draw_bridge_hand_in_six_taps_and_a_passed_out_one_in_one(app, axe_check, shot):
    fresh_sheet(app, "drawbridge", NAMES2, {"target": 500})
    # Hand 1: Ann 4 spades, not doubled (the default): three taps and Save.
    app.pick("Declarer", "Ann")
    app.pick("Level", "4")
    app.pick("Trumps", "♠ spades")
    app.press("Save the contract")
    expect(app.page.locator("#entry .big-contract")).to_contain_text("Ann: 4♠")
    # The tricks: 0 to 13, the 10 the contract needs marked.
    needed = app.page.locator("#in-tricks label.chip-mark")
    expect(needed).to_have_count(1)
    expect(needed.locator("input")).to_have_value("10")
    expect(app.page.locator("#in-tricks legend")).to_contain_text("(needs 10)")
    check_chips(app, axe_check, shot, "drawbridge-tricks")
    app.step_to("tricks", 10)
    app.press("Save hand 1")
    app.expect_notice("Hand 1 saved.")
    # Made: 4 over six x 30 = 120.
    app.expect_totals({"Ann": 120, "Bob": 0})
    assert app.taps == 6 <= 7

    # Hand 2, passed out: one tap saves it.
    app.taps = 0
    app.press("Passed out: save hand 2")
    app.expect_notice("Hand 2 saved.")
    expect(app.history_row(2)).to_contain_text("Passed out")
    app.expect_totals({"Ann": 120, "Bob": 0})
    assert app.taps == 1
    # The deal still counts: hand 3 is Ann's deal again.
    expect(app.page.locator("#entry .next-hand")).to_contain_text("Ann deals and bids first.")


@PHONE
def test_a_sixty_six_deal_in_six_taps(app):
    fresh_sheet(app, "sixtysix", NAMES2, {"target": 7})
    page = app.page
    # Ann claims 66 with 71; Bob has 38 and took a trick.
    app.pick("How did the deal end?", "Someone claimed 66")
    app.pick("Who claimed, closed or won the last trick?", "Ann")
    app.type_into(page.locator("#in-points_0"), "71")
    app.type_into(page.locator("#in-points_1"), "38")
    app.pick("Did the other player", "Yes")
    app.press("Save deal 1")
    app.expect_notice("Deal 1 saved.")
    # Bob has 33 or more: Ann wins 1 game point.
    app.expect_totals({"Ann": 1, "Bob": 0})
    assert app.taps == 6 <= 6
    assert app.keys == 4  # the card points, typed


@PHONE
def test_a_seven_player_oh_hell_hand_in_fifteen_taps(app, axe_check, shot):
    fresh_sheet(app, "ohhell", NAMES7, {"schedule": "down", "hook": True})
    page = app.page
    # Hand 1: 7 cards each, Ann deals, Bob bids first; Ann (the dealer) last.
    bids = {"Bob": 1, "Cat": 2, "Dan": 0, "Eve": 1, "Fay": 1, "Gus": 0}
    for name, bid in bids.items():
        app.step_to(f"bids_{NAMES7.index(name)}", bid)
    # The hook: the others bid 5 of 7, so Ann may not bid 2; that chip is off.
    expect(page.locator("#preview .hook")).to_have_text("Ann deals and may not bid 2 (the hook).")
    expect(page.locator('#in-bids_0 input[value="2"]')).to_be_disabled()
    check_chips(app, axe_check, shot, "ohhell-bids")
    app.step_to("bids_0", 1)
    expect(page.locator("#preview .bid-total")).to_contain_text("Total bid 6 of 7: under by 1")
    app.press("Save bids")
    app.expect_notice("Bids saved")
    tricks = {"Bob": 1, "Cat": 2, "Dan": 0, "Eve": 1, "Fay": 2, "Gus": 0}
    for name, taken in tricks.items():
        app.step_to(f"tricks_{NAMES7.index(name)}", taken)
    expect(app.chosen("tricks_0")).to_have_value("1")  # Ann: 7 - 6
    app.press("Save hand 1")
    app.expect_notice("Hand 1 saved.")
    # Made: 10 + tricks (Bob, Eve, Ann 11; Cat 12; Dan, Gus 10). Fay 1/2 missed: 0.
    app.expect_totals({"Ann": 11, "Bob": 11, "Cat": 12, "Dan": 10, "Eve": 11, "Fay": 0, "Gus": 10})
    assert app.taps == 15 <= 2 * 7 + 2
