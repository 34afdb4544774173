"""Kirkman triple systems KTS(v): v players in threes for (v - 1) / 2 rounds,
every two players together exactly once. They exist for every v ≡ 3
(mod 6) (Ray-Chaudhuri and Wilson, "Solution of Kirkman's schoolgirl
problem", 1971). ``kirkman(v)`` builds one, the first that applies of:

* v = 3^n: the lines of AG(n, 3) (9, 27, 81, 243; ``affine.py``);
* v = 15: ``KIRKMAN_15``;
* v = 2q + 1, q ≡ 1 (mod 6) a prime power (``_double_field``);
* v = 3q, q ≡ 1 (mod 6) a prime power (``_triple_field``);
* v = u w from a KTS(u) and a KTS(w) (``_product``);
* v = 2n + 1 from a pairwise balanced design on n points with blocks of 4
  and 7 (``_doubled``; the designs: ``pbd_4_7``).

Every v ≡ 3 (mod 6) up to 207 is covered, and all but 213, 231, 267 and 285
up to 297 (the first of those left is 213 = 3 x 71 = 2 x 106 + 1).
"""

from __future__ import annotations

from functools import lru_cache

from .affine import affine_geometry, affine_plane, field, prime_power
from .quads import quads

KIRKMAN_15: list[list[list[int]]] = [
    [[0, 1, 2], [3, 7, 11], [4, 9, 14], [5, 10, 12], [6, 8, 13]],
    [[0, 3, 4], [1, 7, 9], [2, 12, 13], [5, 8, 14], [6, 10, 11]],
    [[0, 5, 6], [1, 8, 10], [2, 11, 14], [3, 9, 13], [4, 7, 12]],
    [[0, 7, 8], [1, 11, 13], [2, 4, 5], [3, 10, 14], [6, 9, 12]],
    [[0, 9, 10], [1, 12, 14], [2, 3, 6], [4, 8, 11], [5, 7, 13]],
    [[0, 11, 12], [1, 3, 5], [2, 8, 9], [4, 10, 13], [6, 7, 14]],
    [[0, 13, 14], [1, 4, 6], [2, 7, 10], [3, 8, 12], [5, 9, 11]],
]
"""Kirkman's schoolgirls: 7 rounds of 5 tables of 3. Written as data (the 7
spreads of the lines of PG(3, 2), found by an exact-cover search)."""


