"""The 500-table event for Locust, run headless by bench/load.py (which
builds the event and sets the environment below; see its docstring).

User classes:
  TableDevice     a table's phone: opens its sheet, polls "changed?" every
                  3 s with If-None-Match of the tag it shows (and the
                  basis of its entry panel, as the page does); the first
                  device of each table also submits the table's hands.
  Spectator       a screen on the public standings: loads the page, then
                  polls it every 5 s (htmx, If-None-Match of the last ETag).
  CapacityClient  saves hands as fast as it can, going round all the tables,
                  taking turns with the baseline view (POST /bench/baseline/).

A run waits until every user has opened its page (not timed), starts the
clock, stops acting at its end, waits for answers still on their way and
quits. Every acknowledged hand goes to OUT/acked-<pid>.txt ("match number
client_key"), the run's own counts to OUT/counts-<pid>.json.

Environment: BENCH_EVENT (bench/event.py's JSON), BENCH_OUT (folder),
BENCH_HOSTS (base URLs, comma-separated: each user sticks to one),
BENCH_SECONDS, BENCH_ROUND_EVERY, BENCH_BURST_SPREAD, BENCH_EXTRA_EVERY,
BENCH_SPECTATORS, BENCH_CLIENTS, BENCH_TURNS, BENCH_TURN_SECONDS, BENCH_SEED.
"""

from __future__ import annotations

import html
import itertools
import json
import os
import random
import re
import time
import uuid
from collections import Counter, deque
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import gevent
from gevent.event import Event
from gevent.lock import Semaphore
from locust import FastHttpUser, constant, events, task
from locust.stats import CSV_STATS_INTERVAL_SEC


def env(name: str, default: float) -> float:
    return float(os.environ.get(f"BENCH_{name}", default))


EVENT = json.loads(Path(os.environ["BENCH_EVENT"]).read_text()) if os.environ.get("BENCH_EVENT") else {"tables": []}
OUT = Path(os.environ.get("BENCH_OUT", "."))
HOSTS = [h for h in os.environ.get("BENCH_HOSTS", "").split(",") if h]
SECONDS = env("SECONDS", 60)
ROUND_EVERY = env("ROUND_EVERY", 30)  # a round ends every 30 s...
BURST_SPREAD = env("BURST_SPREAD", 20)  # ...and every table submits its next hand within 20 s of it
EXTRA_EVERY = env("EXTRA_EVERY", 30)  # plus a hand now and then (mean s between a table's extra hands; 0: none)
FIRST_ROUND_END = 5.0
RESEND_SHARE = 0.05  # hands sent again with the same client_key, as after a lost answer
TIMEOUT = 10.0
RETRIES = 2  # a hand without an answer is sent again (same client_key) this often
DEVICE_POLL_EVERY = 3.0  # hx-trigger="every 3s" in templates/matches/live_poll.html
SPECTATOR_EVERY = 5.0
TURNS = int(env("TURNS", 4))
TURN_SECONDS = env("TURN_SECONDS", 5)
SEED = int(env("SEED", 1))

NUMBER_RE = re.compile(r'name="number" value="(\d+)"')
BIDDING_RE = re.compile(r'name="bidding" value="([^"]*)"')
# The poll's tag as the page holds it: "<version>[/<round clock>]-<language>" (matches/views/sheet.py).
TAG_RE = re.compile(r'If-None-Match": "\\"([^\\"]+)\\""')
BASIS_RE = re.compile(r'/changed/\?basis=(\w+)&amp;rows=(\d+)"')  # what the panel was drawn from, the hands shown
CSRF_RE = re.compile(r'"x-csrftoken": "([^"]+)"')
SAVED_RE = re.compile(r"Hand (\d+) (saved|was already saved)\.")

TABLES = EVENT["tables"]
DEVICES = [(t, table["grants"][0]) for t, table in enumerate(TABLES)]  # (table, grant cookie)
DEVICES += [(t, table["grants"][1]) for t, table in enumerate(TABLES) if len(table["grants"]) > 1]

