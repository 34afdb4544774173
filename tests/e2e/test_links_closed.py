"""A match's results lock when it ends, in the browser: Bob's phone (the
match's scoring link) has a hand typed when the organiser abandons the
match; its Save is refused in plain words and nothing is stored; the sheet
then offers it no Undo and no Edit. The organiser's share page shows the
working link again (nothing stored to show it from: it is worked out).

Spades, Ann and Bob, target 500: hand 1, Bob bids first. A bid b made
with t tricks scores 10*b + (t - b) (RULES.md 2.3)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import App
from .test_two_devices import a_match_on_two_devices, save_bids

pytestmark = pytest.mark.e2e

ABANDONED = "This match was abandoned: only the organiser can reopen it or change its results now."


def test_a_device_cannot_write_once_the_match_has_ended(app: App, new_context, live_server, size, shot, screenshot_dir):
    from scorekeeper.audit import Actor
    from scorekeeper.matches.services import abandon_match
    from scorekeeper.models import AccessLink, Match

    match_id, bob = a_match_on_two_devices(app, new_context, live_server, size)
    save_bids(bob, ann=4, bob=5)
    bob.expect_notice("Bids saved")
    bob.step_to("tricks_1", 6, max_taps=0)  # Bob 6: Ann's 7 filled in
    expect(bob.chosen("tricks_0")).to_have_value("7")
    match = Match.objects.get(pk=match_id)
    abandon_match(match_id=match_id, actor=Actor.organiser(match.owner))
    version = Match.objects.get(pk=match_id).version

    bob.press("Save hand 1")
    banner = bob.page.locator("#connection")
    expect(banner).to_have_text(ABANDONED)
    expect(bob.chosen("tricks_0")).to_have_value("7")  # what was typed stays in the form
    assert (Match.objects.get(pk=match_id).version, Match.objects.get(pk=match_id).hands_played) == (version, 0)
    bob.page.evaluate("window.scrollTo(0, 0)")
    bob.page.screenshot(path=str(screenshot_dir / f"device-refused-ended--{size}.png"), full_page=True)

    # Reloaded: the device watches; no form, no Undo, no Edit.
    bob.page.reload()
    expect(bob.page.locator("#entry")).to_contain_text("This match was abandoned.")
    expect(bob.page.locator("#entry-form")).to_have_count(0)
    expect(bob.page.get_by_role("link", name="Undo the last hand")).to_have_count(0)
    expect(bob.page.get_by_role("button", name="Reopen it")).to_have_count(0)
    bob.page.screenshot(path=str(screenshot_dir / f"device-watching-ended--{size}.png"), full_page=True)

    # The organiser's share page shows the link again, and its QR code.
    page = app.page
    page.goto(f"/matches/{match_id}/share/")
    link = AccessLink.objects.get(match_id=match_id)
    expect(page.locator(".banner-info")).to_contain_text("its scoring links no longer write")
    app.tap(page.locator("details.link-show summary"))
    value = page.locator("details.link-show .link-url").inner_text().strip()
    assert value.startswith(f"{live_server.url}/l/{link.pk}-1-")
    expect(page.locator("details.link-show svg")).to_be_visible()
    shot("share-links-closed")
    page.emulate_media(color_scheme="dark")
    shot("share-links-closed-dark")
    page.emulate_media(color_scheme="light")

    # The reopen form offers the choice.
    page.goto(f"/matches/{match_id}/")
    expect(page.get_by_label("Let the scoring links write again")).not_to_be_checked()
    shot("sheet-abandoned-reopen")
