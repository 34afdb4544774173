"""Two-player Spades against RULES.md section 2.

Every expected number below is worked out from the RULES text (the 2.3
table, the bag rule, 2.5), never taken from the engine's output.
"""

from __future__ import annotations

import pytest

from scorekeeper.scoring import InvalidHand, check_bidding, preview_hand, score_match

ANN_BOB = ["Ann", "Bob"]


def spades(hands, options=None, players=None):
    match = {"game": "spades", "players": list(players or ANN_BOB), "hands": hands}
    if options is not None:
        match["options"] = options
    return match


def hand(bids, tricks):
    return {"bids": list(bids), "tricks": list(tricks)}


def invalid(match) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        score_match(match)
    return info.value


def column(result, key):
    return [row[key] for row in result["hands"]]


# ------------------------------------------------------------ worked examples


def test_s1_made_bids_with_overtricks():
    result = score_match(spades([hand([7, 4], [8, 5])]))
    assert result["hands"] == [{"points": [71, 41], "totals": [71, 41], "bags": [1, 1], "bag_penalty": [0, 0]}]
    assert result["totals"] == [71, 41]
    assert result["finished"] is False
    assert result["winners"] == []
    assert result["next_hand"] == {"number": 2, "first_drawer": 1, "first_bidder": 0, "leader": 0}


def test_s2_nil_made_blind_nil_failed_bag_penalty():
    result = score_match(spades([hand([0, 5], [0, 13]), hand(["blind_nil", 9], [1, 12])]))
    assert result["hands"][0] == {"points": [100, 58], "totals": [100, 58], "bags": [0, 8], "bag_penalty": [0, 0]}
    assert result["hands"][1] == {"points": [-200, -7], "totals": [-100, 51], "bags": [0, 1], "bag_penalty": [0, -100]}
    assert result["totals"] == [-100, 51]
    assert result["finished"] is False
    assert result["winners"] == []
    assert result["next_hand"] == {"number": 3, "first_drawer": 0, "first_bidder": 1, "leader": 1}


def test_s3_sandbagging_example_with_corrected_numbers():
    hands = [hand([4, 5], [7, 6]), hand([3, 6], [6, 7]), hand([4, 4], [9, 4]), hand([6, 7], [4, 9])]
    result = score_match(spades(hands, players=["Bonnie", "Carl"]))
    assert column(result, "points") == [[43, 51], [33, 61], [-55, 40], [-60, 72]]
    assert column(result, "totals") == [[43, 51], [76, 112], [21, 152], [-39, 224]]
    assert column(result, "bags") == [[3, 1], [6, 2], [1, 2], [1, 4]]
    assert column(result, "bag_penalty") == [[0, 0], [0, 0], [-100, 0], [0, 0]]
    assert result["totals"] == [-39, 224]
    assert result["finished"] is False
    assert result["next_hand"]["number"] == 5


def test_s4_both_past_the_target_on_the_same_hand():
    hands = [hand([5, 5], [7, 6]), hand([5, 5], [6, 7]), hand([4, 6], [5, 8])]
    result = score_match(spades(hands, options={"target": 100}))
    assert column(result, "totals") == [[52, 51], [103, 103], [144, 165]]
    assert result["finished"] is True
    assert result["winners"] == [1]
    assert result["totals"] == [144, 165]
    assert result["next_hand"] is None


def test_s4_tied_at_or_above_the_target_plays_on():
    hands = [hand([5, 5], [7, 6]), hand([5, 5], [6, 7])]
    result = score_match(spades(hands, options={"target": 100}))
    assert result["totals"] == [103, 103]
    assert result["finished"] is False
    assert result["winners"] == []
    assert result["next_hand"] == {"number": 3, "first_drawer": 0, "first_bidder": 1, "leader": 1}


def test_s5_tricks_not_adding_up():
    error = invalid(spades([hand([3, 4], [6, 6])]))
    assert error.hand_index == 0
    assert str(error) == "Hand 1: tricks add up to 12, but 13 tricks are played"


