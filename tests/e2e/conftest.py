"""End-to-end tests in a real browser (Debian's Chromium through Playwright)
against pytest-django's live server.

Every test runs twice: at phone size (390x844, touch) and at tablet size
(1024x768), through the parametrized ``size`` fixture that the ``context``
fixture below uses.

The live server answers from another thread, so the tests need
``transactional_db`` (requested by the ``app`` fixture). Playwright's sync API
runs an event loop in this thread, which makes Django refuse ORM calls from
the test unless DJANGO_ALLOW_ASYNC_UNSAFE is set.

Expected scores are worked out by hand from docs/rules.md and written
into the tests; they are never read back from the app.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

import pytest  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402

from scorekeeper.audit import SYSTEM, Actor  # noqa: E402

from ..conftest import bid, play  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "tablet": {"viewport": {"width": 1024, "height": 768}},
}
PASSWORD = "Correct-Horse-Battery-42"
ORGANISER = "organiser"
NAMES2 = ["Ann", "Bob"]
NAMES7 = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]

expect.set_options(timeout=10_000)


def pytest_configure(config):
    # pytest-base-url (loaded by pytest-playwright) trips a pytest deprecation; not ours to fix.
    config.addinivalue_line(
        "filterwarnings", "ignore:Session-scoped fixtures defined as instance methods:pytest.PytestRemovedIn10Warning"
    )


# ------------------------------------------------------------------ browser


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(params=list(SIZES))
def size(request) -> str:
    return request.param


@pytest.fixture
def context(new_context, size, live_server):
    context = new_context(base_url=live_server.url, **SIZES[size])
    context.set_default_timeout(10_000)
    return context


@pytest.fixture
def touch(size) -> bool:
    return bool(SIZES[size].get("has_touch"))


# -------------------------------------------------------------- screenshots


@pytest.fixture(scope="session")
def screenshot_dir(request) -> Path:
    path = Path(os.environ.get("SCREENSHOT_DIR") or REPO / "screenshots").resolve()
    path.mkdir(parents=True, exist_ok=True)
    (path / AXE_REPORT).unlink(missing_ok=True)  # this run's results only
    capture = request.config.pluginmanager.getplugin("capturemanager")
    if capture is not None:
        with capture.global_and_fixture_disabled():
            print(f"\nScreenshots: {path}")
    else:  # pragma: no cover
        print(f"\nScreenshots: {path}")
    return path


@pytest.fixture
def shot(page: Page, size, screenshot_dir):
    """shot(name): a full-page screenshot <name>--<size>.png."""

    def _shot(name: str) -> Path:
        path = screenshot_dir / f"{name}--{size}.png"
        page.screenshot(path=str(path), full_page=True, animations="disabled", caret="hide")
        return path

    return _shot


# ------------------------------------------------------------ accessibility


AXE_REPORT = "axe-results.jsonl"


@pytest.fixture
def axe_check(page: Page, size, screenshot_dir):
    """axe_check(name): run axe-core on the page; record every violation (in
    axe-results.jsonl next to the screenshots) and return those with impact
    serious or critical, each as a printable line."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()

    def _check(name: str, context=None) -> list[str]:
        results = axe.run(page, context=context)
        violations = results.response["violations"]
        lines = []
        for v in violations:
            nodes = [" ".join(n["target"]) if isinstance(n["target"], list) else str(n["target"]) for n in v["nodes"]]
            lines.append(f"{v['id']} ({v['impact']}): {v['help']} -- {len(nodes)} node(s): {'; '.join(nodes[:8])}")
        with (screenshot_dir / AXE_REPORT).open("a", encoding="utf-8") as out:
            record = {
                "page": name,
                "size": size,
                "violations": [
                    {
                        "id": v["id"],
                        "impact": v["impact"],
                        "nodes": [{"target": n["target"], "html": n["html"][:200]} for n in v["nodes"]],
                    }
                    for v in violations
                ],
            }
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        for line in lines:
            print(f"axe {name} [{size}]: {line}")
        return [line for v, line in zip(violations, lines, strict=True) if v["impact"] in ("serious", "critical")]

    return _check


