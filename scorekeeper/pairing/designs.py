"""Known perfect seatings: resolvable designs where every two players share
a table at most once. Points are numbered 0..v-1; the seating maps them to
players. ``design_for(n, size)`` is the one used for n players at tables
of ``size``, the first that applies of:

* tables of 3: a Kirkman triple system KTS(n), every n ≡ 3 (mod 6) up to
  207 and most beyond (``kirkman.py``);
* tables of 4: 32 players, the social golfers' schedule (``golfers_32``);
  otherwise a resolvable (n, 4, 1) design, every n ≡ 4 (mod 12) from 16
  to 292 (``quads.py``);
* tables of q for a prime power q (3, 4, 5, 7): the affine geometry
  AG(m, q) for q^m players, m >= 2 (``affine.py``).

Each has (n - 1) / (size - 1) rounds in which every two players meet
exactly once, except the golfers' 10 (each player misses one other).

``field_design(n, sizes)`` seats a field at the table sizes of
``table_sizes``: with a design when the tables are all of one size; a field
a few players short of a design (tables of k and k - 1), with the design
for k times the number of tables less one player at each smaller table;
otherwise, when the number of tables T is a product of powers of distinct
primes each at least the biggest table's size, with a resolvable
transversal design (``transversal``): T rounds.
"""

from __future__ import annotations

from functools import lru_cache

from .affine import GaloisField, affine_geometry, affine_plane, field, prime_power
from .kirkman import KIRKMAN_15, kirkman, kirkman_name
from .quads import quads, quads_name

__all__ = [
    "KIRKMAN_15",
    "GaloisField",
    "affine_geometry",
    "affine_plane",
    "design_for",
    "describe",
    "design_problem",
    "field_design",
    "golfers_32",
    "transversal",
]


# Six base tables (a0, a1, a2, a3), a_i in GF(2)^3 (XOR on 0..7), a0 = 0,
# such that for every two levels i < j the six sums a_i ^ a_j are distinct,
# and s_1, s_2, s_3 (s_i = XOR of the six a_i) are linearly independent.
# Found by a backtracking search over (0, a1, a2, a3) in lexicographic order
# (the first solution); ``tests/pairing/test_designs.py`` checks the result.
_GOLF_32_BASE = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 4), (0, 3, 4, 6), (0, 4, 1, 5), (0, 5, 7, 1))


def golfers_32() -> list[list[list[int]]]:
    """10 rounds of 8 tables of 4 over 32 points, every two points together
    at most once (the social golfer problem 8-4-10).

    Point (g, i) = 8 i + g: g in the group GF(2)^3 (addition is XOR), i one of
    four levels. Every round is invariant under adding any g, so a pair's
    meetings depend only on its levels and the difference of its g's:
    "pure" (same level, difference d != 0, 7 per level) or "mixed" (levels
    i < j, difference d, 8 per two levels). Each must be covered at most once.

    * 6 rounds, one per base table (a0..a3): the tables {(g ^ a_i, i)}. They
      cover, for every two levels i, j, the mixed difference a_i ^ a_j: six
      distinct ones, so two are left, e and e'.
    * 3 rounds, one per way of splitting the levels into two pairs: for each
      pair (i, j), with h = e ^ e', the tables {(x, i), (x ^ h, i), (x ^ e, j),
      (x ^ e', j)}: the last two mixed differences, and the pure difference
      h on both levels. h = s_i ^ s_j (the 8 mixed differences sum to 0).
    * 1 round: each level cut into the cosets of the subgroup {0, a ^ b,
      a ^ c, b ^ c}, where a, b, c are the level's three h's. They are
      independent (s_1..s_3 are), so that subgroup's 3 pure differences
      miss them: the level's 6 pure differences are all distinct.

    Every pair is then covered at most once; the one pair each point misses
    is a pure difference (the seventh).
    """
    levels = ((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))

    def point(g: int, level: int) -> int:
        return 8 * level + g

    rounds = [[[point(g ^ base[i], i) for i in range(4)] for g in range(8)] for base in _GOLF_32_BASE]
    h_at: dict[int, list[int]] = {i: [] for i in range(4)}
    for split in levels:
        tables = []
        for i, j in split:
            e, e2 = (d for d in range(8) if d not in {b[i] ^ b[j] for b in _GOLF_32_BASE})
            h = e ^ e2
            h_at[i].append(h)
            h_at[j].append(h)
            for x in range(8):
                if x < x ^ h:
                    tables.append([point(x, i), point(x ^ h, i), point(x ^ e, j), point(x ^ e2, j)])
        rounds.append(tables)
    last = []
    for i in range(4):
        a, b, c = h_at[i]
        group = (0, a ^ b, a ^ c, b ^ c)
        for x in range(8):
            if x == min(x ^ u for u in group):
                last.append([point(x ^ u, i) for u in group])
    rounds.append(last)
    return rounds


