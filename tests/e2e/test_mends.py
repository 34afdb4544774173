"""What a browser walk-through found (issue 15), kept as regression tests:
each at the size where it was seen (the phone unless a test says so).
Expected scores are worked out by hand from RULES.md."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.audit import Actor

from ..conftest import play, undo
from .conftest import FINISHED, NAMES2, NAMES7, SIZES

pytestmark = pytest.mark.e2e
PHONE = pytest.mark.parametrize("size", ["phone"], indirect=True)
TABLET = pytest.mark.parametrize("size", ["tablet"], indirect=True)

# A colour as the browser computes it, "rgb(20, 83, 45)", to its relative luminance (WCAG).
LUMINANCE = """c => {
  const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""


def contrast(a: float, b: float) -> float:
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def luminance(page, selector: str, prop: str = "background-color") -> float:
    colour = page.locator(selector).first.evaluate("(e, p) => getComputedStyle(e).getPropertyValue(p)", prop)
    return page.evaluate(f"({LUMINANCE})({colour!r})")


def logged_in(app):
    user = app.make_organiser()
    app.log_in_fast(user)
    return user


# ----------------------------------------------------------------- Draw Bridge


@PHONE
def test_the_contract_line_sits_in_the_declarers_column(app, shot):
    page = app.page
    user = logged_in(app)
    # Hand 1: Bob declares 4♠ doubled and takes 11 (needs 10): made.
    hands = [{"declarer": 1, "level": 4, "strain": "S", "double": "double", "tricks": 11}]
    match = app.make_match("drawbridge", NAMES2, {"target": 500}, hands, owner=user)
    page.goto(f"/matches/{match.pk}/")
    cells = app.history_row(1).locator("td:not(.row-actions)")
    expect(cells.nth(1).locator(".entry-line")).to_have_text(
        re.compile(r"^\s*Bob: 4\s*♠\s*spades doubled, 11 tricks: made\s*$")
    )
    expect(cells.nth(0).locator(".entry-line")).to_have_count(0)
    shot("mends-drawbridge-history")


# ------------------------------------------------------- a whole hand at once


@pytest.mark.parametrize("size", list(SIZES), indirect=True)
def test_whole_hand_at_once_has_one_primary_button_and_counts_tricks_by_the_tricks(app, shot):
    page = app.page
    user = logged_in(app)
    match = app.make_match("spades", NAMES2, {"target": 500}, owner=user)
    page.goto(f"/matches/{match.pk}/")
    save_bids, save_hand = page.get_by_role("button", name="Save bids"), page.get_by_role("button", name="Save hand 1")
    primary = luminance(page, ".button-primary:visible")  # the one primary button, tricks closed
    assert luminance(page, "button:has-text('Save bids')") == primary
    app.open_all_at_once()
    expect(save_hand).to_be_visible()
    bg = "e => getComputedStyle(e).backgroundColor"
    assert save_hand.evaluate(bg) != save_bids.evaluate(bg), "Save bids still looks like a second primary button"
    assert page.evaluate(f"({LUMINANCE})({save_hand.evaluate(bg)!r})") == primary
    # Bob bids first (RULES.md 2.1: hand 1, seat 1), Ann's tricks fill in as 13 minus his.
    app.step_to("bids_1", 5, max_taps=0)
    app.step_to("bids_0", 4, max_taps=0)
    app.step_to("tricks_1", 8, max_taps=0)
    app.step_to("tricks_0", 7, max_taps=0)  # by hand: 8 + 7 = 15
    count = page.locator("#entry fieldset[data-sum-to] #tricks-entered")
    expect(count).to_have_text("Tricks entered: 15 of 13.")
    expect(page.locator("#preview")).not_to_contain_text("Tricks entered")
    tricks = page.locator("#entry fieldset[data-sum-to] fieldset.chips").last.bounding_box()
    message = count.bounding_box()
    assert 0 <= message["y"] - (tricks["y"] + tricks["height"]) < 40, "the count is not right under the tricks"
    shot("mends-whole-hand-tricks-off")
    app.step_to("tricks_0", 5, max_taps=0)
    expect(count).to_be_hidden()
    app.expect_preview({"Ann": "+41", "Bob": "+53"})  # bid 4 took 5: 40 + 1 bag; bid 5 took 8: 50 + 3


# ----------------------------------------------------------------- edit page


@PHONE
def test_the_edit_page_previews_and_lists_the_bids_in_bidding_order(app, shot):
    page = app.page
    user = logged_in(app)
    hands = [{"bids": [4, 5], "tricks": [6, 7]}, {"bids": [3, 3], "tricks": [3, 10]}]
    match = app.make_match("spades", NAMES2, {"target": 500}, hands, owner=user)
    bids = page.locator("fieldset", has=page.locator("legend", has_text="Bids, in bidding order"))
    # Hand 1: Ann draws first, so Bob bids first (RULES.md 2.1): not the seat order.
    page.goto(f"/matches/{match.pk}/hands/1/edit/")
    expect(bids.locator("fieldset.chips > legend")).to_have_text(["Bob", "Ann"])
    # Hand 2: Bob draws first, so Ann bids first.
    page.goto(f"/matches/{match.pk}/hands/2/edit/")
    expect(bids.locator("fieldset.chips > legend")).to_have_text(["Ann", "Bob"])
    # The preview as it stands: Ann bid 3 took 3: +30; Bob bid 3 took 10: 30 + 7 bags.
    app.expect_preview({"Ann": "+30", "Bob": "+37"})
    app.step_to("tricks_0", 4, max_taps=0)
    app.step_to("tricks_1", 9, max_taps=0)
    app.expect_preview({"Ann": "+31", "Bob": "+36"})
    shot("mends-edit-preview")
    page.get_by_role("button", name="Save hand 2").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    app.expect_totals({"Ann": 42 + 31, "Bob": 52 + 36})


# ------------------------------------------------------- history of changes


@PHONE
def test_history_words_every_change_and_puts_an_undone_hand_back(app, shot):
    page = app.page
    user = logged_in(app)
    actor = Actor.organiser(user)
    match = app.make_match("spades", NAMES2, {"target": 500}, [{"bids": [4, 5], "tricks": [6, 7]}], owner=user)
    undo(match, actor=actor)
    page.goto(f"/matches/{match.pk}/history/")
    main = page.locator("main")
    expect(main).to_contain_text("Target score: 500")
    expect(main).to_contain_text("players Ann, Bob")
    expect(main).to_contain_text("Ann bid 4, took 6 · Bob bid 5, took 7")
    assert not re.search(r"[{}\[\]']", main.inner_text()), "raw Python values on the page"
    shot("mends-history-undone")
    page.get_by_role("button", name="Put hand 1 back").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    expect(page.locator(".messages")).to_contain_text("Hand 1 restored.")
    app.expect_totals({"Ann": 42, "Bob": 52})
    app.expect_history_rows(1)
    page.goto(f"/matches/{match.pk}/history/")
    expect(page.locator("li.audit").first).to_contain_text("Hand restored")
    expect(page.get_by_role("button", name="Put hand 1 back")).to_have_count(0)


# ------------------------------------------------------------ wide history


LONG_NAMES7 = ["Bartholomew", "Christabel", "Christopher", "Maximilian", "Evangeline", "Fitzgerald", "Gwendolyn"]


@PHONE
@pytest.mark.parametrize("names", [NAMES7, LONG_NAMES7], ids=["short-names", "long-names"])
def test_oh_hell_history_of_seven_reads_without_a_sideways_swipe(app, shot, names):
    """Seven players' hands on a 390 px phone: every column on the screen, no cell's
    line wraps, a long name shown short ("Bart…") and read whole by screen readers."""
    page = app.page
    user = logged_in(app)
    hands = FINISHED["ohhell"][2][:3]
    match = app.make_match("ohhell", names, {}, hands, owner=user)
    page.goto(f"/matches/{match.pk}/")
    app.expect_history_rows(3)
    lines = page.locator("#history td .entry-line").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))"
    )
    assert lines and max(lines) < 1.5, f"cells wrap: {lines}"
    widths = page.evaluate(
        """() => { const box = document.getElementById('history-scroll'), doc = document.documentElement;
                   const cells = [...document.querySelectorAll('#history th, #history td')]
                       .map(c => c.getBoundingClientRect());
                   return {box: box.scrollWidth - box.clientWidth, page: doc.scrollWidth - doc.clientWidth,
                           right: Math.max(...cells.map(r => r.right)), screen: window.innerWidth}; }"""
    )
    assert widths["box"] <= 0 and widths["page"] <= 0, f"scrolls sideways: {widths}"
    assert widths["right"] <= widths["screen"], f"a column off the screen: {widths}"
    expect(page.locator(".scroll-hint")).to_be_hidden()
    # Each column head names its player for screen readers, whatever the eye sees.
    heads = page.locator("#history thead th[scope=col]")
    assert [
        heads.nth(i + 1).evaluate("th => th.querySelector('.name-full')?.textContent ?? th.textContent")
        for i in range(7)
    ] == names
    # The first hand: Ann (seat 0) bid 0 and took 0 of 1 card; seat 6 bid 1, took 1 (RULES.md O5).
    first = app.history_row(1).locator("td")
    expect(first.nth(0).locator(".entry-line")).to_have_text("0 / 0")
    expect(first.nth(6).locator(".entry-line")).to_have_text("1 / 1")
    shot(f"mends-ohhell-wide-history-{len(names[0])}")


