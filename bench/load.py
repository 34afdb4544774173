"""The 500-table event under gunicorn, on SQLite and on PostgreSQL, with
Locust (bench/locustfile.py) as the load generator.

Run from the project folder (about 2 minutes per database at the default
60 s event):

    .venv/bin/python bench/load.py                  # SQLite, then PostgreSQL
    .venv/bin/python bench/load.py --only sqlite    # or: --only postgres
    .venv/bin/python bench/load.py --seconds 20     # a shorter event
    .venv/bin/python bench/load.py --two-servers    # two app servers, one PostgreSQL, one Redis
    .venv/bin/python bench/load.py --pgbouncer      # PostgreSQL through PgBouncer (transaction mode)

Flags: --only sqlite|postgres; --seconds (the event, default 60);
--workers (gunicorn sync workers per server: default 8 on SQLite, 6 on
PostgreSQL, 3 each with --two-servers); --server gunicorn|gthread|granian|
waitress (gthread: --threads per worker, default 4); --pool (PostgreSQL:
Django's connection pool, DB_POOL=on, instead of the persistent
connections the app keeps by default); --turns and --turn-seconds (the
capacity phase, default 4 x 5 s of each); --two-servers and --pgbouncer
(PostgreSQL only, may be combined); --redis-db (default 9); --tables
(default 500; a few for a smoke test); --seed; --keep (the temp folder).

Needs requirements-bench.txt; for PostgreSQL a server on 127.0.0.1:5432
where the user postgres may create databases; for --two-servers Redis on
127.0.0.1:6379 (only db --redis-db, default 9, is used and flushed); for
--pgbouncer Debian's pgbouncer package. Loopback only.

For each database: a fresh database (SQLite: a file in a temp folder;
PostgreSQL: a new database, dropped at the end), migrated; the event built
(bench/event.py: 1,000 players, round 1 published with 500 tables, 550
table devices holding their links); static files collected into the temp
folder; gunicorn started (config.wsgi, DEBUG=0, sync workers; the settings
are bench.settings plus the temp STATIC_ROOT and a log of server errors, in
a small module in the temp folder; bench/environment.py for the rest).
Then Locust, headless, with --csv output in the temp folder:

1. the event, for --seconds: a round ends every 30 s and every table
   submits its next hand within 20 s of it (plus a hand now and then), as
   an htmx form post; 500 spectators poll the standings every 5 s and 550
   devices poll "changed?" every 3 s, both with If-None-Match.
2. capacity: 64 clients save hands as fast as they can, going round all
   the tables, in turns with the baseline view (one insert; POST
   /bench/baseline/), --turns turns of --turn-seconds each.

Then gunicorn is stopped and the database checked: every acknowledged hand
stored exactly once (a hand acknowledged twice under one client_key is one
hand), nothing stored that was not acknowledged (except after a submission
given up without an answer), numbers without gaps, hands_played equal to
the count of hands.

Printed per database: requests and p50/p95/p99 per kind, errors, the
offered rate of saved hands, the capacity and its multiple of the offered
rate, the baseline's rate and the ratio, lost/doubled hands, CPU used by
gunicorn, Locust and PostgreSQL (they share the cores), and the targets
with PASS/FAIL. Exit status 1 if a target fails. Every process started is
stopped, and the temp folder and databases removed, also on Ctrl-C
(--keep keeps the temp folder: logs and Locust's CSV files).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.environment import environment  # noqa: E402

BIN = ROOT / ".venv" / "bin"
PYTHON = str(BIN / "python") if (BIN / "python").exists() else sys.executable
LOCUST = str(BIN / "locust") if (BIN / "locust").exists() else shutil.which("locust") or "locust"  # else on PATH
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
WORKERS = {"sqlite": 8, "postgres": 6}  # measured best on 2 cores (README)
CLIENTS = 64  # capacity phase
REFRESH_SECONDS = 3  # settings.STANDINGS_REFRESH_SECONDS
SAVE, POLL_200, POLL_304, DEVICE_POLL = "save a hand", "standings poll 200", "standings poll 304", "device poll"
CAP_SAVE, CAP_BASE = "capacity: save a hand", "capacity: baseline insert"
TARGET_SAVE_P99, TARGET_STANDINGS_P99, TARGET_DEVICE_P99, TARGET_MULTIPLE = 150, 200, 100, 4


RUN_SETTINGS = """from bench.settings import *  # noqa: F403

