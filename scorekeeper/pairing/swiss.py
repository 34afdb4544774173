"""Swiss pairing for two-player games, as a minimum-cost perfect matching.

Players are ordered by match points (highest first), then by ``seed`` (lower
is stronger), and every possible pairing gets a cost. The costs are tiers,
each tier's unit larger than everything the lower tiers can add up to, so a
lower tier only ever breaks ties left by the higher ones:

1. a rematch (the pair has met before);
2. a second bye for a player who already had one;
3. the bye going to anyone but the lowest-ranked player (cost grows with
   the recipient's distance from the bottom);
4. score difference, squared, inside each pair (so floats are few and short);
5. rank difference, squared, inside each pair (so the top of a score group
   plays the next best, 1-2, 3-4, and the lowest of an odd group floats).

The matching is ``networkx.max_weight_matching(maxcardinality=True)`` on
``big - cost`` (negated costs, shifted to stay positive; integers, so the
result is exact). Fields of up to ``exact_up_to`` (64) players are matched in
one step over every pair: that is exact, and it never rematches while a
rematch-free pairing exists. The blossom algorithm in networkx is far too
slow for a whole 1,000-player field (seconds even with few edges), so bigger
fields are matched in blocks of about ``block_size`` (32) players from the
top down; a player who cannot be paired inside a block without a rematch
floats down into the next one. The bottom block takes the bye; if it needs
a rematch or a second bye, a tail of 2, 4, 8... blocks is re-matched, and
finally the whole field in one exact step (slow for a big field, but only
reached when the field is nearly exhausted).

Seats: the player with the higher seat balance (seat-1 games minus seat-2
games) sits second; with equal balance the one who sat first last time sits
second; if that is equal too, the higher-ranked player takes seat 1 on odd
boards and seat 2 on even boards.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

from .matching import greedy_matching, perfect_matching
from .standings import BYE_POINTS, DRAW_POINTS, LOSS_POINTS, WIN_POINTS, parse_two_player

# Fields up to EXACT_UP_TO players are matched in one exact step (all
# pairs considered). Bigger fields go in blocks of BLOCK_SIZE, each player
# linked to the NEIGHBOURS nearest players below them in rank order whom
# they have not met (a block that cannot be matched that way is redone with
# every pair). Measured on 1,000 players after 8 rounds: blocks of 32 with
# 8 neighbours give the same floats as blocks of 96 in full, in a tenth of
# the time.
EXACT_UP_TO = 64
BLOCK_SIZE = 32
NEIGHBOURS = 8
# A bottom tail of up to WEIGHTED_TAIL players is matched exactly (weighted);
# a longer one (a field whose bottom has met itself) by exchanges from any
# rematch-free pairing: the weighted matching would take seconds.
WEIGHTED_TAIL = 80
EXCHANGE_WINDOW = 48  # pairs (in rank order) an exchange looks ahead
# Byes tried from the bottom up before giving up on a rematch-free round.
BYE_TRIES = 8


@dataclass(frozen=True)
class SwissPlayer:
    """What the pairing needs to know about one active player."""

    id: Hashable
    points: float = 0  # match points so far
    seed: float = 0  # lower is stronger; orders players inside a score group
    opponents: frozenset = frozenset()  # ids already played (a rematch is avoided)
    byes: int = 0  # byes already had
    seat1: int = 0  # games played in seat 1
    seat2: int = 0  # games played in seat 2
    last_seat: int | None = None  # 1 or 2: seat in the most recent game, None if none


@dataclass(frozen=True)
class SwissPairing:
    """One round: boards in order (top score group first) and the bye."""

    pairs: list[tuple[Hashable, Hashable]]  # (seat1_id, seat2_id)
    bye_id: Hashable | None = None
    # Normally empty: the pairs that are rematches, only when no pairing
    # without one existed; and whether the bye is somebody's second.
    rematches: list[tuple[Hashable, Hashable]] = field(default_factory=list)
    repeat_bye: bool = False


class _Field:
    """The players in rank order, with the facts the cost function needs."""

    def __init__(self, players: Sequence[SwissPlayer], history: Iterable):
        ids = [p.id for p in players]
        if len(set(ids)) != len(ids):
            raise ValueError("Every player can be paired only once per round")
        if None in ids:
            raise ValueError("None cannot be a player id: it marks the bye")
        order = sorted(range(len(players)), key=lambda i: (-players[i].points, players[i].seed, i))
        self.players = [players[i] for i in order]
        self.n = len(self.players)
        self.pos = {p.id: k for k, p in enumerate(self.players)}
        self.met: list[set[int]] = [set() for _ in range(self.n)]
        self.had_bye = [p.byes > 0 for p in self.players]
        for k, p in enumerate(self.players):
            for other in p.opponents:
                j = self.pos.get(other)
                if j is not None and j != k:
                    self.met[k].add(j)
                    self.met[j].add(k)
        for item in history:
            a, b = item
            i = self.pos.get(a)
            j = self.pos.get(b) if b is not None else None
            if b is None:
                if i is not None:
                    self.had_bye[i] = True
            elif i is not None and j is not None and i != j:
                self.met[i].add(j)
                self.met[j].add(i)
        # score differences in half points, so costs stay integers
        self.half_points = [round(2 * p.points) for p in self.players]


def _solve(
    f: _Field,
    members: list[int],
    with_bye: bool,
    allow_rematch: bool,
    neighbours: int | None = None,
    pairs_allowed: list[tuple[int, int]] | None = None,
    bye_to: list[int] | None = None,
) -> tuple[list[tuple[int, int]], int | None]:
    """Min-cost matching of ``members`` (positions, in rank order) over every
    allowed pair, or over each player's ``neighbours`` nearest allowed ones
    below them, or over ``pairs_allowed`` (pairs i < j that have not met).
    ``bye_to`` limits who may take the bye (default: any member).

    Returns the pairs (by position) and the position given the bye (or None).
    Players left out (only possible without rematch edges) are in neither.
    """
    bye = -1
    edges: list[tuple[int, int, int, int, int]] = []  # (u, v, rematch?, score cost, rank cost)
    max_score = max_rank = 0
    if pairs_allowed is None:
        candidates = []
        for x, i in enumerate(members):
            met_i = f.met[i]
            linked = 0
            for j in members[x + 1 :]:
                rematch = j in met_i
                if rematch and not allow_rematch:
                    continue
                if neighbours is not None:
                    if linked == neighbours:
                        break
                    linked += 1
                candidates.append((i, j))
    else:
        candidates = pairs_allowed
    for i, j in candidates:
        rematch = j in f.met[i]
        d = f.half_points[i] - f.half_points[j]
        score = d * d
        rank = (j - i) * (j - i)
        max_score = max(max_score, score)
        max_rank = max(max_rank, rank)
        edges.append((i, j, 1 if rematch else 0, score, rank))
    m = len(members)
    pairs_max = (m + 1) // 2
    score_unit = pairs_max * max_rank + 1
    low_total = pairs_max * (max_score * score_unit + max_rank)
    bye_unit = low_total + 1
    repeat_bye = low_total + m * bye_unit + 1
    rematch_unit = repeat_bye + low_total + m * bye_unit + 1

    g = nx.Graph()
    costs = []
    for i, j, rematch, score, rank in edges:
        costs.append((i, j, rematch * rematch_unit + score * score_unit + rank))
    if with_bye:
        # members are in rank order, so the last one is the lowest ranked
        for k, i in enumerate(members):
            if bye_to is None or i in bye_to:
                costs.append((i, bye, (m - 1 - k) * bye_unit + (repeat_bye if f.had_bye[i] else 0)))
    big = max((c for _, _, c in costs), default=0) + 1
    g.add_nodes_from(members)
    g.add_weighted_edges_from((u, v, big - c) for u, v, c in costs)
    matching = nx.max_weight_matching(g, maxcardinality=True)

    pairs = []
    bye_pos = None
    for u, v in matching:
        if u == bye or v == bye:
            bye_pos = v if u == bye else u
        else:
            pairs.append((min(u, v), max(u, v)))
    return pairs, bye_pos


def _sparse_pairs(f: _Field, members: list[int], exclude: int | None = None) -> list[tuple[int, int]]:
    """Pairs i < j of ``members`` (rank order) that have not met: each player
    to the ``NEIGHBOURS`` nearest not-met players below and above them, and,
    if they have met m of the members, also to those nearest m places above
    and below (where a player who has met a run of the others finds
    partners of their own: the bottom 70 who have all met each other pair
    with the 70 above them). A rematch-free pairing of the members almost
    always exists within these if it exists at all, and the matching is far
    quicker on them than on every pair."""
    ms = [i for i in members if i != exclude]
    inside = set(ms)
    count = len(ms)
    out: set[tuple[int, int]] = set()
    for x, i in enumerate(ms):
        met_i = f.met[i]
        m = len(met_i & inside) if met_i else 0
        starts = (x, x - m, x + m) if m else (x,)
        for start in starts:
            for step in (1, -1):
                found = 0
                y = start + step if start == x else start
                y = min(max(y, 0), count - 1) if start != x else y
                while 0 <= y < count and found < NEIGHBOURS:
                    j = ms[y]
                    if j != i and j not in met_i:
                        out.add((i, j) if i < j else (j, i))
                        found += 1
                    y += step
    return sorted(out)


def _clique_too_big(f: _Field, members: list[int], exclude: int | None = None) -> bool:
    """Whether ``members`` (minus ``exclude``) surely cannot be paired
    without a rematch: the player who has met most of them, with those
    they met, have all met each other, and they are more than half, so
    some of them have nobody left to play. A quick way past tails that
    are too short (the bottom 300 have all met); it never rules out a tail
    that could be paired."""
    ms = [i for i in members if i != exclude]
    if not ms:
        return False
    inside = set(ms)
    top = max(ms, key=lambda i: len(f.met[i] & inside))
    group = (f.met[top] & inside) | {top}
    if 2 * len(group) <= len(ms):
        return False
    return all(len(f.met[i] & group) == len(group) - 1 for i in group)


def _improve(f: _Field, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Exchange partners between two pairs while that lowers the cost
    (score difference squared, then rank difference squared) and makes no
    rematch: a quick stand-in for the weighted matching on a long tail."""
    hp = f.half_points

    def cost(i: int, j: int) -> tuple[int, int]:
        return ((hp[i] - hp[j]) ** 2, (i - j) ** 2)

    pairs = sorted(tuple(p) for p in pairs)
    better = True
    while better:
        better = False
        for x in range(len(pairs)):
            a, b = pairs[x]
            for y in range(x + 1, min(len(pairs), x + 1 + EXCHANGE_WINDOW)):
                c, d = pairs[y]
                now = tuple(map(sum, zip(cost(a, b), cost(c, d), strict=True)))
                for p, q, r, t in ((a, c, b, d), (a, d, b, c)):
                    if q in f.met[p] or t in f.met[r]:
                        continue
                    new = tuple(map(sum, zip(cost(p, q), cost(r, t), strict=True)))
                    if new < now:
                        pairs[x] = (min(p, q), max(p, q))
                        pairs[y] = (min(r, t), max(r, t))
                        a, b = pairs[x]
                        better = True
                        break
    return pairs


