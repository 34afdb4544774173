"""What saving one hand costs the app, next to the load benchmark's baseline
view (one insert), in one process: no gunicorn, no load generator.

Run:  .venv/bin/python bench/hand_cost.py                  # CPU time
      .venv/bin/python bench/hand_cost.py --instructions   # instructions (valgrind)

On a fresh SQLite database in a temp folder, or on DATABASE_URL if it names
a PostgreSQL database you may fill (it is migrated). 40 Spades tables, each
with a device that exchanged its scoring link; every request goes through
Django's WSGI handler as gunicorn would call it: an htmx POST of the next
hand (the answer: the next hand's form, the totals, the new row) and the
baseline POST. Prints the app's CPU time per request of each kind and their
ratio; hands and baseline requests take turns in blocks, as this machine's
speed drifts.

``--instructions`` runs the same under valgrind's callgrind (about 60 times
slower) and prints instructions per request instead: the same count from
run to run, whatever else the machine does, so a change of a few percent
shows, where CPU time moves by more than that between runs.
"""

from __future__ import annotations

import argparse
import glob
import io
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.load import app_settings  # noqa: E402

TABLES = 40
WARM_HANDS = 5  # per table, before measuring: matches of a realistic length, templates compiled
BLOCK = 50  # requests of one kind before the other kind's turn


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, help="of each kind; default 600 (CPU time) or 40 (--instructions)")
    p.add_argument("--instructions", action="store_true", help="count instructions under valgrind's callgrind")
    p.add_argument("--under-callgrind", action="store_true", help=argparse.SUPPRESS)
    return p.parse_args()


def main() -> None:
    args = parse_args()
    if args.instructions:
        count_instructions(args.requests or 40)
        return
    workdir = tempfile.mkdtemp(prefix="scorekeeper-hand-cost-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.update(app_settings(), DJANGO_SETTINGS_MODULE="config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    hand, baseline = requests()
    for _ in range(TABLES * WARM_HANDS):
        hand()
    for _ in range(BLOCK):
        baseline()
    count = args.requests or 600
    if args.under_callgrind:  # callgrind zeroes its counts at os.getppid and dumps them at os.getpgrp
        for run in (hand, baseline):
            os.getppid()
            for _ in range(count):
                run()
            os.getpgrp()
        return
    spent = {hand: 0.0, baseline: 0.0}
    for _ in range(max(1, count // BLOCK)):
        for run in (hand, baseline):
            start = time.process_time()
            for _ in range(BLOCK):
                run()
            spent[run] += time.process_time() - start
    done = max(1, count // BLOCK) * BLOCK
    report("ms of CPU", spent[hand] * 1000 / done, spent[baseline] * 1000 / done, done)


def requests():
    """(save the next hand at the next table, one baseline POST): callables
    that send one request each through the WSGI handler and check the answer."""
    from django.contrib.auth import get_user_model
    from django.core.handlers.wsgi import WSGIHandler
    from django.http import HttpResponse
    from django.test import RequestFactory

    from scorekeeper import services
    from scorekeeper.access import GRANT_COOKIE, grant
    from scorekeeper.models import AccessLink

    organiser = get_user_model().objects.create_user(f"bench-organiser-{uuid.uuid4().hex[:8]}")
    actor = services.Actor(label="organiser", user=organiser)
    tables = []
    for k in range(TABLES):
        match = services.start_match(
            game="spades", player_names=[f"North {k}", f"South {k}"], options={"target": 10**9}, actor=actor
        )
        services.issue_link(match_id=match.pk, label=f"table {k + 1}", actor=actor)
        answer = HttpResponse()
        grant(RequestFactory().get("/"), answer, AccessLink.objects.get(match=match))
        csrf = secrets.token_hex(16)  # a CSRF secret: the cookie and the header
        cookies = f"{GRANT_COOKIE}={answer.cookies[GRANT_COOKIE].value}; csrftoken={csrf}"
        tables.append({"match": match.pk, "cookies": cookies, "csrf": csrf, "next": 1})
    app = WSGIHandler()
    rng = random.Random(1)
    turn = iter(range(10**12))

    def send(path: str, body: bytes, table: dict | None) -> tuple[str, bytes]:
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": path,
            "SCRIPT_NAME": "",
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "HTTP_HOST": "127.0.0.1",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "CONTENT_LENGTH": str(len(body)),
            "CONTENT_TYPE": "application/x-www-form-urlencoded",
        }
        if table:
            environ.update(HTTP_COOKIE=table["cookies"], HTTP_X_CSRFTOKEN=table["csrf"], HTTP_HX_REQUEST="true")
        status = []
        content = b"".join(app(environ, lambda s, _headers: status.append(s)))
        return status[0], content

    def hand() -> None:
        table = tables[next(turn) % TABLES]
        taken = rng.randint(0, 13)
        form = {"bids_0": rng.randint(1, 7), "bids_1": rng.randint(1, 7), "tricks_0": taken, "tricks_1": 13 - taken}
        form.update(number=table["next"], client_key=uuid.uuid4().hex)
        status, content = send(f"/matches/{table['match']}/hands/", urlencode(form).encode(), table)
        if not status.startswith("200") or b"saved." not in content:
            raise SystemExit(f"saving a hand answered {status}: {content[:300]!r}")
        table["next"] += 1

    def baseline() -> None:
        status, _content = send("/bench/baseline/", b"", None)
        if not status.startswith("204"):
            raise SystemExit(f"the baseline answered {status}")

    return hand, baseline


def count_instructions(count: int) -> None:
    with tempfile.TemporaryDirectory(prefix="scorekeeper-callgrind-") as out:
        command = [
            "valgrind", "--tool=callgrind", "--zero-before=os_getppid*", "--dump-before=os_getpgrp*",
            f"--callgrind-out-file={out}/callgrind.out", sys.executable, __file__,
            "--under-callgrind", "--requests", str(count),
        ]  # fmt: skip
        print(f"under callgrind, {count} requests of each kind (a few minutes)...", flush=True)
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode:
            raise SystemExit(f"valgrind failed ({run.returncode}): {run.stderr[-2000:]}")
        dumps = sorted(glob.glob(f"{out}/callgrind.out.*"), key=lambda f: int(f.rsplit(".", 1)[1]))
        totals = [summary(f) for f in dumps[:2]]
    report("million instructions", totals[0] / count / 1e6, totals[1] / count / 1e6, count)


def summary(path: str) -> int:
    with open(path) as f:
        for line in f:
            if line.startswith("summary:"):
                return int(line.split()[1])
    raise SystemExit(f"no summary in {path}")


def report(unit: str, hand: float, baseline: float, count: int) -> None:
    engine = os.environ.get("DATABASE_URL", "sqlite").split(":")[0]
    print(f"{count} requests of each kind, {engine}, {unit} per request:")
    print(f"  save a hand (htmx)     {hand:8.2f}")
    print(f"  baseline (one insert)  {baseline:8.2f}")
    print(f"  a saved hand costs the app {hand / baseline:.1f} baseline requests (the database server's work aside)")


if __name__ == "__main__":
    main()
