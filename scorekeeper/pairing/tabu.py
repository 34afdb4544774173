"""A tabu search that improves a seating plan (``improve``), run after the
annealing of ``plan.py``: the local search of Dotú and Van Hentenryck for
the social golfer problem ("Scheduling social golfers locally", CPAIOR
2005), on the plan's objective.

Each step draws a few pairs that repeat and sit together in the plan, and
makes the best of the swaps of one of those players, in a round where its
pair sits together, with anyone at another table of that round, even a
worse one, except that a player may not go back to a table of a round it
left in the last few steps (the tabu tenure) unless that makes a new best.
After a long run without a new best it starts again from the best plan,
with a few random swaps. It keeps the best plan seen (repeats, then
squares), so it never returns a worse plan than it was given. Its length
is a number of swaps evaluated, not a time, so the result is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

# Tuned on 14 to 60 players at tables of 3 to 6, 5 to 10 rounds (their
# annealed plans): about 10% fewer repeats in 400,000 swaps evaluated.
REPEAT_WEIGHT = 16  # a repeat against a point of squares, in a step's choice
SAMPLE = 4  # repeating pairs drawn each step
TENURE = (2, 8)  # steps a player may not go back, drawn at random
STALL = 2_000  # steps without a new best before a restart from the best
KICK = 3  # random swaps of a restart


class _State:
    """A plan with its pair counts (``counts``: the rounds before and the
    plan; ``mine``: the plan only), where everybody sits, and the pairs that
    repeat and meet in the plan (``conflicts``: the ones a swap can mend)."""

    def __init__(self, n: int, plan: list[list[list[int]]], base: Sequence[int]):
        self.n = n
        self.plan = [[t[:] for t in rnd] for rnd in plan]
        self.counts = [list(base[a * n : a * n + n]) for a in range(n)]
        self.mine = [[0] * n for _ in range(n)]
        self.where = [[0] * n for _ in plan]
        for r, rnd in enumerate(self.plan):
            for k, t in enumerate(rnd):
                for a in t:
                    self.where[r][a] = k
                    for b in t:
                        if a != b:
                            self.counts[a][b] += 1
                            self.mine[a][b] += 1
        self.rep = self.sq = 0
        self.conflicts: list[tuple[int, int]] = []
        self.slot: dict[tuple[int, int], int] = {}
        for a in range(n):
            row = self.counts[a]
            for b in range(a + 1, n):
                c = row[b]
                self.sq += c * c
                if c > 1:
                    self.rep += c - 1
                    self.touch(a, b)

    def touch(self, a: int, b: int) -> None:
        key = (a, b) if a < b else (b, a)
        bad = self.counts[a][b] >= 2 and self.mine[a][b] >= 1
        slot, conflicts = self.slot, self.conflicts
        if bad and key not in slot:
            slot[key] = len(conflicts)
            conflicts.append(key)
        elif not bad and key in slot:
            k = slot.pop(key)
            last = conflicts.pop()
            if k < len(conflicts):
                conflicts[k] = last
                slot[last] = k

    def swap(self, r: int, x: int, y: int) -> None:
        """Swap x and y (at different tables of round r)."""
        where = self.where[r]
        tx, ty = where[x], where[y]
        A, B = self.plan[r][tx], self.plan[r][ty]
        counts, mine = self.counts, self.mine
        for others, gone, came in ((A, x, y), (B, y, x)):
            for z in others:
                if z == gone:
                    continue
                c = counts[gone][z]
                self.rep -= c >= 2
                self.sq -= 2 * c - 1
                counts[gone][z] = counts[z][gone] = c - 1
                mine[gone][z] -= 1
                mine[z][gone] -= 1
                c = counts[came][z]
                self.rep += c >= 1
                self.sq += 2 * c + 1
                counts[came][z] = counts[z][came] = c + 1
                mine[came][z] += 1
                mine[z][came] += 1
                self.touch(gone, z)
                self.touch(came, z)
        A[A.index(x)] = y
        B[B.index(y)] = x
        where[x], where[y] = ty, tx


def improve(
    n: int,
    plan: list[list[list[int]]],
    base: Sequence[int],
    rng: random.Random,
    bound: tuple[int, int],
    budget: int,
) -> list[list[list[int]]]:
    """The best plan found from ``plan`` (rounds of tables of players
    0..n-1) within ``budget`` swaps evaluated; ``base`` holds the pair
    counts of the rounds before (flat, n * n). Stops at ``bound``."""
    rounds = len(plan)
    state = _State(n, plan, base)
    best = (state.rep, state.sq)
    best_plan = [[t[:] for t in rnd] for rnd in state.plan]
    if rounds == 0 or len(plan[0]) < 2 or best <= bound:
        return best_plan
    top = max(max(row) for row in state.counts) + rounds + 2
    w = REPEAT_WEIGHT
    jw = [w * (c >= 1) + 2 * c + 1 for c in range(top)]  # one more meeting at count c
    lw = [-(w * (c >= 2) + 2 * c - 1) for c in range(top)]  # one fewer
    tables = len(plan[0])
    low, high = TENURE
    tabu = [[0] * (n * tables) for _ in range(rounds)]  # [r][x * tables + t]: x stays out of t until then
    random_ = rng.random
    evaluated = step = since = 0
    while evaluated < budget and state.conflicts:
        step += 1
        conflicts, where_all, counts = state.conflicts, state.where, state.counts
        movers = set()
        for _ in range(SAMPLE):
            p, q = conflicts[int(random_() * len(conflicts))]
            for r in range(rounds):
                if where_all[r][p] == where_all[r][q]:
                    movers.add((r, p))
                    movers.add((r, q))
        # a swap whose cost is below this makes a new best: allowed even if tabu
        aim = (best[0] - state.rep) * w + (best[1] - state.sq)
        pick, pick_key, ties = None, 0, 0
        for r, x in sorted(movers):
            rnd, where, banned = state.plan[r], where_all[r], tabu[r]
            tx = where[x]
            A = rnd[tx]
            cx = counts[x]
            leave_x = 0
            for z in A:
                if z != x:
                    leave_x += lw[cx[z]]
            for tb, B in enumerate(rnd):
                if tb == tx:
                    continue
                x_banned = banned[x * tables + tb] > step
                join_x = 0
                for z in B:
                    join_x += jw[cx[z]]
                for y in B:
                    cy = counts[y]
                    key = leave_x + join_x - jw[cx[y]]
                    for z in A:
                        if z != x:
                            key += jw[cy[z]]
                    for z in B:
                        if z != y:
                            key += lw[cy[z]]
                    if (x_banned or banned[y * tables + tx] > step) and key >= aim:
                        continue
                    if pick is None or key < pick_key:
                        pick, pick_key, ties = (r, x, y), key, 1
                    elif key == pick_key:
                        ties += 1
                        if random_() * ties < 1:
                            pick = (r, x, y)
                evaluated += len(B)
        if pick is None:
            continue
        r, x, y = pick
        tx, ty = where_all[r][x], where_all[r][y]
        state.swap(r, x, y)
        tabu[r][x * tables + tx] = step + low + int(random_() * (high - low + 1))
        tabu[r][y * tables + ty] = step + low + int(random_() * (high - low + 1))
        if (state.rep, state.sq) < best:
            best, since = (state.rep, state.sq), 0
            best_plan = [[t[:] for t in rd] for rd in state.plan]
            if best <= bound:
                break
            continue
        since += 1
        if since >= STALL:  # start again from the best, kicked a little
            state = _State(n, best_plan, base)
            for _ in range(KICK):
                rr = int(random_() * rounds)
                ta, tb = rng.sample(range(tables), 2)
                state.swap(rr, rng.choice(state.plan[rr][ta]), rng.choice(state.plan[rr][tb]))
            tabu = [[0] * (n * tables) for _ in range(rounds)]
            step = since = 0
    return best_plan