COUNTS: Counter = Counter()
CLOCK = {"start": 0.0, "end": 0.0}
STARTED = Event()
READY = Counter()
IN_FLIGHT = Counter()
OPENING = Semaphore(8)  # pages opened at once before the clock starts: a queue of them would time out
_acked = None


@dataclass
class Sheet:
    """What a device's open score sheet shows, and how it posts."""

    match: int
    cookie: str
    csrf: str = ""
    number: int = 1
    bidding: str = "none"
    tag: str = "0"
    basis: str = ""  # what the entry panel was drawn from: the poll sends it back
    uncertain: bool = False  # a hand went unanswered: the number shown may be behind

    def headers(self, **extra) -> dict:
        return {"Cookie": self.cookie, "HX-Request": "true", "x-csrftoken": self.csrf, **extra}

    def read(self, page: str) -> bool:
        """Take the hidden fields and the poll's tag from a page or an answer."""
        number, bidding, tag = NUMBER_RE.search(page), BIDDING_RE.search(page), TAG_RE.search(page)
        if tag:
            self.tag = tag.group(1)
        if basis := BASIS_RE.search(page):
            self.basis = f"{basis.group(1)}&rows={basis.group(2)}"
        if number and bidding:
            self.number, self.bidding, self.uncertain = int(number.group(1)), html.unescape(bidding.group(1)), False
        return bool(number)


def open_sheet(user: FastHttpUser, sheet: Sheet, name: str) -> None:
    """GET the sheet as a browser does: the page, its hidden fields, the CSRF
    cookie it sets and the token the page's htmx sends (x-csrftoken)."""
    grant = sheet.cookie.split(";")[0]
    with user.client.get(f"/matches/{sheet.match}/", headers={"Cookie": grant}, name=name, catch_response=True) as r:
        page = r.text if r.status_code == 200 else ""
        cookie = {c.name: c.value for c in user.client.cookiejar}.get("csrftoken")
        token = CSRF_RE.search(page)
        if not sheet.read(page) or not cookie or not token:
            r.failure(f"no entry form on the sheet (HTTP {r.status_code})")
            return
        sheet.cookie, sheet.csrf = f"{grant}; csrftoken={cookie}", token.group(1)


def save_hand(user: FastHttpUser, sheet: Sheet, rng: random.Random, name: str) -> bool:
    """Post the next hand as the page does. No answer: the same form again
    (same client_key), a few times. 409 (the page was out of date): read
    the sheet and go on. Now and then the answer is "lost" and the form is
    sent again: it must be answered "already saved"."""
    taken = rng.randint(0, 13)
    form = {
        "bids_0": rng.randint(1, 7),
        "bids_1": rng.randint(1, 7),
        "tricks_0": taken,
        "tricks_1": 13 - taken,
        "number": sheet.number,
        "bidding": sheet.bidding,
        "client_key": uuid.uuid4().hex,
    }
    outcome = post(user, sheet, form, name)
    for _ in range(RETRIES):
        if outcome != "no answer":
            break
        gevent.sleep(0.5)
        outcome = post(user, sheet, form, f"{name} (retry)")
    if outcome == "no answer":
        COUNTS["given up"] += 1
        sheet.uncertain = True
        open_sheet(user, sheet, "re-read the sheet after no answer")
    elif outcome == "conflict":
        open_sheet(user, sheet, "re-read the sheet after a 409")
    elif outcome == "ok" and name == "save a hand" and rng.random() < RESEND_SHARE:
        post(user, sheet, form, f"{name} (resent)")
    return outcome == "ok"


