"""axe-core on every main page, at phone and tablet size: no violation of
impact "serious" or "critical". Every violation found (all impacts) is
printed and recorded in axe-results.jsonl next to the screenshots.

And the keyboard: tabbing through each game's entry form reaches every
control, each with a visible focus style, and every control has a name."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import GAMES, IN_PROGRESS, SCREEN_GROUPS, open_screens

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("group", SCREEN_GROUPS)
def test_no_serious_axe_violations(app, axe_check, size, group):
    found = {}
    for name in open_screens(app, group):
        serious = axe_check(name)
        if serious:
            found[name] = serious
    report = "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
    assert not found, f"serious or critical axe violations:\n{report}"


# What has focus, whether it shows a focus ring, and the tab stop it counts as
# (a radio group is one stop; hidden radios show the ring on their label).
FOCUSED = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const ring = e => { const s = getComputedStyle(e);
        return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none'; };
    let shown = ring(el);
    if (!shown && (el.type === 'radio' || el.type === 'checkbox') && el.nextElementSibling) {
        shown = ring(el.nextElementSibling);
    }
    const form = document.getElementById('entry-form');
    return {
        stop: el.type === 'radio' ? 'radio:' + el.name : (el.id || el.name || el.getAttribute('aria-label') ||
              el.textContent.trim().slice(0, 40)),
        inForm: !!(form && form.contains(el)),
        focusVisible: el.matches(':focus-visible'),
        shown,
        tag: el.tagName.toLowerCase(),
    };
}"""

# Every tab stop of the entry form that is shown: a radio group counts once.
TAB_STOPS = """() => {
    const form = document.getElementById('entry-form');
    const stops = new Set();
    for (const el of form.querySelectorAll('button, select, input, summary, a[href]')) {
        if (el.type === 'hidden' || el.disabled) continue;
        const box = (el.type === 'radio' ? el.parentElement : el).getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        stops.add(el.type === 'radio' ? 'radio:' + el.name : (el.id || el.name || el.getAttribute('aria-label') ||
                  el.textContent.trim().slice(0, 40)));
    }
    return [...stops];
}"""


@pytest.mark.parametrize("game", GAMES)
def test_keyboard_reaches_every_control_with_a_visible_focus(app, axe_check, size, game):
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    names, options, hands, _bidding = IN_PROGRESS[game]
    match = app.make_match(game, names, options, hands, owner=user)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#entry-form")).to_be_visible()
    details = page.locator("#entry details.more")
    if details.count():
        # Open "Already played? Enter the tricks too" from the keyboard, so
        # that the tricks are in the tab order too.
        details.locator("summary").focus()
        page.keyboard.press("Enter")
        expect(details).to_have_attribute("open", "")
    expected = set(page.evaluate(TAB_STOPS))

    page.locator("a.skip").focus()  # the first stop of the page
    reached, no_ring = [], []
    for _ in range(120):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None:
            break
        if focused["inForm"]:
            reached.append(focused["stop"])
            if not (focused["focusVisible"] and focused["shown"]):
                no_ring.append(focused)
        elif reached:  # tabbed past the form
            break
    assert not no_ring, f"focused without a visible focus style: {no_ring}"
    assert set(reached) == expected, f"never reached: {expected - set(reached)}; unexpected: {set(reached) - expected}"
    assert len(reached) == len(set(reached)), f"a control was reached twice: {reached}"

    # Every input and select (and button) of the entry form has a name.
    naming_rules = ["label", "select-name", "button-name", "aria-input-field-name", "summary-name"]
    results = axe_check(f"keyboard-{game}", context="#entry-form")
    del results  # serious ones are asserted by the page test; here: any impact
    from axe_playwright_python.sync_playwright import Axe

    response = Axe().run(page, context="#entry-form", options={"runOnly": naming_rules}).response
    unnamed = [(v["id"], [n["target"] for n in v["nodes"]]) for v in response["violations"]]
    assert not unnamed, f"controls without an accessible name: {unnamed}"
