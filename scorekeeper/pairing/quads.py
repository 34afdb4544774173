"""Resolvable (v, 4, 1) designs: v players at tables of four for (v - 1) / 3
rounds, every two players together exactly once. They exist for every
v ≡ 4 (mod 12) (Hanani, Ray-Chaudhuri and Wilson, "On resolvable designs",
1972); ``quads(v)`` builds them for:

* v = 4^n: the affine geometry AG(n, 4) (16, 64, 256; ``affine.py``);
* v = 3m + 1 for every other m ≡ 1 (mod 4) up to 97, from pairings of an
  abelian group of order m (``_from_pairings``): for a prime power m over
  GF(m) (28, 40, 52, 76, 88, 112, 124, 148, 160, 184, 220, 244, 268, 292),
  and with pairings found by a search for m = 33, 45, 57, 65, 69, 77, 93
  (100, 136, 172, 196, 208, 232, 280).

So every v ≡ 4 (mod 12) up to 292 is built; the next, 304, is beyond the
fields that are planned as a whole.
"""

from __future__ import annotations

from functools import lru_cache

from .affine import affine_geometry, field, prime_power

# Pairings found by a backtracking search (the first uncovered class of
# a + b, a - b first, candidates in random order): one pairing used for the
# three pairs of levels, for the groups Z_m (moduli (m,)) and Z_15 x Z_3
# (element (a, b) written as the number a + 15 b); three pairings, for the
# levels (0, 1), (1, 2) and (2, 0), where Z_m has no single one (an
# exhaustive search shows it for m = 33, as for 9 and 21).
# ``tests/pairing/test_designs.py`` checks every design built from them.
_PAIRINGS: dict[int, tuple[tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...]]] = {
    33: ((33,), (
        ((15, 16), (11, 8), (7, 3), (16, 11), (14, 7), (6, 14), (4, 13), (13, 2)),
        ((12, 11), (10, 8), (6, 3), (5, 1), (15, 10), (9, 2), (4, 16), (1, 15)),
        ((4, 5), (5, 3), (7, 10), (12, 8), (14, 9), (6, 12), (9, 2), (13, 1)),
    )),
    45: ((15, 3), (
        ((15, 19), (1, 36), (16, 32), (31, 22), (2, 3), (17, 34), (18, 20), (33, 6), (4, 37), (5, 35), (21, 7)),
    )),
    57: ((57,), (
        ((16, 15), (2, 4), (17, 20), (6, 10), (14, 9), (12, 5), (18, 26), (10, 19), (4, 14), (23, 12), (13, 1),
         (9, 24), (3, 22), (24, 3)),
        ((8, 9), (21, 23), (18, 21), (6, 2), (13, 8), (16, 22), (11, 18), (25, 16), (7, 17), (17, 28), (28, 14),
         (23, 3), (27, 5), (2, 25)),
        ((27, 28), (24, 27), (15, 19), (20, 15), (1, 8), (13, 5), (10, 20), (12, 1), (19, 7), (11, 25), (26, 11),
         (6, 22), (4, 21), (7, 26)),
    )),
    65: ((65,), (
        ((1, 5), (2, 16), (3, 32), (4, 23), (6, 17), (7, 8), (9, 31), (10, 22),
         (11, 28), (12, 19), (13, 15), (14, 27), (18, 26), (20, 29), (21, 24), (25, 30)),
    )),
    69: ((69,), (
        ((28, 29), (16, 18), (29, 32), (13, 9), (18, 13), (33, 27), (7, 14), (9, 19), (31, 20), (3, 16),
         (20, 6), (19, 34), (25, 8), (6, 26), (8, 31), (34, 10), (1, 28)),
        ((22, 21), (24, 26), (12, 15), (15, 19), (17, 22), (30, 24), (11, 18), (3, 11), (4, 13), (7, 17),
         (1, 12), (2, 14), (25, 7), (21, 1), (23, 2), (5, 28), (33, 5)),
        ((29, 30), (4, 2), (20, 23), (16, 12), (9, 14), (25, 32), (32, 24), (31, 22), (10, 21), (3, 17),
         (30, 15), (27, 10), (8, 26), (23, 4), (6, 27), (33, 11), (34, 5)),
    )),
    77: ((77,), (
        ((1, 2), (3, 36), (4, 28), (5, 9), (6, 37), (7, 16), (8, 21), (10, 20), (11, 26), (12, 14),
         (13, 29), (15, 34), (17, 38), (18, 23), (19, 31), (22, 30), (24, 35), (25, 32), (27, 33)),
    )),
    93: ((93,), (
        ((13, 14), (41, 43), (15, 18), (33, 37), (1, 6), (36, 42), (9, 17), (18, 28), (24, 13), (28, 40), (26, 39),
         (20, 34), (16, 32), (37, 20), (27, 45), (8, 27), (25, 5), (23, 1), (40, 11), (43, 12), (4, 36), (42, 8),
         (45, 4)),
        ((21, 22), (35, 33), (16, 13), (30, 26), (23, 28), (19, 25), (46, 39), (15, 24), (7, 17), (10, 21), (2, 14),
         (22, 35), (33, 19), (25, 10), (29, 46), (26, 45), (3, 23), (24, 3), (38, 15), (9, 37), (31, 1), (44, 11),
         (41, 7)),
        ((4, 5), (29, 31), (41, 38), (38, 34), (9, 14), (18, 12), (36, 29), (43, 35), (27, 17), (32, 21), (31, 19),
         (16, 3), (30, 46), (20, 2), (2, 22), (5, 30), (6, 32), (34, 7), (40, 11), (8, 39), (12, 44), (44, 10),
         (42, 6)),
    )),
}  # fmt: skip


