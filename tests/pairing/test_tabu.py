"""The tabu search after the annealing: never a worse plan than it is given."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.pairing.anneal import add_round, totals, warm_start
from scorekeeper.pairing.plan import lower_bound
from scorekeeper.pairing.seating import table_sizes
from scorekeeper.pairing.tabu import improve


def score(n, base, plan):
    counts = base[:]
    for rnd in plan:
        add_round(counts, n, rnd, 1)
    return totals(counts, n)


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(6, 30),
    preferred=st.integers(3, 7),
    rounds=st.integers(1, 6),
    played=st.integers(0, 2),
    seed=st.integers(0, 10**6),
)
def test_improve_keeps_every_round_whole_and_never_does_worse(n, preferred, rounds, played, seed):
    sizes = table_sizes(n, preferred)
    rng = random.Random(seed)
    base = [0] * (n * n)
    for rnd in warm_start(n, sizes, played, base, rng):  # some rounds already played
        add_round(base, n, rnd, 1)
    plan = warm_start(n, sizes, rounds, base, rng)
    before = score(n, base, plan)
    pairs = (base[a * n + b] for a in range(n) for b in range(a + 1, n))
    out = improve(n, plan, base, random.Random(seed), lower_bound(n, sizes, rounds, pairs), 3_000)
    assert len(out) == rounds
    for rnd in out:
        assert sorted(p for t in rnd for p in t) == list(range(n))
        assert sorted(map(len, rnd), reverse=True) == sizes
    assert score(n, base, out) <= before
    assert improve(n, plan, base, random.Random(seed), (0, 0), 3_000) == improve(
        n, plan, base, random.Random(seed), (0, 0), 3_000
    )  # reproducible


def test_improve_mends_what_the_round_by_round_seating_repeats():
    n, sizes, rounds = 20, [4] * 5, 5
    base = [0] * (n * n)
    plan = warm_start(n, sizes, rounds, base, random.Random(1))
    assert score(n, base, plan)[0] > 0
    out = improve(n, plan, base, random.Random(1), lower_bound(n, sizes, rounds), 400_000)
    assert score(n, base, out) == (0, 150)  # 20 at fours for 5 rounds without a repeat exists
