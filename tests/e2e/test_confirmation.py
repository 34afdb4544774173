"""The other side confirms a saved hand on the phone that entered it: the
full-screen card "Pass the phone: check hand 1" at 390x844 (and on a
1024x768 tablet), in the light
and in the dark, axe clean; "Correct" locks the hand; a second phone
confirms what the first entered; "Something is wrong" reopens the hand.

Spades, Ann and Bob, target 500. Hand 1: Bob bids first (RULES.md 2.3: a
bid b made with t tricks scores 10*b + (t - b)): Ann bids 4 and takes 7,
43 (3 bags); Bob bids 5 and takes 6, 51 (1 bag)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import App, claim_link, new_device

pytestmark = pytest.mark.e2e
PHONE = pytest.mark.parametrize("size", ["phone"], indirect=True)


def a_confirming_match(app: App):
    """A Spades match whose other side confirms each hand, scored on this
    phone through a table link. Returns (match id, organiser, link token)."""
    from scorekeeper.access.services import issue_link
    from scorekeeper.audit import Actor
    from scorekeeper.matches import services

    user = app.make_organiser()
    match = services.start_match(
        game="spades",
        player_names=["Ann", "Bob"],
        options={"target": 500},
        actor=Actor.organiser(user),
        confirm_hands=True,
    )
    _link, token = issue_link(match_id=match.pk, label="table 1", actor=Actor.organiser(user))
    assert claim_link(app, token) == match.pk
    return match.pk, user, token


def enter_hand_1(app: App) -> None:
    app.open_all_at_once()
    app.step_to("bids_1", 5, max_taps=0)
    app.step_to("bids_0", 4, max_taps=0)
    app.step_to("tricks_1", 6, max_taps=0)
    expect(app.chosen("tricks_0")).to_have_value("7")
    app.press("Save hand 1")


def confirmation(match_id: int, number: int = 1) -> str:
    from scorekeeper.models import Hand

    return Hand.objects.get(match_id=match_id, number=number).confirmation


@pytest.mark.parametrize("size", ["phone", "tablet"], indirect=True)
def test_pass_the_phone_card(app, axe_check, screenshot_dir, size):
    page = app.page
    match_id, _user, _token = a_confirming_match(app)
    enter_hand_1(app)

    card = page.get_by_role("dialog", name="Pass the phone: check hand 1")
    expect(card).to_be_visible()
    expect(card).to_be_focused()
    lines = card.locator(".check-lines li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_contain_text(re.compile(r"Ann\s*\+43\s*bid 4, took 7: 40 \+ 3 bags\s*total 43"))
    expect(lines.nth(1)).to_contain_text(re.compile(r"Bob\s*\+51\s*bid 5, took 6: 50 \+ 1 bag\s*total 51"))
    # The card covers the whole screen: nothing else to tap by mistake.
    box, screen = page.locator(".pass-card-backdrop").bounding_box(), page.viewport_size
    assert box is not None and box["width"] >= screen["width"] and box["height"] >= screen["height"]
    correct, wrong = card.get_by_role("button", name="Correct"), card.get_by_role("button", name="Something is wrong")
    for button in (correct, wrong):
        height = button.bounding_box()["height"]
        assert height >= 44, f"a button of the card is {height}px high"

    def shot(name: str) -> None:  # the screen as the table sees it: the card covers it, nothing scrolls
        page.screenshot(path=str(screenshot_dir / f"{name}--{size}.png"), animations="disabled", caret="hide")

    shot("confirm-pass-card")
    problems = [f"light: {line}" for line in axe_check("confirm-pass-card")]
    page.emulate_media(color_scheme="dark")
    shot("confirm-pass-card-dark")
    problems += [f"dark: {line}" for line in axe_check("confirm-pass-card-dark")]
    page.emulate_media(color_scheme="light")
    assert not problems, "\n".join(problems)

    app.tap(correct)
    app.expect_notice("Hand 1 confirmed: it is locked now.")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(app.history_row(1).locator(".check-mark.is-confirmed")).to_have_count(1)
    expect(app.history_row(1).get_by_role("link", name="Edit hand 1")).to_have_count(0)  # locked for the link
    assert confirmation(match_id) == "confirmed"


@PHONE
def test_a_second_phone_confirms_and_something_wrong_reopens(app, new_context, live_server, shot, axe_check):
    """The phone that entered the hand (``entering``), the same link on
    another phone, and this page: the other side's phone, on a link of its own."""
    from scorekeeper.access.services import issue_link
    from scorekeeper.audit import SYSTEM

    page = app.page
    entering = new_device(new_context, live_server)
    match_id, _user, token = a_confirming_match(entering)
    enter_hand_1(entering)
    entering.tap(entering.page.get_by_role("link", name="Later: close this card"))
    expect(entering.page.get_by_role("dialog")).to_have_count(0)
    row = entering.history_row(1)
    expect(row.locator(".check-mark.is-pending")).to_have_text(re.compile(r"not yet confirmed"))
    expect(entering.page.locator(".check-status")).to_contain_text("Not yet confirmed by another player: 1 hand.")

    # The same link on another phone may not confirm what the first phone entered.
    same_link = new_device(new_context, live_server)
    claim_link(same_link, token)
    same_link.page.goto(f"/matches/{match_id}/hands/1/check/")
    expect(same_link.page.locator("main")).to_contain_text("This screen entered hand 1, so it cannot also confirm it.")
    expect(same_link.page.get_by_role("button", name="Correct")).to_have_count(0)

    # The other side's own phone, on a link of its own: something is wrong.
    claim_link(app, issue_link(match_id=match_id, label="Bob's phone", actor=SYSTEM)[1])
    expect(page.get_by_role("dialog")).to_have_count(0)  # it did not enter the hand
    app.tap(app.history_row(1).get_by_role("link", name="Check hand 1"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Check hand 1")
    expect(page.locator(".check-lines")).to_contain_text(re.compile(r"Bob\s*\+51\s*bid 5, took 6"))
    shot("confirm-check-page")
    problems = [f"light: {line}" for line in axe_check("confirm-check-page")]
    page.emulate_media(color_scheme="dark")
    shot("confirm-check-page-dark")
    problems += [f"dark: {line}" for line in axe_check("confirm-check-page-dark")]
    page.emulate_media(color_scheme="light")
    assert not problems, "\n".join(problems)
    app.press("Something is wrong")
    expect(page.locator(".messages")).to_contain_text("Hand 1 is marked as wrong.")
    expect(app.history_row(1)).to_contain_text("marked as wrong")
    shot("confirm-disputed-row")
    assert confirmation(match_id) == "disputed"

    # The first phone corrects it (Bob took 7, Ann 6): its card comes back.
    entering.page.goto(f"/matches/{match_id}/hands/1/edit/")
    entering.step_to("tricks_1", 7)
    entering.step_to("tricks_0", 6)
    entering.press("Save hand 1")
    card = entering.page.get_by_role("dialog", name="Pass the phone: check hand 1")
    expect(card).to_contain_text(re.compile(r"Bob\s*\+52"))
    assert confirmation(match_id) == "pending"

    # The other side confirms the corrected hand from its own phone.
    page.goto(f"/matches/{match_id}/hands/1/check/")
    expect(page.locator(".check-lines")).to_contain_text(re.compile(r"Bob\s*\+52"))
    app.press("Correct")
    expect(page.locator(".messages")).to_contain_text("Hand 1 confirmed")
    expect(app.history_row(1).locator(".check-mark.is-confirmed")).to_have_count(1)
    assert confirmation(match_id) == "confirmed"
