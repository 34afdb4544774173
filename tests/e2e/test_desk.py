"""The director's desk and the round clock in the browser: a Swiss Spades
round of two tables being scored; the organiser's desk (phone) shows both
tables with the hand each is on and updates by itself (its 5 s poll);
the filters are plain links. A table's sheet counts the round's time down
in the browser and says "Time is up" when it is, without a reload; a round
whose end is past shows it as drawn."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from .conftest import App, claim_link, new_device

pytestmark = pytest.mark.e2e

NAMES = ["Ann", "Bob", "Cat", "Dan"]


@pytest.mark.parametrize("size", ["phone", "tablet"])
def test_the_desk_and_the_round_clock(app: App, new_context, live_server, size, shot, axe_check, screenshot_dir):
    from django.utils import timezone

    from scorekeeper.access.services import issue_link
    from scorekeeper.audit import SYSTEM, Actor
    from scorekeeper.models import Match, Round, Table
    from scorekeeper.tournaments import services

    from ..conftest import play

    user = app.make_organiser()
    actor = Actor.organiser(user)
    t = services.create_tournament(
        name="Club night", game="spades", format="swiss", options={"target": 500}, rounds=2,
        round_minutes=30, confirm_hands=False, actor=actor,
    )  # fmt: skip
    services.register_players(tournament_id=t.pk, text="\n".join(NAMES), actor=actor)
    rnd = services.propose_round(tournament_id=t.pk, actor=actor)
    services.publish_round(round_id=rnd.pk, actor=actor)
    tables = list(Table.objects.filter(round=rnd).order_by("number"))
    play(Match.objects.get(pk=tables[0].match_id), {"bids": [4, 3], "tricks": [5, 8]})
    play(Match.objects.get(pk=tables[0].match_id), {"bids": [4, 3], "tricks": [5, 8]})
    play(Match.objects.get(pk=tables[1].match_id), {"bids": [4, 3], "tricks": [5, 8]})

    page = app.page
    app.log_in_fast(user)
    page.goto(f"/tournaments/{t.pk}/")
    app.tap(page.get_by_role("link", name="Director's desk"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Director's desk")
    cards = page.locator(".desk-table")
    expect(cards).to_have_count(2)
    expect(page.locator("#desk-table-1")).to_contain_text("On hand 3")
    expect(page.locator("#desk-table-2")).to_contain_text("On hand 2")
    expect(page.locator("#desk-live .round-clock-left")).to_have_text(re.compile(r"^(29|30):\d\d$"))
    shot("desk")
    problems = [f"light: {line}" for line in axe_check("desk")]
    page.emulate_media(color_scheme="dark")
    shot("desk-dark")
    problems += [f"dark: {line}" for line in axe_check("desk-dark")]
    page.emulate_media(color_scheme="light")
    assert not problems, "\n".join(problems)

    # The second table saves a hand: the desk shows it by itself (5 s poll).
    play(Match.objects.get(pk=tables[1].match_id), {"bids": [4, 3], "tricks": [5, 8]})
    expect(page.locator("#desk-table-2")).to_contain_text("On hand 3", timeout=15_000)

    # The filters are links: "not started" keeps no table here.
    app.tap(page.get_by_role("link", name="Not started"))
    expect(page).to_have_url(f"{live_server.url}/tournaments/{t.pk}/rounds/{rnd.pk}/desk/?show=not_started")
    expect(cards).to_have_count(0)
    expect(page.locator("main")).to_contain_text("No table to show here.")

    # A table's phone: the clock counts down, and says when time is up, by itself.
    _link, token = issue_link(match_id=tables[0].match_id, label="table 1", actor=SYSTEM)
    table = new_device(new_context, live_server, size)
    claim_link(table, token)
    clock = table.page.locator(".round-clock")
    expect(clock).to_contain_text("Time left in the round")
    Round.objects.filter(pk=rnd.pk).update(ends_at=timezone.now() + timedelta(seconds=3))
    table.page.reload()
    expect(clock.locator("[data-clock-up]")).to_be_hidden()
    expect(clock).to_contain_text("Time is up: finish the hand in progress.", timeout=8_000)
    expect(clock.locator("[data-clock-up]")).to_be_visible()
    # Drawn after the end: "Time is up" at once, and the rule.
    Round.objects.filter(pk=rnd.pk).update(ends_at=timezone.now() - timedelta(minutes=2))
    table.page.reload()
    expect(clock).to_contain_text("Time is up: finish the hand in progress.")
    expect(clock).to_contain_text("The organiser ends the table: completed hands count, the totals decide.")
    table.page.screenshot(path=str(screenshot_dir / f"sheet-time-up--{size}.png"), full_page=True)
