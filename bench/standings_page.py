"""The public standings page of a big event, through Django, on a fresh
SQLite database (or DATABASE_URL if set to a PostgreSQL database you may fill).

Run:  .venv/bin/python bench/standings_page.py

Builds a 20-player (10 tables) and a 1,000-player (500 tables) Spades Swiss
through the tournament services and finishes half the tables of round 1.
Then, for each size, the SQL queries and the server time (median; every
request through Django's WSGI handler as gunicorn would send it, the app
in production settings, bench/environment.py) of:

  (a) the full page, the cache empty;
  (b) the screens' htmx poll after a hand was saved, once the refresh time
      is over: the generation looked up, the standings worked out, drawn
      and gzip-compressed (once for every screen);
  (c) the poll when the cache lost the drawing but not the generation;
  (d) the poll answered 304 (If-None-Match: the ETag it shows, unchanged),
      by the cache before the session and the database (scorekeeper/polls.py);
  (d2) the same right after the refresh time (the view: the generation
      looked up again, once per STANDINGS_REFRESH_SECONDS for the whole server);
  (e) the poll answered 200 from the cache (a screen whose ETag is old: it
      was drawn before the last change), compressed as browsers take it;

next to a baseline measured in the same run (GET /login/), with the size of
the answer. The queries must be the same at both sizes.
"""

from __future__ import annotations

import itertools
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.environment import environment, measured_get  # noqa: E402

SLOW_RUNS = 7  # requests that work out the standings (each after a change or with the cache emptied)
FAST_RUNS = 25  # requests answered from the cache
SIZES = (20, 1000)  # players: 10 and 500 tables of two


