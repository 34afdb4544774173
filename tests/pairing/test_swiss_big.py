"""Swiss pairing of big fields (blocks) and the pinned results of small ones."""

from __future__ import annotations

import pytest

import scorekeeper.pairing.matching as matching
import scorekeeper.pairing.swiss as swiss
from scorekeeper.pairing import two_player_standings
from scorekeeper.pairing.swiss import SwissPlayer, pair_swiss_round, swiss_players


def clique(n, members=(), byes=(), points=lambda i: 0):
    inside = set(members)
    return [
        SwissPlayer(
            id=i,
            points=points(i),
            seed=i,
            opponents=frozenset(inside - {i}) if i in inside else frozenset(),
            byes=int(i in set(byes)),
        )
        for i in range(n)
    ]


def check(players, result):
    seen = [p for pair in result.pairs for p in pair] + ([result.bye_id] if result.bye_id is not None else [])
    assert sorted(seen) == sorted(p.id for p in players)  # everyone exactly once
    met = {frozenset((p.id, o)) for p in players for o in p.opponents}
    assert not any(frozenset(pair) in met for pair in result.pairs)
    assert result.rematches == [] and not result.repeat_bye


def test_67_players_the_bye_goes_to_the_lowest_even_in_blocks():
    players = clique(67)
    players[64] = SwissPlayer(id=64, seed=64, opponents=frozenset({65}))
    players[65] = SwissPlayer(id=65, seed=65, opponents=frozenset({64}))
    result = pair_swiss_round(players)
    check(players, result)
    assert result.bye_id == 66  # not 65, which would leave 64 and 66 a clean pair
    assert pair_swiss_round(players, exact_up_to=100).bye_id == 66  # as the exact matching says


@pytest.mark.parametrize("n", [1000, 1001])
def test_a_field_whose_bottom_70_have_all_met(n):
    players = clique(n, range(n - 70, n))
    result = pair_swiss_round(players)
    check(players, result)
    if n % 2:
        assert result.bye_id == n - 1
    bottom = set(range(n - 70, n))
    # each of the bottom 70 plays one of the players just above them
    partners = sorted(a if b in bottom else b for a, b in result.pairs if (a in bottom) != (b in bottom))
    assert len(partners) == 70 - n % 2 and min(partners) >= n - 70 - 90


