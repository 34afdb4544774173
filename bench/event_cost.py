"""What each kind of request of the 500-table event (bench/load.py) costs
the app, in one process, and what the event's mix adds up to: no gunicorn,
no load generator, so the figures hold however busy the machine is.

Run:  .venv/bin/python bench/event_cost.py              # 60 tables
      .venv/bin/python bench/event_cost.py --tables 500 # the event's size
      .venv/bin/python bench/event_cost.py --profile    # and where the time goes
      PROFILE_DIR=DIR ... --profile                     # each kind's profile kept in DIR

A fresh SQLite database in a temp folder (or DATABASE_URL if it names a
PostgreSQL database you may fill), the event built by bench/event.py (a
Swiss Spades tournament, round 1 published, every table's device holding its
link, a second device at one table in ten). Each request goes through
Django's WSGI handler as gunicorn would call it, as the locustfile sends it:

- save a hand: the table's first device posts the next hand (htmx);
- device poll, changed: the table's other device asks "changed?" with the
  version it shows, after that hand (200: the sheet's parts);
- device poll, unchanged: the same question again (304);
- a screen's standings poll, 304 with the tag it was last answered, 200
  with an older one (at the event's rate every screen's poll finds newer
  standings: the mix counts them all as 200);
- the baseline (one insert, POST /bench/baseline/).

Prints the CPU per request of each kind, and the cores the event's mix
needs at 500 tables (rates as in bench/locustfile.py: a hand a table every
~15 s, devices every 3 s, screens every 5 s).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import re
import secrets
import shutil
import sys
import tempfile
import time
import uuid
import warnings
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.environment import call_wsgi, environment  # noqa: E402

TAG_RE = re.compile(rb'If-None-Match": "\\"([^\\"]+)\\""')  # the poll's tag, as bench/locustfile.py reads it
BASIS_RE = re.compile(rb'/changed/\?basis=(\w+)&amp;rows=(\d+)"')  # what the panel was drawn from, the hands shown
# The event's rates at 500 tables (bench/locustfile.py): 34 hands a second
# offered, 550 devices polling every 3 s, 500 screens every 5 s.
HANDS_PER_S, DEVICES, DEVICE_EVERY, SCREENS, SCREEN_EVERY = 34.0, 550, 3.0, 500, 5.0


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=60)
    p.add_argument("--rounds", type=int, default=4, help="times round every table (default 4)")
    p.add_argument("--profile", action="store_true", help="print the top of a cProfile of each kind")
    return p.parse_args()


def main() -> None:
    args = parse_args()
    workdir = tempfile.mkdtemp(prefix="scorekeeper-event-cost-")
    try:
        measure(args, Path(workdir))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def measure(args: argparse.Namespace, workdir: Path) -> None:
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.update(environment())
    os.environ["CACHE_DIR"] = str(workdir / "cache")
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
    import django

    django.setup()
    from django.conf import settings

    settings.DEBUG_PROPAGATE_EXCEPTIONS = True  # a failing request says why
    # Pages name static files; without collectstatic, by their plain names.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.management import call_command
    from django.db import connection

    from bench.event import build
    from scorekeeper.matches.forms import NO_BIDDING

    call_command("migrate", verbosity=0)
    out = workdir / "event.json"
    build(out, args.tables, max(1, args.tables // 10))
    event = json.loads(out.read_text())
    app = WSGIHandler()
    rng = random.Random(1)
    csrf = secrets.token_hex(16)

    def headers(cookie: str, **extra) -> dict:
        return {"HTTP_COOKIE": f"scoring_links={cookie}; csrftoken={csrf}", "HTTP_X_CSRFTOKEN": csrf, **extra}

    sheets = []
    for table in event["tables"]:
        devices = []
        for grant in table["grants"]:
            status, _h, page = call_wsgi(app, "GET", f"/matches/{table['match']}/", headers=headers(grant))
            assert status.startswith("200"), (status, page[-3000:])
            devices.append(
                {
                    "grant": grant,
                    "version": TAG_RE.search(page).group(1).decode(),
                    "basis": "{}&rows={}".format(*(g.decode() for g in BASIS_RE.search(page).groups())),
                }
            )
        sheets.append({"match": table["match"], "devices": devices, "next": 1})
    two_device = [s for s in sheets if len(s["devices"]) > 1]

    def save(sheet) -> None:
        taken = rng.randint(0, 13)
        form = {"bids_0": rng.randint(1, 7), "bids_1": rng.randint(1, 7), "tricks_0": taken, "tricks_1": 13 - taken}
        form.update(number=sheet["next"], bidding=NO_BIDDING, client_key=uuid.uuid4().hex)
        device = sheet["devices"][0]
        status, answer_headers, content = call_wsgi(
            app, "POST", f"/matches/{sheet['match']}/hands/", body=urlencode(form).encode(),
            headers=headers(device["grant"], HTTP_HX_REQUEST="true"),
        )  # fmt: skip
        if not status.startswith("200") or b"saved." not in content:
            raise SystemExit(f"saving a hand answered {status}: {content[:300]!r}")
        read(device, content)  # the answer's entry panel carries the new version, as the page takes it
        sheet["next"] += 1

    def read(device, content: bytes) -> None:
        if version := TAG_RE.search(content):
            device["version"] = version.group(1).decode()
        if basis := BASIS_RE.search(content):
            device["basis"] = f"{basis.group(1).decode()}&rows={basis.group(2).decode()}"

    def poll(sheet, device, expect: str) -> None:
        status, answer_headers, content = call_wsgi(
            app, "GET", f"/matches/{sheet['match']}/changed/", query=f"basis={device['basis']}",
            headers=headers(device["grant"], HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=f'"{device["version"]}"'),
        )  # fmt: skip
        if not status.startswith(expect):
            raise SystemExit(f"the device poll answered {status}, not {expect}")
        if expect == "200":
            read(device, content)
            device["version"] = answer_headers["ETag"].strip('"')

    standings_etag = {"value": ""}

    def standings(expect: str) -> None:
        """A screen's poll: with the tag it was last answered (304), or with
        one from before the last hands (200: at the event's rate some table
        saves a hand every moment, so a screen polling every 5 s always
        finds a newer generation; bench/load.py counts no 304 at all)."""
        tag = standings_etag["value"] if expect == "304" else standings_etag["first"]
        status, answer_headers, _c = call_wsgi(
            app,
            "GET",
            event["standings"],
            headers={"HTTP_HX_REQUEST": "true", "HTTP_IF_NONE_MATCH": tag, "HTTP_ACCEPT_ENCODING": "gzip"},
        )
        if not status.startswith(expect):
            raise SystemExit(f"the standings poll answered {status}, not {expect}")
        standings_etag["value"] = answer_headers.get("ETag", standings_etag["value"])

    def baseline() -> None:
        status, _h, _c = call_wsgi(app, "POST", "/bench/baseline/")
        assert status.startswith("204"), status

    spent: dict[str, list[float]] = {}
    queries: dict[str, list[str]] = {}
    profiles: dict[str, cProfile.Profile] = {}

    def timed(kind: str, run, *a) -> None:
        profile = profiles.setdefault(kind, cProfile.Profile(time.process_time)) if args.profile else None
        sql = queries[kind] = []

        def count(execute, statement, params, many, context):
            sql.append(statement)
            return execute(statement, params, many, context)

        with connection.execute_wrapper(count):
            start = time.process_time()
            if profile:
                profile.enable()
            run(*a)
            if profile:
                profile.disable()
            spent.setdefault(kind, []).append(time.process_time() - start)

    save(sheets[0])  # templates compiled, caches warm
    poll(sheets[0], sheets[0]["devices"][-1], "200")
    standings_etag["first"] = '"0.0.0-0-en"'  # standings from before any hand: never the current ones
    for _ in range(args.rounds):
        for sheet in sheets:
            timed("save a hand", save, sheet)
            # The saving device's own poll: does its answer carry the new version?
            own = sheet["devices"][0]
            status, _h, _c = call_wsgi(
                app, "GET", f"/matches/{sheet['match']}/changed/", query=f"basis={own['basis']}",
                headers=headers(own["grant"], HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=f'"{own["version"]}"'),
            )  # fmt: skip
            if status.startswith("200"):
                timed("saving device's next poll (200)", poll, sheet, own, "200")
            timed("device poll, unchanged (304)", poll, sheet, own, "304")
            timed("baseline (one insert)", baseline)
            standings("200")  # the tag of the standings as they are now (the generation moves every few s)
            timed("standings poll, unchanged (304)", standings, "304")
            timed("standings poll, changed (200)", standings, "200")
        for sheet in two_device:
            timed("other device's poll, changed (200)", poll, sheet, sheet["devices"][1], "200")
    print(f"{connection.vendor}, {args.tables} tables, ms of CPU per request (median, mean; SQL statements):")
    medians = {}
    for kind, times in spent.items():
        times_ms = sorted(t * 1000 for t in times)
        medians[kind] = times_ms[len(times_ms) // 2]
        print(f"  {kind:40s} {medians[kind]:7.2f} {sum(times_ms) / len(times_ms):7.2f}  {len(queries[kind]):3d} SQL")
    own_200 = "saving device's next poll (200)" in medians
    polls_per_s = DEVICES / DEVICE_EVERY
    changed_per_s = HANDS_PER_S * (DEVICES / 500 - 1 + (1 if own_200 else 0))
    cores = {
        "saved hands": HANDS_PER_S * medians["save a hand"],
        "device polls 200": changed_per_s * medians["other device's poll, changed (200)"],
        "device polls 304": (polls_per_s - changed_per_s) * medians["device poll, unchanged (304)"],
        "standings polls 200": SCREENS / SCREEN_EVERY * medians["standings poll, changed (200)"],
    }
    print("the 500-table event's mix, cores of app CPU (ms per second / 1000):")
    for kind, ms in cores.items():
        print(f"  {kind:40s} {ms / 1000:6.2f}")
    print(f"  {'total':40s} {sum(cores.values()) / 1000:6.2f}")
    print(f"  a saved hand costs {medians['save a hand'] / medians['baseline (one insert)']:.1f} baseline requests")
    if os.environ.get("SHOW_SQL"):
        for statement in queries["save a hand"]:
            print("   ", statement[:160])
    if args.profile:
        for kind, profile in profiles.items():
            print(f"\n=== {kind}")
            if dump := os.environ.get("PROFILE_DIR"):  # for pstats or snakeviz
                profile.dump_stats(Path(dump) / (re.sub(r"\W+", "_", kind.split(" (")[0]) + ".prof"))
            pstats.Stats(profile).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(
                int(os.environ.get("TOP", 30))
            )


if __name__ == "__main__":
    main()
