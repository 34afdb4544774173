"""Spades for four, in partnerships, against RULES.md section 7 (with 1.5
and decisions 23-32).

Every expected number is the one RULES.md gives in its worked examples
(7.8) or worked out from the 7.3 tables by hand, never taken from the
engine's output.
"""

from __future__ import annotations

import json

import pytest

from scorekeeper.scoring import InvalidHand, check_bidding, entry_hints, get_game, preview_hand, score_match

FOUR = ["Ann", "Bob", "Cat", "Dan"]
SIDES = [[0, 2], [1, 3]]
P1 = [{"bids": [3, 4, 2, 4], "tricks": [6, 7]}]
P6 = [
    {"bids": [1, 4, 1, 4], "tricks": [11, 2]},
    {"bids": [1, 5, 0, 5], "tricks": [13, 0], "nil_tricks": [None, None, 1, None]},
]


def spades(hands, options=None, players=FOUR):
    match = {"game": "partnership_spades", "players": list(players), "hands": hands}
    if options is not None:
        match["options"] = options
    return match


def invalid(match) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        score_match(match)
    return info.value


def bidding_error(match, bidding) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        check_bidding(match, bidding)
    return info.value


def column(result, key):
    return [row[key] for row in result["hands"]]


# ------------------------------------------------------------ 7.8 worked examples


def test_p1_one_contract_made_with_an_overtrick_one_set():
    result = score_match(spades(P1))
    assert result["hands"] == [
        {
            "points": [51, -80],
            "totals": [51, -80],
            "contract": [5, 8],
            "made": [True, False],
            "nil_made": [None, None, None, None],
            "bags": [1, 0],
            "bag_penalty": [0, 0],
        }
    ]
    assert (result["finished"], result["winners"]) == (False, [])
    assert result["next_hand"] == {
        "number": 2,
        "dealer": 1,
        "first_bidder": 2,
        "leader": 2,
        "blind_nil_allowed": [False, True],
    }
    assert result["sides"] == SIDES


def test_p2_nil_made_then_nil_failed():
    hands = [
        {"bids": [0, 4, 5, 3], "tricks": [6, 7], "nil_tricks": [0, None, None, None]},
        {"bids": [4, 0, 3, 5], "tricks": [5, 8], "nil_tricks": [None, 2, None, None]},
    ]
    result = score_match(spades(hands))
    assert result["hands"][0] == {
        "points": [151, 70],
        "totals": [151, 70],
        "contract": [5, 7],
        "made": [True, True],
        "nil_made": [True, None, None, None],
        "bags": [1, 0],
        "bag_penalty": [0, 0],
    }
    assert result["hands"][1] == {
        "points": [-70, -47],
        "totals": [81, 23],
        "contract": [7, 5],
        "made": [False, True],
        "nil_made": [None, False, None, None],
        "bags": [1, 3],
        "bag_penalty": [0, 0],
    }
    assert result["next_hand"] == {
        "number": 3,
        "dealer": 2,
        "first_bidder": 3,
        "leader": 3,
        "blind_nil_allowed": [False, False],
    }


P3 = [{"bids": [0, 3, 4, 5], "tricks": [5, 8], "nil_tricks": [2, None, None, None]}]


@pytest.mark.parametrize(
    ("options", "points", "made", "bags"),
    [
        ({}, [-138, 80], [False, True], [2, 0]),
        ({"failed_nil_tricks": "bags"}, [-138, 80], [False, True], [2, 0]),
        ({"failed_nil_tricks": "contract"}, [-59, 80], [True, True], [1, 0]),
        ({"failed_nil_tricks": "none"}, [-140, 80], [False, True], [0, 0]),
    ],
)
def test_p3_one_failed_nil_under_each_failed_nil_tricks_value(options, points, made, bags):
    row = score_match(spades(P3, options))["hands"][0]
    assert (row["points"], row["made"], row["bags"]) == (points, made, bags)
    assert row["contract"] == [4, 8]
    assert row["nil_made"] == [False, None, None, None]