def test_s5_bid_out_of_range():
    error = invalid(spades([hand([14, 0], [13, 0])]))
    assert error.hand_index == 0
    assert "Ann" in str(error)
    assert "14" in str(error)


def test_s5_one_player():
    error = invalid(spades([], players=["Ann"]))
    assert error.hand_index is None


# ------------------------------------------------------------ the 2.3 table

# (bids, tricks, expected points, expected bags after the hand, expected bag_penalty), from the table
TABLE_ROWS = {
    "made exactly": ([4, 6], [4, 9], [40, 63], [0, 3], [0, 0]),
    "made with overtricks": ([4, 3], [6, 7], [42, 34], [2, 4], [0, 0]),
    "set": ([5, 9], [3, 10], [-50, 91], [0, 1], [0, 0]),
    "both set": ([7, 8], [6, 7], [-70, -80], [0, 0], [0, 0]),
    "bid 13 made": ([13, 0], [13, 0], [130, 100], [0, 0], [0, 0]),
    "bid 13 failed": ([13, 1], [12, 1], [-130, 10], [0, 0], [0, 0]),
    "bid 1 took 13": ([1, 0], [13, 0], [10 + 12 - 100, 100], [2, 0], [-100, 0]),
    "nil made": ([0, 6], [0, 13], [100, 67], [0, 7], [0, 0]),
    "nil failed by one": ([0, 12], [1, 12], [-100, 120], [0, 0], [0, 0]),
    "nil failed with all tricks": ([0, 1], [13, 0], [-100, -10], [0, 0], [0, 0]),
    "blind nil made": (["blind_nil", 13], [0, 13], [200, 130], [0, 0], [0, 0]),
    "blind nil failed": (["blind_nil", 5], [3, 10], [-200, 55], [0, 5], [0, 0]),
    "both nil": ([0, 0], [0, 13], [100, -100], [0, 0], [0, 0]),
    "nil and blind nil": ([0, "blind_nil"], [13, 0], [-100, 200], [0, 0], [0, 0]),
    "both blind nil": (["blind_nil", "blind_nil"], [6, 7], [-200, -200], [0, 0], [0, 0]),
    "player 1 made with overtricks": ([2, 2], [2, 11], [20, 29], [0, 9], [0, 0]),
}


@pytest.mark.parametrize(
    ("bids", "tricks", "points", "bags", "penalty"), TABLE_ROWS.values(), ids=list(TABLE_ROWS.keys())
)
def test_table_row(bids, tricks, points, bags, penalty):
    result = score_match(spades([hand(bids, tricks)]))
    assert result["hands"][0] == {"points": points, "totals": points, "bags": bags, "bag_penalty": penalty}
    assert result["totals"] == points


@pytest.mark.parametrize(
    ("bids", "tricks", "points", "bags", "penalty"), TABLE_ROWS.values(), ids=list(TABLE_ROWS.keys())
)
def test_table_row_seats_swapped(bids, tricks, points, bags, penalty):
    row = score_match(spades([hand(bids[::-1], tricks[::-1])]))["hands"][0]
    assert row == {"points": points[::-1], "totals": points[::-1], "bags": bags[::-1], "bag_penalty": penalty[::-1]}


def test_bid_13_made_has_no_bonus():
    # "A bid of 13 is scored like any other: made, 130 and no bags".
    row = score_match(spades([hand([13, "blind_nil"], [13, 0])]))["hands"][0]
    assert row["points"] == [130, 200]
    assert row["bags"] == [0, 0]


# ------------------------------------------------------------ failed_nil_bags


def test_failed_nil_bags_off_by_default():
    row = score_match(spades([hand([0, "blind_nil"], [3, 10])]))["hands"][0]
    assert row["points"] == [-100, -200]
    assert row["bags"] == [0, 0]


def test_failed_nil_bags_explicitly_off():
    row = score_match(spades([hand([0, "blind_nil"], [3, 10])], options={"failed_nil_bags": False}))["hands"][0]
    assert row["points"] == [-100, -200]
    assert row["bags"] == [0, 0]


