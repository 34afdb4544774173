"""What a copy of the SQLite database costs at the end of a round
(scorekeeper/backups/copies.py), and what it does to a hand saved meanwhile.

    .venv/bin/python bench/copies.py              # a 40-table event, rounds of 12 hands
    .venv/bin/python bench/copies.py --tables 500 --rounds 3

Builds, in a fresh database in a temp folder: a Swiss Spades event of
2 x TABLES players, ROUNDS rounds already played (HANDS hands at every
table, through the services, with the audit log), then prints:

* the database's size, and a copy's wall and CPU time (median of 5);
* a writer's latency: one process saving hands as fast as it can while
  another makes copies back to back, against the same writer alone
  (p50, p99, max of each), so "does a copy hold up the tables?" has a figure.

Nothing here is a test: it prints figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.environment import environment  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python")


def setup(tmp: Path) -> dict:
    env = dict(os.environ, **environment("bench.settings"))
    env.update(
        DATABASE_URL=f"sqlite:///{tmp / 'event.sqlite3'}",
        CACHE_DIR=str(tmp / "cache"),
        DATABASE_COPIES_DIR=str(tmp / "backups"),
        PYTHONPATH=str(ROOT),
    )
    env.pop("REDIS_URL", None)
    subprocess.run([PYTHON, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    return env


def build(tables: int, rounds: int, hands: int) -> None:
    from django.contrib.auth import get_user_model

    from scorekeeper.audit import Actor
    from scorekeeper.matches import services as match_services
    from scorekeeper.models import Match, Table
    from scorekeeper.tournaments import services

    actor = Actor.organiser(get_user_model().objects.create_superuser("bench", password=None))
    t = services.create_tournament(
        name="Copies",
        game="spades",
        format="swiss",
        options={"target": 10**9},
        rounds=rounds + 1,
        actor=actor,
        confirm_hands=False,
    )
    services.register_players(tournament_id=t.pk, text="\n".join(f"P{i:04d}" for i in range(2 * tables)), actor=actor)
    for _ in range(rounds):
        rnd = services.propose_round(tournament_id=t.pk, actor=actor)
        services.publish_round(round_id=rnd.pk, actor=actor)
        for table in Table.objects.filter(round=rnd):
            for _hand in range(hands):
                match = Match.objects.get(pk=table.match_id)
                match_services.record_hand(
                    match_id=match.pk,
                    entry={"bids": [3, 4], "tricks": [5, 8]},
                    client_key=os.urandom(8).hex(),
                    number=match.hands_played + 1,
                    bidding_in_force=None,
                    actor=actor,
                )
        from scorekeeper.tournaments.ending import end_table_early

        for table in Table.objects.filter(round=rnd):
            end_table_early(table_id=table.pk, actor=actor)
        services.complete_rounds(tournament_id=t.pk, actor=actor)


def writer(seconds: float) -> None:
    """Save hands for ``seconds``: print each save's milliseconds."""
    from scorekeeper.audit import SYSTEM
    from scorekeeper.matches import services as match_services

    match = match_services.start_match(
        game="spades", player_names=["W1", "W2"], options={"target": 10**9}, actor=SYSTEM
    )
    end, number = time.monotonic() + seconds, 1
    while time.monotonic() < end:
        start = time.perf_counter()
        match_services.record_hand(
            match_id=match.pk,
            entry={"bids": [3, 4], "tricks": [5, 8]},
            client_key=os.urandom(8).hex(),
            number=number,
            bidding_in_force=None,
            actor=SYSTEM,
        )
        print(f"{(time.perf_counter() - start) * 1000:.2f}", flush=True)
        number += 1


def copier(seconds: float) -> None:
    from scorekeeper.backups import copies

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        copies.make_copy("bench")


def child(env: dict, what: str, *args) -> subprocess.Popen:
    return subprocess.Popen(
        [PYTHON, __file__, what, *map(str, args)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )


def figures(ms: list[float]) -> str:
    ms = sorted(ms)
    return (
        f"{len(ms)} saves, p50 {statistics.median(ms):.1f} ms, p99 {ms[int(0.99 * (len(ms) - 1))]:.1f} ms, "
        f"max {ms[-1]:.1f} ms"
    )


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("build", "writer", "copier", "copy-times"):
        import django

        django.setup()
        if argv[0] == "build":
            build(*map(int, argv[1:]))
        elif argv[0] == "writer":
            writer(float(argv[1]))
        elif argv[0] == "copier":
            copier(float(argv[1]))
        else:
            from scorekeeper.backups import copies

            for _ in range(5):
                wall, cpu = time.perf_counter(), time.process_time()
                copies.make_copy("bench")
                print(f"{(time.perf_counter() - wall) * 1000:.1f} {(time.process_time() - cpu) * 1000:.1f}")
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=40)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--hands", type=int, default=12, help="hands at each table in each round")
    p.add_argument("--seconds", type=float, default=10, help="the writer's run, alone and beside the copies")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-copies-") as folder:
        tmp = Path(folder)
        env = setup(tmp)
        start = time.monotonic()
        subprocess.run(
            [PYTHON, __file__, "build", *map(str, (args.tables, args.rounds, args.hands))],
            cwd=ROOT,
            env=env,
            check=True,
        )
        size = (tmp / "event.sqlite3").stat().st_size
        print(
            f"event: {args.tables} tables, {args.rounds} rounds of {args.hands} hands "
            f"({args.tables * args.rounds * args.hands} hands), built in {time.monotonic() - start:.0f} s; "
            f"database {size / 1024 / 1024:.1f} MB"
        )
        times = subprocess.run(
            [PYTHON, __file__, "copy-times"], cwd=ROOT, env=env, check=True, capture_output=True, text=True
        ).stdout.split("\n")
        walls = [float(line.split()[0]) for line in times if line]
        cpus = [float(line.split()[1]) for line in times if line]
        print(
            f"a copy: wall {statistics.median(walls):.1f} ms (min {min(walls):.1f}, max {max(walls):.1f}), "
            f"CPU {statistics.median(cpus):.1f} ms; copies kept {len(list((tmp / 'backups').iterdir()))}"
        )
        alone = child(env, "writer", args.seconds)
        alone_ms = [float(x) for x in alone.communicate()[0].split()]
        copying = child(env, "copier", args.seconds + 1)
        time.sleep(0.5)
        beside = child(env, "writer", args.seconds)
        beside_ms = [float(x) for x in beside.communicate()[0].split()]
        copying.wait()
        print(f"a writer alone:            {figures(alone_ms)}")
        print(f"beside copies back to back: {figures(beside_ms)}")
        print(f"  p50 ratio {statistics.median(beside_ms) / statistics.median(alone_ms):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
