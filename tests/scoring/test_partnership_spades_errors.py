"""Partnership Spades: every input RULES.md 7.2, 7.4 and 7.7 refuse (with
1.5's per-side lists and decisions 23-32), in the order of 7.2."""

from __future__ import annotations

import pytest

from scorekeeper.scoring import check_bidding, score_match

from .test_partnership_spades import P1, P4, P5, bidding_error, invalid, spades

# ------------------------------------------------------------ 7.2 validation, step by step


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        ({"tricks": [6, 7]}, 'the hand needs "bids"'),
        ({"bids": [3, 4, 2, 4]}, 'the hand needs "tricks"'),
        ({"bids": [3, 4, 2, 4], "tricks": [6, 7], "points": [1, 2]}, 'unknown entry "points"'),
        ({"bids": [3, 4, 2, 4], "tricks": [6, 7], "made": True, "winner": 0}, '"made", "winner"'),
    ],
)
def test_step_2_keys(hand, words):
    error = invalid(spades([hand]))
    assert error.hand_index == 0
    assert words in str(error)


@pytest.mark.parametrize(
    ("bids", "words"),
    [
        ("3,4,2,4", "the bids must be a list with one entry per player"),
        ([3, 4, 2], "the bids must have 4 entries, one per player, got 3"),
        ([3, 4, 2, 4, 0], "the bids must have 4 entries, one per player, got 5"),
        ([3, 14, 2, 4], 'Bob\'s bid must be 0 to 13 or "blind_nil", got 14'),
        ([3, 4, -1, 4], "Cat's bid must be 0 to 13"),
        ([3, 4, 2, True], "Dan's bid must be 0 to 13"),
        ([3, "4", 2, 4], 'got "4"'),
        ([3.0, 4, 2, 4], "Ann's bid"),
        ([None, 4, 2, 4], "got nothing"),
        ([3, "Blind Nil", 2, 4], "Bob's bid"),
    ],
)
def test_step_3_bids(bids, words):
    error = invalid(spades([{"bids": bids, "tricks": [6, 7]}]))
    assert error.hand_index == 0
    assert words in str(error)


def test_step_3_bids_in_seat_order():
    assert "Bob's bid" in str(invalid(spades([{"bids": [3, 14, "x", 4], "tricks": [6, 7]}])))


@pytest.mark.parametrize(
    ("tricks", "words"),
    [
        (6, "the tricks must be a list with one entry per side, got 6"),
        ([13], "the tricks must have 2 entries, one per side, got 1"),
        ([3, 3, 3, 4], "the tricks must have 2 entries, one per side, got 4"),
        ([14, -1], "Ann & Cat's tricks must be 0 to 13, got 14"),
        ([6, 7.0], "Bob & Dan's tricks must be 0 to 13, got 7.0"),
        ([False, 13], "Ann & Cat's tricks must be 0 to 13, got false"),
    ],
)
def test_step_4_tricks_per_side(tricks, words):
    error = invalid(spades([{"bids": [3, 4, 2, 4], "tricks": tricks}]))
    assert error.hand_index == 0
    assert str(error) == f"Hand 1: {words}"


@pytest.mark.parametrize(
    ("nil_tricks", "words"),
    [
        ([0, None], "must have 4 entries, one per player, got 2"),
        ({"0": 0}, "must be a list with one entry per player"),
        ([14, None, None, None], "Ann's Nil tricks must be 0 to 13"),
        ([0, None, -1, None], "Cat's Nil tricks must be 0 to 13"),
        ([0, None, None, "0"], "Dan's Nil tricks must be 0 to 13"),
        ([True, None, None, None], "Ann's Nil tricks must be 0 to 13"),
    ],
)
def test_step_5_nil_tricks_values(nil_tricks, words):
    error = invalid(spades([{"bids": [0, 4, 5, 3], "tricks": [6, 7], "nil_tricks": nil_tricks}]))
    assert error.hand_index == 0
    assert words in str(error)