STATIC_ROOT = {static!r}
LOGGING = {{
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {{"stderr": {{"class": "logging.StreamHandler"}}}},
    "loggers": {{"django.request": {{"handlers": ["stderr"], "level": "ERROR"}}}},
}}
"""




# ------------------------------------------------------------ processes and CPU


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(cmd: list[str], env: dict, log: Path, what: str, timeout: float = 900) -> None:
    start = time.monotonic()
    with log.open("a") as out:
        out.write(f"\n$ {' '.join(cmd)}\n")
        out.flush()
        done = subprocess.run(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=timeout)
    if done.returncode:
        raise RuntimeError(f"{what} failed (exit {done.returncode}):\n{tail(log)}")
    print(f"  {what}: {time.monotonic() - start:.1f} s", flush=True)


def tail(path: Path, lines: int = 30) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""


def start(cmd: list[str], env: dict, log: Path, stack: ExitStack) -> subprocess.Popen:
    """A long-running process in its own process group, stopped when the run ends."""
    out = stack.enter_context(log.open("a"))
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    stack.callback(stop, proc)
    return proc


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # its own group: gunicorn and its workers
            proc.wait(5)


def wait_ready(base: str, proc: subprocess.Popen, log: Path, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{base}: the process exited:\n{tail(log)}")
        try:
            urllib.request.urlopen(f"{base}/l/not-a-token/", timeout=2)
            return
        except urllib.error.HTTPError:
            return  # it answers (404)
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{base} did not answer within {seconds} s:\n{tail(log)}")


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def processes() -> list[tuple[int, int, str]]:
    """(pid, parent pid, name) of every process, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                name, rest = (entry / "stat").read_text().rsplit(")", 1)
                found.append((int(entry.name), int(rest.split()[1]), name.split("(", 1)[1]))
            except (OSError, IndexError, ValueError):
                continue
    return found


def cpu_mark(servers: list[subprocess.Popen]) -> dict:
    procs = processes()
    masters = {p.pid for p in servers}
    gunicorn = [pid for pid, ppid, _ in procs if pid in masters or ppid in masters]
    stat = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "gunicorn": {pid: cpu_seconds(pid) for pid in gunicorn},
        "postgres": {pid: cpu_seconds(pid) for pid, _, name in procs if name == "postgres"},
        "locust": children.ru_utime + children.ru_stime,  # the only child that exits meanwhile
        "busy": sum(stat) - stat[3] - stat[4],
        "total": sum(stat),
        "wall": time.monotonic(),
    }


def cpu_used(before: dict, after: dict) -> dict:
    """Cores used on average between two marks."""
    wall = after["wall"] - before["wall"]

    def spent(kind):
        return sum(v - before[kind].get(pid, 0.0) for pid, v in after[kind].items()) / wall

    total = after["total"] - before["total"]
    return {
        "gunicorn": spent("gunicorn"),
        "locust": (after["locust"] - before["locust"]) / wall,
        "postgres": spent("postgres"),
        "busy": (after["busy"] - before["busy"]) / total if total else 0.0,
    }


# ------------------------------------------------------------ one database


