"""The round clock on pages already open: the director pauses, adds time
and resumes on the desk; a table's sheet and the standings screen, open
all along and never reloaded, show each change by themselves (their polls:
3 s for a sheet, 5 s for the standings)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import App, claim_link, new_device

pytestmark = pytest.mark.e2e

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def minutes_left(locator) -> int:
    """The minutes a clock shows ("34:58" -> 34; "Round clock paused · 29:41 left" -> 29)."""
    return int(re.search(r"(\d+):\d\d", locator.inner_text()).group(1))


def test_pause_and_added_time_reach_an_open_sheet_and_the_standings(app: App, new_context, live_server):
    from scorekeeper.access.services import issue_link
    from scorekeeper.audit import SYSTEM, Actor
    from scorekeeper.models import Table
    from scorekeeper.tournaments import services

    user = app.make_organiser()
    actor = Actor.organiser(user)
    t = services.create_tournament(
        name="Club night", game="spades", format="swiss", options={"target": 500}, rounds=2,
        round_minutes=30, confirm_hands=False, actor=actor,
    )  # fmt: skip
    services.register_players(tournament_id=t.pk, text="\n".join(NAMES), actor=actor)
    rnd = services.propose_round(tournament_id=t.pk, actor=actor)
    services.publish_round(round_id=rnd.pk, actor=actor)
    first = Table.objects.filter(round=rnd).order_by("number").first()

    # A table's phone and the room's screen, opened before anything is pressed.
    _link, token = issue_link(match_id=first.match_id, label="table 1", actor=SYSTEM)
    table = new_device(new_context, live_server, "phone")
    claim_link(table, token)
    sheet_clock = table.page.locator("#round-clock")
    expect(sheet_clock).to_contain_text("Time left in the round")
    expect(sheet_clock.locator(".round-clock-left")).to_have_text(re.compile(r"^(29|30):\d\d$"))
    screen = new_device(new_context, live_server, "tablet")
    screen.page.goto(f"/tournaments/{t.pk}/standings/")
    screen_clock = screen.page.locator("#round-clock")
    expect(screen_clock).to_contain_text("Time left in the round")
    # nothing on either page is reloaded from here on
    table.page.evaluate("window.notReloaded = true")
    screen.page.evaluate("window.notReloaded = true")

    page = app.page
    app.log_in_fast(user)
    page.goto(f"/tournaments/{t.pk}/rounds/{rnd.pk}/desk/")
    app.tap(page.get_by_role("button", name="Pause"))
    expect(page.locator("#desk-live .round-clock")).to_contain_text("Round clock paused")

    expect(sheet_clock).to_contain_text("Round clock paused", timeout=8_000)
    expect(screen_clock).to_contain_text("Round clock paused", timeout=10_000)
    paused = minutes_left(sheet_clock)
    assert paused in (29, 30)
    table.page.wait_for_timeout(1_500)
    assert minutes_left(sheet_clock) == paused  # a paused clock does not count

    app.tap(page.get_by_role("button", name="+5 min"))
    expect(page.locator("#desk-live .round-clock")).to_contain_text(f"{paused + 5}:")
    expect(sheet_clock).to_contain_text(f"{paused + 5}:", timeout=8_000)
    expect(sheet_clock).to_contain_text("Round clock paused")

    app.tap(page.get_by_role("button", name="Resume"))
    expect(sheet_clock).to_contain_text("Time left in the round", timeout=8_000)
    expect(sheet_clock.locator(".round-clock-left")).to_have_text(
        re.compile(rf"^{paused + 5}:\d\d$|^{paused + 4}:\d\d$")
    )
    expect(screen_clock).to_contain_text("Time left in the round", timeout=10_000)
    expect(screen_clock.locator(".round-clock-left")).to_have_text(re.compile(rf"^({paused + 5}|{paused + 4}):\d\d$"))
    # the countdown runs again on the open sheet
    before = sheet_clock.locator(".round-clock-left").inner_text()
    expect(sheet_clock.locator(".round-clock-left")).not_to_have_text(before, timeout=3_000)
    assert table.page.evaluate("window.notReloaded") is True
    assert screen.page.evaluate("window.notReloaded") is True