def test_failed_nil_bags_on():
    row = score_match(spades([hand([0, "blind_nil"], [3, 10])], options={"failed_nil_bags": True}))["hands"][0]
    # Ann: -100 + 3 and 3 bags. Bob: -200 + 10 and 10 bags -> -100 more, 0 bags left.
    assert row["points"] == [-100 + 3, -200 + 10 - 100]
    assert row["bags"] == [3, 0]
    assert row["bag_penalty"] == [0, -100]


def test_failed_nil_bags_on_does_not_touch_made_nil_or_bids():
    row = score_match(spades([hand([0, 4], [0, 13])], options={"failed_nil_bags": True}))["hands"][0]
    assert row["points"] == [100, 49]
    assert row["bags"] == [0, 9]


def test_failed_nil_bags_carry_into_a_penalty():
    # Ann: 8 bags from hand 1, then a failed Nil with 3 tricks: +3 bags = 11 -> -100, 1 left.
    hands = [hand([5, 0], [13, 0]), hand([0, 10], [3, 10])]
    result = score_match(spades(hands, options={"failed_nil_bags": True}))
    assert column(result, "points") == [[58, 100], [-100 + 3 - 100, 100]]
    assert column(result, "bags") == [[8, 0], [1, 0]]
    assert column(result, "bag_penalty") == [[0, 0], [-100, 0]]


# ------------------------------------------------------------ bags


def test_bags_carry_over_hands():
    hands = [hand([3, 7], [5, 8]), hand([3, 7], [5, 8]), hand([3, 7], [5, 8])]
    result = score_match(spades(hands))
    assert column(result, "bags") == [[2, 1], [4, 2], [6, 3]]
    assert column(result, "points") == [[32, 71]] * 3
    assert column(result, "bag_penalty") == [[0, 0]] * 3


def test_set_bid_adds_no_bags_and_keeps_carried_bags():
    hands = [hand([3, 7], [8, 5]), hand([3, 7], [8, 5])]
    result = score_match(spades(hands))
    assert column(result, "bags") == [[5, 0], [0, 0]]  # Ann 5 + 5 = 10 -> -100, 0 left
    assert column(result, "points") == [[35, -70], [35 - 100, -70]]
    assert column(result, "bag_penalty") == [[0, 0], [-100, 0]]


def test_exactly_ten_bags():
    hands = [hand([4, 0], [9, 4]), hand([8, 0], [13, 0])]
    result = score_match(spades(hands))
    # Ann: 5 bags, then 5 more = 10 -> -100 and 0 carried. Bob: failed Nil, then made Nil.
    assert column(result, "points") == [[45, -100], [85 - 100, 100]]
    assert column(result, "bags") == [[5, 0], [0, 0]]
    assert column(result, "bag_penalty") == [[0, 0], [-100, 0]]


def test_double_bag_penalty_in_one_hand():
    # Ann: 9 bags carried, then 12 new = 21 -> -200 and 1 left (RULES 2.3).
    hands = [hand([4, 0], [13, 0]), hand([1, 0], [13, 0])]
    result = score_match(spades(hands))
    assert column(result, "bags") == [[9, 0], [1, 0]]
    assert column(result, "bag_penalty") == [[0, 0], [-200, 0]]
    assert column(result, "points") == [[49, 100], [22 - 200, 100]]
    assert result["totals"] == [49 - 178, 200]


def test_double_bag_penalty_built_up_over_several_hands():
    # Bob collects 3 + 3 + 3 = 9 bags, then bids 1 and takes all 13: 12 bags.
    hands = [hand([5, 5], [5, 8]), hand([5, 5], [5, 8]), hand([5, 5], [5, 8]), hand([0, 1], [0, 13])]
    result = score_match(spades(hands))
    assert column(result, "bags") == [[0, 3], [0, 6], [0, 9], [0, 1]]
    assert column(result, "bag_penalty") == [[0, 0], [0, 0], [0, 0], [0, -200]]
    assert column(result, "points") == [[50, 53], [50, 53], [50, 53], [100, 10 + 12 - 200]]
    assert result["totals"] == [250, 159 - 178]