def _solve_block(f: _Field, members: list[int]) -> list[tuple[int, int]]:
    """A block above the bottom: its pairs without a rematch; who cannot be
    paired floats down. Tries the nearest below, then the wider sparse
    graph, then every pair. A crowded block (someone has met many of the
    others) or one swollen by floaters takes any rematch-free pairing on
    the sparse graph, improved by exchanges, if one pairs everybody: quick
    where the weighted matching would not be."""
    inside = set(members)
    crowded = any(len(f.met[i] & inside) >= NEIGHBOURS for i in members)
    if crowded or len(members) > WEIGHTED_TAIL:
        allowed = _sparse_pairs(f, members)
        found = greedy_matching(members, allowed)
        if 2 * len(found) < len(members) and len(members) > WEIGHTED_TAIL:
            g = nx.Graph()
            g.add_nodes_from(members)
            g.add_edges_from(allowed)
            found = sorted((min(u, v), max(u, v)) for u, v in nx.max_weight_matching(g, maxcardinality=True))
        if 2 * len(found) == len(members) or len(members) > WEIGHTED_TAIL:
            return _improve(f, found)
    pairs: list[tuple[int, int]] = []
    if not crowded:
        pairs, _ = _solve(f, members, with_bye=False, allow_rematch=False, neighbours=NEIGHBOURS)
    if 2 * len(pairs) < len(members):
        pairs, _ = _solve(f, members, with_bye=False, allow_rematch=False, pairs_allowed=_sparse_pairs(f, members))
    if 2 * len(pairs) < len(members) and len(members) <= 4 * BLOCK_SIZE:
        pairs, _ = _solve(f, members, with_bye=False, allow_rematch=False)
    return pairs


