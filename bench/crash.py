"""Crash test: hands keep being submitted while gunicorn processes are
SIGKILLed at random moments; afterwards every acknowledged hand must be in
the database exactly once, numbered without gaps, with the cached totals
equal to the engine's, and (SQLite) the file must pass PRAGMA integrity_check.

Run (from the project folder):

    .venv/bin/python bench/crash.py --seconds 60 --kills 10
    .venv/bin/python bench/crash.py --seconds 60 --kills 10 \\
        --database-url postgres://postgres@127.0.0.1:5432/scorekeeper_crash_1

What it does:

1. Creates a fresh database: by default a SQLite file in a new temp folder
   (DATABASE_URL=sqlite:////tmp/.../crash.sqlite3); with --database-url
   postgres://.../<name> it creates that database with psycopg (refusing if
   it already exists) and drops it at the end. Migrates it, collects the
   static files into the temp folder (whitenoise's manifest storage needs
   them with DEBUG off) through a temp settings module (``from
   config.settings import *`` plus STATIC_ROOT and a server-error log); the
   project's files are not touched.
2. Creates an organiser and a Spades match with a target of 10**9 (it never
   ends) through ``manage.py shell``.
3. Starts ``gunicorn config.wsgi -w 2`` on a free loopback port with the
   benchmarks' environment (bench/environment.py: DEBUG=0, a fresh
   SECRET_KEY, SECURE_SSL_REDIRECT=0, loopback hosts) and the app's own
   database settings (SQLite through Django's backend: IMMEDIATE
   transactions, WAL, synchronous=FULL), logs in through the login form
   (CSRF token from the login page, session cookie).
4. For --seconds, --clients threads submit hands back to back on the one
   match, as the sheet does with htmx: the bids and tricks with the entry
   form's hidden fields (the hand number, bidding "none", a one-time
   client_key), the CSRF header and the session cookie. Every answer,
   saved or refused, carries the sheet's entry form, whose hand number
   the next submission uses. A submission is sent again, the same key and
   hand, until it is acknowledged (200 "saved."): after a connection
   error (the worker was killed; stored or not, the key makes it safe: a
   stored key answers "was already saved.") and after a 409 "already
   saved from another device" (another client took that number; a stored
   key would have answered 200, so it is not stored) under the number the
   answer offers. Nobody saves bids, so a 409 for changed bids, or any
   other answer, is a failure. When time is up no new hand is started;
   the one under way is sent again for up to 30 s until it is
   acknowledged (one still unacknowledged is reported as in doubt: stored
   or not, but never twice).
5. Meanwhile a killer thread sends SIGKILL --kills times at random moments
   (each waits for a hand POST to be in flight, then a few random ms, so
   kills land before, inside and after the write's transaction): mostly to
   gunicorn workers, one or (half the time) both at once (the master starts
   new ones), one time in four to
   the master (its orphaned workers are then waited for, and gunicorn is
   started again on the same port).
6. Stops gunicorn and checks the database directly (sqlite3 / psycopg).

Prints: submissions tried (HTTP POSTs and logical submissions),
acknowledged, stored, lost (acknowledged but not stored: must be 0),
duplicated (a key or a hand number stored twice: must be 0), in doubt,
gaps, totals check, kills (workers / master), server errors, and the
integrity check. Exit status 1 if a check fails.

Bounded: a fixed duration, a cap on requests (--max-requests), a timeout on
every request; loopback only; every process it started is stopped (by its
pid) at the end, also on Ctrl-C; the temp folder is removed (--keep keeps
it, with the gunicorn log).
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
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.environment import environment  # noqa: E402
from scorekeeper.scoring import score_match  # noqa: E402  (pure Python, no Django)

PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
TARGET = 10**9
PLAYERS = ["Ann", "Bob"]
REQUEST_TIMEOUT = 15.0
SETTLE = 30.0  # seconds after the end for the submissions under way to be acknowledged
NO_BIDDING = "none"  # the entry form's "bidding" when no bids are in force (scorekeeper.matches.forms)

SETTINGS_TEMPLATE = """\
from config.settings import *  # noqa: F401,F403