# --------------------------------------------------------------- the app


class App:
    """The test's handle on the live server, the database and the browser."""

    def __init__(self, page: Page, live_server, touch: bool):
        self.page = page
        self.url = live_server.url
        self.touch = touch
        self.taps = 0  # every tap or click through tap(), press() and pick()
        self.keys = 0  # keys typed through type_into()

    # ------------------------------------------------------------ people

    def create_organiser_through_setup(self) -> None:
        """A fresh install: / sends us to /setup/, where we make the first organiser."""
        page = self.page
        page.goto("/")
        expect(page).to_have_url(re.compile(r"/setup/$"))
        page.fill("#username", ORGANISER)
        page.fill("#password", PASSWORD)
        page.fill("#password2", PASSWORD)
        page.get_by_role("button", name="Create the account").click()
        expect(page).to_have_url(self.url + "/")
        expect(page.locator(".messages")).to_contain_text("You are the organiser")

    def make_organiser(self):
        from django.contrib.auth import get_user_model

        return get_user_model().objects.create_superuser(username=ORGANISER, password=PASSWORD)

    def log_in_fast(self, user) -> None:
        """Log the browser in without the form (for tests about something else)."""
        from django.test import Client

        client = Client()
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        cookie = client.cookies["sessionid"]
        host = re.sub(r"^https?://", "", self.url).split(":")[0]
        self.page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "domain": host, "path": "/"}])

    # ----------------------------------------------------------- matches

    def start_match_through_ui(self, game_name: str, names: list[str], options: dict | None = None) -> int:
        """From the home page: New match, the game, the seats typed in, the options."""
        page = self.page
        if page.url != self.url + "/":
            page.goto("/")
        page.get_by_role("link", name="New match").click()
        expect(page.get_by_role("heading", name="New match")).to_be_visible()
        page.locator("ul.choices").get_by_role("link", name=re.compile("^" + re.escape(game_name))).click()
        expect(page.locator("main form")).to_contain_text(game_name)
        for seat, name in enumerate(names):
            page.locator(f"#seat_{seat}").fill(name)
        for selector, value in (options or {}).items():
            field = page.locator(selector)
            if value is True:
                field.check()
            elif field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(str(value))
        page.get_by_role("button", name="Start the match").click()
        expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
        return int(re.search(r"/matches/(\d+)/", page.url).group(1))

    @staticmethod
    def make_match(game: str, names: list[str], options: dict | None = None, hands=(), owner=None, pending=None):
        """A match built through the services, as the app builds it (each
        write from a page that shows the match as it is)."""
        from scorekeeper.matches import services

        actor = Actor.organiser(owner) if owner else SYSTEM
        match = services.start_match(game=game, player_names=list(names), options=options or {}, actor=actor)
        for entry in hands:
            play(match, entry, actor=actor)
        if pending is not None:
            bid(match, pending, actor=actor)
        match.refresh_from_db()
        return match

    @staticmethod
    def hand_count(match_id: int) -> int:
        from scorekeeper.models import Hand

        return Hand.objects.filter(match_id=match_id).count()

    @staticmethod
    def match(match_id: int):
        from scorekeeper.models import Match

        return Match.objects.get(pk=match_id)

    # ------------------------------------------------------ entering hands

    def tap(self, locator) -> None:
        """A tap on the phone (touch events), a click on the tablet; counted
        in ``taps`` (test_taps.py counts a hand's taps with it)."""
        self.taps += 1
        if self.touch:
            locator.tap()
        else:
            locator.click()

    def type_into(self, locator, text: str) -> None:
        """Tap a text field (one tap) and type ``text`` on the keyboard (counted
        in ``keys``, not in ``taps``)."""
        self.tap(locator)
        locator.press_sequentially(text)
        self.keys += len(text)

    def chip(self, input_name: str, value):
        """The chip (a label holding a radio) for ``value`` of the number ``input_name``."""
        group = self.page.locator(f"#in-{input_name}")
        return group.locator("label.chip").filter(has=self.page.locator(f'input[value="{value}"]'))

    def chosen(self, input_name: str):
        """The checked radio of the chips ``input_name``: expect(...).to_have_value("7")."""
        return self.page.locator(f"#in-{input_name} input:checked")

    def step_to(self, input_name: str, value, *, max_taps: int = 1, verify: bool = True) -> None:
        """Pick ``value`` for the number ``input_name``: one tap on its chip
        (``max_taps`` is kept from the − / + steppers, which are gone)."""
        chip = self.chip(input_name, value)
        assert chip.count() == 1, f"{value!r} is not a choice of #in-{input_name}"
        self.tap(chip)
        if verify:
            expect(chip.locator("input")).to_be_checked()

    def set_tricks(self, wanted: dict[int, int]) -> None:
        """Set the tricks to ``wanted`` (seat -> tricks), leaving the one the
        form fills in (data-auto, the last listed) to the form."""
        form = self.page.locator("form.entry-form")
        auto = form.locator("fieldset[data-auto]").get_attribute("id")
        for seat, value in wanted.items():
            if f"in-tricks_{seat}" != auto:
                self.step_to(f"tricks_{seat}", value, verify=False)
        self.expect_values({f"tricks_{seat}": value for seat, value in wanted.items()})

    def expect_values(self, values: dict[str, object]) -> None:
        """The inputs named (without "in-") hold these values (chips: the
        checked one's, "" for none): one round trip."""
        actual = self.page.evaluate(
            """names => Object.fromEntries(names.map(n => {
                const el = document.getElementById('in-' + n);
                if (el.tagName !== 'FIELDSET') return [n, el.value];
                const checked = el.querySelector('input:checked');
                return [n, checked ? checked.value : ''];
            }))""",
            list(values),
        )
        assert actual == {k: str(v) for k, v in values.items()}

    def pick(self, legend: str, text: str) -> None:
        """Tap the visible segmented button (or chip) with this text under the legend."""
        group = self.page.locator("fieldset.segmented:visible, fieldset.chips:visible").filter(
            has=self.page.locator("legend", has_text=re.compile("^" + re.escape(legend)))
        )
        label = group.locator("label").filter(has_text=re.compile("^" + re.escape(text) + "$"))
        self.tap(label)
        expect(label.locator("input")).to_be_checked()

    def press(self, name: str) -> None:
        self.tap(self.page.get_by_role("button", name=name, exact=True))

    def open_all_at_once(self) -> None:
        details = self.page.locator("#entry details.more")
        summary = details.locator("summary", has_text="Already played? Enter the tricks too")
        if details.get_attribute("open") is None:
            self.tap(summary)
        expect(details).to_have_attribute("open", "")

    # ------------------------------------------------------------ reading

    def expect_totals(self, expected: dict[str, int]) -> None:
        """The totals bar shows exactly these players (in seat order) and totals.
        A name shown short ("Bart…", five players or more) is read whole, as a
        screen reader reads it (its visually hidden .name-full)."""
        bar = self.page.locator("#totals")
        names = bar.locator(".total-name .name-full, .total-name:not(:has(.name-full))")
        expect(names).to_have_text(list(expected))
        expect(bar.locator(".total-score")).to_have_text([str(v) for v in expected.values()])

    def expect_notice(self, text: str) -> None:
        expect(self.page.locator("#entry .banner-success")).to_contain_text(text)

    def expect_preview(self, lines: dict[str, str]) -> None:
        """Each player's points in the preview, e.g. {"Ann": "+43", "Bob": "-100"}."""
        preview = self.page.locator("#preview .preview-list")
        for name, points in lines.items():
            row = preview.locator("li").filter(has=self.page.locator(".who", has_text=re.compile(f"^{name}$")))
            expect(row.locator(".pts"), f"preview points of {name}").to_have_text(points)

    def expect_history_rows(self, count: int) -> None:
        expect(self.page.locator("#history tbody tr")).to_have_count(count)

    def history_row(self, number: int):
        return self.page.locator("#history tbody tr").filter(
            has=self.page.locator("th[scope=row]", has_text=re.compile(rf"^\s*{number}\b"))
        )

    def expect_winner(self, heading: str, hands: int) -> None:
        banner = self.page.locator("#entry .winner-banner")
        words = r"\s+".join(re.escape(w) for w in heading.split())
        expect(banner.get_by_role("heading", level=2)).to_have_text(re.compile(rf"^\s*{words}\s*$"))
        expect(banner).to_contain_text(re.compile(rf"after {hands} (hands|deals)"))  # Sixty-Six: deals
        expect(self.page.locator("#entry-form")).to_have_count(0)