P4 = [
    {"bids": [4, 5, 4, 4], "tricks": [9, 4]},
    {"bids": [3, "blind_nil", 4, 5], "tricks": [6, 7], "nil_tricks": [None, 0, None, None]},
    {"bids": ["blind_nil", 4, 5, 4], "tricks": [7, 6], "nil_tricks": [1, None, None, None]},
]


def test_p4_blind_nil_allowed_when_100_behind_made_then_failed():
    result = score_match(spades(P4))
    first = result["hands"][0]
    assert (first["points"], first["totals"], first["bags"]) == ([81, -90], [81, -90], [1, 0])
    assert result["hands"][1] == {
        "points": [-70, 252],
        "totals": [11, 162],
        "contract": [7, 5],
        "made": [False, True],
        "nil_made": [None, True, None, None],
        "bags": [1, 2],
        "bag_penalty": [0, 0],
    }
    assert result["hands"][2] == {
        "points": [-148, -80],
        "totals": [-137, 82],
        "contract": [5, 8],
        "made": [True, False],
        "nil_made": [False, None, None, None],
        "bags": [3, 2],
        "bag_penalty": [0, 0],
    }
    assert result["next_hand"] == {
        "number": 4,
        "dealer": 3,
        "first_bidder": 0,
        "leader": 0,
        "blind_nil_allowed": [True, False],
    }


def test_p4_blind_nil_by_the_side_ahead_is_refused():
    hands = [P4[0], {"bids": ["blind_nil", 5, 4, 4], "tricks": [6, 7], "nil_tricks": [0, None, None, None]}]
    error = invalid(spades(hands))
    assert error.hand_index == 1
    assert str(error).startswith("Hand 2: Ann may not bid Blind Nil")
    assert "Ann & Cat" in str(error)


P5 = [
    {"bids": [0, 5, 0, 6], "tricks": [0, 13], "nil_tricks": [0, None, 0, None]},
    {"bids": [0, 5, 0, 6], "tricks": [1, 12], "nil_tricks": [0, None, 1, None]},
]


def test_p5_both_partners_bid_nil():
    result = score_match(spades(P5))
    assert result["hands"][0] == {
        "points": [200, 112],
        "totals": [200, 112],
        "contract": [0, 11],
        "made": [None, True],
        "nil_made": [True, None, True, None],
        "bags": [0, 2],
        "bag_penalty": [0, 0],
    }
    assert result["hands"][1] == {
        "points": [1, 111],
        "totals": [201, 223],
        "contract": [0, 11],
        "made": [None, True],
        "nil_made": [True, None, False, None],
        "bags": [1, 3],
        "bag_penalty": [0, 0],
    }


def test_p5_both_partners_nil_refused_when_the_option_is_off():
    error = invalid(spades(P5, {"partners_both_nil": False}))
    assert error.hand_index == 0
    assert "Ann & Cat" in str(error)


def test_p6_a_double_bag_penalty_one_bag_from_a_failed_nil():
    result = score_match(spades(P6))
    first = result["hands"][0]
    assert (first["points"], first["totals"], first["bags"]) == ([29, -80], [29, -80], [9, 0])
    assert result["hands"][1] == {
        "points": [-278, -100],
        "totals": [-249, -180],
        "contract": [1, 10],
        "made": [True, False],
        "nil_made": [None, None, False, None],
        "bags": [1, 0],
        "bag_penalty": [-200, 0],
    }
    assert result["finished"] is False
    assert result["next_hand"] == {
        "number": 3,
        "dealer": 2,
        "first_bidder": 3,
        "leader": 3,
        "blind_nil_allowed": [False, False],
    }


P7 = [
    {"bids": [3, 3, 3, 3], "tricks": [7, 6]},
    {"bids": [2, 2, 2, 2], "tricks": [6, 7]},
    {"bids": [3, 3, 3, 3], "tricks": [5, 8]},
]


