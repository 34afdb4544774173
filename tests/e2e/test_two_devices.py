"""Two devices on one match: the organiser's phone and a phone that opened
the match's scoring link ("Bob's phone").

* An open sheet polls "changed?" every 3 s with the version it shows: while
  nothing changes the answer is 304 and nothing on the page moves; after
  another device saves, the change shows within one poll (tests/e2e/test_live.py
  has the rest of the live sheet).
* A page that is out of date (here: its polls bring no news, as when both
  phones save within one poll) cannot overwrite the bids in force: it is
  told, in words, who saved which bids, and nothing it typed is stored. The
  hand is then saved once, with the bids that were in force.

Spades, Ann and Bob, target 500. Hand 1: Ann draws first, Bob bids first.
Expected scores from RULES.md 2.3: a bid b made with t tricks scores
10*b + (t - b).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ..conftest import entries, play
from .conftest import NAMES2, App, claim_link, new_device

pytestmark = pytest.mark.e2e
PHONE = pytest.mark.parametrize("size", ["phone"], indirect=True)

LINK_LABEL = "Bob's phone"
REFUSAL_BY_B = re.compile(
    r"^The phone with the link “Bob's phone” saved the bids Ann 4, Bob 5 a moment ago\. "
    r"Nothing was changed: check them below, then enter again\.$"
)
POLL_SECONDS = 3  # hx-trigger="every 3s" on the sheet's #changed


def a_match_on_two_devices(app: App, new_context, live_server, size: str = "phone") -> tuple[int, App]:
    """The organiser (app.page) and Bob's phone both show hand 1 of a new
    Spades match. Returns the match id and Bob's phone."""
    from scorekeeper.access.services import issue_link
    from scorekeeper.audit import Actor

    user = app.make_organiser()
    app.log_in_fast(user)
    match = app.make_match("spades", NAMES2, {"target": 500}, owner=user)
    _link, token = issue_link(match_id=match.pk, label=LINK_LABEL, actor=Actor.organiser(user))
    bob = new_device(new_context, live_server, size)
    assert claim_link(bob, token) == match.pk
    for dev in (app, bob):
        if dev.page.url != f"{live_server.url}/matches/{match.pk}/":
            dev.page.goto(f"/matches/{match.pk}/")
        expect(dev.page.locator("#entry .next-hand h2")).to_have_text("Hand 1")
        dev.expect_totals({"Ann": 0, "Bob": 0})
    return match.pk, bob


def save_bids(dev: App, ann: int, bob: int) -> None:
    dev.step_to("bids_1", bob, max_taps=0)  # Bob bids first in hand 1
    dev.step_to("bids_0", ann, max_taps=0)
    dev.press("Save bids")


def out_of_touch(dev: App) -> None:
    """This phone's polls bring no news (as when both phones save within one poll): 304."""
    dev.page.route(lambda url: "/changed/" in url, lambda route: route.fulfill(status=304))


def audit_actions(match_id: int) -> list[str]:
    from scorekeeper.models import AuditEvent

    return list(AuditEvent.objects.filter(match_id=match_id).order_by("pk").values_list("action", flat=True))


# --------------------------------------------------------- the "changed?" poll