def _pair_positions(f: _Field, exact_up_to: int, block_size: int) -> tuple[list[tuple[int, int]], int | None]:
    n = f.n
    with_bye = n % 2 == 1
    everyone = list(range(n))
    if n <= exact_up_to:
        return _solve(f, everyone, with_bye, allow_rematch=True)

    # Top-down blocks (each an even number of players), matched without
    # rematches; whoever is left unmatched floats into the next block, which
    # takes at least as many new players as floaters to pair them with.
    blocks: list[list[tuple[int, int]]] = []
    floaters: list[int] = []
    nxt = 0
    while True:
        take = max(block_size - len(floaters), len(floaters), 2)
        take += (len(floaters) + take) % 2
        members = floaters + everyone[nxt : nxt + take]
        nxt += take
        if nxt >= n:
            break  # the bottom block, with the bye, is matched below
        pairs = _solve_block(f, members)
        blocks.append(pairs)
        done = {x for pair in pairs for x in pair}
        floaters = [i for i in members if i not in done]

    # The bye: the lowest-ranked player without one (or, if all have had
    # one, the lowest-ranked), unless the rest cannot then be paired without
    # a rematch: then the next one up, and so on.
    fresh = [i for i in everyone if not f.had_bye[i]] or everyone
    candidates = fresh[::-1] if with_bye else [None]

    # The bottom: the players of the last blocks, re-matched together, one
    # more block at a time, until they can be paired without a rematch with
    # the bye where it should go (a quick check without weights first; one
    # weighted matching on the tail that passes).
    for bye_pos in candidates[:BYE_TRIES]:
        undone = 1
        tried = 0
        while undone <= len(blocks) + 1:
            kept = blocks[: len(blocks) - undone + 1]
            done = {x for block in kept for pair in block for x in pair}
            members = [i for i in everyone if i not in done]
            undone += 1
            if len(members) == tried or (bye_pos is not None and bye_pos not in members):
                continue  # an undone block that had paired nobody changes nothing
            tried = len(members)
            if _clique_too_big(f, members, exclude=bye_pos):
                continue
            allowed = _sparse_pairs(f, members, exclude=bye_pos)
            found = perfect_matching(members, allowed, exclude=bye_pos)
            if found is None and len(members) == n:
                # the whole field, and the sparse graph has no perfect
                # matching: every pair that has not met (big cliques, e.g.
                # groups of 128 who have all met, need partners far away)
                rest = [i for i in members if i != bye_pos]
                allowed = [(i, j) for x, i in enumerate(rest) for j in rest[x + 1 :] if j not in f.met[i]]
                found = perfect_matching(members, allowed, exclude=bye_pos)
            if found is None:
                continue
            if len(members) <= WEIGHTED_TAIL:
                rest = [i for i in members if i != bye_pos]
                pairs, _ = _solve(f, rest, with_bye=False, allow_rematch=False, pairs_allowed=allowed)
            else:
                pairs = _improve(f, found)
            return [pair for block in kept for pair in block] + pairs, bye_pos

    # No rematch-free pairing found (the field has nearly run out of new
    # opponents): pair block by block, rematches allowed but fewest first.
    pairs_all: list[tuple[int, int]] = []
    left = everyone
    while len(left) > EXACT_UP_TO:
        top, left = left[:block_size], left[block_size:]
        pairs, _ = _solve(f, top, with_bye=False, allow_rematch=True)
        pairs_all += pairs
    pairs, bye_pos = _solve(f, left, with_bye, allow_rematch=True)
    return pairs_all + pairs, bye_pos


