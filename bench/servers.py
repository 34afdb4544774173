"""The candidate servers side by side, in one run: each started at once on
the same database, the same client sending them the event's mix in turns
(A, B, C, A, B, C, ...), so a machine busy with something else weighs on
every candidate alike. bench/load.py measures one server at a time with
Locust; this one compares them when the machine is too busy for that.

Run:  .venv/bin/python bench/servers.py                   # SQLite
      .venv/bin/python bench/servers.py --database postgres  # needs psycopg_pool for the pool candidates

The event of bench/event.py (--tables, default 100; a second device at one
table in ten), then --clients threads (default 16), each a table's phone
or a screen, sending one request after another for --turn-seconds (default
6) to one candidate, --rounds times round all of them (default 3). The mix
is the 500-table event's (bench/locustfile.py): of every 100 requests 11
save a hand (htmx POST with the page's token and a one-time key), 58 are a
device's "changed?" poll with the tag it shows, 31 a screen's standings
poll with its ETag. Printed per candidate: requests a second (the median of
its turns), p50 and p99 of each kind, errors, and each one's requests a
second against the first candidate's (the production server, bin/run).

Candidates: SQLite: granian 2 workers of one thread (bin/run), gunicorn 8
sync workers, gunicorn 2 gthread workers of 4 threads, granian 2 workers of
4 threads. PostgreSQL: gunicorn
6 sync workers, persistent connections (CONN_MAX_AGE 60, health checks)
and Django's pool (min 2, max 4 a process), and 2 gthread workers of 4
threads, persistent and pool; granian 2 workers of 1 and of 4 threads.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import secrets
import shutil
import statistics
import sys
import tempfile
import threading
import time
import uuid
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.environment import environment  # noqa: E402
from bench.load import (  # noqa: E402
    POOL,
    PYTHON,
    RUN_SETTINGS,
    create_postgres,
    free_port,
    run,
    server_command,
    start,
    wait_ready,
)

TAG_RE = re.compile(rb'If-None-Match": "\\"([^\\"]+)\\""')
BASIS_RE = re.compile(rb'/changed/\?basis=(\w+)"')
SAVE, DEVICE, SCREEN = "save a hand", "device poll", "standings poll"
MIX = ((SAVE, 11), (DEVICE, 58), (SCREEN, 31))
CANDIDATES = {
    "sqlite": [
        ("granian, 2 workers (bin/run)", "granian", 2, 1, False),
        ("gunicorn, 8 sync workers", "gunicorn", 8, 1, False),
        ("gunicorn, 2 gthread workers x 4 threads", "gthread", 2, 4, False),
        ("granian, 2 workers x 4 threads", "granian", 2, 4, False),
    ],
    "postgres": [
        ("gunicorn, 6 sync workers, persistent", "gunicorn", 6, 1, False),
        ("gunicorn, 6 sync workers, pool", "gunicorn", 6, 1, True),
        ("gunicorn, 2 gthread x 4, persistent", "gthread", 2, 4, False),
        ("gunicorn, 2 gthread x 4, pool", "gthread", 2, 4, True),
        ("granian, 2 workers, persistent", "granian", 2, 1, False),
        ("granian, 2 workers x 4 threads, persistent", "granian", 2, 4, False),
    ],
}


class Table:
    """One table's phone: its cookie, the tag and basis its page shows, its next hand."""

    def __init__(self, match: int, grant: str):
        self.match, self.csrf = match, secrets.token_hex(16)
        self.cookie = f"scoring_links={grant}; csrftoken={self.csrf}"
        self.tag, self.basis, self.next, self.lock = "", "", 1, threading.Lock()

    def read(self, body: bytes) -> None:
        if found := TAG_RE.search(body):
            self.tag = found.group(1).decode()
        if found := BASIS_RE.search(body):
            self.basis = found.group(1).decode()


def request(port: int, method: str, path: str, headers: dict, body: bytes = b"") -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers={"Host": "127.0.0.1", **headers})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