class _Group:
    """Z_{n_1} x Z_{n_2} x ...: element (a_1, a_2, ...) is the number
    a_1 + n_1 a_2 + n_1 n_2 a_3 + ..."""

    def __init__(self, moduli: tuple[int, ...]):
        self.moduli = moduli

    def _digits(self, x: int) -> list[int]:
        out = []
        for n in self.moduli:
            x, d = divmod(x, n)
            out.append(d)
        return out

    def _number(self, ds: list[int]) -> int:
        x, scale = 0, 1
        for d, n in zip(ds, self.moduli, strict=True):
            x += (d % n) * scale
            scale *= n
        return x

    def add(self, a: int, b: int) -> int:
        return self._number([x + y for x, y in zip(self._digits(a), self._digits(b), strict=True)])

    def neg(self, a: int) -> int:
        return self._number([-x for x in self._digits(a)])


def _from_pairings(m: int, add, neg, pairings) -> list[list[list[int]]]:
    """A resolvable (3m + 1, 4, 1) design from an abelian group G of odd
    order m ≡ 1 (mod 4) (``add``, ``neg`` on its elements 0..m-1, 0 the
    zero) and three *pairings* (one, if it serves for all three), each of
    (m - 1) / 4 pairs (a, b): ``pairings[j]`` joins level j to level j + 1
    (mod 3), and the classes {x, -x} of its a + b and a - b are all the
    classes of G - {0}, as are those of the a's of ``pairings[j]`` with the
    b's of ``pairings[j - 1]``.

    Point (x, j) = j m + x for x in G, j in Z_3, and infinity = 3m. The first
    round: {infinity, (0, 0), (0, 1), (0, 2)} and, for every pair (a, b) of
    ``pairings[j]``, {(a, j), (-a, j), (b, j + 1), (-b, j + 1)}; round g adds
    g to every x. Two points of one level are 2a or 2b apart (2 is
    invertible), each difference once; a point of level j and one of j + 1
    are b - a, b + a, -b - a or -b + a apart (0 in the first table), each
    difference once.

    With one pairing over G = GF(q) this is the construction of Beth,
    Jungnickel and Lenz (Design Theory, VII.7.5(a)): the pairs (w^i, e w^i)
    for i < (q - 1) / 4, w primitive and e = w^((q - 1) / 4), a square root
    of -1.
    """
    if len(pairings) == 1:
        pairings = pairings * 3
    first = [[3 * m, 0, m, 2 * m]]
    for k in range(len(pairings[0])):
        for j in range(3):
            a, b = pairings[j][k]
            first.append([j * m + a, j * m + neg(a), (j + 1) % 3 * m + b, (j + 1) % 3 * m + neg(b)])
    rounds = []
    for g in range(m):
        rounds.append([[p if p == 3 * m else (p // m) * m + add(p % m, g) for p in table] for table in first])
    return rounds


@lru_cache(maxsize=64)
def _quads(v: int) -> tuple[str, tuple] | None:
    """(how it is built, its rounds) for a design built here, or None."""
    if v % 12 != 4:
        return None
    pk = prime_power(v)
    if pk and pk[0] == 2 and pk[1] % 2 == 0:
        return f"AG({pk[1] // 2}, 4)", _frozen(affine_geometry(pk[1] // 2, 4))
    m = (v - 1) // 3
    if prime_power(m):
        f = field(m)
        quarter = (m - 1) // 4
        e = f.exp[quarter]
        pairs = [(f.exp[i], f.mul[e][f.exp[i]]) for i in range(quarter)]
        return f"3q + 1 over GF({m})", _frozen(
            _from_pairings(m, lambda a, b: f.add[a][b], lambda a: f.neg[a], (pairs,))
        )
    if m in _PAIRINGS:
        moduli, pairings = _PAIRINGS[m]
        g = _Group(moduli)
        group = " x ".join(f"Z_{k}" for k in moduli)
        return f"3m + 1 over {group}", _frozen(_from_pairings(m, g.add, g.neg, pairings))
    return None


def _frozen(rounds) -> tuple:
    return tuple(tuple(tuple(t) for t in rnd) for rnd in rounds)


def quads(v: int) -> list[list[list[int]]] | None:
    """A resolvable (v, 4, 1) design built here, or None."""
    built = _quads(v)
    return None if built is None else [[list(t) for t in rnd] for rnd in built[1]]


def quads_name(v: int) -> str | None:
    """How the design of ``quads`` is built, or None."""
    built = _quads(v)
    return None if built is None else f"({v}, 4, 1): {built[0]}"