def test_bags_are_per_player():
    hands = [hand([1, 1], [7, 6]), hand([1, 1], [6, 7])]
    result = score_match(spades(hands))
    # Ann 6 + 5 = 11 -> 1; Bob 5 + 6 = 11 -> 1.
    assert column(result, "bags") == [[6, 5], [1, 1]]
    assert column(result, "bag_penalty") == [[0, 0], [-100, -100]]
    assert column(result, "points") == [[16, 15], [15 - 100, 16 - 100]]


# ------------------------------------------------------------ target and end of game


def test_default_target_is_500():
    # Ann makes 13 (130) and Bob Nil (100) every hand: 390 / 300 after 3 hands, 520 / 400 after 4.
    hands = [hand([13, 0], [13, 0])] * 3
    result = score_match(spades(hands))
    assert result["totals"] == [390, 300]
    assert result["finished"] is False
    result = score_match(spades(hands + [hand([13, 0], [13, 0])]))
    assert result["totals"] == [520, 400]
    assert result["finished"] is True
    assert result["winners"] == [0]
    assert result["next_hand"] is None


def test_target_option():
    hands = [hand([4, 4], [6, 7]), hand([5, 2], [10, 3])]
    result = score_match(spades(hands[:1], options={"target": 50}))
    assert result["totals"] == [42, 43]
    assert result["finished"] is False
    result = score_match(spades(hands, options={"target": 50}))
    assert result["totals"] == [42 + 55, 43 + 21]
    assert column(result, "bags") == [[2, 3], [7, 4]]
    assert result["finished"] is True
    assert result["winners"] == [0]


def test_reaching_the_target_exactly_wins():
    result = score_match(spades([hand([4, 4], [6, 7])], options={"target": 43}))
    assert result["finished"] is True
    assert result["winners"] == [1]


def test_target_1():
    result = score_match(spades([hand([0, 0], [0, 13])], options={"target": 1}))
    assert result["finished"] is True
    assert result["winners"] == [0]


def test_only_one_player_past_the_target_wins_even_if_behind_earlier():
    result = score_match(spades([hand([13, "blind_nil"], [13, 0])], options={"target": 150}))
    assert result["totals"] == [130, 200]
    assert result["finished"] is True
    assert result["winners"] == [1]


def test_tie_below_the_target_goes_on():
    result = score_match(spades([hand([5, 5], [7, 6]), hand([5, 5], [6, 7])], options={"target": 200}))
    assert result["totals"] == [103, 103]
    assert result["finished"] is False


def test_tie_at_target_twice_then_a_leader_wins():
    hands = [
        hand([13, 0], [13, 0]),  # 130, 100
        hand([0, 13], [0, 13]),  # +100, +130: 230, 230, tied above the target
        hand([8, 8], [6, 7]),  # both set, -80: 150, 150, tied exactly at the target
        hand([5, 5], [7, 6]),  # 52, 51: 202, 201
    ]
    options = {"target": 150}
    expected_totals = [[130, 100], [230, 230], [150, 150], [202, 201]]
    for played in range(1, 4):
        result = score_match(spades(hands[:played], options=options))
        assert column(result, "totals") == expected_totals[:played]
        assert result["finished"] is False
        assert result["winners"] == []
    result = score_match(spades(hands, options=options))
    assert column(result, "totals") == expected_totals
    assert result["finished"] is True
    assert result["winners"] == [0]
    assert result["next_hand"] is None


