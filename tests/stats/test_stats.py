"""A player's figures from hands worked out by hand (the numbers are
written here, not computed by the code under test)."""

import re

import pytest

from scorekeeper.stats import Played, places, player_stats


def played(game, hands, *, players=("Ann", "Bob"), finished=False, winners=(), totals=(), options=None, id=1, when=0):
    return Played(
        id=id,
        match={"game": game, "players": list(players), "options": options or {}, "hands": hands},
        seat_keys=tuple(p.lower() for p in players),
        finished=finished,
        winners=tuple(winners),
        totals=tuple(totals),
        when=when,
    )


SPADES = [
    {"bids": [4, 5], "tricks": [6, 7]},  # Ann 40 + 2 bags; Bob 50 + 2 bags
    {"bids": [0, 6], "tricks": [0, 13]},  # Ann Nil made +100; Bob 60 + 7 bags (9 in all)
    {"bids": ["blind_nil", 3], "tricks": [2, 11]},  # Ann Blind Nil failed -200; Bob 30 + 8 bags: 17 -> -100, 7 left
    {"bids": [5, 4], "tricks": [3, 10]},  # Ann set -50; Bob 40 + 6 bags: 13 -> -100, 3 left
]


def test_spades_figures():
    stats = player_stats("ann", [played("spades", SPADES)]).games["spades"]
    assert (stats.hands, stats.points, stats.best_hand) == (4, 42 + 100 - 200 - 50, 100)
    assert stats.points_per_hand == -27.0
    assert (stats.bids, stats.exact, stats.set) == (2, 0, 1)
    assert stats.nil == [1, 1] and stats.blind_nil == [1, 0]
    assert (stats.bags, stats.bag_penalties, stats.bags_per_hand) == (2, 0, 0.5)
    bob = player_stats("bob", [played("spades", SPADES)]).games["spades"]
    assert (bob.points, bob.bids, bob.exact, bob.set) == (52 + 67 - 62 - 54, 4, 0, 0)
    assert (bob.bags, bob.bag_penalties, bob.bags_per_hand) == (23, 2, 5.75)


def test_spades_failed_nil_bags_count_when_the_option_says_so():
    hands = [{"bids": [0, 5], "tricks": [2, 11]}]  # Ann's failed Nil: 2 tricks, 2 bags with the option
    off = player_stats("ann", [played("spades", hands)]).games["spades"]
    on = player_stats("ann", [played("spades", hands, options={"failed_nil_bags": True})]).games["spades"]
    assert (off.bags, on.bags) == (0, 2)
    assert (off.points, on.points) == (-100, -98)


def test_spades_exact_and_by_bid():
    hands = [{"bids": [3, 4], "tricks": [3, 10]}, {"bids": [3, 4], "tricks": [4, 9]}]
    stats = player_stats("ann", [played("spades", hands)]).games["spades"]
    assert (stats.exact, stats.bids, stats.exact_rate) == (1, 2, 0.5)
    assert stats.exact_by_bid() == [(3, 1, 2, 0.5)]


OH_HELL = [
    {"bids": [0, 1, 0], "tricks": [0, 1, 0]},  # 1 card: all made: 10, 11, 10
    {"bids": [1, 0, 0], "tricks": [1, 1, 0]},  # 2 cards: Ann 11, Bob missed 0, Cy 10
    {"bids": [2, 0, 2], "tricks": [1, 0, 2]},  # 3 cards: Ann missed 0, Bob 10, Cy 12
]


def test_oh_hell_figures_with_a_shared_place():
    match = played("ohhell", OH_HELL, players=("Ann", "Bob", "Cy"), finished=True, winners=(2,), totals=(21, 21, 32))
    ann = player_stats("ann", [match])
    g = ann.games["ohhell"]
    assert (g.bids, g.exact) == (3, 2)
    assert g.exact_by_bid() == [(0, 1, 1, 1.0), (1, 1, 1, 1.0), (2, 0, 1, 0.0)]
    assert g.average_place == 2.5  # Ann and Bob share second and third
    assert (g.won, g.finished, g.shared_wins) == (0, 1, 0)
    assert (ann.versus["bob"].drawn, ann.versus["cy"].lost) == (1, 1)
    bob = player_stats("bob", [match]).games["ohhell"]
    assert bob.exact_by_bid() == [(0, 1, 2, 0.5), (1, 1, 1, 1.0)]
    cy = player_stats("cy", [match]).games["ohhell"]
    assert (cy.exact, cy.won, cy.average_place, cy.points) == (3, 1, 1.0, 32)


