"""The perfect seatings written into the code: each must be what it claims."""

from __future__ import annotations

from itertools import combinations

import pytest

from scorekeeper.pairing.designs import KIRKMAN_15, PRIME_POWERS, GaloisField, affine_plane, design_for, golfers_32


def pairs_met(rounds):
    seen: dict[frozenset, int] = {}
    for rnd in rounds:
        for table in rnd:
            for pair in combinations(table, 2):
                seen[frozenset(pair)] = seen.get(frozenset(pair), 0) + 1
    return seen


@pytest.mark.parametrize("q", PRIME_POWERS)
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


def test_gf4_gf8_gf9_are_not_the_integers_mod_q():
    # in GF(p^k), x + x = 0 (characteristic 2) or x + x + x = 0 (characteristic 3)
    assert GaloisField(4).add[3][3] == 0
    assert GaloisField(8).add[5][5] == 0
    f9 = GaloisField(9)
    assert f9.add[f9.add[4][4]][4] == 0
    # and 2 * 2 is not 4 mod q: GF(4)'s x * x = x + 1
    assert GaloisField(4).mul[2][2] == 3


@pytest.mark.parametrize("q", PRIME_POWERS)
def test_affine_plane_every_two_points_once(q):
    classes = affine_plane(q)
    assert len(classes) == q + 1
    for cls in classes:
        assert len(cls) == q and all(len(line) == q for line in cls)
        assert sorted(p for line in cls for p in line) == list(range(q * q))  # a round seats everyone once
    met = pairs_met(classes)
    assert len(met) == q * q * (q * q - 1) // 2 and set(met.values()) == {1}


def test_kirkman_15_is_a_kirkman_triple_system():
    assert len(KIRKMAN_15) == 7
    for rnd in KIRKMAN_15:
        assert sorted(p for table in rnd for p in table) == list(range(15))
        assert all(len(table) == 3 for table in rnd)
    met = pairs_met(KIRKMAN_15)
    assert len(met) == 105 and set(met.values()) == {1}


def test_golfers_32_is_a_schedule_of_10_rounds_without_a_repeat():
    rounds = golfers_32()
    assert len(rounds) == 10
    for rnd in rounds:
        assert len(rnd) == 8 and all(len(table) == 4 for table in rnd)
        assert sorted(p for table in rnd for p in table) == list(range(32))  # a round seats everyone once
    met = pairs_met(rounds)
    # 10 rounds x 8 tables x 6 pairs = 480 meetings, all of different pairs
    assert len(met) == 480 and set(met.values()) == {1}
    # each player meets 30 of the other 31: the 16 pairs who never meet cover everyone once
    never = {frozenset(p) for p in combinations(range(32), 2)} - set(met)
    assert sorted(p for pair in never for p in pair) == list(range(32))


def test_which_fields_have_a_design():
    assert len(design_for(16, 4)) == 5
    assert len(design_for(49, 7)) == 8
    assert len(design_for(15, 3)) == 7
    assert design_for(36, 6) is None  # no plane of order 6
    assert design_for(20, 4) is None
    assert len(design_for(32, 4)) == 10
    assert design_for(32, 8) is None
    with pytest.raises(ValueError, match="GF\\(6\\)"):
        GaloisField(6)
