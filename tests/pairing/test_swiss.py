from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.pairing.swiss import SwissPlayer, pair_swiss_round, swiss_players

BYE = "BYE"


def all_pairings(items):
    """Every perfect matching of ``items`` (brute force, small N only)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for tail in all_pairings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def brute_force_costs(players, met, had_bye):
    """The documented order of priorities, worked out independently of the
    code: (rematches, second bye, bye distance from the bottom, sum of squared
    point differences, sum of squared rank differences) for every pairing."""
    ranked = sorted(players, key=lambda p: (-p.points, p.seed))
    pos = {p.id: k for k, p in enumerate(ranked)}
    points = {p.id: p.points for p in players}
    ids = [p.id for p in ranked] + ([BYE] if len(players) % 2 else [])
    out = []
    for pairing in all_pairings(ids):
        rematches = repeat = bye_rank = score = rank = 0
        for a, b in pairing:
            if BYE in (a, b):
                got = b if a == BYE else a
                repeat = int(had_bye[got])
                bye_rank = len(players) - 1 - pos[got]
                continue
            rematches += frozenset((a, b)) in met
            score += (points[a] - points[b]) ** 2
            rank += (pos[a] - pos[b]) ** 2
        out.append((rematches, repeat, bye_rank, score, rank))
    return out


def result_cost(result, players, met, had_bye):
    ranked = sorted(players, key=lambda p: (-p.points, p.seed))
    pos = {p.id: k for k, p in enumerate(ranked)}
    points = {p.id: p.points for p in players}
    rematches = sum(frozenset(pair) in met for pair in result.pairs)
    repeat = int(result.bye_id is not None and had_bye[result.bye_id])
    bye_rank = len(players) - 1 - pos[result.bye_id] if result.bye_id is not None else 0
    score = sum((points[a] - points[b]) ** 2 for a, b in result.pairs)
    rank = sum((pos[a] - pos[b]) ** 2 for a, b in result.pairs)
    return (rematches, repeat, bye_rank, score, rank)


def check_round(result, players):
    """Everyone exactly once: on a board or as the bye."""
    seen = [p for pair in result.pairs for p in pair] + ([result.bye_id] if result.bye_id is not None else [])
    assert sorted(map(str, seen)) == sorted(str(p.id) for p in players)
    assert len(seen) == len(set(seen))
    assert (result.bye_id is not None) == (len(players) % 2 == 1)


@st.composite
def small_fields(draw):
    n = draw(st.integers(1, 8))
    seeds = draw(st.permutations(range(n)))
    points = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    had_bye = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    density = draw(st.sampled_from([0.2, 0.5, 0.8]))
    rng = random.Random(draw(st.integers(0, 10**6)))
    met = {frozenset(pair) for pair in combinations(range(n), 2) if rng.random() < density}
    # some meetings come through the players, some through ``history``
    via_history = [tuple(pair) for pair in met if rng.random() < 0.5]
    opponents = {i: set() for i in range(n)}
    for pair in met:
        if tuple(pair) not in via_history:
            a, b = tuple(pair)
            opponents[a].add(b)
            opponents[b].add(a)
    players = [
        SwissPlayer(id=i, points=points[i], seed=seeds[i], opponents=frozenset(opponents[i]), byes=int(had_bye[i]))
        for i in range(n)
    ]
    return players, met, dict(enumerate(had_bye)), via_history


@settings(max_examples=150, deadline=None)
@given(small_fields())
def test_exact_pairing_matches_brute_force(field):
    players, met, had_bye, history = field
    result = pair_swiss_round(players, history)
    check_round(result, players)
    costs = brute_force_costs(players, met, had_bye)
    got = result_cost(result, players, met, had_bye)
    assert got == min(costs)
    # in particular: no rematch while a rematch-free pairing exists
    if any(c[0] == 0 for c in costs):
        assert result.rematches == []
    assert len(result.rematches) == got[0]
    assert result.repeat_bye == bool(got[1])


@settings(max_examples=80, deadline=None)
@given(small_fields())
def test_block_pairing_keeps_the_hard_rules(field):
    # force the big-field path (blocks of 4) on small fields
    players, met, had_bye, history = field
    result = pair_swiss_round(players, history, exact_up_to=2, block_size=4)
    check_round(result, players)
    best = min(c[:2] for c in brute_force_costs(players, met, had_bye))
    assert result_cost(result, players, met, had_bye)[:2] == best


def simulate(n, rounds, seed, **kwargs):
    """Pair and play ``rounds`` rounds with random results; yield each round's
    players and pairing."""
    rng = random.Random(seed)
    ids = [f"p{i:03d}" for i in range(n)]
    results, byes = [], []
    for rnd in range(1, rounds + 1):
        players = swiss_players(results, byes, players=ids)
        pairing = pair_swiss_round(players, **kwargs)
        yield players, pairing
        for a, b in pairing.pairs:
            winner = rng.choice([a, b, a, b, None])
            results.append({"round": rnd, "a": a, "b": b, "score_a": 0, "score_b": 0, "winner": winner})
        if pairing.bye_id is not None:
            byes.append({"round": rnd, "player": pairing.bye_id})


@pytest.mark.parametrize("n", [7, 9])
@pytest.mark.parametrize("seed", [1, 2])
def test_byes_go_to_distinct_players_while_possible(n, seed):
    given_byes = []
    for players, pairing in simulate(n, n, seed):
        check_round(pairing, players)
        met = {frozenset((p.id, o)) for p in players for o in p.opponents}
        had_bye = {p.id: p.byes > 0 for p in players}
        costs = brute_force_costs(players, met, had_bye)
        if any(c[:2] == (0, 0) for c in costs):
            assert pairing.rematches == []
            assert pairing.bye_id not in given_byes
        given_byes.append(pairing.bye_id)
    assert len(set(given_byes[:3])) == 3


def test_big_field_rounds_are_complete_and_rematch_free():
    for players, pairing in simulate(151, 5, seed=3):
        check_round(pairing, players)
        assert pairing.rematches == [] and not pairing.repeat_bye
        # boards: top score group first
        points = {p.id: p.points for p in players}
        tops = [max(points[a], points[b]) for a, b in pairing.pairs]
        assert tops == sorted(tops, reverse=True)
        # the bye: lowest-ranked player (points, then seed) without one
        fresh = [p for p in players if p.byes == 0]
        lowest = max(fresh, key=lambda p: (-p.points, p.seed))
        assert pairing.bye_id == lowest.id


def sp(pid, points=0, seed=0, opponents=(), **kw):
    return SwissPlayer(id=pid, points=points, seed=seed, opponents=frozenset(opponents), **kw)


def as_sets(pairing):
    return [frozenset(pair) for pair in pairing.pairs]


def test_pairs_within_score_groups_top_first():
    players = [sp(f"P{k}", points, seed=k) for k, points in enumerate([4, 4, 4, 2, 2, 2, 0, 0], start=1)]
    # shuffle the input: the order of the list must not matter
    result = pair_swiss_round(players[::-1])
    # odd top group: its lowest-ranked player P3 plays the top of the next group
    assert as_sets(result) == [{"P1", "P2"}, {"P3", "P4"}, {"P5", "P6"}, {"P7", "P8"}]
    assert result.bye_id is None


def test_rematch_moves_the_top_pairing_down_one():
    players = [sp(f"P{k}", points, seed=k) for k, points in enumerate([4, 4, 4, 2, 2, 2, 0, 0], start=1)]
    players[0] = sp("P1", 4, seed=1, opponents={"P2"})
    # P1-P3 and P2-P4 (rank cost 4 + 4) beat P2-P3 and P1-P4 (1 + 9)
    result = pair_swiss_round(players)
    assert as_sets(result) == [{"P1", "P3"}, {"P2", "P4"}, {"P5", "P6"}, {"P7", "P8"}]
    # the meeting can also come from ``history``
    players[0] = sp("P1", 4, seed=1)
    assert as_sets(pair_swiss_round(players, [("P2", "P1")])) == as_sets(result)


def test_bye_goes_to_the_lowest_ranked_player_without_one():
    players = [sp("P1", 4, 1), sp("P2", 2, 2), sp("P3", 2, 3), sp("P4", 0, 4), sp("P5", 0, 5, byes=1)]
    result = pair_swiss_round(players)
    assert result.bye_id == "P4"
    assert as_sets(result) == [{"P1", "P2"}, {"P3", "P5"}]
    assert not result.repeat_bye
    # a bye recorded in ``history`` counts too
    players[4] = sp("P5", 0, 5)
    assert pair_swiss_round(players, [("P5", None)]).bye_id == "P4"
    assert pair_swiss_round(players).bye_id == "P5"


def test_seats_follow_balance_then_the_last_seat_then_the_board():
    players = [
        sp("A", 2, 1, seat1=1, seat2=0, last_seat=1),
        sp("B", 2, 2, seat1=0, seat2=1, last_seat=2),
        sp("C", 0, 3, seat1=1, seat2=1, last_seat=1),
        sp("D", 0, 4, seat1=1, seat2=1, last_seat=2),
        sp("E", -2, 5),
        sp("F", -2, 6),
        sp("G", -4, 7),
        sp("H", -4, 8),
    ]
    result = pair_swiss_round(players)
    # A sat first more often: B takes seat 1. C and D are even, C sat first
    # last time. E-F (board 3) and G-H (board 4) have no history: the
    # higher-ranked player sits first on odd boards, second on even ones.
    assert result.pairs == [("B", "A"), ("D", "C"), ("E", "F"), ("H", "G")]


def test_seats_alternate_round_by_round():
    seats: dict = {}
    for players, pairing in simulate(10, 5, seed=7):
        by_id = {p.id: p for p in players}
        for a, b in pairing.pairs:
            seats.setdefault(a, []).append(1)
            seats.setdefault(b, []).append(2)
            first, second = by_id[a], by_id[b]
            # never the one who sat first more often; on a tie, alternate
            assert first.seat1 - first.seat2 <= second.seat1 - second.seat2
            if first.seat1 - first.seat2 == second.seat1 - second.seat2 and first.last_seat != second.last_seat:
                assert first.last_seat != 1 and second.last_seat != 2


def test_seats_alternate_on_a_hand_made_event():
    ids = ["p1", "p2", "p3", "p4"]
    first = pair_swiss_round(swiss_players([], players=ids))
    # board 1: the higher-ranked player sits first; board 2: second
    assert first.pairs == [("p1", "p2"), ("p4", "p3")]
    results = [
        {"round": 1, "a": "p1", "b": "p2", "winner": "p1"},
        {"round": 1, "a": "p4", "b": "p3", "winner": "p3"},
    ]
    second = pair_swiss_round(swiss_players(results, players=ids))
    # winners p1 (sat first) and p3 (sat second), losers p2 (second) and p4 (first)
    assert second.pairs == [("p3", "p1"), ("p2", "p4")]


def test_swiss_players_from_results():
    results = [
        {"round": 1, "a": "A", "b": "B", "score_a": 5, "score_b": 3, "winner": "A"},
        {"round": 1, "a": "C", "b": "D", "score_a": 4, "score_b": 4, "winner": None},
        {"round": 2, "a": "B", "b": "C", "score_a": 1, "score_b": 2, "winner": "C"},
    ]
    players = swiss_players(
        results,
        byes=[{"round": 2, "player": "E"}, {"round": 1, "player": "E"}],
        drops=[{"player": "D", "round": 1}],
        seeds={"C": 0.5},
        players=["A", "B", "C", "D", "E"],
    )
    by_id = {p.id: p for p in players}
    assert set(by_id) == {"A", "B", "C", "E"}  # D dropped
    assert by_id["A"] == SwissPlayer("A", 2, 0, frozenset({"B"}), 0, 1, 0, 1)
    assert by_id["B"] == SwissPlayer("B", 0, 1, frozenset({"A", "C"}), 0, 1, 1, 1)
    assert by_id["C"] == SwissPlayer("C", 3, 0.5, frozenset({"D", "B"}), 0, 1, 1, 2)
    assert by_id["E"] == SwissPlayer("E", 4, 4, frozenset(), 2, 0, 0, None)


def test_tiny_and_bad_fields():
    assert pair_swiss_round([]).pairs == []
    alone = pair_swiss_round([sp("A")])
    assert alone.pairs == [] and alone.bye_id == "A"
    with pytest.raises(ValueError, match="once"):
        pair_swiss_round([sp("A"), sp("A")])


def test_a_table_not_played_is_no_game_and_its_two_may_be_paired_again():
    """As FIDE treats a double forfeit: no points, no seat, and no meeting."""
    ids = ["A", "B", "C", "D"]
    results = [{"round": 1, "a": "A", "b": "B", "played": False}, {"round": 1, "a": "C", "b": "D", "played": False}]
    players = swiss_players(results, players=ids)
    assert [(p.points, p.opponents, p.seat1, p.seat2, p.last_seat) for p in players] == [
        (0, frozenset(), 0, 0, None)
    ] * 4
    pairing = pair_swiss_round(players)
    # all on 0 in seed order: A-B and C-D again, and that is no rematch
    assert set(map(frozenset, pairing.pairs)) == {frozenset("AB"), frozenset("CD")}
    assert pairing.rematches == []
    # had they been draws, A and B would have met: A would play C or D
    drawn = [{"round": 1, "a": a, "b": b, "winner": None} for a, b in (("A", "B"), ("C", "D"))]
    assert [p.points for p in swiss_players(drawn, players=ids)] == [1, 1, 1, 1]
    assert frozenset("AB") not in set(map(frozenset, pair_swiss_round(swiss_players(drawn, players=ids)).pairs))


def test_two_players_whose_table_was_not_played_meet_without_a_rematch():
    players = swiss_players([{"round": 1, "a": "A", "b": "B", "played": False}], players=["A", "B"])
    pairing = pair_swiss_round(players)
    assert set(pairing.pairs[0]) == {"A", "B"} and pairing.rematches == []