def test_the_steps_come_in_order():
    """7.2: bids (3) -> tricks (4) -> nil_tricks values (5) -> the sum (6) -> presence (7) ->
    the entries (8) -> fitting the side (9) -> both Nil (10) -> Blind Nil (11)."""
    no_both = {"partners_both_nil": False}

    def words(hand, options=None):
        return str(invalid(spades([hand], options)))

    assert "Bob's bid" in words({"bids": [3, 14, 2, 4], "tricks": [20, 7], "nil_tricks": [99] * 4})
    assert "Ann & Cat's tricks" in words({"bids": [3, 4, 2, 4], "tricks": [20, 7], "nil_tricks": [99] * 4})
    assert "Ann's Nil tricks" in words({"bids": [3, 4, 2, 4], "tricks": [6, 6], "nil_tricks": [99] * 4})
    assert "add up to 12" in words({"bids": [3, 4, 2, 4], "tricks": [6, 6], "nil_tricks": [1] * 4})
    assert "nobody bid Nil" in words({"bids": [3, 4, 2, 4], "tricks": [6, 7], "nil_tricks": [1] * 4})
    assert "Bob did not bid Nil" in words({"bids": [0, 4, 0, 4], "tricks": [6, 7], "nil_tricks": [1, 0, 9, None]})
    assert "(1 + 9)" in words({"bids": [0, 4, 0, 4], "tricks": [6, 7], "nil_tricks": [1, None, 9, None]}, no_both)
    both = {"bids": ["blind_nil", 4, 0, 4], "tricks": [6, 7], "nil_tricks": [1, None, 5, None]}
    assert "partners" in words(both, no_both)
    assert "Blind Nil" in words(both)


def test_step_8_a_nil_bidder_needs_an_entry():
    error = invalid(spades([{"bids": [3, 0, 2, 4], "tricks": [6, 7], "nil_tricks": [None, None, None, None]}]))
    assert "Bob bid Nil" in str(error) and "got nothing" in str(error)


def test_step_9_a_nil_bidder_may_take_all_the_sides_tricks():
    row = score_match(spades([{"bids": [0, 4, 5, 3], "tricks": [6, 7], "nil_tricks": [6, None, None, None]}]))
    # Ann's Nil fails (-100); Cat's contract 5 with 6 - 6 = 0 tricks: -50; 6 bags: +6.
    assert row["hands"][0]["points"] == [-100 - 50 + 6, 70]


def test_step_9_side_1_checked_too():
    error = invalid(spades([{"bids": [3, 0, 2, 4], "tricks": [6, 7], "nil_tricks": [None, 8, None, None]}]))
    assert "Bob took 8 tricks as a Nil bidder, but Bob & Dan took only 7" in str(error)


@pytest.mark.parametrize("mix", [[0, "blind_nil"], ["blind_nil", 0], ["blind_nil", "blind_nil"]])
def test_step_10_any_mix_of_nil_and_blind_nil(mix):
    hand = {"bids": [4, mix[0], 5, mix[1]], "tricks": [13, 0], "nil_tricks": [None, 0, None, 0]}
    options = {"partners_both_nil": False, "blind_nil": "always"}
    error = invalid(spades([hand], options))
    assert "Bob & Dan are partners" in str(error)
    assert score_match(spades([hand], {"blind_nil": "always"}))["hands"][0]["made"] == [True, None]


def test_step_11_blind_nil_never():
    hands = [P4[0], P4[1]]
    error = invalid(spades(hands, {"blind_nil": "never"}))
    assert error.hand_index == 1
    assert "Bob may not bid Blind Nil" in str(error)


def test_step_11_blind_nil_always_at_0_0():
    hand = {"bids": ["blind_nil", 4, "blind_nil", 3], "tricks": [0, 13], "nil_tricks": [0, None, 0, None]}
    row = score_match(spades([hand], {"blind_nil": "always"}))["hands"][0]
    # two Blind Nils made: 400; Bob and Dan bid 7, took 13: 70 + 6.
    assert row["points"] == [400, 76]


