"""A dropped connection never loses an entry: what is saved without a
connection is kept on the phone, shown as not yet sent, survives a reload,
and is sent by itself, once, when the connection is back. A replay that
another device overtook shows both versions and lets the table choose.

The same over plain http at a club address (no service worker there): the
queue works from the page itself."""

from __future__ import annotations

import re

import pytest
from django.http import HttpResponse
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scorekeeper.models import AuditEvent, Match

from ..conftest import play
from .conftest import CHROMIUM, CHROMIUM_ARGS, NAMES2, SIZES, App

pytestmark = pytest.mark.e2e

WAITING = "Saved on this phone — will be sent when the connection is back."
AS_OF = re.compile(r"No connection — this is the sheet as of \d\d:\d\d\.")


class Network:
    """No connection. Chromium's offline emulation (and even aborting the
    request in Playwright's route) now and then lets a request reach the
    server all the same while telling the page it failed (seen here, most
    often for a request made just as the page reloads). So while "offline"
    the server also answers every request with 503, as a proxy with no way
    through would: what leaks changes nothing, and the phone tries again."""

    def __init__(self, context, monkeypatch):
        from django.core.handlers.base import BaseHandler

        self.context = context
        self.cut = False
        real = BaseHandler.get_response

        def get_response(handler, request):
            return HttpResponse("No way through (test)", status=503) if self.cut else real(handler, request)

        monkeypatch.setattr(BaseHandler, "get_response", get_response)

    def set_offline(self, offline: bool) -> None:
        # The page hears "offline" once no way is left, and "online" once every
        # way is open again: the queue sends at once on "online", and a send
        # the route still aborted would wait for the next try (4 s).
        if offline:
            self.cut = True
            self.context.route("**/*", lambda route: route.abort("internetdisconnected"))
            self.context.set_offline(True)
        else:
            self.cut = False
            self.context.unroute("**/*")
            self.context.set_offline(False)


@pytest.fixture
def network(context, monkeypatch) -> Network:
    return Network(context, monkeypatch)


def look(app: App, shot, axe_check, name: str) -> None:
    """A screenshot and axe, light and dark."""
    for scheme in ("light", "dark"):
        app.page.emulate_media(color_scheme=scheme)
        label = name if scheme == "light" else f"{name}-dark"
        shot(label)
        assert axe_check(label) == [], label
    app.page.emulate_media(color_scheme="light")


def open_sheet(app: App, hands=()) -> int:
    user = app.make_organiser()
    app.log_in_fast(user)
    match = app.make_match("spades", NAMES2, {"target": 500}, hands=hands, owner=user)
    app.page.goto(f"/matches/{match.pk}/")
    expect(app.page.locator("#entry-form")).to_be_visible()
    return match.pk


def wait_for_worker(app: App) -> None:
    """The service worker runs and controls the sheet (and has kept a copy of it)."""
    app.page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    app.page.wait_for_function(
        "async () => !!(await (await caches.open('sk-sheets-v1')).match(location.origin + location.pathname))"
    )


def fill_hand(app: App, bids, tricks) -> None:
    """Bids and tricks tapped on the chips, the whole hand at once."""
    app.open_all_at_once()
    for seat in (0, 1):
        app.step_to(f"bids_{seat}", bids[seat])
    app.set_tricks({0: tricks[0], 1: tricks[1]})
    app.expect_values({"bids_0": bids[0], "bids_1": bids[1]})


def audit_count(match_id: int, action: str) -> int:
    return AuditEvent.objects.filter(match_id=match_id, action=action).count()


def queued_row(app: App):
    return app.page.locator("#history tr.queued, #history p.queued")


