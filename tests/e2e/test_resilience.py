"""Saving at a real table: a double tap saves one hand, and a save without a
connection is kept on the phone and sent when the connection is back
(more in test_offline.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import NAMES2
from .test_offline import Network

pytestmark = pytest.mark.e2e


def open_spades_sheet(app) -> int:
    user = app.make_organiser()
    app.log_in_fast(user)
    match = app.make_match("spades", NAMES2, {"target": 500}, owner=user)
    app.page.goto(f"/matches/{match.pk}/")
    expect(app.page.locator("#entry-form")).to_be_visible()
    return match.pk


def fill_spades_hand(app, bids: tuple[int, int], tricks: tuple[int, int]) -> None:
    app.open_all_at_once()
    for seat in (0, 1):
        app.step_to(f"bids_{seat}", bids[seat])
        app.step_to(f"tricks_{seat}", tricks[seat])
    app.expect_values({"bids_0": bids[0], "bids_1": bids[1], "tricks_0": tricks[0], "tricks_1": tricks[1]})


def test_double_tap_on_save_saves_once(app, touch):
    page = app.page
    match_id = open_spades_sheet(app)

    # Hand 1: a double tap (dblclick) on "Save hand 1".
    # Ann 4/7: 40 + 3 = 43; Bob 5/6: 50 + 1 = 51.
    fill_spades_hand(app, (4, 5), (7, 6))
    page.get_by_role("button", name="Save hand 1", exact=True).dblclick()
    app.expect_notice("Hand 1 saved.")
    app.expect_history_rows(1)
    page.wait_for_timeout(500)  # a second request, had one gone out, would be answered by now
    assert app.hand_count(match_id) == 1
    expect(app.history_row(1)).to_have_count(1)
    app.expect_totals({"Ann": 43, "Bob": 51})
    expect(page.locator("#entry .next-hand h2")).to_have_text("Hand 2")

    # Hand 2: two separate taps on the same spot, without waiting in between.
    # Ann 3/3: 30; Bob 6/10: 60 + 4 = 64.
    fill_spades_hand(app, (3, 6), (3, 10))
    # The player reads the score it will save before tapping; the preview
    # arriving after the tap's position was taken would move the button.
    expect(page.locator("#preview .preview-list")).to_contain_text("64")
    button = page.get_by_role("button", name="Save hand 2", exact=True)
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for _ in range(2):
        if touch:
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)
    app.expect_notice("Hand 2 saved.")
    app.expect_history_rows(2)
    page.wait_for_timeout(500)
    assert app.hand_count(match_id) == 2
    expect(app.history_row(2)).to_have_count(1)
    app.expect_totals({"Ann": 73, "Bob": 115})
    expect(page.locator("#entry .next-hand h2")).to_have_text("Hand 3")


def test_offline_save_is_kept_on_the_phone_and_sent_when_back(app, context, monkeypatch):
    network = Network(context, monkeypatch)
    page = app.page
    match_id = open_spades_sheet(app)
    fill_spades_hand(app, (4, 5), (7, 6))

    network.set_offline(True)
    app.press("Save hand 1")
    waiting = page.locator("#offline-queue")
    expect(waiting).to_have_attribute("data-offline-ui", "queue")
    expect(waiting.get_by_role("status")).to_contain_text(
        "Saved on this phone — will be sent when the connection is back."
    )
    expect(page.locator("#history .queued")).to_contain_text("Not yet sent")
    assert app.hand_count(match_id) == 0

    network.set_offline(False)
    app.expect_notice("Hand 1 saved.")
    expect(waiting).to_have_count(0)
    expect(page.locator("#connection")).to_be_hidden()
    app.expect_history_rows(1)
    app.expect_totals({"Ann": 43, "Bob": 51})
    page.wait_for_timeout(500)
    assert app.hand_count(match_id) == 1
