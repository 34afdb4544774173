"""Known perfect seatings: resolvable designs where every two players share
a table at most once.

* ``affine_plane(q)``: the affine plane AG(2, q) for a prime power q (2, 3,
  4, 5, 7, 8, 9): q² points, lines of q points, q + 1 parallel classes of q
  lines each. A parallel class is a round of q tables of q; every two points
  lie on exactly one line, so over the q + 1 rounds every two players meet
  exactly once. Built over the field GF(q) (``GaloisField``).
* ``KIRKMAN_15``: a Kirkman triple system on 15 points (Kirkman's
  schoolgirls): 7 rounds of 5 tables of 3, every two players together
  exactly once. Written as data (the 7 spreads of the lines of PG(3, 2),
  found by an exact-cover search); ``tests/pairing/test_designs.py`` checks
  it is one.
* ``golfers_32()``: 32 players at tables of 4 for 10 rounds, every two
  players together at most once (the social golfer problem 8-4-10; each
  player misses exactly one other). Built here from a difference family
  over the group GF(2)³ (see the function).

Points are numbered 0..v-1; the seating maps them to players.
"""

from __future__ import annotations

# GF(p^k) as polynomials over GF(p) of degree < k, element = sum c_i p^i.
# The reduction polynomial is monic and irreducible, its lower coefficients
# listed lowest first: x^2 + x + 1 (GF(4)), x^3 + x + 1 (GF(8)), x^2 + 1 (GF(9)).
_FIELDS: dict[int, tuple[int, int, tuple[int, ...]]] = {
    2: (2, 1, (0,)),
    3: (3, 1, (0,)),
    4: (2, 2, (1, 1)),
    5: (5, 1, (0,)),
    7: (7, 1, (0,)),
    8: (2, 3, (1, 1, 0)),
    9: (3, 2, (1, 0)),
}
PRIME_POWERS = tuple(sorted(_FIELDS))


class GaloisField:
    """The finite field of ``q`` elements (``q`` in ``PRIME_POWERS``), with
    addition and multiplication tables over the elements 0..q-1 (0 and 1 are
    the field's zero and one)."""

    def __init__(self, q: int):
        if q not in _FIELDS:
            raise ValueError(f"GF({q}) is not built here: q must be one of {PRIME_POWERS}")
        p, k, low = _FIELDS[q]
        self.q, self.p, self.k = q, p, k

        def digits(x: int) -> list[int]:
            return [(x // p**i) % p for i in range(k)]

        def number(ds: list[int]) -> int:
            return sum(d * p**i for i, d in enumerate(ds))

        def mul(a: int, b: int) -> int:
            prod = [0] * (2 * k - 1)
            for i, x in enumerate(digits(a)):
                for j, y in enumerate(digits(b)):
                    prod[i + j] = (prod[i + j] + x * y) % p
            # reduce: x^k = -(low[0] + low[1] x + ...)
            for deg in range(2 * k - 2, k - 1, -1):
                c = prod[deg]
                if c:
                    prod[deg] = 0
                    for i, lc in enumerate(low):
                        prod[deg - k + i] = (prod[deg - k + i] - c * lc) % p
            return number(prod[:k])

        self.add = [
            [number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)]) for b in range(q)]
            for a in range(q)
        ]
        self.mul = [[mul(a, b) for b in range(q)] for a in range(q)]


def affine_plane(q: int) -> list[list[list[int]]]:
    """The q + 1 parallel classes of AG(2, q); point (x, y) is x * q + y.

    Class 0 holds the lines x = c; class m + 1 the lines y = m x + b.
    """
    f = GaloisField(q)
    classes = [[[c * q + y for y in range(q)] for c in range(q)]]
    for m in range(q):
        classes.append([[x * q + f.add[f.mul[m][x]][b] for x in range(q)] for b in range(q)])
    return classes


KIRKMAN_15: list[list[list[int]]] = [
    [[0, 1, 2], [3, 7, 11], [4, 9, 14], [5, 10, 12], [6, 8, 13]],
    [[0, 3, 4], [1, 7, 9], [2, 12, 13], [5, 8, 14], [6, 10, 11]],
    [[0, 5, 6], [1, 8, 10], [2, 11, 14], [3, 9, 13], [4, 7, 12]],
    [[0, 7, 8], [1, 11, 13], [2, 4, 5], [3, 10, 14], [6, 9, 12]],
    [[0, 9, 10], [1, 12, 14], [2, 3, 6], [4, 8, 11], [5, 7, 13]],
    [[0, 11, 12], [1, 3, 5], [2, 8, 9], [4, 10, 13], [6, 7, 14]],
    [[0, 13, 14], [1, 4, 6], [2, 7, 10], [3, 8, 12], [5, 9, 11]],
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
    """A resolvable design for ``n`` players at tables of ``size``, if one is
    known here: AG(2, size) for n = size², KTS(15) for 15 in threes, the
    8-4-10 golfers' schedule for 32 in fours."""
    if n == size * size and size in _FIELDS:
        return affine_plane(size)
    if n == 15 and size == 3:
        return [[list(t) for t in rnd] for rnd in KIRKMAN_15]
    if n == 32 and size == 4:
        return golfers_32()
    return None