def test_p7_both_past_the_target_on_the_same_hand():
    result = score_match(spades(P7, {"target": 100}))
    assert column(result, "points") == [[61, 60], [42, 43], [-60, 62]]
    assert column(result, "totals") == [[61, 60], [103, 103], [43, 165]]
    assert column(result, "bags") == [[1, 0], [3, 3], [3, 5]]
    assert (result["finished"], result["winners"], result["totals"], result["next_hand"]) == (
        True,
        [1],
        [43, 165],
        None,
    )


def test_p7_equal_at_or_above_the_target_plays_on():
    result = score_match(spades(P7[:2], {"target": 100}))
    assert (result["finished"], result["winners"]) == (False, [])
    assert result["next_hand"] == {
        "number": 3,
        "dealer": 2,
        "first_bidder": 3,
        "leader": 3,
        "blind_nil_allowed": [False, False],
    }


def test_p8_the_losing_score():
    result = score_match(spades(P6, {"losing_score": -200}))
    assert column(result, "totals") == [[29, -80], [-249, -180]]
    assert (result["finished"], result["winners"], result["next_hand"]) == (True, [1], None)
    error = invalid(spades([*P6, P1[0]], {"losing_score": -200}))
    assert error.hand_index == 2
    assert str(error) == "Hand 3: the game is already over"


# P9, one case at a time; the hand index is RULES.md's, the words only need to say what is wrong.
P9_HANDS = {
    "tricks add up to 12": ({"bids": [3, 4, 2, 4], "tricks": [6, 6]}, "tricks add up to 12, but 13 tricks are played"),
    "tricks are per side": ({"bids": [3, 4, 2, 4], "tricks": [3, 3, 3, 4]}, "one per side"),
    "nil_tricks needed": ({"bids": [0, 4, 5, 3], "tricks": [6, 7]}, "Ann bid Nil"),
    "nobody bid Nil": ({"bids": [3, 4, 2, 4], "tricks": [6, 7], "nil_tricks": [None] * 4}, "nobody bid Nil"),
    "Ann took 7 of 6": ({"bids": [0, 4, 5, 3], "tricks": [6, 7], "nil_tricks": [7, None, None, None]}, "Ann took 7"),
    "both Nil, 2 + 3 is not 6": (
        {"bids": [0, 4, 0, 3], "tricks": [6, 7], "nil_tricks": [2, None, 3, None]},
        "(2 + 3)",
    ),
    "0-0: nobody is 100 behind": (
        {"bids": ["blind_nil", 4, 5, 3], "tricks": [6, 7], "nil_tricks": [0, None, None, None]},
        "Ann may not bid Blind Nil",
    ),
}


@pytest.mark.parametrize(("hand", "words"), P9_HANDS.values(), ids=list(P9_HANDS))
def test_p9_hand_errors(hand, words):
    error = invalid(spades([hand]))
    assert error.hand_index == 0
    assert str(error).startswith("Hand 1: ")
    assert words in str(error)


def test_p9_three_players():
    assert invalid(spades([], players=["Ann", "Bob", "Cat"])).hand_index is None


def test_p9_two_player_spades_option_is_unknown():
    error = invalid(spades([], {"failed_nil_bags": True}))
    assert error.hand_index is None
    assert "failed_nil_bags" in str(error)


def test_p9_check_bidding_blind_nil():
    with pytest.raises(InvalidHand) as info:
        check_bidding(spades(P1), {"bids": ["blind_nil", 4, 5, 3]})
    assert info.value.hand_index == 1
    assert check_bidding(spades(P1), {"bids": [3, "blind_nil", 4, 5]}) is None


# ------------------------------------------------------------ the 7.3 tables, more cases


def test_a_side_makes_its_contract_exactly():
    row = score_match(spades([{"bids": [3, 4, 2, 4], "tricks": [5, 8]}]))["hands"][0]
    assert (row["points"], row["bags"], row["made"]) == ([50, 80], [0, 0], [True, True])