def design_for(n: int, size: int) -> list[list[list[int]]] | None:
    """A resolvable design for ``n`` players at tables of ``size``, if one
    is built here (see the module's docstring); None for a single table."""
    if n <= size:
        return None
    if size == 3:
        return kirkman(n)
    if size == 4:
        return golfers_32() if n == 32 else quads(n)
    pk = prime_power(size)
    if pk is None:
        return None
    power = prime_power(n)
    if power is None or power[0] != pk[0] or power[1] % pk[1]:
        return None
    return affine_geometry(power[1] // pk[1], size)


def field_design(n: int, sizes: list[int]) -> list[list[list[int]]] | None:
    """Rounds seating ``n`` players at exactly ``sizes`` (biggest first),
    every two at most once, or None: ``design_for(n, size)`` when the tables
    are all of one size, else ``_short_of_one`` when one applies, else
    ``transversal``."""
    design = _field_design(n, tuple(sizes))
    return None if design is None else [[list(t) for t in rnd] for rnd in design]


@lru_cache(maxsize=64)
def _field_design(n: int, sizes: tuple[int, ...]) -> tuple | None:
    big, small = sizes[0], sizes[-1]
    design = design_for(n, big) if big == small else _short_of_one(n, list(sizes))
    if design is None:
        design = transversal(n, list(sizes))
    return None if design is None else tuple(tuple(tuple(t) for t in rnd) for rnd in design)


def _short_of_one(n: int, sizes: list[int]) -> list[list[list[int]]] | None:
    """With d tables of k - 1 and the others of k: the design for k *
    len(sizes) players without d players of one table of its last round
    (d <= k), so each round loses one player at d tables (those d never
    meet elsewhere); that last round goes too when d > 1, as it would seat
    them together. Players are renumbered 0..n-1 in order."""
    big, small = sizes[0], sizes[-1]
    d = sizes.count(small)
    if small != big - 1 or d > big:
        return None
    v = big * len(sizes)
    design = design_for(v, big)
    if design is None:
        return None
    gone = set(design[-1][0][:d])
    keep = design if d == 1 else design[:-1]
    label = {p: k for k, p in enumerate(p for p in range(v) if p not in gone)}
    return [[[label[p] for p in t if p not in gone] for t in rnd] for rnd in keep]


def transversal(n: int, sizes: list[int]) -> list[list[list[int]]] | None:
    """T rounds of T tables (T = len(sizes)), e of k + 1 players and the
    others of k (``sizes``), every two players together at most once: a
    resolvable transversal design over the ring R = GF(q_1) x GF(q_2) x ...
    of order T (MacNeish's product of fields, "Euler squares", 1922; for a
    prime power T it is AG(2, T) less its lines x = c, the points with
    x > k, and those with x = k past the e first).

    Player (g, y) = g T + y for a group g < k and y in R, and (k, y) = k T + y
    for the e first elements y of R. Round b in R seats at table a in R the
    players (g, a + b g) (g read as the element (g, g, ...) of R): two
    players of groups g != h meet where b (g - h) is their difference, once,
    as g - h is invertible when every q_i > g, h. Players of one group never
    meet. None unless every q_i is at least the number of groups.
    """
    tables = len(sizes)
    big, small = sizes[0], sizes[-1]
    extra = 0 if big == small else sizes.count(big)
    if big - small > 1 or small < 3 or n != small * tables + extra:
        return None
    groups = small + (extra > 0)
    qs = _prime_power_parts(tables)
    if not qs or min(qs) < groups:
        return None
    fields = [field(q) for q in qs]
    elements = []  # the digits of each element of R, lowest field first
    for x in range(tables):
        ds = []
        for q in qs:
            x, d = divmod(x, q)
            ds.append(d)
        elements.append(ds)

    def number(ds) -> int:
        x, scale = 0, 1
        for d, q in zip(ds, qs, strict=True):
            x += d * scale
            scale *= q
        return x

    add = [[number([f.add[x][y] for f, x, y in zip(fields, a, c, strict=True)]) for c in elements] for a in elements]
    times = [[number([f.mul[x][g] for f, x in zip(fields, b, strict=True)]) for g in range(groups)] for b in elements]
    rounds = []
    for b in range(tables):
        slope = [[add[a][times[b][g]] for a in range(tables)] for g in range(groups)]  # a + b g
        rnd = []
        for a in range(tables):
            table = [g * tables + slope[g][a] for g in range(small)]
            if extra and slope[small][a] < extra:
                table.append(small * tables + slope[small][a])
            rnd.append(table)
        rounds.append(rnd)
    return rounds


def _prime_power_parts(t: int) -> list[int]:
    """t as a product of powers of distinct primes, smallest prime first."""
    parts, p = [], 2
    while t > 1:
        if t % p == 0:
            q = 1
            while t % p == 0:
                t //= p
                q *= p
            parts.append(q)
        p += 1
    return parts


def describe(n: int, sizes: list[int]) -> str | None:
    """The name of the design ``field_design(n, sizes)`` uses, or None."""
    big = sizes[0]
    v = big * len(sizes)
    if (big == sizes[-1] and design_for(n, big) is not None) or (big != sizes[-1] and _short_of_one(n, sizes)):
        if big == 3:
            name = kirkman_name(v)
        elif big == 4:
            name = "the social golfers' 8-4-10" if v == 32 else quads_name(v)
        else:
            name = f"AG({prime_power(v)[1] // prime_power(big)[1]}, {big})"
        return name if v == n else f"{name}, less {v - n}"
    if transversal(n, sizes) is not None:
        ring = " x ".join(f"GF({q})" for q in _prime_power_parts(len(sizes)))
        name = f"transversal design TD({sizes[-1]}, {len(sizes)}) over {ring}"
        return name if big == sizes[-1] else f"{name}, one more group of {n - sizes[-1] * len(sizes)}"
    return None


def design_problem(rounds: list[list[list[int]]], v: int, size: int) -> str | None:
    """What is wrong with ``rounds`` as a resolvable design on 0..v-1 at
    tables of ``size`` in which every two points meet at most once, or None:
    each round must seat every point once, at tables of ``size``."""
    met = bytearray(v * v)
    for r, rnd in enumerate(rounds):
        seated = bytearray(v)
        for t in rnd:
            if len(t) != size:
                return f"round {r} has a table not of {size}"
            for x, a in enumerate(t):
                if not 0 <= a < v or seated[a]:
                    return f"round {r} does not seat every point once"
                seated[a] = 1
                for b in t[x + 1 :]:
                    if met[a * v + b]:
                        return f"{min(a, b), max(a, b)} meet twice (round {r})"
                    met[a * v + b] = met[b * v + a] = 1
        if sum(seated) != v:
            return f"round {r} does not seat every point once"
    return None