def _seat(f: _Field, i: int, j: int, board: int) -> tuple[int, int]:
    """Seat 1 first. ``i`` is the higher-ranked player, ``board`` counts from 1."""

    def pull(k: int) -> tuple[int, int]:
        p = f.players[k]
        return (p.seat1 - p.seat2, {1: 1, 2: -1}.get(p.last_seat, 0))

    if pull(i) > pull(j):
        return j, i
    if pull(j) > pull(i):
        return i, j
    return (i, j) if board % 2 == 1 else (j, i)


def pair_swiss_round(
    players: Sequence[SwissPlayer],
    history: Iterable[tuple[Hashable, Hashable | None]] = (),
    *,
    exact_up_to: int = EXACT_UP_TO,
    block_size: int = BLOCK_SIZE,
) -> SwissPairing:
    """Pair the next round of the active (not dropped) ``players``.

    ``history`` optionally adds past pairings ``(a, b)`` to what the players
    already say (``(a, None)`` is a bye for ``a``); both are merged.
    ``exact_up_to`` and ``block_size`` trade speed for exactness on big
    fields (see the module docstring).
    """
    if block_size < 4:
        raise ValueError("block_size must be at least 4")
    f = _Field(players, history)
    if f.n == 0:
        return SwissPairing(pairs=[])
    pos_pairs, bye_pos = _pair_positions(f, exact_up_to, block_size)

    pos_pairs.sort(key=lambda pr: (-max(f.half_points[pr[0]], f.half_points[pr[1]]), pr[0]))
    pairs = []
    rematches = []
    for board, (i, j) in enumerate(pos_pairs, start=1):
        s1, s2 = _seat(f, i, j, board)
        pair = (f.players[s1].id, f.players[s2].id)
        pairs.append(pair)
        if j in f.met[i]:
            rematches.append(pair)
    bye_id = f.players[bye_pos].id if bye_pos is not None else None
    return SwissPairing(
        pairs=pairs,
        bye_id=bye_id,
        rematches=rematches,
        repeat_bye=bye_pos is not None and f.had_bye[bye_pos],
    )