STATIC_ROOT = {static_root!r}
LOGGING = {{
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {{"file": {{"class": "logging.FileHandler", "filename": {log!r}}}}},
    "loggers": {{"django.request": {{"handlers": ["file"], "level": "ERROR"}}}},
}}
"""


# ---------------------------------------------------------------- the setup


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(cmd: list, env: dict, what: str) -> str:
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise SystemExit(f"{what} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def create_postgres(url: str) -> None:
    import psycopg
    from psycopg import sql

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,62}", name):
        raise SystemExit(f"not a plain database name: {name!r}")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            raise SystemExit(f"database {name} already exists; give the name of a fresh one")
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_postgres(url: str) -> None:
    import psycopg
    from psycopg import sql

    parsed = urlparse(url)
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(parsed.path.lstrip("/"))))


SHELL_SETUP = """
import os
from django.contrib.auth import get_user_model
from scorekeeper.audit import Actor
from scorekeeper.matches.services import start_match
user = get_user_model().objects.create_user(username="crash", password=os.environ["CRASH_PASSWORD"])
match = start_match(
    game="spades", player_names={players!r}, options={{"target": {target}}}, actor=Actor.organiser(user)
)
print("MATCH", match.pk)
"""


# ----------------------------------------------------------------- gunicorn


class Server:
    """gunicorn, started and restarted; every pid it ever had is remembered
    so that all of them can be stopped at the end."""

    def __init__(self, env: dict, port: int, log: Path):
        self.env, self.port, self.log = env, port, log
        self.proc: subprocess.Popen | None = None
        self.pids_seen: set[int] = set()
        self.lock = threading.Lock()

    def start(self) -> None:
        cmd = [
            str(GUNICORN),
            "config.wsgi",
            "-w",
            "2",
            "-b",
            f"127.0.0.1:{self.port}",
            "--timeout",
            "30",
            "--error-logfile",
            str(self.log),
            "--log-level",
            "warning",
        ]
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        self.pids_seen.add(self.proc.pid)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}; see {self.log}")
            try:
                status, _h, _b = request("GET", self.port, "/login/", timeout=2)
                if status == 200 and len(self.workers()) == 2:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("gunicorn did not come up")

    def workers(self) -> list[int]:
        if self.proc is None:
            return []
        pids = children(self.proc.pid)
        self.pids_seen.update(pids)
        return pids

    def kill_workers(self, rng: random.Random) -> int:
        """SIGKILL one worker, or (half the time) all of them at once."""
        with self.lock:
            pids = self.workers()
            victims = pids if rng.random() < 0.5 else rng.sample(pids, k=min(1, len(pids)))
            for pid in victims:
                os.kill(pid, signal.SIGKILL)
            return len(victims)

    def kill_master(self) -> None:
        with self.lock:
            orphans = self.workers()
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
            # The orphaned workers notice their master is gone and exit;
            # they must, before a new gunicorn can listen on the port.
            deadline = time.monotonic() + 15
            while any(alive(p) for p in orphans) and time.monotonic() < deadline:
                time.sleep(0.1)
            for pid in orphans:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
            self.start()

    def stop(self) -> None:
        with self.lock:
            if self.proc is not None and self.proc.poll() is None:
                self.workers()
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(20)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(5)
            deadline = time.monotonic() + 10
            while any(alive(p) for p in self.pids_seen) and time.monotonic() < deadline:
                time.sleep(0.1)
            for pid in self.pids_seen:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)


def children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
        return [int(p) for p in text.split()]
    except OSError:
        pass
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# ------------------------------------------------------------------ clients


def request(
    method: str,
    port: int,
    path: str,
    body: dict | None = None,
    cookies: dict | None = None,
    timeout: float = REQUEST_TIMEOUT,
    htmx: bool = False,
) -> tuple[int, list[tuple[str, str]], str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Host": f"127.0.0.1:{port}"}
        if htmx:
            headers["HX-Request"] = "true"
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
            if "csrftoken" in cookies:
                headers["X-CSRFToken"] = cookies["csrftoken"]
        data = None
        if body is not None:
            data = urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        return response.status, response.getheaders(), response.read().decode("utf-8", "replace")
    finally:
        conn.close()


def set_cookies(headers) -> dict[str, str]:
    found = {}
    for name, value in headers:
        if name.lower() == "set-cookie":
            key, rest = value.split("=", 1)
            found[key.strip()] = rest.split(";", 1)[0].strip().strip('"')
    return found


def log_in(port: int, password: str) -> dict[str, str]:
    status, headers, page = request("GET", port, "/login/")
    cookies = set_cookies(headers)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    body = {"username": "crash", "password": password, "csrfmiddlewaretoken": token}
    status, headers, _page = request("POST", port, "/login/", body, cookies)
    if status != 302:
        raise RuntimeError(f"login failed: {status}")
    cookies.update(set_cookies(headers))
    assert "sessionid" in cookies
    return {k: cookies[k] for k in ("sessionid", "csrftoken")}


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    posts: int = 0
    submissions: int = 0
    acknowledged: dict = field(default_factory=dict)  # client_key -> entry
    in_doubt: dict = field(default_factory=dict)  # client_key -> entry, never acknowledged
    in_flight: int = 0  # hand POSTs sent and not yet answered
    saved_before_cut: int = 0  # retries after a cut connection answered "was already saved."
    cut_off: set = field(default_factory=set)  # keys whose last try got no answer (stored or not)
    conflicts: int = 0
    connection_errors: int = 0
    server_errors: list = field(default_factory=list)  # (status, first line)
    other_answers: list = field(default_factory=list)  # any other answer: none is expected


def random_hand(rng: random.Random) -> dict:
    tricks = rng.randint(0, 13)
    return {"bids": [rng.randint(1, 6), rng.randint(1, 6)], "tricks": [tricks, 13 - tricks]}


def offered_number(page: str) -> int | None:
    """The hand number in the entry form of a sheet or of a write's answer."""
    found = re.search(r'name="number" value="(\d+)"', page)
    return int(found.group(1)) if found else None


