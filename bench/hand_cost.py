"""What saving one hand costs the app, next to the benchmarks' baseline
view (one insert), in one process: no gunicorn, no load generator.

Run:  .venv/bin/python bench/hand_cost.py                  # CPU time
      .venv/bin/python bench/hand_cost.py --instructions   # instructions (valgrind)

On a fresh SQLite database in a temp folder (removed at the end), or on
DATABASE_URL if it names a PostgreSQL database you may fill (it is
migrated). The app runs as in production (bench/environment.py: DEBUG off,
bench/settings.py for the baseline view). 40 Spades tables, each with a
device that exchanged its scoring link; every request goes through Django's
WSGI handler as gunicorn would call it: an htmx POST of the next hand as
the page sends it (its bids and tricks, the hidden hand number, bidding
"none" and a one-time client_key; the device's grant cookie and the CSRF
header), answered "Hand N saved." with the next hand's form, the totals and
the new row; and the baseline POST /bench/baseline/. Prints the app's CPU
time per request of each kind and their ratio; hands and baseline requests
take turns in blocks, as this machine's speed drifts.

``--language`` chooses what translation costs: ``off`` (LANGUAGES=en: no
LocaleMiddleware, no lookups), ``en`` (the default install, English, Urdu
and Sindhi offered; the device asks for English) or ``ur`` (the device asks
for Urdu, with every message of locale/ur translated: a stand-in catalogue,
each msgstr the English with an Urdu letter in front, made with gettext's
msgen and msgfilter into the temp folder, so every lookup finds a
translation however far the translators are).

``--instructions`` runs the same under valgrind's callgrind (about 60 times
slower) and prints instructions per request instead: the same count from
run to run, whatever else the machine does, so a change of a few percent
shows, where CPU time moves by more than that between runs.
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import secrets
import shutil
import subprocess
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

TABLES = 40
WARM_HANDS = 5  # per table, before measuring: matches of a realistic length, templates compiled
BLOCK = 50  # requests of one kind before the other kind's turn


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, help="of each kind; default 600 (CPU time) or 40 (--instructions)")
    p.add_argument("--instructions", action="store_true", help="count instructions under valgrind's callgrind")
    p.add_argument("--language", choices=("off", "en", "ur"), default="en", help="translation off, English, Urdu")
    p.add_argument("--under-callgrind", action="store_true", help=argparse.SUPPRESS)
    return p.parse_args()


def main() -> None:
    args = parse_args()
    if args.instructions:
        count_instructions(args.requests or 40, args.language)
        return
    workdir = tempfile.mkdtemp(prefix="scorekeeper-hand-cost-")
    try:
        measure(args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def measure(args: argparse.Namespace, workdir: str) -> None:
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.update(environment())
    os.environ["LANGUAGES"] = "en" if args.language == "off" else "en,ur,sd"
    os.environ["BENCH_LANGUAGE"] = args.language
    if args.language == "ur":
        os.environ["BENCH_LOCALE_PATH"] = full_catalogue(workdir)
    # No collectstatic here: whitenoise says so once, and no static file is asked for.
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    hand, baseline = requests(args.language)
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


def full_catalogue(workdir: str) -> str:
    """A folder with ur/LC_MESSAGES/django.mo where every message of
    locale/ur is translated (the English, with "ا " in front)."""
    out = Path(workdir) / "locale" / "ur" / "LC_MESSAGES"
    out.mkdir(parents=True)
    english = subprocess.run(
        ["msgen", str(ROOT / "locale" / "ur" / "LC_MESSAGES" / "django.po")], capture_output=True, check=True
    ).stdout
    filled = subprocess.run(
        ["msgfilter", "--keep-header", "sed", "-e", "s/^./ا &/"], input=english, capture_output=True, check=True
    ).stdout
    subprocess.run(["msgfmt", "-o", str(out / "django.mo"), "-"], input=filled, check=True)
    return str(Path(workdir) / "locale")


def requests(language: str = "en"):
    """(save the next hand at the next table, one baseline POST): callables
    that send one request each through the WSGI handler and check the answer."""
    from django.contrib.auth import get_user_model
    from django.core.handlers.wsgi import WSGIHandler
    from django.http import HttpResponse
    from django.test import RequestFactory

    from scorekeeper.access.links import GRANT_COOKIE, grant
    from scorekeeper.access.services import issue_link
    from scorekeeper.audit import Actor
    from scorekeeper.matches.forms import NO_BIDDING
    from scorekeeper.matches.services import start_match

    organiser = get_user_model().objects.create_user(f"bench-organiser-{uuid.uuid4().hex[:8]}")
    actor = Actor.organiser(organiser)
    tables = []
    for k in range(TABLES):
        match = start_match(
            game="spades", player_names=[f"North {k}", f"South {k}"], options={"target": 10**9}, actor=actor
        )
        link, _token = issue_link(match_id=match.pk, label=f"table {k + 1}", actor=actor)
        answer = HttpResponse()
        grant(RequestFactory().get("/"), answer, link)
        csrf = secrets.token_hex(16)  # a CSRF secret: the cookie and the header
        headers = {
            "HTTP_COOKIE": f"{GRANT_COOKIE}={answer.cookies[GRANT_COOKIE].value}; csrftoken={csrf}",
            "HTTP_X_CSRFTOKEN": csrf,
            "HTTP_HX_REQUEST": "true",
        }
        if language != "off":
            headers["HTTP_ACCEPT_LANGUAGE"] = f"{language},en;q=0.5"
        tables.append({"match": match.pk, "headers": headers, "next": 1})
    app = WSGIHandler()
    rng = random.Random(1)
    turn = iter(range(10**12))

    def hand() -> None:
        table = tables[next(turn) % TABLES]
        taken = rng.randint(0, 13)
        form = {"bids_0": rng.randint(1, 7), "bids_1": rng.randint(1, 7), "tricks_0": taken, "tricks_1": 13 - taken}
        # The hidden fields of the entry form: no bids were saved before, so none were in force.
        form.update(number=table["next"], bidding=NO_BIDDING, client_key=uuid.uuid4().hex)
        status, _headers, content = call_wsgi(
            app, "POST", f"/matches/{table['match']}/hands/", body=urlencode(form).encode(), headers=table["headers"]
        )
        if not status.startswith("200") or b"saved." not in content or b"already saved" in content:
            raise SystemExit(f"saving a hand answered {status}: {content[:300]!r}")
        if language == "ur" and "ا ".encode() not in content:
            raise SystemExit("the answer is not in the stand-in Urdu")
        table["next"] += 1

    def baseline() -> None:
        status, _headers, _content = call_wsgi(app, "POST", "/bench/baseline/")
        if not status.startswith("204"):
            raise SystemExit(f"the baseline answered {status}")

    return hand, baseline


def count_instructions(count: int, language: str) -> None:
    os.environ["BENCH_LANGUAGE"] = language  # for the report
    with tempfile.TemporaryDirectory(prefix="scorekeeper-callgrind-") as out:
        command = [
            "valgrind", "--tool=callgrind", "--zero-before=os_getppid*", "--dump-before=os_getpgrp*",
            f"--callgrind-out-file={out}/callgrind.out", sys.executable, __file__,
            "--under-callgrind", "--requests", str(count), "--language", language,
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
    language = os.environ.get("BENCH_LANGUAGE", "en")
    print(f"{count} requests of each kind, {engine}, {unit} per request, translation: {language}")
    print(f"  save a hand (htmx)     {hand:8.2f}")
    print(f"  baseline (one insert)  {baseline:8.2f}")
    print(f"  a saved hand costs the app {hand / baseline:.1f} baseline requests (the database server's work aside)")


if __name__ == "__main__":
    main()
