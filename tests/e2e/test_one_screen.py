"""One screen per hand (issue 28, item 4): on a 390x844 phone every game's
bids and its tricks are entered and saved without scrolling, in English,
Urdu and Sindhi (right to left, taller script), light and dark.

On each form, loaded afresh and never scrolled: every choice to make (chips,
big buttons, card points) lies on the screen above the Save bar, the Save
button lies wholly on the screen, the totals bar takes at most two lines and
nothing scrolls sideways. Oh Hell is checked with 3 players (16 chips a
player) and with 7 players with long names. With the preview of the points
showing (it sits above the Save bar and makes the form longer than the
screen) the Save button stays on the screen.

Screenshots: one-screen-<lang>-<game>-<form>[-dark]--phone.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import NAMES2

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


@pytest.fixture
def size() -> str:
    return "phone"  # 390x844, touch


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
    return found


def each_language_and_scheme(app, shot, address: str, name: str, ready) -> list[str]:
    """The form at ``address`` in each language, light and dark: what is wrong."""
    page, found = app.page, []
    for lang in LANGS:
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
