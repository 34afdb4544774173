"""Hand-made events; every expected value is worked out by hand in the
comments, never copied from the code's output."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from scorekeeper.pairing.standings import (
    OH_HELL_TIEBREAKS,
    TOTAL_SCORE,
    TOTAL_SCORE_TIEBREAKS,
    TWO_PLAYER_TIEBREAKS,
    oh_hell_standings,
    table_places,
    two_player_standings,
)


def game(rnd, a, b, score_a, score_b, winner):
    return {"round": rnd, "a": a, "b": b, "score_a": score_a, "score_b": score_b, "winner": winner}


def table(rows):
    """rows -> {player: (rank, points, buchholz, score difference, head-to-head)}"""
    return {
        r.player_id: (
            r.rank,
            r.match_points,
            r.tiebreaks["buchholz"],
            r.tiebreaks["score_difference"],
            r.tiebreaks["head_to_head"],
        )
        for r in rows
    }


def test_round_robin_of_four_points_and_records():
    results = [
        game(1, "A", "B", 100, 80, "A"),
        game(1, "C", "D", 90, 90, None),
        game(2, "A", "C", 120, 60, "A"),
        game(2, "B", "D", 100, 50, "B"),
        game(3, "A", "D", 70, 70, None),
        game(3, "B", "C", 110, 100, "B"),
    ]
    rows = two_player_standings(results)
    # A: W W D = 5; B: L W W = 4; D: D L D = 2; C: D L L = 1
    # Buchholz A: B4 + C1 + D2 = 7; B: A5 + D2 + C1 = 8; D: C1 + B4 + A5 = 10; C: D2 + A5 + B4 = 11
    # difference A: +20 +60 0 = 80; B: -20 +50 +10 = 40; D: 0 -50 0 = -50; C: 0 -60 -10 = -70
    assert [r.player_id for r in rows] == ["A", "B", "D", "C"]
    assert table(rows) == {
        "A": (1, 5, 7, 80, None),
        "B": (2, 4, 8, 40, None),
        "D": (3, 2, 10, -50, None),
        "C": (4, 1, 11, -70, None),
    }
    a = rows[0]
    assert (a.wins, a.draws, a.losses, a.byes, a.games_played, a.dropped) == (2, 1, 0, 0, 3, False)
    assert tuple(a.tiebreaks) == TWO_PLAYER_TIEBREAKS


def test_buchholz_then_score_difference():
    results = [
        game(1, "A", "B", 10, 0, "A"),
        game(1, "C", "D", 10, 5, "C"),
        game(1, "E", "F", 10, 0, "E"),
        game(2, "A", "C", 10, 5, "A"),
        game(2, "B", "E", 20, 0, "B"),
        game(2, "D", "F", 10, 5, "D"),
    ]
    rows = two_player_standings(results)
    # points: A 4; B, C, D, E 2; F 0
    # Buchholz: B = A4 + E2 = 6, C = D2 + A4 = 6, D = C2 + F0 = 2, E = F0 + B2 = 2
    #   -> B and C above D and E
    # difference: B -10 +20 = 10 over C +5 -5 = 0; D -5 +5 = 0 over E +10 -20 = -10
    # A: Buchholz B2 + C2 = 4, difference +10 +5; F: E2 + D2 = 4, -10 -5
    assert table(rows) == {
        "A": (1, 4, 4, 15, None),
        "B": (2, 2, 6, 10, None),
        "C": (3, 2, 6, 0, None),
        "D": (4, 2, 2, 0, None),
        "E": (5, 2, 2, -10, None),
        "F": (6, 0, 4, -15, None),
    }
    assert [r.player_id for r in rows] == ["A", "B", "C", "D", "E", "F"]


def test_head_to_head_between_two_tied_players():
    results = [
        game(1, "A", "B", 10, 5, "A"),
        game(1, "C", "D", 20, 0, "C"),
        game(2, "B", "C", 10, 5, "B"),
        game(2, "D", "A", 10, 5, "D"),
    ]
    rows = two_player_standings(results)
    # all on 2 points, Buchholz 2 + 2 = 4 each
    # difference: A +5 -5 = 0, B -5 +5 = 0, C +20 -5 = 15, D -20 +5 = -15
    # A and B tie on everything before head-to-head; A beat B: 2 to 0
    assert table(rows) == {
        "C": (1, 2, 4, 15, None),
        "A": (2, 2, 4, 0, 2),
        "B": (3, 2, 4, 0, 0),
        "D": (4, 2, 4, -15, None),
    }


def test_head_to_head_needs_everybody_to_have_met():
    results = [
        game(1, "A", "B", 10, 5, "A"),
        game(1, "C", "D", 10, 5, "C"),
        game(2, "D", "A", 10, 5, "D"),
        game(2, "B", "C", 10, 5, "B"),
    ]
    rows = two_player_standings(results)
    # all: 2 points, Buchholz 4, difference 0; A never met C, B never met D:
    # no head-to-head, so all four share first place
    assert {r.player_id: (r.rank, r.tiebreaks["head_to_head"]) for r in rows} == dict.fromkeys("ABCD", (1, None))
    # ties keep the order in which players first appear
    assert [r.player_id for r in rows] == ["A", "B", "C", "D"]


def test_shared_ranks_skip_the_next_rank():
    results = [
        game(1, "A", "B", 10, 5, "A"),
        game(1, "C", "D", 10, 5, "C"),
        game(2, "A", "C", 10, 5, "A"),
        game(2, "B", "D", 10, 5, "B"),
    ]
    rows = two_player_standings(results, players=["D", "C", "B", "A"])
    # A 4; B and C 2 with Buchholz A4 + D0 = 4, difference -5 +5 = 0, never met; D 0
    assert [(r.rank, r.player_id) for r in rows] == [(1, "A"), (2, "C"), (2, "B"), (4, "D")]


def test_three_way_cycle_shares_the_rank():
    results = [
        game(1, "A", "B", 10, 5, "A"),
        game(2, "B", "C", 10, 5, "B"),
        game(3, "C", "A", 10, 5, "C"),
    ]
    byes = [{"round": 1, "player": "C"}, {"round": 2, "player": "A"}, {"round": 3, "player": "B"}]
    rows = two_player_standings(results, byes)
    # each: win 2 + bye 2 = 4; Buchholz 4 + 4 = 8 (the bye adds nothing); difference +5 -5 = 0
    # all met: mini-table 2 each, still tied -> all first
    assert table(rows) == dict.fromkeys("ABC", (1, 4, 8, 0, 2))
    assert all((r.wins, r.losses, r.byes, r.games_played) == (1, 1, 1, 2) for r in rows)


def test_a_drop_and_a_bye():
    results = [
        game(1, "A", "B", 10, 0, "A"),
        game(1, "D", "C", 10, 0, "D"),
        game(2, "E", "A", 10, 5, "E"),
        game(2, "C", "B", 10, 5, "C"),
    ]
    byes = [{"round": 1, "player": "E"}]
    drops = [{"player": "D", "round": 1}]
    rows = two_player_standings(results, byes, drops)
    # points: E bye 2 + win 2 = 4; A 2; C 2; D 2 (dropped after round 1); B 0
    # Buchholz: E = A2 (the bye adds 0) = 2; A = B0 + E4 = 4; C = D2 + B0 = 2 (keeps D's points);
    #           D = C2 = 2; B = A2 + C2 = 4
    # difference: E +5 (bye 0); A +10 -5 = 5; C -10 +5 = -5; D +10; B -10 -5 = -15
    # A, C, D on 2: A first on Buchholz; C and D on difference, D ahead
    assert table(rows) == {
        "E": (1, 4, 2, 5, None),
        "A": (2, 2, 4, 5, None),
        "D": (3, 2, 2, 10, None),
        "C": (4, 2, 2, -5, None),
        "B": (5, 0, 4, -15, None),
    }
    by_id = {r.player_id: r for r in rows}
    assert by_id["D"].dropped and not any(r.dropped for r in rows if r.player_id != "D")
    assert (by_id["D"].games_played, by_id["D"].wins) == (1, 1)
    e = by_id["E"]
    assert (e.wins, e.draws, e.losses, e.byes, e.games_played) == (1, 0, 0, 1, 1)


def test_registered_player_without_games_and_drop_as_plain_id():
    rows = two_player_standings([game(1, "A", "B", 1, 0, "A")], drops=["B"], players=["A", "B", "Z"])
    # Z has played nothing: 0 points, Buchholz 0. B also has 0 points, but
    # Buchholz 2 (A's points), so B is second and Z third
    assert [(r.rank, r.player_id, r.match_points, r.tiebreaks["buchholz"]) for r in rows] == [
        (1, "A", 2, 0),
        (2, "B", 0, 2),
        (3, "Z", 0, 0),
    ]
    assert rows[1].dropped and rows[2].games_played == 0


def test_two_player_input_errors():
    with pytest.raises(ValueError, match="Round 1: player 'A' appears more than once"):
        two_player_standings([game(1, "A", "B", 0, 0, "A"), game(1, "C", "A", 0, 0, "C")])
    with pytest.raises(ValueError, match="appears more than once"):
        two_player_standings([game(1, "A", "B", 0, 0, "A")], byes=[{"round": 1, "player": "B"}])
    with pytest.raises(ValueError, match="did not play"):
        two_player_standings([game(1, "A", "B", 0, 0, "C")])
    with pytest.raises(ValueError, match="themselves"):
        two_player_standings([game(1, "A", "A", 0, 0, None)])
    with pytest.raises(ValueError, match='needs "winner"'):
        two_player_standings([{"round": 1, "a": "A", "b": "B"}])


def unplayed(rnd, a, b):
    return {"round": rnd, "a": a, "b": b, "played": False}


def test_a_two_player_table_not_played_is_no_game():
    results = [
        game(1, "A", "B", 10, 5, "A"),
        unplayed(1, "C", "D"),
        game(2, "A", "C", 10, 5, "A"),
        game(2, "B", "D", 10, 0, "B"),
    ]
    rows = two_player_standings(results)
    # A W W = 4; B L W = 2; C and D: nothing in round 1 (a draw would have given 1 each), C L, D L
    # Buchholz A: B2 + C0 = 2; B: A4 + D0 = 4; C: A4 = 4; D: B2 = 2 (C and D never met)
    # difference A +5 +5 = 10; B -5 +10 = 5; C -5; D -10
    assert table(rows) == {
        "A": (1, 4, 2, 10, None),
        "B": (2, 2, 4, 5, None),
        "C": (3, 0, 4, -5, None),
        "D": (4, 0, 2, -10, None),
    }
    records = {r.player_id: (r.wins, r.draws, r.losses, r.games_played) for r in rows}
    assert records == {"A": (2, 0, 0, 2), "B": (1, 0, 1, 2), "C": (0, 0, 1, 1), "D": (0, 0, 1, 1)}


def test_a_table_not_played_is_not_a_meeting_for_head_to_head():
    rows = two_player_standings([unplayed(1, "A", "B")])
    # no game: 0 points, no draw, no games; tied on everything, and they have
    # not met, so there is no head-to-head (a draw would have made it 1 each)
    assert table(rows) == {"A": (1, 0, 0, 0, None), "B": (1, 0, 0, 0, None)}
    assert all((r.draws, r.games_played) == (0, 0) for r in rows)


def test_a_table_not_played_has_no_winner_and_still_seats_its_players():
    with pytest.raises(ValueError, match="a game not played has no winner"):
        two_player_standings([{**unplayed(1, "A", "B"), "winner": "A"}])
    with pytest.raises(ValueError, match="appears more than once"):
        two_player_standings([unplayed(1, "A", "B")], byes=[{"round": 1, "player": "A"}])
    with pytest.raises(ValueError, match='"played" must be true or false'):
        two_player_standings([{**game(1, "A", "B", 1, 0, "A"), "played": 0}])


# ------------------------------------------------------------------ Oh Hell


def oh(rnd, tbl, players, totals):
    return {"round": rnd, "table": tbl, "players": players, "totals": totals}


def not_played(rnd, tbl, players):
    return {"round": rnd, "table": tbl, "players": players, "played": False}


def test_placement_points_go_from_2_to_0_at_every_size():
    # 2 * (k - p) / (k - 1), place by place
    # k = 3: 2*2/2, 2*1/2, 0
    assert [pts for pts, _place in table_places([30, 20, 10])] == [2, 1, 0]
    # k = 4: 2*3/3, 2*2/3, 2*1/3, 0
    assert [pts for pts, _place in table_places([40, 30, 20, 10])] == [2, F(4, 3), F(2, 3), 0]
    # k = 5: 2*4/4, 2*3/4, 2*2/4, 2*1/4, 0
    assert [pts for pts, _place in table_places([50, 40, 30, 20, 10])] == [2, F(3, 2), 1, F(1, 2), 0]
    # k = 7: 2*6/6, 2*5/6, 2*4/6, 2*3/6, 2*2/6, 2*1/6, 0
    assert [pts for pts, _place in table_places([7, 6, 5, 4, 3, 2, 1])] == [
        2,
        F(5, 3),
        F(4, 3),
        1,
        F(2, 3),
        F(1, 3),
        0,
    ]
    # the seats need not be in order of totals
    assert table_places([20, 40, 30]) == [(0, 3), (2, 1), (1, 2)]


def test_tied_totals_share_the_places_they_cover():
    # two tied first at four share places 1 and 2: (2 + 4/3) / 2 = 5/3, place 3/2
    assert table_places([50, 50, 30, 10]) == [(F(5, 3), F(3, 2)), (F(5, 3), F(3, 2)), (F(2, 3), 3), (0, 4)]
    # three tied first at four: (2 + 4/3 + 2/3) / 3 = 4/3, place 2
    assert table_places([40, 40, 0, 40]) == [(F(4, 3), 2), (F(4, 3), 2), (0, 4), (F(4, 3), 2)]
    # everybody tied at three: (2 + 1 + 0) / 3 = 1, place 2
    assert table_places([5, 5, 5]) == [(1, 2), (1, 2), (1, 2)]
    # two tied last at five: (1/2 + 0) / 2 = 1/4, place 9/2
    assert table_places([9, 7, 5, 3, 3])[3:] == [(F(1, 4), F(9, 2)), (F(1, 4), F(9, 2))]
    # two tied second at seven: (5/3 + 4/3) / 2 = 3/2, place 5/2
    assert table_places([70, 60, 60, 40, 30, 20, 10])[1:3] == [(F(3, 2), F(5, 2))] * 2


def test_oh_hell_standings():
    results = [
        oh(1, 1, ["A", "B", "C", "D"], [50, 50, 30, 10]),
        oh(1, 2, ["E", "F", "G"], [20, 40, 30]),
        oh(2, 1, ["A", "E", "F"], [10, 30, 20]),
        oh(2, 2, ["B", "C", "D", "G"], [40, 40, 40, 0]),
    ]
    rows = oh_hell_standings(results, drops=[{"player": "D", "round": 2}])
    # round 1, table of 4: A and B share places 1-2, (2 + 4/3) / 2 = 5/3 (place 3/2); C 2/3 (3); D 0 (4)
    # round 1, table of 3: F 2 (1), G 1 (2), E 0 (3)
    # round 2, table of 3: E 2 (1), F 1 (2), A 0 (3)
    # round 2, table of 4: B, C, D share places 1-3, (2 + 4/3 + 2/3) / 3 = 4/3 (place 2); G 0 (4)
    # A 5/3 + 0   = 5/3, score 60, places 3/2 3 -> 9/4
    # B 5/3 + 4/3 = 3,   score 90, places 3/2 2 -> 7/4
    # C 2/3 + 4/3 = 2,   score 70, places 3 2   -> 5/2
    # D 0 + 4/3   = 4/3, score 50, places 4 2   -> 3
    # E 0 + 2     = 2,   score 50, places 3 1   -> 2
    # F 2 + 1     = 3,   score 60, places 1 2   -> 3/2
    # G 1 + 0     = 1,   score 30, places 2 4   -> 3
    # B and F tie on 3 points: B has the higher total score;
    # C and E on exactly 2 (2/3 + 4/3 is 2, no rounding): C has the higher total score
    got = [
        (r.rank, r.player_id, r.match_points, r.tiebreaks["total_score"], r.tiebreaks["average_place"]) for r in rows
    ]
    assert got == [
        (1, "B", 3, 90, F(7, 4)),
        (2, "F", 3, 60, F(3, 2)),
        (3, "C", 2, 70, F(5, 2)),
        (4, "E", 2, 50, 2),
        (5, "A", F(5, 3), 60, F(9, 4)),
        (6, "D", F(4, 3), 50, 3),
        (7, "G", 1, 30, 3),
    ]
    assert all(isinstance(r.match_points, F) for r in rows)  # exact, never a float
    assert [r.player_id for r in rows if r.dropped] == ["D"]
    assert all(r.games_played == 2 for r in rows)
    assert tuple(rows[0].tiebreaks) == OH_HELL_TIEBREAKS


# The README's worked example: round 1 seats seven players at a table of 3
# and a table of 4; in round 2 one table plays and one ends before its first hand.
ROUND_1 = [
    oh(1, 1, ["Ann", "Bob", "Cat"], [60, 40, 20]),
    oh(1, 2, ["Dan", "Eve", "Fay", "Gus"], [90, 70, 50, 30]),
]
ROUND_2 = [
    oh(2, 1, ["Bob", "Cat", "Eve", "Fay"], [10, 40, 30, 20]),
    not_played(2, 2, ["Ann", "Dan", "Gus"]),
]


def test_the_winners_of_a_table_of_3_and_of_a_table_of_4_both_get_2():
    rows = oh_hell_standings(ROUND_1)
    # table of 3: Ann 2, Bob 1, Cat 0; table of 4: Dan 2, Eve 4/3, Fay 2/3, Gus 0
    # Dan and Ann on 2: Dan's 90 beats Ann's 60; Cat and Gus on 0: Gus's 30 beats Cat's 20
    assert [(r.rank, r.player_id, r.match_points) for r in rows] == [
        (1, "Dan", 2),
        (2, "Ann", 2),
        (3, "Eve", F(4, 3)),
        (4, "Bob", 1),
        (5, "Fay", F(2, 3)),
        (6, "Gus", 0),
        (7, "Cat", 0),
    ]


def test_a_table_not_played_counts_for_nobody_at_it():
    rows = oh_hell_standings(ROUND_1 + ROUND_2)
    # round 2, table of 4: Cat 2 (place 1), Eve 4/3 (2), Fay 2/3 (3), Bob 0 (4)
    # Ann, Dan and Gus: nothing (equal totals of 0 would have given them 1 each)
    # Eve 4/3 + 4/3 = 8/3, 100, places 2 2 -> 2
    # Dan 2, 90, place 1; Ann 2, 60, place 1; Cat 0 + 2 = 2, 60, places 3 1 -> 2
    # Fay 2/3 + 2/3 = 4/3, 70, places 3 3 -> 3; Bob 1 + 0 = 1, 50, places 2 4 -> 3; Gus 0, 30, place 4
    # Ann and Cat tie on 2 and 60: Ann's average place 1 beats Cat's 2
    got = [(r.rank, r.player_id, r.match_points, r.tiebreaks["average_place"], r.games_played) for r in rows]
    assert got == [
        (1, "Eve", F(8, 3), 2, 2),
        (2, "Dan", 2, 1, 1),
        (3, "Ann", 2, 1, 1),
        (4, "Cat", 2, 2, 2),
        (5, "Fay", F(4, 3), 3, 2),
        (6, "Bob", 1, 3, 2),
        (7, "Gus", 0, 4, 1),
    ]
    by_id = {r.player_id: r for r in rows}
    assert by_id["Dan"].tiebreaks["total_score"] == 90  # nothing added by the table not played


def test_a_player_whose_only_table_was_not_played_has_no_game_and_no_place():
    rows = oh_hell_standings([oh(1, 1, ["A", "B", "C"], [3, 2, 1]), not_played(1, 2, ["D", "E", "F"])])
    by_id = {r.player_id: r for r in rows}
    for pid in "DEF":
        assert (by_id[pid].match_points, by_id[pid].games_played, by_id[pid].tiebreaks) == (
            0,
            0,
            {"total_score": 0, "average_place": None},
        )
    # C (0 points, 1 score, place 3) is above them: nobody gains from a table not played
    assert [(r.rank, r.player_id) for r in rows] == [(1, "A"), (2, "B"), (3, "C"), (4, "D"), (4, "E"), (4, "F")]


def test_ranked_by_total_score_then_average_place():
    rows = oh_hell_standings(ROUND_1 + ROUND_2, points=TOTAL_SCORE)
    # scores: Eve 70 + 30 = 100, Dan 90, Fay 50 + 20 = 70, Ann 60 (place 1), Cat 20 + 40 = 60 (places 3 1: 2),
    # Bob 40 + 10 = 50, Gus 30; Ann above Cat on average place
    assert [(r.rank, r.player_id, r.match_points, r.tiebreaks) for r in rows] == [
        (1, "Eve", 100, {"average_place": 2}),
        (2, "Dan", 90, {"average_place": 1}),
        (3, "Fay", 70, {"average_place": 3}),
        (4, "Ann", 60, {"average_place": 1}),
        (5, "Cat", 60, {"average_place": 2}),
        (6, "Bob", 50, {"average_place": 3}),
        (7, "Gus", 30, {"average_place": 4}),
    ]
    assert tuple(rows[0].tiebreaks) == TOTAL_SCORE_TIEBREAKS
    assert [r.games_played for r in rows] == [2, 1, 2, 1, 2, 2, 1]


def test_total_score_ties_on_everything_share_the_rank():
    rows = oh_hell_standings([oh(1, 1, ["A", "B", "C"], [10, 10, 5])], players=["B", "A", "C", "Z"], points=TOTAL_SCORE)
    # A and B: 10, place 3/2; C 5, place 3; Z no table (last, no average place)
    assert [(r.rank, r.player_id, r.match_points, r.tiebreaks["average_place"]) for r in rows] == [
        (1, "B", 10, F(3, 2)),
        (1, "A", 10, F(3, 2)),
        (3, "C", 5, 3),
        (4, "Z", 0, None),
    ]


def test_oh_hell_full_tie_shares_the_rank():
    rows = oh_hell_standings([oh(1, 1, ["A", "B", "C"], [10, 10, 5])], players=["B", "A", "C", "Z"])
    # A and B: (2 + 1) / 2 = 3/2 points, 10, place 3/2; C 0, place 3; Z no table
    assert [(r.rank, r.player_id, r.match_points, r.tiebreaks["average_place"]) for r in rows] == [
        (1, "B", F(3, 2), F(3, 2)),
        (1, "A", F(3, 2), F(3, 2)),
        (3, "C", 0, 3),
        (4, "Z", 0, None),
    ]


def test_oh_hell_input_errors():
    with pytest.raises(ValueError, match="3 players but 2 totals"):
        oh_hell_standings([oh(1, 1, ["A", "B", "C"], [1, 2])])
    with pytest.raises(ValueError, match="Round 1: player 'A' appears more than once"):
        oh_hell_standings([oh(1, 1, ["A", "B", "C"], [1, 2, 3]), oh(1, 2, ["A", "D", "E"], [1, 2, 3])])
    # a table not played still seats its players that round
    with pytest.raises(ValueError, match="Round 1: player 'A' appears more than once"):
        oh_hell_standings([oh(1, 1, ["A", "B", "C"], [1, 2, 3]), not_played(1, 2, ["A", "D", "E"])])
    with pytest.raises(ValueError, match='"played" must be true or false'):
        oh_hell_standings([{**oh(1, 1, ["A", "B", "C"], [1, 2, 3]), "played": "no"}])
    with pytest.raises(ValueError, match="points must be one of"):
        oh_hell_standings([], points="wins")