def post(user: FastHttpUser, sheet: Sheet, form: dict, label: str) -> str:
    body = urlencode(form)
    headers = sheet.headers(**{"Content-Type": "application/x-www-form-urlencoded"})
    with user.client.post(
        f"/matches/{sheet.match}/hands/", data=body, headers=headers, name=label, catch_response=True
    ) as r:
        if r.status_code == 0:
            return "no answer"  # a timeout or a broken connection: a failure already
        if r.status_code == 409:
            COUNTS["409"] += 1
            if not sheet.uncertain:
                r.failure("409 from a page that was up to date")
            return "conflict"
        saved = SAVED_RE.search(r.text or "")
        if r.status_code != 200 or not saved:
            r.failure(f"HTTP {r.status_code} without 'saved'")
            return "refused"
        again = saved.group(2) != "saved"
        COUNTS[f"{label}: {'already saved' if again else 'saved'}"] += 1
        if label.endswith("(resent)") and not again:
            r.failure("a resent hand was saved again")
        _acked.write(f"{sheet.match} {saved.group(1)} {form['client_key']}\n")
        sheet.read(r.text)
        return "ok"


def sleep_until(at: float) -> None:
    gevent.sleep(max(0.0, at - time.time()))


@contextmanager
def acting():
    IN_FLIGHT["n"] += 1
    try:
        yield
    finally:
        IN_FLIGHT["n"] -= 1


def idle() -> None:
    while True:  # until the run quits
        gevent.sleep(60)


class Base(FastHttpUser):
    abstract = True
    wait_time = constant(0)
    network_timeout = connection_timeout = TIMEOUT
    ids: itertools.count

    def __init__(self, environment):
        self.index = next(self.ids)
        if HOSTS:  # each user sticks to one server
            self.host = HOSTS[self.index % len(HOSTS)]
        self.rng = random.Random(SEED * 100_003 + self.index)
        super().__init__(environment)

    def ready(self) -> None:
        READY["n"] += 1
        STARTED.wait()


class TableDevice(Base):
    fixed_count = len(DEVICES)
    ids = itertools.count()

    def on_start(self) -> None:
        table, grant = DEVICES[self.index]
        self.sheet = Sheet(TABLES[table]["match"], f"scoring_links={grant}")
        self.scores = self.index < len(TABLES)  # the first device of each table enters its hands
        with OPENING:
            open_sheet(self, self.sheet, "device: open the sheet")
        self.ready()

    def hand_times(self) -> list[float]:
        ends = itertools.takewhile(lambda t: t < SECONDS, itertools.count(FIRST_ROUND_END, ROUND_EVERY))
        times = [end + self.rng.uniform(0, BURST_SPREAD) for end in ends]
        t = self.rng.expovariate(1 / EXTRA_EVERY) if EXTRA_EVERY else SECONDS
        while t < SECONDS:
            times.append(t)
            t += self.rng.expovariate(1 / EXTRA_EVERY)
        return sorted(CLOCK["start"] + t for t in times if t < SECONDS) if self.scores else []

    @task
    def play(self) -> None:
        hands = deque(self.hand_times())
        next_poll = CLOCK["start"] + self.rng.uniform(0, DEVICE_POLL_EVERY)
        while True:
            at = min(hands[0] if hands else float("inf"), next_poll)
            if at >= CLOCK["end"]:
                idle()
            sleep_until(at)
            with acting():
                if hands and at == hands[0]:
                    hands.popleft()
                    COUNTS["offered"] += 1
                    save_hand(self, self.sheet, self.rng, "save a hand")
                else:
                    self.poll()
                    next_poll = max(next_poll + DEVICE_POLL_EVERY, time.time())

    def poll(self) -> None:
        headers = {"Cookie": self.sheet.cookie, "HX-Request": "true", "If-None-Match": f'"{self.sheet.tag}"'}
        with self.client.get(
            f"/matches/{self.sheet.match}/changed/?basis={self.sheet.basis}",
            headers=headers,
            name="device poll",
            catch_response=True,
        ) as r:
            if r.status_code == 200:  # another device changed this match: the sheet's parts, in place
                COUNTS["device poll: changed"] += 1
                self.sheet.read(r.text)
                self.sheet.tag = r.headers.get("ETag", '"0"').strip('"')
            elif r.status_code != 304:
                r.failure(f"HTTP {r.status_code}")


