"""A player's page with 1,000 matches, through Django, on a fresh SQLite
database (or DATABASE_URL if set to a PostgreSQL database you may fill).

Run:  .venv/bin/python bench/player_page.py [--matches 1000]

Builds one player's history: --matches finished matches of the four games
in turn (Spades to 300, Draw Bridge to 500, Sixty-Six to 7, Oh Hell with 3
players going up to 5 cards), against 20 opponents, written in bulk (the
hands as the services would store them, the results from score_match).
Then the server time and CPU (median; through Django's WSGI handler, the
app in production settings) and the SQL queries of:

  (a) the page with every cache empty: every match scored, ratings worked out;
  (b) the page again: scored matches and ratings from the cache;
  (c) the ratings page (four leaderboards), cached;

next to a baseline measured in the same run (GET /login/). Target: the page
under 200 ms of server time with 1,000 matches.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.environment import environment, measured_get  # noqa: E402

RUNS = 7


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="scorekeeper-player-")
    try:
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
        os.environ.update(environment(), CACHE_DIR=f"{workdir}/cache")
        import django

        django.setup()
        from django.core.management import call_command
        from django.test.utils import override_settings

        call_command("migrate", verbosity=0)
        override_settings(STATIC_ROOT=f"{workdir}/static").enable()
        call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"])
        run(args.matches, args.profile)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def random_hand(game: str, k: int, rng: random.Random, players: int) -> dict:
    if game == "spades":  # bids near the tricks, so a match reaches its target
        a = rng.randint(2, 11)
        return {"bids": [max(1, a - rng.randint(0, 1)), max(1, 13 - a - rng.randint(0, 2))], "tricks": [a, 13 - a]}
    if game == "drawbridge":
        return {
            "declarer": k % 2,
            "level": rng.randint(1, 4),
            "strain": rng.choice("CDHS"),
            "tricks": rng.randint(6, 12),
        }
    if game == "sixtysix":
        a = rng.randint(40, 90)
        return {"end": "played_out", "player": k % 2, "points": [a, 130 - a], "opponent_took_trick": True}
    cards = k + 1  # Oh Hell, schedule "up"
    tricks = [0] * players
    for _ in range(cards):
        tricks[rng.randrange(players)] += 1
    return {"bids": [rng.randint(0, cards) for _ in range(players)], "tricks": tricks}


GAMES = {
    "spades": ({"target": 300}, 2),
    "drawbridge": ({"target": 500}, 2),
    "sixtysix": ({"target": 7}, 2),
    "ohhell": ({"schedule": "up"}, 3),
}


def build(count: int):
    """The player's matches, finished, written in bulk."""
    from django.utils import timezone

    from scorekeeper.models import Hand, Match, Player, Seat
    from scorekeeper.scoring import InvalidHand, score_match

    rng = random.Random(1)
    me = Player.objects.create(name="Me")
    others = [Player.objects.create(name=f"Opponent {i:02d}") for i in range(20)]
    games = list(GAMES)
    made = 0
    now = timezone.now()
    while made < count:
        game = games[made % len(games)]
        options, n = GAMES[game]
        seated = [me, *rng.sample(others, n - 1)]
        rng.shuffle(seated)
        names = [p.name for p in seated]
        hands: list[dict] = []
        result = None
        for _attempt in range(500):
            hand = random_hand(game, len(hands), rng, n)
            try:
                result = score_match({"game": game, "players": names, "options": options, "hands": [*hands, hand]})
            except InvalidHand:
                if game == "ohhell" and len(hands) >= 5:
                    break
                continue
            hands.append(hand)
            if result["finished"] or (game == "ohhell" and len(hands) == 5):
                break
        result = score_match({"game": game, "players": names, "options": options, "hands": hands})
        match = Match.objects.create(
            game=game,
            options=options,
            status=Match.Status.FINISHED,
            player_names=names,
            totals=result["totals"],
            winners=result["winners"] or [result["totals"].index(max(result["totals"]))],
            hands_played=len(hands),
            finished_at=now,
        )
        Seat.objects.bulk_create(Seat(match=match, player=p, position=i) for i, p in enumerate(seated))
        Hand.objects.bulk_create(Hand(match=match, number=i + 1, entry=h) for i, h in enumerate(hands))
        made += 1
    return me


def run(count: int, profile: bool = False) -> None:
    from django.core.cache import cache
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection

    app = WSGIHandler()

    def get(path: str):
        status, _headers, body, queries, ms = measured_get(app, path)
        assert status.startswith("200"), status
        return queries, ms, len(body)

    def measure(path: str, before=None):
        figures = []
        for _ in range(RUNS):
            if before:
                before()
            figures.append(get(path))
        queries = figures[-1][0]
        wall = statistics.median(f[1][0] for f in figures)
        cpu = statistics.median(f[1][1] for f in figures)
        return queries, wall, cpu, figures[-1][2]

    for _ in range(3):
        get("/login/")
    start = time.perf_counter()
    me = build(count)
    hands = sum(1 for _ in me.seats.all())
    print(f"{connection.vendor}: {hands} matches of one player built in {time.perf_counter() - start:.1f} s")
    base = measure("/login/")
    rows = [
        ("baseline: GET /login/", base),
        ("(a) player page, caches empty", measure(f"/players/{me.pk}/", before=cache.clear)),
        ("(b) player page, cached", measure(f"/players/{me.pk}/")),
        ("(c) ratings page, cached", measure("/ratings/")),
    ]
    print(f"{'':40} {'queries':>8} {'ms':>8} {'x base':>7} {'CPU ms':>8} {'kB':>7}")
    for label, (queries, wall, cpu, size) in rows:
        print(f"{label:40} {queries:8d} {wall:8.1f} {wall / base[1]:7.1f} {cpu:8.1f} {size / 1024:7.1f}")
    if profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.runcall(get, f"/players/{me.pk}/")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    print(f"target: (a) and (b) under 200 ms: {'yes' if max(rows[1][1][1], rows[2][1][1]) < 200 else 'NO'}")


if __name__ == "__main__":
    main()
