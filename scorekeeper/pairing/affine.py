"""Finite fields GF(q) and the affine geometries AG(n, q) over them.

``affine_geometry(n, q)``: the q^n points of GF(q)^n and its lines (q points
each). The lines with one direction form a parallel class (a round of q^(n-1)
tables of q), there are (q^n - 1) / (q - 1) directions, and every two points
lie on exactly one line: over all those rounds every two players meet
exactly once. AG(2, q) is the affine plane of order q.
"""

from __future__ import annotations

from functools import lru_cache


def prime_power(q: int) -> tuple[int, int] | None:
    """(p, k) with q = p^k and p prime, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    k = 0
    while q % p == 0:
        q //= p
        k += 1
    return (p, k) if q == 1 else None


class GaloisField:
    """The finite field of ``q`` elements (any prime power), with addition
    and multiplication tables over the elements 0..q-1 (0 and 1 are the
    field's zero and one).

    GF(p^k) is the polynomials over GF(p) of degree < k, element = sum c_i
    p^i, modulo the first monic irreducible polynomial of degree k (its lower
    coefficients read as a number in base p, smallest first): x^2 + x + 1
    for GF(4), x^3 + x + 1 for GF(8), x^2 + 1 for GF(9). ``primitive`` is the
    smallest element that generates the multiplicative group, ``exp[i]`` its
    i-th power and ``log`` the inverse map.
    """

    def __init__(self, q: int):
        pk = prime_power(q)
        if pk is None:
            raise ValueError(f"GF({q}) does not exist: q must be a prime power")
        p, k = pk
        self.q, self.p, self.k = q, p, k

        def digits(x: int) -> list[int]:
            return [(x // p**i) % p for i in range(k)]

        def number(ds: list[int]) -> int:
            return sum(d * p**i for i, d in enumerate(ds))

        def mul_mod(a: int, b: int, low: tuple[int, ...]) -> int:
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

        if k == 1:  # the integers mod p
            self.add = [[(a + b) % p for b in range(q)] for a in range(q)]
            self.mul = [[a * b % p for b in range(q)] for a in range(q)]
        else:
            low = next(low for low in _monic_lows(p, k) if _irreducible(p, low))
            self.add = [
                [number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)]) for b in range(q)]
                for a in range(q)
            ]
            self.mul = [[mul_mod(a, b, low) for b in range(q)] for a in range(q)]
        self.neg = [self.add[a].index(0) for a in range(q)]
        self.primitive = next(w for w in range(1, q) if self._order(w) == q - 1)
        self.exp = [1]
        for _ in range(q - 2):
            self.exp.append(self.mul[self.exp[-1]][self.primitive])
        self.log = {x: i for i, x in enumerate(self.exp)}

    def _order(self, w: int) -> int:
        x, n = w, 1
        while x != 1:
            x = self.mul[x][w]
            n += 1
        return n

    def sub(self, a: int, b: int) -> int:
        return self.add[a][self.neg[b]]

    def div(self, a: int, b: int) -> int:
        return 0 if a == 0 else self.exp[(self.log[a] - self.log[b]) % (self.q - 1)]


def _monic_lows(p: int, k: int):
    """The lower coefficients (c_0..c_{k-1}) of every monic polynomial of
    degree k over GF(p), in the order of the number sum c_i p^i."""
    for n in range(p**k):
        yield tuple((n // p**i) % p for i in range(k))


def _irreducible(p: int, low: tuple[int, ...]) -> bool:
    """Whether x^k + low[k-1] x^(k-1) + ... + low[0] has no factor of degree
    1..k/2 over GF(p) (trial division by every monic polynomial)."""
    f = [*low, 1]
    k = len(low)
    for d in range(1, k // 2 + 1):
        for g_low in _monic_lows(p, d):
            g = [*g_low, 1]
            r = f[:]
            for deg in range(k, d - 1, -1):
                c = r[deg]
                if c:
                    for i, gc in enumerate(g):
                        r[deg - d + i] = (r[deg - d + i] - c * gc) % p
            if not any(r[:d]):
                return False
    return True


@lru_cache(maxsize=32)
def field(q: int) -> GaloisField:
    """GF(q), built once."""
    return GaloisField(q)


def affine_geometry(n: int, q: int) -> list[list[list[int]]]:
    """The parallel classes of lines of AG(n, q); point (x_1, ..., x_n) is
    the number x_1 q^(n-1) + ... + x_n.

    A direction is a nonzero vector whose first nonzero coordinate is 1;
    directions come by that coordinate's position, last first, then in
    numeric order. Each class lists its lines by their point whose
    coordinate at that position is 0, in numeric order, each line from that
    point along the direction (t = 0, 1, ..., q - 1). For n = 2: class 0 is
    the lines x = c and class m + 1 the lines y = m x + b.
    """
    f = field(q)
    size = q**n

    def vector(x: int) -> list[int]:
        return [(x // q ** (n - 1 - i)) % q for i in range(n)]

    def number(vs: list[int]) -> int:
        return sum(c * q ** (n - 1 - i) for i, c in enumerate(vs))

    classes = []
    for lead in range(n - 1, -1, -1):
        for tail in range(q ** (n - 1 - lead)):
            d = [0] * lead + [1] + vector(tail)[lead + 1 :]
            lines = []
            for base in range(size):
                b = vector(base)
                if b[lead]:
                    continue
                lines.append([number([f.add[b[i]][f.mul[t][d[i]]] for i in range(n)]) for t in range(q)])
            classes.append(lines)
    return classes


def affine_plane(q: int) -> list[list[list[int]]]:
    """The q + 1 parallel classes of AG(2, q); point (x, y) is x * q + y."""
    return affine_geometry(2, q)
