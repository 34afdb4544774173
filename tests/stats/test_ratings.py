"""Ratings with OpenSkill's Bradley-Terry (full pairing) model."""

import pytest

from scorekeeper.stats.ratings import Result, leaderboard, ranks, rate


def test_a_two_player_win_and_a_draw():
    won = rate([Result(("ann", "bob"), (510, 300), (0,))])
    assert won["ann"].mu > 25 > won["bob"].mu
    assert won["ann"].mu - 25 == pytest.approx(25 - won["bob"].mu)  # what one gains the other loses
    drawn = rate([Result(("ann", "bob"), (300, 300), ())])  # a table ended early on equal totals
    assert drawn["ann"].mu == drawn["bob"].mu == pytest.approx(25)
    assert drawn["ann"].sigma < 25 / 3  # but the draw taught us something


def test_why_bradley_terry_full_for_shared_places():
    """A shared first at an Oh Hell table of three is a draw between the two
    and a win over the third: both gain the same, less than an outright
    winner, more than a clear second."""
    outright = rate([Result(("a", "b", "c"), (30, 20, 10), (0,))])
    shared = rate([Result(("a", "b", "c"), (30, 30, 10), (0, 1))])
    assert shared["a"].mu == shared["b"].mu
    assert outright["a"].mu > shared["a"].mu > outright["b"].mu
    assert shared["c"].mu == pytest.approx(outright["c"].mu)  # last either way: lost to both
    assert ranks(Result(("a", "b", "c"), (30, 30, 10), (0, 1))) == [1.5, 1.5, 3.0]


def test_order_matters_and_a_recomputation_is_the_same():
    results = [
        Result(("ann", "bob"), (500, 200), (0,)),
        Result(("bob", "cy"), (500, 100), (0,)),
        Result(("ann", "cy"), (100, 520), (1,)),
    ]
    once = rate(results)
    again = rate(list(results))
    assert {k: (r.mu, r.sigma, r.matches) for k, r in once.items()} == {
        k: (r.mu, r.sigma, r.matches) for k, r in again.items()
    }
    assert once["ann"].matches == 2
    other_order = rate(list(reversed(results)))
    assert other_order["ann"].mu != once["ann"].mu


def test_an_edit_in_the_middle_changes_what_follows():
    results = [Result(("ann", "bob"), (500, 200), (0,)) for _ in range(3)]
    edited = [results[0], Result(("ann", "bob"), (200, 500), (1,)), results[2]]
    assert rate(edited)["ann"].mu < rate(results)["ann"].mu


def test_leaderboard_needs_five_matches_and_sorts_by_the_cautious_figure():
    results = [Result(("ann", "bob"), (500, 200), (0,)) for _ in range(5)]
    results.append(Result(("cy", "dee"), (500, 100), (0,)))
    board = leaderboard(rate(results))
    assert [r.key for r in board] == ["ann", "bob"]
    assert board[0].ordinal == pytest.approx(board[0].mu - 3 * board[0].sigma)