def main() -> None:
    workdir = tempfile.mkdtemp(prefix="scorekeeper-standings-")
    try:
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
        os.environ.update(environment(), STANDINGS_REFRESH_SECONDS="3600")  # expired here only on purpose
        import django

        django.setup()
        from django.core.management import call_command
        from django.test.utils import override_settings

        call_command("migrate", verbosity=0)
        # The production static storage (hashed names from a manifest) needs collectstatic: of the app's own files.
        override_settings(STATIC_ROOT=f"{workdir}/static").enable()
        call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"])
        run(SIZES)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run(sizes) -> None:
    from django.contrib.auth import get_user_model
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection

    from scorekeeper.audit import Actor

    app = WSGIHandler()
    actor = Actor.organiser(get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}"))

    def get(path: str, **headers) -> tuple[str, dict, bytes, int, tuple[float, float]]:
        """(status, headers, body, queries, (wall ms, CPU ms)) of one GET."""
        return measured_get(app, path, headers=headers)

    def login_page():
        status, _h, body, queries, ms = get("/login/")
        assert status.startswith("200"), status
        return queries, ms, len(body)

    for _ in range(3):
        login_page()  # templates compiled, connection open
    baseline = measure(login_page, FAST_RUNS)
    results = {}
    for players in sizes:
        start = time.perf_counter()
        tournament, open_tables = build(players, actor)
        built = time.perf_counter() - start
        results[players // 2] = {**cases(get, tournament, open_tables), "setup s": built}
    report(connection.vendor, baseline, results)


def build(players: int, actor):
    from scorekeeper.models import Table
    from scorekeeper.tournaments import services

    t = services.create_tournament(
        name=f"Bench {players}",
        game="spades",
        format="swiss",
        options={"target": 100},
        rounds=3,
        confirm_hands=False,
        actor=actor,  # the finished tables count at once, as measured before
    )
    services.register_players(
        tournament_id=t.pk, text="\n".join(f"P{players}-{i:04d}" for i in range(players)), actor=actor
    )
    rnd = services.propose_round(tournament_id=t.pk, actor=actor)
    services.publish_round(round_id=rnd.pk, actor=actor)
    tables = list(Table.objects.filter(round=rnd).order_by("number"))
    for table in tables[: len(tables) // 2]:  # bid 10 take 11: 100 and a bag, over the target of 100
        save_hand(table.match_id, {"bids": [10, 2], "tricks": [11, 2]})
    return t, tables[len(tables) // 2 :]


def save_hand(match_id: int, entry: dict) -> None:
    from scorekeeper.matches.services import record_hand
    from scorekeeper.models import Match

    match = Match.objects.get(pk=match_id)
    record_hand(
        match_id=match_id,
        entry=entry,
        number=match.hands_played + 1,
        bidding_in_force=match.pending_bidding,
        client_key=uuid.uuid4().hex,
    )


def cases(get, tournament, open_tables) -> dict:
    from django.core.cache import cache
    from django.utils import translation

    from scorekeeper.tournaments.standings_cache import Generation, drawn_key, generation_key, poll_answer_key

    url = f"/tournaments/{tournament.pk}/standings/"
    key = generation_key(tournament.pk)
    hands = itertools.cycle(open_tables)
    poll_headers = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}  # as a browser's htmx
    old_etag = '"an-etag-from-before-the-last-change"'

    def poll(etag: str, expect: str):
        status, headers, body, queries, ms = get(url, **poll_headers, HTTP_IF_NONE_MATCH=etag)
        assert status.startswith(expect), (status, expect)
        return queries, ms, len(body), headers["ETag"]

    def refresh_over():
        """As if STANDINGS_REFRESH_SECONDS had passed since the last look."""
        shown = cache.get(key)
        assert shown is not None, f"no {key} in the cache"
        cache.set(key, Generation(shown.value, 0.0, shown.public), timeout=None)

    def full_page():
        cache.clear()
        status, _h, body, queries, ms = get(url)
        assert status.startswith("200") and b'id="standings-live"' in body, status
        return queries, ms, len(body)

    def after_a_change():
        poll(old_etag, "200")
        save_hand(next(hands).match_id, {"bids": [1, 1], "tricks": [1, 12]})  # a live hand somewhere
        refresh_over()  # looked up again, the generation has moved on: drawn and compressed
        return poll(old_etag, "200")[:3]

    def drawing_evicted():
        etag = poll(old_etag, "200")[3]
        generation = cache.get(key).value
        with translation.override("en"):  # the language the bench's requests are answered in
            drawn = [drawn_key(tournament.pk, generation), poll_answer_key(tournament.pk, generation, big=False)]
        assert all(cache.get(k) is not None for k in drawn), drawn
        cache.delete_many(drawn)  # the cache dropped them: drawn again, no look at the generation
        queries, ms, size, again = poll(old_etag, "200")
        assert again == etag
        return queries, ms, size

    figures = {
        "(a) full page, cache empty": measure(full_page, SLOW_RUNS),
        "(b) poll after a change (drawn, gzipped)": measure(after_a_change, SLOW_RUNS),
        "(c) poll, the drawing evicted": measure(drawing_evicted, SLOW_RUNS),
    }
    etag = poll(old_etag, "200")[3]
    figures["(d) poll answered 304 (by the cache)"] = measure(lambda: poll(etag, "304")[:3], FAST_RUNS)

    def looked_up_304():
        refresh_over()
        return poll(etag, "304")[:3]

    figures["(d2) 304 after a look at the database"] = measure(looked_up_304, FAST_RUNS)
    figures["(e) poll answered 200 from the cache"] = measure(lambda: poll(old_etag, "200")[:3], FAST_RUNS)
    return figures


def measure(request, runs: int) -> tuple[int, float, float, int]:
    """(most queries, median wall ms, median CPU ms, size of the last answer in bytes) over ``runs``."""
    samples = [request() for _ in range(runs)]
    return (
        max(q for q, _ms, _b in samples),
        statistics.median(wall for _q, (wall, _cpu), _b in samples),
        statistics.median(cpu for _q, (_wall, cpu), _b in samples),
        samples[-1][2],
    )


def report(vendor: str, baseline: tuple[int, float, float, int], results: dict) -> None:
    _queries, base_ms, base_cpu, _size = baseline
    print(
        f"Standings page, {vendor}; baseline GET /login/: {base_ms:.1f} ms ({base_cpu:.1f} ms of CPU), "
        f"{baseline[0]} queries"
    )
    print(
        f"server time: median of {SLOW_RUNS} requests that work the standings out, {FAST_RUNS} of the others; "
        "CPU: this process's (the database server's aside)"
    )
    sizes = list(results)
    for tables in sizes:
        figures = results[tables]
        print(f"\n{tables} tables (setup {figures.pop('setup s'):.1f} s)")
        print(f"  {'':42}  {'queries':>7}  {'ms':>7}  {'x base':>6}  {'CPU ms':>7}  {'x base':>6}  {'kB':>6}")
        for case, (queries, ms, cpu, size) in figures.items():
            print(
                f"  {case:42}  {queries:>7}  {ms:>7.1f}  {ms / base_ms:>6.1f}  {cpu:>7.1f}  {cpu / base_cpu:>6.1f}"
                f"  {size / 1024:>6.1f}"
            )
    same = all(results[sizes[0]][case][0] == results[tables][case][0] for tables in sizes for case in results[sizes[0]])
    print(f"\nsame number of queries at every size: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