def new_device(new_context, live_server, size: str = "phone") -> App:
    """Another device at the table: its own browser context (cookies), not logged in."""
    context = new_context(base_url=live_server.url, **SIZES[size])
    context.set_default_timeout(10_000)
    return App(context.new_page(), live_server, touch=bool(SIZES[size].get("has_touch")))


def claim_link(dev: App, token: str) -> int:
    """Open a scoring link on ``dev``, say yes, and land on the match's sheet."""
    page = dev.page
    page.goto(f"/l/{token}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Score this match on this device?")
    dev.press("Yes, score on this device")
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    return int(re.search(r"/matches/(\d+)/", page.url).group(1))


@pytest.fixture
def app(page: Page, live_server, transactional_db, settings, touch) -> App:
    # A fast hasher: the organiser account is made in every test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return App(page, live_server, touch)


def signed(points: int) -> str:
    """How the app writes a hand's points: +41, 0, -100 (the same minus as the totals)."""
    return f"+{points}" if points > 0 else str(points)


# ------------------------------------------------------------ main screens

GAMES = ("spades", "drawbridge", "sixtysix", "ohhell")
SCREEN_GROUPS = ("pages", "tournament", *GAMES)
NAMES4 = NAMES7[:4]

# Finished matches, built from RULES.md's worked examples (players renamed).
FINISHED = {
    # S3 with target 200: totals -39, 224 after hand 4 -> Bob wins.
    "spades": (
        NAMES2,
        {"target": 200},
        [
            {"bids": [4, 5], "tricks": [7, 6]},
            {"bids": [3, 6], "tricks": [6, 7]},
            {"bids": [4, 4], "tricks": [9, 4]},
            {"bids": [6, 7], "tricks": [4, 9]},
        ],
        "Bob wins",
    ),
    # D4 then D5 (target 200): 0-0, 0-40, then Ann 6NT doubled with 12: 380.
    "drawbridge": (
        NAMES2,
        {"target": 200},
        [
            {"passed_out": True},
            {"declarer": 1, "level": 1, "strain": "C", "tricks": 8},
            {"declarer": 0, "level": 6, "strain": "NT", "double": "double", "tricks": 12},
        ],
        "Ann wins",
    ),
    # X1 (1-0), X2 (0-2), X3 (3-0): Ann 4, Bob 2, target 3 -> Ann wins.
    "sixtysix": (
        NAMES2,
        {"target": 3},
        [
            {"end": "out", "player": 0, "points": [71, 38], "opponent_took_trick": True},
            {"end": "out", "player": 1, "points": [25, 66], "opponent_took_trick": True},
            {"end": "out", "player": 0, "points": [82, 0], "opponent_took_trick": False},
        ],
        "Ann wins",
    ),
    # O5: 7 players, totals 65, 53, 74, 74, 72, 60, 64 -> seats 2 and 3 share the win.
    "ohhell": (
        NAMES7,
        {},
        [
            {"bids": [0, 0, 0, 0, 0, 0, 1], "tricks": [0, 0, 0, 0, 0, 0, 1]},
            {"bids": [1, 0, 0, 0, 0, 0, 0], "tricks": [1, 1, 0, 0, 0, 0, 0]},
            {"bids": [0, 1, 0, 1, 0, 0, 0], "tricks": [0, 1, 0, 1, 0, 1, 0]},
            {"bids": [1, 1, 1, 0, 0, 0, 0], "tricks": [1, 1, 1, 0, 0, 0, 1]},
            {"bids": [2, 0, 1, 1, 0, 0, 1], "tricks": [2, 0, 1, 1, 0, 0, 1]},
            {"bids": [1, 1, 1, 1, 1, 0, 1], "tricks": [1, 1, 1, 1, 1, 0, 1]},
            {"bids": [2, 1, 1, 1, 1, 0, 1], "tricks": [1, 2, 1, 1, 1, 0, 1]},
        ],
        "Cat and Dan share the win",
    ),
}

