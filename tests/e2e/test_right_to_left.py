"""Urdu and Sindhi in the browser, at phone size (390x844): a whole Spades
match from the language chooser to the winner, then the main screens of a
match and of a tournament, light and dark. On every screen:

* <html lang dir> is the language's, right to left;
* the page loads its script's face only (Noto Nastaliq Urdu for ur, Noto
  Naskh Arabic for sd; never the other one, never on an English page);
* no horizontal overflow, and no text clipped in a button, chip or table
  cell (Nastaliq is tall);
* axe-core: no serious or critical violation;
* signed scores stay whole: the totals bar's "-39" is "-39" in the DOM of an
  isolated, left-to-right element, and is drawn minus first.

The texts are asserted by structure (ids, names, addresses), not by their
English words, so these tests hold once the catalogues are translated.
Screenshots: <name>--phone.png under SCREENSHOT_DIR."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.audit import Actor

from ..conftest import play
from .conftest import NAMES7, ORGANISER

pytestmark = pytest.mark.e2e

LANGUAGES = {"ur": "اردو", "sd": "سنڌي"}
FACES = {"ur": "noto-nastaliq-urdu", "sd": "noto-naskh-arabic"}


@pytest.fixture
def size() -> str:
    return "phone"  # 390x844, touch


CHECKS = """() => {
    const doc = document.documentElement;
    const fonts = performance.getEntriesByType('resource').map(e => e.name)
        .filter(n => n.includes('/vendor/fonts/'));
    const clipped = [];
    const boxes = 'button, .button, .chip > span, .segmented span, .sheet th, .sheet td, .totals li, summary';
    for (const el of document.querySelectorAll(boxes)) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        // Taller content than its box: clipped where the box hides overflow, or spilling out of a button.
        const tall = el.scrollHeight > el.clientHeight + 1;
        if (tall && (getComputedStyle(el).overflowY !== 'visible' || el.matches('button, .button, .chip > span'))) {
            clipped.push(el.outerHTML.slice(0, 80));
        }
    }
    return {lang: doc.lang, dir: doc.dir, overflow: doc.scrollWidth - doc.clientWidth, fonts, clipped};
}"""


def check_screen(app, shot, axe_check, lang: str, name: str, problems: list[str]) -> None:
    page = app.page
    page.evaluate("document.fonts.ready")
    page.evaluate("window.scrollTo(0, 0)")
    shot(f"{lang}-{name}")
    found = page.evaluate(CHECKS)
    if (found["lang"], found["dir"]) != (lang, "rtl"):
        problems.append(f"{name}: <html lang={found['lang']} dir={found['dir']}>")
    if found["overflow"] > 0:
        problems.append(f"{name}: the page scrolls sideways by {found['overflow']}px")
    other = [f for f in found["fonts"] if FACES[lang] not in f]
    if other:
        problems.append(f"{name}: loads another language's font: {other}")
    if found["clipped"]:
        problems.append(f"{name}: text clipped in {found['clipped'][:3]}")
    for line in axe_check(f"{lang}-{name}"):
        problems.append(f"{name}: axe {line}")


def choose(app, lang: str) -> None:
    """The chooser at the foot of the page: one tap on the language's own name."""
    page = app.page
    button = page.locator("footer.languages").get_by_role("button", name=LANGUAGES[lang], exact=True)
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 88, f"the {lang} button is {box}"  # one thumb
    app.tap(button)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("html")).to_have_attribute("dir", "rtl")