def _double_field(q: int) -> list[list[list[int]]]:
    """KTS(2q + 1) for a prime power q = 6t + 1 (Ray-Chaudhuri and Wilson
    1971, Theorem 6; Stinson, "A survey of Kirkman triple systems", 1991,
    Construction 1.1).

    Points (x, 1) = x and (x, 2) = q + x for x in GF(q), and infinity = 2q;
    w is primitive and w^m = (w^t + 1) / 2. The first round: {infinity,
    (0, 1), (0, 2)}; {(w^i, 1), (w^(t+i), 1), (w^(m+i), 2)} for i in [0, t),
    [2t, 3t) and [4t, 5t); {(w^(m+t+i), 2), (w^(m+3t+i), 2), (w^(m+5t+i), 2)}
    for i in [0, t). Round g adds g to every x.
    """
    f = field(q)
    t = (q - 1) // 6

    def e(i: int) -> int:
        return f.exp[i % (q - 1)]

    half = f.div(1, f.add[1][1])
    m = f.log[f.mul[f.add[e(t)][1]][half]]
    first = [[2 * q, 0, q]]
    for i in [*range(t), *range(2 * t, 3 * t), *range(4 * t, 5 * t)]:
        first.append([e(i), e(t + i), q + e(m + i)])
    for i in range(t):
        first.append([q + e(m + t + i), q + e(m + 3 * t + i), q + e(m + 5 * t + i)])
    return [[[p if p == 2 * q else (p // q) * q + f.add[p % q][g] for p in table] for table in first] for g in range(q)]


def _triple_field(q: int) -> list[list[list[int]]]:
    """KTS(3q) for a prime power q = 6t + 1 (Ray-Chaudhuri and Wilson 1971,
    Theorem 5; Stinson 1991, Construction 1.2).

    Points (x, j) = j q + x for x in GF(q), j in Z_3; w is primitive. With
    A_i = {(w^i, 0), (w^(i+2t), 1), (w^(i+4t), 2)}: the first round is
    {(0, 0), (0, 1), (0, 2)}, {(w^i, j), (w^(i+2t), j), (w^(i+4t), j)} for
    i < t and every j, and A_i for i in [t, 2t), [3t, 4t) and [5t, 6t);
    q rounds add g in GF(q) to every x of it. Each of the 3t other A_i, with
    its q translates, is a round of its own.
    """
    f = field(q)
    t = (q - 1) // 6

    def w(i: int) -> int:
        return f.exp[i % (q - 1)]

    def across(i: int) -> list[int]:
        return [w(i), q + w(i + 2 * t), 2 * q + w(i + 4 * t)]

    def shift(table: list[int], g: int) -> list[int]:
        return [(p // q) * q + f.add[p % q][g] for p in table]

    first = [[0, q, 2 * q]]
    first += [[j * q + w(i), j * q + w(i + 2 * t), j * q + w(i + 4 * t)] for j in range(3) for i in range(t)]
    first += [across(i) for i in [*range(t, 2 * t), *range(3 * t, 4 * t), *range(5 * t, 6 * t)]]
    rounds = [[shift(table, g) for table in first] for g in range(q)]
    for i in [*range(t), *range(2 * t, 3 * t), *range(4 * t, 5 * t)]:
        rounds.append([shift(across(i), g) for g in range(q)])
    return rounds


def _product(outer: list, u: int, inner: list, w: int) -> list[list[list[int]]]:
    """KTS(u w) from a KTS(u) and a KTS(w): point (x, y) = x w + y.

    Each triple {a, b, c} of a round of the KTS(u) becomes, for s in Z_w, the
    w triples {(a, z), (b, z + s), (c, z + 2s)} (a resolvable transversal
    design: w odd, so 2 is invertible mod w): w rounds per round, every two
    points of different a's together once. Then each round of the KTS(w),
    copied on every x, seats the points with the same x.
    """
    rounds = []
    for rnd in outer:
        for s in range(w):
            rounds.append(
                [[a * w + z, b * w + (z + s) % w, c * w + (z + 2 * s) % w] for a, b, c in rnd for z in range(w)]
            )
    for rnd in inner:
        rounds.append([[x * w + y for y in triple] for x in range(u) for triple in rnd])
    return rounds


def _paste(blocks: list[list[int]], n: int, copies: int, fill: dict[int, list]) -> list[list[list[int]]]:
    """A resolvable design on copies * n + 1 points from a pairwise balanced
    design on n points (``blocks``: every two points in exactly one block):
    each point x becomes the points copies * x .. copies * x + copies - 1,
    plus one point infinity = copies * n (Beth, Jungnickel and Lenz, Design
    Theory, Lemma IX.6.4, for triples: copies = 2).

    ``fill[k]`` is a resolvable design on copies * k + 1 points whose round i
    held the table {copies * i, ..., copies * i + copies - 1, infinity}, that
    table left out (``_anchored``). On every block (b_0, ..., b_{k-1}) its
    round i goes into round b_i of the result, which also seats {the copies
    of b_i, infinity}: the blocks through b_i share nothing else, so every
    round seats everybody once, and every two points meet in the one block
    that holds both.
    """
    rounds: list[list[list[int]]] = [[] for _ in range(n)]
    for block in blocks:
        for i, rnd in enumerate(fill[len(block)]):
            rounds[block[i]].extend([[copies * block[p // copies] + p % copies for p in t] for t in rnd])
    for x, rnd in enumerate(rounds):
        rnd.append([*range(copies * x, copies * x + copies), copies * n])
    return rounds


def _anchored(rounds: list[list[list[int]]]) -> list[list[list[int]]]:
    """A resolvable design relabelled for ``_paste``: the last point is
    infinity, round i holds {copies * i, ..., infinity}, that table left
    out of every round."""
    inf = sum(len(t) for t in rounds[0]) - 1
    label = {inf: inf}
    out = []
    for i, rnd in enumerate(rounds):
        home = next(t for t in rnd if inf in t)
        for j, p in enumerate(sorted(p for p in home if p != inf)):
            label[p] = (len(home) - 1) * i + j
        out.append([t for t in rnd if t is not home])
    return [[[label[p] for p in t] for t in rnd] for rnd in out]


def _doubled(blocks: list[list[int]], n: int) -> list[list[list[int]]]:
    """KTS(2n + 1) from a pairwise balanced design on n points with blocks
    of 4 and 7: KTS(9) and KTS(15) pasted on its blocks (``_paste``)."""
    return _paste(blocks, n, 2, {4: _anchored(affine_plane(3)), 7: _anchored(KIRKMAN_15)})


def _brouwer(m: int, base: list, shifted: list, lines: list) -> list[list[int]]:
    """A pairwise balanced design on 3m + 7 points from base blocks over
    Z_m x Z_3 (Brouwer; Beth, Jungnickel and Lenz, Design Theory, p. 527).

    Point (x, y) = 3 x + y; the 7 points 3m..3m + 6 form a block. Each of
    ``base`` is developed by every (i, j) in Z_m x Z_3. Each (block, extra,
    (a, b, c), copies) of ``shifted`` is developed by (x, y) -> (x + a i + b j,
    y + c i + j + k) for i < m / a, j in Z_3 and k < copies, with the point
    extra + j added. Each (block, extra) of ``lines``: (x, y) -> (x + i,
    y + i) for i in Z_m, with the point extra added.
    """

    def pt(x: int, y: int) -> int:
        return 3 * (x % m) + y % 3

    out = [[pt(x + i, y + j) for x, y in b] for b in base for i in range(m) for j in range(3)]
    for b, extra, (a, bj, c), copies in shifted:
        for i in range(m // a):
            for j in range(3):
                for k in range(copies):
                    out.append([pt(x + a * i + bj * j, y + c * i + j + k) for x, y in b] + [extra + j])
    for b, extra in lines:
        out += [[pt(x + i, y + i) for x, y in b] + [extra] for i in range(m)]
    out.append(list(range(3 * m, 3 * m + 7)))
    return out


def _pbd_82() -> list[list[int]]:
    """A pairwise balanced design on 82 points, blocks of 4 and 7 (Beth,
    Jungnickel and Lenz, Design Theory, Theorem IX.3.16): the transversal
    design TD(5, 5) with each point tripled and each block's 15 points
    covered by AG(2, 4) less a point (blocks of 4; the copies of a point
    are a line through the missing point, so never together); then each
    group of 15 plus 7 new points is a design on 22 points (``pbd_4_7(22)``)
    whose block of the 7 new points appears once."""
    plane = affine_plane(4)
    gone = 15
    lines = [line for rnd in plane for line in rnd if gone not in line]
    through = [next(sorted(p for p in line if p != gone) for line in rnd if gone in line) for rnd in plane]
    copy_of = {p: (g, c) for g, group in enumerate(through) for c, p in enumerate(group)}
    blocks = []
    for a in range(5):
        for b in range(5):
            points = [5 * g + (a + b * g) % 5 for g in range(5)]  # one per group g
            for line in lines:
                blocks.append([3 * points[copy_of[p][0]] + copy_of[p][1] for p in line])
    small = pbd_4_7(22)
    new = next(b for b in small if len(b) == 7)
    rest = [p for p in range(22) if p not in new]
    for g in range(5):
        where = {p: 3 * (5 * g + k // 3) + k % 3 for k, p in enumerate(rest)}
        where.update({p: 75 + k for k, p in enumerate(new)})
        blocks += [[where[p] for p in b] for b in small if b != new]
    blocks.append(list(range(75, 82)))
    return blocks


def pbd_4_7(n: int) -> list[list[int]] | None:
    """A pairwise balanced design on n points with blocks of 4 and 7, where
    one is built here: a resolvable (n, 4, 1) design's blocks (``quads``);
    n = 22: KTS(15) with a new point on each round's tables and the 7 new
    points a block; n = 34, 70 (Brouwer); n = 82 (``_pbd_82``)."""
    design = quads(n)
    if design is not None:
        return [t for rnd in design for t in rnd]
    if n == 22:
        return [t + [15 + i] for i, rnd in enumerate(KIRKMAN_15) for t in rnd] + [list(range(15, 22))]
    if n == 34:
        return _brouwer(
            9,
            [[(0, 0), (1, 1), (2, 0), (4, 1)]],
            [([(0, 0), (1, 0), (4, 2)], 27, (1, 0, 1), 1), ([(0, 0), (2, 2), (5, 0)], 30, (1, 1, 2), 1)],
            [([(0, 0), (0, 1), (0, 2)], 33)],
        )
    if n == 70:
        return _brouwer(
            21,
            [
                [(0, 0), (1, 0), (5, 1), (13, 1)],
                [(0, 0), (4, 0), (20, 1), (10, 1)],
                [(0, 0), (16, 0), (17, 1), (19, 1)],
                [(0, 0), (2, 1), (8, 1), (11, 1)],
            ],
            [([(0, 0), (3, 2), (9, 1)], 63, (1, 0, 0), 1), ([(0, 0), (7, 0), (14, 1)], 66, (3, 1, 0), 3)],
            [([(0, 0), (0, 1), (0, 2)], 69)],
        )
    if n == 82:
        return _pbd_82()
    return None


@lru_cache(maxsize=64)
def _kirkman(v: int) -> tuple[str, tuple] | None:
    """(how it is built, its rounds) for a KTS(v) built here, or None."""
    if v % 6 != 3:
        return None
    built = _build(v)
    if built is None:
        return None
    name, rounds = built
    return name, tuple(tuple(tuple(t) for t in rnd) for rnd in rounds)


def _build(v: int) -> tuple[str, list] | None:
    if v == 3:
        return "one table", [[[0, 1, 2]]]
    pk = prime_power(v)
    if pk and pk[0] == 3:
        return f"AG({pk[1]}, 3)", affine_geometry(pk[1], 3)
    if v == 15:
        return "Kirkman's schoolgirls", KIRKMAN_15
    q = (v - 1) // 2
    if q % 6 == 1 and prime_power(q):
        return f"KTS(2q + 1) over GF({q})", _double_field(q)
    q = v // 3
    if q % 6 == 1 and prime_power(q):
        return f"KTS(3q) over GF({q})", _triple_field(q)
    for u in range(3, v // 3 + 1, 6):
        if v % u == 0 and (v // u) % 6 == 3:
            outer, inner = kirkman(u), kirkman(v // u)
            if outer is not None and inner is not None:
                return f"KTS({u}) x KTS({v // u})", _product(outer, u, inner, v // u)
    n = (v - 1) // 2
    blocks = pbd_4_7(n)
    if blocks is not None:
        return f"KTS(2n + 1) from a {{4, 7}}-PBD on {n}", _doubled(blocks, n)
    return None


def kirkman(v: int) -> list[list[list[int]]] | None:
    """A KTS(v) built here, or None."""
    built = _kirkman(v)
    return None if built is None else [[list(t) for t in rnd] for rnd in built[1]]


def kirkman_name(v: int) -> str | None:
    """How the KTS(v) of ``kirkman`` is built, or None."""
    built = _kirkman(v)
    return None if built is None else f"KTS({v}): {built[0]}"
