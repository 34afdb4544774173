"""The sheet's poll slows down while nobody is looking (static/js/poll.js,
README "What a poll costs"): every 3 s at first; after ten unchanged
answers in a row every 6 s, after ten more every 12 s, no slower. A touch,
an answer with news or the page shown again: every 3 s again. A hidden
page asks once a minute. Time is the browser's fake clock (page.clock), so
the minutes pass at once; the answers are the live server's."""

from __future__ import annotations

import time

import pytest

from .conftest import NAMES2, App, play

pytestmark = pytest.mark.e2e
PHONE = pytest.mark.parametrize("size", ["phone"], indirect=True)

WATCH = """
    window.__asked = []; window.__pending = 0;
    document.addEventListener('htmx:beforeRequest', (e) => {
        if (e.detail.elt.id === 'changed') { window.__asked.push(Date.now()); window.__pending += 1; }
    });
    document.addEventListener('htmx:afterRequest', (e) => {  // a replaced poll's answer: announced on its parent
        if ((e.detail.requestConfig || e.detail).elt.id === 'changed') window.__pending -= 1;
    });
"""


def opened(app: App, match_id: int) -> None:
    """The sheet open, its polls counted, the page's clock stopped (it moves only by seconds_pass)."""
    app.page.add_init_script(WATCH)
    app.page.clock.install()
    app.page.goto(f"/matches/{match_id}/")
    app.page.clock.pause_at(app.page.evaluate("Date.now()") + 100)


def seconds_pass(app: App, seconds: int) -> None:
    """``seconds`` of the page's time, one at a time, each poll's answer in before the next second."""
    for _ in range(seconds):
        app.page.clock.run_for(1000)
        deadline = time.monotonic() + 10
        while app.page.evaluate("window.__pending") and time.monotonic() < deadline:
            time.sleep(0.02)


def gaps(app: App, since: int = 0) -> list[int]:
    """Whole seconds between the polls asked, from the ``since``-th on."""
    asked = app.page.evaluate("window.__asked")[since:]
    return [round((b - a) / 1000) for a, b in zip(asked, asked[1:], strict=False)]


def asked(app: App) -> int:
    return len(app.page.evaluate("window.__asked"))


def set_visibility(app: App, state: str) -> None:
    app.page.evaluate(
        """(state) => {
            Object.defineProperty(document, 'visibilityState', {get: () => state, configurable: true});
            document.dispatchEvent(new Event('visibilitychange'));
        }""",
        state,
    )


@PHONE
def test_an_untouched_sheet_polls_ever_more_slowly_and_a_touch_or_news_brings_it_back(app: App):
    match = app.make_match("spades", NAMES2, {"target": 500})
    opened(app, match.pk)

    seconds_pass(app, 150)
    # Ten polls 3 s apart, ten 6 s apart, then every 12 s: 25 in 150 s instead of 50.
    assert gaps(app)[:20] == [3] * 9 + [6] * 10 + [12]
    assert set(gaps(app, 19)) == {12}
    assert 24 <= asked(app) <= 26

    # A touch: the next tick asks, 3 s apart from then on.
    before = asked(app)
    app.page.dispatch_event("body", "pointerdown")
    seconds_pass(app, 9)
    assert asked(app) - before == 3

    # Idle again, then a hand saved on another phone: the answer with news brings it back to 3 s.
    seconds_pass(app, 120)
    assert gaps(app)[-1] == 12
    play(app.match(match.pk), {"bids": [4, 3], "tricks": [5, 8]})  # Ann 4 took 5: 41; Bob 3 took 8: 35
    seconds_pass(app, 12)  # within one slow tick the news is in
    assert "41" in app.page.locator("#totals").text_content()
    before = asked(app)
    seconds_pass(app, 9)
    assert asked(app) - before >= 2  # every 3 s (the poll drawn with the news starts its own 3 s)


@PHONE
def test_a_hidden_sheet_polls_once_a_minute_and_at_once_when_shown(app: App):
    match = app.make_match("spades", NAMES2, {"target": 500})
    opened(app, match.pk)
    seconds_pass(app, 6)
    assert asked(app) >= 2

    set_visibility(app, "hidden")
    before = asked(app)
    seconds_pass(app, 180)
    assert asked(app) - before == 3  # once a minute
    assert gaps(app, before)[-2:] == [60, 60]

    set_visibility(app, "visible")
    before = asked(app)
    seconds_pass(app, 3)
    assert asked(app) - before == 1  # shown again: the next tick asks
    seconds_pass(app, 6)
    assert asked(app) - before == 3
