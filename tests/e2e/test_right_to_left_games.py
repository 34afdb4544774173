"""Draw Bridge, Sixty-Six and Oh Hell in Urdu and in Sindhi at phone size
(390x844), each a whole match from the language chooser to the winner banner
(test_right_to_left.py plays Spades). On the new-match form, the entry
screen, the preview, the edit page and the finished sheet (light and dark):
check_screen's checks (lang and dir, the script's own font only, no
horizontal overflow, no clipped text, axe clean).

Everything is picked by structure (ids, input names and values, form
actions), never by English words. The expected numbers are worked out by
hand from RULES.md (the working is in the comments; the hand sequences are
those of test_games.py's FINISHED matches and RULES.md's worked examples).
None of these three games can give a negative total, so "signed scores
intact" is checked on the hands' "+N" points: whole in the DOM, isolated,
left to right, the plus drawn before the digits; and on the totals bar's
numbers (isolated, left to right).

Screenshots: <lang>-<game>-<screen>--phone.png under SCREENSHOT_DIR."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from .conftest import NAMES7
from .test_right_to_left import LANGUAGES, check_screen, choose, save_hand

pytestmark = pytest.mark.e2e

LATIN = re.compile(r"[A-Za-z]")


@pytest.fixture
def size() -> str:
    return "phone"  # 390x844, touch


# ------------------------------------------------------------------ helpers


def start_match(app, shot, axe_check, lang: str, game: str, names: list[str], options: dict, problems) -> None:
    """From the home page in English: the chooser, then New match, the game,
    the seats and the options; the form is checked before it is sent."""
    page = app.page
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    choose(app, lang)
    app.tap(page.locator('main a[href="/matches/new/"]'))
    app.tap(page.locator(f'ul.choices a[href="?game={game}"]'))
    for seat, name in enumerate(names):
        page.locator(f"#seat_{seat}").fill(name)
    for selector, value in options.items():
        field = page.locator(selector)
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(str(value))
    check_screen(app, shot, axe_check, lang, f"{game}-new-match", problems)
    app.tap(page.locator("main form button[type=submit]"))
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("html")).to_have_attribute("lang", lang)  # the cookie keeps it
    expect(page.locator("#entry-form")).to_be_visible()


def match_id_of(page) -> int:
    return int(re.search(r"/matches/(\d+)/", page.url).group(1))


def radio(app, name: str, value) -> None:
    """Tap the big button (a label holding a radio) for ``value`` of ``name``."""
    label = app.page.locator(f'#entry-form label:has(> input[name="{name}"][value="{value}"]):visible')
    assert label.count() == 1, f"no single visible button for {name}={value}"
    app.tap(label)
    expect(label.locator("input")).to_be_checked()


def save(app, what: str) -> None:
    """The entry's save button: ``bids`` (the bids or the contract) or ``hands``
    (the hand; not Draw Bridge's "passed out", which has a name of its own)."""
    app.tap(app.page.locator(f'#entry-form button[formaction$="/{what}/"]:not([name]):visible'))


def expect_points(app, where: str, points: list[str]) -> None:
    """Each player's points in seat order, in the preview or in a history row."""
    expect(app.page.locator(where).locator(".pts")).to_have_text(points)


SIGNED = """el => { const s = getComputedStyle(el); const text = el.textContent;
    let signFirst = null;
    if (/^[+-]\\d+$/.test(text)) {
        const r = document.createRange();
        r.setStart(el.firstChild, 0); r.setEnd(el.firstChild, 1); const sign = r.getBoundingClientRect();
        r.setStart(el.firstChild, 1); r.setEnd(el.firstChild, text.length); const digits = r.getBoundingClientRect();
        signFirst = sign.right <= digits.left + 0.5;
    }
    return {text, bidi: s.unicodeBidi, dir: s.direction, signFirst}; }"""


def expect_signed_whole(locator, text: str) -> None:
    """A signed number ("+380") is that text in the DOM, isolated, left to
    right, its sign drawn first (to the left of the digits)."""
    shown = locator.evaluate(SIGNED)
    assert shown == {"text": text, "bidi": "isolate", "dir": "ltr", "signFirst": True}, shown


LINE_ORDER = """ul => [...ul.querySelectorAll('li')].map(li => {
    const who = li.querySelector('.who').getBoundingClientRect();
    const pts = li.querySelector('.pts').getBoundingClientRect();
    const why = li.querySelector('.why');
    const beside = why ? [...why.getClientRects()].filter(r => r.top < pts.bottom && r.bottom > pts.top) : [];
    return {text: li.textContent.replace(/\\s+/g, ' ').trim(),
            nameFirst: who.left >= pts.right - 0.5,
            whyAfter: beside.every(r => r.right <= pts.left + 0.5)};
})"""


def expect_preview_reads_right_to_left(app) -> None:
    """Each line of the preview reads name, points, why from the right: a
    Latin name at the start of the why ("Bob closed ...") must not join the
    player's name and the points into one left-to-right run."""
    lines = app.page.locator("#preview .preview-list").evaluate(LINE_ORDER)
    wrong = [line["text"] for line in lines if not (line["nameFirst"] and line["whyAfter"])]
    assert not wrong, f"preview lines out of order: {wrong}"


def expect_totals_whole(app, totals: dict[str, int]) -> None:
    app.expect_totals(totals)
    for el in app.page.locator("#totals .total-score").all():
        shown = el.evaluate(SIGNED)
        assert (shown["bidi"], shown["dir"]) == ("isolate", "ltr"), shown


def expect_winners(app, lang: str, winners: list[str], hands: int) -> None:
    """The winner banner in the language: the names, the verb, 'after N hands'; no form."""
    page = app.page
    banner = page.locator("#entry .winner-banner")
    expect(banner).to_be_visible()
    with translation.override(lang):
        if len(winners) == 1:
            heading = f"{winners[0]} {translation.gettext('wins')}"
        else:
            heading = f"{', '.join(winners[:-1])} {translation.gettext('and')} {winners[-1]} "
            heading += translation.gettext("share the win")
    words = r"\s+".join(re.escape(w) for w in heading.split())
    expect(banner.locator("h2")).to_have_text(re.compile(rf"^\s*{words}\s*$"))
    after = banner.locator("h2 + p")
    expect(after).to_contain_text(str(hands))
    assert not LATIN.search(after.text_content()), f"the banner says {after.text_content()!r}"  # not "after 3 hands"
    expect(page.locator("#entry-form")).to_have_count(0)


CELL_NUMBERS = """() => [...document.querySelectorAll('#history tbody td')].flatMap(td => {
    const cs = getComputedStyle(td);
    const start = td.getBoundingClientRect().right - parseFloat(cs.paddingRight) - parseFloat(cs.borderRightWidth);
    return [...td.querySelectorAll(':scope > .pts, :scope > .tot')].map(el => {
        const r = document.createRange(); r.selectNodeContents(el);
        return {text: el.textContent, off: Math.round(start - r.getBoundingClientRect().right)};
    });
}).filter(n => Math.abs(n.off) > 1)"""


def finished_screens(app, shot, axe_check, lang: str, game: str, problems) -> None:
    page = app.page
    # The history's points and totals start where the cell's words start: at its right.
    off = page.evaluate(CELL_NUMBERS)
    if off:
        problems.append(f"{game}: numbers not at the right of their cells: {off[:4]}")
    check_screen(app, shot, axe_check, lang, f"{game}-finished", problems)
    page.emulate_media(color_scheme="dark")
    check_screen(app, shot, axe_check, lang, f"{game}-finished-dark", problems)
    page.emulate_media(color_scheme="light")
    match_id = match_id_of(page)
    page.goto(f"/matches/{match_id}/hands/1/edit/")
    expect(page.locator("main form").first).to_be_visible()
    check_screen(app, shot, axe_check, lang, f"{game}-edit", problems)


# --------------------------------------------------------------- Draw Bridge


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_drawbridge_match_in_a_right_to_left_language(app, shot, axe_check, lang):
    page = app.page
    app.log_in_fast(app.make_organiser())
    problems: list[str] = []
    start_match(app, shot, axe_check, lang, "drawbridge", ["Ann", "Bob"], {"#opt_target": 200}, problems)
    check_screen(app, shot, axe_check, lang, "drawbridge-entry", problems)

    # RULES.md D4 then D5, target 200 (test_games.py's finished Draw Bridge).
    # Hand 1: both pass: one tap, nobody scores (the deal still counts).
    app.tap(page.locator('#entry-form button[name="passed_out"]:visible'))
    app.expect_history_rows(1)
    expect_totals_whole(app, {"Ann": 0, "Bob": 0})

    # Hand 2, the contract first: Bob 1 clubs, not doubled; then 8 tricks
    # (needs 7): 2 over six x 20 = 40 to Bob.
    radio(app, "declarer", 1)
    app.step_to("level", 1)
    radio(app, "strain", "C")
    save(app, "bids")
    expect(page.locator("#entry .big-contract")).to_contain_text("1")
    app.step_to("tricks", 8)
    expect_points(app, "#preview .preview-list", ["0", "+40"])
    expect_preview_reads_right_to_left(app)
    check_screen(app, shot, axe_check, lang, "drawbridge-preview", problems)
    save(app, "hands")
    app.expect_history_rows(2)
    expect_totals_whole(app, {"Ann": 0, "Bob": 40})

    # Hand 3, all at once: Ann 6NT doubled, 12 tricks (needs 12): 40 + 5 x 30
    # = 190, doubled 380 to Ann; 380 reaches 200: Ann wins.
    radio(app, "declarer", 0)
    app.step_to("level", 6)
    radio(app, "strain", "NT")
    radio(app, "double", "double")
    app.tap(page.locator("#entry details.more > summary"))
    app.step_to("tricks", 12)
    expect_points(app, "#preview .preview-list", ["+380", "0"])
    expect(page.locator("#preview .ends")).to_be_visible()
    expect_signed_whole(page.locator("#preview .preview-list .pts").first, "+380")
    save(app, "hands")

    expect_winners(app, lang, ["Ann"], 3)
    expect_totals_whole(app, {"Ann": 380, "Bob": 40})
    app.expect_history_rows(3)
    expect_points(app, "#history tbody tr:nth-child(1)", ["+380", "0"])  # newest first
    expect_points(app, "#history tbody tr:nth-child(2)", ["0", "+40"])
    expect_signed_whole(page.locator("#history tbody tr:nth-child(2) .pts").nth(1), "+40")
    assert app.match(match_id_of(page)).winners == [0]
    finished_screens(app, shot, axe_check, lang, "drawbridge", problems)
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- Sixty-Six


def sixtysix_deal(app, end: str, player: int, points: tuple[int, int], took: str, at_close: str | None = None):
    radio(app, "end", end)
    radio(app, "player", player)
    app.page.locator("#in-points_0").fill(str(points[0]))
    app.page.locator("#in-points_1").fill(str(points[1]))
    radio(app, "opponent_took_trick", took)
    if at_close is not None:
        radio(app, "opponent_trick_at_close", at_close)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_sixtysix_match_in_a_right_to_left_language(app, shot, axe_check, lang):
    page = app.page
    app.log_in_fast(app.make_organiser())
    problems: list[str] = []
    start_match(app, shot, axe_check, lang, "sixtysix", ["Ann", "Bob"], {"#opt_target": 3}, problems)
    check_screen(app, shot, axe_check, lang, "sixtysix-entry", problems)

    # RULES.md X1, X2 and X5, target 3.
    # Deal 1 (X1): Ann claims 66 with 71; Bob has 38 (33 or more) and a trick: Ann wins 1.
    sixtysix_deal(app, "out", 0, (71, 38), "yes")
    expect_points(app, "#preview .preview-list", ["+1", "0"])
    save(app, "hands")
    app.expect_history_rows(1)
    expect_totals_whole(app, {"Ann": 1, "Bob": 0})

    # Deal 2 (X2): Bob claims with 66; Ann has 25 (under 33) and a trick: Bob wins 2.
    sixtysix_deal(app, "out", 1, (25, 66), "yes")
    expect_points(app, "#preview .preview-list", ["0", "+2"])
    save(app, "hands")
    app.expect_history_rows(2)
    expect_totals_whole(app, {"Ann": 1, "Bob": 2})

    # Deal 3 (X5): Bob closes the stock and falls short (51); Ann had no
    # trick when he closed: Ann wins 3 (RULES 4.3). Ann 4 reaches 3: she wins.
    radio(app, "end", "closed")
    expect(page.locator(".closed-only")).to_be_visible()
    sixtysix_deal(app, "closed", 1, (34, 51), "yes", at_close="no")
    expect_points(app, "#preview .preview-list", ["+3", "0"])
    expect(page.locator("#preview .ends")).to_be_visible()
    expect_signed_whole(page.locator("#preview .preview-list .pts").first, "+3")
    expect_preview_reads_right_to_left(app)
    check_screen(app, shot, axe_check, lang, "sixtysix-preview", problems)
    save(app, "hands")

    expect_winners(app, lang, ["Ann"], 3)
    expect_totals_whole(app, {"Ann": 4, "Bob": 2})
    expect_points(app, "#history tbody tr:nth-child(1)", ["+3", "0"])
    expect_points(app, "#history tbody tr:nth-child(2)", ["0", "+2"])
    expect_points(app, "#history tbody tr:nth-child(3)", ["+1", "0"])
    expect_signed_whole(page.locator("#history tbody tr:nth-child(2) .pts").nth(1), "+2")
    assert app.match(match_id_of(page)).winners == [0]
    finished_screens(app, shot, axe_check, lang, "sixtysix", problems)
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------ Oh Hell

# RULES.md O5: 7 players, "up" (hands of 1..7 cards, the 7-card hand without
# trumps), no hook. Hand k: dealer k % 7, the player to the left bids first.
OHHELL = [
    # (bids, tricks, points): made exactly 10 + tricks, missed 0.
    ([0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 1], [10, 10, 10, 10, 10, 10, 11]),
    ([1, 0, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0], [11, 0, 10, 10, 10, 10, 10]),  # Bob 0/1
    ([0, 1, 0, 1, 0, 0, 0], [0, 1, 0, 1, 0, 1, 0], [10, 11, 10, 11, 10, 0, 10]),  # Fay 0/1
    ([1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0, 1], [11, 11, 11, 10, 10, 10, 0]),  # Gus 0/1
    ([2, 0, 1, 1, 0, 0, 1], [2, 0, 1, 1, 0, 0, 1], [12, 10, 11, 11, 10, 10, 11]),
    ([1, 1, 1, 1, 1, 0, 1], [1, 1, 1, 1, 1, 0, 1], [11, 11, 11, 11, 11, 10, 11]),
    ([2, 1, 1, 1, 1, 0, 1], [1, 2, 1, 1, 1, 0, 1], [0, 0, 11, 11, 11, 10, 11]),  # Ann 2/1, Bob 1/2
]
# Running totals after each hand (the column sums of the points above).
OHHELL_TOTALS = [
    [10, 10, 10, 10, 10, 10, 11],
    [21, 10, 20, 20, 20, 20, 21],
    [31, 21, 30, 31, 30, 20, 31],
    [42, 32, 41, 41, 40, 30, 31],
    [54, 42, 52, 52, 50, 40, 42],
    [65, 53, 63, 63, 61, 50, 53],
    [65, 53, 74, 74, 72, 60, 64],  # Cat and Dan, 74 each, share the win
]


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_ohhell_match_in_a_right_to_left_language(app, shot, axe_check, lang):
    page = app.page
    app.log_in_fast(app.make_organiser())
    problems: list[str] = []
    start_match(app, shot, axe_check, lang, "ohhell", NAMES7, {"#opt_schedule": "up"}, problems)
    page.locator("#entry details.more > summary").click()  # the whole form: bids and tricks
    check_screen(app, shot, axe_check, lang, "ohhell-entry", problems)
    page.locator("#entry details.more > summary").click()

    for number, (bids, tricks, points) in enumerate(OHHELL, start=1):
        if number < len(OHHELL):  # hands 1 to 6 all at once
            save_hand(app, {"bids": bids, "tricks": tricks})
        else:  # hand 7: the bids before play, the tricks after
            for seat, value in enumerate(bids):
                app.step_to(f"bids_{seat}", value)
            save(app, "bids")
            # On the phone each player's bid heads their column of tricks.
            expect(page.locator("#entry .head-bid")).to_have_count(len(bids))
            expect(page.locator("#entry .head-bid").first).to_be_visible()
            app.set_tricks(dict(enumerate(tricks)))
            expect_points(app, "#preview .preview-list", [signed(p) for p in points])
            expect(page.locator("#preview .ends")).to_be_visible()
            expect_signed_whole(page.locator("#preview .preview-list .pts").nth(2), "+11")
            expect_preview_reads_right_to_left(app)
            check_screen(app, shot, axe_check, lang, "ohhell-preview", problems)
            save(app, "hands")
        app.expect_history_rows(number)
        expect_totals_whole(app, dict(zip(NAMES7, OHHELL_TOTALS[number - 1], strict=True)))

    expect_winners(app, lang, ["Cat", "Dan"], 7)
    expect_points(app, "#history tbody tr:nth-child(1)", ["0", "0", "+11", "+11", "+11", "+10", "+11"])
    expect_signed_whole(page.locator("#history tbody tr:nth-child(1) .pts").nth(5), "+10")
    assert app.match(match_id_of(page)).winners == [2, 3]
    finished_screens(app, shot, axe_check, lang, "ohhell", problems)
    assert not problems, "\n".join(problems)