def client(port: int, tables: list[Table], standings: str, until: float, rng: random.Random, out: list) -> None:
    screen_etag = '"old"'
    kinds = [kind for kind, weight in MIX for _ in range(weight)]
    while time.monotonic() < until:
        kind = rng.choice(kinds)
        table = rng.choice(tables)
        start = time.perf_counter()
        ok = True
        if kind == SCREEN:
            status, headers, _body = request(
                port, "GET", standings, {"HX-Request": "true", "If-None-Match": screen_etag}
            )
            screen_etag = headers.get("ETag", screen_etag)
            ok = status in (200, 304)
        elif kind == DEVICE:
            headers = {"Cookie": table.cookie, "HX-Request": "true", "If-None-Match": f'"{table.tag}"'}
            status, answer, body = request(port, "GET", f"/matches/{table.match}/changed/?basis={table.basis}", headers)
            if status == 200:
                table.read(body)
                table.tag = answer.get("ETag", "").removeprefix("W/").strip('"') or table.tag
            ok = status in (200, 304)
        else:
            with table.lock:  # one hand at a time at a table
                taken = rng.randint(0, 13)
                form = {"bids_0": rng.randint(1, 7), "bids_1": rng.randint(1, 7), "tricks_0": taken}
                form.update(tricks_1=13 - taken, number=table.next, bidding="none", client_key=uuid.uuid4().hex)
                headers = {"Cookie": table.cookie, "HX-Request": "true", "X-CSRFToken": table.csrf}
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                status, _answer, body = request(
                    port, "POST", f"/matches/{table.match}/hands/", headers, urlencode(form).encode()
                )
                ok = status == 200 and b"saved." in body
                if ok:
                    table.next += 1
                    table.read(body)
        out.append((kind, (time.perf_counter() - start) * 1000, ok))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--turn-seconds", type=float, default=6)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    with ExitStack() as stack:
        tmp = Path(tempfile.mkdtemp(prefix="scorekeeper-servers-"))
        stack.callback(shutil.rmtree, tmp, True)
        log = tmp / "setup.log"
        (tmp / "bench_run.py").write_text(RUN_SETTINGS.format(static=str(tmp / "static")))
        (tmp / "bench_run_pool.py").write_text(RUN_SETTINGS.format(static=str(tmp / "static")) + POOL)
        env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "REDIS_URL")}
        path = os.pathsep.join(p for p in (str(tmp), str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
        env.update(environment("bench_run"), PYTHONPATH=path, CACHE_DIR=str(tmp / "cache"))
        if args.database == "sqlite":
            env["DATABASE_URL"] = f"sqlite:///{tmp / 'bench.sqlite3'}"
        else:
            env["DATABASE_URL"] = create_postgres(f"scorekeeper_servers_{os.getpid()}", stack)
        run([PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], env, log, "migrate")
        run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v", "0"], env, log, "collectstatic")
        event_json = tmp / "event.json"
        second = max(1, args.tables // 10)
        run([PYTHON, "-m", "bench.event", "build", str(event_json), str(args.tables), str(second)], env, log, "event")
        event = json.loads(event_json.read_text())

        servers = []
        for label, kind, workers, threads, pool in CANDIDATES[args.database]:
            port = free_port()
            server_env = dict(env, DJANGO_SETTINGS_MODULE="bench_run_pool" if pool else "bench_run")
            server_log = tmp / f"server-{port}.log"
            proc = start(server_command(kind, workers, port, threads), server_env, server_log, stack)
            servers.append((label, port, proc, server_log))
        for _label, port, proc, server_log in servers:
            wait_ready(f"http://127.0.0.1:{port}", proc, server_log)
        print(f"  {len(servers)} servers up", flush=True)

        tables = [Table(t["match"], t["grants"][0]) for t in event["tables"]]
        first_port = servers[0][1]
        for table in tables:  # each phone opens its sheet (untimed)
            status, _h, body = request(first_port, "GET", f"/matches/{table.match}/", {"Cookie": table.cookie})
            assert status == 200, status
            table.read(body)
        results = {label: {"turns": [], "samples": []} for label, *_ in servers}
        rng = random.Random(1)
        for _label, port, *_ in servers:  # warm: templates compiled in every worker
            warm = []
            client(port, tables, event["standings"], time.monotonic() + 2, random.Random(0), warm)
        load_before = os.getloadavg()[0]
        for _round in range(args.rounds):
            for label, port, *_ in servers:
                out: list = []
                until = time.monotonic() + args.turn_seconds
                threads_ = [
                    threading.Thread(
                        target=client, args=(port, tables, event["standings"], until, random.Random(rng.random()), out)
                    )
                    for _ in range(args.clients)
                ]
                for thread in threads_:
                    thread.start()
                for thread in threads_:
                    thread.join()
                results[label]["turns"].append(len(out) / args.turn_seconds)
                results[label]["samples"] += out
        report(args, results, load_before, os.getloadavg()[0])


def report(args, results: dict, load_before: float, load_after: float) -> None:
    print(
        f"\n{args.database}, {args.tables} tables, {args.clients} clients, {args.rounds} rounds of "
        f"{args.turn_seconds:g} s turns; load average {load_before:.1f} before, {load_after:.1f} after "
        f"(cores: {os.cpu_count()})"
    )
    print(
        f"  {'server':44} {'req/s':>7} {'x first':>7}   " + "   ".join(f"{k} p50/p99 ms" for k, _ in MIX) + "  errors"
    )
    first = None
    for label, r in results.items():
        rate = statistics.median(r["turns"])
        first = first or rate
        cells = []
        for kind, _weight in MIX:
            times = sorted(ms for k, ms, _ok in r["samples"] if k == kind)
            if times:
                cells.append(f"{times[len(times) // 2]:7.0f} / {times[int(len(times) * 0.99)]:6.0f}")
            else:
                cells.append(f"{'-':>16}")
        errors = sum(1 for _k, _ms, ok in r["samples"] if not ok)
        print(
            f"  {label:44} {rate:7.1f} {rate / first:7.2f}   " + "   ".join(f"{c:>20}" for c in cells) + f"  {errors}"
        )


if __name__ == "__main__":
    main()