# ---------------------------------------------------------------- dark rooms


@pytest.mark.parametrize("size", list(SIZES), indirect=True)
def test_dark_theme_has_no_bright_bar_or_buttons_and_passes_axe(app, shot, axe_check):
    page = app.page
    user = logged_in(app)
    match = app.make_match("spades", NAMES2, {"target": 500}, owner=user)
    page.emulate_media(color_scheme="dark")
    page.goto(f"/matches/{match.pk}/")
    bar, button = luminance(page, ".topbar"), luminance(page, ".button-primary:visible")
    text = luminance(page, ".button-primary:visible", "color")
    assert bar < 0.05 and button < 0.1, f"bright in a dark room: bar {bar:.3f}, button {button:.3f}"
    assert contrast(text, button) >= 4.5
    assert contrast(luminance(page, ".topbar", "color"), bar) >= 4.5
    shot("mends-dark-sheet")
    assert axe_check("mends-dark-sheet") == []
    # The information banner (an abandoned match's sheet) stands out from the page and reads well.
    from scorekeeper.matches import services

    services.abandon_match(match_id=match.pk, actor=Actor.organiser(user))
    page.goto(f"/matches/{match.pk}/")
    info = luminance(page, ".banner-info")
    assert info != luminance(page, "body")
    assert contrast(luminance(page, ".banner-info p", "color"), info) >= 7
    shot("mends-dark-banner-info")
    assert axe_check("mends-dark-banner-info") == []


