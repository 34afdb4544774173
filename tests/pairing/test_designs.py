"""The perfect seatings built into the code: each must be what it claims.

Every design ``design_for`` returns, for every field of up to 300 players,
is checked here (each round seats every point once at tables of its size,
every two points meet at most once, and a complete design has all its
rounds); so is every seating ``field_design`` returns at the table sizes
of ``table_sizes``.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from scorekeeper.pairing.affine import GaloisField, affine_geometry, field, prime_power
from scorekeeper.pairing.designs import (
    KIRKMAN_15,
    affine_plane,
    describe,
    design_for,
    design_problem,
    field_design,
    golfers_32,
    transversal,
)
from scorekeeper.pairing.kirkman import kirkman, pbd_4_7
from scorekeeper.pairing.quads import quads
from scorekeeper.pairing.seating import table_sizes

UP_TO = 300  # fields up to this size are planned as a whole (plan.PLAN_UP_TO)


def pairs_met(rounds):
    seen: dict[frozenset, int] = {}
    for rnd in rounds:
        for table in rnd:
            for pair in combinations(table, 2):
                seen[frozenset(pair)] = seen.get(frozenset(pair), 0) + 1
    return seen


def assert_complete(rounds, v, size):
    """A resolvable design in which every two of the v points meet exactly once."""
    assert design_problem(rounds, v, size) is None
    assert len(rounds) * (v // size) * size * (size - 1) // 2 == v * (v - 1) // 2


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16, 25, 27])
def test_galois_field_is_a_field(q):
    f = GaloisField(q)
    elements = range(q)
    for a in elements:
        assert f.add[0][a] == a and f.mul[1][a] == a and f.mul[0][a] == 0
        assert sorted(f.add[a][b] for b in elements) == list(elements)  # every a has a negative
        if a:
            assert sorted(f.mul[a][b] for b in elements) == list(elements)  # and, if not 0, an inverse
        for b in elements:
            assert f.add[a][b] == f.add[b][a] and f.mul[a][b] == f.mul[b][a]
            for c in elements:
                assert f.mul[a][f.add[b][c]] == f.add[f.mul[a][b]][f.mul[a][c]]
                assert f.mul[a][f.mul[b][c]] == f.mul[f.mul[a][b]][c]
                assert f.add[a][f.add[b][c]] == f.add[f.add[a][b]][c]


# every field a construction may use for fields of up to 300 players: the
# transversal designs' (up to 100 tables), KTS(2q + 1)'s (q up to 148)
USED_FIELDS = [q for q in range(2, 150) if prime_power(q) and (q <= 100 or q % 6 == 1)]


@pytest.mark.parametrize("q", USED_FIELDS)
def test_every_field_used_has_a_cyclic_multiplicative_group(q):
    f = field(q)
    assert sorted(f.exp) == list(range(1, q))  # the primitive element's powers: every nonzero element
    for a in range(1, q):
        assert f.add[a][f.neg[a]] == 0
        for b in range(1, q):
            assert f.mul[a][b] == f.exp[(f.log[a] + f.log[b]) % (q - 1)]
    # distributive over a generating set of the additive group (the powers of x)
    for a in range(q):
        for b in range(q):
            for c in {1, f.p % q, f.primitive}:
                assert f.mul[c][f.add[a][b]] == f.add[f.mul[c][a]][f.mul[c][b]]


def test_gf4_gf8_gf9_are_not_the_integers_mod_q():
    # in GF(p^k), x + x = 0 (characteristic 2) or x + x + x = 0 (characteristic 3)
    assert GaloisField(4).add[3][3] == 0
    assert GaloisField(8).add[5][5] == 0
    f9 = GaloisField(9)
    assert f9.add[f9.add[4][4]][4] == 0
    # and 2 * 2 is not 4 mod q: GF(4)'s x * x = x + 1
    assert GaloisField(4).mul[2][2] == 3
    with pytest.raises(ValueError, match="GF\\(6\\)"):
        GaloisField(6)


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9])
def test_affine_plane_every_two_points_once(q):
    classes = affine_plane(q)
    assert len(classes) == q + 1
    assert_complete(classes, q * q, q)
    # class 0: the lines x = c; class m + 1: the lines y = m x + b
    assert classes[0][1] == list(range(q, 2 * q))
    assert classes[1][1] == [x * q + 1 for x in range(q)]


@pytest.mark.parametrize(("n", "q"), [(3, 3), (4, 3), (5, 3), (3, 4), (4, 4), (3, 5)])
def test_affine_geometry_every_two_points_once(n, q):
    classes = affine_geometry(n, q)
    assert len(classes) == (q**n - 1) // (q - 1)
    assert_complete(classes, q**n, q)


def test_kirkman_15_is_a_kirkman_triple_system():
    assert len(KIRKMAN_15) == 7
    assert_complete(KIRKMAN_15, 15, 3)
    assert design_for(15, 3) == KIRKMAN_15


def test_golfers_32_is_a_schedule_of_10_rounds_without_a_repeat():
    rounds = golfers_32()
    assert len(rounds) == 10
    assert design_problem(rounds, 32, 4) is None
    met = pairs_met(rounds)
    # 10 rounds x 8 tables x 6 pairs = 480 meetings, all of different pairs
    assert len(met) == 480 and set(met.values()) == {1}
    # each player meets 30 of the other 31: the 16 pairs who never meet cover everyone once
    never = {frozenset(p) for p in combinations(range(32), 2)} - set(met)
    assert sorted(p for pair in never for p in pair) == list(range(32))


KTS_MISSING = {213, 231, 267, 285}


def test_a_kirkman_triple_system_for_every_v_3_mod_6():
    built = [v for v in range(3, UP_TO, 6) if kirkman(v) is not None]
    assert built == [v for v in range(3, UP_TO, 6) if v not in KTS_MISSING]
    assert kirkman(20) is None  # each checked in test_every_design_claimed_is_one


def test_a_resolvable_4_design_for_every_v_4_mod_12():
    built = [v for v in range(4, UP_TO, 12) if quads(v) is not None]
    assert built == list(range(4, UP_TO, 12))
    assert quads(16) == affine_plane(4)  # the plane, as before


@pytest.mark.parametrize("n", [16, 22, 28, 34, 40, 52, 70, 82, 88])
def test_pairwise_balanced_designs_with_blocks_of_4_and_7(n):
    blocks = pbd_4_7(n)
    assert {len(b) for b in blocks} <= {4, 7}
    met = pairs_met([blocks])
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    assert all(0 <= p < n for b in blocks for p in b)


def test_every_design_claimed_is_one():
    claimed = {}
    for size in range(3, 8):
        for v in range(size + 1, UP_TO + 1):
            rounds = design_for(v, size)
            if rounds is None:
                continue
            assert design_problem(rounds, v, size) is None, (v, size)
            if (v, size) != (32, 4):  # the golfers' schedule is the one partial design
                assert_complete(rounds, v, size)
            claimed.setdefault(size, []).append(v)
    assert claimed[5] == [25, 125] and claimed[7] == [49]
    assert 21 in claimed[3] and 27 in claimed[3] and 28 in claimed[4] and 40 in claimed[4] and 64 in claimed[4]
    assert design_for(36, 6) is None  # no plane of order 6
    assert design_for(20, 4) is None
    assert design_for(32, 8) is None
    assert design_for(4, 4) is None  # a single table


def test_every_field_design_fits_the_table_sizes_and_repeats_nobody():
    seated = {}
    for n in [*range(3, 81), 99, 100, 124, 125, 145, 171, 172, 199, 200, 243, 245, 295]:
        for preferred in range(3, 8):
            sizes = table_sizes(n, preferred)
            rounds = field_design(n, sizes)
            if rounds is None:
                assert describe(n, sizes) is None
                continue
            met: set = set()
            for rnd in rounds:
                assert sorted(p for t in rnd for p in t) == list(range(n))
                assert sorted(map(len, rnd), reverse=True) == sizes
                for t in rnd:
                    for pair in combinations(sorted(t), 2):
                        assert pair not in met, (n, preferred)
                        met.add(pair)
            seated[(n, preferred)] = (len(rounds), describe(n, sizes))
    # a few players short of a design: the design less them (and its last round when more than one)
    assert seated[(15, 4)] == (5, "(16, 4, 1): AG(2, 4), less 1")
    assert seated[(26, 4)] == (8, "(28, 4, 1): 3q + 1 over GF(9), less 2")
    assert seated[(48, 7)] == (8, "AG(2, 7), less 1")
    # transversal designs: as many rounds as tables
    assert seated[(35, 5)] == (7, "transversal design TD(5, 7) over GF(7)")
    assert seated[(44, 5)] == (9, "transversal design TD(4, 9) over GF(9), one more group of 8")
    assert seated[(36, 3)] == (12, "transversal design TD(3, 12) over GF(4) x GF(3)")
    assert (18, 3) not in seated and (30, 6) not in seated  # 6 tables; 5 tables of 6: no design


@pytest.mark.parametrize(
    ("n", "sizes", "rounds"),
    [
        (60, [5] * 12, None),  # 12 = 4 x 3: 3 is too small a field for tables of 5
        (36, [3] * 12, 12),  # GF(4) x GF(3)
        (100, [4] * 25, 25),
        (50, [7, 7] + [6] * 6, 8),  # GF(8), a 7th group of 2
        (20, [4] * 5, 5),
    ],
)
def test_transversal_designs(n, sizes, rounds):
    design = transversal(n, sizes)
    if rounds is None:
        assert design is None
        return
    assert len(design) == rounds
    met = pairs_met(design)
    assert set(met.values()) == {1}
    for rnd in design:
        assert sorted(p for t in rnd for p in t) == list(range(n))
        assert sorted(map(len, rnd), reverse=True) == sizes


def test_the_checker_finds_what_is_wrong():
    good = affine_plane(3)
    assert design_problem(good, 9, 3) is None
    twice = [rnd[:] for rnd in good] + [good[0]]
    assert design_problem(twice, 9, 3) == "(0, 1) meet twice (round 4)"
    short = [good[0][:2]]
    assert design_problem(short, 9, 3) == "round 0 does not seat every point once"
    doubled = [[[0, 1, 2], [3, 4, 5], [6, 7, 0]]]
    assert design_problem(doubled, 9, 3) == "round 0 does not seat every point once"
    assert design_problem([[[0, 1, 2, 3], [4, 5, 6], [7, 8]]], 9, 3) == "round 0 has a table not of 3"