def run_database(kind: str, args, stack: ExitStack) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix=f"scorekeeper-load-{kind}-"))
    stack.callback(lambda: print(f"  kept {tmp}") if args.keep else shutil.rmtree(tmp, ignore_errors=True))
    log = tmp / "setup.log"
    print(f"\n=== {label(kind, args)}: working folder {tmp}", flush=True)
    (tmp / "bench_run.py").write_text(RUN_SETTINGS.format(static=str(tmp / "static")))
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "REDIS_URL")}
    # config/settings.py keeps persistent connections to PostgreSQL unless DB_POOL=on (the pool).
    env["DB_POOL"] = "on" if args.pool else "off"
    # More of PYTHONPATH after ours (psycopg_pool for --pool, if installed elsewhere).
    path = os.pathsep.join(p for p in (str(tmp), str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env.update(environment("bench_run"), PYTHONPATH=path, CACHE_DIR=str(tmp / "cache"))
    if kind == "sqlite":
        env["DATABASE_URL"] = f"sqlite:///{tmp / 'bench.sqlite3'}"
    else:
        env["DATABASE_URL"] = create_postgres(f"scorekeeper_load_{os.getpid()}", stack)
    run([PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], env, log, "migrate")
    run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v", "0"], env, log, "collectstatic")
    event_json = tmp / "event.json"
    tables, second = args.tables, args.tables // 10  # one table in ten has a second device
    built = f"the event: {2 * tables} players, {tables} tables, {tables + second} devices"
    run([PYTHON, "-m", "bench.event", "build", str(event_json), str(tables), str(second)], env, log, built)

    server_env = dict(env)
    if args.pgbouncer:
        server_env["DATABASE_URL"] = start_pgbouncer(env["DATABASE_URL"], tmp, stack)
    if args.two_servers:
        server_env["REDIS_URL"] = f"redis://127.0.0.1:6379/{args.redis_db}"
        flush_redis(server_env["REDIS_URL"])
        stack.callback(flush_redis, server_env["REDIS_URL"])
    workers = args.workers or (3 if args.two_servers else WORKERS[kind])
    ports = [free_port() for _ in range(2 if args.two_servers else 1)]
    hosts = [f"http://127.0.0.1:{port}" for port in ports]
    logs = [tmp / f"{args.server}-{port}.log" for port in ports]
    servers = [
        start(server_command(args.server, workers, p, args.threads), server_env, lg, stack)
        for p, lg in zip(ports, logs, strict=True)
    ]
    for host, server, server_log in zip(hosts, servers, logs, strict=True):
        wait_ready(host, server, server_log)
    print(f"  {server_label(args.server, workers, args.threads)}: {' and '.join(hosts)}", flush=True)

    users = tables + second + args.tables  # devices and spectators
    event = locust(args, tmp, hosts, servers, "event", ["TableDevice", "Spectator"], users)
    capacity = locust(args, tmp, hosts, servers, "capacity", ["CapacityClient"], CLIENTS)
    standings = compare_standings(hosts, event_json) if args.two_servers else None
    for server in servers:
        stop(server)
    run([PYTHON, "-m", "bench.event", "stored", str(tmp / "stored.json")], env, log, "read back the hands")
    stored = json.loads((tmp / "stored.json").read_text())
    return {
        "kind": kind,
        "workers": workers,
        "hosts": hosts,
        "event": event,
        "capacity": capacity,
        "hands": check_hands(
            stored,
            {**event["acked"], **capacity["acked"]},
            event["counts"]["given up"] + capacity["counts"]["given up"],
        ),
        "server_log": scan(logs, ("Traceback", "WORKER TIMEOUT", "[ERROR]", "[CRITICAL]")),
        "pgbouncer_log": scan([tmp / "pgbouncer.log"], (" ERROR ", " WARNING ", " FATAL ")) if args.pgbouncer else None,
        "standings": standings,
    }


def server_command(server: str, workers: int, port: int, threads: int | None = None) -> list[str]:
    """The app under one of the candidate servers, ``workers`` requests at a
    time: gunicorn's sync workers, granian's workers (one blocking thread
    each, as sync workers), waitress's threads in one process, or gunicorn's
    gthread workers of ``threads`` threads each."""
    app = "config.wsgi:application"
    if server == "granian":
        granian = [str(BIN / "granian"), "--interface", "wsgi", "--workers", str(workers)]
        return (
            granian
            + ["--blocking-threads", str(threads or 1)]
            + [
                "--no-ws",
                "--log-level",
                "warning",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                app,
            ]
        )
    if server == "waitress":
        # Its default of 100 connections would queue the event's 1,100 clients.
        return [
            PYTHON,
            "-m",
            "waitress",
            f"--listen=127.0.0.1:{port}",
            f"--threads={workers}",
            "--connection-limit=2000",
            app,
        ]
    if server == "gthread":
        # Threads share one process's connections: with --pool, Django's pool of a few.
        return [str(BIN / "gunicorn"), app, "--worker-class", "gthread", "--workers", str(workers)] + [
            "--threads",
            str(threads or 4),
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
            "--error-logfile",
            "-",
            "--bind",
            f"127.0.0.1:{port}",
        ]
    return [str(BIN / "gunicorn"), app, "--worker-class", "sync", "--workers", str(workers), "--timeout", "60"] + [
        "--graceful-timeout",
        "5",
        "--error-logfile",
        "-",
        "--bind",
        f"127.0.0.1:{port}",
    ]


def server_label(server: str, workers: int, threads: int | None = None) -> str:
    return {
        "gunicorn": f"gunicorn, {workers} sync workers",
        "gthread": f"gunicorn, {workers} gthread workers of {threads or 4} threads",
        "granian": f"granian, {workers} workers of {threads or 1} blocking thread(s)",
        "waitress": f"waitress, one process of {workers} threads",
    }[server]


def label(kind: str, args) -> str:
    name = {"sqlite": "SQLite", "postgres": "PostgreSQL"}[kind]
    return (
        name
        + (", two app servers, Redis" if args.two_servers else "")
        + (", PgBouncer" if args.pgbouncer else "")
        + (", Django's connection pool" if args.pool else "")
    )


def create_postgres(name: str, stack: ExitStack) -> str:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop():
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    stack.callback(drop)
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def start_pgbouncer(database_url: str, tmp: Path, stack: ExitStack) -> str:
    """PgBouncer in transaction mode in front of the run's database; the URL to it."""
    binary = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
    if not Path(binary).exists():
        raise RuntimeError("--pgbouncer: pgbouncer is not installed (apt-get install pgbouncer)")
    port = free_port()
    (tmp / "pgbouncer-users.txt").write_text('"postgres" ""\n')
    (tmp / "pgbouncer.ini").write_text(
        "[databases]\n* = host=127.0.0.1 port=5432\n\n[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {tmp / 'pgbouncer-users.txt'}\n"
        "pool_mode = transaction\nmax_client_conn = 200\ndefault_pool_size = 20\n"
    )
    tmp.chmod(0o755)  # read by pgbouncer's own user
    as_user = ["-u", "postgres"] if os.geteuid() == 0 else []  # it refuses to run as root
    log = tmp / "pgbouncer.log"
    proc = start([binary, *as_user, str(tmp / "pgbouncer.ini")], os.environ.copy(), log, stack)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"pgbouncer did not start:\n{tail(log)}") from None
            time.sleep(0.1)
    print(f"  pgbouncer on 127.0.0.1:{port}, pool_mode = transaction", flush=True)
    return re.sub(r"@127\.0\.0\.1:5432/", f"@127.0.0.1:{port}/", database_url)


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def locust(args, tmp: Path, hosts: list[str], servers, phase: str, classes: list[str], users: int) -> dict:
    """One headless Locust run of bench/locustfile.py, then a wait until the
    servers have answered what they had queued. Its figures (from the CSV),
    its counts, the hands it had acknowledged and the CPU used."""
    out = tmp / phase
    out.mkdir()
    settings = {
        "EVENT": tmp / "event.json",
        "OUT": out,
        "HOSTS": ",".join(hosts),
        "SECONDS": args.seconds,
        "SPECTATORS": args.tables,
        "CLIENTS": CLIENTS,
        "TURNS": args.turns,
        "TURN_SECONDS": args.turn_seconds,
        "SEED": args.seed,
    }
    env = dict(os.environ, **{f"BENCH_{k}": str(v) for k, v in settings.items()})
    cmd = [LOCUST, "-f", str(ROOT / "bench" / "locustfile.py"), "--headless", "-u", str(users), "-r"]
    cmd += [str(users), "--host", hosts[0], "--csv", str(out / "locust"), "--only-summary", "--loglevel", "WARNING"]
    if phase == "event":
        what = f"locust, the event: {args.seconds:g} s"
    else:
        what = f"locust, capacity: {CLIENTS} clients, {args.turns} x {args.turn_seconds:g} s of hands and of baseline"
    print(f"  {what} ...", flush=True)
    before = cpu_mark(servers)
    run([*cmd, "--exit-code-on-error", "0", *classes], env, tmp / f"locust-{phase}.log", what, args.seconds + 900)
    cpu = cpu_used(before, cpu_mark(servers))
    drained = settle(hosts)
    with (out / "locust_stats.csv").open() as f:
        stats = {row["Name"]: row for row in csv.DictReader(f) if row["Name"] != "Aggregated"}
    with (out / "locust_failures.csv").open() as f:
        failures = [(row["Name"], row["Error"], int(row["Occurrences"])) for row in csv.DictReader(f)]
    counts = Counter()
    for path in out.glob("counts-*.json"):
        counts.update(json.loads(path.read_text()))
    acked = {}
    for path in out.glob("acked-*.txt"):
        for line in path.read_text().splitlines():
            match, number, key = line.split()
            acked.setdefault(key, set()).add((int(match), int(number)))
    warnings = [line for line in tail(tmp / f"locust-{phase}.log", 200).splitlines() if "CPU usage" in line]
    return {
        "stats": stats,
        "failures": failures,
        "counts": counts,
        "acked": acked,
        "cpu": cpu,
        "warnings": warnings,
        "drained": drained,
    }


def settle(hosts: list[str]) -> float:
    """Wait until each server has answered the requests it had queued (their
    clients may have given up: a sync worker still serves them), so that
    the next phase starts on idle servers. A request sent now is answered
    after them. Returns the seconds it took."""
    start = time.monotonic()
    for host in hosts:
        with contextlib.suppress(urllib.error.HTTPError):  # answered (404)
            urllib.request.urlopen(f"{host}/l/not-a-token/", timeout=600)
    return time.monotonic() - start


def compare_standings(hosts: list[str], event_path: Path) -> dict:
    """The standings table and the live tables, as each server shows them."""
    time.sleep(REFRESH_SECONDS + 1)  # every cache has looked at the database since the last write
    path = json.loads(event_path.read_text())["standings"]
    shown = []
    for host in hosts:
        page = urllib.request.urlopen(host + path, timeout=30).read().decode()
        parts = [
            re.search(pattern, page, re.S)
            for pattern in (r'<tbody id="standings-body">(.*?)</tbody>', r'<ul class="live-list">(.*?)</ul>')
        ]
        shown.append(tuple(p.group(1) if p else None for p in parts))
    rows, live = shown[0]
    return {
        "same": all(s == shown[0] for s in shown) and None not in shown[0],
        "rows": (rows or "").count("<tr"),
        "tables": (live or "").count("<li"),
    }


def check_hands(stored: dict, acked: dict[str, set], given_up: int) -> dict:
    by_key = defaultdict(list)
    numbers = defaultdict(list)
    for match, number, key in stored["hands"]:
        by_key[key].append((match, number))
        numbers[match].append(number)
    played = dict(stored["hands_played"])
    return {
        "stored": len(stored["hands"]),
        "acked": len(acked),
        "lost": sum(1 for key in acked if key not in by_key),
        "doubled": sum(len(v) - 1 for v in by_key.values()) + len(by_key.get(None, [])),
        "acked otherwise": sum(1 for key, seen in acked.items() if key in by_key and seen != set(by_key[key])),
        "unacknowledged": sum(1 for key in by_key if key not in acked),
        "given up": given_up,
        "gaps": sum(1 for v in numbers.values() if sorted(v) != list(range(1, len(v) + 1))),
        "hands_played": sum(1 for m, n in played.items() if n != len(numbers.get(m, []))),
    }


def scan(logs: list[Path], markers: tuple[str, ...]) -> dict:
    lines = [line for log in logs if log.exists() for line in log.read_text(errors="replace").splitlines()]
    hits = [line for line in lines if any(m in line for m in markers)]
    return {"count": len(hits), "first": hits[:5]}


# ------------------------------------------------------------ report


def figure(row: dict | None, column: str) -> str:
    value = row.get(column, "") if row else ""
    return value if value not in ("", "N/A") else "-"


def p99(row: dict | None) -> float:
    return float(row["99%"]) if row and row.get("99%") not in (None, "", "N/A") else float("inf")


def report(r: dict, args) -> tuple[list[str], bool]:
    ev, cap, h = r["event"], r["capacity"], r["hands"]
    stats = {**ev["stats"], **cap["stats"]}
    out = [
        "",
        f"=== {label(r['kind'], args)}: {server_label(args.server, r['workers'], args.threads)} "
        f"x {len(r['hosts'])} server(s); "
        f"{args.tables} tables ({args.tables + args.tables // 10} devices), {args.tables} spectators; "
        f"{args.seconds:g} s event",
        f"{'kind':<44}{'requests':>9}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'errors':>8}",
    ]
    empty = {"Request Count": "0", "Failure Count": "0"}
    timed = [SAVE, SAVE + " (resent)", SAVE + " (retry)", POLL_200, POLL_304, DEVICE_POLL, CAP_SAVE, CAP_BASE]
    for name in [*timed, *sorted(set(stats) - set(timed))]:  # then the pages opened before the clock started
        row = stats.get(name, empty)
        out.append(
            f"{name:<44}{row['Request Count']:>9}{figure(row, '50%'):>8}{figure(row, '95%'):>8}"
            f"{figure(row, '99%'):>8}{row['Failure Count']:>8}"
        )
    failures = ev["failures"] + cap["failures"]
    for name, error, n in failures[:8]:
        out.append(f"  error: {n} x {name}: {error[:200]}")
    errors = sum(int(row["Failure Count"]) for row in stats.values())
    counts = ev["counts"]
    offered = counts["offered"] / counts["seconds"] if counts["seconds"] else 0.0
    rate = {turn: n / args.turn_seconds for turn, n in cap["counts"].items()}
    turns = [(rate.get(f"turn {2 * k}", 0.0), rate.get(f"turn {2 * k + 1}", 0.0)) for k in range(args.turns)]
    baseline, capacity = (sum(t[i] for t in turns) / args.turns for i in (0, 1))
    out += [
        f"hands: offered {counts['offered']} in {counts['seconds']:.0f} s = {offered:.1f}/s; acknowledged "
        f"{h['acked']} (event {len(ev['acked'])}, capacity {len(cap['acked'])}); stored {h['stored']}",
        f"  lost {h['lost']}; doubled {h['doubled']}; acknowledged with another number {h['acked otherwise']}; "
        f"stored but never acknowledged {h['unacknowledged']} (submissions given up {h['given up']}); matches "
        f"with gaps {h['gaps']}; hands_played wrong {h['hands_played']}",
        f"one-time key: resent forms answered 'already saved' {counts['save a hand (resent): already saved']} of "
        f"{counts['save a hand (resent): already saved'] + counts['save a hand (resent): saved']}; retries after no "
        f"answer: 'already saved' {counts['save a hand (retry): already saved']}, 'saved' "
        f"{counts['save a hand (retry): saved']}; 409 answers {counts['409'] + cap['counts']['409']}; device polls "
        f"answered 'another device changed it' {counts['device poll: changed']}",
        f"capacity: {capacity:.1f} saved hands/s at saturation = {capacity / offered if offered else 0:.1f} x the "
        f"offered rate; baseline {baseline:.1f}/s; ratio {capacity / baseline if baseline else 0:.0%}; per turn "
        "(baseline, hands): " + ", ".join(f"({b:.0f}, {c:.0f})" for b, c in turns),
    ]
    for name, phase in (("event", ev), ("capacity", cap)):
        c = phase["cpu"]
        pg = f", postgres {c['postgres']:.2f} (all its processes)" if r["kind"] == "postgres" else ""
        out.append(
            f"CPU, {name} (cores of {os.cpu_count()}): {args.server} {c['gunicorn']:.2f}, "
            f"locust {c['locust']:.2f}{pg}; "
            f"machine busy {c['busy']:.0%}; afterwards the servers took {phase['drained']:.1f} s to answer their queue"
        )
        out += [f"  locust: {w.strip()}" for w in phase["warnings"][:2]]
    logs = [("server log", r["server_log"])] + ([("pgbouncer log", r["pgbouncer_log"])] if r["pgbouncer_log"] else [])
    for name, found in logs:
        out.append(f"{name}: {found['count']} errors or warnings" + "".join(f"\n  {line}" for line in found["first"]))
    extra_errors = sum(found["count"] for _name, found in logs)
    lost_ok = not (h["lost"] or h["doubled"] or h["acked otherwise"] or h["gaps"] or h["hands_played"])
    lost_ok &= h["unacknowledged"] <= h["given up"]
    standings_p99 = max(p99(stats.get(POLL_200)), p99(stats.get(POLL_304)) if POLL_304 in stats else 0)
    targets = [
        (errors + extra_errors == 0, f"0 errors: {errors} failed requests, {extra_errors} in the logs"),
        (lost_ok, f"0 lost or doubled hands: lost {h['lost']}, doubled {h['doubled']}"),
        (
            p99(stats.get(SAVE)) < TARGET_SAVE_P99,
            f"save a hand p99 < {TARGET_SAVE_P99} ms: {figure(stats.get(SAVE), '99%')} ms",
        ),
        (
            standings_p99 < TARGET_STANDINGS_P99,
            f"standings poll p99 < {TARGET_STANDINGS_P99} ms: 200 {figure(stats.get(POLL_200), '99%')} ms, "
            f"304 {figure(stats.get(POLL_304), '99%')} ms",
        ),
        (
            p99(stats.get(DEVICE_POLL)) < TARGET_DEVICE_P99,
            f"device poll p99 < {TARGET_DEVICE_P99} ms: {figure(stats.get(DEVICE_POLL), '99%')} ms",
        ),
        (
            capacity >= TARGET_MULTIPLE * offered > 0,
            f"capacity >= {TARGET_MULTIPLE} x the offered rate: {capacity:.1f}/s vs {offered:.1f}/s",
        ),
    ]
    if r["standings"]:
        s = r["standings"]
        targets.append(
            (
                s["same"],
                f"the same standings from both servers ({s['rows']} rows, {s['tables']} tables): "
                f"{'same' if s['same'] else 'DIFFERENT'}",
            )
        )
    out.append("targets:")
    out += [f"  [{'PASS' if ok else 'FAIL'}] {text}" for ok, text in targets]
    return out, all(ok for ok, _ in targets)


# ------------------------------------------------------------ main


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--only", choices=("sqlite", "postgres"), help="one database only")
    p.add_argument(
        "--server",
        choices=("gunicorn", "gthread", "granian", "waitress"),
        default="gunicorn",
        help="the WSGI server (default gunicorn; bin/run serves with granian: README, 'Which server')",
    )
    p.add_argument("--seconds", type=float, default=60, help="length of the event, default 60")
    p.add_argument(
        "--tables", type=int, default=500, help="tables (as many spectators), default 500; fewer: a smoke test"
    )
    p.add_argument(
        "--workers",
        type=int,
        help="gunicorn sync workers per server; default 8 on SQLite, 6 on PostgreSQL, 3 with --two-servers",
    )
    p.add_argument("--threads", type=int, help="threads per worker: gthread (default 4), granian (default 1)")
    p.add_argument(
        "--pool",
        action="store_true",
        help="PostgreSQL only: Django's connection pool (psycopg_pool; CONN_MAX_AGE 0) instead of persistent "
        "connections",
    )
    p.add_argument("--turns", type=int, default=4, help="capacity: turns of hands and of baseline, default 4")
    p.add_argument("--turn-seconds", type=float, default=5, help="capacity: length of a turn, default 5")
    p.add_argument(
        "--two-servers",
        action="store_true",
        help="PostgreSQL only: two gunicorn servers on one database and one Redis, the users split",
    )
    p.add_argument("--pgbouncer", action="store_true", help="PostgreSQL only: the servers go through PgBouncer")
    p.add_argument("--redis-db", type=int, default=9, help="the Redis db of --two-servers (flushed), default 9")
    p.add_argument("--seed", type=int, default=1, help="random seed of the event's schedule")
    p.add_argument("--keep", action="store_true", help="keep the temp folders (logs, Locust's CSV files)")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.turns < 1 or args.turn_seconds <= 0 or args.tables < 1:
        p.error("--seconds, --tables, --turns and --turn-seconds must be positive")
    if (args.two_servers or args.pgbouncer or args.pool) and args.only == "sqlite":
        p.error("--two-servers, --pgbouncer and --pool run on PostgreSQL")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the cleanups
    postgres_only = args.two_servers or args.pgbouncer or args.pool
    kinds = ["postgres"] if postgres_only else [args.only] if args.only else ["sqlite", "postgres"]
    printed, all_ok = [], True
    for kind in kinds:
        try:
            with ExitStack() as stack:
                result = run_database(kind, args, stack)
        except KeyboardInterrupt:
            print("\ninterrupted: the processes it started are stopped, its temp folder and database removed")
            return 130
        lines, ok = report(result, args)
        print("\n".join(lines), flush=True)
        printed.append(lines)
        all_ok &= ok
    if len(printed) > 1:
        print("\n" + "\n".join(line for lines in printed for line in lines))
    print(f"\nall targets {'met' if all_ok else 'NOT met'}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
