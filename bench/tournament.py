"""Timings of the tournament logic on big events (pure Python, no database).

Run:  .venv/bin/python bench/tournament.py

Prints, as the median of a few runs: pairing a Swiss round of 1,000 players
after 8 simulated rounds, seating 2,000 Oh Hell players for round 6, and the
standings of 500-table events (two-player: 1,000 players x 8 rounds; Oh Hell:
2,000 players x 6 rounds), next to a baseline measured in the same run
(sorting 1,000 players by points) and the ratio to it, so figures from
different machines can be compared.

Importable without running anything: ``measure()`` returns the rows and
``print_table()`` prints them, so more rows (e.g. the SQL queries of the
standings page) can be added to the same table.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scorekeeper.pairing import (  # noqa: E402
    oh_hell_standings,
    pair_counts,
    pair_swiss_round,
    seat_round,
    swiss_players,
    two_player_standings,
)

SWISS_PLAYERS = 1000
SWISS_ROUNDS = 8
OH_HELL_PLAYERS = 2000
OH_HELL_ROUNDS = 6


@dataclass
class Row:
    what: str
    median_s: float
    runs: int


def median_time(fn: Callable[[], object], runs: int, inner: int = 1) -> float:
    """Median wall time of one call, in seconds, over ``runs`` samples of
    ``inner`` calls each (``inner`` > 1 for operations too quick to time)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - start) / inner)
    return statistics.median(times)


def simulate_swiss(n: int = SWISS_PLAYERS, rounds: int = SWISS_ROUNDS, seed: int = 1):
    """Play ``rounds`` Swiss rounds with our own pairing and random results
    (stronger players win more often, 5% draws). Returns (ids, results, byes)."""
    rng = random.Random(seed)
    ids = [f"p{i:04d}" for i in range(n)]
    strength = {pid: rng.random() for pid in ids}
    results: list[dict] = []
    byes: list[dict] = []
    for rnd in range(1, rounds + 1):
        pairing = pair_swiss_round(swiss_players(results, byes, players=ids))
        for a, b in pairing.pairs:
            if rng.random() < 0.05:
                winner = None
            else:
                winner = a if rng.random() < strength[a] / (strength[a] + strength[b]) else b
            score_a, score_b = rng.randint(0, 300), rng.randint(0, 300)
            results.append({"round": rnd, "a": a, "b": b, "score_a": score_a, "score_b": score_b, "winner": winner})
        if pairing.bye_id is not None:
            byes.append({"round": rnd, "player": pairing.bye_id})
    return ids, results, byes


def simulate_oh_hell(n: int = OH_HELL_PLAYERS, rounds: int = OH_HELL_ROUNDS, seed: int = 1):
    """Seat ``rounds`` Oh Hell rounds with our own seating and random totals.
    Returns (ids, tables per round, table results)."""
    rng = random.Random(seed)
    ids = [f"p{i:04d}" for i in range(n)]
    history: list[list[str]] = []
    rounds_tables = []
    results = []
    for rnd in range(1, rounds + 1):
        tables = seat_round(ids, 4, pair_counts(history), seed=rnd)
        rounds_tables.append(tables)
        history += tables
        for k, table in enumerate(tables, start=1):
            totals = [rng.randrange(0, 200, 10) for _ in table]
            results.append({"round": rnd, "table": k, "players": table, "totals": totals})
    return ids, rounds_tables, results


def measure(runs: int = 5) -> tuple[Row, list[Row]]:
    """The baseline row and the measured rows."""
    ids, results, byes = simulate_swiss()
    players = swiss_players(results, byes, players=ids)
    oh_ids, oh_rounds, oh_results = simulate_oh_hell()
    history = pair_counts(t for tables in oh_rounds[:-1] for t in tables)

    standings = two_player_standings(results, byes)
    points = [(row.player_id, row.match_points) for row in standings]
    baseline = Row(
        f"baseline: sort {len(points):,} players by points",
        median_time(lambda: sorted(points, key=lambda p: -p[1]), 21, inner=100),
        21 * 100,
    )
    rows = [
        Row(
            f"Swiss pairing, {len(players):,} players after {SWISS_ROUNDS} rounds",
            median_time(lambda: pair_swiss_round(players), runs),
            runs,
        ),
        Row(
            f"Oh Hell seating, {len(oh_ids):,} players, round {OH_HELL_ROUNDS}",
            median_time(lambda: seat_round(oh_ids, 4, history, seed=OH_HELL_ROUNDS), runs),
            runs,
        ),
        Row(
            f"standings, two-player, {len(ids):,} players x {SWISS_ROUNDS} rounds",
            median_time(lambda: two_player_standings(results, byes), 3 * runs),
            3 * runs,
        ),
        Row(
            f"standings, Oh Hell, {len(oh_ids):,} players x {OH_HELL_ROUNDS} rounds",
            median_time(lambda: oh_hell_standings(oh_results), 3 * runs),
            3 * runs,
        ),
    ]
    return baseline, rows


def print_table(baseline: Row, rows: list[Row]) -> None:
    width = max(len(r.what) for r in [baseline, *rows])
    print(f"{'operation':<{width}}  {'median ms':>10}  {'runs':>4}  {'x baseline':>10}")
    for row in [baseline, *rows]:
        ratio = row.median_s / baseline.median_s if baseline.median_s else float("inf")
        print(f"{row.what:<{width}}  {row.median_s * 1000:>10.2f}  {row.runs:>4}  {ratio:>10.0f}")


def main() -> None:
    baseline, rows = measure()
    print_table(baseline, rows)


if __name__ == "__main__":
    main()