# ---------------------------------------------------------------- Sixty-Six


@PHONE
def test_sixty_six_names_the_other_player_and_says_deals(app, shot):
    page = app.page
    user = logged_in(app)
    names, options, hands, heading = FINISHED["sixtysix"]
    match = app.make_match("sixtysix", names, options, hands[:1], owner=user)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#history-title")).to_have_text(re.compile(r"^\s*Deals\s*\(newest first\)\s*$"))
    question = page.locator("fieldset.segmented legend").filter(has_text="take a trick")
    expect(question).to_have_text(re.compile("Did the other player"), use_inner_text=True)
    app.pick("Who claimed, closed or won the last trick?", "Ann")
    expect(question).to_have_text(re.compile(r"^\s*Did Bob take a trick\?\s*$"), use_inner_text=True)
    app.pick("Who claimed, closed or won the last trick?", "Bob")
    expect(question).to_have_text(re.compile(r"^\s*Did Ann take a trick\?\s*$"), use_inner_text=True)
    app.pick("How did the deal end?", "Stock was closed")
    expect(page.locator(".closed-only legend")).to_have_text(
        re.compile(r"^\s*Stock closed: had Ann taken a trick when it was closed\?\s*$"), use_inner_text=True
    )
    shot("mends-sixtysix-named")
    page.locator("details.menu > summary").click()
    expect(page.get_by_role("link", name="Undo the last deal")).to_be_visible()
    finished = app.make_match("sixtysix", names, options, hands, owner=user)
    page.goto(f"/matches/{finished.pk}/")
    expect(page.locator(".winner-banner")).to_contain_text("after 3 deals")
    expect(page.locator("main")).not_to_contain_text(re.compile(r"\bhands?\b", re.IGNORECASE))


# ------------------------------------------------------------------ new match


@PHONE
def test_new_match_says_which_seats_have_the_same_player(app):
    page = app.page
    logged_in(app)
    page.goto("/matches/new/?game=ohhell")
    for seat, name in enumerate(["Ann", "Bob", "ANN "]):
        page.locator(f"#seat_{seat}").fill(name)
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator("main .banner-error")).to_have_text(
        "Seats 1 and 3 have the same player (Ann; names are compared ignoring capitals and extra spaces)."
    )


# ------------------------------------------------------ tournament screens


def finished_tournament(user, game="spades"):
    """A one-round Swiss of two: Bob beats Ann (RULES.md S3 with target 200)."""
    from scorekeeper.models import Table
    from scorekeeper.tournaments import services

    actor = Actor.organiser(user)
    names, options, hands, _heading = FINISHED["spades"]
    t = services.create_tournament(  # no confirmation by the other side: the last hand ends the event
        name="Club night", game=game, format="swiss", options=options, rounds=1, confirm_hands=False, actor=actor
    )
    services.register_players(tournament_id=t.pk, text="Ann\nBob", actor=actor)
    rnd = services.propose_round(tournament_id=t.pk, actor=actor)
    services.publish_round(round_id=rnd.pk, actor=actor)
    match = Table.objects.get(round=rnd).match
    seated = match.player_names
    for entry in hands:  # RULES.md S3 with Bob in seat 2: swap the columns if he sits first
        if seated[0] == "Bob":
            entry = {k: v[::-1] for k, v in entry.items()}
        play(match, entry, actor=actor)
    t.refresh_from_db()
    return t


