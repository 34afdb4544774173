"""Oh Hell seating: round by round (as before) against the plan of the
whole event.

Run:  .venv/bin/python bench/seating.py

For each event (players, preferred table size, rounds) prints the repeats
(sum over every two players of max(0, times together - 1)) and the sum of
squared pair counts of the round-by-round seating (``seat_round`` each
round, seeds as the tournament services used them) and of the plan
(``plan_seating``), the CPU time of each (process time: the machine may be
shared), the counting lower bound (``lower_bound``: not always reachable),
and how the plan was made (design, search or both).

Importable without running anything (``EVENTS``, ``compare()``).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scorekeeper.pairing import pair_counts, plan_seating, seat_round  # noqa: E402

# (players, preferred table size, rounds)
EVENTS = [
    (16, 4, 5),  # affine plane of order 4
    (25, 5, 6),  # affine plane of order 5
    (15, 3, 7),  # Kirkman's schoolgirls
    (32, 4, 10),  # the social golfer problem 8-4-10 (solved: 0 repeats exist)
    (20, 4, 5),
    (49, 7, 8),  # affine plane of order 7
    (17, 4, 5),
    (23, 5, 6),
    (21, 3, 10),
    (50, 4, 8),
    (101, 5, 10),
    (200, 4, 10),
    (200, 7, 10),
    (17, 3, 8),
    (23, 6, 7),
    (50, 6, 9),
    (101, 3, 10),
]
SEED = 12345


def totals(rounds) -> tuple[int, int]:
    counts = pair_counts(t for rnd in rounds for t in rnd).values()
    return sum(c - 1 for c in counts if c > 1), sum(c * c for c in counts)


def compare(n: int, preferred: int, rounds: int, seed: int = SEED) -> dict:
    ids = list(range(n))
    cpu = time.process_time()
    played: list = []
    for number in range(1, rounds + 1):
        history = pair_counts(t for rnd in played for t in rnd)
        played.append(seat_round(ids, preferred, history, seed=seed * 1000 + number))
    before_cpu = time.process_time() - cpu
    cpu = time.process_time()
    plan = plan_seating(ids, rounds, preferred, seed=f"{seed}/0")
    plan_cpu = time.process_time() - cpu
    return {
        "before": totals(played),
        "before_s": before_cpu,
        "plan": (plan.repeats, plan.squares),
        "plan_s": plan_cpu,
        "bound": plan.bound,
        "method": plan.method,
    }


def main() -> None:
    print("event          | round by round: repeats squares CPU s | plan: repeats squares CPU s | bound | method")
    for n, size, rounds in EVENTS:
        r = compare(n, size, rounds)
        print(
            f"{n:>3} at {size} x {rounds:>2} | {r['before'][0]:>4} {r['before'][1]:>6} {r['before_s']:>6.2f} | "
            f"{r['plan'][0]:>4} {r['plan'][1]:>6} {r['plan_s']:>6.2f} | {r['bound'][0]:>4} {r['bound'][1]:>6} "
            f"| {r['method']}"
        )


if __name__ == "__main__":
    main()