def test_the_top_70_and_groups_that_have_all_met():
    for players in (clique(400, range(70)), clique(400, range(160, 230))):
        check(players, pair_swiss_round(players))
    groups = [
        SwissPlayer(id=i, seed=i, opponents=frozenset(j for j in range(i // 31 * 31, i // 31 * 31 + 31) if j != i))
        for i in range(300)
    ]
    check(groups, pair_swiss_round(groups))


@pytest.mark.parametrize(("n", "size"), [(1000, 64), (1001, 64), (600, 128)])
def test_groups_of_64_or_128_who_have_all_met_pair_without_a_rematch(n, size):
    # every block of 32 from the top has met itself: all float, the bottom is
    # re-matched on a wide tail (where the augmenting paths need blossoms)
    players = [
        SwissPlayer(
            id=i,
            seed=i,
            opponents=frozenset(j for j in range(i // size * size, min(n, i // size * size + size)) if j != i),
        )
        for i in range(n)
    ]
    result = pair_swiss_round(players)
    check(players, result)
    assert result.bye_id == (n - 1 if n % 2 else None)
    assert all(a // size != b // size for a, b in result.pairs)  # every board pairs two groups


def test_a_perfect_pairing_that_needs_an_odd_cycle_is_found():
    # 10 players and who may meet: the quick matching pairs 0-3, 1-2, 4-5,
    # 6-8, and its paths without odd cycles miss 7-8=6-5=4-9 (it reaches 4
    # from 6 first, as the wrong end of the triangle 4-5-6); Edmonds' search
    # shrinks the triangle and pairs all 10: 0-3, 1-2, 4-9, 5-6, 7-8
    pairs = [(0, 3), (1, 2), (1, 8), (2, 7), (2, 9), (3, 7), (4, 5), (4, 6), (4, 9), (5, 6), (6, 8), (7, 8)]
    assert len(matching.greedy_matching(list(range(10)), pairs)) == 4
    found = matching.perfect_matching(list(range(10)), pairs)
    assert found == [(0, 3), (1, 2), (4, 9), (5, 6), (7, 8)]
    assert matching.perfect_matching([0, 1, 2, 3], [(0, 1), (1, 2), (0, 2)]) is None  # 3 has nobody


def test_the_bye_skips_players_who_had_one_and_those_it_would_force_a_rematch():
    # 101 players: the lowest 3 had a bye, so 97 gets it
    players = clique(101, byes=(98, 99, 100))
    assert pair_swiss_round(players).bye_id == 97
    # the lowest, 100, has met everybody but 99: with 100 on the bye, 99 pairs
    # with someone else, so 100 still takes it
    players = clique(101)
    players[100] = SwissPlayer(id=100, seed=100, opponents=frozenset(range(99)))
    players = [
        SwissPlayer(id=p.id, seed=p.seed, opponents=p.opponents | ({100} if p.id < 99 else set())) for p in players
    ]
    result = pair_swiss_round(players)
    check(players, result)
    assert result.bye_id == 100


def test_block_pairing_runs(monkeypatch):
    calls = []
    solve_block = swiss._solve_block

    def spy(f, members):
        calls.append(len(members))
        return solve_block(f, members)

    monkeypatch.setattr(swiss, "_solve_block", spy)
    players = clique(200)
    result = pair_swiss_round(players)
    check(players, result)
    # blocks of 32 from the top down; the last 8 are matched as the bottom
    assert calls == [32] * 6
    assert result.pairs[:3] == [(0, 1), (3, 2), (4, 5)]
    assert [frozenset(p) for p in result.pairs] == [frozenset((2 * k, 2 * k + 1)) for k in range(100)]


def test_board_1_holds_the_top_pair_and_score_groups_go_top_down():
    players = [SwissPlayer(id=f"P{k}", points=pts, seed=k) for k, pts in enumerate([2, 4, 0, 4, 2, 6, 0, 2])]
    result = pair_swiss_round(players)
    assert set(result.pairs[0]) == {"P5", "P1"}  # 6 and the best 4
    assert [set(pair) for pair in result.pairs] == [{"P5", "P1"}, {"P3", "P0"}, {"P4", "P7"}, {"P2", "P6"}]


def test_seat_1_with_uneven_seat_histories():
    players = [
        SwissPlayer("A", 2, 1, seat1=3, seat2=1, last_seat=2),  # +2
        SwissPlayer("B", 2, 2, seat1=2, seat2=2, last_seat=1),  # even
        SwissPlayer("C", 0, 3, seat1=1, seat2=3, last_seat=1),  # -2
        SwissPlayer("D", 0, 4, seat1=2, seat2=2, last_seat=2),  # even
    ]
    result = pair_swiss_round(players)
    # B has the lower balance, so B sits first although A is ranked higher;
    # C (-2) sits first against D (even), although C sat first last time.
    assert result.pairs == [("B", "A"), ("C", "D")]


def test_points_and_seats_after_three_rounds_with_second_listed_winners():
    ids = ["A", "B", "C", "D", "E"]
    results = [
        # round 1: E has the bye; the second-listed player wins on board 2
        {"round": 1, "a": "A", "b": "B", "score_a": 120, "score_b": 80, "winner": "A"},
        {"round": 1, "a": "C", "b": "D", "score_a": 60, "score_b": 110, "winner": "D"},
        {"round": 2, "a": "E", "b": "A", "score_a": 90, "score_b": 100, "winner": "A"},
        {"round": 2, "a": "B", "b": "D", "score_a": 100, "score_b": 100, "winner": None},
        {"round": 3, "a": "A", "b": "D", "score_a": 50, "score_b": 130, "winner": "D"},
        {"round": 3, "a": "C", "b": "E", "score_a": 70, "score_b": 101, "winner": "E"},
    ]
    byes = [{"round": 1, "player": "E"}, {"round": 2, "player": "C"}, {"round": 3, "player": "B"}]
    players = {p.id: p for p in swiss_players(results, byes, players=ids)}
    assert {k: p.points for k, p in players.items()} == {"A": 4, "B": 3, "C": 2, "D": 5, "E": 4}
    assert {k: (p.seat1, p.seat2, p.last_seat) for k, p in players.items()} == {
        "A": (2, 1, 1),
        "B": (1, 1, 1),
        "C": (2, 0, 1),
        "D": (0, 3, 2),
        "E": (1, 1, 2),
    }
    assert {k: p.byes for k, p in players.items()} == {"A": 0, "B": 1, "C": 1, "D": 0, "E": 1}
    rows = {row.player_id: row for row in two_player_standings(results, byes)}
    assert rows["D"].match_points == 5 and rows["D"].rank == 1
    assert rows["C"].match_points == 2  # lost twice as the first-listed player, one bye
    # round 4: nobody gets a second bye while A and D have had none (A is the lower)
    result = pair_swiss_round(list(players.values()))
    assert result.bye_id == "A"
    assert not result.repeat_bye


def test_no_player_gets_two_byes_in_a_long_event():
    ids = [f"p{i}" for i in range(7)]
    results, byes = [], []
    for rnd in range(1, 8):
        pairing = pair_swiss_round(swiss_players(results, byes, players=ids))
        for a, b in pairing.pairs:
            # the second-listed player wins on every other board
            winner = b if len(results) % 2 else a
            results.append({"round": rnd, "a": a, "b": b, "score_a": 1, "score_b": 0, "winner": winner})
        byes.append({"round": rnd, "player": pairing.bye_id})
    got = [b["player"] for b in byes]
    assert sorted(got) == sorted(ids)  # 7 rounds, 7 players: one bye each