def test_bids_saved_offline_survive_a_reload_and_are_sent_once(app, network, shot, axe_check):
    page = app.page
    match_id = open_sheet(app)
    wait_for_worker(app)

    network.set_offline(True)
    app.step_to("bids_0", 4)
    app.step_to("bids_1", 5)
    app.press("Save bids")
    waiting = page.locator("#offline-queue")
    expect(waiting).to_contain_text(WAITING)
    expect(waiting).to_contain_text("Bids for hand 1: Bob bid 5 · Ann bid 4")  # in bidding order
    expect(queued_row(app)).to_contain_text("Not yet sent · Bids for hand 1: Bob bid 5 · Ann bid 4")
    expect(page.locator("#connection")).not_to_contain_text("nothing was saved")
    # The hand is in play as it would be online: the bids in large type, the tricks to enter.
    in_play = page.locator("#entry .offline-in-play")
    expect(in_play).to_contain_text("Hand 1 in play — the bids are kept on this phone, not yet sent")
    expect(in_play.locator(".big-bids li")).to_have_text(["Bob bid 5", "Ann bid 4"])
    expect(page.locator("#in-tricks_1")).to_be_visible()
    expect(page.locator("#in-bids_0")).to_be_hidden()
    # Nothing of the bidding is left to tap: no "Save bids", no "Already played?".
    expect(page.locator('#entry-form [data-write="bids"]')).to_be_hidden()
    expect(page.locator("#entry-form details.more > summary")).to_be_hidden()
    expect(page.locator('#entry-form [data-write="hand"]')).to_be_visible()
    assert Match.objects.get(pk=match_id).pending_bidding is None

    # A reload without a connection: the sheet as last seen, and the entry still waiting.
    page.reload()
    expect(page.locator(".offline-copy")).to_have_text(AS_OF)
    expect(page.locator("#totals")).to_be_visible()
    expect(waiting).to_contain_text(WAITING)
    expect(queued_row(app)).to_contain_text("Bids for hand 1")
    look(app, shot, axe_check, "offline-bids-waiting")

    network.set_offline(False)
    expect(page.locator("#offline-sent")).to_contain_text(
        "Sent from this phone: Bids saved. Play the hand, then enter the tricks."
    )
    expect(page.locator("#offline-queue")).to_have_count(0)
    expect(page.locator(".offline-copy")).to_have_count(0)  # the live sheet again
    expect(page.locator("#entry .bids-in-play")).to_contain_text("Ann 4")
    expect(queued_row(app)).to_have_count(0)
    page.wait_for_timeout(1500)  # a second send, had one gone out, would be in by now
    assert Match.objects.get(pk=match_id).pending_bidding == {"bids": [4, 5]}
    assert audit_count(match_id, "bids saved") == 1


def test_a_whole_hand_saved_offline_is_stored_exactly_once(app, network, shot, axe_check):
    page = app.page
    match_id = open_sheet(app)
    wait_for_worker(app)

    network.set_offline(True)
    # Ann 4/7: 40 + 3 = 43; Bob 5/6: 50 + 1 = 51.
    fill_hand(app, (4, 5), (7, 6))
    app.press("Save hand 1")
    expect(page.locator("#offline-queue")).to_contain_text(WAITING)
    expect(page.locator("#offline-queue")).to_contain_text("Hand 1: Bob bid 5 · Ann bid 4 · Bob took 6 · Ann took 7")
    expect(page.locator("#entry-form")).to_be_hidden()
    expect(page.locator("#entry")).to_contain_text("Hand 1 is kept on this phone.")
    look(app, shot, axe_check, "offline-hand-waiting")

    page.reload()
    expect(page.locator(".offline-copy")).to_have_text(AS_OF)
    expect(queued_row(app)).to_contain_text("Not yet sent · Hand 1: Bob bid 5 · Ann bid 4 · Bob took 6 · Ann took 7")
    assert app.hand_count(match_id) == 0

    network.set_offline(False)
    expect(page.locator("#offline-sent")).to_contain_text("Sent from this phone: Hand 1 saved.")
    app.expect_totals({"Ann": 43, "Bob": 51})
    app.expect_history_rows(1)
    expect(page.locator("#entry .next-hand h2")).to_have_text("Hand 2")
    page.wait_for_timeout(1500)
    assert app.hand_count(match_id) == 1
    assert audit_count(match_id, "hand recorded") == 1


