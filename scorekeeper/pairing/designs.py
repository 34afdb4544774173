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


def design_for(n: int, size: int) -> list[list[list[int]]] | None:
    """A resolvable design for ``n`` players at tables of ``size``, if one is
    known here: AG(2, size) for n = size², KTS(15) for 15 in threes."""
    if n == size * size and size in _FIELDS:
        return affine_plane(size)
    if n == 15 and size == 3:
        return [[list(t) for t in rnd] for rnd in KIRKMAN_15]
    return None