def test_a_contract_above_13_cannot_be_made():
    # decision 29: 7 + 7 = 14 is accepted and scores -140; Bob & Dan 1 + 1 = 2, took 0: -20.
    row = score_match(spades([{"bids": [7, 1, 7, 1], "tricks": [13, 0]}]))["hands"][0]
    assert (row["points"], row["contract"], row["made"]) == ([-140, -20], [14, 2], [False, False])


def test_13_made_has_no_bonus_and_two_blind_nils_score_separately():
    hand = {"bids": [7, "blind_nil", 6, 0], "tricks": [13, 0], "nil_tricks": [None, 0, None, 0]}
    row = score_match(spades([hand], {"blind_nil": "always"}))["hands"][0]
    assert row["points"] == [130, 300]
    assert row["contract"] == [13, 0]
    assert row["made"] == [True, None]
    assert row["nil_made"] == [None, True, None, True]


@pytest.mark.parametrize(
    ("rule", "points", "bags"),
    [("bags", [1, 111], [1, 3]), ("contract", [1, 111], [1, 3]), ("none", [0, 111], [0, 3])],
)
def test_both_nil_a_failed_ones_trick_under_each_rule(rule, points, bags):
    # decision 26: a bag under "bags" and "contract" (an overtrick of a 0 contract); nothing under "none".
    row = score_match(spades(P5, {"failed_nil_tricks": rule}))["hands"][1]
    assert (row["points"], row["bags"], row["made"]) == (points, bags, [None, True])


def test_failed_nil_bags_count_when_the_partner_is_set():
    # Ann's Nil fails with 3 tricks; Cat bid 6, the side took 5: K = 2 < 6: -60; +3, 3 bags.
    hand = {"bids": [0, 2, 6, 3], "tricks": [5, 8], "nil_tricks": [3, None, None, None]}
    row = score_match(spades([hand]))["hands"][0]
    assert (row["points"], row["bags"], row["made"]) == ([-100 - 60 + 3, 53], [3, 3], [False, True])


def test_bags_carry_per_side():
    hands = [{"bids": [2, 3, 2, 3], "tricks": [7, 6]}] * 3  # 3 bags and 0 bags a hand
    result = score_match(spades(hands))
    assert column(result, "bags") == [[3, 0], [6, 0], [9, 0]]
    assert column(result, "points") == [[43, 60]] * 3


# ------------------------------------------------------------ why-lines (preview_hand)


def why(hands, hand, options=None):
    return preview_hand(spades(hands, options), hand)["hand"]["why"]


def test_why_contracts():
    assert why([], P1[0]) == ["Ann & Cat bid 5, took 6: 50 + 1 bag", "Bob & Dan bid 8, took 7: set, -80"]
    exact = {"bids": [3, 4, 2, 4], "tricks": [5, 8]}
    assert why([], exact) == ["Ann & Cat bid 5, took 5: 50", "Bob & Dan bid 8, took 8: 80"]


def test_why_nils():
    p2 = [{"bids": [0, 4, 5, 3], "tricks": [6, 7], "nil_tricks": [0, None, None, None]}]
    second = {"bids": [4, 0, 3, 5], "tricks": [5, 8], "nil_tricks": [None, 2, None, None]}
    assert why(p2, second) == [
        "Ann & Cat bid 7, took 5: set, -70",
        "Bob & Dan bid 5, took 6: 50 + 1 bag; Bob's Nil failed (2 tricks): -100; failed Nil: 2 bags, +2",
    ]
    assert why(P4[:1], P4[1])[1] == "Bob & Dan bid 5, took 7: 50 + 2 bags; Bob's Blind Nil made: +200"
    assert why([], P5[0])[0] == "Ann & Cat both bid Nil: no contract; Ann's Nil made: +100; Cat's Nil made: +100"
    assert why(P5[:1], P5[1])[0] == (
        "Ann & Cat both bid Nil: no contract; Ann's Nil made: +100; Cat's Nil failed (1 trick): -100; "
        "failed Nil: 1 bag, +1"
    )