def test_a_hand_saved_offline_on_a_sheet_that_stays_open_is_sent_when_back(app, network):
    page = app.page
    match_id = open_sheet(app)
    network.set_offline(True)
    fill_hand(app, (4, 5), (7, 6))
    app.press("Save hand 1")
    expect(page.locator("#offline-queue")).to_contain_text(WAITING)
    network.set_offline(False)
    app.expect_notice("Hand 1 saved.")
    expect(page.locator("#offline-sent")).to_contain_text("Sent from this phone: Hand 1 saved.")
    expect(page.locator("#offline-queue")).to_have_count(0)
    app.expect_totals({"Ann": 43, "Bob": 51})
    page.wait_for_timeout(1500)
    assert app.hand_count(match_id) == 1


def test_an_edit_saved_offline_is_sent_once(app, network):
    page = app.page
    match_id = open_sheet(app, hands=[{"bids": [4, 5], "tricks": [7, 6]}])
    wait_for_worker(app)
    page.goto(f"/matches/{match_id}/hands/1/edit/")
    network.set_offline(True)
    # Ann 3/3: 30; Bob 6/10: 60 + 4 = 64.
    app.step_to("bids_0", 3)
    app.step_to("bids_1", 6)
    app.set_tricks({0: 3, 1: 10})
    app.press("Save hand 1")
    expect(page.locator("main")).to_contain_text(WAITING)
    # Back to the sheet without a connection: the copy, with the change waiting.
    page.get_by_role("link", name="Back to the sheet").click()
    expect(page.locator(".offline-copy")).to_have_text(AS_OF)
    expect(queued_row(app)).to_contain_text(
        "Not yet sent · Change to hand 1: Bob bid 6 · Ann bid 3 · Bob took 10 · Ann took 3"
    )
    assert audit_count(match_id, "hand edited") == 0

    network.set_offline(False)
    expect(page.locator("#offline-sent, .messages")).to_contain_text(["Hand 1 changed"])
    app.expect_totals({"Ann": 30, "Bob": 64})
    page.wait_for_timeout(1500)
    assert audit_count(match_id, "hand edited") == 1
    assert app.match(match_id).hands.get(number=1).entry == {"bids": [3, 6], "tricks": [3, 10]}


def test_an_undo_saved_offline_is_sent_once(app, network):
    page = app.page
    match_id = open_sheet(app, hands=[{"bids": [4, 5], "tricks": [7, 6]}, {"bids": [3, 6], "tricks": [3, 10]}])
    page.goto(f"/matches/{match_id}/undo/")
    network.set_offline(True)
    app.press("Yes, remove hand 2")
    expect(page.locator("main")).to_contain_text(WAITING)
    expect(page.locator("#offline-queue")).to_contain_text("Undo of hand 2")
    expect(page.get_by_role("button", name="Yes, remove hand 2")).to_be_disabled()  # kept once
    assert app.hand_count(match_id) == 2

    network.set_offline(False)
    expect(page.locator("#offline-sent")).to_contain_text("Sent from this phone: Hand 2 removed.")
    expect(page.locator("#offline-queue")).to_have_count(0)
    page.goto(f"/matches/{match_id}/")
    expect(page.locator(".messages")).to_contain_text("Hand 2 removed.")
    app.expect_totals({"Ann": 43, "Bob": 51})
    assert app.hand_count(match_id) == 1
    assert audit_count(match_id, "hand undone") == 1