def test_polls_answer_304_until_another_device_saves(app, new_context, live_server, size, shot):
    page = app.page
    polls: list[int] = []
    page.on("response", lambda r: polls.append(r.status) if "/changed/" in r.url else None)
    match_id, bob = a_match_on_two_devices(app, new_context, live_server, size)
    page.reload()  # the poll's clock starts with this page; the listener is in place
    expect(page.locator("#entry-form")).to_be_visible()
    polls.clear()

    # The organiser starts typing the bids (not saved).
    app.step_to("bids_1", 3, max_taps=0)
    # Mark what is on the page now: a swap would put new elements in their place.
    page.evaluate(
        """() => { window.__before = ['changed', 'entry', 'entry-form', 'totals', 'history']
            .map(id => document.getElementById(id)); }"""
    )

    # ---- nothing changes for more than two polls: 304s, and nothing moves
    page.wait_for_timeout((2 * POLL_SECONDS + 1.5) * 1000)
    assert len(polls) >= 2 and set(polls) == {304}, f"the polls were answered {polls}"
    same = page.evaluate(
        """() => window.__before.map(el => el !== null && el.isConnected
            && el === document.getElementById(el.id))"""
    )
    assert same == [True] * 5, f"replaced (changed, entry, entry-form, totals, history): {same}"
    expect(page.locator("#changed")).to_be_empty()
    expect(page.locator("#connection")).to_be_hidden()
    expect(app.chosen("bids_1")).to_have_value("3")
    app.expect_totals({"Ann": 0, "Bob": 0})

    # ---- Bob's phone saves bids: they show within one poll, no tap, and the organiser is told
    # that what it had chosen was not saved.
    save_bids(bob, ann=4, bob=5)
    bob.expect_notice("Bids saved")
    expect(page.locator("#entry .big-bids")).to_contain_text(
        re.compile(r"Bob\s*5\s*Ann\s*4"), timeout=(POLL_SECONDS + 2) * 1000
    )
    assert 200 in polls
    expect(page.locator("#changed")).to_contain_text("what you had chosen here was not saved")
    page.evaluate("window.scrollTo(0, 0)")
    shot("sheet-changed-banner")

    # ---- a hand saved by another writer (here through the services) shows too
    play(app.match(match_id), {"bids": [4, 5], "tricks": [7, 6]})
    # Ann 4/7: 40 + 3 = 43. Bob 5/6: 50 + 1 = 51.
    expect(page.locator("#totals")).to_contain_text(re.compile(r"Ann\s*43.*Bob\s*51", re.S))
    app.expect_totals({"Ann": 43, "Bob": 51})
    expect(page.locator("#entry .next-hand h2")).to_have_text("Hand 2")


@PHONE
def test_own_saves_leave_the_polls_at_304(app, new_context, live_server):
    """The sheet that saved is up to date: its poll keeps answering 304."""
    page = app.page
    polls: list[int] = []
    page.on("response", lambda r: polls.append(r.status) if "/changed/" in r.url else None)
    a_match_on_two_devices(app, new_context, live_server)
    save_bids(app, ann=4, bob=5)
    app.expect_notice("Bids saved")
    polls.clear()
    page.wait_for_timeout((POLL_SECONDS + 2.5) * 1000)
    assert polls and set(polls) == {304}, f"the polls were answered {polls}"
    expect(page.locator("#changed")).to_be_empty()
    app.expect_notice("Bids saved")


# ------------------------------------------------------------- stale pages