def test_why_bag_penalty():
    assert why(P6[:1], P6[1])[0] == (
        "Ann & Cat bid 1, took 12: 10 + 11 bags; Cat's Nil failed (1 trick): -100; failed Nil: 1 bag, +1; "
        "20 bags reached: -200"
    )


def test_why_failed_nil_tricks_towards_the_contract():
    assert why([], P3[0], {"failed_nil_tricks": "contract"})[0] == (
        "Ann & Cat bid 4, took 5: 40 + 1 bag; Ann's Nil failed (2 tricks): -100"
    )
    assert why([], P3[0], {"failed_nil_tricks": "none"})[0] == (
        "Ann & Cat bid 4, took 3: set, -40; Ann's Nil failed (2 tricks): -100"
    )


# ------------------------------------------------------------ the output, next_hand, hints, spec


def test_sides_also_with_no_hands():
    result = score_match(spades([]))
    assert result == {
        "hands": [],
        "totals": [0, 0],
        "finished": False,
        "winners": [],
        "next_hand": {"number": 1, "dealer": 0, "first_bidder": 1, "leader": 1, "blind_nil_allowed": [False, False]},
        "sides": SIDES,
    }
    assert json.loads(json.dumps(result)) == result


def test_the_deal_passes_to_the_left():
    hands = [{"bids": [1, 1, 1, 1], "tricks": [2, 11]}] * 5  # far below 500 all along
    assert [score_match(spades(hands[:k]))["next_hand"]["dealer"] for k in range(6)] == [0, 1, 2, 3, 0, 1]
    assert score_match(spades(hands[:3]))["next_hand"]["first_bidder"] == 0


@pytest.mark.parametrize(("rule", "allowed"), [("always", [True, True]), ("never", [False, False])])
def test_blind_nil_allowed_by_the_option(rule, allowed):
    assert score_match(spades(P1, {"blind_nil": rule}))["next_hand"]["blind_nil_allowed"] == allowed


def test_hints():
    assert entry_hints(spades(P1)) == {
        "max_bid": 13,
        "tricks_total": 13,
        "bags": [1, 0],
        "dealer": 1,
        "bidding_order": [2, 3, 0, 1],
        "blind_nil_allowed": [False, True],
        "blind_nil_seats": [1, 3],  # Bob and Dan, the side 131 behind
        "nil_bidders": [],
    }
    assert entry_hints(spades(P1), {"bids": [None, 0, "blind_nil", 3]})["nil_bidders"] == [1, 2]
    # only a real 0 or "blind_nil" is a Nil bid; a bidding of the wrong shape gives none
    assert entry_hints(spades(P1), {"bids": [False, 0.0, "0", 0]})["nil_bidders"] == [3]
    for junk in ({"bids": [0, 0]}, {"bids": "0"}, None, []):
        assert entry_hints(spades(P1), junk)["nil_bidders"] == []
    assert entry_hints(spades(P7, {"target": 100})) == {}  # finished


def test_spec():
    spec = get_game("partnership_spades").spec
    assert (spec.min_players, spec.max_players, spec.sides) == (4, 4, ((0, 2), (1, 3)))
    assert {o.name: o.default for o in spec.options} == {
        "target": 500,
        "failed_nil_tricks": "bags",
        "blind_nil": "behind_100",
        "partners_both_nil": True,
        "losing_score": None,
    }
    assert {f.name: (f.per_player, f.per_side, f.phase) for f in spec.hand_fields} == {
        "bids": (True, False, "bidding"),
        "tricks": (False, True, "play"),
        "nil_tricks": (True, False, "play"),
    }
    assert set(spec.detail_keys) == {"contract", "made", "nil_made", "bags", "bag_penalty"}
    assert set(spec.side_details) == {"contract", "made", "bags", "bag_penalty"}  # nil_made is per player
    assert [f.name for f in spec.bidding_fields] == ["bids"]