def swiss_players(
    results: Iterable[Mapping],
    byes: Iterable[Mapping] = (),
    drops: Iterable = (),
    seeds: Mapping[Hashable, float] | None = None,
    players: Iterable[Hashable] | None = None,
) -> list[SwissPlayer]:
    """Build the active players from finished results (same input as the
    standings: ``a`` sat in seat 1). Dropped players are left out. A table
    not played (``"played": False``) is no game, as FIDE treats a double
    forfeit: no points, and the two may be paired again.

    ``seeds`` maps id to seed (lower is stronger); by default the order of
    ``players``, else the order in which players first appear.
    """
    data = parse_two_player(results, byes, drops, players)
    points = dict.fromkeys(data.order, 0)
    opponents: dict[Hashable, set] = {p: set() for p in data.order}
    bye_count = dict.fromkeys(data.order, 0)
    seat1 = dict.fromkeys(data.order, 0)
    seat2 = dict.fromkeys(data.order, 0)
    last: dict[Hashable, tuple[float, int]] = {}
    for g in data.games:
        if not g.played:
            continue  # no game: no points, no seat, and the two have not met
        a, b = g.a, g.b
        opponents[a].add(b)
        opponents[b].add(a)
        seat1[a] += 1
        seat2[b] += 1
        if g.winner is None:
            points[a] += DRAW_POINTS
            points[b] += DRAW_POINTS
        else:
            loser = b if g.winner == a else a
            points[g.winner] += WIN_POINTS
            points[loser] += LOSS_POINTS
        for pid, seat in ((a, 1), (b, 2)):
            if pid not in last or g.round >= last[pid][0]:
                last[pid] = (g.round, seat)
    for _, pid in data.byes:
        bye_count[pid] += 1
        points[pid] += BYE_POINTS
    return [
        SwissPlayer(
            id=pid,
            points=points[pid],
            seed=seeds[pid] if seeds is not None and pid in seeds else k,
            opponents=frozenset(opponents[pid]),
            byes=bye_count[pid],
            seat1=seat1[pid],
            seat2=seat2[pid],
            last_seat=last[pid][1] if pid in last else None,
        )
        for k, pid in enumerate(data.order)
        if pid not in data.dropped
    ]