def test_oh_hell_shared_win():
    match = played("ohhell", OH_HELL[:1], players=("Ann", "Bob", "Cy"), finished=True, winners=(1, 2), totals=(5, 9, 9))
    g = player_stats("cy", [match]).games["ohhell"]
    assert (g.won, g.shared_wins, g.average_place) == (1, 1, 1.5)


DRAW_BRIDGE = [
    {"declarer": 0, "level": 4, "strain": "S", "double": "double", "tricks": 10},  # made, doubled
    {"declarer": 0, "level": 3, "strain": "NT", "tricks": 7},  # needs 9: 2 down
    {"passed_out": True},
    {"declarer": 1, "level": 2, "strain": "H", "double": "redouble", "tricks": 8},  # made, redoubled
    {"declarer": 0, "level": 5, "strain": "C", "tricks": 10},  # needs 11: 1 down
]


def test_draw_bridge_figures():
    ann = player_stats("ann", [played("drawbridge", DRAW_BRIDGE)]).games["drawbridge"]
    assert (ann.declared, ann.made, ann.doubled, ann.redoubled) == (3, 1, [1, 1], [0, 0])
    assert ann.average_undertricks == 1.5
    assert ann.hands == 5
    bob = player_stats("bob", [played("drawbridge", DRAW_BRIDGE)]).games["drawbridge"]
    assert (bob.declared, bob.made, bob.redoubled, bob.average_undertricks) == (1, 1, [1, 1], None)


SIXTY_SIX = [
    {"end": "out", "player": 0, "points": [70, 30], "opponent_took_trick": True},  # Ann out, Bob under 33: Ann 2
    {  # Bob closed and fell short; Ann had a trick at the close: Ann 2
        "end": "closed",
        "player": 1,
        "points": [40, 50],
        "opponent_took_trick": True,
        "opponent_trick_at_close": True,
    },
    {"end": "played_out", "player": 0, "points": [60, 70], "opponent_took_trick": True},  # Bob 70 - 60: Bob 1
]


def test_sixty_six_figures():
    ann = player_stats("ann", [played("sixtysix", SIXTY_SIX)]).games["sixtysix"]
    assert (ann.points, ann.hands) == (4, 3)
    assert (ann.won_going_out, ann.won_playing_out, ann.won_on_failure) == (1, 0, 1)
    assert (ann.closes, ann.closes_won) == (0, 0)
    bob = player_stats("bob", [played("sixtysix", SIXTY_SIX)]).games["sixtysix"]
    assert (bob.points, bob.closes, bob.closes_won, bob.won_playing_out) == (1, 1, 0, 1)


def test_results_runs_and_head_to_head_in_date_order():
    # Ann's results by date: win, win, loss, win, win, win: longest run 3,
    # whatever order the matches are given in.
    outcomes = [True, True, False, True, True, True]
    matches = [
        played(
            "spades",
            SPADES[:1],
            finished=True,
            winners=(0,) if won else (1,),
            totals=(510, 300) if won else (300, 505),
            id=i + 1,
            when=i,
        )
        for i, won in enumerate(outcomes)
    ]
    stats = player_stats("ann", list(reversed(matches)))
    g = stats.games["spades"]
    assert (g.played, g.finished, g.won, g.longest_run) == (6, 6, 5, 3)
    assert g.win_rate == pytest.approx(5 / 6)
    assert g.average_final == pytest.approx((510 * 5 + 300) / 6)
    v = stats.versus["bob"]
    assert (v.played, v.won, v.lost, v.drawn) == (6, 5, 1, 0)


def test_a_match_in_progress_counts_its_hands_but_no_result():
    stats = player_stats("ann", [played("spades", SPADES)]).games["spades"]
    assert (stats.played, stats.finished, stats.won, stats.win_rate, stats.average_final) == (1, 0, 0, None, None)


def test_an_edit_changes_the_figures():
    before = player_stats("ann", [played("spades", SPADES)]).games["spades"]
    edited = [{"bids": [4, 5], "tricks": [4, 9]}, *SPADES[1:]]  # hand 1 corrected: Ann took exactly 4
    after = player_stats("ann", [played("spades", edited)]).games["spades"]
    assert (before.exact, after.exact) == (0, 1)
    assert (before.bags, after.bags) == (2, 0)


def test_places_share_ties():
    assert places([10, 30, 30, 5]) == [3.0, 1.5, 1.5, 4.0]
    assert places([7, 7]) == [1.5, 1.5]


def test_the_statistics_are_pure_python():
    from pathlib import Path

    import scorekeeper.stats

    for path in Path(scorekeeper.stats.__file__).parent.glob("*.py"):
        assert not re.search(r"^\s*(from|import)\s+django", path.read_text(), re.M), path
