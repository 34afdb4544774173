"""A player's page and a finished match's chart in Chromium, phone and
tablet, light and dark: from the sheet's name to the figures, axe clean."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

SPADES_WIN = {"bids": [7, 4], "tricks": [8, 5]}  # Ann 71, Bob 41


def test_tap_a_name_on_a_finished_sheet_and_see_how_they_play(app, shot, axe_check):
    match = app.make_match("spades", ["Ann", "Bob"], {"target": 100}, hands=[SPADES_WIN, SPADES_WIN])
    page = app.page
    page.goto(f"/matches/{match.pk}/")
    chart = page.locator("#chart svg.chart-svg")
    expect(chart).to_be_visible()
    assert chart.get_attribute("role") == "img"
    expect(page.locator("#chart polyline")).to_have_count(2)
    expect(page.locator("#chart desc")).to_have_text(re.compile(r"Final: Ann 142, Bob 82\."))
    problems = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.locator("#chart").scroll_into_view_if_needed()
        shot(f"chart-{scheme}")
        problems += axe_check(f"chart-{scheme}")
    page.emulate_media(color_scheme="light")
    app.tap(page.locator("#totals").get_by_role("link", name="Ann"))
    expect(page).to_have_url(re.compile(r"/players/\d+/$"))
    expect(page.get_by_role("heading", name="Ann", level=1)).to_be_visible()
    expect(page.get_by_role("heading", name="Spades")).to_be_visible()
    expect(page.locator(".stats")).to_contain_text("Won")
    expect(page.locator("table.versus")).to_contain_text("Bob")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the player page scrolls sideways by {overflow}px"
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        shot(f"player-{scheme}")
        problems += axe_check(f"player-{scheme}")
    assert not problems, "\n".join(problems)


def test_the_chart_is_on_the_printed_card(app):
    match = app.make_match("spades", ["Ann", "Bob"], {"target": 100}, hands=[SPADES_WIN, SPADES_WIN])
    page = app.page
    page.goto(f"/matches/{match.pk}/")
    page.emulate_media(media="print")
    expect(page.locator("#chart svg")).to_be_visible()
    page.emulate_media(media="screen")
