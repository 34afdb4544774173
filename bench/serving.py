"""How the answers travel, in one process (so the figures hold on a busy
machine): the HTML answers with and without Django's GZipMiddleware, and
PostgreSQL's connection handling, Django's pool against persistent
connections with health checks.

Run:  .venv/bin/python bench/serving.py gzip [--tables 60]
      .venv/bin/python bench/serving.py pool      # needs PostgreSQL on 127.0.0.1 and psycopg_pool

``gzip``: a fresh SQLite database, the event of bench/event.py (a Swiss
Spades tournament, round 1 published, each table's device holding its
link), every request through Django's WSGI handler as gunicorn sends it,
once through the app as it is and once with GZipMiddleware taken out (the
same process, the same run): the size of each answer, the CPU it costs
(median), and the time a slow 3G phone takes to get it (400 kbit/s, 400 ms
round trip: one round trip for the request, then the bytes, TCP's slow
start from 10 segments of 1,460 bytes adding a round trip each time the
window doubles).

``pool``: a new PostgreSQL database (dropped at the end), the same event,
then child processes alternately in each mode, each sending the same
requests (a saved hand, the other device's changed poll, a standings poll,
a sheet), every request closed as a server closes it (request_finished:
the connection goes back to the pool, or stays open): ms of wall and CPU
per request, as medians of the children of each mode, and the ratio.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import secrets
import shutil
import statistics
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
from bench.environment import environment  # noqa: E402

RTT, KBIT = 0.400, 400  # slow 3G (Chrome's "Slow 3G" preset: 400 ms, 400 kbit/s)
SEGMENT, INITIAL_WINDOW = 1460, 10
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
RUNS = 15


def slow_3g_seconds(size: int) -> float:
    """A request and its answer of ``size`` bytes on a fresh connection's slow start."""
    rounds, window, sent = 1, INITIAL_WINDOW * SEGMENT, 0
    while sent + window < size:
        sent += window
        window *= 2
        rounds += 1
    return rounds * RTT + size * 8 / (KBIT * 1000)