def save_hand(app, entry: dict) -> None:
    """Bids and tricks all at once, by seat: chips found by their inputs' names and values."""
    page = app.page
    details = page.locator("#entry details.more")
    if details.get_attribute("open") is None:
        app.tap(details.locator("summary"))
    for seat, value in enumerate(entry["bids"]):
        app.step_to(f"bids_{seat}", value)
    app.set_tricks(dict(enumerate(entry["tricks"])))
    expect(page.locator("#preview .preview-list")).to_be_visible()
    app.tap(page.locator('#entry-form button[formaction$="/hands/"]'))


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_whole_match_in_a_right_to_left_language(app, shot, axe_check, lang):
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    fonts = page.evaluate(
        "performance.getEntriesByType('resource').filter(e => e.name.includes('/vendor/fonts/')).length"
    )
    assert fonts == 0  # English: no script face at all
    choose(app, lang)
    problems: list[str] = []
    check_screen(app, shot, axe_check, lang, "home", problems)

    app.tap(page.locator('main a[href="/matches/new/"]'))
    app.tap(page.locator('ul.choices a[href="?game=spades"]'))
    page.locator("#seat_0").fill("Ann")
    page.locator("#seat_1").fill("Bob")
    page.locator("#opt_target").fill("200")
    check_screen(app, shot, axe_check, lang, "new-match-spades", problems)
    app.tap(page.locator("main form button[type=submit]"))
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("html")).to_have_attribute("lang", lang)  # the cookie keeps it

    # RULES.md S3 with target 200: -39 to 224 after hand 4, Bob wins (hand 4: Ann 6 took 4, -60; Bob 7 took 9, +72).
    hands = [
        {"bids": [4, 5], "tricks": [7, 6]},
        {"bids": [3, 6], "tricks": [6, 7]},
        {"bids": [4, 4], "tricks": [9, 4]},
        {"bids": [6, 7], "tricks": [4, 9]},
    ]
    for number, entry in enumerate(hands, start=1):
        if number == 4:
            for seat, value in enumerate(entry["bids"]):
                app.step_to(f"bids_{seat}", value)
            page.locator("#entry details.more > summary").click()
            app.set_tricks(dict(enumerate(entry["tricks"])))
            expect(page.locator("#preview .preview-list .pts")).to_have_text(["-60", "+72"])
            check_screen(app, shot, axe_check, lang, "sheet-in-play", problems)
            app.tap(page.locator('#entry-form button[formaction$="/hands/"]'))
        else:
            save_hand(app, entry)
        expect(page.locator("#history tbody tr")).to_have_count(number)
    expect(page.locator("#entry .winner-banner")).to_be_visible()
    expect(page.locator("#entry-form")).to_have_count(0)
    app.expect_totals({"Ann": -39, "Bob": 224})

    # The signed total is whole: "-39" in the DOM, isolated, left to right, the minus drawn first.
    minus = page.locator("#totals .total-score").first
    shown = minus.evaluate(
        """el => { const s = getComputedStyle(el); const r = document.createRange();
            r.setStart(el.firstChild, 0); r.setEnd(el.firstChild, 1); const sign = r.getBoundingClientRect();
            r.setStart(el.firstChild, 1); r.setEnd(el.firstChild, 3); const digits = r.getBoundingClientRect();
            return {text: el.textContent, bidi: s.unicodeBidi, dir: s.direction,
                    signFirst: sign.right <= digits.left + 0.5}; }"""
    )
    assert shown == {"text": "-39", "bidi": "isolate", "dir": "ltr", "signFirst": True}
    points = page.locator("#history tbody tr .pts").all_text_contents()
    assert "-60" in points and "+72" in points
    check_screen(app, shot, axe_check, lang, "sheet-finished", problems)
    page.emulate_media(color_scheme="dark")
    check_screen(app, shot, axe_check, lang, "sheet-finished-dark", problems)
    page.emulate_media(color_scheme="light")

    match_id = int(re.search(r"/matches/(\d+)/", page.url).group(1))
    page.goto(f"/matches/{match_id}/history/")
    check_screen(app, shot, axe_check, lang, "history", problems)
    page.goto(f"/matches/{match_id}/hands/1/edit/")
    expect(page.locator("#entry-form, form").first).to_be_visible()
    check_screen(app, shot, axe_check, lang, "edit", problems)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_tournament_pages_in_a_right_to_left_language(app, shot, axe_check, lang):
    from scorekeeper.tournaments import services as tournaments

    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    actor = Actor.organiser(user)
    t = tournaments.create_tournament(
        name="Club night", game="spades", format="swiss", options={"target": 200}, rounds=3,
        confirm_hands=False, actor=actor,
    )  # fmt: skip
    tournaments.register_players(tournament_id=t.pk, text="\n".join(NAMES7 + ["Hal", "Ivy"]), actor=actor)
    rnd = tournaments.propose_round(tournament_id=t.pk, actor=actor)
    tokens = tournaments.publish_round(round_id=rnd.pk, actor=actor)
    match_id = rnd.tables.get(pk=min(tokens)).match_id  # tokens: {table: [side A's, side B's]}
    play(app.match(match_id), {"bids": [4, 5], "tricks": [2, 11]}, actor=actor)  # Ann -40, Bob +56
    page.goto(f"/tournaments/{t.pk}/")
    choose(app, lang)
    problems: list[str] = []
    rows = page.locator("#standings-body tr")
    for name, url, ready in (
        ("tournament-dashboard", f"/tournaments/{t.pk}/", page.locator("main h1")),
        ("tournament-cards", f"/tournaments/{t.pk}/cards/", page.locator("main svg").first),
        ("tournament-standings", f"/tournaments/{t.pk}/standings/", rows.nth(8)),
        ("tournament-pairings", f"/tournaments/{t.pk}/pairings/", page.locator("main h1")),
        ("tournament-desk", f"/tournaments/{t.pk}/rounds/{rnd.pk}/desk/", page.locator("main h1")),
        ("tournament-table", f"/matches/{match_id}/", page.locator("#totals")),
    ):
        page.goto(url)
        expect(ready).to_be_visible()
        check_screen(app, shot, axe_check, lang, name, problems)
        if name in ("tournament-standings", "tournament-table"):
            page.emulate_media(color_scheme="dark")
            check_screen(app, shot, axe_check, lang, f"{name}-dark", problems)
            page.emulate_media(color_scheme="light")
    # The live table's negative score, whole, on the sheet.
    expect(page.locator("#totals .total-score").first).to_have_text("-40")
    assert not problems, "\n".join(problems)


