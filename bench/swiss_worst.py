"""Swiss pairing of big fields in the worst cases we could construct.

Run:  .venv/bin/python bench/swiss_worst.py

Each line pairs one round of a field built to hit a slow corner of the
block pairing (fields over 64 are paired in blocks of about 32 from the top
down, and the bottom re-matched until it works) and prints the CPU time
(process time: the machine may be shared), the wall time, and what the
round came to: rematches, whether the bye went to the lowest-ranked player
who could take it, and the largest point difference on a board. Targets:
every case under 2 s, typical rounds under 1 s.

Importable without running anything (``cases()``, ``run()``).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scorekeeper.pairing import SwissPlayer, pair_swiss_round, swiss_players  # noqa: E402


def clique(n: int, members: range, points=lambda i: 0, byes=()) -> list[SwissPlayer]:
    """``n`` players ranked by id; everyone in ``members`` has met everyone
    else in it (and nobody else)."""
    inside = set(members)
    return [
        SwissPlayer(
            id=i,
            points=points(i),
            seed=i,
            opponents=frozenset(inside - {i}) if i in inside else frozenset(),
            byes=int(i in byes),
        )
        for i in range(n)
    ]


def groups(n: int, size: int) -> list[SwissPlayer]:
    """Everyone has met everyone else of their group of ``size`` (ranks in a row)."""
    return [
        SwissPlayer(
            id=i,
            seed=i,
            opponents=frozenset(j for j in range(i // size * size, min(n, i // size * size + size)) if j != i),
        )
        for i in range(n)
    ]


def simulated(n: int, rounds: int) -> list[SwissPlayer]:
    sys.path.insert(0, str(ROOT / "bench"))
    from tournament import simulate_swiss

    ids, results, byes = simulate_swiss(n, rounds)
    return swiss_players(results, byes, players=ids)


def cases() -> list[tuple[str, object]]:
    """(what, a function building the players): built lazily."""
    return [
        ("1,000 players, round 1 (all on 0)", lambda: clique(1000, range(0))),
        ("1,000 players after 8 rounds (typical)", lambda: simulated(1000, 8)),
        ("999 players after 8 rounds (a bye)", lambda: simulated(999, 8)),
        ("1,000 on 0, the bottom 70 have all met", lambda: clique(1000, range(930, 1000))),
        ("1,001 on 0, the bottom 70 have all met (a bye)", lambda: clique(1001, range(931, 1001))),
        ("1,000 on 0, the top 70 have all met", lambda: clique(1000, range(70))),
        ("1,000 on 0, 70 in the middle have all met", lambda: clique(1000, range(465, 535))),
        ("1,000 on 0, the bottom 200 have all met", lambda: clique(1000, range(800, 1000))),
        ("1,000 on 0, groups of 31 have all met (30 rounds each)", lambda: groups(1000, 31)),
        ("1,000 on 0, groups of 64 have all met (beyond 30 rounds)", lambda: groups(1000, 64)),
        ("1,001 on 0, groups of 64 have all met (a bye)", lambda: groups(1001, 64)),
        ("1,000 on 0, groups of 128 have all met", lambda: groups(1000, 128)),
        ("1,000 on 0, the bottom 300 have all met", lambda: clique(1000, range(700, 1000))),
        (
            "1,001 on 0, the bottom 71 have met, the lowest 20 had a bye",
            lambda: clique(1001, range(930, 1001), byes=range(981, 1001)),
        ),
        ("67 on 0, the two above the lowest have met", lambda: _bye_67()),
    ]


def _bye_67() -> list[SwissPlayer]:
    players = clique(67, range(0))
    players[64] = SwissPlayer(id=64, seed=64, opponents=frozenset({65}))
    players[65] = SwissPlayer(id=65, seed=65, opponents=frozenset({64}))
    return players


def describe(players: list[SwissPlayer], pairing) -> str:
    by_id = {p.id: p for p in players}
    rank = sorted(players, key=lambda p: (-p.points, p.seed))
    bye = ""
    if pairing.bye_id is not None:
        fresh = [p for p in rank if p.byes == 0]
        lowest = fresh[-1].id if fresh else rank[-1].id
        bye = f", bye to {pairing.bye_id} (lowest without one: {lowest})"
    spread = max((abs(by_id[a].points - by_id[b].points) for a, b in pairing.pairs), default=0)
    return f"{len(pairing.rematches)} rematches{bye}, largest point gap {spread:g}"


def run() -> list[tuple[str, float, float, str]]:
    rows = []
    for what, build in cases():
        players = build()
        wall, cpu = time.perf_counter(), time.process_time()
        pairing = pair_swiss_round(players)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        rows.append((what, cpu, wall, describe(players, pairing)))
    return rows


def main() -> None:
    rows = run()
    width = max(len(r[0]) for r in rows)
    print(f"{'field':<{width}}  {'CPU s':>6}  {'wall s':>6}  result")
    for what, cpu, wall, result in rows:
        print(f"{what:<{width}}  {cpu:>6.2f}  {wall:>6.2f}  {result}")


if __name__ == "__main__":
    main()
