"""The rules inside the app, and a link handed over or printed (issue 28,
items 6 and 7), in the browser at phone and tablet size:
* each game's "How this game is scored" page in English, Urdu and Sindhi,
  no English word left in Urdu or Sindhi, reached from the sheet;
* the share page: the link in full, Copy puts it on the clipboard (also
  without the Clipboard API, as over plain http on the club's network),
  Share only where the phone can share, the QR code centred;
* a tournament table's score card on paper: the event, the table and the
  day, and no fade at the table's edge.
Expected scores are worked by hand in the rules' worked examples
(docs/rules.md), never read back from the app."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scorekeeper.audit import Actor

from ..conftest import play
from .conftest import NAMES7
from .test_right_to_left import ALLOWED, LATIN_WORDS

pytestmark = pytest.mark.e2e
PHONE = pytest.mark.parametrize("size", ["phone"], indirect=True)
GAMES = {
    "spades": "Spades",
    "drawbridge": "Draw Bridge",
    "sixtysix": "Sixty-Six",
    "ohhell": "Oh Hell",
    "partnership_spades": "Partnership Spades",
    "courtpiece": "Court Piece",
}
# The examples' players, and "NT", a contract's notation ("3NT", as "4♠"), kept so by the catalogues.
WHITE = ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")  # white, or nothing over the white page
EXAMPLE_WORDS = {"Bonnie", "Carl", "Ann", "Bob", "Cat", "Dan", "A", "B", "C", "D", "E", "F", "G", "NT"}


def logged_in(app):
    user = app.make_organiser()
    app.log_in_fast(user)
    return user


def in_language(app, lang: str) -> None:
    """The language chooser's choice (its cookie), without the tap (test_right_to_left taps it)."""
    host = re.sub(r"^https?://", "", app.url).split(":")[0]
    app.page.context.add_cookies([{"name": "django_language", "value": lang, "domain": host, "path": "/"}])


# ---------------------------------------------------------------- the rules


@pytest.mark.parametrize("lang", ["en", "ur", "sd"])
def test_each_games_rules_page_reads_in_each_language(app, shot, axe_check, size, lang):
    page = app.page
    in_language(app, lang)
    for game in GAMES:
        page.goto(f"/games/{game}/rules/")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        example = page.locator("table.rules-example")
        expect(example).to_be_visible()
        if lang != "en":
            left = sorted(w for w in page.evaluate(LATIN_WORDS) if w not in ALLOWED | EXAMPLE_WORDS)
            assert not left, f"{game} in {lang}: {left}"
        # The page reads on a phone without a sideways swipe, the example included.
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        scroll = page.locator(".rules-example-scroll")
        assert scroll.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), f"{game}: the example scrolls sideways"
        if game in ("drawbridge", "ohhell"):  # the longest words, and the widest example
            serious = axe_check(f"rules-{game}-{lang}")
            assert not serious, serious
        if lang in ("en", "ur") and game in ("spades", "ohhell", "courtpiece"):
            shot(f"rules-{game}-{lang}")
            page.emulate_media(color_scheme="dark")
            shot(f"rules-{game}-{lang}-dark")
            page.emulate_media(color_scheme="light")


