"""The keyboard, at phone and tablet size: tabbing through each game's entry
form reaches every control, each with a visible focus style, and every
control has an accessible name.

(axe-core on every main page: test_main_screens.py.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import GAMES, IN_PROGRESS

pytestmark = pytest.mark.e2e


# A name for a tab stop: a radio group (a row of chips) is one stop.
STOP_OF = """el => el.type === 'radio' ? 'radio:' + el.name
    : (el.id || el.name || el.textContent.trim().slice(0, 40))"""

# What has focus, whether it shows a focus ring, and the tab stop it counts as
# (a radio group is one stop; hidden radios show the ring on their label).
FOCUSED = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const stopOf = STOP_OF;
    const ring = e => { const s = getComputedStyle(e);
        return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none'; };
    let shown = ring(el);
    if (!shown && (el.type === 'radio' || el.type === 'checkbox') && el.nextElementSibling) {
        shown = ring(el.nextElementSibling);
    }
    const form = document.getElementById('entry-form');
    return {
        stop: stopOf(el),
        inForm: !!(form && form.contains(el)),
        focusVisible: el.matches(':focus-visible'),
        shown,
        tag: el.tagName.toLowerCase(),
    };
}""".replace("STOP_OF", STOP_OF)

# Every tab stop of the entry form that is shown: a radio group counts once.
TAB_STOPS = """() => {
    const form = document.getElementById('entry-form');
    const stopOf = STOP_OF;
    const stops = new Set();
    for (const el of form.querySelectorAll('button, select, input, summary, a[href]')) {
        if (el.type === 'hidden' || el.disabled) continue;
        const box = (el.type === 'radio' ? el.parentElement : el).getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        stops.add(stopOf(el));
    }
    return [...stops];
}""".replace("STOP_OF", STOP_OF)


NAMING_RULES = ["label", "select-name", "button-name", "aria-input-field-name", "summary-name"]


def test_keyboard_reaches_every_control_with_a_visible_focus(app, size):
    from axe_playwright_python.sync_playwright import Axe

    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    problems = []
    for game in GAMES:
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
        expected = page.evaluate(TAB_STOPS)

        page.locator("a.skip").focus()  # the first stop of the page
        reached = []
        for _ in range(150):
            page.keyboard.press("Tab")
            focused = page.evaluate(FOCUSED)
            if focused is None:
                break
            if focused["inForm"]:
                reached.append(focused["stop"])
                if not (focused["focusVisible"] and focused["shown"]):
                    problems.append(f"{game}: {focused['stop']} has focus without a visible focus style")
            elif reached:  # tabbed past the form
                break
        missed = [stop for stop in expected if stop not in reached]
        if missed:
            problems.append(f"{game}: never reached by Tab: {missed}")
        if len(reached) != len(set(reached)):
            problems.append(f"{game}: a control was reached twice: {reached}")
        print(f"{game} [{size}]: {len(reached)} tab stops in the entry form: {reached}")

        # Every input, select, button and summary of the entry form has a name.
        response = Axe().run(page, context="#entry-form", options={"runOnly": NAMING_RULES}).response
        for v in response["violations"]:
            problems.append(f"{game}: axe {v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']]}")
    assert not problems, "\n".join(problems)