class Spectator(Base):
    fixed_count = int(env("SPECTATORS", 500)) if TABLES else 0
    ids = itertools.count()

    def on_start(self) -> None:
        with OPENING, self.client.get(EVENT["standings"], name="standings page", catch_response=True) as r:
            self.etag = r.headers.get("ETag", "") if r.status_code == 200 else ""
        self.ready()

    @task
    def watch(self) -> None:
        at = CLOCK["start"] + self.rng.uniform(0, SPECTATOR_EVERY)
        while at < CLOCK["end"]:
            sleep_until(at)
            with acting():
                headers = {"HX-Request": "true", "If-None-Match": self.etag}
                with self.client.get(EVENT["standings"], headers=headers, catch_response=True) as r:
                    r.request_meta["name"] = {200: "standings poll 200", 304: "standings poll 304"}.get(
                        r.status_code, "standings poll (other)"
                    )  # 200 and 304 apart
                    if r.status_code == 200:
                        self.etag = r.headers.get("ETag", "")
                    elif r.status_code != 304:
                        r.failure(f"HTTP {r.status_code}")
            at = max(at + SPECTATOR_EVERY, time.time())  # a late poll does not pile up
        idle()


FREE_TABLES: deque[Sheet] = deque()


class CapacityClient(Base):
    """Turns of TURN_SECONDS: baseline, hands, baseline, hands... TURNS of each."""

    fixed_count = int(env("CLIENTS", 64)) if TABLES else 0
    ids = itertools.count()

    def on_start(self) -> None:
        for table in TABLES[self.index :: self.fixed_count]:
            sheet = Sheet(table["match"], f"scoring_links={table['grants'][0]}")
            with OPENING:
                open_sheet(self, sheet, "capacity: open the sheet")
            FREE_TABLES.append(sheet)
        self.ready()

    @task
    def saturate(self) -> None:
        sleep_until(CLOCK["start"])
        while (now := time.time()) < CLOCK["end"]:
            turn = int((now - CLOCK["start"]) // TURN_SECONDS)
            with acting():
                if turn % 2 == 0:
                    with self.client.post(
                        "/bench/baseline/", name="capacity: baseline insert", catch_response=True
                    ) as r:
                        if r.status_code == 204:
                            COUNTS[f"turn {turn}"] += 1
                        else:
                            r.failure(f"HTTP {r.status_code}")
                elif not FREE_TABLES:  # fewer tables than clients (a smoke test)
                    gevent.sleep(0.01)
                else:
                    sheet = FREE_TABLES.popleft()  # the table that has waited longest
                    try:
                        if save_hand(self, sheet, self.rng, "capacity: save a hand"):
                            COUNTS[f"turn {turn}"] += 1
                    finally:
                        FREE_TABLES.append(sheet)
        idle()


@events.test_start.add_listener
def on_test_start(environment, **_kwargs) -> None:
    global _acked
    _acked = (OUT / f"acked-{os.getpid()}.txt").open("a", buffering=1)
    gevent.spawn(conduct, environment)


def conduct(environment) -> None:
    """Start the clock once every user has opened its page; quit when the
    run is over and the answers on their way are in."""
    expected = environment.parsed_options.num_users
    deadline = time.time() + 300
    while READY["n"] < expected and time.time() < deadline:
        gevent.sleep(0.2)
    COUNTS["ready users"] = READY["n"]
    capacity = any(c is CapacityClient for c in environment.user_classes)
    CLOCK["start"] = time.time() + 1
    CLOCK["end"] = CLOCK["start"] + (2 * TURNS * TURN_SECONDS if capacity else SECONDS)
    STARTED.set()
    sleep_until(CLOCK["end"])
    deadline = time.time() + (RETRIES + 1) * (TIMEOUT + 1) + 10
    while IN_FLIGHT["n"] and time.time() < deadline:
        gevent.sleep(0.1)
    COUNTS["still in flight at quit"] = IN_FLIGHT["n"]
    gevent.sleep(CSV_STATS_INTERVAL_SEC + 0.5)  # --csv is written every second: let it take the last answers
    COUNTS["seconds"] = CLOCK["end"] - CLOCK["start"]
    (OUT / f"counts-{os.getpid()}.json").write_text(json.dumps(COUNTS))
    _acked.close()
    environment.runner.quit()