# A match in progress: (names, options, hands played, the next hand's bidding).
IN_PROGRESS = {
    "spades": (NAMES2, {"target": 200}, [{"bids": [7, 4], "tricks": [8, 5]}], {"bids": [3, 6]}),
    "drawbridge": (
        NAMES2,
        {"target": 200},
        [{"declarer": 0, "level": 3, "strain": "NT", "tricks": 9}],
        {"declarer": 1, "level": 4, "strain": "S", "double": "double"},
    ),
    "sixtysix": (
        NAMES2,
        {"target": 7},
        [{"end": "out", "player": 0, "points": [71, 38], "opponent_took_trick": True}],
        None,
    ),
    # Hook on: the first hand's bids total 0 of 1, the second's 1 of 2.
    "ohhell": (NAMES4, {"hook": True}, [{"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]}], {"bids": [1, 0, 0, 0]}),
}

# After play, to show the preview: (input name, value) pairs.
AFTER_PLAY = {
    "spades": [("tricks_0", "4")],  # bidding order Ann, Bob: Bob's tricks fill in as 9
    "drawbridge": [("tricks", "10")],
    "ohhell": [("tricks_2", "0"), ("tricks_3", "1"), ("tricks_0", "1")],
}


def expect_bids_in_play(page: Page) -> None:
    """The bids in force are on screen: in their box, or (a phone, three players or
    more) at the head of each player's tricks."""
    expect(page.locator("#entry .bids-in-play:visible, #entry .head-bid:visible").first).to_be_visible()


def open_screens(app: App, group: str):
    """Open each main screen of ``group`` in turn (building what it shows
    through the services) and yield (name, whether axe should check it).
    axe skips the new-match forms of Draw Bridge and Sixty-Six (the same
    kinds of fields as Spades')."""
    page = app.page
    if group == "pages":
        page.goto("/")
        expect(page.locator("#username")).to_be_visible()
        yield "setup", True
        user = app.make_organiser()
        page.goto("/login/")
        expect(page.locator("#id_username")).to_be_visible()
        yield "login", True
        app.log_in_fast(user)
        for game in GAMES:
            names, options, hands, _bidding = IN_PROGRESS[game]
            app.make_match(game, names, options, hands[:1], owner=user)
        names, options, hands, _heading = FINISHED["spades"]
        app.make_match("spades", names, options, hands, owner=user)
        page.goto("/")
        expect(page.get_by_role("heading", name="In progress")).to_be_visible()
        yield "home", True
        page.goto("/players/")
        expect(page.get_by_role("heading", name="Players", level=1)).to_be_visible()
        yield "players", True
        page.goto("/matches/new/")
        expect(page.locator("ul.choices")).to_be_visible()
        yield "new-match-games", True
        for game in GAMES:
            page.goto(f"/matches/new/?game={game}")
            expect(page.locator("#seat_0")).to_be_visible()
            yield f"new-match-{game}", game in ("spades", "ohhell")
        return
    if group == "tournament":
        yield from tournament_screens(app)
        return

    game = group
    user = app.make_organiser()
    app.log_in_fast(user)
    names, options, hands, bidding = IN_PROGRESS[game]
    match = app.make_match(game, names, options, hands, owner=user)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#entry-form")).to_be_visible()
    if game != "sixtysix":  # open "Already played? Enter the tricks too": the whole form
        page.locator("#entry details.more > summary").click()
        expect(page.locator("#entry details.more")).to_have_attribute("open", "")
    yield f"sheet-{game}-bidding", True
    if game != "sixtysix":
        bid(match, bidding)
        page.goto(f"/matches/{match.pk}/")
        expect_bids_in_play(page)
        for name, value in AFTER_PLAY[game]:
            app.step_to(name, value)
    else:
        app.pick("How did the deal end?", "Stock was closed")
        app.pick("Who claimed, closed or won the last trick?", "Bob")
        page.locator("#in-points_0").fill("40")
        page.locator("#in-points_1").fill("70")
        app.pick("Did the other player", "Yes")
        app.pick("Stock closed: had the other player taken a trick", "Yes")
    expect(page.locator("#preview .preview-list")).to_be_visible()
    yield f"sheet-{game}-in-play", True
    page.goto(f"/matches/{match.pk}/hands/1/edit/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(re.compile("Edit (hand|deal) 1"))
    yield f"edit-{game}", True
    names, options, hands, heading = FINISHED[game]
    finished = app.make_match(game, names, options, hands, owner=user)
    page.goto(f"/matches/{finished.pk}/")
    app.expect_winner(heading, len(hands))
    yield f"sheet-{game}-finished", True


def tournament_screens(app: App):
    """The organiser's and the room's tournament pages: a Swiss Spades event
    of 9 (one bye), round 1 played at one table, round 2 not yet proposed."""
    from scorekeeper.tournaments import services as tournaments

    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    page.goto("/tournaments/new/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    yield "tournament-new-games", True
    page.goto("/tournaments/new/?game=spades")
    expect(page.locator("form input[name=name]")).to_be_visible()
    yield "tournament-new-spades", True
    actor = Actor.organiser(user)
    t = tournaments.create_tournament(
        name="Club night",
        game="spades",
        format="swiss",
        options={"target": 200},
        rounds=3,
        confirm_hands=False,
        actor=actor,
    )
    tournaments.register_players(tournament_id=t.pk, text="\n".join(NAMES7 + ["Hal", "Ivy"]), actor=actor)
    rnd = tournaments.propose_round(tournament_id=t.pk, actor=actor)
    page.goto(f"/tournaments/{t.pk}/rounds/{rnd.pk}/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    yield "tournament-round-proposed", True
    tokens = tournaments.publish_round(round_id=rnd.pk, actor=actor)
    first_table = min(tokens)
    match_id = rnd.tables.get(pk=first_table).match_id
    play(app.match(match_id), {"bids": [4, 5], "tricks": [6, 7]}, actor=actor)
    rows, banner = page.locator("#standings-body tr"), page.locator(".table-banner")
    screens = [  # (name, address, what shows that it has loaded)
        ("list", "/tournaments/", lambda: expect(page.get_by_role("link", name="Club night")).to_be_visible()),
        ("dashboard", f"/tournaments/{t.pk}/", lambda: expect(page.locator("h1")).to_contain_text("Club night")),
        ("cards", f"/tournaments/{t.pk}/cards/", lambda: expect(page.locator("main")).to_contain_text("Table 1")),
        ("standings", f"/tournaments/{t.pk}/standings/", lambda: expect(rows).to_have_count(9)),
        ("standings-big", f"/tournaments/{t.pk}/standings/?big=1", lambda: expect(rows).to_have_count(9)),
        ("pairings", f"/tournaments/{t.pk}/pairings/", lambda: expect(page.locator("main")).to_contain_text("Table 1")),
        (
            "table-link",
            f"/l/{tokens[first_table][0]}/",
            lambda: expect(page.locator("h1")).to_have_text("Score this match on this device?"),
        ),
        ("table-sheet", f"/matches/{match_id}/", lambda: expect(banner).to_contain_text("Round 1")),
    ]
    for name, address, loaded in screens:
        page.goto(address)
        loaded()
        yield f"tournament-{name}", True
