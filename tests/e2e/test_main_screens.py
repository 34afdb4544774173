"""Every main screen, at phone and tablet size:

* a screenshot for people to look at (under SCREENSHOT_DIR); the score
  sheets also in the dark colour scheme (<name>-dark--<size>.png);
* the layout rules of UX.md a machine can check: the page never scrolls
  sideways, the entry form never does, the history table does not for 2-4
  players, and what a thumb presses on the score sheet is at least 44 px;
* axe-core: no violation of impact "serious" or "critical". Every violation
  (all impacts) is printed and recorded in axe-results.jsonl.

All screens of a group are checked before the test fails, so one run shows
every problem. Layout rules that have a regression test of their own in
test_bugs.py are left out here, so that this test still guards the rest."""

from __future__ import annotations

import pytest

from .conftest import SCREEN_GROUPS, open_screens

pytestmark = pytest.mark.e2e

LAYOUT = """() => {
    const doc = document.documentElement;
    const out = {pageOverflow: doc.scrollWidth - doc.clientWidth, formOverflow: null, tableOverflow: null,
                 players: document.querySelectorAll('#totals li').length, small: []};
    const form = document.querySelector('#entry-form');
    if (form) out.formOverflow = form.scrollWidth - form.clientWidth;
    const table = document.querySelector('.table-scroll');
    if (table) out.tableOverflow = table.scrollWidth - table.clientWidth;
    // Tap targets on the score sheet: what a thumb presses while entering a hand.
    // (The history's Edit links: test_bugs.py::test_edit_links_are_44px_tap_targets.)
    const targets = document.querySelectorAll(
        '#entry button, #entry select, #entry input:not([type=radio]):not([type=checkbox]):not([type=hidden]),' +
        ' #entry summary, #entry .segmented label > span, #entry .chip > span, #entry label.check, .menu summary');
    for (const el of targets) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;  // not shown
        if (r.height < 44 || r.width < 44) {
            const text = (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30);
            out.small.push(`${el.tagName.toLowerCase()} "${text}" ${Math.round(r.width)}x${Math.round(r.height)}`);
        }
    }
    return out;
}"""


@pytest.mark.parametrize("group", SCREEN_GROUPS)
def test_main_screens(app, shot, axe_check, size, group):
    problems = []
    for name, run_axe in open_screens(app, group):
        app.page.evaluate("window.scrollTo(0, 0)")  # else the sticky totals bar is drawn mid-page
        shot(name)
        layout = app.page.evaluate(LAYOUT)
        # 5-7 players: test_bugs.py::test_wide_history_table_does_not_make_the_page_scroll_sideways
        if layout["pageOverflow"] > 0 and layout["players"] <= 4:
            problems.append(f"{name}: the page scrolls sideways by {layout['pageOverflow']}px")
        if layout["formOverflow"]:
            problems.append(f"{name}: the entry form scrolls sideways by {layout['formOverflow']}px")
        # The score sheet's history; other tables (standings) scroll in a region of their own.
        if layout["tableOverflow"] and 0 < layout["players"] <= 4:
            problems.append(f"{name}: the history table of {layout['players']} players scrolls sideways")
        if layout["small"]:
            problems.append(f"{name}: tap targets under 44px: {', '.join(layout['small'])}")
        if run_axe:
            problems += [f"{name}: axe {line}" for line in axe_check(name)]
        if name.startswith("sheet-"):  # the score sheet in the dark too (prefers-color-scheme: dark)
            app.page.emulate_media(color_scheme="dark")
            shot(f"{name}-dark")
            if run_axe:
                problems += [f"{name}-dark: axe {line}" for line in axe_check(f"{name}-dark")]
            app.page.emulate_media(color_scheme="light")
    assert not problems, "\n".join(problems)
