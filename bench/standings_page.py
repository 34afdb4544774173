"""The public standings page of a big event, through Django, on a fresh
SQLite database (or DATABASE_URL if set to a PostgreSQL database you may fill).

Run:  .venv/bin/python bench/standings_page.py

Builds a 20-player (10 tables) and a 1,000-player (500 tables) Spades Swiss
through the tournament services, finishes half the tables of round 1, then
prints for each: the SQL queries of the standings page (must be the same at
both sizes), the server time of a full rebuild (median of several requests,
each after a change) and of a poll that finds nothing new, next to a baseline
measured in the same run (a GET of the login page) and the ratio to it.
"""

from __future__ import annotations

import itertools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
workdir = tempfile.mkdtemp(prefix="scorekeeper-standings-")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["STANDINGS_REFRESH_SECONDS"] = "0"  # every request after a change rebuilds

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

settings.STANDINGS_BACKGROUND_REFRESH = False  # the request that finds a change does the work: timed here

from django.core import signals  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import close_old_connections, connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from scorekeeper import services, tournaments  # noqa: E402
from scorekeeper.models import Table  # noqa: E402
from scorekeeper.services import Actor  # noqa: E402

RUNS = 7


def build(players: int, actor: Actor):
    t = tournaments.create_tournament(
        name=f"Bench {players}", game="spades", format="swiss", options={"target": 100}, rounds=3, actor=actor
    )
    tournaments.register_players(
        tournament_id=t.pk, text="\n".join(f"P{players}-{i:04d}" for i in range(players)), actor=actor
    )
    rnd = tournaments.propose_round(tournament_id=t.pk, actor=actor)
    tournaments.publish_round(round_id=rnd.pk, actor=actor)
    tables = list(Table.objects.filter(round=rnd).order_by("number"))
    for table in tables[: len(tables) // 2]:  # bid 10 take 11 = 101: over the target of 100
        services.record_hand(match_id=table.match_id, entry={"bids": [10, 2], "tricks": [11, 2]})
    return t, tables[len(tables) // 2 :]


def median_ms(fn, runs: int = RUNS) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    setup_test_environment()  # the test client's host name is allowed
    # As in Django's test runner: keep the connection across requests, so its
    # query log can be read.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("bench", password="unused-bench-password")
    actor = Actor("bench", user)
    client = Client()
    rows = []
    baseline = median_ms(lambda: client.get("/login/"))
    for players in (20, 1000):
        start = time.perf_counter()
        t, open_tables = build(players, actor)
        built = time.perf_counter() - start
        url = f"/tournaments/{t.pk}/standings/"
        queries = []

        def count(execute, sql, params, many, context, queries=queries):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            response = client.get(url)
        assert response.status_code == 200, response.status_code
        hands = itertools.cycle(open_tables)

        def after_a_change(url=url, hands=hands):
            table = next(hands)  # a live hand somewhere: the standings must be rebuilt
            services.record_hand(match_id=table.match_id, entry={"bids": [1, 1], "tricks": [1, 12]})
            start = time.perf_counter()
            assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200
            return (time.perf_counter() - start) * 1000

        rebuild = statistics.median(after_a_change() for _ in range(RUNS))
        unchanged = median_ms(lambda url=url: client.get(url, HTTP_HX_REQUEST="true"))
        rows.append((players // 2, len(queries), rebuild, unchanged, built))
    print(f"Standings page, {connection.vendor}; baseline GET /login/: {baseline:.1f} ms")
    print(
        f"{'tables':>6}  {'queries':>7}  {'rebuild ms':>10}  {'x base':>6}  "
        f"{'unchanged ms':>12}  {'x base':>6}  setup s"
    )
    for tables, count, rebuild, unchanged, built in rows:
        print(
            f"{tables:>6}  {count:>7}  {rebuild:>10.1f}  {rebuild / baseline:>6.1f}  {unchanged:>12.1f}  "
            f"{unchanged / baseline:>6.1f}  {built:>7.1f}"
        )
    same = rows[0][1] == rows[1][1]
    print(f"same number of queries at both sizes: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