def test_a_replay_that_another_device_overtook_shows_both_versions(app, network, shot, axe_check):
    page = app.page
    match_id = open_sheet(app)
    network.set_offline(True)
    fill_hand(app, (4, 5), (7, 6))
    app.press("Save hand 1")
    expect(page.locator("#offline-queue")).to_contain_text(WAITING)
    # Meanwhile another phone at the table saves hand 1 differently: Ann 3/3 30, Bob 6/10 64.
    play(app.match(match_id), {"bids": [3, 6], "tricks": [3, 10]})

    network.set_offline(False)
    panel = page.locator(".offline-refused")
    expect(panel).to_contain_text("Hand 1 was not saved")
    expect(panel).to_contain_text("Hand 1 was already saved from another device")
    expect(panel).to_contain_text("This phone had: Bob bid 5 · Ann bid 4 · Bob took 6 · Ann took 7")
    expect(panel).to_contain_text("The server has: Hand 1: Ann bid 3, took 3 · Bob bid 6, took 10")
    # Fixing the hand comes first: the server has hand 1, so it is a change to it.
    expect(panel.locator(".actions > *").first).to_have_text("Fix this hand")
    app.expect_totals({"Ann": 30, "Bob": 64})
    look(app, shot, axe_check, "offline-refused")
    assert app.hand_count(match_id) == 1

    # It stays until the table chooses, through a reload too.
    page.reload()
    expect(panel).to_contain_text("This phone had: Bob bid 5 · Ann bid 4 · Bob took 6 · Ann took 7")
    app.tap(panel.get_by_role("button", name="Enter mine again as the next hand"))
    expect(panel).to_have_count(0)
    app.expect_values({"bids_0": 4, "bids_1": 5, "tricks_0": 7, "tricks_1": 6})
    app.press("Save hand 2")
    app.expect_notice("Hand 2 saved.")
    app.expect_totals({"Ann": 73, "Bob": 115})
    assert app.hand_count(match_id) == 2


def test_keep_the_servers_version(app, network):
    page = app.page
    match_id = open_sheet(app)
    network.set_offline(True)
    fill_hand(app, (4, 5), (7, 6))
    app.press("Save hand 1")
    expect(page.locator("#offline-queue")).to_contain_text(WAITING)
    play(app.match(match_id), {"bids": [3, 6], "tricks": [3, 10]})
    network.set_offline(False)
    panel = page.locator(".offline-refused")
    app.tap(panel.get_by_role("button", name="Keep the server's"))
    expect(panel).to_have_count(0)
    page.reload()
    expect(page.locator("#offline-queue")).to_have_count(0)
    assert app.hand_count(match_id) == 1


def test_a_stale_csrf_token_on_replay_is_renewed_not_reported(app, network, context):
    page = app.page
    match_id = open_sheet(app)
    network.set_offline(True)
    fill_hand(app, (4, 5), (7, 6))
    app.press("Save hand 1")
    expect(page.locator("#offline-queue")).to_contain_text(WAITING)
    # While the phone is away, its CSRF cookie is renewed (a new secret): the
    # token the page holds no longer matches, so the first replay gets a 403.
    host = re.sub(r"^https?://", "", app.url).split(":")[0]
    context.add_cookies([{"name": "csrftoken", "value": "A" * 32, "domain": host, "path": "/"}])
    statuses = []
    page.on("response", lambda r: statuses.append(r.status) if r.url.endswith("/hands/") else None)
    # Until the saving answer has been seen here (the sheet may show it first), the list is not complete.
    with page.expect_response(lambda r: r.url.endswith("/hands/") and r.ok):
        network.set_offline(False)
    expect(page.locator("#offline-sent")).to_contain_text("Sent from this phone: Hand 1 saved.")
    assert statuses == [403, 200]
    expect(page.locator(".offline-refused")).to_have_count(0)
    expect(page.locator("#connection")).to_be_hidden()
    app.expect_totals({"Ann": 43, "Bob": 51})
    assert app.hand_count(match_id) == 1


# ------------------------------------------------ plain http, a club address


@pytest.fixture
def club(playwright, live_server, settings, size, transactional_db, monkeypatch):
    """A phone on the club's network: http://club.test:PORT, which the
    browser does not count as a secure context (no service worker)."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "club.test"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP club.test 127.0.0.1"]
    )
    port = live_server.url.rsplit(":", 1)[1]
    url = f"http://club.test:{port}"
    context = browser.new_context(base_url=url, **SIZES[size])
    context.set_default_timeout(10_000)
    page = context.new_page()
    dev = App(page, live_server, touch=bool(SIZES[size].get("has_touch")))
    dev.url = url
    yield dev, Network(context, monkeypatch)
    context.close()
    browser.close()


def serious_axe_violations(page) -> list[str]:
    """axe on this page (the axe_check fixture checks the default page, not the club's)."""
    from axe_playwright_python.sync_playwright import Axe

    violations = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in violations if v["impact"] in ("serious", "critical")]