EXACTLY_100 = {"bids": [5, 0, 5, 0], "tricks": [10, 3], "nil_tricks": [None, 0, None, 3]}


def test_step_11_exactly_100_behind_may_bid_blind_nil():
    # Ann & Cat: contract 10, took 10: 100. Bob & Dan: +100 - 100, and with "none" Dan's 3 tricks
    # count for nothing: 0. So Bob & Dan are exactly 100 behind.
    options = {"failed_nil_tricks": "none"}
    result = score_match(spades([EXACTLY_100], options))
    assert result["totals"] == [100, 0]
    assert result["next_hand"]["blind_nil_allowed"] == [False, True]
    blind = {"bids": [3, "blind_nil", 4, 5], "tricks": [6, 7], "nil_tricks": [None, 0, None, None]}
    assert check_bidding(spades([EXACTLY_100], options), {"bids": blind["bids"]}) is None
    assert score_match(spades([EXACTLY_100, blind], options))["totals"] == [100 - 70, 0 + 200 + 52]


def test_step_11_97_behind_may_not():
    # The same hand with the default "bags": Dan's 3 tricks are 3 points, so 97 behind.
    result = score_match(spades([EXACTLY_100]))
    assert result["totals"] == [100, 3]
    assert result["next_hand"]["blind_nil_allowed"] == [False, False]
    error = bidding_error(spades([EXACTLY_100]), {"bids": [3, "blind_nil", 4, 5]})
    assert error.hand_index == 1
    assert str(error) == (
        "Hand 2: Bob may not bid Blind Nil: only a side at least 100 points behind may, and Bob & Dan have 3 to 100"
    )


def test_decision_25_editing_an_earlier_hand_invalidates_a_later_blind_nil():
    assert score_match(spades(P4))["totals"] == [-137, 82]
    edited = [{"bids": [4, 5, 4, 4], "tricks": [4, 9]}, *P4[1:]]  # now Ann and Cat are behind after hand 1
    error = invalid(spades(edited))
    assert error.hand_index == 1
    assert "Bob may not bid Blind Nil" in str(error)


# ------------------------------------------------------------ 7.4 options


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target": 0}, 'The option "target" must be a whole number of 1 or more, got 0'),
        ({"target": None}, 'The option "target" must be a whole number of 1 or more, got nothing'),
        ({"target": True}, 'The option "target"'),
        ({"failed_nil_tricks": "bag"}, 'The option "failed_nil_tricks" must be one of "bags", "contract", "none"'),
        ({"failed_nil_tricks": True}, 'The option "failed_nil_tricks"'),
        ({"blind_nil": "behind_200"}, 'must be one of "behind_100", "always", "never"'),
        ({"blind_nil": None}, 'The option "blind_nil"'),
        ({"partners_both_nil": 0}, 'The option "partners_both_nil" must be true or false, got 0'),
        ({"partners_both_nil": None}, 'The option "partners_both_nil"'),
        ({"losing_score": 0}, 'The option "losing_score" must be a whole number of -1 or less, got 0'),
        ({"losing_score": 200}, 'The option "losing_score" must be a whole number of -1 or less, got 200'),
        ({"losing_score": -200.0}, "got -200.0"),
        ({"losing_score": False}, "got false"),
        ({"losing_score": "-200"}, 'got "-200"'),
        ({"deals": 3}, "has no option"),
        ({"hook": False}, "has no option"),
    ],
)
def test_bad_options(options, words):
    error = invalid(spades(P1, options))
    assert error.hand_index is None
    assert words in str(error)


@pytest.mark.parametrize("losing_score", [None, -1, -200, -(10**9)])
def test_losing_score_null_or_negative(losing_score):
    assert score_match(spades(P1, {"losing_score": losing_score}))["totals"] == [51, -80]


