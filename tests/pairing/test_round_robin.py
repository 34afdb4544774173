from __future__ import annotations

from collections import Counter

import pytest

from scorekeeper.pairing.round_robin import round_robin_rounds


def seats(rounds):
    """player -> list of 1/2 per game, in round order (byes skipped)."""
    out: dict = {}
    for games in rounds:
        for a, b in games:
            if b is None:
                continue
            out.setdefault(a, []).append(1)
            out.setdefault(b, []).append(2)
    return out


@pytest.mark.parametrize("double", [False, True])
@pytest.mark.parametrize("n", range(2, 17))
def test_every_pair_meets_once_or_twice_and_nobody_twice_a_round(n, double):
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin_rounds(players, double=double)
    per_half = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_half * (2 if double else 1)
    meetings = Counter()
    byes = Counter()
    for games in rounds:
        in_round = [p for pair in games for p in pair if p is not None]
        assert len(in_round) == len(set(in_round)) == n  # everyone, once
        for a, b in games:
            if b is None:
                byes[a] += 1
            else:
                meetings[frozenset((a, b))] += 1
    times = 2 if double else 1
    expected = {frozenset((a, b)): times for i, a in enumerate(players) for b in players[i + 1 :]}
    assert dict(meetings) == expected
    if n % 2:
        assert byes == Counter(dict.fromkeys(players, times))
    else:
        assert not byes


@pytest.mark.parametrize("n", range(2, 17))
def test_seat_one_is_balanced(n):
    single = seats(round_robin_rounds(list(range(n))))
    for games in single.values():
        # n - 1 games: exactly half each with an odd field, one apart with an even one
        assert abs(games.count(1) - games.count(2)) == (0 if n % 2 else 1)
        # at most one repeated seat in a row
        assert sum(x == y for x, y in zip(games, games[1:], strict=False)) <= 1
    double = seats(round_robin_rounds(list(range(n)), double=True))
    for games in double.values():
        assert games.count(1) == games.count(2)


def test_the_fixed_player_alternates_and_the_second_half_swaps_seats():
    rounds = round_robin_rounds(["a", "b", "c", "d", "e", "f"], double=True)
    assert seats(rounds[:5])["f"] == [1, 2, 1, 2, 1]
    for first, second in zip(rounds[:5], rounds[5:], strict=True):
        assert second == [(b, a) for a, b in first]


def test_odd_field_bye_is_listed_last():
    for games in round_robin_rounds([1, 2, 3, 4, 5]):
        assert games[-1][1] is None
        assert all(b is not None for _, b in games[:-1])


def test_small_and_bad_fields():
    assert round_robin_rounds([]) == []
    assert round_robin_rounds(["solo"]) == []
    assert round_robin_rounds(["a", "b"]) == [[("b", "a")]]
    assert round_robin_rounds(["a", "b"], double=True) == [[("b", "a")], [("a", "b")]]
    with pytest.raises(ValueError, match="only once"):
        round_robin_rounds(["a", "b", "a"])
    with pytest.raises(ValueError, match="None"):
        round_robin_rounds(["a", None])
