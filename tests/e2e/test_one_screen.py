"""One screen per hand (issue 28, item 4): on a 390x844 phone every game's
bids and its tricks are entered and saved without scrolling, in English,
Urdu and Sindhi (right to left, a taller script), light and dark; on the
1024x768 tablet too (in English).

On each form, loaded afresh and never scrolled: every choice to make (chips,
big buttons, card points, boxes to tick) lies on the screen above the Save
bar, the Save button lies wholly on the screen, the totals bar takes at most
two lines, nothing scrolls sideways and no text is clipped. Oh Hell is
checked with 3 players (15 cards: 16 chips a player) and with 7 players with
long names. With the preview of the points showing (it sits above the Save
bar and makes the form longer than the screen) the Save button stays on the
screen and takes the tap: a whole hand is entered and saved with the page
never scrolled.

Screenshots: one-screen-<lang>-<game>-<form>[-dark]--<size>.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import NAMES2
from .test_right_to_left import CHECKS

NAMES4 = ["Ann", "Bob", "Cat", "Dan"]  # partners opposite: Ann & Cat against Bob & Dan

pytestmark = pytest.mark.e2e

LANGS = ("en", "ur", "sd")
LONG3 = ["Bartholomew", "Christabel", "Maximiliana"]
LONG7 = ["Bartholomew", "Christabel", "Christopher", "Maximilian", "Evangeline", "Fitzgerald", "Gwendolyn"]

# What is on the screen as it loads: the Save button (the form's primary one),
# every choice still to make, the totals bar's lines, the sideways overflow.
MEASURE = """() => {
    const form = document.getElementById('entry-form');
    const box = el => el.getBoundingClientRect();
    const shown = el => { const r = box(el);
                          return r.width > 0 && r.height > 0 && !el.closest('details:not([open])'); };
    const save = [...form.querySelectorAll('.actions > .button-primary')].filter(shown)[0];
    const bar = save.closest('.actions');
    const choices = [...form.querySelectorAll('.chip > span, .segmented label > span, input[inputmode], label.check')]
        .filter(shown).map(el => {
            const r = box(el);
            return {text: el.textContent.trim() || el.name, top: r.top, bottom: r.bottom};
        });
    const lines = new Set([...document.querySelectorAll('#totals li')].map(li => Math.round(box(li).top)));
    const doc = document.documentElement;
    return {
        scrolled: window.scrollY, height: window.innerHeight, save: save.textContent.trim(),
        saveTop: box(save).top, saveBottom: box(save).bottom, barTop: box(bar).top,
        choices, totalsLines: lines.size, totalsHeight: box(document.getElementById('totals')).height,
        overflow: doc.scrollWidth - doc.clientWidth, formOverflow: form.scrollWidth - form.clientWidth,
    };
}"""


@pytest.fixture(params=["phone", "tablet"])
def size(request) -> str:
    return request.param


def languages(app) -> tuple[str, ...]:
    return LANGS if app.touch else ("en",)  # the tablet (no touch) has the room: English only


def set_language(app, lang: str) -> None:
    """The language chooser's cookie (test_right_to_left.py taps the chooser itself)."""
    host = app.url.split("//", 1)[1].split(":")[0]
    app.page.context.add_cookies([{"name": "django_language", "value": lang, "domain": host, "path": "/"}])


def problems_on_screen(app, shot, name: str) -> list[str]:
    """What keeps this form from being entered and saved without scrolling."""
    page = app.page
    page.evaluate("document.fonts.ready")
    shot(f"one-screen-{name}")
    m = page.evaluate(MEASURE)
    found = []
    if m["scrolled"]:
        found.append(f"{name}: the page opened scrolled by {m['scrolled']}px")
    if m["saveTop"] < 0 or m["saveBottom"] > m["height"]:
        found.append(
            f"{name}: {m['save']!r} at {m['saveTop']:.0f}-{m['saveBottom']:.0f}, off the {m['height']}px screen"
        )
    hidden = [c["text"] for c in m["choices"] if c["top"] < 0 or c["bottom"] > m["barTop"] + 0.5]
    if hidden:
        found.append(f"{name}: choices below the Save bar (at {m['barTop']:.0f}px): {hidden[:6]}")
    if m["totalsLines"] > 2:
        found.append(f"{name}: the totals bar takes {m['totalsLines']} lines ({m['totalsHeight']:.0f}px)")
    if m["overflow"] > 0 or m["formOverflow"] > 0:
        found.append(f"{name}: scrolls sideways by {m['overflow']}px (the form {m['formOverflow']}px)")
    clipped = page.evaluate(CHECKS)["clipped"]
    if clipped:
        found.append(f"{name}: text clipped in {clipped[:3]}")
    return found


def each_language_and_scheme(app, shot, address: str, name: str, ready) -> list[str]:
    """The form at ``address`` in each language, light and dark: what is wrong."""
    page, found = app.page, []
    for lang in languages(app):
        set_language(app, lang)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.goto(address)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            ready()
            found += problems_on_screen(app, shot, f"{lang}-{name}{'-dark' if scheme == 'dark' else ''}")
    page.emulate_media(color_scheme="light")
    set_language(app, "en")
    return found


def check_both_forms(app, shot, game: str, names: list[str], options: dict, pending: dict) -> None:
    """The bids form of a fresh match, then the tricks form once ``pending`` is bid."""
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    fresh = app.make_match(game, names, options, owner=user)
    found = each_language_and_scheme(
        app,
        shot,
        f"/matches/{fresh.pk}/",
        f"{game}-{len(names)}-bids",
        lambda: expect(page.locator("#entry-form")).to_be_visible(),
    )
    in_play = app.make_match(game, names, options, owner=user, pending=pending)
    found += each_language_and_scheme(
        app,
        shot,
        f"/matches/{in_play.pk}/",
        f"{game}-{len(names)}-tricks",
        lambda: expect(page.locator('#entry-form button[data-write="hand"].button-primary')).to_be_visible(),
    )
    assert not found, "\n".join(found)