def first_line(page: str) -> str:
    banner = re.search(r'class="banner banner-error"[^>]*>([^<]*)', page)
    return banner.group(1).strip() if banner else (page.strip().splitlines() or [""])[0][:200]


def client(seed: int, port: int, match_id: int, cookies: dict, stop_at: float, tally: Tally, max_posts: int) -> None:
    """Submits hands as the sheet does with htmx, until ``stop_at``; the one
    under way then is sent again (same key) for up to SETTLE seconds more
    until it is acknowledged. Each answer (saved or refused) carries the
    sheet's entry form, so the next hand number comes from it."""
    rng = random.Random(seed)
    number = None
    while time.monotonic() < stop_at:
        key, entry = uuid.uuid4().hex, random_hand(rng)
        with tally.lock:
            tally.submissions += 1
            tally.in_doubt[key] = entry
        while key in tally.in_doubt and time.monotonic() < stop_at + SETTLE:
            if number is None:  # the first hand, or after an answer without a form
                try:
                    status, _h, page = request("GET", port, f"/matches/{match_id}/", cookies=cookies)
                    number = offered_number(page) if status == 200 else None
                except (OSError, http.client.HTTPException):
                    pass
                if number is None:
                    time.sleep(0.05)
                    continue
            with tally.lock:
                if tally.posts >= max_posts:
                    return
                tally.posts += 1
                tally.in_flight += 1
            body = {
                "bids_0": entry["bids"][0],
                "bids_1": entry["bids"][1],
                "tricks_0": entry["tricks"][0],
                "tricks_1": entry["tricks"][1],
                "number": number,
                "bidding": NO_BIDDING,  # nobody saves bids here, so none are ever in force
                "client_key": key,
            }
            try:
                status, _h, page = request("POST", port, f"/matches/{match_id}/hands/", body, cookies, htmx=True)
            except (OSError, http.client.HTTPException):
                # The worker died: stored or not, the one-time key makes the same submission safe to repeat.
                with tally.lock:
                    tally.in_flight -= 1
                    tally.connection_errors += 1
                    tally.cut_off.add(key)
                time.sleep(0.05)
                continue
            with tally.lock:
                tally.in_flight -= 1
                if status == 200 and "saved." in page:
                    if "was already saved." in page:  # stored before the cut: the key answered
                        tally.saved_before_cut += 1
                    tally.acknowledged[key] = tally.in_doubt.pop(key)
                    tally.cut_off.discard(key)
                elif status == 409 and "already saved from another device" in page:
                    # Another client took this number. A repeated key would have answered 200, so this
                    # key is not stored: the same hand goes again under the number the answer offers.
                    tally.conflicts += 1
                    tally.cut_off.discard(key)
                else:
                    (tally.server_errors if status >= 500 else tally.other_answers).append((status, first_line(page)))
            number = offered_number(page)
            if status not in (200, 409):
                time.sleep(0.05)