@PHONE
def test_projector_shows_final_standings_and_the_winner_in_large_type(app, new_context, live_server, screenshot_dir):
    user = app.make_organiser()
    t = finished_tournament(user)
    assert t.status == "finished"
    context = new_context(base_url=live_server.url, viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"/tournaments/{t.pk}/standings/?big=1")
    expect(page.get_by_role("heading", name="Final standings", exact=True)).to_be_visible()
    expect(page.locator(".final-winners")).to_have_text(re.compile(r"Bob\s+wins the tournament"))
    expect(page.locator("main")).not_to_contain_text("updates by itself")
    sizes = page.locator(".standings thead th").evaluate_all(
        "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert min(sizes) >= 24, f"column headers of {min(sizes)} px across a room"
    polls = []
    page.on("request", lambda r: polls.append(r.url) if "standings" in r.url else None)
    page.wait_for_timeout(6_000)  # the screens poll every 5 s while the event runs
    assert polls == [], "a finished event is still polled"
    page.screenshot(path=str(screenshot_dir / "mends-projector-final--1920x1080.png"))
    context.close()


@PHONE
def test_table_cards_say_who_starts_in_the_games_words_and_finished_tables_lose_link_buttons(app, shot):
    from scorekeeper.tournaments import services

    page = app.page
    user = logged_in(app)
    actor = Actor.organiser(user)
    t = services.create_tournament(
        name="Sixty-Six night", game="sixtysix", format="swiss", options={"target": 1}, rounds=2, actor=actor
    )
    services.register_players(tournament_id=t.pk, text="Ann\nBob\nCat\nDan", actor=actor)
    page.goto(f"/tournaments/{t.pk}/")
    page.get_by_role("button", name="Start round 1").click()
    page.get_by_role("button", name="Publish round 1").click()
    page.goto(f"/tournaments/{t.pk}/cards/")
    cards = page.locator(".table-card")
    expect(cards).to_have_count(2)
    for i in range(2):
        first = cards.nth(i).locator(".seats li").first.inner_text()
        expect(cards.nth(i).locator(".hint")).to_have_text(
            "Each player scans their own code. A hand entered on one phone is checked on the other. "
            f"{first} (seat 1) deals first."
        )
    assert cards.first.bounding_box()["y"] < page.locator("#about-links").bounding_box()["y"]
    shot("mends-cards-sixtysix")
    # Table 1 finishes (one deal to 1 point): its link buttons go, table 2 keeps them.
    from scorekeeper.models import Table

    table1 = Table.objects.get(round__tournament=t, number=1)
    play(table1.match, {"end": "out", "player": 0, "points": [71, 38], "opponent_took_trick": True}, actor=actor)
    page.goto(f"/tournaments/{t.pk}/")
    expect(page.locator("#table-1").get_by_role("button", name=re.compile("New link"))).to_have_count(0)
    expect(page.locator("#table-1").get_by_role("button", name=re.compile("Revoke link"))).to_have_count(0)
    expect(page.locator("#table-2").get_by_role("button", name=re.compile("New link"))).to_be_visible()


# ------------------------------------------------------ wake lock and print


@PHONE
def test_an_open_sheet_asks_to_keep_the_screen_awake(app):
    page = app.page
    user = logged_in(app)
    match = app.make_match("spades", NAMES2, {"target": 500}, owner=user)
    page.add_init_script(
        """Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
             request: type => {
               window.__wakeLocks = (window.__wakeLocks || []).concat([type]);
               return Promise.resolve({addEventListener() {}, release() { return Promise.resolve(); }});
             }
           }});"""
    )
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => (window.__wakeLocks || []).length > 0")
    assert page.evaluate("window.__wakeLocks") == ["screen"]
    page.goto("/players/")  # no sheet: no lock
    page.wait_for_load_state("load")
    assert page.evaluate("window.__wakeLocks || []") == []


@TABLET
def test_the_finished_score_card_of_30_hands_prints_on_one_a4_page(app, shot):
    page = app.page
    user = logged_in(app)
    # Each hand Ann bids 6 and takes 7 (61, a bag), Bob bids 6 and takes 6 (60).
    # Hand 30: Bob 1800 reaches the target; Ann 30 x 61 - 3 x 100 = 1530.
    hands = [{"bids": [6, 6], "tricks": [7, 6]}] * 30
    match = app.make_match("spades", NAMES2, {"target": 1800}, hands, owner=user)
    page.goto(f"/matches/{match.pk}/")
    app.expect_winner("Bob wins", 30)
    app.expect_totals({"Ann": 1530, "Bob": 1800})
    pdf = page.pdf(format="A4")
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert pages == 1, f"the score card takes {pages} A4 pages"
    page.emulate_media(media="print")
    shot("mends-print-30-hands")
    page.emulate_media(media="screen")