def test_two_player_spades_on_one_screen(app, shot):
    check_both_forms(app, shot, "spades", NAMES2, {"target": 500}, {"bids": [4, 5]})


def test_draw_bridge_on_one_screen(app, shot):
    check_both_forms(app, shot, "drawbridge", NAMES2, {"target": 500}, {"declarer": 0, "level": 4, "strain": "S"})


def test_oh_hell_of_three_on_one_screen(app, shot):
    # The largest hand first: 15 cards each, 16 chips a player.
    check_both_forms(app, shot, "ohhell", LONG3, {"schedule": "down"}, {"bids": [5, 4, 4]})


def test_oh_hell_of_seven_with_long_names_on_one_screen(app, shot):
    # 7 cards each, the hook on: 8 chips a player, 7 players.
    pending = {"bids": [1, 2, 0, 1, 1, 0, 1]}
    check_both_forms(app, shot, "ohhell", LONG7, {"schedule": "down", "hook": True}, pending)


def test_partnership_spades_on_one_screen(app, shot):
    # Four bids; in play one side's tricks and, for Bob's Nil, his own tricks too.
    check_both_forms(app, shot, "partnership_spades", NAMES4, {"target": 500}, {"bids": [3, 0, 2, 4]})


def test_court_piece_on_one_screen(app, shot):
    check_both_forms(app, shot, "courtpiece", NAMES4, {}, {"trumps": "H"})


def test_sixty_six_on_one_screen_with_the_closed_questions(app, shot):
    """Sixty-Six has one form: checked with every question shown (the stock closed)."""
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    match = app.make_match("sixtysix", NAMES2, {"target": 7}, owner=user)

    def closed():
        page.locator('#entry-form label:has(> input[name="end"][value="closed"])').click()
        expect(page.locator("#entry-form .closed-only")).to_be_visible()

    found = each_language_and_scheme(app, shot, f"/matches/{match.pk}/", "sixtysix-2-closed", closed)
    assert not found, "\n".join(found)


# ------------------------------------------------ the preview showing, then Save

# What the Save button's centre hits: the button itself, not the form scrolling under it.
SAVE_TAKES_THE_TAP = """() => {
    const save = [...document.querySelectorAll('#entry-form .actions > .button-primary')]
        .filter(b => b.getBoundingClientRect().height > 0 && !b.closest('details:not([open])'))[0];
    const r = save.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {top: r.top, bottom: r.bottom, height: window.innerHeight, hit: !!hit && save.contains(hit),
            scrolled: window.scrollY};
}"""


def save_on_screen_with_the_preview(app, shot, name: str, lines: int) -> None:
    """The preview shows ``lines`` players' points; Save is on the screen and takes the tap."""
    page = app.page
    expect(page.locator("#preview .preview-list li")).to_have_count(lines)
    page.evaluate("document.fonts.ready")
    shot(f"one-screen-preview-{name}")
    where = page.evaluate(SAVE_TAKES_THE_TAP)
    assert where["top"] >= 0 and where["bottom"] <= where["height"], f"Save off the screen: {where}"
    assert where["hit"], f"Save is covered: {where}"
    assert where["scrolled"] == 0, f"the page scrolled to reach a choice: {where}"


def test_two_player_spades_saves_with_the_preview_showing(app, shot):
    user = app.make_organiser()
    app.log_in_fast(user)
    match = app.make_match("spades", NAMES2, {"target": 500}, owner=user, pending={"bids": [4, 5]})
    app.page.goto(f"/matches/{match.pk}/")
    app.step_to("tricks_1", 6)  # Bob took 6: Ann's 7 fills itself in (13 - 6)
    save_on_screen_with_the_preview(app, shot, "spades", 2)
    app.press("Save hand 1")
    app.expect_notice("Hand 1 saved.")
    # Ann 4/7: 40 + 3 bags = 43. Bob 5/6: 50 + 1 bag = 51.
    app.expect_totals({"Ann": 43, "Bob": 51})


def test_seven_long_names_save_a_hand_with_the_preview_showing(app, shot):
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    match = app.make_match("ohhell", LONG7, {"schedule": "down", "hook": True}, owner=user)
    page.goto(f"/matches/{match.pk}/")
    # Hand 1: 7 cards, Bartholomew deals and bids last; the others bid 5, so he may not bid 2.
    bids = [1, 2, 0, 1, 1, 0, 1]
    for seat in (1, 2, 3, 4, 5, 6, 0):
        app.step_to(f"bids_{seat}", bids[seat])
    assert page.evaluate("window.scrollY") == 0  # every bid reached without scrolling
    app.press("Save bids")
    app.expect_notice("Bids saved")
    # Evangeline (seat 4) takes 2 for her bid of 1; Bartholomew's 1 fills itself in (7 - 6).
    tricks = {1: 2, 2: 0, 3: 1, 4: 2, 5: 0, 6: 1}
    for seat, taken in tricks.items():
        app.step_to(f"tricks_{seat}", taken)
    expect(app.chosen("tricks_0")).to_have_value("1")
    save_on_screen_with_the_preview(app, shot, "ohhell-7", 7)
    app.press("Save hand 1")
    app.expect_notice("Hand 1 saved.")
    # A bid made scores 10 + tricks, a miss 0 (RULES.md 5.3).
    app.expect_totals(
        {
            "Bartholomew": 11,
            "Christabel": 12,
            "Christopher": 10,
            "Maximilian": 11,
            "Evangeline": 0,
            "Fitzgerald": 10,
            "Gwendolyn": 11,
        }
    )
