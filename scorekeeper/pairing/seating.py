"""Seated rounds for Oh Hell: split the field into tables of 3 to 7 and
keep players from meeting the same opponents again and again.

Cost of a seating: the sum, over every two players put at the same table,
of (times they have sat together before) squared. A new pair costs 0, a
second meeting 1, a third 4, a fourth 9: the squares make the search spread
unavoidable repeats over many pairs instead of seating the same two players
together a third time. (Minimising the growth of the sum of squared meeting
counts instead, 2c + 1 per pair, would only count repeats; it treats two
second meetings like one third meeting.)

Round 1 (no history) is a shuffle. Later rounds start from a greedy seating
(players in shuffled order, each to the next table with room and the lowest
cost) and improve it by swapping two players of different tables while a
swap lowers the cost, within a fixed budget of evaluated swaps. Everything
random comes from one ``random.Random(seed)``, so a seating is reproducible
from the seed and the same input (no clock, no set order involved).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction

MIN_TABLE = 3
MAX_TABLE = 7
DEFAULT_SWAP_BUDGET = 60_000


def table_sizes(n: int, preferred: int = 4) -> list[int]:
    """Split ``n`` players into tables of 3..7, biggest first.

    Sizes differ by at most one. Among the table counts that allow that, the
    one whose mean size is closest to ``preferred`` wins; on a tie (e.g. 12
    players, preferred 5: two sixes or three fours) the fewer, bigger tables.
    """
    if not MIN_TABLE <= preferred <= MAX_TABLE:
        raise ValueError(f"The preferred table size must be {MIN_TABLE} to {MAX_TABLE}, got {preferred}")
    if n < MIN_TABLE:
        raise ValueError(f"Oh Hell needs at least {MIN_TABLE} players to seat a table, got {n}")
    best = None
    for tables in range(-(-n // MAX_TABLE), n // MIN_TABLE + 1):
        small, extra = divmod(n, tables)
        if small < MIN_TABLE or small + (extra > 0) > MAX_TABLE:
            continue
        distance = abs(Fraction(n, tables) - preferred)
        if best is None or distance < best[0]:
            best = (distance, tables)
    tables = best[1]
    small, extra = divmod(n, tables)
    return [small + 1] * extra + [small] * (tables - extra)


def pair_counts(tables: Iterable[Iterable[Hashable]]) -> dict[frozenset, int]:
    """How often each two players sat together, from past tables (all rounds
    flattened): the ``history_pairs_count`` that ``seat_round`` takes."""
    counts: dict[frozenset, int] = {}
    for table in tables:
        ids = list(table)
        for x, a in enumerate(ids):
            for b in ids[x + 1 :]:
                key = frozenset((a, b))
                counts[key] = counts.get(key, 0) + 1
    return counts


def seating_cost(tables: Iterable[Iterable[Hashable]], history_pairs_count: Mapping[frozenset, int]) -> int:
    """The cost ``seat_round`` minimises: sum over pairs at a table of count**2."""
    total = 0
    for table in tables:
        ids = list(table)
        for x, a in enumerate(ids):
            for b in ids[x + 1 :]:
                total += history_pairs_count.get(frozenset((a, b)), 0) ** 2
    return total


def seat_round(
    player_ids: Sequence[Hashable],
    preferred: int = 4,
    history_pairs_count: Mapping[frozenset, int] | None = None,
    seed: int | str = 0,
    *,
    swap_budget: int = DEFAULT_SWAP_BUDGET,
) -> list[list[Hashable]]:
    """Tables for one round, each in seat order (seat order is random).

    ``history_pairs_count`` maps frozenset({a, b}) to the times a and b sat
    together before (see ``pair_counts``); pairs of absent players are
    ignored. ``swap_budget`` bounds the local search (swaps evaluated).
    """
    ids = list(player_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("Every player can be seated only once per round")
    sizes = table_sizes(len(ids), preferred)
    rng = random.Random(seed)
    n = len(ids)
    index = {pid: k for k, pid in enumerate(ids)}

    # w[p][q] = cost of p and q at the same table (previous count squared)
    w: list[dict[int, int]] = [{} for _ in range(n)]
    for key, count in (history_pairs_count or {}).items():
        if count <= 0 or len(key) != 2:
            continue
        a, b = key
        i, j = index.get(a), index.get(b)
        if i is not None and j is not None:
            w[i][j] = w[j][i] = count * count

    order = list(range(n))
    rng.shuffle(order)
    if any(w):
        tables = _local_search(_greedy(order, sizes, w), w, rng, swap_budget)
    else:
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
    for table in tables:
        rng.shuffle(table)
    return [[ids[k] for k in table] for table in tables]


def _greedy(order: list[int], sizes: list[int], w: list[dict[int, int]]) -> list[list[int]]:
    """Deal the players round the tables like cards, each to the first table
    with room (from where the dealing stands) that adds no cost, else to the
    cheapest one."""
    tables: list[list[int]] = [[] for _ in sizes]
    table_of: dict[int, int] = {}
    open_tables = list(range(len(sizes)))
    at = 0
    for p in order:
        cost: dict[int, int] = {}
        for q, wt in w[p].items():
            t = table_of.get(q)
            if t is not None:
                cost[t] = cost.get(t, 0) + wt
        count = len(open_tables)
        pick = None
        best = None
        for step in range(count):
            k = (at + step) % count
            c = cost.get(open_tables[k], 0)
            if best is None or c < best:
                best, pick = c, k
                if c == 0:
                    break
        t = open_tables[pick]
        tables[t].append(p)
        table_of[p] = t
        if len(tables[t]) == sizes[t]:
            open_tables.pop(pick)
            at = pick % len(open_tables) if open_tables else 0
        else:
            at = (pick + 1) % count
    return tables


def _local_search(tables: list[list[int]], w: list[dict[int, int]], rng: random.Random, budget: int) -> list[list[int]]:
    """Swap two players of different tables while that lowers the cost."""
    table_of = {p: t for t, table in enumerate(tables) for p in table}

    def cost_at(p: int, t: int) -> int:
        return sum(wt for q, wt in w[p].items() if table_of[q] == t)

    count = len(tables)
    unhappy = [p for table in tables for p in table if cost_at(p, table_of[p]) > 0]
    rng.shuffle(unhappy)
    queue = deque(unhappy)
    queued = set(unhappy)
    evaluated = 0
    while queue and evaluated < budget:
        p = queue.pop()
        queued.discard(p)
        a = table_of[p]
        p_here = cost_at(p, a)
        if p_here == 0:
            continue
        p_cost: dict[int, int] = {}
        for q, wt in w[p].items():
            p_cost[table_of[q]] = p_cost.get(table_of[q], 0) + wt
        best_delta, best_q = 0, None
        start = rng.randrange(count)
        for step in range(count):
            t = (start + step) % count
            if t == a:
                continue
            p_there = p_cost.get(t, 0)
            for q in tables[t]:
                evaluated += 1
                wpq = w[p].get(q, 0)
                new = p_there - wpq + cost_at(q, a) - wpq
                delta = new - p_here - cost_at(q, t)
                if delta < best_delta:
                    best_delta, best_q = delta, q
            if best_q is not None and (p_there == 0 or evaluated >= budget):
                break  # good enough: p lands where nobody has met them
        if best_q is None:
            continue
        q, b = best_q, table_of[best_q]
        tables[a][tables[a].index(p)] = q
        tables[b][tables[b].index(q)] = p
        table_of[p], table_of[q] = b, a
        # the swap can change who is unhappy at both tables
        for r in tables[a] + tables[b]:
            if r not in queued and cost_at(r, table_of[r]) > 0:
                queue.appendleft(r)
                queued.add(r)
    return tables
