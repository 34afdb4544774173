"""Resolvable (v, 4, 1) designs: v players at tables of four for (v - 1) / 3
rounds, every two players together exactly once. They exist for every
v ≡ 4 (mod 12) (Hanani, Ray-Chaudhuri and Wilson, "On resolvable designs",
1972); ``quads(v)`` builds them for:

* v = 4^n: the affine geometry AG(n, 4) (16, 64, 256; ``affine.py``);
* v = 3m + 1 for every prime power m ≡ 1 (mod 4) (28, 40, 52, 76, 88, 112,
  124, 148, 160, 184, 220, 244, 268, 292) and for m = 45, 65, 77 (136, 196,
  232), from a *pairing* of an abelian group of order m (``_from_pairing``).

Not built: v = 100, 172, 208, 280. There m = 33, 57, 69, 93 and Z_m is the
only group of that order: an exhaustive search shows Z_33 has no pairing
(nor have Z_9 and Z_21), and a long random search found none for the
others. 100, 172 and 208 at fours still get a transversal design
(``designs.transversal``: 25, 43 and 52 rounds without a repeat).
"""

from __future__ import annotations

from functools import lru_cache

from .affine import affine_geometry, field, prime_power

# Pairings found by a backtracking search (smallest unused class first,
# partners in random order), for the groups Z_m (moduli (m,)) and
# Z_15 x Z_3 (element (a, b) written as the number a + 15 b):
# ``tests/pairing/test_designs.py`` checks every design built from them.
_PAIRINGS: dict[int, tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = {
    45: (
        (15, 3),
        ((15, 19), (1, 36), (16, 32), (31, 22), (2, 3), (17, 34), (18, 20), (33, 6), (4, 37), (5, 35), (21, 7)),
    ),
    65: (
        (65,),
        (
            (1, 5), (2, 16), (3, 32), (4, 23), (6, 17), (7, 8), (9, 31), (10, 22),
            (11, 28), (12, 19), (13, 15), (14, 27), (18, 26), (20, 29), (21, 24), (25, 30),
        ),
    ),
    77: (
        (77,),
        (
            (1, 2), (3, 36), (4, 28), (5, 9), (6, 37), (7, 16), (8, 21), (10, 20), (11, 26), (12, 14),
            (13, 29), (15, 34), (17, 38), (18, 23), (19, 31), (22, 30), (24, 35), (25, 32), (27, 33),
        ),
    ),
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


def _from_pairing(m: int, add, neg, pairs) -> list[list[list[int]]]:
    """A resolvable (3m + 1, 4, 1) design from an abelian group G of odd
    order m ≡ 1 (mod 4) (``add``, ``neg`` on its elements 0..m-1, 0 the
    zero) and a *pairing*: (m - 1) / 4 pairs (a, b) such that the classes
    {x, -x} of the a's and b's are all the classes of G - {0}, and so are
    those of the a + b and the a - b.

    Point (x, j) = j m + x for x in G, j in Z_3, and infinity = 3m. The first
    round: {infinity, (0, 0), (0, 1), (0, 2)} and, for every pair and every
    j, {(a, j), (-a, j), (b, j + 1), (-b, j + 1)}; round g adds g to every
    x. Two points of one level j are 2a or 2b apart (2 is invertible), each
    difference once; a point of level j and one of j + 1 are b - a, b + a,
    -b - a or -b + a apart (0 in the first table), each difference once.

    For G = GF(q) this is the construction of Beth, Jungnickel and Lenz
    (Design Theory, VII.7.5(a)): the pairs (w^i, e w^i) for i < (q - 1) / 4,
    w primitive and e = w^((q - 1) / 4), a square root of -1.
    """
    first = [[3 * m, 0, m, 2 * m]]
    for a, b in pairs:
        for j in range(3):
            k = (j + 1) % 3
            first.append([j * m + a, j * m + neg(a), k * m + b, k * m + neg(b)])
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
        return f"3q + 1 over GF({m})", _frozen(_from_pairing(m, lambda a, b: f.add[a][b], lambda a: f.neg[a], pairs))
    if m in _PAIRINGS:
        moduli, pairs = _PAIRINGS[m]
        g = _Group(moduli)
        group = " x ".join(f"Z_{k}" for k in moduli)
        return f"3m + 1 over {group}", _frozen(_from_pairing(m, g.add, g.neg, pairs))
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
