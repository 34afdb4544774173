"""Large-event load benchmark: 500 tables scoring at once while 500
spectators watch the standings, through the real stack (gunicorn, Django,
the database), on SQLite and on PostgreSQL.

Run (from the project folder; takes about 3 minutes per database at the
default 60 s event):

    .venv/bin/python bench/load.py                    # both databases
    .venv/bin/python bench/load.py --seconds 20       # a shorter event
    .venv/bin/python bench/load.py --only sqlite      # or: --only postgres

Needs httpx (requirements-dev.txt) and, for the PostgreSQL run, a server on
postgres://postgres@127.0.0.1:5432 that lets that user create databases.
Loopback only; nothing outside this machine is contacted.

For each database it:

1. creates a fresh database (SQLite: a temp file; PostgreSQL: a new
   database ``scorekeeper_bench_<pid>``, dropped at the end), migrates it and
   collects the static files into a temp folder (whitenoise's manifest
   storage needs them when DEBUG is off). A temp settings module
   (``from config.settings import *`` plus the temp STATIC_ROOT, logging of
   server errors to the server log and a slow-query log) is used; the
   project's files are not touched.
2. builds the event through the app's services: an organiser, a Swiss
   Spades tournament of ``2 x --tables`` players (huge target score, so no
   match ends) whose round 1 is published: one match per table, each with
   its scoring link (``scorekeeper.tournaments``). If that module is
   missing, plain matches with ``services.start_match`` and
   ``services.issue_link`` are used and the spectators poll score sheets
   instead (``--spectate``).
3. starts gunicorn (``--workers`` x ``--threads``, DEBUG=0,
   SECURE_SSL_REDIRECT=0, SCOREKEEPER_BENCH_BASELINE=1 which registers the
   baseline endpoint) on a free loopback port. Every table device exchanges
   its table's link for a grant cookie (GET the confirm page, POST its CSRF
   form) and opens its sheet; one table in ten has a second device. Not timed.
   Then each endpoint alone: 25 requests of each kind, one at a time (the
   service time without load, and from it the most each endpoint could do
   with every core), not part of the phases' figures.
4. Phase B, the event, for ``--seconds``: every 30 s (``--round-every``)
   a round ends and every table submits its next hand within 20 s
   (``--burst-spread``: a burst; 3 is the stress run), plus extra hands at
   random (one per table per 30 s on average). Each submission is an htmx
   POST of bids and tricks with the expected hand number and a new
   client_key. Some are retried: a double tap (the same form twice, 30 ms
   apart) or a resubmission after the answer came (a lost response); both
   must store one hand. At tables with a second device both devices
   sometimes submit the same hand at once: one must get 200, the other the
   expected 409. A submission that times out is retried with the same key.
   Meanwhile ``--spectators`` spectators load the public standings page
   and then poll it every 5 s the way the page does (htmx GET), and every
   table device's open score sheet asks every 8 s whether another device
   changed the match (``--device-poll-every``; 204, or 200 with a banner).
   After it the bench waits until the server has answered all it had
   queued (the access log stops growing), so a backlog does not spill into
   the next phase.
5. Phases A and C, in ``--turns`` turns (default 4 x 5 s each) of one then
   the other, for ``--baseline-seconds`` in all (default 20 s each):
   Phase A, baseline: ``--connections`` clients POST the baseline endpoint
   (one INSERT in a transaction, 204) back to back. Phase C,
   record-a-hand capacity: as many clients submit hands back to back, each
   to the table that has waited longest (every table in turn, as at an
   event). Side by side because this machine's speed drifts (its cores are
   shared): a baseline measured alone, a minute from the hands, moved the
   ratio by up to 14 points between runs of the same code. The event's
   hand rate is the offered load, not what the server can do; the 40 %
   throughput target is judged on phase C against phase A (each turn's
   figures and the event's ratio are printed too).
6. compares the hands in the database with the submissions acknowledged
   with 200 (by client_key): lost, duplicated, stored but never
   acknowledged (the client gave up), hand numbers with gaps; reads the
   server log (tracebacks, "database is locked", worker timeouts, slow
   queries) and the access log (server-side latencies).

Printed per database: per endpoint requests, req/s, p50/p95/p99 latency,
errors (timeouts, connection errors and any non-2xx answer except an
expected 409), the ratio to the baseline, stored vs acknowledged hands,
CPU use (client, gunicorn, whole machine; the load generator shares the
cores with the server; its garbage collector is off during a phase, as its
pauses made every request in flight look slow), and the targets with PASS/FAIL: zero errors and zero
lost hands; record a hand p99 < 150 ms and throughput >= 40 % of the
baseline; standings p99 < 200 ms. Exit status 1 if a target fails.

Bounded: every phase has a fixed duration, each request a timeout, the run
a request cap (``--max-requests``); gunicorn, the temp folder and the
PostgreSQL database are removed at the end, also on Ctrl-C (``--keep``
keeps the temp folder with the logs).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import gzip
import http.cookiejar
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
PYTHON = str(VENV_BIN / "python") if (VENV_BIN / "python").exists() else sys.executable
GUNICORN = str(VENV_BIN / "gunicorn") if (VENV_BIN / "gunicorn").exists() else "gunicorn"
PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_BENCH_URL = "postgres://postgres@127.0.0.1:5432/{name}"

HUGE_TARGET = 1_000_000_000  # no match ends during the run
# A hand takes minutes to play, so a real round's first hands arrive over a
# minute or more after it starts; the event is that, squeezed: a round ends
# every 30 s and all 500 tables submit within 20 s of it. --burst-spread 3
# (500 hands within 3 s, every 15 s with --round-every 15) is the stress run.
# gunicorn workers that measured best on 2 cores: on SQLite a fifth keeps
# the cores busy while the others wait for the write lock; on PostgreSQL
# the database's own processes need the share a fifth would take.
WORKERS = {"sqlite": 5, "postgres": 4}
ROUND_EVERY = 30.0  # s between round ends (bursts); --round-every
FIRST_ROUND_END = 5.0
BURST_SPREAD = 20.0  # every table submits within this many s after a round end; --burst-spread
EXTRA_EVERY = 30.0  # mean s between a table's extra hands
STOLEN_WARNING = 0.05  # share of the cores taken by the hypervisor that spoils a run
SPECTATOR_EVERY = 5.0  # the standings page polls every 5 s
DEVICE_POLL_EVERY = 8.0  # an open score sheet asks every 8 s whether another device changed the match
SECOND_DEVICE_SHARE = 0.1  # tables with a second scoring device
BROWSER = {"Accept-Encoding": "gzip"}  # what every browser sends along
DOUBLE_TAP = 0.05  # submissions sent twice at once (same client_key)
RESUBMIT = 0.05  # submissions sent again after the answer (same client_key)
BOTH_DEVICES = 0.2  # at a table with two devices: both submit the same hand
TIMEOUT_RETRIES = 2  # a submission without an answer is retried this often
SLOW_QUERY_MS = 100

TARGET_RECORD_P99_MS = 150
TARGET_STANDINGS_P99_MS = 200
TARGET_RATIO = 0.40

STALE = "409 after an unanswered submission"
NOT_ERRORS = ("ok", "conflict", STALE)  # a stale 409 follows a timeout, already counted as an error
RECORD = "record a hand"
STANDINGS = "standings"
DEVICE_POLL = "device: changed?"
BASELINE = "baseline insert"
CAPACITY = "record a hand (capacity)"

NUMBER_RE = re.compile(rb'name="number" value="(\d+)"')
VERSION_RE = re.compile(rb'/changed/\?v=(\d+)"')
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')

SETTINGS_MODULE = "bench_settings"
SETTINGS_TEXT = '''"""Settings of one bench/load.py run (temp file)."""
from config.settings import *  # noqa: F401,F403

STATIC_ROOT = {static_root!r}
LOGGING = {{
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {{"stderr": {{"class": "logging.StreamHandler"}}}},
    "loggers": {{
        "django.request": {{"handlers": ["stderr"], "level": "ERROR", "propagate": False}},
        "django.security": {{"handlers": ["stderr"], "level": "WARNING", "propagate": False}},
    }},
}}

from bench.load import install_slow_query_log  # noqa: E402

install_slow_query_log({slow_ms})
'''


# ------------------------------------------------------------ server side


def install_slow_query_log(threshold_ms: float) -> None:
    """Called from the temp settings: every query slower than the threshold
    (a lock wait included, e.g. SQLite's BEGIN IMMEDIATE) goes to stderr."""
    from django.db.backends.signals import connection_created

    def log_slow(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            ms = (time.perf_counter() - start) * 1000
            if ms >= threshold_ms:
                text = " ".join(str(sql).split())[:300]
                print(f"SLOW QUERY {ms:.0f} ms pid={os.getpid()}: {text}", file=sys.stderr, flush=True)

    def on_connect(sender, connection, **kwargs):
        if log_slow not in connection.execute_wrappers:
            connection.execute_wrappers.append(log_slow)

    connection_created.connect(on_connect, weak=False, dispatch_uid="bench-slow-query-log")


def child_setup(out_path: str, tables: int) -> None:
    """In a subprocess with the run's environment: build the event."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from scorekeeper import services

    user = get_user_model().objects.create_superuser("bench-organiser", password=secrets.token_urlsafe(24))
    actor = services.Actor(label="organiser bench-organiser", user=user)
    names = [f"Player {i:04d}" for i in range(1, 2 * tables + 1)]
    rows, tournament_id, standings_path = [], None, None
    try:
        from scorekeeper import tournaments
        from scorekeeper.models import Table
    except ImportError:
        tournaments = None
    if tournaments is not None:
        tournament = tournaments.create_tournament(
            name="Load test open", game="spades", format="swiss", options={"target": HUGE_TARGET}, rounds=8,
            actor=actor,
        )
        for start in range(0, len(names), tournaments.MAX_NAMES_AT_ONCE):
            chunk = names[start : start + tournaments.MAX_NAMES_AT_ONCE]
            tournaments.register_players(tournament_id=tournament.pk, text="\n".join(chunk), actor=actor)
        rnd = tournaments.propose_round(tournament_id=tournament.pk, actor=actor)
        tokens = tournaments.publish_round(round_id=rnd.pk, actor=actor)
        match_of = dict(Table.objects.filter(round=rnd).values_list("pk", "match_id"))
        rows = [{"match": match_of[table_id], "token": token} for table_id, token in sorted(tokens.items())]
        tournament_id = tournament.pk
        standings_path = reverse("tournament_standings", args=[tournament.pk])
    else:
        for k in range(tables):
            match = services.start_match(
                game="spades", player_names=names[2 * k : 2 * k + 2], options={"target": HUGE_TARGET}, actor=actor
            )
            _link, token = services.issue_link(match_id=match.pk, label=f"table {k + 1}", actor=actor)
            rows.append({"match": match.pk, "token": token})
    from django.db import connection

    if connection.vendor == "postgresql":
        # Statistics of the tables just filled, as autovacuum gathers them
        # between registration and a real event: without them the planner
        # takes 1,000 players for a few and scans them all for a seat.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    Path(out_path).write_text(json.dumps(
        {"tables": rows, "tournament": tournament_id, "standings_path": standings_path}
    ))


def child_verify(out_path: str) -> None:
    """In a subprocess with the run's environment: what the database holds."""
    import django

    django.setup()
    from scorekeeper.models import AuditEvent, Hand, Match

    Path(out_path).write_text(json.dumps({
        "hands": list(Hand.objects.values_list("match_id", "number", "client_key")),
        "hands_played": list(Match.objects.values_list("pk", "hands_played")),
        "hand_audits": AuditEvent.objects.filter(action="hand recorded").count(),
        "baseline_rows": AuditEvent.objects.filter(action="baseline").count(),
    }))


# ------------------------------------------------------------ processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_child(args: list[str], env: dict, what: str, log: Path) -> None:
    start = time.perf_counter()
    with log.open("a") as out:
        out.write(f"\n$ {' '.join(args)}\n")
        out.flush()
        result = subprocess.run(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=900)
    if result.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {result.returncode}); see the end of {log}:\n{tail(log, 40)}")
    print(f"  {what}: {time.perf_counter() - start:.1f} s", flush=True)


def tail(path: Path, lines: int) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def process_cpu(pid: int) -> float:
    """utime + stime of one process, in seconds (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                found.append(int(entry.name))
    return found


def postgres_cpu() -> dict[int, float]:
    """CPU seconds of each PostgreSQL server process (read from /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    found[int(entry.name)] = process_cpu(int(entry.name))
            except OSError:
                continue
    return found


def machine_load(seconds: float = 2.0) -> float:
    """Share of all cores busy over a short look."""
    busy0, total0, _steal = machine_busy()
    time.sleep(seconds)
    busy1, total1, _steal = machine_busy()
    return (busy1 - busy0) / (total1 - total0) if total1 > total0 else 0.0


def machine_busy() -> tuple[float, float, float]:
    """(busy, total, stolen) CPU seconds of the whole machine so far; stolen:
    by the hypervisor for other machines (counted as busy)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    total = sum(values[:8])
    tick = os.sysconf("SC_CLK_TCK")
    return (total - idle) / tick, total / tick, (values[7] if len(values) > 7 else 0) / tick


@dataclass
class CpuMark:
    client: float
    server: float
    postgres: dict[int, float]
    busy: float
    total: float
    stolen: float
    wall: float


class Server:
    """gunicorn on a free loopback port, in its own process group."""

    def __init__(self, env: dict, tmp: Path, workers: int, threads: int):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp / "server.log"
        self.access_log = tmp / "access.log"
        self.access_log.touch()
        self.env = env
        self.cmd = [
            GUNICORN, "config.wsgi:application", "--workers", str(workers), "--threads", str(threads),
            "--bind", f"127.0.0.1:{self.port}", "--timeout", "60", "--graceful-timeout", "5", "--keep-alive", "30",
            "--access-logfile", str(self.access_log), "--access-logformat", "%(m)s %(U)s %(s)s %(D)s",
            "--error-logfile", "-", "--log-level", "info",
        ]
        self.restarts = 0
        self._start()

    def _start(self) -> None:
        self._out = self.log.open("a")
        self.proc = subprocess.Popen(self.cmd, cwd=ROOT, env=self.env, stdout=self._out, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def restart(self) -> None:
        """Stop and start again on the same port: drops the queue of requests
        whose clients have given up (gunicorn would still serve them all)."""
        self.stop()
        self.restarts += 1
        self._start()
        self.wait_ready()

    def wait_ready(self, seconds: float = 60) -> None:
        import httpx

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.proc.returncode}):\n{tail(self.log, 40)}")
            try:
                httpx.get(f"{self.base}/l/not-a-token/", timeout=2)
                return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer within {seconds} s:\n{tail(self.log, 40)}")

    def cpu(self) -> float:
        return process_cpu(self.proc.pid) + sum(process_cpu(p) for p in children_of(self.proc.pid))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # our own group: gunicorn and its workers
                self.proc.wait(5)
        self._out.close()


# ------------------------------------------------------------ measurements


@dataclass
class Recorder:
    """Every request: latency (s) and outcome, per endpoint."""

    max_requests: int
    samples: dict[str, list[tuple[float, str]]] = field(default_factory=lambda: defaultdict(list))
    total: int = 0
    error_examples: dict[str, str] = field(default_factory=dict)

    def add(self, endpoint: str, latency: float, outcome: str) -> None:
        self.samples[endpoint].append((latency, outcome))
        self.total += 1

    @property
    def exhausted(self) -> bool:
        return self.total >= self.max_requests


@dataclass
class Stats:
    endpoint: str
    requests: int
    rate: float
    p50: float | None
    p95: float | None
    p99: float | None
    errors: int
    conflicts: int  # expected 409s
    outcomes: dict[str, int]


def percentile(ordered: list[float], q: float) -> float | None:
    if not ordered:
        return None
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def summarize(endpoint: str, samples: list[tuple[float, str]], seconds: float) -> Stats:
    latencies = sorted(s[0] for s in samples)
    outcomes = Counter(s[1] for s in samples)
    errors = sum(n for o, n in outcomes.items() if o not in NOT_ERRORS)
    return Stats(endpoint, len(samples), len(samples) / seconds if seconds else 0.0, percentile(latencies, 0.5),
                 percentile(latencies, 0.95), percentile(latencies, 0.99), errors, outcomes.get("conflict", 0),
                 dict(outcomes))


# ------------------------------------------------------------ client side


class _NoCookies(http.cookiejar.DefaultCookiePolicy):
    """Each device's cookies are sent by hand: the shared client keeps none
    (and the Secure cookies of DEBUG=0 would not go over http anyway)."""

    def set_ok(self, cookie, request):
        return False

    def return_ok(self, cookie, request):
        return False


class ClientTimeout(Exception):
    """No complete answer within the timeout (the wait for a connection included)."""


class ClientError(Exception):
    """The connection failed or the answer could not be read."""


@dataclass
class Reply:
    status: int
    headers: list[tuple[str, str]]  # (lower-case name, value)
    content: bytes
    wire_size: int | None = None  # bytes sent, if compressed

    @property
    def text(self) -> str:
        return self.content.decode(errors="replace")

    def header_list(self, name: str) -> list[str]:
        return [v for k, v in self.headers if k == name]


class RawClient:
    """A lean HTTP/1.1 keep-alive client on asyncio streams, for loopback.

    httpx.AsyncClient measured 4 to 9 ms of CPU per request on this 2-core
    machine (sync httpx 2 to 3 ms); this one about 0.4 ms. The load
    generator shares the cores with the server, so the lean one is the
    default (``--client httpx`` runs the same load through httpx). At most
    ``max_connections`` connections; the timeout covers the wait for one
    and the whole exchange. A reused connection that the server had closed
    (no byte of an answer) is retried once on a new one, as browsers do."""

    def __init__(self, base: str, max_connections: int, timeout: float):
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.timeout = timeout
        self.slots = asyncio.Semaphore(max_connections)
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def request(self, method: str, path: str, headers: dict | None = None, form: dict | None = None) -> Reply:
        body = urlencode(form).encode() if form is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(body)}"]
        if form is not None:
            lines.append("Content-Type: application/x-www-form-urlencoded")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        try:
            async with asyncio.timeout(self.timeout), self.slots:
                return await self._exchange(raw, method)
        except TimeoutError:
            raise ClientTimeout() from None
        except (OSError, EOFError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as error:
            raise ClientError(type(error).__name__) from None

    async def _exchange(self, raw: bytes, method: str) -> Reply:
        for attempt in (0, 1):
            reused = bool(self.idle)
            reader, writer = self.idle.pop() if reused else await asyncio.open_connection(self.host, self.port)
            answered = False
            try:
                writer.write(raw)
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                answered = True
                reply, keep = await self._read(reader, head, method)
            except BaseException as error:  # a timeout (cancellation) too: the connection is unusable
                writer.close()
                stale = isinstance(error, (ConnectionError, asyncio.IncompleteReadError))
                if reused and not answered and stale and attempt == 0:
                    continue
                raise
            if keep:
                self.idle.append((reader, writer))
            else:
                writer.close()
            return reply
        raise ClientError("unreachable")

    @staticmethod
    async def _read(reader: asyncio.StreamReader, head: bytes, method: str) -> tuple[Reply, bool]:
        lines = head[:-4].split(b"\r\n")
        version, status = lines[0].split(b" ", 2)[:2]
        status = int(status)
        headers = []
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers.append((name.strip().lower().decode("latin-1"), value.strip().decode("latin-1")))
        fields = dict(headers)
        keep = version == b"HTTP/1.1" and fields.get("connection", "").lower() != "close"
        if method == "HEAD" or status in (204, 304) or status < 200:
            content = b""
        elif "chunked" in fields.get("transfer-encoding", "").lower():
            chunks = []
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    while await reader.readuntil(b"\r\n") != b"\r\n":
                        pass
                    break
                chunks.append((await reader.readexactly(size + 2))[:-2])
            content = b"".join(chunks)
        elif "content-length" in fields:
            content = await reader.readexactly(int(fields["content-length"]))
        else:
            content, keep = await reader.read(), False
        wire_size = len(content)
        if fields.get("content-encoding") == "gzip":
            content = gzip.decompress(content)
        return Reply(status, headers, content, wire_size), keep

    async def aclose(self) -> None:
        for _reader, writer in self.idle:
            writer.close()
        self.idle.clear()


class HttpxClient:
    """The same interface over httpx.AsyncClient (``--client httpx``)."""

    def __init__(self, base: str, max_connections: int, timeout: float):
        import httpx

        self.httpx = httpx
        self.base = base
        self.client = httpx.AsyncClient(
            limits=httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections),
            timeout=httpx.Timeout(timeout), cookies=http.cookiejar.CookieJar(_NoCookies()), follow_redirects=False,
        )

    async def request(self, method: str, path: str, headers: dict | None = None, form: dict | None = None) -> Reply:
        try:
            r = await self.client.request(method, self.base + path, headers=headers, data=form)
        except self.httpx.TimeoutException:
            raise ClientTimeout() from None
        except self.httpx.HTTPError as error:
            raise ClientError(type(error).__name__) from None
        return Reply(r.status_code, [(k.lower(), v) for k, v in r.headers.multi_items()], r.content)

    async def aclose(self) -> None:
        await self.client.aclose()


def set_cookies(response: Reply) -> dict[str, str]:
    cookies = {}
    for header in response.header_list("set-cookie"):
        name, _, rest = header.partition("=")
        cookies[name.strip()] = rest.split(";", 1)[0].strip().strip('"')
    return cookies


@dataclass
class Device:
    cookies: dict[str, str]

    @property
    def headers(self) -> dict[str, str]:
        return {
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "X-CSRFToken": self.cookies.get("csrftoken", ""),
            "HX-Request": "true",
        }


@dataclass
class TableState:
    index: int
    match_id: int
    token: str
    devices: list[Device] = field(default_factory=list)
    next_number: int = 1
    uncertain: bool = False  # a submission got no answer: next_number may be behind
    version: int = 0  # the match's version in the last sheet or answer the table's devices got


@dataclass
class Event:
    client: RawClient | HttpxClient
    rec: Recorder
    rng: random.Random
    tables: list[TableState]
    spectate_paths: list[str]
    timeout: float
    acked: set[str] = field(default_factory=set)
    dedup_hits: int = 0  # 200 "already saved" answers
    baseline_acked: int = 0  # 204 answers of the baseline endpoint
    conflict_pairs: Counter = field(default_factory=Counter)  # outcome pairs of two-device submissions
    given_up: int = 0  # submissions never answered after the retries
    resync_failed: int = 0  # sheet reads that got no answer
    changed_banners: int = 0  # device polls answered "another device changed the match"
    unexpected: list[str] = field(default_factory=list)
    stopping: bool = False


async def exchange_link(client: RawClient | HttpxClient, token: str) -> Device:
    """GET the confirm page, POST its form: the grant cookie lets it score."""
    page = await client.request("GET", f"/l/{token}/")
    if page.status != 200:
        raise RuntimeError(f"link page answered {page.status}")
    cookies = set_cookies(page)
    found = CSRF_RE.search(page.text)
    if not found or "csrftoken" not in cookies:
        raise RuntimeError("link page has no CSRF form or cookie")
    posted = await client.request(
        "POST", f"/l/{token}/", headers={"Cookie": f"csrftoken={cookies['csrftoken']}"},
        form={"csrfmiddlewaretoken": found.group(1)},
    )
    if posted.status != 302:
        raise RuntimeError(f"link exchange answered {posted.status}: {posted.text[:200]}")
    cookies.update(set_cookies(posted))
    if "scoring_links" not in cookies:
        raise RuntimeError("link exchange set no grant cookie")
    return Device(cookies)


def random_hand(rng: random.Random) -> dict[str, int]:
    taken = rng.randint(0, 13)
    return {"bids_0": rng.randint(1, 7), "bids_1": rng.randint(1, 7), "tricks_0": taken, "tricks_1": 13 - taken}


def classify_error(ev: Event, status: int, text: str) -> str:
    outcome = f"HTTP {status}"
    if outcome not in ev.rec.error_examples:
        title = re.search(r"<title>(.*?)</title>", text, re.S)
        banner = re.search(r'class="banner banner-error"[^>]*>(.*?)<', text, re.S)
        ev.rec.error_examples[outcome] = " | ".join(
            " ".join(m.group(1).split()) for m in (title, banner) if m
        ) or text[:200]
    return outcome


async def post_hand(ev: Event, endpoint: str, table: TableState, device: Device, number: int, key: str,
                    hand: dict, *, conflict_ok: bool = False) -> tuple[str, int | None]:
    """One POST of a hand. Returns (outcome, next hand number if the answer shows it)."""
    data = {**hand, "number": number, "client_key": key}
    start = time.perf_counter()
    try:
        response = await ev.client.request("POST", f"/matches/{table.match_id}/hands/", device.headers, data)
    except ClientTimeout:
        ev.rec.add(endpoint, time.perf_counter() - start, "timeout")
        return "timeout", None
    except ClientError as error:
        ev.rec.add(endpoint, time.perf_counter() - start, f"connection error ({error})")
        return "connection", None
    latency = time.perf_counter() - start
    body = response.content
    found = NUMBER_RE.search(body)
    shown = int(found.group(1)) if found else None
    seen_version(table, body)
    status = response.status
    if status == 200:
        outcome = "ok"
        ev.acked.add(key)
        if b"was already saved" in body:
            ev.dedup_hits += 1
    elif status == 409 and conflict_ok:
        outcome = "conflict"
    elif status == 409 and table.uncertain:
        outcome = STALE  # the hand of an unanswered submission was saved after all
    else:
        outcome = classify_error(ev, status, response.text)
    ev.rec.add(endpoint, latency, outcome)
    return outcome, shown


async def deliver(ev: Event, endpoint: str, table: TableState, device: Device, number: int, key: str,
                  hand: dict, *, conflict_ok: bool = False) -> tuple[str, int | None]:
    """Post until answered: a timeout or connection error is retried with the
    same client_key (what the page's retry does), a few times."""
    for attempt in range(TIMEOUT_RETRIES + 1):
        outcome, shown = await post_hand(ev, endpoint, table, device, number, key, hand, conflict_ok=conflict_ok)
        if outcome not in ("timeout", "connection"):
            return outcome, shown
        if attempt < TIMEOUT_RETRIES:
            await asyncio.sleep(0.5 * (attempt + 1))
    ev.given_up += 1
    table.uncertain = True
    return outcome, None


async def resync(ev: Event, table: TableState, device: Device) -> None:
    """After an answer that did not show the next hand number: read the sheet."""
    try:
        page = await ev.client.request("GET", f"/matches/{table.match_id}/", {"Cookie": device.headers["Cookie"]})
        seen_version(table, page.content)
        found = NUMBER_RE.search(page.content)
        if found:
            table.next_number = int(found.group(1))
            table.uncertain = False
    except (ClientTimeout, ClientError):
        ev.resync_failed += 1  # keep the table going; the database check tells the truth


def seen_version(table: TableState, page: bytes) -> None:
    found = VERSION_RE.search(page)
    if found:
        table.version = max(table.version, int(found.group(1)))


async def submit(ev: Event, table: TableState, endpoint: str, mode: str) -> None:
    """The table's next hand, in one of the ways real devices send it."""
    first = table.devices[0]
    if table.uncertain:
        await resync(ev, table, first)
    number, key, hand = table.next_number, uuid.uuid4().hex, random_hand(ev.rng)
    shown_numbers: list[int | None] = []
    if mode == "double tap":

        async def later():
            await asyncio.sleep(0.03)
            return await deliver(ev, endpoint, table, first, number, key, hand)

        results = await asyncio.gather(deliver(ev, endpoint, table, first, number, key, hand), later())
        shown_numbers = [s for _o, s in results]
    elif mode == "resubmit":
        outcome, shown = await deliver(ev, endpoint, table, first, number, key, hand)
        shown_numbers.append(shown)
        if outcome == "ok":  # the answer was "lost": the device sends the same form again
            _outcome, shown = await deliver(ev, endpoint, table, first, number, key, hand)
            shown_numbers.append(shown)
    elif mode == "both devices":
        second = table.devices[1]
        other_key, other_hand = uuid.uuid4().hex, random_hand(ev.rng)
        results = await asyncio.gather(
            deliver(ev, endpoint, table, first, number, key, hand, conflict_ok=True),
            deliver(ev, endpoint, table, second, number, other_key, other_hand, conflict_ok=True),
        )
        pair = tuple(sorted(o for o, _s in results))
        ev.conflict_pairs[pair] += 1
        unanswered = any(o in ("timeout", "connection") for o in pair)
        if pair != ("conflict", "ok") and not unanswered:  # both saved, or neither, with answers: a bug
            ev.unexpected.append(f"two devices at match {table.match_id}, hand {number}: {pair}")
        shown_numbers = [s for _o, s in results]
    else:
        _outcome, shown = await deliver(ev, endpoint, table, first, number, key, hand)
        shown_numbers.append(shown)
    shown = [s for s in shown_numbers if s is not None]
    if shown:
        table.next_number = max(shown)
        table.uncertain = False
    else:
        await resync(ev, table, first)


def pick_mode(ev: Event, table: TableState) -> str:
    r = ev.rng.random()
    if len(table.devices) > 1 and r < BOTH_DEVICES:
        return "both devices"
    r = ev.rng.random()
    if r < DOUBLE_TAP:
        return "double tap"
    if r < DOUBLE_TAP + RESUBMIT:
        return "resubmit"
    return "single"


def table_schedule(rng: random.Random, seconds: float, round_ends: list[float], spread: float) -> list[float]:
    times = [end + rng.uniform(0, spread) for end in round_ends]
    t = rng.expovariate(1 / EXTRA_EVERY)
    while t < seconds:
        times.append(t)
        t += rng.expovariate(1 / EXTRA_EVERY)
    return sorted(t for t in times if t < seconds)


async def table_loop(ev: Event, table: TableState, start: float, times: list[float]) -> None:
    loop = asyncio.get_running_loop()
    for at in times:
        await asyncio.sleep(max(0.0, start + at - loop.time()))
        if ev.stopping or ev.rec.exhausted:
            return
        await submit(ev, table, RECORD, pick_mode(ev, table))


async def spectator_loop(ev: Event, start: float, end: float, offset: float, path: str | None) -> None:
    """Load the page once, then poll it every 5 s as htmx does."""
    loop = asyncio.get_running_loop()
    at = start + offset
    first = True
    while True:
        await asyncio.sleep(max(0.0, at - loop.time()))
        if ev.stopping or ev.rec.exhausted or loop.time() >= end:
            return
        url = path or ev.rng.choice(ev.spectate_paths)
        headers = BROWSER if first else {**BROWSER, "HX-Request": "true"}
        await recorded_get(ev, STANDINGS, url, headers, ok=(200,))
        first = False
        at = max(at + SPECTATOR_EVERY, loop.time())  # a late poll does not pile up


async def device_poll_loop(ev: Event, table: TableState, device: Device, start: float, end: float, every: float,
                           offset: float) -> None:
    """An open score sheet on a table's device: every 8 s (``every``) it asks
    whether the match changed since the version it shows (204: no; 200: a
    banner that another device saved something)."""
    loop = asyncio.get_running_loop()
    at = start + offset
    headers = {"Cookie": device.headers["Cookie"], "HX-Request": "true"}
    while True:
        await asyncio.sleep(max(0.0, at - loop.time()))
        if ev.stopping or ev.rec.exhausted or loop.time() >= end:
            return
        url = f"/matches/{table.match_id}/changed/?v={table.version}"
        response = await recorded_get(ev, DEVICE_POLL, url, headers, ok=(200, 204))
        ev.changed_banners += response is not None and response.status == 200
        at = max(at + every, loop.time())


async def recorded_get(ev: Event, endpoint: str, url: str, headers: dict, ok: tuple[int, ...]) -> Reply | None:
    """One GET, its latency and outcome recorded under ``endpoint`` (an
    error unless its status is one of ``ok``); None when it got no answer."""
    t0 = time.perf_counter()
    try:
        response = await ev.client.request("GET", url, headers)
    except ClientTimeout:
        ev.rec.add(endpoint, time.perf_counter() - t0, "timeout")
        return None
    except ClientError as error:
        ev.rec.add(endpoint, time.perf_counter() - t0, f"connection error ({error})")
        return None
    latency = time.perf_counter() - t0
    outcome = "ok" if response.status in ok else classify_error(ev, response.status, response.text)
    ev.rec.add(endpoint, latency, outcome)
    return response


async def lag_monitor(samples: list[float], until: float) -> None:
    """How late the client's event loop wakes up (a busy client inflates latencies)."""
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        before = loop.time()
        await asyncio.sleep(0.05)
        samples.append(loop.time() - before - 0.05)


async def closed_loop(seconds: float, workers: int, body) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds

    async def worker(k: int):
        while loop.time() < end:
            if not await body(k):
                return

    await asyncio.gather(*(worker(k) for k in range(workers)))


@dataclass
class PhaseResult:
    name: str
    seconds: float
    stats: dict[str, Stats]
    cpu_client: float
    cpu_server: float
    cpu_postgres: float
    machine_busy: float  # share of all cores
    lag_p99: float | None
    lag_max: float | None
    access: dict[str, tuple[int, float | None, float | None]]  # endpoint -> (n, p50, p99) server-side
    access_ranges: list[tuple[int, int]]  # the phase's bytes of the access log
    stolen: float = 0.0  # share of all cores the hypervisor gave other machines


def access_offset(server: Server) -> int:
    return server.access_log.stat().st_size


def access_stats(server: Server, ranges: list[tuple[int, int]]) -> dict[str, tuple[int, float | None, float | None]]:
    chunks = []
    with server.access_log.open("rb") as f:
        for start, end in ranges:
            f.seek(start)
            chunks.append(f.read(end - start).decode(errors="replace"))
    times: dict[str, list[float]] = defaultdict(list)
    for line in "".join(chunks).splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        method, path, _status, micros = parts
        if method == "POST" and re.fullmatch(r"/matches/\d+/hands/", path):
            name = RECORD
        elif method == "POST" and path == "/bench/baseline/":
            name = BASELINE
        elif method == "GET" and re.fullmatch(r"/tournaments/\d+/standings/", path):
            name = STANDINGS
        elif method == "GET" and re.fullmatch(r"/matches/\d+/changed/", path):
            name = DEVICE_POLL
        elif method == "GET" and re.fullmatch(r"/matches/\d+/", path):
            name = "score sheet GET (spectators in fallback, or a device's resync)"
        else:
            name = f"{method} other"
        times[name].append(int(micros) / 1e6)
    out = {}
    for name, values in times.items():
        values.sort()
        out[name] = (len(values), percentile(values, 0.5), percentile(values, 0.99))
    return out


def cpu_mark(server: Server) -> CpuMark:
    busy, total, stolen = machine_busy()
    return CpuMark(time.process_time(), server.cpu(), postgres_cpu(), busy, total, stolen, time.monotonic())


def phase_result(name: str, seconds: float, rec: Recorder, before: CpuMark, after: CpuMark, lag: list[float],
                 access_range: tuple[int, int], server: Server, endpoints: list[str]) -> PhaseResult:
    wall = after.wall - before.wall
    total = after.total - before.total
    lag.sort()
    return PhaseResult(
        name, seconds, {e: summarize(e, rec.samples.get(e, []), seconds) for e in endpoints},
        (after.client - before.client) / wall, (after.server - before.server) / wall,
        sum(v - before.postgres.get(pid, 0.0) for pid, v in after.postgres.items()) / wall,
        (after.busy - before.busy) / total if total else 0.0,
        percentile(lag, 0.99), lag[-1] if lag else None, access_stats(server, [access_range]), [access_range],
        (after.stolen - before.stolen) / total if total else 0.0,
    )


def combined(parts: list[PhaseResult], rec: Recorder, server: Server) -> PhaseResult:
    """One phase measured in several turns, as one: its requests over the
    turns' total time, CPU shares averaged (the turns are equally long)."""
    seconds = sum(p.seconds for p in parts)
    ranges = [r for p in parts for r in p.access_ranges]

    def mean(attr: str) -> float:
        return sum(getattr(p, attr) for p in parts) / len(parts)

    lags = [p.lag_p99 for p in parts if p.lag_p99 is not None]
    maxima = [p.lag_max for p in parts if p.lag_max is not None]
    return PhaseResult(
        parts[0].name, seconds, {e: summarize(e, rec.samples.get(e, []), seconds) for e in parts[0].stats},
        mean("cpu_client"), mean("cpu_server"), mean("cpu_postgres"), mean("machine_busy"),
        max(lags) if lags else None, max(maxima) if maxima else None, access_stats(server, ranges), ranges,
        mean("stolen"),
    )


async def run_load(args, server: Server, setup: dict) -> dict:
    rng = random.Random(args.seed)
    rec = Recorder(args.max_requests)
    tables = [TableState(i, row["match"], row["token"]) for i, row in enumerate(setup["tables"])]
    if args.spectate == "standings" and setup.get("standings_path"):
        spectate_paths, spectate_note = [setup["standings_path"]], f"public standings page {setup['standings_path']}"
    elif args.spectate.startswith("/"):
        spectate_paths, spectate_note = [args.spectate], f"GET {args.spectate}"
    else:
        spectate_paths = [f"/matches/{t.match_id}/" for t in tables]
        spectate_note = "score sheet GET /matches/<id>/ of a random table" + (
            " (FALLBACK: no tournament standings page)" if args.spectate == "standings" else ""
        )
    results: dict = {"spectate": spectate_note, "phases": [], "notes": []}
    client_class = HttpxClient if args.client == "httpx" else RawClient
    client = client_class(server.base, args.connections, args.timeout)
    try:
        ev = Event(client, rec, rng, tables, spectate_paths, args.timeout)

        # Devices exchange their table's link for a grant cookie (not timed).
        start = time.perf_counter()
        gate = asyncio.Semaphore(min(args.connections, 32))
        second = set(range(math.ceil(len(tables) * SECOND_DEVICE_SHARE)))

        async def enrol(table: TableState):
            async with gate:
                for _ in range(2 if table.index in second else 1):
                    table.devices.append(await exchange_link(client, table.token))
                await resync(ev, table, table.devices[0])  # the sheet the link opens: its version

        await asyncio.gather(*(enrol(t) for t in tables))
        devices = sum(len(t.devices) for t in tables)
        print(f"  {devices} devices exchanged their links: {time.perf_counter() - start:.1f} s", flush=True)

        # Each endpoint alone, one request at a time: the service time.
        print("  each endpoint alone, one request at a time", flush=True)
        results["alone"] = await alone(ev, tables[-1], spectate_paths[0])

        # Phase B: the event.
        print(f"  phase B: event, {len(tables)} tables + {args.spectators} spectators, {args.seconds:.0f} s",
              flush=True)
        loop = asyncio.get_running_loop()
        event_start = loop.time() + 0.5
        round_ends = [FIRST_ROUND_END + k * args.round_every + rng.uniform(-1, 1)
                      for k in range(int(args.seconds // args.round_every) + 1)
                      if FIRST_ROUND_END + k * args.round_every < args.seconds]
        schedules = [table_schedule(rng, args.seconds, round_ends, args.burst_spread) for _ in tables]
        results["scheduled_hands"] = sum(len(s) for s in schedules)
        results["round_ends"] = [round(t, 1) for t in round_ends]
        fixed = spectate_paths[0] if len(spectate_paths) == 1 else None
        tasks = [table_loop(ev, t, event_start, s) for t, s in zip(tables, schedules, strict=True)]
        tasks += [spectator_loop(ev, event_start, event_start + args.seconds, rng.uniform(0, SPECTATOR_EVERY), fixed)
                  for _ in range(args.spectators)]
        if args.device_poll_every:
            tasks += [device_poll_loop(ev, t, d, event_start, event_start + args.seconds, args.device_poll_every,
                                       rng.uniform(0, args.device_poll_every))
                      for t in tables for d in t.devices]
        # A submission still running at the end may finish: its retries are bounded.
        drain = 0.5 + (TIMEOUT_RETRIES + 2) * (args.timeout + 1) + 5

        async def event():
            stopper = asyncio.create_task(stop_after(ev, event_start + args.seconds))
            try:
                await asyncio.wait_for(asyncio.gather(*tasks), args.seconds + drain)
            except TimeoutError:
                results["notes"].append(f"phase B: requests still running {drain:.0f} s after the end were cancelled")
            finally:
                stopper.cancel()

        results["phases"].append(await measured("B", args.seconds, server, rec, [RECORD, STANDINGS, DEVICE_POLL],
                                                event()))
        results["settle"] = {"B": await settle(server)}

        # Phases A (baseline) and C (record-a-hand capacity) at the same
        # concurrency, in turns. This machine's speed drifts (its cores are
        # shared): one baseline run measured 505 to 751 requests/s on the
        # same code, so the two are measured side by side, several times.
        async def baseline_body(_k):
            t0 = time.perf_counter()
            try:
                response = await client.request("POST", "/bench/baseline/")
            except ClientTimeout:
                rec.add(BASELINE, time.perf_counter() - t0, "timeout")
            except ClientError as error:
                rec.add(BASELINE, time.perf_counter() - t0, f"connection error ({error})")
            else:
                ok = response.status == 204
                ev.baseline_acked += ok
                outcome = "ok" if ok else classify_error(ev, response.status, response.text)
                rec.add(BASELINE, time.perf_counter() - t0, outcome)
            return not rec.exhausted

        # Each client takes the table that has waited longest: the hands
        # spread over every table, as at an event, and matches stay as long
        # as real ones (64 tables back to back made them 70 hands long, and
        # the cost of a hand grows with its match).
        free = deque(tables)

        async def capacity_body(_k):
            table = free.popleft()
            try:
                await submit(ev, table, CAPACITY, "single")
            finally:
                free.append(table)
            return not rec.exhausted

        await asyncio.gather(*(resync(ev, t, t.devices[0]) for t in tables if t.uncertain))
        turn = args.baseline_seconds / args.turns
        workers = min(args.connections, len(tables))
        print(f"  phases A and C in turns: baseline, then record-a-hand ({workers} clients, all tables), "
              f"{args.turns} x {turn:.0f} s each", flush=True)
        parts: dict[str, list[PhaseResult]] = {"A": [], "C": []}
        results["turns"] = []  # requests/s of each turn: (baseline, record a hand)
        for _ in range(args.turns):
            rates = []
            for name, endpoint, clients, body in (
                ("A", BASELINE, args.connections, baseline_body),
                ("C", CAPACITY, workers, capacity_body),
            ):
                before = len(rec.samples.get(endpoint, []))
                work = closed_loop(turn, clients, body)
                parts[name].append(await measured(name, turn, server, rec, [endpoint], work))
                rates.append((len(rec.samples.get(endpoint, [])) - before) / turn)
            results["turns"].append(tuple(rates))
        results["phases"] += [combined(parts["A"], rec, server), combined(parts["C"], rec, server)]
        results.update(
            acked=ev.acked, dedup_hits=ev.dedup_hits, baseline_acked=ev.baseline_acked,
            conflict_pairs=dict(ev.conflict_pairs), given_up=ev.given_up, resync_failed=ev.resync_failed,
            unexpected=ev.unexpected, devices=devices,
            changed_banners=ev.changed_banners, error_examples=rec.error_examples, capped=rec.exhausted,
        )
    finally:
        await client.aclose()
    return results


async def alone(ev: Event, table: TableState, spectate_path: str, count: int = 25) -> dict[str, Stats]:
    """Service time without load: ``count`` requests of each kind, one after
    the other (not part of the phases' figures)."""
    times: dict[str, list[tuple[float, str]]] = defaultdict(list)
    sizes: dict[str, int] = {}

    async def timed(name: str, method: str, path: str, headers: dict | None = None, form: dict | None = None,
                    expect: int = 200) -> Reply | None:
        t0 = time.perf_counter()
        try:
            reply = await ev.client.request(method, path, headers, form)
        except (ClientTimeout, ClientError) as error:
            times[name].append((time.perf_counter() - t0, type(error).__name__))
            return None
        times[name].append((time.perf_counter() - t0, "ok" if reply.status == expect else f"HTTP {reply.status}"))
        if name == BASELINE and reply.status == 204:
            ev.baseline_acked += 1
        sizes[name] = reply.wire_size or len(reply.content)
        return reply

    device = table.devices[0]
    for k in range(count):
        await timed(BASELINE, "POST", "/bench/baseline/", expect=204)
        await timed(STANDINGS + " (htmx poll)", "GET", spectate_path, {"HX-Request": "true", **BROWSER})
        await timed(STANDINGS + " (full page)", "GET", spectate_path, BROWSER)
        await timed("score sheet (full page)", "GET", f"/matches/{table.match_id}/",
                    {"Cookie": device.headers["Cookie"]})
        key = uuid.uuid4().hex
        reply = await timed(RECORD, "POST", f"/matches/{table.match_id}/hands/", device.headers,
                            {**random_hand(ev.rng), "number": table.next_number, "client_key": key})
        if reply is not None and reply.status == 200:
            ev.acked.add(key)
            found = NUMBER_RE.search(reply.content)
            table.next_number = int(found.group(1)) if found else table.next_number
        else:
            await resync(ev, table, device)
        if k == 0:
            times.clear()  # warm-up
    return {name: (summarize(name, samples, 1.0), sizes.get(name, 0)) for name, samples in times.items()}


async def settle(server: Server, quiet: float = 1.5, limit: float = 30.0) -> dict:
    """Wait until the server has answered everything it had queued (the
    access log stops growing): the next phase starts on an idle server. If
    it is still busy after ``limit`` s, it is working through requests whose
    clients gave up long ago: restart it (and say how many it answered
    meanwhile)."""
    start = time.monotonic()
    first = size = access_offset(server)
    since = time.monotonic()
    drained = False
    while time.monotonic() - start < limit:
        await asyncio.sleep(0.25)
        now = access_offset(server)
        if now != size:
            size, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            drained = True
            break
    with server.access_log.open("rb") as f:
        f.seek(first)
        answered_late = f.read(size - first).count(b"\n")
    if not drained:
        await asyncio.to_thread(server.restart)
    return {"seconds": time.monotonic() - start, "drained": drained, "answered_late": answered_late}


async def stop_after(ev: Event, at: float) -> None:
    await asyncio.sleep(max(0.0, at - asyncio.get_running_loop().time()))
    ev.stopping = True


async def measured(name: str, seconds: float, server: Server, rec: Recorder, endpoints: list[str], work) -> PhaseResult:
    lag: list[float] = []
    offset = access_offset(server)
    # The client's own garbage collector paused the whole load generator for
    # up to a second once its samples piled up: every request in flight then
    # looked slow. No collection while a phase runs (its garbage is freed
    # by reference counting; the rest waits for the end of the phase).
    gc.collect()
    gc.freeze()
    gc.disable()
    before = cpu_mark(server)
    monitor = asyncio.create_task(lag_monitor(lag, asyncio.get_running_loop().time() + seconds))
    try:
        await work
    finally:
        monitor.cancel()
        gc.enable()
        gc.unfreeze()
    after = cpu_mark(server)
    await asyncio.sleep(0.2)  # let the access log catch up
    return phase_result(name, seconds, rec, before, after, lag, (offset, access_offset(server)), server, endpoints)


# ------------------------------------------------------------ one database


@dataclass
class DbRun:
    label: str
    url: str
    cleanup: list = field(default_factory=list)


def create_database(kind: str, tmp: Path) -> DbRun:
    if kind == "sqlite":
        return DbRun("SQLite", f"sqlite:///{tmp / 'bench.sqlite3'}")
    import psycopg

    name = f"scorekeeper_bench_{os.getpid()}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop():
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return DbRun("PostgreSQL", PG_BENCH_URL.format(name=name), [drop])


def server_env(db_url: str, tmp: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "BEHIND_HTTPS_PROXY")}
    env.update(
        app_settings(),
        DATABASE_URL=db_url,
        DJANGO_SETTINGS_MODULE=SETTINGS_MODULE,
        PYTHONPATH=os.pathsep.join([str(tmp), str(ROOT)]),
    )
    return env


def app_settings() -> dict[str, str]:
    """The app's environment in every benchmark: production's settings (DEBUG
    off, a fresh secret key) on loopback, with the baseline view."""
    return {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "SCOREKEEPER_BENCH_BASELINE": "1",
    }


def server_log_report(log: Path) -> dict:
    text = log.read_text(errors="replace") if log.exists() else ""
    lines = text.splitlines()
    tracebacks, current = [], None
    for line in lines:
        if line.startswith("Traceback (most recent call last)"):
            current = [line]
            tracebacks.append(current)
        elif current is not None:
            current.append(line)
            if line and not line.startswith((" ", "Traceback", "During handling", "The above exception")):
                current = None
    last_lines = Counter(tb[-1] for tb in tracebacks)
    slow = defaultdict(list)
    for line in lines:
        found = re.match(r"SLOW QUERY (\d+) ms pid=\d+: (.*)", line)
        if found:
            slow[found.group(2)[:120]].append(int(found.group(1)))
    return {
        "tracebacks": len(tracebacks),
        "exceptions": last_lines.most_common(8),
        "first_traceback": "\n".join(tracebacks[0][-40:]) if tracebacks else "",
        "locked": text.count("database is locked"),
        "worker_timeouts": text.count("WORKER TIMEOUT"),
        "server_errors": sum(1 for line in lines if "Internal Server Error" in line),
        "csrf": sum(1 for line in lines if "Forbidden (CSRF" in line),
        "slow": sorted(((len(v), max(v), sql) for sql, v in slow.items()), reverse=True)[:10],
        "slow_total": sum(len(v) for v in slow.values()),
    }


def check_hands(verify: dict, acked: set[str]) -> dict:
    rows = verify["hands"]
    stored_keys = [key for _m, _n, key in rows]
    counts = Counter(stored_keys)
    stored = set(stored_keys)
    by_match: dict[int, list[int]] = defaultdict(list)
    for match_id, number, _key in rows:
        by_match[match_id].append(number)
    gaps = sum(1 for numbers in by_match.values() if sorted(numbers) != list(range(1, len(numbers) + 1)))
    played = dict(verify["hands_played"])
    mismatched = sum(1 for m, n in played.items() if n != len(by_match.get(m, [])))
    return {
        "stored": len(rows),
        "acked": len(acked),
        "lost": len(acked - stored),
        "duplicated": sum(n - 1 for n in counts.values() if n > 1) + counts.get(None, 0),
        "unacked_stored": len(stored - acked - {None}),
        "gaps": gaps,
        "hands_played_mismatch": mismatched,
        "audit_events": verify["hand_audits"],
    }


def wait_quiet(seconds: float) -> float:
    """The machine's load now; with --wait-quiet, first wait (up to that long)
    until other processes leave at least 80 % of the cores idle."""
    load = machine_load()
    deadline = time.monotonic() + seconds
    while load > 0.2 and time.monotonic() < deadline:
        print(f"  machine busy {load:.0%}: waiting for it to quieten", flush=True)
        time.sleep(8)
        load = machine_load()
    if load > 0.2:
        print(f"  WARNING: the machine is {load:.0%} busy with other processes: figures will be lower", flush=True)
    return load


def run_database(kind: str, args) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix=f"scorekeeper-bench-{kind}-"))
    db = None
    server = None
    log = tmp / "setup.log"
    print(f"\n=== {kind}: working folder {tmp}", flush=True)
    try:
        db = create_database(kind, tmp)
        (tmp / f"{SETTINGS_MODULE}.py").write_text(
            SETTINGS_TEXT.format(static_root=str(tmp / "static"), slow_ms=SLOW_QUERY_MS)
        )
        env = server_env(db.url, tmp)
        run_child([PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], env, "migrate", log)
        run_child([PYTHON, "manage.py", "collectstatic", "--noinput", "-v", "0"], env, "collectstatic", log)
        setup_path = tmp / "setup.json"
        run_child([PYTHON, str(Path(__file__).resolve()), "_setup", str(setup_path), str(args.tables)], env,
                  f"fixtures ({args.tables} tables)", log)
        setup = json.loads(setup_path.read_text())
        load_before = wait_quiet(args.wait_quiet)
        workers = args.workers or WORKERS[kind]
        server = Server(env, tmp, workers, args.threads)
        server.wait_ready()
        print(f"  gunicorn on {server.base}: {workers} workers x {args.threads} threads", flush=True)
        results = asyncio.run(run_load(args, server, setup))
        server.stop()
        verify_path = tmp / "verify.json"
        run_child([PYTHON, str(Path(__file__).resolve()), "_verify", str(verify_path)], env, "verify", log)
        verify = json.loads(verify_path.read_text())
        results["hands"] = check_hands(verify, results.pop("acked"))
        results["workers"] = workers
        results["baseline_rows"] = verify["baseline_rows"]
        results["server_log"] = server_log_report(server.log)
        results["label"] = db.label
        results["load_before"] = load_before
        results["kind"] = kind
        return results
    finally:
        if server is not None:
            server.stop()
        for step in db.cleanup if db else []:
            try:
                step()
            except Exception as error:  # noqa: BLE001 - report and go on cleaning
                print(f"  cleanup failed: {error!r}", file=sys.stderr)
        if args.keep:
            print(f"  kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


# ------------------------------------------------------------ report


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.0f}"


def mark(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def report(r: dict, args) -> tuple[list[str], bool]:
    phases = {p.name: p for p in r["phases"]}
    a, b, c = phases["A"], phases["B"], phases["C"]
    base, rec, stand, cap = a.stats[BASELINE], b.stats[RECORD], b.stats[STANDINGS], c.stats[CAPACITY]
    polls = b.stats[DEVICE_POLL]
    out = [
        "",
        f"=== {r['label']}: gunicorn {r['workers']} workers x {args.threads} threads; {args.tables} tables "
        f"({r['devices']} devices), {args.spectators} spectators; client: {args.client}, {args.connections} "
        f"connections, timeout {args.timeout:.0f} s; rounds end every {args.round_every:.0f} s, burst over "
        f"{args.burst_spread:.0f} s",
        f"    spectators watch: {r['spectate']}",
        "",
        f"{'phase / endpoint':<32}{'requests':>9}{'req/s':>8}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'errors':>8}"
        f"{'409 ok':>8}{'x base':>8}",
    ]
    for phase, stats in (("A", base), ("B", rec), ("B", stand), ("B", polls), ("C", cap)):
        ratio = stats.rate / base.rate if base.rate else 0.0
        out.append(
            f"{phase + '  ' + stats.endpoint:<32}{stats.requests:>9}{stats.rate:>8.1f}{ms(stats.p50):>8}"
            f"{ms(stats.p95):>8}{ms(stats.p99):>8}{stats.errors:>8}{stats.conflicts:>8}{ratio:>8.2f}"
        )
    out.append(
        "A and C in turns, requests/s (baseline, record a hand, ratio): "
        + "; ".join(f"{a_rate:.0f}, {c_rate:.0f}, {c_rate / a_rate:.0%}" for a_rate, c_rate in r["turns"] if a_rate)
    )
    out.append("")
    cores = os.cpu_count() or 1
    out.append("each endpoint alone (one request at a time, no other load; capacity if it used every core):")
    for name, (st, size) in r["alone"].items():
        capacity = cores / st.p50 if st.p50 else 0.0
        bad = {o: n for o, n in st.outcomes.items() if o != "ok"}
        out.append(f"  {name:<30} p50 {ms(st.p50):>5} ms  p95 {ms(st.p95):>5} ms  {size / 1000:>6.1f} kB"
                   f"  -> at most ~{capacity:.0f}/s" + (f"  NOT OK: {bad}" if bad else ""))
    if args.spectators:
        poll, _size = r["alone"].get(STANDINGS + " (htmx poll)", (None, 0))
        if poll and poll.p50:
            rate = args.spectators / SPECTATOR_EVERY
            out.append(f"  {args.spectators} spectators polling every {SPECTATOR_EVERY:.0f} s: {rate:.0f} polls/s "
                       f"x {ms(poll.p50)} ms = {rate * poll.p50:.1f} cores of standings work alone ({cores} here)")
    for phase, st in r["settle"].items():
        out.append(
            f"after phase {phase}: the server answered {st['answered_late']} more requests in {st['seconds']:.0f} s"
            + ("" if st["drained"] else "; still busy with requests whose clients had given up: RESTARTED")
        )
    out.append("server side (gunicorn access log, time in the app): " + "; ".join(
        f"{p.name} {name} n={n} p50 {ms(p50)} p99 {ms(p99)} ms"
        for p in (a, b, c) for name, (n, p50, p99) in sorted(p.access.items())
    ))
    out.append(f"machine busy before the run (other processes): {r['load_before']:.0%} of {cores} cores")
    for p in (a, b, c):
        other = max(0.0, (p.machine_busy - p.stolen) * cores - p.cpu_client - p.cpu_server - p.cpu_postgres)
        out.append(f"CPU phase {p.name} (cores): client {p.cpu_client:.2f}, gunicorn {p.cpu_server:.2f}, "
                   f"postgres {p.cpu_postgres:.2f}, everything else {other:.2f}, taken by the hypervisor "
                   f"{p.stolen * cores:.2f}; machine busy {p.machine_busy:.0%} of {cores}; client loop lag p99 "
                   f"{ms(p.lag_p99)} ms, max {ms(p.lag_max)} ms")
    stolen = max(a.stolen, b.stolen, c.stolen)
    if stolen > STOLEN_WARNING:
        out.append(f"WARNING: the hypervisor gave {stolen:.0%} of this machine's cores to other machines during a "
                   f"phase: these figures are not the app's own; run again when the machine is quiet")
    for stats in (base, rec, stand, polls, cap):
        errs = {o: n for o, n in stats.outcomes.items() if o not in NOT_ERRORS}
        if errs:
            out.append(f"errors, {stats.endpoint}: {errs}")
        if stats.outcomes.get(STALE):
            out.append(f"{stats.endpoint}: {stats.outcomes[STALE]} x {STALE} (not counted again as errors)")
    for outcome, example in r["error_examples"].items():
        out.append(f"  first {outcome}: {example[:300]}")
    h = r["hands"]
    out.append(
        f"hands: scheduled in the event {r['scheduled_hands']}; "
        f"acknowledged (unique client keys with 200) {h['acked']}; "
        f"stored {h['stored']}; lost {h['lost']}; duplicated {h['duplicated']}; stored but never acknowledged "
        f"{h['unacked_stored']}; matches with gaps {h['gaps']}; hands_played mismatches {h['hands_played_mismatch']}; "
        f"'hand recorded' audit events {h['audit_events']}"
    )
    out.append(
        f"retries: {r['dedup_hits']} answered 'already saved' (double taps and resubmissions, nothing written); "
        f"two devices at once: {r['conflict_pairs']}; submissions given up after {TIMEOUT_RETRIES} retries: "
        f"{r['given_up']}; sheet reads (resync) without an answer: {r['resync_failed']}; device polls answered "
        f"'another device changed it': {r['changed_banners']} (the other device at a table saved, or a poll crossed "
        f"its own save)"
    )
    out.append(f"baseline rows: {r['baseline_rows']} stored, {r.get('baseline_acked', 0)} answered 204")
    for line in r["unexpected"][:10]:
        out.append(f"unexpected: {line}")
    s = r["server_log"]
    out.append(
        f"server log: {s['tracebacks']} tracebacks, {s['server_errors']} 'Internal Server Error', {s['locked']} "
        f"'database is locked', {s['worker_timeouts']} worker timeouts, {s['csrf']} CSRF refusals, "
        f"{s['slow_total']} queries >= {SLOW_QUERY_MS} ms"
    )
    for last, n in s["exceptions"]:
        out.append(f"  {n} x {last}")
    for n, worst, sql in s["slow"][:6]:
        out.append(f"  slow: {n} x (max {worst} ms) {sql}")
    if s["first_traceback"]:
        out.append("  first traceback:\n    " + s["first_traceback"].replace("\n", "\n    "))
    for note in r["notes"]:
        out.append(f"NOTE: {note}")
    if r.get("capped"):
        out.append(f"NOTE: the request cap --max-requests {args.max_requests} was reached")

    capacity_ratio = cap.rate / base.rate if base.rate else 0.0
    event_ratio = rec.rate / base.rate if base.rate else 0.0
    lost_ok = h["lost"] == 0 and h["duplicated"] == 0 and h["stored"] == h["acked"]
    targets = [
        (rec.errors == 0 and stand.errors == 0 and polls.errors == 0 and cap.errors == 0 and not r["unexpected"],
         f"zero errors: record a hand {rec.errors} (capacity phase {cap.errors}), standings {stand.errors}, "
         f"device polls {polls.errors}, unexpected outcomes {len(r['unexpected'])}"),
        (lost_ok, f"zero lost hands: stored {h['stored']} = acknowledged {h['acked']} (lost {h['lost']}, "
                  f"duplicated {h['duplicated']}, stored unacknowledged {h['unacked_stored']})"),
        (rec.p99 is not None and rec.p99 * 1000 < TARGET_RECORD_P99_MS,
         f"record a hand p99 < {TARGET_RECORD_P99_MS} ms: {ms(rec.p99)} ms"),
        (capacity_ratio >= TARGET_RATIO,
         f"record a hand throughput >= {TARGET_RATIO:.0%} of the baseline: capacity {cap.rate:.1f}/s = "
         f"{capacity_ratio:.0%} of {base.rate:.1f}/s (event phase {rec.rate:.1f}/s = {event_ratio:.0%}: the offered "
         f"load)"),
        (stand.p99 is not None and stand.p99 * 1000 < TARGET_STANDINGS_P99_MS,
         f"standings p99 < {TARGET_STANDINGS_P99_MS} ms: {ms(stand.p99)} ms"),
    ]
    out.append("targets:")
    out += [f"  [{mark(ok)}] {text}" for ok, text in targets]
    return out, all(ok for ok, _ in targets)


def summary_row(r: dict) -> dict:
    phases = {p.name: p for p in r["phases"]}
    return {
        "database": r["label"],
        "baseline": vars(phases["A"].stats[BASELINE]),
        "record": vars(phases["B"].stats[RECORD]),
        "standings": vars(phases["B"].stats[STANDINGS]),
        "device_polls": vars(phases["B"].stats[DEVICE_POLL]),
        "capacity": vars(phases["C"].stats[CAPACITY]),
        "hands": r["hands"],
        "server_log": {k: v for k, v in r["server_log"].items() if k != "first_traceback"},
        "alone": {name: {**vars(st), "bytes": size} for name, (st, size) in r["alone"].items()},
        "cpu": {p.name: {"client": p.cpu_client, "gunicorn": p.cpu_server, "postgres": p.cpu_postgres,
                         "machine": p.machine_busy, "stolen": p.stolen} for p in r["phases"]},
        "load_before": r["load_before"],
    }


# ------------------------------------------------------------ main


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=60, help="length of the event (phase B), default 60")
    p.add_argument("--tables", type=int, default=500, help="tables (2 players each), default 500")
    p.add_argument("--spectators", type=int, default=500, help="spectators polling every 5 s, default 500")
    p.add_argument("--device-poll-every", type=float, default=DEVICE_POLL_EVERY,
                   help="s between an open sheet's 'changed?' polls on each table device, default 8 (as the page); "
                        "0: no device polls")
    p.add_argument("--workers", type=int, help="gunicorn workers, default 5 on SQLite and 4 on PostgreSQL (README)")
    p.add_argument("--threads", type=int, default=1,
                   help="threads per gunicorn worker, default 1 (gunicorn's sync worker; more: gthread)")
    p.add_argument("--only", choices=("sqlite", "postgres"), help="run one database only")
    p.add_argument("--round-every", type=float, default=ROUND_EVERY,
                   help=f"s between round ends, default {ROUND_EVERY:.0f}")
    p.add_argument("--burst-spread", type=float, default=BURST_SPREAD,
                   help=f"every table submits within this many s after a round end, default {BURST_SPREAD:.0f}")
    p.add_argument("--connections", type=int, default=64,
                   help="client connection limit; also the concurrency of phases A and C (default 64)")
    p.add_argument("--baseline-seconds", type=float, default=20,
                   help="length of phase A and of phase C (each, in all their turns), default 20")
    p.add_argument("--turns", type=int, default=4, help="turns of phases A and C, one after the other, default 4")
    p.add_argument("--timeout", type=float, default=10, help="per-request timeout in s, default 10")
    p.add_argument("--client", choices=("raw", "httpx"), default="raw",
                   help="HTTP client of the load: a lean asyncio one (default) or httpx.AsyncClient")
    p.add_argument("--spectate", default="standings",
                   help="what spectators poll: 'standings' (the tournament's public page; falls back to 'sheet' "
                        "if there is none), 'sheet' (GET /matches/<id>/ of random tables) or a path")
    p.add_argument("--max-requests", type=int, default=300_000, help="hard cap on requests per database")
    p.add_argument("--seed", type=int, default=1, help="random seed of the schedule")
    p.add_argument("--json", help="also write the figures to this JSON file")
    p.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS",
                   help="before each run wait up to this long for other processes to leave the cores idle")
    p.add_argument("--keep", action="store_true", help="keep the temp folder (logs) of each run")
    args = p.parse_args(argv)
    if args.tables < 1 or args.spectators < 0 or args.seconds <= 0 or args.connections < 1:
        p.error("--tables and --connections must be >= 1, --spectators >= 0, --seconds > 0")
    if args.round_every <= 0 or args.burst_spread < 0:
        p.error("--round-every must be > 0 and --burst-spread >= 0")
    if args.device_poll_every < 0:
        p.error("--device-poll-every must be >= 0")
    if not (args.spectate in ("standings", "sheet") or args.spectate.startswith("/")):
        p.error("--spectate: standings, sheet or a path starting with /")
    return args


def main(argv: list[str]) -> int:
    if argv[:1] == ["_setup"]:
        child_setup(argv[1], int(argv[2]))
        return 0
    if argv[:1] == ["_verify"]:
        child_verify(argv[1])
        return 0
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the cleanups
    kinds = [args.only] if args.only else ["sqlite", "postgres"]
    all_ok, summaries, printed = True, [], []
    started = time.perf_counter()
    for kind in kinds:
        result = run_database(kind, args)
        lines, ok = report(result, args)
        print("\n".join(lines), flush=True)
        printed.append(lines)
        all_ok &= ok
        summaries.append(summary_row(result))
    if len(printed) > 1:
        print("\n" + "\n\n".join("\n".join(lines) for lines in printed))
    print(f"\ntotal time {time.perf_counter() - started:.0f} s; all targets {'met' if all_ok else 'NOT met'}")
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "results": summaries}, indent=2, default=str))
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
