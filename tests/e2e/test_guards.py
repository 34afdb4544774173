"""Guards at the table (issue 28, item 3): one tap cannot throw away a
contract, editing the filled-in player rebalances another, and a hand
marked as wrong says so as a warning.

Expected scores from RULES.md, worked by hand:
- Spades (2.3): a bid b made with t tricks scores 10*b + (t - b).
- Oh Hell (5.3): a bid made exactly scores 10 + t, a missed bid 0.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import NAMES2, NAMES7, App, claim_link

pytestmark = pytest.mark.e2e


def logged_in(app: App):
    user = app.make_organiser()
    app.log_in_fast(user)
    return user


def entries(match_id: int) -> list[dict]:
    from scorekeeper.models import Hand

    return list(Hand.objects.filter(match_id=match_id).order_by("number").values_list("entry", flat=True))


# ------------------------------------------------------- Draw Bridge: Passed out


def test_passed_out_with_a_contract_chosen_asks_first(app, shot):
    page = app.page
    user = logged_in(app)
    match = app.make_match("drawbridge", NAMES2, {"target": 500}, owner=user)
    page.goto(f"/matches/{match.pk}/")
    passed_out = page.get_by_role("button", name="Passed out: save hand 1")
    # Its own row, away from "Save the contract".
    save_contract = page.get_by_role("button", name="Save the contract")
    apart = "(b, other) => b.closest('.actions') !== other.closest('.actions')"
    assert passed_out.evaluate(apart, save_contract.element_handle())
    # Bob 4♠, doubled, 10 tricks: the preview already says what he scores.
    app.pick("Declarer", "Bob")
    app.pick("Level", "4")
    app.pick("Trumps", "♠ spades")
    app.pick("Doubled?", "doubled")
    app.open_all_at_once()
    app.step_to("tricks", 10)
    # 4♠ doubled, made exactly: 4 over six x 30 x 2 = 240 (RULES.md 3.3).
    app.expect_preview({"Ann": "0", "Bob": "+240"})

    app.tap(passed_out)
    question = page.locator(".asks-first")
    expect(question).to_be_visible()
    expect(question).to_contain_text("A contract is chosen. Save hand 1 as passed out, without it?")
    assert "banner-warning" in (question.get_attribute("class") or "")
    shot("guards-passed-out-asks")
    page.wait_for_timeout(300)  # had it been sent, the answer would be back by now
    assert app.hand_count(match.pk) == 0

    # No: the contract and the tricks stay as chosen.
    app.tap(question.get_by_role("button", name="No, keep the contract"))
    expect(question).to_have_count(0)
    expect(page.locator('input[name="declarer"][value="1"]')).to_be_checked()
    expect(page.locator('input[name="level"][value="4"]')).to_be_checked()
    expect(app.chosen("tricks")).to_have_value("10")
    assert app.hand_count(match.pk) == 0

    # Asked again, yes: the hand is passed out.
    app.tap(passed_out)
    app.tap(page.locator(".asks-first").get_by_role("button", name="Yes, passed out"))
    app.expect_notice("Hand 1 saved.")
    expect(app.history_row(1)).to_contain_text("Passed out")
    app.expect_totals({"Ann": 0, "Bob": 0})
    assert entries(match.pk) == [{"passed_out": True}]

    # Nothing chosen: one tap, no question.
    app.tap(page.get_by_role("button", name="Passed out: save hand 2"))
    app.expect_notice("Hand 2 saved.")
    expect(page.locator(".asks-first")).to_have_count(0)
    assert app.hand_count(match.pk) == 2


@pytest.mark.parametrize("size", ["phone"], indirect=True)
def test_a_saved_contracts_passed_out_asks_first_too(app):
    """The contract saved, "Passed out" is under "Correct the contract": it asks before dropping it."""
    page = app.page
    user = logged_in(app)
    match = app.make_match(
        "drawbridge", NAMES2, {"target": 500}, owner=user, pending={"declarer": 0, "level": 3, "strain": "NT"}
    )
    page.goto(f"/matches/{match.pk}/")
    app.tap(page.locator("#entry details.more > summary", has_text="Correct the contract"))
    app.tap(page.get_by_role("button", name="Passed out: save hand 1"))
    expect(page.locator(".asks-first")).to_be_visible()
    app.tap(page.locator(".asks-first").get_by_role("button", name="No, keep the contract"))
    expect(page.locator("#entry .big-contract")).to_contain_text("Ann: 3NT")
    assert app.hand_count(match.pk) == 0


# ------------------------------------------------------- the edit page rebalances


def test_editing_the_filled_in_players_tricks_rebalances_another(app, shot):
    """Hand 1: Bob bids first, so Ann's tricks are the ones filled in.
    Ann bid 4, took 6 (42); Bob bid 5, took 7 (52). On the edit page Ann's
    tricks become 8: Bob's are filled in as 13 - 8 = 5. Ann 40 + 4 bags = 44,
    Bob bid 5, took 5: 50."""
    page = app.page
    user = logged_in(app)
    match = app.make_match("spades", NAMES2, {"target": 500}, [{"bids": [4, 5], "tricks": [6, 7]}], owner=user)
    page.goto(f"/matches/{match.pk}/hands/1/edit/")
    app.step_to("tricks_0", 8)
    expect(app.chosen("tricks_1")).to_have_value("5")
    # The note says which one was filled in: Bob's now, not Ann's.
    expect(page.locator("#in-tricks_1 .auto-note")).to_be_visible()
    expect(page.locator("#in-tricks_0 .auto-note")).to_be_hidden()
    app.expect_preview({"Ann": "+44", "Bob": "+50"})
    shot("guards-edit-rebalanced")
    app.press("Save hand 1")
    expect(page.locator(".messages")).to_contain_text("Hand 1 changed")
    app.expect_totals({"Ann": 44, "Bob": 50})
    assert entries(match.pk) == [{"bids": [4, 5], "tricks": [8, 5]}]


@pytest.mark.parametrize("size", ["phone"], indirect=True)
def test_with_more_players_the_last_untouched_takes_the_rest(app):
    """Oh Hell, 4 players, hand 1 (1 card; Ann deals, Bob bids first, Ann
    last): everyone bid 0 but Dan 1, and Dan took the trick: Ann, Bob, Cat
    10 each, Dan 11. The edit: Ann took it. Ann's tricks are the ones filled
    in, so Dan's (the last not chosen by hand) become 1 - 1 = 0: Ann bid 0,
    took 1, missed: 0; Dan bid 1, took 0: 0; Bob and Cat 10."""
    page = app.page
    user = logged_in(app)
    names = NAMES7[:4]
    hand = {"bids": [0, 0, 0, 1], "tricks": [0, 0, 0, 1]}
    match = app.make_match("ohhell", names, {}, [hand], owner=user)
    page.goto(f"/matches/{match.pk}/hands/1/edit/")
    expect(page.locator("#in-tricks_0")).to_have_attribute("data-auto", "")
    app.step_to("tricks_0", 1)
    expect(app.chosen("tricks_3")).to_have_value("0")
    app.expect_values({"tricks_0": 1, "tricks_1": 0, "tricks_2": 0, "tricks_3": 0})
    app.expect_preview({"Ann": "0", "Bob": "+10", "Cat": "+10", "Dan": "0"})
    app.press("Save hand 1")
    expect(page.locator(".messages")).to_contain_text("Hand 1 changed")
    app.expect_totals({"Ann": 0, "Bob": 10, "Cat": 10, "Dan": 0})


# ------------------------------------------------------- a hand marked as wrong


@pytest.mark.parametrize("size", ["phone"], indirect=True)
def test_a_hand_marked_as_wrong_says_so_as_a_warning(app):
    """Spades with checks: Bob bids 5 first, Ann 4; Bob takes 6, Ann's 7
    filled in. The card on the phone that entered it: Something is wrong."""
    from scorekeeper.access.services import issue_link
    from scorekeeper.audit import Actor
    from scorekeeper.matches import services

    page = app.page
    user = app.make_organiser()
    match = services.start_match(
        game="spades", player_names=NAMES2, options={}, actor=Actor.organiser(user), confirm_hands=True
    )
    claim_link(app, issue_link(match_id=match.pk, label="table 1", actor=Actor.organiser(user))[1])
    app.open_all_at_once()
    app.step_to("bids_1", 5)
    app.step_to("bids_0", 4)
    app.step_to("tricks_1", 6)
    expect(app.chosen("tricks_0")).to_have_value("7")
    app.press("Save hand 1")
    card = page.get_by_role("dialog", name="Pass the phone: check hand 1")
    app.tap(card.get_by_role("button", name="Something is wrong"))
    notice = page.locator("#entry > .banner", has_text="Hand 1 is marked as wrong.")
    expect(notice).to_have_class(re.compile(r"\bbanner-warning\b"))
    expect(page.locator("#entry .banner-success")).to_have_count(0)
    # Drawn in the warning colours, not the success green.
    warn = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--warn-soft').trim()")
    assert notice.evaluate("e => getComputedStyle(e).backgroundColor") == page.evaluate(
        "c => { const d = document.createElement('div'); d.style.background = c; document.body.append(d);"
        " const v = getComputedStyle(d).backgroundColor; d.remove(); return v; }",
        warn,
    )
