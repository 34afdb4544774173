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

* a known design when one seats the field at its table sizes
  (``designs.field_design``): every two players meet at most once in its
  rounds, and an event with fewer rounds plays its first ones. Kirkman
  triple systems in threes, resolvable (v, 4, 1) designs and the social
  golfers' 8-4-10 at fours, affine geometries AG(m, q) at tables of q; a
  field a few players short of one of those, the design less those players;
  else a resolvable transversal design when the number of tables allows
  (``designs.py`` says which fields). Rounds already played that are
  classes of the design (under the seed's labelling, or, for a plane, a
  labelling read off the first two rounds played) are kept and the other
  classes follow. Rounds beyond the design are searched by the tabu search
  below, from the round-by-round seating; if the whole is not then at the
  lower bound, the annealing alone over all the rounds (the plan made
  before there were designs for such fields) is the fallback, and the
  better of the two is kept.
* otherwise simulated annealing over swaps of two players between tables of
  one round, started from the round-by-round seating, stopping as soon as it
  reaches the lower bound (``lower_bound``; ``anneal.py``), then the tabu
  search of Dotú and Van Hentenryck from its best plan (``tabu.py``), which
  keeps the annealing's plan unless it finds a better one. Their lengths
  are numbers of moves, not times, so a plan is reproducible: the same
  players, rounds, history and seed give the same plan.

After a drop, ``planned_round`` goes on with the plan of the field before,
the players who left taken out, when the tables keep their sizes and it
does at least as well as a new plan (``_plan_in_force``): a design stays
perfect for the players left, where a search might not find that.

Table sizes are those of ``table_sizes`` (3 to 7, as equal as possible,
closest to the preferred size); seat order at each table is random.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from .anneal import add_round, anneal, totals, warm_start
from .designs import field_design
from .seating import pair_counts, seat_round, table_sizes
from .tabu import improve

PLAN_UP_TO = 300  # bigger fields are seated round by round (see planned_round)
# Swaps the tabu search evaluates after the annealing: per seat and round,
# capped so that every event up to 200 players x 10 rounds plans in under 2 s.
TABU_EVALS_PER_SEAT_ROUND = 2_000
TABU_EVALS = 400_000


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
    ``max_moves`` overrides the searches' lengths (the annealing's moves and
    the swaps the tabu search evaluates; for benchmarks and tests). The
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
        add_round(counts, n, rnd, 1)
    bound = lower_bound(n, sizes, max(rounds, 0), (counts[a * n + b] for a in range(n) for b in range(a + 1, n)))
    rng = random.Random(f"seating plan {seed}")
    if rounds <= 0:
        rep, sq = totals(counts, n)
        return SeatingPlan([], rep, sq, bound, "none")

    planned: list[list[list[int]]] = []
    method = "search"
    labelled = _design_rounds(n, sizes, history, rng)
    if labelled:
        planned = labelled[:rounds]
        method = "design"
    if not planned:
        planned = anneal(n, sizes, rounds, counts, rng, bound, max_moves)
        planned = improve(n, planned, counts, rng, bound, _tabu_budget(n, rounds, max_moves))
    elif len(planned) < rounds:
        # the rounds after the design's: the tabu search from the
        # round-by-round seating, then, if that is not perfect, the plan of
        # the annealing alone (as before there were designs for such a
        # field) as a fallback
        start = counts[:]
        for rnd in planned:
            add_round(start, n, rnd, 1)
        more = rounds - len(planned)
        planned += improve(
            n, warm_start(n, sizes, more, start, rng), start, rng, bound, _tabu_budget(n, more, max_moves)
        )
        method = "design+search"
        if _with(counts, n, planned) > bound:
            alone = anneal(n, sizes, rounds, counts, random.Random(f"seating plan {seed}"), bound, max_moves)
            if _with(counts, n, alone) < _with(counts, n, planned):
                planned, method = alone, "search"
    rep, sq = _with(counts, n, planned)
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


def _with(counts: list[int], n: int, planned: list[list[list[int]]]) -> tuple[int, int]:
    """(repeats, squares) of the rounds counted in ``counts`` and ``planned``."""
    final = counts[:]
    for rnd in planned:
        add_round(final, n, rnd, 1)
    return totals(final, n)


def _tabu_budget(n: int, rounds: int, max_moves: int | None) -> int:
    return max_moves if max_moves is not None else min(TABU_EVALS, TABU_EVALS_PER_SEAT_ROUND * n * rounds)


def _design_rounds(n: int, sizes: list[int], history: list[list[list[int]]], rng: random.Random):
    """The design's rounds not yet played, mapped to players, or None when no
    design applies or the rounds played are not classes of it (and then
    ``rng`` is left as it was, so the search runs as where no design
    exists)."""
    design = field_design(n, sizes)
    if design is None:
        return None
    state = rng.getstate()
    perm = list(range(n))
    rng.shuffle(perm)  # point -> player: the seed's labelling
    order = list(range(len(design)))
    rng.shuffle(order)
    design = [design[k] for k in order]
    labellings = [perm]
    size = sizes[0]
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
            left = [[[label[p] for p in line] for line in design[k]] for k in range(len(design)) if k not in used]
            if left:
                return left
    rng.setstate(state)
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
    return field_design(len(field), table_sizes(len(field), preferred)) is not None


def _score(ids, before, rounds) -> tuple[int, int]:
    """(repeats, squares) of the rounds ``before`` and ``rounds``, counting
    only the players ``ids``."""
    field = set(ids)
    counts = pair_counts(t for rnd in [*before, *rounds] for t in ([p for p in t if p in field] for t in rnd))
    return sum(c - 1 for c in counts.values() if c > 1), sum(c * c for c in counts.values())
