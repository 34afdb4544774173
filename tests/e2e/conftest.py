"""End-to-end tests in a real browser (Debian's Chromium through Playwright)
against pytest-django's live server.

Every test runs twice: at phone size (390x844, touch) and at tablet size
(1024x768), through the parametrized ``size`` fixture that the ``context``
fixture below uses.

The live server answers from another thread, so the tests need
``transactional_db`` (requested by the ``app`` fixture). Playwright's sync API
runs an event loop in this thread, which makes Django refuse ORM calls from
the test unless DJANGO_ALLOW_ASYNC_UNSAFE is set.

Expected scores are worked out by hand from /work/shared/RULES.md and written
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
MINUS = "\u2212"  # the app shows negative hand points with a real minus sign

expect.set_options(timeout=10_000)


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
        return [
            line
            for v, line in zip(violations, lines, strict=True)
            if v["impact"] in ("serious", "critical")
        ]

    return _check


# --------------------------------------------------------------- the app


class App:
    """The test's handle on the live server, the database and the browser."""

    def __init__(self, page: Page, live_server, touch: bool):
        self.page = page
        self.url = live_server.url
        self.touch = touch

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
        page.goto("/")
        page.get_by_role("link", name="New match").click()
        expect(page.get_by_role("heading", name="New match")).to_be_visible()
        page.locator("ul.choices").get_by_role("link", name=re.compile("^" + re.escape(game_name))).click()
        expect(page.locator("form")).to_contain_text(game_name)
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
        """A match built through the services, as the app builds it."""
        from scorekeeper import services

        actor = services.Actor(label=f"organiser {owner.get_username()}", user=owner) if owner else services.SYSTEM
        match = services.start_match(game=game, player_names=list(names), options=options or {}, actor=actor)
        for entry in hands:
            services.record_hand(match_id=match.pk, entry=entry, actor=actor)
        if pending is not None:
            services.save_bidding(match_id=match.pk, bidding=pending, expected_number=len(hands) + 1, actor=actor)
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
        if self.touch:
            locator.tap()
        else:
            locator.click()

    def step_to(self, input_name: str, value, *, scope=None) -> None:
        """Set the stepper <select id="in-<input_name>"> to ``value`` with its − / + buttons."""
        root = scope or self.page
        select = root.locator(f"#in-{input_name}")
        values = select.locator("option").evaluate_all("os => os.map(o => o.value)")
        target = values.index(str(value))
        plus = root.locator(f'button[aria-controls="in-{input_name}"][data-step="1"]')
        minus = root.locator(f'button[aria-controls="in-{input_name}"][data-step="-1"]')
        for _ in range(len(values) + 2):
            current = select.evaluate("s => s.selectedIndex")
            if current == target:
                break
            self.tap(plus if current < target else minus)
        expect(select).to_have_value(str(value))

    def pick(self, legend: str, text: str, *, scope=None) -> None:
        """Tap the visible segmented button with this text under the legend."""
        root = scope or self.page
        group = root.locator("fieldset.segmented:visible").filter(
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
        bar = self.page.locator("#totals")
        for name, total in expected.items():
            row = bar.locator("li").filter(has=self.page.locator(".total-name", has_text=re.compile(f"^{name}$")))
            expect(row.locator(".total-score"), f"total of {name}").to_have_text(str(total))

    def expect_notice(self, text: str) -> None:
        expect(self.page.locator("#entry .banner-success")).to_contain_text(text)

    def expect_preview(self, lines: dict[str, str]) -> None:
        """Each player's points in the preview, e.g. {"Ann": "+43", "Bob": "−100"}."""
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
        expect(banner.get_by_role("heading", level=2)).to_have_text(re.compile(r"^\s*" + re.escape(heading) + r"\s*$"))
        expect(banner).to_contain_text(f"after {hands} hands")
        expect(self.page.locator("#entry-form")).to_have_count(0)

    def visible_errors(self) -> list[str]:
        found = self.page.locator(".banner-error:visible, .field-error:visible")
        return [t.strip() for t in found.all_inner_texts() if t.strip()]


@pytest.fixture
def app(page: Page, live_server, transactional_db, touch) -> App:
    return App(page, live_server, touch)


def signed(points: int) -> str:
    """How the app writes a hand's points: +41, 0, −100 (real minus sign)."""
    return f"+{points}" if points > 0 else str(points).replace("-", MINUS)