def killer(
    server: Server,
    kills: int,
    start: float,
    seconds: float,
    rng: random.Random,
    counts: dict,
    stop: threading.Event,
    tally: Tally,
) -> None:
    """At random moments; each kill waits (up to 1 s) for a hand POST to be
    in flight and then a random few milliseconds more, so that kills land
    before, inside and after the write's transaction."""
    moments = sorted(rng.uniform(2, max(2.5, seconds - 3)) for _ in range(kills))
    masters = set(rng.sample(range(kills), k=max(1, kills // 4))) if kills >= 2 else set()
    for i, moment in enumerate(moments):
        while time.monotonic() < start + moment:
            if stop.wait(0.05):
                return
        waited = time.monotonic()
        while tally.in_flight == 0 and time.monotonic() - waited < 1 and not stop.is_set():
            time.sleep(0.002)
        time.sleep(rng.uniform(0, 0.03))
        if tally.in_flight:
            counts["in_flight"] += 1
        try:
            if i in masters:
                server.kill_master()
                counts["master"] += 1
            else:
                counts["worker"] += 1
                counts["workers_killed"] += server.kill_workers(rng)
        except (OSError, RuntimeError) as error:
            counts["errors"].append(repr(error))


# ---------------------------------------------------------------- the check


def read_back(database_url: str, sqlite_path: Path | None, match_id: int) -> dict:
    if sqlite_path is not None:
        conn = sqlite3.connect(sqlite_path)
        try:
            hands = conn.execute(
                "SELECT number, client_key, entry FROM scorekeeper_hand WHERE match_id = ? ORDER BY id", [match_id]
            ).fetchall()
            match = conn.execute(
                "SELECT totals, hands_played FROM scorekeeper_match WHERE id = ?", [match_id]
            ).fetchone()
            audits = conn.execute(
                "SELECT hand_number FROM scorekeeper_auditevent WHERE match_id = ? AND action = 'hand recorded'",
                [match_id],
            ).fetchall()
            integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            conn.close()
        hands = [(n, k, json.loads(e)) for n, k, e in hands]
        totals, hands_played = json.loads(match[0]), match[1]
    else:
        import psycopg

        with psycopg.connect(database_url) as conn:
            hands = conn.execute(
                "SELECT number, client_key, entry FROM scorekeeper_hand WHERE match_id = %s ORDER BY id", [match_id]
            ).fetchall()
            totals, hands_played = conn.execute(
                "SELECT totals, hands_played FROM scorekeeper_match WHERE id = %s", [match_id]
            ).fetchone()
            audits = conn.execute(
                "SELECT hand_number FROM scorekeeper_auditevent WHERE match_id = %s AND action = 'hand recorded'",
                [match_id],
            ).fetchall()
        integrity = "n/a (PostgreSQL)"
    return {
        "hands": hands,
        "totals": totals,
        "hands_played": hands_played,
        "audits": sorted(a[0] for a in audits),
        "integrity": integrity,
    }


def check(stored: dict, tally: Tally) -> tuple[dict, list[str]]:
    hands = stored["hands"]
    by_key: dict = {}
    for number, key, entry in hands:
        by_key.setdefault(key, []).append((number, entry))
    numbers = sorted(n for n, _k, _e in hands)
    lost = [k for k in tally.acknowledged if k not in by_key]
    sent = {**tally.in_doubt, **tally.acknowledged}
    wrong = [k for k, e in sent.items() if k in by_key and by_key[k][0][1] != e]
    dup_keys = [k for k, rows in by_key.items() if len(rows) > 1]
    dup_numbers = len(numbers) - len(set(numbers))
    unknown = [k for k in by_key if k not in tally.acknowledged and k not in tally.in_doubt]
    doubt_stored = [k for k in tally.in_doubt if k in by_key]
    unknown += [k for k in doubt_stored if k not in tally.cut_off]  # refused with 409 or never sent, yet stored
    gaps = numbers != list(range(1, len(numbers) + 1))
    entries = [e for _n, _k, e in sorted(hands, key=lambda h: h[0])]
    result = score_match({"game": "spades", "players": PLAYERS, "options": {"target": TARGET}, "hands": entries})
    totals_ok = stored["totals"] == result["totals"] and stored["hands_played"] == len(entries)
    audits_ok = stored["audits"] == numbers
    figures = {
        "stored": len(hands),
        "lost": len(lost),
        "wrong entry": len(wrong),
        "duplicated": len(dup_keys) + dup_numbers,
        "stored but should not be (unknown key, or refused/never sent)": len(unknown),
        "unacknowledged when time was up": len(tally.in_doubt),
        "  of which in doubt (last try got no answer)": len(tally.cut_off & set(tally.in_doubt)),
        "  of which stored": len(doubt_stored),
        "hand numbers 1..N without gaps": not gaps,
        "cached totals == score_match": totals_ok,
        "one 'hand recorded' audit event per hand": audits_ok,
        "integrity_check": stored["integrity"],
    }
    problems = []
    if lost or wrong or dup_keys or dup_numbers or unknown or gaps or not totals_ok or not audits_ok:
        problems.append("stored hands do not match the acknowledged ones")
    if stored["integrity"] not in ("ok", "n/a (PostgreSQL)"):
        problems.append(f"integrity_check: {stored['integrity']}")
    return figures, problems


# --------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--database-url", default=None, help="postgres://.../<fresh name>; default: a temp SQLite")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the temp folder (logs, SQLite file)")
    args = parser.parse_args()
    if not 1 <= args.seconds <= 600 or not 0 <= args.kills <= 100 or not 1 <= args.clients <= 16:
        parser.error("keep it bounded: --seconds 1..600, --kills 0..100, --clients 1..16")
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    rng = random.Random(seed)

    tmp = Path(tempfile.mkdtemp(prefix="scorekeeper-crash-"))
    postgres = args.database_url is not None
    if postgres and not args.database_url.startswith(("postgres://", "postgresql://")):
        parser.error("--database-url must be a postgres:// URL")
    if postgres and urlparse(args.database_url).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("loopback only")
    sqlite_path = None if postgres else tmp / "crash.sqlite3"
    database_url = args.database_url if postgres else f"sqlite:///{sqlite_path}"
    (tmp / "crash_settings.py").write_text(
        SETTINGS_TEMPLATE.format(static_root=str(tmp / "static"), log=str(tmp / "django-errors.log"))
    )
    password = secrets.token_urlsafe(16)
    env = {
        **os.environ,
        **environment("crash_settings"),
        "PYTHONPATH": os.pathsep.join([str(tmp), str(ROOT)]),
        "DATABASE_URL": database_url,
        "CRASH_PASSWORD": password,
    }
    server = None
    created_db = False
    try:
        if postgres:
            create_postgres(database_url)
            created_db = True
        run([str(PYTHON), "manage.py", "migrate", "--noinput", "-v", "0"], env, "migrate")
        run([str(PYTHON), "manage.py", "collectstatic", "--noinput", "-v", "0"], env, "collectstatic")
        out = run(
            [str(PYTHON), "manage.py", "shell", "-c", SHELL_SETUP.format(players=PLAYERS, target=TARGET)], env, "setup"
        )
        match_id = int(re.search(r"MATCH (\d+)", out).group(1))

        port = free_port()
        server = Server(env, port, tmp / "gunicorn.log")
        server.start()
        cookies = log_in(port, password)

        tally = Tally()
        counts = {"worker": 0, "workers_killed": 0, "master": 0, "in_flight": 0, "errors": []}
        stop = threading.Event()
        start = time.monotonic()
        stop_at = start + args.seconds
        threads = [
            threading.Thread(
                target=client, args=(seed + i, port, match_id, dict(cookies), stop_at, tally, args.max_requests)
            )
            for i in range(args.clients)
        ]
        kill_thread = threading.Thread(
            target=killer, args=(server, args.kills, start, args.seconds, rng, counts, stop, tally)
        )
        for t in [*threads, kill_thread]:
            t.start()
        for t in threads:
            t.join(args.seconds + SETTLE + 60)
        stop.set()
        kill_thread.join(60)
        elapsed = time.monotonic() - start
        server.stop()

        stored = read_back(database_url, sqlite_path, match_id)
        figures, problems = check(stored, tally)
        if tally.server_errors:
            problems.append(f"{len(tally.server_errors)} server errors (5xx)")
        if tally.other_answers:
            problems.append(f"{len(tally.other_answers)} unexpected answers")
        errors_logged = (tmp / "django-errors.log").read_text() if (tmp / "django-errors.log").exists() else ""

        print(
            f"crash test: {'PostgreSQL' if postgres else 'SQLite'}, {elapsed:.0f} s, {args.clients} clients, "
            f"seed {seed}"
        )
        rows = [
            ("HTTP POSTs tried", tally.posts),
            ("submissions tried (hands, each with its own client_key)", tally.submissions),
            ("acknowledged (200 'saved.')", len(tally.acknowledged)),
            *figures.items(),
            ("409 'already saved from another device' (then retried)", tally.conflicts),
            ("connection errors (then retried)", tally.connection_errors),
            ("  retries that found the hand stored before the cut", tally.saved_before_cut),
            ("server errors (5xx)", len(tally.server_errors)),
            ("other answers", len(tally.other_answers)),
            ("server errors in the Django log", errors_logged.count("Internal Server Error")),
            (
                "kills",
                f"{counts['worker'] + counts['master']} (of workers {counts['worker']} ({counts['workers_killed']} "
                f"processes), of the master {counts['master']}; "
                f"{counts['in_flight']} with a hand POST in flight)",
            ),
        ]
        width = max(len(k) for k, _v in rows)
        for key, value in rows:
            print(f"  {key:<{width}}  {value}")
        for status, line in (tally.server_errors + tally.other_answers)[:5]:
            print(f"  e.g. {status}: {line}")
        for error in counts["errors"]:
            print(f"  killer: {error}")
        print("RESULT:", "FAIL - " + "; ".join(problems) if problems else "PASS")
        return 1 if problems else 0
    finally:
        if server is not None:
            server.stop()
        if created_db:
            drop_postgres(database_url)
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