# ------------------------------------------------ once the catalogues exist

# Words that stay in Latin letters on an Urdu or Sindhi page: the players'
# and the tournament's names (typed by people), the chooser's "English",
# and names of formats and tools.
ALLOWED = {*NAMES7, ORGANISER, "Hal", "Ivy", "Club", "night", "English", "CSV", "JSON", "OpenSkill", "HTTPS", "QR"}

# Every word of the page's text a reader meets (visible text, button and
# field names, titles), with addresses left out.
LATIN_WORDS = """() => {
    const parts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], img[alt], svg title, svg desc')) {
        parts.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '',
                   el.getAttribute('placeholder') || '', el.getAttribute('alt') || '');
        if (el.tagName.toLowerCase() === 'title' || el.tagName.toLowerCase() === 'desc') parts.push(el.textContent);
    }
    const text = parts.join(' ').replace(/https?:\\/\\/\\S+/g, ' ');
    return [...new Set(text.match(/[A-Za-z][A-Za-z'’-]*/g) || [])];
}"""


def english_left(page) -> list[str]:
    return sorted(w for w in page.evaluate(LATIN_WORDS) if w not in ALLOWED and w.strip("'’-") not in ALLOWED)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_english_left(app, lang):
    """A player who reads Urdu or Sindhi meets no English word on the screens
    of a match and of a tournament, from the first-run setup to the logged-out
    visitor's 403 and 404 (tests/test_catalogues.py says which messages are
    missing from a catalogue; this says which texts are not marked at all)."""
    from scorekeeper.access.links import token_for
    from scorekeeper.models import AccessLink, Player, Table
    from scorekeeper.tournaments import services as tournaments

    page = app.page
    left: dict[str, list[str]] = {}

    def visit(url: str, ready=None) -> None:
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        if ready is not None:
            expect(ready).to_be_visible()
        words = english_left(page)
        if words:
            left[url] = words

    # A fresh install: / opens the first organiser's setup, where the language is chosen.
    page.goto("/")
    expect(page).to_have_url(re.compile(r"/setup/$"))
    choose(app, lang)
    visit("/setup/", page.locator("#username"))

    user = app.make_organiser()
    app.log_in_fast(user)
    actor = Actor.organiser(user)
    hands = [{"bids": [4, 5], "tricks": [7, 6]}, {"bids": [3, 6], "tricks": [6, 7]}]
    playing = app.make_match("spades", ["Ann", "Bob"], {"target": 200}, hands, owner=user, pending={"bids": [4, 4]})
    finished = app.make_match(
        "spades", ["Ann", "Bob"], {"target": 100}, [{"bids": [10, 2], "tricks": [11, 2]}], owner=user
    )
    t = tournaments.create_tournament(
        name="Club night", game="spades", format="swiss", options={"target": 200}, rounds=3,
        confirm_hands=False, actor=actor,
    )  # fmt: skip
    tournaments.register_players(tournament_id=t.pk, text="\n".join(NAMES7 + ["Hal", "Ivy"]), actor=actor)
    rnd = tournaments.propose_round(tournament_id=t.pk, actor=actor)
    tournaments.publish_round(round_id=rnd.pk, actor=actor)
    # A second event, its hands confirmed by the other side: players registered, round 1 proposed.
    c = tournaments.create_tournament(
        name="Club night", game="spades", format="swiss", options={"target": 200}, rounds=2,
        confirm_hands=True, actor=actor,
    )  # fmt: skip
    tournaments.register_players(tournament_id=c.pk, text="\n".join(NAMES7[:4]), actor=actor)
    visit(f"/tournaments/{c.pk}/", page.locator("main textarea"))  # the registration form
    c_round = tournaments.propose_round(tournament_id=c.pk, actor=actor)
    visit(f"/tournaments/{c.pk}/rounds/{c_round.pk}/")  # the proposed round, to review
    # Published from that page, in the organiser's language: the tables' links are named in it.
    app.tap(page.locator(f'main form[action$="/rounds/{c_round.pk}/publish/"] button[type=submit]'))
    expect(page).to_have_url(re.compile(rf"/tournaments/{c.pk}/"))
    c_table = Table.objects.filter(round=c_round).order_by("number").first()
    c_token = token_for(AccessLink.objects.get(match_id=c_table.match_id, side=0))
    ann = Player.objects.get(name="Ann")

    for url in (
        "/",
        "/matches/new/",
        "/matches/new/?game=spades",
        f"/matches/{playing.pk}/",
        f"/matches/{playing.pk}/history/",
        f"/matches/{playing.pk}/hands/1/edit/",
        f"/matches/{playing.pk}/undo/",
        f"/matches/{playing.pk}/share/",
        f"/matches/{finished.pk}/",
        "/players/",
        f"/players/{ann.pk}/",
        "/ratings/",
        "/backup/",
        "/tournaments/",
        "/tournaments/new/",
        "/tournaments/new/?game=spades",
        f"/tournaments/{t.pk}/",
        f"/tournaments/{t.pk}/standings/",
        f"/tournaments/{t.pk}/standings/?big=1",  # the projector
        f"/tournaments/{t.pk}/pairings/",
        f"/tournaments/{t.pk}/cards/",
        f"/tournaments/{t.pk}/rounds/{rnd.pk}/desk/",
        f"/tournaments/{c.pk}/",
        f"/tournaments/{c.pk}/cards/",
        f"/tournaments/{c.pk}/tables/{c_table.pk}/end/",
        f"/matches/{c_table.match_id}/share/",  # the table's scoring links, each with its QR code
        f"/l/{c_token}/",  # what the table's device opens first
    ):
        visit(url)

    # The table's first hand, entered on this phone: "pass the phone" to the other side.
    page.goto(f"/matches/{c_table.match_id}/")
    save_hand(app, {"bids": [4, 5], "tricks": [7, 6]})
    expect(page.locator(".pass-card")).to_be_visible()
    visit(f"/matches/{c_table.match_id}/", page.locator(".pass-card"))
    visit(f"/matches/{c_table.match_id}/hands/1/check/")

    # Logged out: the login page, a watcher's sheet, a page only organisers may see (403), no such page (404).
    page.context.clear_cookies(name="sessionid")
    visit("/login/", page.locator("#id_username"))
    visit(f"/matches/{playing.pk}/", page.locator("#totals"))
    visit(f"/matches/{playing.pk}/history/")
    assert page.request.get(f"/matches/{playing.pk}/history/").status == 403
    visit("/matches/987654321/")
    assert page.request.get("/matches/987654321/").status == 404

    found = "\n".join(f"  {url}: {' '.join(words[:30])}" for url, words in left.items())
    assert not left, f"English words on the {lang} pages:\n{found}"
