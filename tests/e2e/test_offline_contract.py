"""Offline, the whole hand (issue 28): bids kept on the phone lead on to the
hand in play and the tricks queue behind them; a hand the page already
knows is not whole is not kept, and says what is missing; a refused replay
offers "Fix this hand" first. The scripts read what the page declares
(docs/page-contract.md), never its words: with every button and legend
reworded, the queue works the same.

Spades, Ann and Bob, target 500. Hand 1, Bob bids first (RULES.md 2.3):
Ann bids 4 and takes 7 (43), Bob bids 5 and takes 6 (51)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Match

from .test_offline import WAITING, audit_count, network, open_sheet  # noqa: F401 - network: a fixture

pytestmark = [pytest.mark.e2e, pytest.mark.parametrize("size", ["phone"], indirect=True)]


def test_bids_then_tricks_kept_offline_are_delivered_once_in_order(app, network):  # noqa: F811
    page = app.page
    match_id = open_sheet(app)
    network.set_offline(True)
    app.step_to("bids_0", 4)
    app.step_to("bids_1", 5)
    app.press("Save bids")
    expect(page.locator("#entry .offline-in-play")).to_contain_text("Hand 1 in play")
    # The tricks of the hand in play, straight away: Bob's picked, Ann's (bidding last) filled in as the rest.
    app.step_to("tricks_1", 6)
    expect(app.chosen("tricks_0")).to_have_value("7")
    app.press("Save hand 1")
    queue = page.locator("#offline-queue li")
    expect(queue).to_have_text(
        ["Bids for hand 1: Bob bid 5 · Ann bid 4", "Hand 1: Bob bid 5 · Ann bid 4 · Bob took 6 · Ann took 7"]
    )
    expect(page.locator("#entry-form")).to_be_hidden()  # the next hand's form comes from the server
    assert app.hand_count(match_id) == 0

    network.set_offline(False)
    expect(page.locator("#offline-queue")).to_have_count(0)
    app.expect_totals({"Ann": 43, "Bob": 51})
    expect(page.locator("#entry .next-hand h2")).to_have_text("Hand 2")
    page.wait_for_timeout(1500)
    assert app.hand_count(match_id) == 1
    assert audit_count(match_id, "bids saved") == 1 and audit_count(match_id, "hand recorded") == 1
    assert Match.objects.get(pk=match_id).pending_bidding is None


def test_a_hand_the_page_knows_is_not_whole_is_not_kept(app, network):  # noqa: F811
    page = app.page
    match_id = open_sheet(app)
    network.set_offline(True)
    app.open_all_at_once()
    app.step_to("bids_0", 4)
    app.step_to("bids_1", 5)
    app.press("Save hand 1")  # no tricks at all
    connection = page.locator("#connection")
    expect(connection).to_have_text("Nothing was kept on this phone: fill in Bob (tricks), Ann (tricks) first.")
    expect(page.locator("#offline-queue")).to_have_count(0)
    # Both tricks picked by hand, adding up to 12 of 13.
    app.step_to("tricks_1", 6)
    app.step_to("tricks_0", 6)
    app.press("Save hand 1")
    expect(connection).to_have_text("Nothing was kept on this phone: the tricks add up to 12, they must add up to 13.")
    expect(page.locator("#offline-queue")).to_have_count(0)
    app.step_to("tricks_0", 7)
    app.press("Save hand 1")
    expect(page.locator("#offline-queue")).to_contain_text(WAITING)
    network.set_offline(False)
    app.expect_totals({"Ann": 43, "Bob": 51})
    assert app.hand_count(match_id) == 1


def test_a_refused_replay_offers_to_fix_this_hand_first(app, network):  # noqa: F811
    from ..conftest import play

    page = app.page
    match_id = open_sheet(app)
    network.set_offline(True)
    app.open_all_at_once()
    app.step_to("bids_0", 4)
    app.step_to("bids_1", 5)
    app.set_tricks({0: 7, 1: 6})
    app.press("Save hand 1")
    expect(page.locator("#offline-queue")).to_contain_text(WAITING)
    play(app.match(match_id), {"bids": [3, 6], "tricks": [3, 10]})  # another phone's hand 1 meanwhile
    network.set_offline(False)
    panel = page.locator(".offline-refused")
    fix = panel.get_by_role("link", name="Fix this hand")
    expect(fix).to_have_class("button button-primary")
    app.tap(fix)
    # The edit page of hand 1 with this phone's version filled in, to check and save.
    expect(page.locator("main")).to_contain_text("This phone's version of hand 1 is filled in below")
    app.expect_values({"bids_0": 4, "bids_1": 5, "tricks_0": 7, "tricks_1": 6})
    app.press("Save hand 1")
    expect(page.locator(".messages")).to_contain_text("Hand 1 changed")
    assert app.match(match_id).hands.get(number=1).entry == {"bids": [4, 5], "tricks": [7, 6]}


def test_the_queue_reads_no_words_of_the_page(app, network):  # noqa: F811
    """The scripts' contract: the Save buttons, the hand's heading and every
    legend reworded before the connection goes (a new wording, another
    language; numbers that are not the hand's), the bids and then the tricks
    saved without a connection reach the server once, as hand 1, with the
    numbers chosen. The queue's own words come from the page's texts for
    scripts and its numbers from what the form declares."""
    page = app.page
    match_id = open_sheet(app)
    page.evaluate(
        """() => {
            const reword = (selector, words) =>
                document.querySelectorAll(selector).forEach(n => { n.textContent = words; });
            reword('#entry-form [data-write="bids"]', 'Save hand 7');
            reword('#entry-form [data-write="hand"]', 'Send deal 9');
            reword('#entry .next-hand h2', 'Deal 5');
            reword('#entry .next-hand p', 'Round 3 of 4');
            reword('#entry-form legend, #entry-form summary', 'Zzz 99');
        }"""
    )
    expect(page.locator("#entry .next-hand h2")).to_have_text("Deal 5")
    network.set_offline(True)
    app.step_to("bids_0", 4)
    app.step_to("bids_1", 5)
    app.press("Save hand 7")  # the bids' button
    queue = page.locator("#offline-queue li")
    expect(queue).to_have_text(["Bids for hand 1: Bob bid 5 · Ann bid 4"])
    expect(page.locator("#entry .offline-in-play h3")).to_have_text(
        "Hand 1 in play — the bids are kept on this phone, not yet sent"
    )
    app.step_to("tricks_1", 6)
    expect(app.chosen("tricks_0")).to_have_value("7")
    app.press("Send deal 9")  # the hand's button
    expect(queue).to_have_text(
        ["Bids for hand 1: Bob bid 5 · Ann bid 4", "Hand 1: Bob bid 5 · Ann bid 4 · Bob took 6 · Ann took 7"]
    )
    assert app.hand_count(match_id) == 0

    network.set_offline(False)
    expect(page.locator("#offline-queue")).to_have_count(0)
    app.expect_totals({"Ann": 43, "Bob": 51})
    expect(page.locator("#entry .next-hand h2")).to_have_text("Hand 2")  # the server's form, in its own words
    page.wait_for_timeout(1500)  # a second send, had one gone out, would be in by now
    hand = app.match(match_id).hands.get()
    assert (hand.number, hand.entry) == (1, {"bids": [4, 5], "tricks": [7, 6]})
    assert audit_count(match_id, "bids saved") == 1 and audit_count(match_id, "hand recorded") == 1