def test_over_plain_http_the_queue_works_from_the_page(club, screenshot_dir, size):
    app, network = club
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    match = app.make_match("spades", NAMES2, {"target": 500}, owner=user)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#entry-form")).to_be_visible()
    assert page.evaluate("() => window.isSecureContext") is False

    # The organiser is told once what works less well without HTTPS.
    note = page.locator(".https-note")
    expect(note).to_contain_text("This app is served without HTTPS")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(screenshot_dir / f"offline-https-note-{scheme}--{size}.png"), full_page=True)
        assert serious_axe_violations(page) == [], scheme
    page.emulate_media(color_scheme="light")
    app.tap(note.get_by_role("button", name="Got it, don't show this again"))
    expect(note).to_have_count(0)
    page.reload()
    expect(page.locator("#entry-form")).to_be_visible()
    expect(note).to_have_count(0)

    # Bids without a connection: kept, and sent by themselves when it is back.
    network.set_offline(True)
    app.step_to("bids_0", 4)
    app.step_to("bids_1", 5)
    app.press("Save bids")
    expect(page.locator("#offline-queue")).to_contain_text(WAITING)
    page.wait_for_timeout(500)
    assert Match.objects.get(pk=match.pk).pending_bidding is None
    network.set_offline(False)
    expect(page.locator("#offline-sent")).to_contain_text("Sent from this phone: Bids saved.")
    expect(page.locator("#entry .bids-in-play")).to_contain_text("Ann 4")
    expect(page.locator("#offline-queue")).to_have_count(0)
    assert Match.objects.get(pk=match.pk).pending_bidding == {"bids": [4, 5]}

    # The hand without a connection, and a reload: no sheet without a service
    # worker, but the entry is kept and sent on the next page load.
    network.set_offline(True)
    app.set_tricks({0: 7, 1: 6})
    app.press("Save hand 1")
    expect(page.locator("#offline-queue")).to_contain_text(WAITING)
    expect(queued_row(app)).to_contain_text("Not yet sent · Hand 1")
    assert app.hand_count(match.pk) == 0
    with pytest.raises(PlaywrightError):
        page.reload()
    expect(page.locator("#totals")).to_have_count(0)  # the browser's own error page
    assert app.hand_count(match.pk) == 0
    network.set_offline(False)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#offline-sent")).to_contain_text("Sent from this phone: Hand 1 saved.")
    app.expect_totals({"Ann": 43, "Bob": 51})
    page.wait_for_timeout(1500)
    assert app.hand_count(match.pk) == 1
    assert audit_count(match.pk, "hand recorded") == 1
    assert audit_count(match.pk, "bids saved") == 1


def test_over_plain_http_a_page_left_while_sending_does_not_hold_up_the_next(club):
    """Without Web Locks (plain http) a page takes a lease in localStorage
    while it tries to send. A page left in the middle of a try (reloaded)
    gives the lease back: the next page sends at once, not after the lease
    has run out."""
    app, network = club
    page = app.page
    user = app.make_organiser()
    app.log_in_fast(user)
    match = app.make_match("spades", NAMES2, {"target": 500}, owner=user)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#entry-form")).to_be_visible()
    # A try that never ends (the phone's storage slow to answer) is under way as the page is reloaded.
    page.evaluate("() => { window.SkOffline.all = () => new Promise(() => {}); window.SkOffline.flush(); }")
    assert page.evaluate("() => localStorage.getItem('sk-offline-lease')") is not None
    page.reload()
    expect(page.locator("#entry-form")).to_be_visible()

    network.set_offline(True)
    app.step_to("bids_0", 4)
    app.step_to("bids_1", 5)
    app.press("Save bids")
    expect(page.locator("#offline-queue")).to_contain_text(WAITING)
    network.set_offline(False)
    # Within the usual 10 s, well inside the 20 s a lease left behind would hold everything up.
    expect(page.locator("#offline-sent")).to_contain_text("Sent from this phone: Bids saved.")
    assert Match.objects.get(pk=match.pk).pending_bidding == {"bids": [4, 5]}