def setup(workdir: Path, database_url: str | None, tables: int) -> dict:
    os.environ["DATABASE_URL"] = database_url or f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.update(environment())
    if os.environ.get("BENCH_SECRET_KEY"):  # one key for the children: the devices' cookies stay good
        os.environ["SECRET_KEY"] = os.environ["BENCH_SECRET_KEY"]
    os.environ["CACHE_DIR"] = str(workdir / "cache")
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
    import django

    django.setup()
    from django.conf import settings

    settings.DEBUG_PROPAGATE_EXCEPTIONS = True
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    out = workdir / "event.json"
    if not out.exists():
        from django.core.management import call_command

        from bench.event import build

        call_command("migrate", verbosity=0)
        build(out, tables, max(1, tables // 10))
    return json.loads(out.read_text())


class Client:
    """Requests as the event's devices and screens send them, through one WSGI app."""

    played: dict[int, int] = {}  # match -> hands saved, whichever client saved them

    def __init__(self, app, event: dict):
        self.app, self.event = app, event
        self.csrf = secrets.token_hex(16)
        self.rng = random.Random(1)

    def call(self, method: str, path: str, *, body: bytes = b"", query: str = "", **headers):
        environ = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "SCRIPT_NAME": "", "QUERY_STRING": query,
            "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1", "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "CONTENT_LENGTH": str(len(body)),
            "CONTENT_TYPE": "application/x-www-form-urlencoded", "HTTP_ACCEPT_ENCODING": "gzip, deflate, br", **headers,
        }  # fmt: skip
        answer = []
        response = self.app(environ, lambda status, pairs: answer.append((status, dict(pairs))))
        content = b"".join(response)
        response.close()  # request_finished, as a server does: the connection is put back or kept
        return answer[0][0], answer[0][1], content

    def device(self, grant: str, **extra) -> dict:
        return {"HTTP_COOKIE": f"scoring_links={grant}; csrftoken={self.csrf}", "HTTP_X_CSRFTOKEN": self.csrf, **extra}

    def sheet(self, table: dict, side: int = 0):
        return self.call("GET", f"/matches/{table['match']}/", **self.device(table["grants"][side]))

    def save(self, table: dict):
        from scorekeeper.matches.forms import NO_BIDDING

        taken = self.rng.randint(0, 13)
        number = self.played.get(table["match"], 0) + 1
        form = {"bids_0": self.rng.randint(1, 7), "bids_1": self.rng.randint(1, 7), "tricks_0": taken}
        form.update(tricks_1=13 - taken, number=number, bidding=NO_BIDDING, client_key=uuid.uuid4().hex)
        answer = self.call(
            "POST", f"/matches/{table['match']}/hands/", body=urlencode(form).encode(),
            **self.device(table["grants"][0], HTTP_HX_REQUEST="true"),
        )  # fmt: skip
        assert answer[0].startswith("200") and b"saved." in decoded(answer), answer[0]
        self.played[table["match"]] = number
        return answer

    def changed(self, table: dict, tag: str = "an-old-tag"):
        """The other device's poll after a hand: the sheet's parts (200), or 304 with the current tag."""
        side = len(table["grants"]) - 1
        return self.call(
            "GET", f"/matches/{table['match']}/changed/", query="basis=old",
            **self.device(table["grants"][side], HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=f'"{tag}"'),
        )  # fmt: skip

    def standings(self, etag: str = '"old"', htmx: bool = True):
        headers = {"HTTP_HX_REQUEST": "true", "HTTP_IF_NONE_MATCH": etag} if htmx else {}
        return self.call("GET", self.event["standings"], **headers)


def decoded(answer) -> bytes:
    import gzip

    _status, headers, content = answer
    return gzip.decompress(content) if headers.get("Content-Encoding") == "gzip" else content


def compressing(body: bytes) -> float:
    """ms of CPU to compress ``body`` as GZipMiddleware does (level 6, BREACH padding); 0: it would not."""
    from django.utils.text import compress_string

    if len(body) < 200 or body[:2] == b"\x1f\x8b":
        return 0.0
    times = []
    for _ in range(50):
        start = time.process_time()
        compress_string(body, max_random_bytes=100)
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def cpu_ms(request) -> tuple[float, tuple]:
    start = time.process_time()
    answer = request()
    return (time.process_time() - start) * 1000, answer


# ------------------------------------------------------------------- gzip


def gzip_figures(args) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-serving-"))
    try:
        event = setup(workdir, None, args.tables)
        from django.conf import settings
        from django.core.handlers.wsgi import WSGIHandler
        from django.test.utils import override_settings

        gzip = "django.middleware.gzip.GZipMiddleware"
        without = [m for m in settings.MIDDLEWARE if m != gzip]
        if gzip in settings.MIDDLEWARE:
            with_gzip = WSGIHandler()
        else:  # where it would go: after the polls' 304s, before anything that reads a request's body
            at = without.index("scorekeeper.polls.answer_unchanged_polls") + 1
            with override_settings(MIDDLEWARE=[*without[:at], gzip, *without[at:]]):
                with_gzip = WSGIHandler()
        with override_settings(MIDDLEWARE=without):
            plain = WSGIHandler()
        clients = {"gzip": Client(with_gzip, event), "plain": Client(plain, event)}
        tables = event["tables"]
        two = [t for t in tables if len(t["grants"]) > 1]
        kinds = {
            "the sheet (a device opens it)": lambda c, i: c.sheet(tables[i % len(tables)]),
            "save a hand (htmx answer)": lambda c, i: c.save(tables[i % len(tables)]),
            "the other device's poll after it (200)": lambda c, i: c.changed(two[i % len(two)]),
            "the standings page": lambda c, i: c.standings(htmx=False),
            "the standings poll (200, gzipped by the view)": lambda c, i: c.standings(),
        }
        for client in clients.values():  # templates compiled, caches warm
            for kind in kinds.values():
                kind(client, 0)
        rows = []
        for name, kind in kinds.items():
            samples = {mode: [] for mode in clients}
            sizes = {}
            for i in range(RUNS):
                order = list(clients.items())  # alternately, each first in turn: the machine's load falls on both
                for mode, client in order if i % 2 else order[::-1]:
                    ms, answer = cpu_ms(lambda client=client, i=i, kind=kind: kind(client, i + 1))
                    samples[mode].append(ms)
                    sizes[mode] = (len(answer[2]), answer[1].get("Content-Encoding", ""))
                    if mode == "plain":
                        body = answer[2]
            rows.append((name, sizes, {m: statistics.median(v) for m, v in samples.items()}, compressing(body)))
        print(
            f"GZipMiddleware on the HTML answers, SQLite, {args.tables} tables; medians of {RUNS} requests, "
            "alternately with and without it, this process's CPU"
        )
        print(f"slow 3G: {KBIT} kbit/s, {RTT * 1000:.0f} ms round trip, slow start from {INITIAL_WINDOW} segments")
        print(
            "CPU ms: the whole request, without and with GZipMiddleware (noisy on a busy machine); "
            "compress ms: compressing that answer alone, as GZipMiddleware does (median of 50)"
        )
        print(f"  {'answer':48} {'plain kB':>9} {'gzip kB':>8} {'ratio':>6} {'CPU ms':>7} {'gzip':>6} "
              f"{'compress':>8} {'3G s':>6} {'gzip':>6}")  # fmt: skip
        for name, sizes, ms, compress in rows:
            plain_size, gz_size = sizes["plain"][0], sizes["gzip"][0]
            print(
                f"  {name:48} {plain_size / 1024:9.1f} {gz_size / 1024:8.1f} {gz_size / plain_size:6.0%} "
                f"{ms['plain']:7.2f} {ms['gzip']:6.2f} {compress:8.3f} {slow_3g_seconds(plain_size):6.2f} "
                f"{slow_3g_seconds(gz_size):6.2f}"
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


# ------------------------------------------------------------------- pool


def pool_figures(args) -> None:
    import psycopg

    name = f"scorekeeper_serving_{os.getpid()}"
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-serving-pool-"))
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        url = f"postgres://postgres@127.0.0.1:5432/{name}"
        env = {**os.environ, "BENCH_DATABASE_URL": url, "BENCH_WORKDIR": str(workdir)}
        env["BENCH_SECRET_KEY"] = secrets.token_urlsafe(50)
        build = subprocess.run([sys.executable, __file__, "child", "build", str(args.tables)], env=env, check=False)
        if build.returncode:
            raise SystemExit("building the event failed")
        results = {"persistent": [], "pool": []}
        for _ in range(args.children):
            for mode in results:
                done = subprocess.run(
                    [sys.executable, __file__, "child", mode, str(args.tables)], env=env, capture_output=True, text=True
                )
                if done.returncode:
                    raise SystemExit(done.stderr[-3000:])
                results[mode].append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(
            f"PostgreSQL connections, {args.tables} tables; {args.children} child processes of each mode, "
            f"alternately, {RUNS} requests of each kind each; medians over the children (ms per request)"
        )
        print("  persistent: CONN_MAX_AGE 60, CONN_HEALTH_CHECKS (a SELECT 1 before each request's first query)")
        print("  pool: OPTIONS {'pool': {'min_size': 1, 'max_size': 2}}, CONN_MAX_AGE 0 (Django's psycopg pool)")
        print(
            f"  {'request':44} {'wall':>7} {'pool':>7} {'ratio':>6} {'CPU':>7} {'pool':>7} {'ratio':>6} "
            f"{'SQL':>4} {'pool':>4}"
        )
        for kind in results["persistent"][0]:
            figure = {
                mode: {f: statistics.median(r[kind][f] for r in runs) for f in ("wall", "cpu", "sql")}
                for mode, runs in results.items()
            }
            p, q = figure["persistent"], figure["pool"]
            print(
                f"  {kind:44} {p['wall']:7.2f} {q['wall']:7.2f} {q['wall'] / p['wall']:6.2f} {p['cpu']:7.2f} "
                f"{q['cpu']:7.2f} {q['cpu'] / p['cpu']:6.2f} {p['sql']:4.0f} {q['sql']:4.0f}"
            )
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        shutil.rmtree(workdir, ignore_errors=True)


def child(mode: str, tables: int) -> None:
    """One child process: build the event, or measure its requests in ``mode``."""
    workdir = Path(os.environ["BENCH_WORKDIR"])
    if mode == "pool":
        os.environ["CONN_MAX_AGE"] = "0"
    event = setup(workdir, os.environ["BENCH_DATABASE_URL"], tables)
    if mode == "build":
        return
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection

    if mode == "pool":
        settings.DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": 2}
        assert connection.pool is not None
    from scorekeeper.models import Match

    Client.played = dict(Match.objects.values_list("pk", "hands_played"))  # the children before this one's hands
    client = Client(WSGIHandler(), event)
    tables_ = event["tables"][random.Random(mode).randrange(len(event["tables"])) :]
    two = [t for t in event["tables"] if len(t["grants"]) > 1]
    kinds = {
        "save a hand": lambda i: client.save(tables_[i % len(tables_)]),
        "the other device's poll (200)": lambda i: client.changed(two[i % len(two)]),
        "standings poll (from the cache)": lambda i: client.standings(),
        "a device opens the sheet": lambda i: client.sheet(tables_[i % len(tables_)]),
    }
    for kind in kinds.values():
        kind(0)
    figures = {}
    for name, kind in kinds.items():
        walls, cpus, sql = [], [], []
        for i in range(RUNS):
            statements = []

            def count(execute, statement, params, many, context, statements=statements):
                statements.append(statement)
                return execute(statement, params, many, context)

            with connection.execute_wrapper(count):
                start, cpu = time.perf_counter(), time.process_time()
                kind(i + 1)
                walls.append((time.perf_counter() - start) * 1000)
                cpus.append((time.process_time() - cpu) * 1000)
            sql.append(len(statements))
        figures[name] = {"wall": statistics.median(walls), "cpu": statistics.median(cpus), "sql": max(sql)}
    print(json.dumps(figures))


def main() -> None:
    if sys.argv[1:2] == ["child"]:
        return child(sys.argv[2], int(sys.argv[3]))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=("gzip", "pool"))
    p.add_argument("--tables", type=int, default=60)
    p.add_argument("--children", type=int, default=3, help="pool: child processes of each mode (default 3)")
    args = p.parse_args()
    {"gzip": gzip_figures, "pool": pool_figures}[args.what](args)


if __name__ == "__main__":
    main()