def test_no_combination_of_options_is_an_error():
    options = {
        "target": 1,
        "failed_nil_tricks": "contract",
        "blind_nil": "never",
        "partners_both_nil": False,
        "losing_score": -1,
    }
    result = score_match(spades([], options))
    assert result["finished"] is False


def test_four_players_exactly():
    for players in (["Ann", "Bob"], ["A", "B", "C", "D", "E"], []):
        assert invalid(spades([], players=players)).hand_index is None
    assert invalid(spades([], players=["Ann", "Bob", "Cat", "Ann"])).hand_index is None


# ------------------------------------------------------------ 7.7 check_bidding


def test_check_bidding_legal_bids():
    assert check_bidding(spades([]), {"bids": [3, 4, 2, 4]}) is None
    assert check_bidding(spades([]), {"bids": [0, 0, 0, 0]}) is None
    assert check_bidding(spades(P4[:1]), {"bids": [3, "blind_nil", 4, 5]}) is None


@pytest.mark.parametrize(
    ("bidding", "words"),
    [
        ({}, 'the hand needs "bids"'),
        ({"bids": [3, 4, 2, 4], "tricks": [6, 7]}, 'unknown entry "tricks"'),
        ({"bids": [0, 4, 2, 4], "nil_tricks": [0, None, None, None]}, 'unknown entry "nil_tricks"'),
        ({"bids": [3, 4, 2]}, "the bids must have 4 entries, one per player, got 3"),
        ({"bids": [3, 4, 2, 14]}, 'Dan\'s bid must be 0 to 13 or "blind_nil", got 14'),
        ({"bids": ["blind_nil", 4, 2, 4]}, "Ann may not bid Blind Nil"),
        ([3, 4, 2, 4], "the bidding must be an object"),
    ],
)
def test_check_bidding_refuses(bidding, words):
    error = bidding_error(spades([]), bidding)
    assert error.hand_index == 0
    assert str(error).startswith("Hand 1: ")
    assert words in str(error)


def test_check_bidding_both_partners_nil():
    error = bidding_error(spades(P1, {"partners_both_nil": False}), {"bids": [3, 0, 2, "blind_nil"]})
    assert error.hand_index == 1
    assert "Bob & Dan are partners" in str(error)
    assert check_bidding(spades(P1), {"bids": [3, 0, 2, "blind_nil"]}) is None


def test_check_bidding_says_what_score_match_says():
    """1.4: the same message as score_match for that part of the hand."""
    for bidding in ({"bids": [3, 4, 2, 14]}, {"bids": ["blind_nil", 4, 5, 3]}, {"bids": [3, 4]}):
        error = bidding_error(spades(P1), bidding)
        whole = invalid(spades([*P1, {**bidding, "tricks": [6, 7], "nil_tricks": [0, None, None, None]}]))
        assert (error.hand_index, str(error)) == (whole.hand_index, str(whole))


def test_a_bidding_that_passes_fails_only_for_its_after_play_keys():
    bidding = {"bids": [3, "blind_nil", 4, 5]}
    check_bidding(spades(P1), bidding)
    error = invalid(spades([*P1, {**bidding, "tricks": [6, 7]}]))
    assert "nil_tricks" in str(error)
    assert score_match(spades([*P1, {**bidding, "tricks": [6, 7], "nil_tricks": [None, 0, None, None]}]))


def test_check_bidding_after_the_end():
    error = bidding_error(spades(P5[:1], {"target": 200}), {"bids": [3, 4, 2, 4]})
    assert error.hand_index == 1
    assert str(error) == "Hand 2: the game is already over"


def test_check_bidding_checks_the_match_first():
    error = bidding_error(spades([{"bids": [3, 4, 2, 4], "tricks": [6, 6]}]), {"bids": [3, 4, 2, 4]})
    assert error.hand_index == 0
    assert "add up to 12" in str(error)