@PHONE
def test_stale_bids_are_refused_and_the_hand_is_saved_with_the_bids_in_force(app, new_context, live_server, shot):
    page = app.page
    match_id, bob = a_match_on_two_devices(app, new_context, live_server)
    out_of_touch(app)

    # Bob's phone saves the bids: Ann 4, Bob 5.
    save_bids(bob, ann=4, bob=5)
    bob.expect_notice("Bids saved")
    expect(bob.page.locator("#entry .big-bids")).to_contain_text(re.compile(r"Bob\s*5\s*Ann\s*4"))

    # The organiser's phone, still showing hand 1 without bids, saves Ann 2, Bob 3.
    expect(page.locator("#entry .big-bids")).to_have_count(0)
    save_bids(app, ann=2, bob=3)
    error = page.locator("#entry .banner-error")
    expect(error).to_have_text(REFUSAL_BY_B)
    expect(page.locator("#entry .banner-success")).to_have_count(0)  # no "Bids saved"
    expect(page.locator("#connection")).to_be_hidden()  # a refusal in words, not "the server could not save"
    # The sheet now shows the bids in force: Bob's phone's.
    expect(page.locator("#entry .big-bids")).to_contain_text(re.compile(r"Bob\s*5\s*Ann\s*4"))
    expect(page.locator("#entry .big-bids")).not_to_contain_text("2")
    page.evaluate("window.scrollTo(0, 0)")
    shot("sheet-stale-bids-refused")
    page.emulate_media(color_scheme="dark")
    shot("sheet-stale-bids-refused-dark")
    page.emulate_media(color_scheme="light")
    # Nothing the organiser typed was stored.
    match = app.match(match_id)
    assert match.pending_bidding == {"bids": [4, 5]}
    assert app.hand_count(match_id) == 0
    assert audit_actions(match_id).count("bids saved") == 1

    # The organiser enters the tricks on the bids in force: Bob 6, Ann's fill in as 7.
    expect(page.locator("#entry-form fieldset[data-auto]")).to_have_attribute("id", "in-tricks_0")
    app.step_to("tricks_1", 6, max_taps=0)
    expect(app.chosen("tricks_0")).to_have_value("7")
    # Ann 4/7: 40 + 3 = 43 (3 bags). Bob 5/6: 50 + 1 = 51 (1 bag).
    app.expect_preview({"Ann": "+43", "Bob": "+51"})
    app.press("Save hand 1")
    app.expect_notice("Hand 1 saved.")
    expect(page.locator("#entry .banner-error")).to_have_count(0)
    app.expect_totals({"Ann": 43, "Bob": 51})
    app.expect_history_rows(1)
    expect(app.history_row(1)).to_contain_text(re.compile(r"4 / 7\s*\+43"))
    expect(app.history_row(1)).to_contain_text(re.compile(r"5 / 6\s*\+51"))

    match = app.match(match_id)
    assert entries(match) == [{"bids": [4, 5], "tricks": [7, 6]}]
    assert match.totals == [43, 51]
    assert match.pending_bidding is None

    # Bob's phone, which showed the bids, shows the hand within one poll, without a tap.
    expect(bob.page.locator("#entry .next-hand h2")).to_have_text("Hand 2", timeout=(POLL_SECONDS + 2) * 1000)
    bob.expect_totals({"Ann": 43, "Bob": 51})
    expect(bob.page.locator("#changed")).to_have_text("Hand 1 was saved by the organiser organiser.")


@PHONE
def test_stale_whole_hand_is_refused_and_keeps_the_tricks(app, new_context, live_server):
    page = app.page
    match_id, bob = a_match_on_two_devices(app, new_context, live_server)
    out_of_touch(app)

    # The organiser enters the whole hand at once, with bids Ann 2, Bob 3 ...
    app.open_all_at_once()
    app.step_to("bids_1", 3, max_taps=0)
    app.step_to("bids_0", 2, max_taps=0)
    app.step_to("tricks_1", 6, max_taps=0)
    expect(app.chosen("tricks_0")).to_have_value("7")
    # ... while Bob's phone saves bids Ann 4, Bob 5.
    save_bids(bob, ann=4, bob=5)
    bob.expect_notice("Bids saved")

    app.press("Save hand 1")
    expect(page.locator("#entry .banner-error")).to_have_text(REFUSAL_BY_B)
    expect(page.locator("#entry .banner-success")).to_have_count(0)
    expect(page.locator("#connection")).to_be_hidden()
    expect(page.locator("#entry .big-bids")).to_contain_text(re.compile(r"Bob\s*5\s*Ann\s*4"))
    app.expect_totals({"Ann": 0, "Bob": 0})
    app.expect_history_rows(0)
    assert app.hand_count(match_id) == 0
    assert app.match(match_id).pending_bidding == {"bids": [4, 5]}
    # The tricks typed are kept, now on the bids in force: Ann 4/7 43, Bob 5/6 51.
    app.expect_values({"tricks_0": 7, "tricks_1": 6})
    app.expect_preview({"Ann": "+43", "Bob": "+51"})

    app.press("Save hand 1")
    app.expect_notice("Hand 1 saved.")
    app.expect_totals({"Ann": 43, "Bob": 51})
    app.expect_history_rows(1)

    match = app.match(match_id)
    assert entries(match) == [{"bids": [4, 5], "tricks": [7, 6]}]
    assert match.totals == [43, 51]
    assert audit_actions(match_id).count("hand recorded") == 1
