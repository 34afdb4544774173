"""An Oh Hell tournament run from the organiser's phone, scored on two table
devices, and watched live on a third screen.

Expected scores are worked out by hand from RULES.md 5.3 (Oh Hell: a bid
made exactly scores 10 + tricks taken, a missed bid 0); they are never read
back from the app.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import App, new_device

pytestmark = pytest.mark.e2e

NAMES9 = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
TOURNAMENT = "Friday Oh Hell"


def claim_table(dev: App, url: str, names: list[str]) -> int:
    """Open a table card's link, confirm, and land on the table's match sheet."""
    page = dev.page
    page.goto(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Score this match on this device?")
    expect(page.locator("main")).to_contain_text(", ".join(names))
    dev.press("Yes, score on this device")
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator(".table-banner")).to_contain_text("Round 1")
    dev.expect_totals(dict.fromkeys(names, 0))
    return int(re.search(r"/matches/(\d+)/", page.url).group(1))


def fill_hand_1(dev: App, bids: list[int], tricks: list[int]) -> None:
    """Hand 1, all at once: seat 0 deals, so it bids last and its tricks
    are the ones the form fills in (1 minus the others)."""
    dev.open_all_at_once()
    for seat, bid in enumerate(bids):
        dev.step_to(f"bids_{seat}", bid, verify=False, max_taps=0)
    for seat, taken in enumerate(tricks):
        if seat != 0:
            dev.step_to(f"tricks_{seat}", taken, verify=False, max_taps=0)
    expect(dev.page.locator("#entry-form fieldset[data-auto]")).to_have_attribute("id", "in-tricks_0")
    expect(dev.chosen("tricks_0")).to_have_value(str(tricks[0]))
    dev.expect_values(
        {
            **{f"bids_{seat}": bid for seat, bid in enumerate(bids)},
            **{f"tricks_{seat}": taken for seat, taken in enumerate(tricks)},
        }
    )


@pytest.mark.parametrize("size", ["phone"])
def test_oh_hell_tournament_live(app, new_context, live_server):
    page = app.page
    app.log_in_fast(app.make_organiser())

    # ---- the organiser creates the tournament through the UI
    page.goto("/tournaments/")
    app.tap(page.get_by_role("link", name="New tournament"))
    page.locator("ul.choices").get_by_role("link", name=re.compile(r"^Oh Hell")).click()
    expect(page.locator("main form")).to_contain_text("Oh Hell")
    page.fill("#name", TOURNAMENT)
    page.locator("#format").select_option("seated")
    page.fill("#rounds", "2")
    expect(page.locator("input[name=is_public]")).to_be_checked()
    # On by default; the other side's check is tested in test_confirmation.py.
    expect(page.locator("input[name=confirm_hands]")).to_be_checked()
    page.locator("input[name=confirm_hands]").uncheck()
    app.press("Create the tournament")
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/$"))
    tournament_id = int(re.search(r"/tournaments/(\d+)/", page.url).group(1))
    expect(page.get_by_role("heading", level=1)).to_have_text(TOURNAMENT)
    expect(page.locator(".messages")).to_contain_text("Tournament created")

    # ---- register the nine names, pasted as one list
    page.fill("#names", "\n".join(NAMES9))
    app.press("Register")
    expect(page.locator(".messages")).to_contain_text("Registered: " + ", ".join(NAMES9))
    expect(page.locator("ul.entrants > li")).to_have_count(9)

    # ---- start, review and publish round 1
    app.press("Start round 1")
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1: review")
    review_tables = page.locator(".table-grid section.card")
    seated = sorted(name for name in page.locator(".table-grid ol.seats li").all_inner_texts())
    assert seated == sorted(NAMES9), "round 1 seats everybody once (9 players: no bye)"
    table_count = review_tables.count()
    assert table_count >= 2
    app.press("Publish round 1")

    # ---- the table cards: each card shows its link right after publishing
    expect(page).to_have_url(re.compile(rf"/tournaments/{tournament_id}/cards/\?round=1$"))
    expect(page.locator(".messages")).to_contain_text("Round 1 published")
    cards = page.locator("article.table-card")
    expect(cards).to_have_count(table_count)
    expect(page.locator(".table-card .qr svg")).to_have_count(2 * table_count)  # a code per side
    tables = []
    for i in range(table_count):
        card = cards.nth(i)
        expect(card.locator("h2")).to_have_text(f"Table {i + 1}")
        url = card.locator(".table-card-url").first.inner_text().strip()  # side A's
        assert re.fullmatch(re.escape(live_server.url) + r"/l/[^/]+/", url), url
        tables.append({"url": url, "names": card.locator("ol.seats li").all_inner_texts()})
    assert len({t["url"] for t in tables}) == table_count

    # ---- a spectator opens the public standings before anything is saved
    spectator = new_device(new_context, live_server).page
    spectator.goto(f"/tournaments/{tournament_id}/standings/")
    expect(spectator.get_by_role("heading", level=1)).to_contain_text(TOURNAMENT)
    live = spectator.locator("#live-tables li")
    expect(live).to_have_count(table_count)

    def live_seats(number: int):
        row = live.filter(has=spectator.locator(".live-table", has_text=re.compile(rf"^Table {number}$")))
        return row.locator(".live-seats > span")

    for number, table in enumerate(tables[:2], start=1):
        expect(live_seats(number)).to_have_text([f"{name} 0" for name in table["names"]])

    # ---- two table devices claim tables 1 and 2
    dev2, dev3 = new_device(new_context, live_server), new_device(new_context, live_server)
    t1, t2 = tables[0], tables[1]
    match1 = claim_table(dev2, t1["url"], t1["names"])
    match2 = claim_table(dev3, t2["url"], t2["names"])
    assert match1 != match2

    # Hand 1: one card each; seat 0 deals, seat 1 bids first and leads.
    # Table 1: seat 1 bids 1 and takes the trick (10 + 1 = 11); the rest
    # bid 0 and take 0 (10 each).
    bids1 = [0] * len(t1["names"])
    bids1[1] = 1
    tricks1 = [0] * len(t1["names"])
    tricks1[1] = 1
    expected1 = [10] * len(t1["names"])
    expected1[1] = 11
    # Table 2: everybody bids 0; seat 1 takes the trick anyway (missed: 0),
    # the rest made 0 (10 each).
    bids2 = [0] * len(t2["names"])
    tricks2 = [0] * len(t2["names"])
    tricks2[1] = 1
    expected2 = [10] * len(t2["names"])
    expected2[1] = 0

    # Both tables fill in at the same time, then both save.
    fill_hand_1(dev2, bids1, tricks1)
    fill_hand_1(dev3, bids2, tricks2)
    dev2.expect_preview({t1["names"][1]: "+11", t1["names"][0]: "+10"})
    dev3.expect_preview({t2["names"][1]: "0", t2["names"][0]: "+10"})
    dev2.press("Save hand 1")
    dev3.press("Save hand 1")
    dev2.expect_notice("Hand 1 saved.")
    dev3.expect_notice("Hand 1 saved.")
    dev2.expect_totals(dict(zip(t1["names"], expected1, strict=True)))
    dev3.expect_totals(dict(zip(t2["names"], expected2, strict=True)))

    # ---- the spectator's page updates by itself (polled every 5 s)
    expect(live_seats(1)).to_have_text(
        [f"{name} {points}" for name, points in zip(t1["names"], expected1, strict=True)], timeout=15_000
    )
    expect(live_seats(2)).to_have_text(
        [f"{name} {points}" for name, points in zip(t2["names"], expected2, strict=True)], timeout=15_000
    )
    assert spectator.url.endswith(f"/tournaments/{tournament_id}/standings/"), "no reload, no navigation"

    # ---- a table device is not an organiser
    response = dev2.page.goto(f"/tournaments/{tournament_id}/")
    assert response is not None and response.status == 403
    expect(dev2.page.get_by_role("heading", level=1)).to_have_text("Not allowed")
    expect(dev2.page.locator("main .banner-error")).to_contain_text("Only the tournament's organisers can do this.")

    # ---- nor may it score the other table: POST a hand to table 2's match
    dev2.page.goto(f"/matches/{match1}/")
    token = dev2.page.locator("input[name=csrfmiddlewaretoken]").first.input_value()
    # A complete form, as table 2's own sheet would send it (hand 2, no bids in force).
    form = {"csrfmiddlewaretoken": token, "number": "2", "bidding": "none", "client_key": "a-key-of-table-1"}
    for seat in range(len(t2["names"])):
        form[f"bids_{seat}"] = "0"
        form[f"tricks_{seat}"] = "1" if seat == 1 else "0"
    result = dev2.page.evaluate(
        """async ([url, data]) => {
            const r = await fetch(url, {method: "POST", body: new URLSearchParams(data), credentials: "same-origin"});
            return {status: r.status, text: await r.text()};
        }""",
        [f"/matches/{match2}/hands/", form],
    )
    assert result["status"] == 403, result["status"]
    assert "may not change this match" in result["text"]
    assert app.hand_count(match2) == 1
    dev3.page.reload()
    dev3.expect_totals(dict(zip(t2["names"], expected2, strict=True)))