def test_tie_at_target_then_both_drop_below_goes_on():
    hands = [hand([13, 0], [13, 0]), hand([0, 13], [0, 13]), hand([8, 8], [6, 7])]
    result = score_match(spades(hands, options={"target": 200}))
    assert result["totals"] == [150, 150]
    assert result["finished"] is False
    assert result["next_hand"]["number"] == 4
    result = score_match(spades([*hands, hand([5, 5], [7, 6])], options={"target": 200}))
    assert result["totals"] == [202, 201]
    assert result["finished"] is True
    assert result["winners"] == [0]


# ------------------------------------------------------------ rotation


def test_rotation_over_four_hands():
    hands = [hand([3, 3], [6, 7])] * 4
    expected = [
        {"number": 1, "first_drawer": 0, "first_bidder": 1, "leader": 1},
        {"number": 2, "first_drawer": 1, "first_bidder": 0, "leader": 0},
        {"number": 3, "first_drawer": 0, "first_bidder": 1, "leader": 1},
        {"number": 4, "first_drawer": 1, "first_bidder": 0, "leader": 0},
        {"number": 5, "first_drawer": 0, "first_bidder": 1, "leader": 1},
    ]
    for played in range(5):
        result = score_match(spades(hands[:played]))
        assert result["next_hand"] == expected[played], played


# ------------------------------------------------------------ after the end


def test_a_hand_after_the_game_is_over():
    hands = [hand([5, 5], [7, 6]), hand([5, 5], [6, 7]), hand([4, 6], [5, 8]), hand([3, 3], [6, 7])]
    error = invalid(spades(hands, options={"target": 100}))
    assert error.hand_index == 3
    assert str(error).startswith("Hand 4: ")
    assert "already over" in str(error)


def test_a_hand_after_a_first_hand_win():
    error = invalid(spades([hand([0, 0], [0, 13]), hand([0, 0], [0, 13])], options={"target": 100}))
    assert error.hand_index == 1
    assert "already over" in str(error)


# ------------------------------------------------------------ validation

GOOD = hand([3, 4], [6, 7])

# (hand, message fragments); each is hand 1 of a match unless placed otherwise
BAD_HANDS = {
    "missing tricks": ({"bids": [3, 4]}, ['"tricks"']),
    "missing bids": ({"tricks": [6, 7]}, ['"bids"']),
    "missing both": ({}, ['"bids"', '"tricks"']),
    "unknown key": ({"bids": [3, 4], "tricks": [6, 7], "bags": [0, 0]}, ['"bags"']),
    "key typo: the missing key is reported first": ({"bid": [3, 4], "tricks": [6, 7]}, ['needs "bids"']),
    "bids not a list": ({"bids": 3, "tricks": [6, 7]}, ["bids"]),
    "bids a dict": ({"bids": {"Ann": 3, "Bob": 4}, "tricks": [6, 7]}, ["bids"]),
    "bids a tuple-like string": ({"bids": "34", "tricks": [6, 7]}, ["bids"]),
    "tricks not a list": ({"bids": [3, 4], "tricks": 13}, ["tricks"]),
    "bids too short": ({"bids": [3], "tricks": [6, 7]}, ["bids", "2"]),
    "bids too long": ({"bids": [3, 4, 5], "tricks": [6, 7]}, ["bids", "2"]),
    "tricks too short": ({"bids": [3, 4], "tricks": [13]}, ["tricks", "2"]),
    "tricks too long": ({"bids": [3, 4], "tricks": [6, 7, 0]}, ["tricks", "2"]),
    "tricks empty": ({"bids": [3, 4], "tricks": []}, ["tricks", "2"]),
    "bid bool": ({"bids": [True, 4], "tricks": [6, 7]}, ["Ann", "bid", "true"]),
    "bid false": ({"bids": [3, False], "tricks": [6, 7]}, ["Bob", "bid", "false"]),
    "bid float": ({"bids": [3.0, 4], "tricks": [6, 7]}, ["Ann", "bid", "3.0"]),
    "bid string digit": ({"bids": [3, "4"], "tricks": [6, 7]}, ["Bob", "bid", '"4"']),
    "bid string nil": ({"bids": ["nil", 4], "tricks": [6, 7]}, ["Ann", "bid", '"nil"']),
    "bid blind nil misspelt": ({"bids": ["Blind_Nil", 4], "tricks": [6, 7]}, ["Ann", '"Blind_Nil"']),
    "bid None": ({"bids": [None, 4], "tricks": [6, 7]}, ["Ann", "bid"]),
    "bid list": ({"bids": [[3], 4], "tricks": [6, 7]}, ["Ann", "bid"]),
    "tricks bool": ({"bids": [3, 4], "tricks": [True, 12]}, ["Ann", "tricks", "true"]),
    "tricks float": ({"bids": [3, 4], "tricks": [6.0, 7]}, ["Ann", "tricks", "6.0"]),
    "tricks string": ({"bids": [3, 4], "tricks": [6, "7"]}, ["Bob", "tricks", '"7"']),
    "tricks blind nil": ({"bids": [3, 4], "tricks": ["blind_nil", 13]}, ["Ann", "tricks"]),
    "bid 14": ({"bids": [3, 14], "tricks": [6, 7]}, ["Bob", "14"]),
    "bid -1": ({"bids": [-1, 4], "tricks": [6, 7]}, ["Ann", "-1"]),
    "tricks 14 and -1": ({"bids": [3, 4], "tricks": [14, -1]}, ["Ann", "tricks", "14"]),
    "tricks -1 and 14": ({"bids": [3, 4], "tricks": [-1, 14]}, ["Ann", "tricks", "-1"]),
    "tricks add up to 12": ({"bids": [3, 4], "tricks": [6, 6]}, ["add up to 12", "13"]),
    "tricks add up to 14": ({"bids": [3, 4], "tricks": [7, 7]}, ["add up to 14", "13"]),
    "tricks add up to 0": ({"bids": [0, 0], "tricks": [0, 0]}, ["add up to 0"]),
    "hand a list": ([[3, 4], [6, 7]], []),
    "hand None": (None, []),
    "hand a string": ("bids", []),
}


