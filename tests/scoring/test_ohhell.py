"""Oh Hell (RULES.md section 5). Expected numbers come from the RULES text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.scoring import InvalidHand, check_bidding, entry_hints, get_game, preview_hand, score_match
from scorekeeper.scoring.ohhell import SPEC, forbidden_bid, largest_hand, schedule, trumps_for

FOUR = ["Ann", "Bob", "Cat", "Dan"]
SEVEN = ["A", "B", "C", "D", "E", "F", "G"]

# RULES.md 5.1: the largest hand per number of players.
N = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}


def match(hands=(), players=FOUR, options=None):
    m = {"game": "ohhell", "players": list(players), "hands": list(hands)}
    if options is not None:
        m["options"] = options
    return m


def filler(cards, n):
    """A legal hand of ``cards`` cards: everyone bids 0, the first player takes every trick."""
    return {"bids": [0] * n, "tricks": [cards] + [0] * (n - 1)}


def up_hands(count, n=4):
    """The first ``count`` hands of an "up" schedule (1, 2, ... cards), all legal."""
    return [filler(c, n) for c in range(1, count + 1)]


def invalid(m):
    with pytest.raises(InvalidHand) as info:
        score_match(m)
    return info.value


def invalid_bidding(m, bidding):
    with pytest.raises(InvalidHand) as info:
        check_bidding(m, bidding)
    return info.value


# ------------------------------------------------------------ worked examples


def test_o1_first_hand():
    result = score_match(match([{"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]}]))
    assert result["hands"][0] == {
        "points": [10, 11, 10, 10],
        "totals": [10, 11, 10, 10],
        "cards": 1,
        "trumps": True,
        "made": [True, True, True, True],
    }
    assert result["next_hand"] == {"number": 2, "dealer": 1, "first_bidder": 2, "leader": 2, "cards": 2, "trumps": True}
    assert result["finished"] is False
    assert result["winners"] == []


def test_o2_the_hook():
    hands = [
        {"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]},
        {"bids": [1, 0, 1, 0], "tricks": [1, 0, 1, 0]},
    ]
    error = invalid(match(hands, options={"hook": True}))
    assert error.hand_index == 1
    assert str(error) == "Hand 2: the bids add up to 2 in a 2-card hand; Bob deals and may not bid 0 (the hook)"


def test_o3_scoring_variants():
    hands = [
        {"bids": [0, 0, 1, 0], "tricks": [0, 1, 0, 0]},
        {"bids": [2, 0, 0, 1], "tricks": [1, 0, 0, 1]},
    ]
    result = score_match(match(hands, options={"made_bid_score": "five_plus_cards", "miss_scores_tricks": True}))
    assert result["hands"][0]["cards"] == 1
    assert result["hands"][0]["points"] == [6, 1, 0, 6]
    assert result["hands"][1]["cards"] == 2
    assert result["hands"][1]["points"] == [1, 7, 7, 7]
    assert result["totals"] == [7, 8, 7, 13]


def test_o4_schedules_before_the_first_hand():
    six = score_match(match([], players=["A", "B", "C", "D", "E", "F"], options={"schedule": "down_up"}))
    assert six["next_hand"] == {"number": 1, "dealer": 0, "first_bidder": 1, "leader": 1, "cards": 8, "trumps": True}
    four = score_match(match([], players=["A", "B", "C", "D"], options={"schedule": "down"}))
    assert four["next_hand"] == {"number": 1, "dealer": 0, "first_bidder": 1, "leader": 1, "cards": 13, "trumps": False}
    five = score_match(match([], players=["A", "B", "C", "D", "E"], options={"schedule": "down"}))
    assert five["next_hand"] == {"number": 1, "dealer": 0, "first_bidder": 1, "leader": 1, "cards": 10, "trumps": False}
    for result in (six, four, five):
        assert result["hands"] == []
        assert result["totals"] == [0] * len(result["totals"])
        assert result["finished"] is False
    # "the final 1-card hand has trumps"
    assert trumps_for(5, "down")[-1] is True


O5_HANDS = [
    {"bids": [0, 0, 0, 0, 0, 0, 1], "tricks": [0, 0, 0, 0, 0, 0, 1]},
    {"bids": [1, 0, 0, 0, 0, 0, 0], "tricks": [1, 1, 0, 0, 0, 0, 0]},
    {"bids": [0, 1, 0, 1, 0, 0, 0], "tricks": [0, 1, 0, 1, 0, 1, 0]},
    {"bids": [1, 1, 1, 0, 0, 0, 0], "tricks": [1, 1, 1, 0, 0, 0, 1]},
    {"bids": [2, 0, 1, 1, 0, 0, 1], "tricks": [2, 0, 1, 1, 0, 0, 1]},
    {"bids": [1, 1, 1, 1, 1, 0, 1], "tricks": [1, 1, 1, 1, 1, 0, 1]},
    {"bids": [2, 1, 1, 1, 1, 0, 1], "tricks": [1, 2, 1, 1, 1, 0, 1]},
]


def test_o5_whole_seven_player_game_with_shared_win():
    result = score_match(match(O5_HANDS, players=SEVEN))
    assert [h["points"] for h in result["hands"]] == [
        [10, 10, 10, 10, 10, 10, 11],
        [11, 0, 10, 10, 10, 10, 10],
        [10, 11, 10, 11, 10, 0, 10],
        [11, 11, 11, 10, 10, 10, 0],
        [12, 10, 11, 11, 10, 10, 11],
        [11, 11, 11, 11, 11, 10, 11],
        [0, 0, 11, 11, 11, 10, 11],
    ]
    assert [h["cards"] for h in result["hands"]] == [1, 2, 3, 4, 5, 6, 7]
    assert [h["trumps"] for h in result["hands"]] == [True] * 6 + [False]
    assert result["totals"] == [65, 53, 74, 74, 72, 60, 64]
    assert result["hands"][-1]["totals"] == [65, 53, 74, 74, 72, 60, 64]
    assert result["finished"] is True
    assert result["winners"] == [2, 3]
    assert result["next_hand"] is None

    error = invalid(match([*O5_HANDS, filler(7, 7)], players=SEVEN))
    assert error.hand_index == 7
    assert str(error) == "Hand 8: the game is already over"


# ------------------------------------------------------------- the schedule


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_largest_hand(n):
    assert largest_hand(n) == N[n]


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_schedules_for_every_player_count(n):
    top = N[n]
    up = schedule(n, "up")
    assert (len(up), up[0], up[-1]) == (top, 1, top)
    assert up == list(range(1, top + 1))

    down = schedule(n, "down")
    assert (len(down), down[0], down[-1]) == (top, top, 1)
    assert down == list(range(top, 0, -1))

    up_down = schedule(n, "up_down")
    assert (len(up_down), up_down[0], up_down[-1]) == (2 * top - 1, 1, 1)
    assert up_down.count(top) == 1  # the peak once
    assert up_down[top - 1] == top

    down_up = schedule(n, "down_up")
    assert (len(down_up), down_up[0], down_up[-1]) == (2 * top - 1, top, top)
    assert down_up.count(1) == 1  # the 1-card hand once
    assert down_up[top - 1] == 1


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("name", ["up", "down", "up_down", "down_up"])
def test_game_length_follows_the_schedule(n, name):
    players = [f"P{i}" for i in range(n)]
    cards = schedule(n, name)
    hands = [filler(c, n) for c in cards]
    result = score_match(match(hands, players=players, options={"schedule": name}))
    assert result["finished"] is True
    assert result["next_hand"] is None
    assert [h["cards"] for h in result["hands"]] == cards
    not_finished = score_match(match(hands[:-1], players=players, options={"schedule": name}))
    assert not_finished["finished"] is False
    assert not_finished["next_hand"]["cards"] == cards[-1]


@pytest.mark.parametrize("n", [3, 5, 6, 7])
def test_trumps_without_a_whole_pack_deal(n):
    top = N[n]
    assert trumps_for(n, "up") == [True] * (top - 1) + [False]
    assert trumps_for(n, "down") == [False] + [True] * (top - 1)
    up_down = trumps_for(n, "up_down")
    assert up_down == [True] * (top - 1) + [False] + [True] * (top - 1)
    assert trumps_for(n, "down_up") == [True] * (2 * top - 2) + [False]


def test_trumps_with_four_players_and_the_whole_pack():
    # 4 x 13 = 52: the 13-card hand never has trumps.
    assert trumps_for(4, "up") == [True] * 12 + [False]
    assert trumps_for(4, "down") == [False] + [True] * 12
    assert trumps_for(4, "up_down") == [True] * 12 + [False] + [True] * 12
    assert trumps_for(4, "down_up") == [False] + [True] * 23 + [False]


def test_trumps_reported_per_hand_and_in_next_hand():
    hands = [filler(c, 4) for c in schedule(4, "down_up")]
    result = score_match(match(hands, options={"schedule": "down_up"}))
    trumps = [h["trumps"] for h in result["hands"]]
    assert trumps[0] is False and trumps[-1] is False
    assert all(trumps[1:-1])
    after_one = score_match(match(hands[:1], options={"schedule": "down_up"}))
    assert after_one["next_hand"]["cards"] == 12
    assert after_one["next_hand"]["trumps"] is True


# ------------------------------------------------------------------ rotation


def test_dealer_bidder_leader_rotation_over_more_hands_than_players():
    players = ["P0", "P1", "P2"]
    for k in range(8):
        result = score_match(match([filler(c, 3) for c in range(1, k + 1)], players=players))
        assert result["next_hand"] == {
            "number": k + 1,
            "dealer": k % 3,
            "first_bidder": (k + 1) % 3,
            "leader": (k + 1) % 3,
            "cards": k + 1,
            "trumps": True,
        }


def test_simultaneous_bidding_has_no_first_bidder():
    for k in range(6):
        result = score_match(match(up_hands(k), options={"simultaneous_bidding": True}))
        nh = result["next_hand"]
        assert nh["first_bidder"] is None
        assert nh["dealer"] == k % 4
        assert nh["leader"] == (k + 1) % 4


# ------------------------------------------------------------------- scoring

O3_HANDS = [
    {"bids": [0, 0, 1, 0], "tricks": [0, 1, 0, 0]},
    {"bids": [2, 0, 0, 1], "tricks": [1, 0, 0, 1]},
]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, [[10, 0, 0, 10], [0, 10, 10, 11]]),
        ({"made_bid_score": "ten_plus_tricks", "miss_scores_tricks": False}, [[10, 0, 0, 10], [0, 10, 10, 11]]),
        ({"made_bid_score": "five_plus_cards"}, [[6, 0, 0, 6], [0, 7, 7, 7]]),
        ({"miss_scores_tricks": True}, [[10, 1, 0, 10], [1, 10, 10, 11]]),
        ({"made_bid_score": "five_plus_cards", "miss_scores_tricks": True}, [[6, 1, 0, 6], [1, 7, 7, 7]]),
        ({"must_trump": True}, [[10, 0, 0, 10], [0, 10, 10, 11]]),
    ],
)
def test_scoring_variants_alone_and_combined(options, expected):
    result = score_match(match(O3_HANDS, options=options))
    assert [h["points"] for h in result["hands"]] == expected
    assert result["hands"][0]["made"] == [True, False, False, True]
    assert result["hands"][1]["made"] == [False, True, True, True]
    assert result["totals"] == [a + b for a, b in zip(*expected, strict=True)]


def test_five_plus_cards_is_cards_dealt_not_tricks():
    # RULES.md 6.18: bid 0, took 0 in a 7-card hand scores 12.
    hands = [filler(c, 7) for c in range(1, 7)]
    last = {"bids": [0, 7, 0, 0, 0, 0, 0], "tricks": [0, 7, 0, 0, 0, 0, 0]}
    result = score_match(match([*hands, last], players=SEVEN, options={"made_bid_score": "five_plus_cards"}))
    assert result["hands"][-1]["points"] == [12] * 7


def test_ties_share_the_win():
    # Three players, "up" from 1 to 15 cards; everyone makes every bid but the
    # last hand, where A misses, so B and C tie on top.
    players = ["A", "B", "C"]
    hands = []
    for c in range(1, 16):
        if c < 15:
            hands.append({"bids": [c, 0, 0], "tricks": [c, 0, 0]})
        else:
            hands.append({"bids": [1, 0, 0], "tricks": [15, 0, 0]})
    result = score_match(match(hands, players=players))
    assert result["finished"] is True
    # A: sum of (10 + c) for c = 1..14 = 140 + 105 = 245, then 0; B and C: 15 x 10 = 150.
    assert result["totals"] == [245, 150, 150]
    assert result["winners"] == [0]

    equal = [{"bids": [0, 0, 0], "tricks": [c, 0, 0]} for c in range(1, 16)]
    # A always misses (0), B and C always make 0 (10 each hand): B and C tie.
    result = score_match(match(equal, players=players))
    assert result["totals"] == [0, 150, 150]
    assert result["winners"] == [1, 2]


# --------------------------------------------------------------- the hook


def test_forbidden_bid_helper():
    assert forbidden_bid(2, [1, 0, 1]) == 0
    assert forbidden_bid(5, [1, 1, 1]) == 2
    assert forbidden_bid(3, [0, 0, 0]) == 3
    assert forbidden_bid(3, [2, 2, 0]) is None  # negative: anything goes
    assert forbidden_bid(2, [-2, 0]) is None  # above c: anything goes


def test_hook_dealer_legal_bid_accepted():
    hands = [
        {"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]},
        {"bids": [1, 1, 1, 0], "tricks": [1, 0, 1, 0]},  # bids total 3 in a 2-card hand
    ]
    result = score_match(match(hands, options={"hook": True}))
    assert result["hands"][1]["points"] == [11, 0, 11, 10]


def test_hook_message_names_the_dealer_and_the_bid():
    # Hand 4 (4 cards): Dan deals; the others bid 1 + 1 + 0 = 2, so Dan may not bid 2.
    hands = [*up_hands(3), {"bids": [1, 1, 0, 2], "tricks": [1, 1, 0, 2]}]
    error = invalid(match(hands, options={"hook": True}))
    assert error.hand_index == 3
    assert str(error) == "Hand 4: the bids add up to 4 in a 4-card hand; Dan deals and may not bid 2 (the hook)"


def test_hook_off_allows_bids_adding_up():
    hands = [{"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]}]
    assert score_match(match(hands))["totals"] == [10, 11, 10, 10]
    error = invalid(match(hands, options={"hook": True}))
    assert error.hand_index == 0
    assert "Ann deals and may not bid 0" in str(error)


@pytest.mark.parametrize("dealer_bid", [0, 1, 2])
def test_hook_others_over_the_cards_dealer_may_bid_anything(dealer_bid):
    # Hand 2 (2 cards), Bob deals; the others already bid 3 > 2.
    hands = [filler(1, 4), {"bids": [1, dealer_bid, 1, 1], "tricks": [1, 0, 1, 0]}]
    score_match(match(hands, options={"hook": True}))
    check_bidding(match(hands[:1], options={"hook": True}), {"bids": [1, dealer_bid, 1, 1]})


def test_hook_out_of_range_bid_reported_before_hook():
    # Hand 2 (2 cards): bids 3 + -1 + 0 + 0 = 2 would break the hook too.
    hands = [filler(1, 4), {"bids": [3, -1, 0, 0], "tricks": [2, 0, 0, 0]}]
    error = invalid(match(hands, options={"hook": True}))
    assert error.hand_index == 1
    assert str(error) == "Hand 2: Ann's bid must be 0 to 2, got 3"


def test_hook_tricks_sum_reported_before_hook():
    hands = [filler(1, 4), {"bids": [1, 0, 1, 0], "tricks": [1, 0, 0, 0]}]
    error = invalid(match(hands, options={"hook": True}))
    assert error.hand_index == 1
    assert str(error) == "Hand 2: tricks add up to 1, but 2 tricks are played"


def test_hook_with_simultaneous_bidding_is_an_options_error():
    error = invalid(match([], options={"hook": True, "simultaneous_bidding": True}))
    assert error.hand_index is None
    assert "hook" in str(error) and "simultaneous bidding" in str(error)
    # each alone is fine
    score_match(match([], options={"hook": True}))
    score_match(match([], options={"simultaneous_bidding": True}))


# ----------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "text"),
    [
        ({"schedule": "sideways"}, 'The option "schedule" must be one of'),
        ({"schedule": 1}, 'The option "schedule" must be one of'),
        ({"made_bid_score": "ten"}, 'The option "made_bid_score" must be one of'),
        ({"hook": 1}, 'The option "hook" must be true or false, got 1'),
        ({"miss_scores_tricks": "yes"}, 'The option "miss_scores_tricks" must be true or false, got "yes"'),
        ({"must_trump": None}, 'The option "must_trump" must be true or false, got nothing'),
        ({"target": 500}, 'Oh Hell has no option "target"'),
    ],
)
def test_option_errors(options, text):
    error = invalid(match([], options=options))
    assert error.hand_index is None
    assert text in str(error)


@pytest.mark.parametrize("n", [2, 8])
def test_player_count(n):
    error = invalid(match([], players=[f"P{i}" for i in range(n)]))
    assert error.hand_index is None
    assert str(error) == f"Oh Hell is for 3 to 7 players, got {n}"


def test_spec():
    assert SPEC.id == "ohhell"
    assert SPEC.name == "Oh Hell"
    assert (SPEC.min_players, SPEC.max_players) == (3, 7)
    assert get_game("ohhell").spec is SPEC
    defaults = {o.name: o.default for o in SPEC.options}
    assert defaults == {
        "schedule": "up",
        "hook": False,
        "made_bid_score": "ten_plus_tricks",
        "miss_scores_tricks": False,
        "simultaneous_bidding": False,
        "must_trump": False,
    }
    assert [c for c, _ in SPEC.option("schedule").choices] == ["up", "down", "up_down", "down_up"]
    assert [c for c, _ in SPEC.option("made_bid_score").choices] == ["ten_plus_tricks", "five_plus_cards"]
    assert all(o.label and o.help for o in SPEC.options)
    bids, tricks = SPEC.hand_fields
    assert (bids.name, bids.kind, bids.per_player, bids.phase, bids.minimum, bids.maximum) == (
        "bids",
        "int",
        True,
        "bidding",
        0,
        None,
    )
    assert (tricks.name, tricks.kind, tricks.per_player, tricks.phase, tricks.minimum, tricks.maximum) == (
        "tricks",
        "int",
        True,
        "play",
        0,
        None,
    )
    assert SPEC.bidding_fields == (bids,)
    assert SPEC.detail_keys == ("cards", "trumps", "made")
    assert SPEC.has_bidding is True


# -------------------------------------------------------------- validation

HAND2_OK = {"bids": [1, 0, 1, 1], "tricks": [1, 0, 1, 0]}


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ({"bids": [1, 0, 1, 1]}, 'the hand needs "tricks"'),
        ({"tricks": [1, 0, 1, 0]}, 'the hand needs "bids"'),
        ({}, 'the hand needs "bids", "tricks"'),
        ({**HAND2_OK, "points": [0, 0, 0, 0]}, 'the hand has unknown entry "points"'),
        ({**HAND2_OK, "dealer": 1, "cards": 2}, 'the hand has unknown entries "cards", "dealer"'),
        ({"bids": [True, 0, 1, 1], "tricks": [1, 0, 1, 0]}, "Ann's bid must be 0 to 2, got true"),
        ({"bids": [1, 0, 1, 1], "tricks": [1, False, 1, 0]}, "Bob's tricks must be 0 to 2, got false"),
        ({"bids": [1, 0, 1.0, 1], "tricks": [1, 0, 1, 0]}, "Cat's bid must be 0 to 2, got 1.0"),
        ({"bids": [1, 0, 1, 1], "tricks": [1, 0, 1, 0.0]}, "Dan's tricks must be 0 to 2, got 0.0"),
        ({"bids": [1, "0", 1, 1], "tricks": [1, 0, 1, 0]}, 'Bob\'s bid must be 0 to 2, got "0"'),
        ({"bids": [1, 0, 1, 1], "tricks": ["1", 0, 1, 0]}, 'Ann\'s tricks must be 0 to 2, got "1"'),
        ({"bids": [1, 0, 1, None], "tricks": [1, 0, 1, 0]}, "Dan's bid must be 0 to 2, got nothing"),
        ({"bids": [1, 0, 1], "tricks": [1, 0, 1, 0]}, "the bids must have 4 entries, one per player, got 3"),
        ({"bids": [1, 0, 1, 1], "tricks": [1, 0, 1, 0, 0]}, "the tricks must have 4 entries, one per player, got 5"),
        ({"bids": 4, "tricks": [1, 0, 1, 0]}, "the bids must be a list with one entry per player, got 4"),
        ({"bids": [1, 0, 1, 1], "tricks": "1010"}, 'the tricks must be a list with one entry per player, got "1010"'),
        ({"bids": [1, 0, 3, 1], "tricks": [1, 0, 1, 0]}, "Cat's bid must be 0 to 2, got 3"),
        ({"bids": [1, -1, 1, 1], "tricks": [1, 0, 1, 0]}, "Bob's bid must be 0 to 2, got -1"),
        ({"bids": [1, 0, 1, 1], "tricks": [0, 0, 3, 0]}, "Cat's tricks must be 0 to 2, got 3"),
        ({"bids": [1, 0, 1, 1], "tricks": [3, -1, 0, 0]}, "Ann's tricks must be 0 to 2, got 3"),
        ({"bids": [1, 0, 1, 1], "tricks": [1, 0, 0, 0]}, "tricks add up to 1, but 2 tricks are played"),
        ({"bids": [1, 0, 1, 1], "tricks": [1, 1, 1, 0]}, "tricks add up to 3, but 2 tricks are played"),
        # order: types before ranges, ranges before sums
        ({"bids": [9, 0, 1, 1], "tricks": [1, 0, 1, 0.5]}, "Dan's tricks must be 0 to 2, got 0.5"),
        ({"bids": [1, 0, 1, 1], "tricks": [9, 9, 9, 9]}, "Ann's tricks must be 0 to 2, got 9"),
        ({"bids": [1, 0, 1], "tricks": [1, 0, 1, "x"]}, "the bids must have 4 entries, one per player, got 3"),
        ({"bids": [1, 0, 1, 1], "points": 3}, 'the hand needs "tricks"'),
    ],
)
def test_validation_errors_in_the_second_hand(hand, message):
    error = invalid(match([filler(1, 4), hand]))
    assert error.hand_index == 1
    assert str(error) == f"Hand 2: {message}"


def test_the_second_hand_reference_is_legal():
    assert score_match(match([filler(1, 4), HAND2_OK]))["hands"][1]["points"] == [11, 10, 11, 0]


def test_tricks_not_adding_up_in_a_one_card_hand():
    error = invalid(match([{"bids": [0, 0, 0, 0], "tricks": [0, 0, 0, 0]}]))
    assert error.hand_index == 0
    assert str(error) == "Hand 1: tricks add up to 0, but 1 trick is played"


def test_ranges_follow_the_hand_size():
    # Hand 5 has 5 cards: a bid of 5 is fine there, but not in hand 4.
    legal = [*up_hands(4), {"bids": [5, 0, 0, 0], "tricks": [5, 0, 0, 0]}]
    assert score_match(match(legal))["hands"][4]["points"] == [15, 10, 10, 10]
    bad = [*up_hands(3), {"bids": [5, 0, 0, 0], "tricks": [4, 0, 0, 0]}]
    error = invalid(match(bad))
    assert error.hand_index == 3
    assert str(error) == "Hand 4: Ann's bid must be 0 to 4, got 5"


def test_first_bad_hand_is_reported():
    hands = [*up_hands(2), {"bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]}, "junk", {"bids": [9]}]
    error = invalid(match(hands))
    assert error.hand_index == 2
    assert str(error) == "Hand 3: tricks add up to 1, but 3 tricks are played"


def test_a_hand_must_be_a_dict():
    error = invalid(match([filler(1, 4), [0, 1, 0, 0]]))
    assert error.hand_index == 1
    assert str(error).startswith("Hand 2: a hand must be an object")


def test_hand_after_the_last_is_invalid():
    players = ["A", "B", "C", "D", "E", "F"]  # N = 8, "down" has 8 hands
    hands = [filler(c, 6) for c in schedule(6, "down")]
    assert score_match(match(hands, players=players, options={"schedule": "down"}))["finished"] is True
    error = invalid(match([*hands, filler(1, 6)], players=players, options={"schedule": "down"}))
    assert error.hand_index == 8
    assert str(error) == "Hand 9: the game is already over"


# ----------------------------------------------------------- check_bidding


def test_check_bidding_legal():
    assert check_bidding(match(), {"bids": [0, 1, 0, 0]}) is None
    assert check_bidding(match(up_hands(4)), {"bids": [5, 5, 5, 5]}) is None
    assert check_bidding(match(options={"simultaneous_bidding": True}), {"bids": [1, 1, 1, 1]}) is None


@pytest.mark.parametrize(
    ("bidding", "message"),
    [
        ({"bids": [1, 0, 1, 1], "tricks": [1, 0, 1, 0]}, 'the hand has unknown entry "tricks"'),
        ({}, 'the hand needs "bids"'),
        ({"bids": [1, 0, 1]}, "the bids must have 4 entries, one per player, got 3"),
        ({"bids": None}, "the bids must be a list with one entry per player, got nothing"),
        ({"bids": [1, 0, 3, 1]}, "Cat's bid must be 0 to 2, got 3"),
        ({"bids": [1, 0, True, 1]}, "Cat's bid must be 0 to 2, got true"),
        ({"bids": [1, 0, 1, 1.0]}, "Dan's bid must be 0 to 2, got 1.0"),
        ({"bids": [1, 0, 1, None]}, "Dan's bid must be 0 to 2, got nothing"),
        ([1, 0, 1, 1], "the bidding must be an object, got [1, 0, 1, 1]"),
    ],
)
def test_check_bidding_illegal(bidding, message):
    error = invalid_bidding(match([filler(1, 4)]), bidding)
    assert error.hand_index == 1
    assert str(error) == f"Hand 2: {message}"


def test_check_bidding_hook_same_message_as_score_match():
    first = [{"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]}]
    m = match(first, options={"hook": True})
    error = invalid_bidding(m, {"bids": [1, 0, 1, 0]})
    assert error.hand_index == 1
    assert str(error) == "Hand 2: the bids add up to 2 in a 2-card hand; Bob deals and may not bid 0 (the hook)"
    assert str(invalid(match([*first, {"bids": [1, 0, 1, 0], "tricks": [1, 0, 1, 0]}], options={"hook": True}))) == str(
        error
    )
    # Bob's other bids are legal
    assert check_bidding(m, {"bids": [1, 1, 1, 0]}) is None
    assert check_bidding(m, {"bids": [1, 2, 1, 0]}) is None
    # out of range before the hook
    error = invalid_bidding(m, {"bids": [3, 0, -1, 0]})
    assert str(error) == "Hand 2: Ann's bid must be 0 to 2, got 3"


def test_check_bidding_then_complete_the_hand():
    m = match([filler(1, 4)])
    bidding = {"bids": [1, 0, 1, 1]}
    check_bidding(m, bidding)
    result = score_match({**m, "hands": [*m["hands"], {**bidding, "tricks": [1, 0, 1, 0]}]})
    assert result["hands"][1]["points"] == [11, 10, 11, 0]
    error = invalid({**m, "hands": [*m["hands"], {**bidding, "tricks": [1, 0, 0, 0]}]})
    assert error.hand_index == 1


def test_check_bidding_after_game_over():
    error = invalid_bidding(match(O5_HANDS, players=SEVEN), {"bids": [0] * 7})
    assert error.hand_index == 7
    assert str(error) == "Hand 8: the game is already over"


def test_check_bidding_bad_match_reports_the_match_error():
    error = invalid_bidding(match([filler(1, 4), {"bids": [0]}]), {"bids": [0, 0, 0, 0]})
    assert error.hand_index == 1
    error = invalid_bidding(match(options={"hook": True, "simultaneous_bidding": True}), {"bids": [0, 0, 0, 0]})
    assert error.hand_index is None


# -------------------------------------------------------------------- hints


def test_hints_before_the_first_hand():
    assert entry_hints(match(options={"hook": True})) == {
        "cards": 1,
        "hands_total": 13,
        "trumps": True,
        "max_bid": 1,
        "tricks_total": 1,
        "hook": True,
        "dealer": 0,
        "bidding_order": [1, 2, 3, 0],
        "bid_total": None,
        "forbidden_bid": None,
    }


def test_hints_bidding_order_and_trumps():
    players = ["A", "B", "C", "D", "E"]
    hints = entry_hints(match([filler(c, 5) for c in (10, 9)], players=players, options={"schedule": "down"}))
    assert hints["cards"] == 8
    assert hints["max_bid"] == 8
    assert hints["tricks_total"] == 8
    assert hints["trumps"] is True
    assert hints["hook"] is False
    assert hints["dealer"] == 2
    assert hints["bidding_order"] == [3, 4, 0, 1, 2]
    first = entry_hints(match(players=players, options={"schedule": "down"}))
    assert first["cards"] == 10 and first["trumps"] is False


def test_hints_forbidden_bid_with_partial_bids():
    # Hand 2 (2 cards), Bob deals.
    m = match([filler(1, 4)], options={"hook": True})
    assert entry_hints(m, {"bids": [None, None, None, None]})["forbidden_bid"] is None
    partial = entry_hints(m, {"bids": [1, None, 1, None]})
    assert partial["forbidden_bid"] is None  # Dan has not bid yet
    assert partial["bid_total"] == 2
    ready = entry_hints(m, {"bids": [1, None, 1, 0]})
    assert ready["forbidden_bid"] == 0
    assert ready["bid_total"] == 2
    assert ready["dealer"] == 1
    assert entry_hints(m, {"bids": [0, None, 1, 0]})["forbidden_bid"] == 1
    assert entry_hints(m, {"bids": [0, None, 0, 0]})["forbidden_bid"] == 2
    # the dealer's own entry does not change the forbidden bid
    assert entry_hints(m, {"bids": [1, 2, 1, 0]})["forbidden_bid"] == 0
    assert entry_hints(m, {"bids": [1, 2, 1, 0]})["bid_total"] == 4
    # others over the cards: anything goes
    over = entry_hints(m, {"bids": [2, None, 1, 0]})
    assert over["forbidden_bid"] is None
    assert over["bid_total"] == 3


def test_hints_no_forbidden_bid_without_the_hook():
    m = match([filler(1, 4)])
    hints = entry_hints(m, {"bids": [1, None, 1, 0]})
    assert hints["hook"] is False
    assert hints["forbidden_bid"] is None
    assert hints["bid_total"] == 2


@pytest.mark.parametrize(
    "bidding",
    [
        None,
        {},
        "junk",
        42,
        [1, 0, 1, 0],
        {"bids": None},
        {"bids": "1010"},
        {"bids": [1, 0]},
        {"bids": [1, 0, 1, 0, 0]},
        {"bids": [True, "1", 1.5, None]},
        {"bids": [-1, None, 9, 0]},
        {"bids": [{}, [], None, 0]},
        {"tricks": [1, 0, 1, 0]},
        {"bids": [1, None, 1, 0], "tricks": "x"},
    ],
)
def test_hints_never_raise_on_junk(bidding):
    m = match([filler(1, 4)], options={"hook": True})
    hints = entry_hints(m, bidding)
    assert hints["cards"] == 2
    assert hints["dealer"] == 1
    assert hints["forbidden_bid"] in (None, 0)
    assert hints["bid_total"] is None or isinstance(hints["bid_total"], int)


def test_hints_after_the_game_is_over():
    assert entry_hints(match(O5_HANDS, players=SEVEN)) == {}


# ---------------------------------------------------------------- "why" lines


def test_why_lines_default_scoring():
    preview = preview_hand(match([filler(1, 4)]), {"bids": [2, 1, 0, 0], "tricks": [2, 0, 0, 0]})
    assert preview["hand"]["why"] == [
        "bid 2, took 2: 10 + 2 = 12",
        "bid 1, took 0: missed, 0",
        "bid 0, took 0: 10 + 0 = 10",
        "bid 0, took 0: 10 + 0 = 10",
    ]
    assert preview["hand"]["points"] == [12, 0, 10, 10]
    assert preview["hand"]["cards"] == 2
    assert preview["finished"] is False
    assert preview["winners"] == []


def test_why_lines_five_plus_cards_in_the_last_hand():
    hands = [filler(c, 7) for c in range(1, 7)]
    m = match(hands, players=SEVEN, options={"made_bid_score": "five_plus_cards"})
    preview = preview_hand(m, {"bids": [0, 1, 0, 0, 0, 0, 0], "tricks": [0, 7, 0, 0, 0, 0, 0]})
    assert preview["hand"]["why"][0] == "bid 0, took 0: 5 + 7 cards = 12"
    assert preview["hand"]["why"][1] == "bid 1, took 7: missed, 0"
    assert preview["hand"]["points"] == [12, 0, 12, 12, 12, 12, 12]
    assert preview["hand"]["trumps"] is False
    assert preview["finished"] is True
    # hands 1-6: A bid 0 and took every trick (0 each), the others made 0 (5 + c, c = 1..6: 30 + 21 = 51)
    assert preview["hand"]["totals"] == [12, 51, 63, 63, 63, 63, 63]
    assert preview["winners"] == [2, 3, 4, 5, 6]


def test_why_lines_miss_scores_tricks():
    m = match([filler(1, 4)], options={"miss_scores_tricks": True})
    preview = preview_hand(m, {"bids": [2, 1, 0, 0], "tricks": [1, 0, 1, 0]})
    assert preview["hand"]["why"] == [
        "bid 2, took 1: missed, 1 per trick = 1",
        "bid 1, took 0: missed, 1 per trick = 0",
        "bid 0, took 1: missed, 1 per trick = 1",
        "bid 0, took 0: 10 + 0 = 10",
    ]
    assert preview["hand"]["points"] == [1, 0, 1, 10]


def test_why_lines_both_variants():
    m = match(options={"made_bid_score": "five_plus_cards", "miss_scores_tricks": True})
    preview = preview_hand(m, {"bids": [0, 0, 1, 0], "tricks": [0, 1, 0, 0]})
    assert preview["hand"]["why"] == [
        "bid 0, took 0: 5 + 1 card = 6",
        "bid 0, took 1: missed, 1 per trick = 1",
        "bid 1, took 0: missed, 1 per trick = 0",
        "bid 0, took 0: 5 + 1 card = 6",
    ]


def test_preview_raises_like_score_match():
    with pytest.raises(InvalidHand) as info:
        preview_hand(match([filler(1, 4)]), {"bids": [1, 0, 1, 1], "tricks": [1, 0, 0, 0]})
    assert info.value.hand_index == 1
    assert str(info.value) == "Hand 2: tricks add up to 1, but 2 tricks are played"


def test_score_match_has_no_why():
    result = score_match(match([filler(1, 4)]))
    assert "why" not in result["hands"][0]


# --------------------------------------------------------------- property


@st.composite
def last_hand(draw):
    n = draw(st.integers(3, 7))
    name = draw(st.sampled_from(["up", "down", "up_down", "down_up"]))
    cards = schedule(n, name)
    k = draw(st.integers(0, len(cards) - 1))
    c = cards[k]
    hook = draw(st.booleans())
    bids = draw(st.lists(st.integers(0, c), min_size=n, max_size=n))
    if hook and sum(bids) == c:
        # make the dealer's bid legal: move it off the forbidden value
        dealer = k % n
        bids[dealer] = bids[dealer] + 1 if bids[dealer] < c else bids[dealer] - 1
    tricks = draw(st.lists(st.integers(0, c), min_size=n, max_size=n))
    return n, name, k, c, hook, bids, tricks


@given(last_hand())
def test_property_accepts_exactly_the_tricks_adding_up(case):
    n, name, k, c, hook, bids, tricks = case
    players = [f"P{i}" for i in range(n)]
    prefix = [filler(cards, n) for cards in schedule(n, name)[:k]]
    m = match([*prefix, {"bids": bids, "tricks": tricks}], players=players, options={"schedule": name, "hook": hook})
    check_bidding(match(prefix, players=players, options={"schedule": name, "hook": hook}), {"bids": bids})
    if sum(tricks) == c:
        result = score_match(m)
        row = result["hands"][k]
        assert row["cards"] == c
        assert row["made"] == [b == t for b, t in zip(bids, tricks, strict=True)]
        assert row["points"] == [10 + t if b == t else 0 for b, t in zip(bids, tricks, strict=True)]
        assert result["finished"] is (k == len(schedule(n, name)) - 1)
    else:
        with pytest.raises(InvalidHand) as info:
            score_match(m)
        assert info.value.hand_index == k
        assert str(info.value).startswith(f"Hand {k + 1}: tricks add up to {sum(tricks)}")