def test_the_example_shows_the_worked_numbers(app):
    page = app.page
    page.goto("/games/spades/rules/")
    # S3: Bonnie and Carl, four hands; Bonnie's 11th bag costs 100 in hand 3 (40 + 5 - 100).
    rows = page.locator("table.rules-example tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(2).locator("td").nth(0).locator(".pts")).to_have_text("-55")
    expect(rows.nth(3).locator("td .tot")).to_have_text(["-39", "224"])
    page.goto("/games/ohhell/rules/")
    # O5: C and D share the win on 74.
    expect(page.locator("table.rules-example tbody tr").last.locator("td .tot")).to_have_text(
        ["65", "53", "74", "74", "72", "60", "64"]
    )


def test_a_player_at_the_table_finds_the_rules_from_the_sheet(app):
    page = app.page
    user = logged_in(app)
    # Hand 1 of S1: Ann bids 7 and takes 8: 71.
    match = app.make_match("spades", ["Ann", "Bob"], {}, [{"bids": [7, 4], "tricks": [8, 5]}], owner=user)
    page.goto(f"/matches/{match.pk}/")
    app.tap(page.locator("#history").get_by_role("link", name="How this game is scored"))
    expect(page).to_have_url(re.compile(r"/games/spades/rules/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("How Spades is scored")
    page.go_back()
    page.locator(".menu summary").click()
    app.tap(page.locator(".menu-body").get_by_role("link", name="How this game is scored"))
    expect(page).to_have_url(re.compile(r"/games/spades/rules/$"))


def test_the_new_match_page_links_each_game_to_its_rules(app):
    page = app.page
    logged_in(app)
    page.goto("/matches/new/")
    for game, name in GAMES.items():
        link = page.get_by_role("link", name=re.compile(rf"^How this game is scored\s*\({name}\)$"))
        expect(link).to_have_attribute("href", f"/games/{game}/rules/")
    app.tap(page.get_by_role("link", name=re.compile(r"^How this game is scored\s*\(Oh Hell\)$")))
    expect(page.get_by_role("heading", level=1)).to_have_text("How Oh Hell is scored")


# ---------------------------------------------------------------- sharing


def share_page_with_a_new_link(app, lang: str = "en"):
    page = app.page
    user = logged_in(app)
    in_language(app, lang)
    match = app.make_match("spades", ["Ann", "Bob"], {"target": 200}, owner=user)
    page.goto(f"/matches/{match.pk}/share/")
    page.locator("#label").fill("Bob's phone")
    app.tap(page.locator("form.stack button[type=submit]"))
    box = page.locator(".share-new")
    expect(box.locator(".qr svg")).to_be_visible()
    return match, box


def test_copy_puts_the_whole_link_on_the_clipboard(app, shot, axe_check, size):
    page = app.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    _match, box = share_page_with_a_new_link(app)
    link = box.locator(".link-url")
    url = link.inner_text().strip()
    assert re.fullmatch(re.escape(app.url) + r"/l/[A-Za-z0-9_-]{20,}/", url), url
    # Shown in full: it wraps inside its box, nothing cut off.
    assert link.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    app.tap(box.get_by_role("button", name=re.compile("^Copy the link")))
    expect(box.get_by_role("status")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == url
    serious = axe_check("share-copied")
    assert not serious, serious
    shot("share-copied")
    page.emulate_media(color_scheme="dark")
    shot("share-copied-dark")


@PHONE
def test_copy_works_without_the_clipboard_api(app):
    """Over plain http on the club's network the page is not a secure
    context and has no navigator.clipboard: the link is selected and copied."""
    page = app.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined})")
    _match, box = share_page_with_a_new_link(app)
    assert page.evaluate("navigator.clipboard") is None
    url = box.locator(".link-url").inner_text().strip()
    app.tap(box.get_by_role("button", name=re.compile("^Copy the link")))
    expect(box.get_by_role("status")).to_have_text("Copied")
    assert page.evaluate("window.getSelection().toString().trim()") == url
    # What the phone now holds, read from another page (which has the API).
    other = page.context.new_page()
    other.goto("/")
    assert other.evaluate("navigator.clipboard.readText()") == url
    other.close()


def test_share_is_offered_only_where_the_phone_can_share(app):
    page = app.page
    page.add_init_script("delete Navigator.prototype.share")
    _match, box = share_page_with_a_new_link(app)
    expect(box.get_by_role("button", name=re.compile("^Copy the link"))).to_be_visible()
    expect(box.locator("[data-share]")).to_be_hidden()


def test_share_hands_the_link_to_the_phone(app):
    page = app.page
    page.add_init_script(
        "Navigator.prototype.share = function (data) { window.__shared = data; return Promise.resolve(); }"
    )
    _match, box = share_page_with_a_new_link(app)
    url = box.locator(".link-url").inner_text().strip()
    app.tap(box.get_by_role("button", name=re.compile("^Share")))
    page.wait_for_function("() => window.__shared")
    shared = page.evaluate("window.__shared")
    assert shared["url"] == url
    assert shared["title"] == "Score Spades: Ann · Bob"


def centre_offset(page, qr, box) -> tuple[float, float]:
    a, b = qr.bounding_box(), box.bounding_box()
    return abs((a["x"] + a["width"] / 2) - (b["x"] + b["width"] / 2)), a["width"]


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_the_qr_code_is_centred(app, shot, lang):
    page = app.page
    match, box = share_page_with_a_new_link(app, lang)
    off, width = centre_offset(page, box.locator(".qr svg"), box)
    assert off <= 2 and width >= 150, (off, width)
    # A link shown again from the list: centred in its row.
    page.goto(f"/matches/{match.pk}/share/")
    item = page.locator("li.link-item").first
    item.locator("summary").click()
    off, width = centre_offset(page, item.locator(".qr svg"), item)
    assert off <= 2 and width >= 150, (off, width)
    shot(f"share-shown-again-{lang}")


# ---------------------------------------------------------------- on paper


@PHONE
def test_a_tournament_tables_card_prints_with_its_event_table_and_day(app, shot):
    from scorekeeper.tournaments import services as tournaments

    page = app.page
    user = logged_in(app)
    actor = Actor.organiser(user)
    t = tournaments.create_tournament(
        name="Club night", game="spades", format="swiss", options={"target": 100}, rounds=2,
        confirm_hands=False, actor=actor,
    )  # fmt: skip
    tournaments.register_players(tournament_id=t.pk, text="\n".join(NAMES7[:4]), actor=actor)
    rnd = tournaments.propose_round(tournament_id=t.pk, actor=actor)
    tokens = tournaments.publish_round(round_id=rnd.pk, actor=actor)
    table = rnd.tables.get(pk=min(tokens))
    # Hand 1: the first player bids 10 and takes 11 (100 + 1 = 101), past the target of 100: the table's match is over.
    play(table.match, {"bids": [10, 2], "tricks": [11, 2]}, actor=actor)
    page.goto(f"/matches/{table.match_id}/")
    expect(page.locator(".winner-banner")).to_be_visible()
    head = page.locator(".print-head")
    expect(head).to_be_hidden()  # the screen has the banner
    fade = page.locator("#history-scroll")
    assert fade.evaluate("e => getComputedStyle(e).backgroundImage") != "none"  # the screen's "it scrolls" fade

    page.emulate_media(media="print")
    today = timezone.localdate().isoformat()
    expect(head).to_be_visible()
    expect(head).to_have_text(re.compile(rf"Club night · Table {table.number} · Round 1 · {today}"))
    expect(page.locator(".table-banner")).to_be_hidden()
    assert fade.evaluate("e => getComputedStyle(e).backgroundImage") == "none"
    shot("print-tournament-card")
    page.emulate_media(color_scheme="dark")  # a phone in dark mode prints the same card, black on white
    assert fade.evaluate("e => getComputedStyle(e).backgroundImage") == "none"
    for part in (".totals", ".winner-banner", "body"):
        assert page.locator(part).first.evaluate("e => getComputedStyle(e).backgroundColor") in WHITE, part
    shot("print-tournament-card-dark")
    page.emulate_media(media="screen", color_scheme="light")


@PHONE
def test_a_casual_card_prints_with_its_day(app):
    page = app.page
    user = logged_in(app)
    match = app.make_match(
        "spades", ["Ann", "Bob"], {"target": 100}, [{"bids": [10, 2], "tricks": [11, 2]}], owner=user
    )
    page.goto(f"/matches/{match.pk}/")
    page.emulate_media(media="print")
    expect(page.locator(".print-head")).to_have_text(timezone.localdate().isoformat())
    in_language(app, "ur")
    page.reload()
    # The same day, in digits every language reads, and no fade in right to left either.
    expect(page.locator(".print-head")).to_have_text(timezone.localdate().isoformat())
    assert page.locator("#history-scroll").evaluate("e => getComputedStyle(e).backgroundImage") == "none"
