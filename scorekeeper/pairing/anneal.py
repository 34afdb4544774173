"""The simulated annealing of a seating plan (``anneal``): swaps of two
players between the tables of one round, started from the round-by-round
seating (``warm_start``: ``seat_round``'s greedy start and swaps, round
after round), for a fixed number of moves. ``plan.py`` runs it wherever no
design applies (the tabu search of ``tabu.py`` then goes on from its plan),
and as the fallback after a design's rounds: it is the plan made before
there were designs and the tabu search, unchanged.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence

from .seating import _greedy, _local_search

# Moves of the annealing: enough to settle a few rounds of a small field,
# capped (MAX_MOVES at tables of 4, fewer at bigger tables) so that any event
# up to 200 players x 10 rounds plans in under 2 s of CPU, tabu search included.
MOVES_PER_SEAT_ROUND = 4_000
MAX_MOVES = 400_000
WARM_START_SWAPS = 4_000  # swaps of the round-by-round start, per round
# The annealing: its cost is REPEAT_WEIGHT per repeat plus the squares; the
# temperature falls from T_START to T_END; a move starts, FOCUS of the time,
# from a pair that repeats. Tuned on 23 players at 5, 32 at 4 x 10 rounds,
# 21 in threes x 10 and 17 at 4 x 5.
REPEAT_WEIGHT = 4
T_START, T_END = 4.0, 0.1
FOCUS = 0.8
CYCLES = 2  # the temperature falls CYCLES times over the moves


def add_round(counts: list[int], n: int, tables: Iterable[Sequence[int]], step: int) -> None:
    for table in tables:
        for x, a in enumerate(table):
            for b in table[x + 1 :]:
                counts[a * n + b] += step
                counts[b * n + a] += step


def totals(counts: list[int], n: int) -> tuple[int, int]:
    rep = sq = 0
    for a in range(n):
        row = a * n
        for b in range(a + 1, n):
            c = counts[row + b]
            if c:
                sq += c * c
                if c > 1:
                    rep += c - 1
    return rep, sq


def warm_start(n: int, sizes: list[int], rounds: int, counts: list[int], rng: random.Random) -> list[list[list[int]]]:
    """The round-by-round seating (greedy, then swaps), round after round."""
    counts = counts[:]
    out = []
    for _ in range(rounds):
        w = [{} for _ in range(n)]
        for a in range(n):
            row = a * n
            wa = w[a]
            for b in range(n):
                c = counts[row + b]
                if c and a != b:
                    wa[b] = c * c
        order = list(range(n))
        rng.shuffle(order)
        tables = _greedy(order, sizes, w) if any(w) else _deal(order, sizes)
        if any(w):
            tables = _local_search(tables, w, rng, WARM_START_SWAPS)
        add_round(counts, n, tables, 1)
        out.append([list(t) for t in tables])
    return out


def _deal(order: list[int], sizes: list[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def anneal(
    n: int,
    sizes: list[int],
    rounds: int,
    base: list[int],
    rng: random.Random,
    bound: tuple[int, int] | None,
    max_moves: int | None,
) -> list[list[list[int]]]:
    """Simulated annealing over swaps of two players between two tables of
    one round, started from the round-by-round seating. ``base`` holds the
    pair counts of the rounds before.

    A move swaps two players of one round: most of the time one of them
    belongs to a pair that meets more than once (and at least once in the
    plan) and the round is one where that pair shares a table; otherwise a
    random player. Its cost is ``REPEAT_WEIGHT`` per repeat plus the change
    of the squares; worse moves pass with probability exp(-cost / T) as the
    temperature T falls. The best plan seen (repeats, then squares) is kept,
    and the search stops at the lower bound. Its length is a number of moves
    (``max_moves``), not a time, so the result is reproducible."""
    plan = warm_start(n, sizes, rounds, base, rng)
    flat = base[:]
    for rnd in plan:
        add_round(flat, n, rnd, 1)
    rep, sq = totals(flat, n)
    best = (rep, sq)
    best_plan = [[t[:] for t in rnd] for rnd in plan]
    if len(sizes) < 2 or (bound is not None and best <= bound):
        return best_plan
    counts = [flat[a * n : a * n + n] for a in range(n)]
    mine = [[0] * n for _ in range(n)]  # meetings inside the plan only
    for rnd in plan:
        for table in rnd:
            for a in table:
                row = mine[a]
                for b in table:
                    if a != b:
                        row[b] += 1
    where = [[0] * n for _ in range(rounds)]
    for r, rnd in enumerate(plan):
        for t, table in enumerate(rnd):
            for p in table:
                where[r][p] = t
    where_of = [[where[r][p] for r in range(rounds)] for p in range(n)]
    # a move costs about the table size: big tables get fewer moves
    limit = MAX_MOVES * 4 // max(4, sizes[0])
    budget = max_moves if max_moves is not None else min(limit, MOVES_PER_SEAT_ROUND * n * rounds)
    top = max(flat) + rounds + 2

    # the pairs that repeat and meet in the plan: the ones a swap can mend
    conflicts: list[tuple[int, int]] = []
    slot: dict[tuple[int, int], int] = {}

    def touch(a: int, b: int) -> None:
        key = (a, b) if a < b else (b, a)
        bad = counts[a][b] >= 2 and mine[a][b] >= 1
        if bad and key not in slot:
            slot[key] = len(conflicts)
            conflicts.append(key)
        elif not bad and key in slot:
            k = slot.pop(key)
            last = conflicts.pop()
            if k < len(conflicts):
                conflicts[k] = last
                slot[last] = k

    for a in range(n):
        for b in range(a + 1, n):
            if counts[a][b] >= 2:
                touch(a, b)

    def apply(r: int, a: int, ta: int, b: int, tb: int) -> tuple[int, int]:
        A, B = plan[r][ta], plan[r][tb]
        drep = dsq = 0
        ca, cb, ma, mb = counts[a], counts[b], mine[a], mine[b]
        for others, gone, came in ((A, a, b), (B, b, a)):
            cg, cc, mg, mc = (ca, cb, ma, mb) if gone == a else (cb, ca, mb, ma)
            for x in others:
                if x == gone:
                    continue
                c = cg[x]
                drep -= c >= 2
                dsq -= 2 * c - 1
                cg[x] = c - 1
                counts[x][gone] = c - 1
                mg[x] -= 1
                mine[x][gone] -= 1
                c = cc[x]
                drep += c >= 1
                dsq += 2 * c + 1
                cc[x] = c + 1
                counts[x][came] = c + 1
                mc[x] += 1
                mine[x][came] += 1
                touch(gone, x)
                touch(came, x)
        A[A.index(a)] = b
        B[B.index(b)] = a
        where[r][a], where[r][b] = tb, ta
        where_of[a][r], where_of[b][r] = tb, ta
        return drep, dsq

    tables_count = len(sizes)
    random_ = rng.random
    exp = math.exp
    w = REPEAT_WEIGHT
    jw = [w * (c >= 1) + 2 * c + 1 for c in range(top)]  # one more meeting at count c
    lw = [-(w * (c >= 2) + 2 * c - 1) for c in range(top)]  # one fewer
    t0, t1 = T_START, T_END
    ratio = math.log(t1 / t0)
    temp = t0
    cycle = max(1, budget // CYCLES)
    for it in range(budget):
        if it & 1023 == 0:
            temp = t0 * exp(ratio * (it % cycle) / cycle)
        if conflicts and random_() < FOCUS:
            p, q = conflicts[int(random_() * len(conflicts))]
            wp, wq = where_of[p], where_of[q]
            together = [r for r in range(rounds) if wp[r] == wq[r]]
            r = together[int(random_() * len(together))]
            a = p if random_() < 0.5 else q
            ta = where[r][a]
        else:
            r = int(random_() * rounds)
            ta = int(random_() * tables_count)
            A = plan[r][ta]
            a = A[int(random_() * len(A))]
        rnd = plan[r]
        A = rnd[ta]
        tb = int(random_() * (tables_count - 1))
        if tb >= ta:
            tb += 1
        B = rnd[tb]
        b = B[int(random_() * len(B))]
        ca, cb = counts[a], counts[b]
        key = 0
        for x in A:
            if x != a:
                key += lw[ca[x]] + jw[cb[x]]
        for y in B:
            if y != b:
                key += lw[cb[y]] + jw[ca[y]]
        if key > 0 and random_() >= exp(-key / temp):
            continue
        dr, ds = apply(r, a, ta, b, tb)
        rep += dr
        sq += ds
        if rep < best[0] or (rep == best[0] and sq < best[1]):
            best = (rep, sq)
            best_plan = [[t[:] for t in rd] for rd in plan]
            if bound is not None and best <= bound:
                break
    return best_plan