@pytest.mark.parametrize(("bad", "fragments"), BAD_HANDS.values(), ids=BAD_HANDS.keys())
def test_invalid_first_hand(bad, fragments):
    error = invalid(spades([bad]))
    assert error.hand_index == 0
    message = str(error)
    assert message.startswith("Hand 1: ")
    for fragment in fragments:
        assert fragment in message


@pytest.mark.parametrize(("bad", "fragments"), BAD_HANDS.values(), ids=BAD_HANDS.keys())
def test_invalid_third_hand(bad, fragments):
    error = invalid(spades([GOOD, GOOD, bad, bad]))
    assert error.hand_index == 2
    message = str(error)
    assert message.startswith("Hand 3: ")
    for fragment in fragments:
        assert fragment in message


def test_bid_message_matches_rules_example():
    error = invalid(spades([GOOD, hand([3, 14], [6, 7])]))
    assert error.hand_index == 1
    assert str(error) == 'Hand 2: Bob\'s bid must be 0 to 13 or "blind_nil", got 14'


def test_sum_message_matches_rules_example():
    error = invalid(spades([GOOD, GOOD, GOOD, hand([3, 4], [6, 6])]))
    assert error.hand_index == 3
    assert str(error) == "Hand 4: tricks add up to 12, but 13 tricks are played"


def test_invalid_hand_is_a_value_error():
    with pytest.raises(ValueError):
        score_match(spades([hand([3, 4], [6, 6])]))


def test_missing_key_before_types():
    error = invalid(spades([{"bids": [True, 4]}]))
    assert '"tricks"' in str(error)


def test_types_before_ranges():
    # bid 14 is a range problem, tricks 6.5 a type problem: the type comes first
    error = invalid(spades([{"bids": [14, 4], "tricks": [6.5, 6.5]}]))
    assert "tricks" in str(error)
    assert "6.5" in str(error)


def test_ranges_before_sums():
    error = invalid(spades([hand([3, 4], [14, 0])]))
    assert "14" in str(error)
    assert "add up" not in str(error)


