"""Oh Hell seating: round by round, the plan of the whole event before the
designs and the tabu search (``BASELINE``, the code at that commit, run in
the same process), and the plan now.

Run:  .venv/bin/python bench/seating.py [--quick] [--grid]

For each event (players, preferred table size, rounds) prints the repeats
(sum over every two players of max(0, times together - 1)) and the sum of
squared pair counts of the round-by-round seating (``seat_round`` each
round, seeds as the tournament services used them), of the plan before and
of the plan now (``plan_seating``), the CPU time of the two plans (process
time: the machine may be shared), the counting lower bound (``lower_bound``:
not always reachable) and how the plan was made: the design's name, or
search. ``--quick`` leaves out the round-by-round seating. ``--grid`` also
runs every field of 16 to 200 players (step 8, and 16 + 8k - 1) at every
preferred size 3 to 7 for 5 and 10 rounds, and sums up: how many plans are
better, as good and worse than before, how many reach the bound, and the
most CPU a plan took.

Importable without running anything (``EVENTS``, ``compare()``,
``baseline()``).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
import time
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scorekeeper.pairing import pair_counts, plan_seating, seat_round, table_sizes  # noqa: E402
from scorekeeper.pairing.designs import describe  # noqa: E402

BASELINE = "4f8a725"  # the last commit before the designs of issue 25, item 5

# (players, preferred table size, rounds)
EVENTS = [
    (16, 4, 5),  # affine plane of order 4
    (25, 5, 6),  # affine plane of order 5
    (15, 3, 7),  # Kirkman's schoolgirls
    (32, 4, 10),  # the social golfer problem 8-4-10 (solved: 0 repeats exist)
    (20, 4, 5),
    (49, 7, 8),  # affine plane of order 7
    (21, 3, 10),  # KTS(21)
    (27, 3, 13),  # KTS(27) = AG(3, 3)
    (28, 4, 9),  # resolvable (28, 4, 1)
    (40, 4, 13),  # resolvable (40, 4, 1)
    (64, 4, 10),  # AG(3, 4)
    (33, 3, 16),  # KTS(33), from a pairwise balanced design
    (69, 3, 10),  # KTS(69), likewise
    (125, 5, 10),  # AG(3, 5)
    (196, 4, 10),  # resolvable (196, 4, 1) from a pairing of Z_65
    (201, 3, 10),  # KTS(201)
    (15, 4, 5),  # 16 less one
    (27, 4, 9),  # 28 less one
    (26, 4, 8),  # 28 less two: 8 of the 9 rounds
    (24, 5, 6),  # 25 less one
    (48, 7, 8),  # 49 less one
    (17, 4, 5),
    (23, 5, 6),
    (50, 4, 8),
    (101, 5, 10),
    (100, 4, 25),  # resolvable (100, 4, 1) from three pairings of Z_33
    (200, 4, 10),
    (200, 7, 10),
    (17, 3, 8),
    (23, 6, 7),
    (30, 6, 5),
    (50, 6, 9),
    (101, 3, 10),
    (35, 5, 7),
    (42, 6, 8),
    (18, 3, 8),
    (19, 4, 6),
]
SEED = 12345


@cache
def baseline():
    """``plan_seating`` as it was at ``BASELINE``: that commit's
    scorekeeper/pairing, copied out with git into a temporary package."""
    where = Path(tempfile.mkdtemp(prefix="seating-baseline-"))
    package = where / "pairing_before"
    package.mkdir()
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{BASELINE}:scorekeeper/pairing"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for name in names:
        if name.endswith(".py"):
            source = subprocess.run(
                ["git", "show", f"{BASELINE}:scorekeeper/pairing/{name}"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            (package / name).write_text(source)
    sys.path.insert(0, str(where))
    return importlib.import_module("pairing_before.plan").plan_seating


def totals(rounds) -> tuple[int, int]:
    counts = pair_counts(t for rnd in rounds for t in rnd).values()
    return sum(c - 1 for c in counts if c > 1), sum(c * c for c in counts)


def compare(n: int, preferred: int, rounds: int, seed: int = SEED, *, by_round: bool = True, before: bool = True):
    ids = list(range(n))
    row: dict = {}
    if by_round:
        played: list = []
        for number in range(1, rounds + 1):
            history = pair_counts(t for rnd in played for t in rnd)
            played.append(seat_round(ids, preferred, history, seed=seed * 1000 + number))
        row["by_round"] = totals(played)
    if before:
        cpu = time.process_time()
        old = baseline()(ids, rounds, preferred, seed=f"{seed}/0")
        row["before_s"] = time.process_time() - cpu
        row["before"] = (old.repeats, old.squares)
    cpu = time.process_time()
    plan = plan_seating(ids, rounds, preferred, seed=f"{seed}/0")
    row["plan_s"] = time.process_time() - cpu
    row["plan"] = (plan.repeats, plan.squares)
    row["bound"] = plan.bound
    row["method"] = plan.method
    sizes = table_sizes(n, preferred)
    row["how"] = plan.method if plan.method == "search" else f"{describe(n, sizes)}, {plan.method}"
    return row


def grid() -> list[tuple[int, int, int]]:
    return [
        (n, size, rounds)
        for n in sorted({*range(16, 201, 8), *range(23, 201, 8)})
        for size in range(3, 8)
        for rounds in (5, 10)
    ]


def summary(events) -> None:
    better = same = worse = at_bound = 0
    slowest = (0.0, None)
    for n, size, rounds in events:
        r = compare(n, size, rounds, by_round=False)
        better += r["plan"] < r["before"]
        same += r["plan"] == r["before"]
        worse += r["plan"] > r["before"]
        at_bound += r["plan"] == r["bound"]
        slowest = max(slowest, (r["plan_s"], (n, size, rounds)))
    print(
        f"{len(events)} events: {better} better than before, {same} as good, {worse} worse; "
        f"{at_bound} at the bound; slowest plan {slowest[0]:.2f} s CPU ({slowest[1][0]} at {slowest[1][1]} "
        f"x {slowest[1][2]})"
    )


def main() -> None:
    quick = "--quick" in sys.argv
    print("event          | round by round | before: repeats squares CPU s | now: repeats squares CPU s | bound | how")
    for n, size, rounds in EVENTS:
        r = compare(n, size, rounds, by_round=not quick)
        by_round = "" if quick else f"{r['by_round'][0]:>4} {r['by_round'][1]:>6}"
        print(
            f"{n:>3} at {size} x {rounds:>2} | {by_round:>11} | "
            f"{r['before'][0]:>4} {r['before'][1]:>6} {r['before_s']:>6.2f} | "
            f"{r['plan'][0]:>4} {r['plan'][1]:>6} {r['plan_s']:>6.2f} | {r['bound'][0]:>4} {r['bound'][1]:>6} "
            f"| {r['how']}",
            flush=True,
        )
    if "--grid" in sys.argv:
        summary(grid())


if __name__ == "__main__":
    main()
