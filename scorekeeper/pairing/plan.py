"""Seating for the whole event: plan every remaining Oh Hell round at once.

Round-by-round seating (``seat_round``) cannot see the rounds ahead, so it
repeats table-mates even where a perfect arrangement exists. When the number
of rounds is known, ``plan_seating`` plans all remaining rounds together and
minimises, in this order:

1. repeats: the sum over every two players of max(0, times together - 1);
2. the sum over every two players of (times together)², which spreads the
   unavoidable repeats (a third meeting costs more than two second ones).

Both count the rounds already played (``played``): their pair counts are the
starting point, so after a drop or a late entry the rest is planned around
what happened. How:

* a known perfect design when the tables are all of one size and one
  exists (``designs.design_for``: the affine plane AG(2, q) for q² players at
  tables of q, up to q + 1 rounds; Kirkman's schoolgirls for 15 in threes, 7
  rounds; the social golfers' schedule for 32 in fours, 10 rounds). Rounds
  already played that are classes of the design (under the seed's
  labelling, or, for a plane, a labelling read off the first two rounds
  played) are kept and the other classes follow. Rounds beyond the design
  are searched.
* otherwise simulated annealing over swaps of two players between tables of
  one round, started from the round-by-round seating, stopping as soon as it
  reaches the lower bound (``lower_bound``). Its length is a number of moves,
  not a time, so a plan is reproducible: the same players, rounds, history
  and seed give the same plan.

After a drop, ``planned_round`` goes on with the plan of the field before,
the players who left taken out, when the tables keep their sizes and it
does at least as well as a new plan (``_plan_in_force``): a design stays
perfect for the players left, where a search might not find that.

Table sizes are those of ``table_sizes`` (3 to 7, as equal as possible,
closest to the preferred size); seat order at each table is random.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from .designs import design_for
from .seating import _greedy, _local_search, pair_counts, seat_round, table_sizes

# Moves of the annealing: enough to settle a few rounds of a small field,
# capped (MAX_MOVES at tables of 4, fewer at bigger tables) so that any event
# up to 200 players x 10 rounds plans in under 2 s of CPU.
MOVES_PER_SEAT_ROUND = 4_000
MAX_MOVES = 400_000
PLAN_UP_TO = 300  # bigger fields are seated round by round (see planned_round)
WARM_START_SWAPS = 4_000  # swaps of the round-by-round start, per round
# The annealing: its cost is REPEAT_WEIGHT per repeat plus the squares; the
# temperature falls from T_START to T_END; a move starts, FOCUS of the time,
# from a pair that repeats. Tuned on 23 players at 5, 32 at 4 x 10 rounds,
# 21 in threes x 10 and 17 at 4 x 5.
REPEAT_WEIGHT = 4
T_START, T_END = 4.0, 0.1
FOCUS = 0.8
CYCLES = 2  # the temperature falls CYCLES times over the moves


@dataclass(frozen=True)
class SeatingPlan:
    """The rounds still to play (each a list of tables in seat order) and
    what the whole event then adds up to, counting the rounds played."""

    rounds: list[list[list[Hashable]]]
    repeats: int  # sum over pairs of max(0, times together - 1)
    squares: int  # sum over pairs of (times together)²
    bound: tuple[int, int]  # (repeats, squares) no plan can go below
    method: str  # "design", "design+search", "search" or "none"


def lower_bound(n: int, sizes: Sequence[int], rounds: int, counts: Iterable[int] = ()) -> tuple[int, int]:
    """The counting bound on (repeats, squares) for ``rounds`` more rounds of
    ``sizes`` over ``n`` players whose pairs have met ``counts`` times so far
    (one entry per pair that has met; pairs not listed have not).

    The new meetings go, at best, to the pairs that met least (each to a pair
    that has not met costs no repeat; each further one costs one), which
    gives both bounds. Not always reachable (a player's own table-mates may
    already have met everybody else), but tight wherever a design exists.
    """
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    new = per_round * rounds
    hist: dict[int, int] = {}
    pairs = n * (n - 1) // 2
    listed = 0
    repeats = squares = 0
    for c in counts:
        if c > 0:
            hist[c] = hist.get(c, 0) + 1
            listed += 1
            repeats += c - 1
            squares += c * c
    hist[0] = hist.get(0, 0) + pairs - listed
    # repeats: every new meeting beyond the never-met pairs is a repeat
    repeats += max(0, new - hist[0])
    # squares: water-filling, lowest counts first (a meeting at c adds 2c + 1)
    level = min(hist)
    left = new
    while left > 0:
        here = hist.pop(level, 0)
        if here:
            moved = min(here, left)
            squares += moved * (2 * level + 1)
            left -= moved
            hist[level + 1] = hist.get(level + 1, 0) + moved
            if here > moved:
                hist[level] = here - moved
                break
        level += 1
    return repeats, squares


def plan_seating(
    player_ids: Sequence[Hashable],
    rounds: int,
    preferred: int = 4,
    played: Iterable[Iterable[Iterable[Hashable]]] = (),
    seed: int | str = 0,
    *,
    max_moves: int | None = None,
) -> SeatingPlan:
    """Plan ``rounds`` more rounds for ``player_ids``.

    ``played`` lists the rounds already played, each a list of tables of
    player ids (players no longer in ``player_ids`` are ignored).
    ``max_moves`` overrides the annealing's length (for benchmarks). The
    order ``player_ids`` come in does not matter.
    """
    ids = _canonical(player_ids)
    n = len(ids)
    if len(set(ids)) != n:
        raise ValueError("Every player can be seated only once per round")
    sizes = table_sizes(n, preferred)
    index = {pid: k for k, pid in enumerate(ids)}
    history = [[[index[p] for p in table if p in index] for table in rnd] for rnd in played]
    counts = [0] * (n * n)
    for rnd in history:
        _add_round(counts, n, rnd, 1)
    bound = lower_bound(n, sizes, max(rounds, 0), (counts[a * n + b] for a in range(n) for b in range(a + 1, n)))
    rng = random.Random(f"seating plan {seed}")
    if rounds <= 0:
        rep, sq = _totals(counts, n)
        return SeatingPlan([], rep, sq, bound, "none")

    planned: list[list[list[int]]] = []
    method = "search"
    labelled = _design_rounds(n, sizes, history, rng)
    if labelled:
        planned = labelled[:rounds]
        for rnd in planned:
            _add_round(counts, n, rnd, 1)
        method = "design"
    if len(planned) < rounds:
        rest = _anneal(n, sizes, rounds - len(planned), counts, rng, bound, max_moves)
        planned += rest
        method = "design+search" if method == "design" else "search"
    final = [0] * (n * n)
    for rnd in history:
        _add_round(final, n, rnd, 1)
    for rnd in planned:
        _add_round(final, n, rnd, 1)
    rep, sq = _totals(final, n)
    out = []
    for rnd in planned:
        tables = []
        for table in sorted(rnd, key=lambda t: (-len(t), min(t))):
            table = list(table)
            rng.shuffle(table)
            tables.append([ids[k] for k in table])
        out.append(tables)
    return SeatingPlan(out, rep, sq, bound, method)


# ----------------------------------------------------------------- helpers


def _add_round(counts: list[int], n: int, tables: Iterable[Sequence[int]], step: int) -> None:
    for table in tables:
        for x, a in enumerate(table):
            for b in table[x + 1 :]:
                counts[a * n + b] += step
                counts[b * n + a] += step


def _totals(counts: list[int], n: int) -> tuple[int, int]:
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


def _design_rounds(n: int, sizes: list[int], history: list[list[list[int]]], rng: random.Random):
    """The design's rounds not yet played, mapped to players, or None when no
    design applies or the rounds played are not classes of it."""
    size = sizes[0]
    if any(s != size for s in sizes):
        return None
    design = design_for(n, size)
    if design is None:
        return None
    perm = list(range(n))
    rng.shuffle(perm)  # point -> player: the seed's labelling
    order = list(range(len(design)))
    rng.shuffle(order)
    design = [design[k] for k in order]
    labellings = [perm]
    if history and n == size * size:
        grid = _grid_labelling(history, size)
        if grid is not None:
            labellings.append(grid)
    for label in labellings:
        classes = [frozenset(frozenset(label[p] for p in line) for line in cls) for cls in design]
        used = set()
        for rnd in history:
            key = frozenset(frozenset(t) for t in rnd if t)
            if key not in classes:
                break
            used.add(classes.index(key))
        else:
            return [[[label[p] for p in line] for line in design[k]] for k in range(len(design)) if k not in used]
    return None


def _grid_labelling(history: list[list[list[int]]], q: int) -> list[int] | None:
    """For the plane AG(2, q): a labelling under which the first round played
    is the class x = c and the second (if any) the class y = b, so any one
    round, or two rounds without a repeat, continue as the plane."""
    first = history[0]
    if sorted(len(t) for t in first) != [q] * q:
        return None
    label = [-1] * (q * q)
    if len(history) == 1:
        for x, table in enumerate(first):
            for y, p in enumerate(sorted(table)):
                label[x * q + y] = p
        return label
    second = history[1]
    if sorted(len(t) for t in second) != [q] * q:
        return None
    col = {p: y for y, table in enumerate(second) for p in table}
    for x, table in enumerate(first):
        for p in table:
            y = col.get(p)
            if y is None or label[x * q + y] != -1:
                return None
            label[x * q + y] = p
    return label


def _warm_start(n: int, sizes: list[int], rounds: int, counts: list[int], rng: random.Random) -> list[list[list[int]]]:
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
        _add_round(counts, n, tables, 1)
        out.append([list(t) for t in tables])
    return out


def _deal(order: list[int], sizes: list[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def _anneal(
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
    plan = _warm_start(n, sizes, rounds, base, rng)
    flat = base[:]
    for rnd in plan:
        _add_round(flat, n, rnd, 1)
    rep, sq = _totals(flat, n)
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


def planned_round(
    player_ids: Sequence[Hashable],
    total_rounds: int,
    played: Sequence[Iterable[Iterable[Hashable]]] = (),
    preferred: int = 4,
    seed: int | str = 0,
) -> list[list[Hashable]]:
    """The tables of the next round of an event of ``total_rounds``, from the
    rounds ``played`` so far (in order) and the players seated now.

    Nothing needs storing: the plan is worked out again each round. It is
    the plan in force since the field last changed (the first of the latest
    run of rounds played by exactly these players, ``_plan_in_force``), if
    every round since went as that plan said; otherwise (an organiser's swap,
    say) a new plan of the remaining rounds from everything played so far.
    Either way it is the same tables for the same players, history and seed.

    Fields of more than ``PLAN_UP_TO`` players are seated round by round
    (``seat_round``): the plan keeps a count for every two players, and in a
    field that big the round-by-round seating hardly repeats anyway.
    """
    ids = _canonical(player_ids)
    played = [[list(table) for table in rnd] for rnd in played]
    if len(ids) > PLAN_UP_TO:
        history = pair_counts(table for rnd in played for table in rnd)
        return seat_round(list(player_ids), preferred, history, seed=f"{seed}/{len(played)}")
    now = len(played)
    anchor = _run_start(played, set(ids), now)
    rounds = _plan_in_force(ids, total_rounds, played, anchor, now - anchor + 1, preferred, seed)
    if all(_as_set(played[j]) == _as_set(rounds[j - anchor]) for j in range(anchor, now)):
        return rounds[now - anchor]
    return plan_seating(ids, max(total_rounds - now, 1), preferred, played, f"{seed}/{now}").rounds[0]


def _canonical(player_ids: Iterable[Hashable]) -> list[Hashable]:
    """The players in an order that does not depend on how they were listed
    (so a field can be rebuilt from the tables it played)."""
    ids = list(player_ids)
    try:
        return sorted(ids, key=lambda p: (type(p).__name__, p))
    except TypeError:
        return ids


def _as_set(rnd) -> set[frozenset]:
    return {frozenset(table) for table in rnd}


def _field(rnd) -> set:
    return {p for table in rnd for p in table}


def _run_start(played: list, field: set, end: int) -> int:
    """The first of the rounds before ``end`` played by exactly ``field``,
    in an unbroken run up to ``end``."""
    start = end
    while start > 0 and _field(played[start - 1]) == field:
        start -= 1
    return start


def _plan_in_force(ids, total_rounds, played, anchor, needed, preferred, seed) -> list[list[list[Hashable]]]:
    """The rounds from ``anchor`` on that the field ``ids`` plays: a plan of
    them from the rounds before (``plan_seating``), or, after a drop, the
    plan of the field before, with the players who left taken out, when its
    rounds so far went as planned, its tables keep the sizes
    (``table_sizes``) and it does at least as well. So a perfect design
    goes on without repeats after a drop, where a search might not find
    one."""
    field = set(ids)
    before = played[:anchor]
    rounds = max(total_rounds - anchor, needed)
    sizes = table_sizes(len(ids), preferred)
    carried = None
    if anchor > 0:
        wider = _field(played[anchor - 1])
        if field < wider and _from_a_design(played, anchor, preferred):
            start = _run_start(played, wider, anchor)
            earlier = _plan_in_force(
                _canonical(wider), total_rounds, played, start, anchor - start + rounds, preferred, seed
            )
            if all(_as_set(played[j]) == _as_set(earlier[j - start]) for j in range(start, anchor)):
                rest = [[[p for p in t if p in field] for t in rnd] for rnd in earlier[anchor - start :]]
                rest = [[t for t in rnd if t] for rnd in rest]
                if len(rest) >= rounds and all(sorted(map(len, rnd), reverse=True) == sizes for rnd in rest):
                    carried = rest[:rounds]
    if carried is not None:
        score = _score(ids, before, carried)
        counts = pair_counts(t for rnd in before for t in ([p for p in t if p in field] for t in rnd))
        if score <= lower_bound(len(ids), sizes, rounds, counts.values()):
            return carried
    plan = plan_seating(ids, rounds, preferred, before, f"{seed}/{anchor}")
    if carried is not None and _score(ids, before, carried) <= (plan.repeats, plan.squares):
        return carried
    return plan.rounds


def _from_a_design(played: list, anchor: int, preferred: int) -> bool:
    """Whether the fields before ``anchor``, followed back through each drop
    (each field a strict superset of the next), start from one that a
    design seats: only then is the plan of the field before worth working
    out again (cheap for a design; a second search would overrun the time
    a plan may take)."""
    field = _field(played[anchor - 1])
    start = _run_start(played, field, anchor)
    while start > 0 and field < _field(played[start - 1]):
        field = _field(played[start - 1])
        start = _run_start(played, field, start)
    sizes = table_sizes(len(field), preferred)
    return all(s == sizes[0] for s in sizes) and design_for(len(field), sizes[0]) is not None


def _score(ids, before, rounds) -> tuple[int, int]:
    """(repeats, squares) of the rounds ``before`` and ``rounds``, counting
    only the players ``ids``."""
    field = set(ids)
    counts = pair_counts(t for rnd in [*before, *rounds] for t in ([p for p in t if p in field] for t in rnd))
    return sum(c - 1 for c in counts.values() if c > 1), sum(c * c for c in counts.values())