# ------------------------------------------------------------ options

BAD_OPTIONS = {
    "target 0": {"target": 0},
    "target negative": {"target": -500},
    "target bool": {"target": True},
    "target float": {"target": 500.0},
    "target string": {"target": "500"},
    "target None": {"target": None},
    "failed_nil_bags int": {"failed_nil_bags": 1},
    "failed_nil_bags string": {"failed_nil_bags": "true"},
    "failed_nil_bags None": {"failed_nil_bags": None},
    "unknown option": {"targets": 500},
    "option of another game": {"hook": True},
    "drawbridge option": {"undertrick_points": 50},
}


@pytest.mark.parametrize("options", BAD_OPTIONS.values(), ids=BAD_OPTIONS.keys())
def test_bad_options(options):
    error = invalid(spades([GOOD], options=options))
    assert error.hand_index is None
    assert next(iter(options)) in str(error)


def test_options_none_and_empty_mean_defaults():
    base = score_match(spades([GOOD]))
    assert score_match(spades([GOOD], options=None)) == base
    assert score_match(spades([GOOD], options={})) == base
    assert score_match(spades([GOOD], options={"target": 500, "failed_nil_bags": False})) == base


# ------------------------------------------------------------ check_bidding


@pytest.mark.parametrize(
    "bids",
    [[3, 4], [0, 0], [13, 13], ["blind_nil", 5], [0, "blind_nil"], ["blind_nil", "blind_nil"], [0, 13]],
)
def test_check_bidding_legal(bids):
    assert check_bidding(spades([]), {"bids": bids}) is None
    assert check_bidding(spades([GOOD, GOOD]), {"bids": bids}) is None


def test_check_bidding_bid_14():
    with pytest.raises(InvalidHand) as info:
        check_bidding(spades([GOOD, GOOD]), {"bids": [14, 3]})
    assert info.value.hand_index == 2
    assert str(info.value) == 'Hand 3: Ann\'s bid must be 0 to 13 or "blind_nil", got 14'
    # the same message score_match gives for that part of the hand
    assert str(info.value) == str(invalid(spades([GOOD, GOOD, hand([14, 3], [6, 7])])))


@pytest.mark.parametrize(
    ("bidding", "fragments"),
    [
        ({"bids": [3, 4], "tricks": [6, 7]}, ['"tricks"']),
        ({}, ['"bids"']),
        ({"bid": [3, 4]}, ['"bid']),
        ({"bids": [3]}, ["bids", "2"]),
        ({"bids": [3, 4, 5]}, ["bids", "2"]),
        ({"bids": "3,4"}, ["bids"]),
        ({"bids": [3, True]}, ["Bob", "true"]),
        ({"bids": [3.0, 4]}, ["Ann", "3.0"]),
        ({"bids": ["3", 4]}, ["Ann", '"3"']),
        ({"bids": [-1, 4]}, ["Ann", "-1"]),
        ({"bids": [4, 14]}, ["Bob", "14"]),
        ({"bids": ["double_nil", 4]}, ["Ann", "double_nil"]),
    ],
)
def test_check_bidding_illegal(bidding, fragments):
    with pytest.raises(InvalidHand) as info:
        check_bidding(spades([GOOD]), bidding)
    assert info.value.hand_index == 1
    assert str(info.value).startswith("Hand 2: ")
    for fragment in fragments:
        assert fragment in str(info.value)


@pytest.mark.parametrize("bidding", [None, [3, 4], "3 4", 7])
def test_check_bidding_not_a_dict(bidding):
    with pytest.raises(InvalidHand) as info:
        check_bidding(spades([]), bidding)
    assert info.value.hand_index == 0


def test_check_bidding_after_the_game_is_over():
    hands = [hand([5, 5], [7, 6]), hand([5, 5], [6, 7]), hand([4, 6], [5, 8])]
    with pytest.raises(InvalidHand) as info:
        check_bidding(spades(hands, options={"target": 100}), {"bids": [3, 4]})
    assert info.value.hand_index == len(hands)
    assert "already over" in str(info.value)


def test_check_bidding_checks_the_match_like_score_match():
    match = spades([GOOD, hand([3, 4], [6, 6]), GOOD])
    with pytest.raises(InvalidHand) as info:
        check_bidding(match, {"bids": [3, 4]})
    assert info.value.hand_index == 1
    assert str(info.value) == str(invalid(match))
    with pytest.raises(InvalidHand) as info:
        check_bidding(spades([], players=["Ann"]), {"bids": [3, 4]})
    assert info.value.hand_index is None


def test_bidding_that_passed_fails_score_match_only_for_tricks():
    match = spades([GOOD])
    bidding = {"bids": ["blind_nil", 6]}
    check_bidding(match, bidding)
    bidding["tricks"] = [1, 11]
    error = invalid(spades([GOOD, bidding]))
    assert error.hand_index == 1
    assert "add up to 12" in str(error)
    bidding["tricks"] = [1, 12]
    assert score_match(spades([GOOD, bidding]))["hands"][1]["points"] == [-200, 66]


# ------------------------------------------------------------ preview_hand "why"


def test_preview_made_with_bags():
    preview = preview_hand(spades([]), hand([4, 5], [6, 7]))
    assert preview["hand"]["points"] == [42, 52]
    assert preview["hand"]["totals"] == [42, 52]
    assert preview["hand"]["why"][0] == "bid 4, took 6: 40 + 2 bags"
    assert preview["hand"]["why"][1] == "bid 5, took 7: 50 + 2 bags"
    assert preview["finished"] is False
    assert preview["winners"] == []


def test_preview_exact_and_one_bag():
    why = preview_hand(spades([]), hand([6, 6], [6, 7]))["hand"]["why"]
    assert why[0].startswith("bid 6, took 6: 60")
    assert "bag" not in why[0]
    assert why[1].startswith("bid 6, took 7: 60 + 1 bag")


def test_preview_set_nil_and_blind_nil():
    why = preview_hand(spades([]), hand([5, 0], [13, 0]))["hand"]["why"]
    assert why[0].startswith("bid 5, took 13: 50 + 8 bags")
    assert "Nil" in why[1] and "+100" in why[1]
    why = preview_hand(spades([]), hand(["blind_nil", 13], [1, 12]))["hand"]["why"]
    assert "Blind Nil" in why[0] and "-200" in why[0]
    assert "bid 13, took 12" in why[1] and "-130" in why[1]


def test_preview_bag_penalty_note():
    match = spades([hand([0, 5], [0, 13])])  # Bob: 8 bags
    preview = preview_hand(match, hand(["blind_nil", 9], [1, 12]))
    assert preview["hand"]["points"] == [-200, -7]
    assert preview["hand"]["totals"] == [-100, 51]
    assert preview["hand"]["bag_penalty"] == [0, -100]
    assert preview["hand"]["why"][1].startswith("bid 9, took 12: 90 + 3 bags")
    assert "10 bags reached: -100" in preview["hand"]["why"][1]
    assert "bags reached" not in preview["hand"]["why"][0]
    # the match itself is not changed
    assert len(match["hands"]) == 1


def test_preview_finishing_hand():
    match = spades([hand([5, 5], [7, 6]), hand([5, 5], [6, 7])], options={"target": 100})
    preview = preview_hand(match, hand([4, 6], [5, 8]))
    assert preview["hand"]["totals"] == [144, 165]
    assert preview["finished"] is True
    assert preview["winners"] == [1]


def test_preview_invalid_hand_raises_like_score_match():
    with pytest.raises(InvalidHand) as info:
        preview_hand(spades([GOOD]), hand([3, 4], [6, 6]))
    assert info.value.hand_index == 1
    assert "add up to 12" in str(info.value)


def test_score_match_has_no_why():
    row = score_match(spades([GOOD]))["hands"][0]
    assert set(row) == {"points", "totals", "bags", "bag_penalty"}
