"""Draw Bridge (RULES.md section 3). Expected numbers come from the rules text."""

import pytest

from scorekeeper.scoring import InvalidHand, check_bidding, entry_hints, get_game, preview_hand, score_match

PLAYERS = ["Ann", "Bob"]


def match(hands, options=None):
    m = {"game": "drawbridge", "players": list(PLAYERS), "hands": hands}
    if options is not None:
        m["options"] = options
    return m


def contract(declarer, level, strain, tricks, double=None):
    hand = {"declarer": declarer, "level": level, "strain": strain, "tricks": tricks}
    if double is not None:
        hand["double"] = double
    return hand


def raises(m, hand_index):
    with pytest.raises(InvalidHand) as info:
        score_match(m)
    assert info.value.hand_index == hand_index
    return str(info.value)


def why(hands, hand, options=None):
    return preview_hand(match(hands, options), hand)["hand"]["why"]


# ------------------------------------------------------------ worked examples


def test_d1_3nt_made_exactly():
    result = score_match(match([{"declarer": 0, "level": 3, "strain": "NT", "tricks": 9}]))
    assert result["hands"][0] == {"points": [100, 0], "totals": [100, 0], "made": True}
    assert result["next_hand"] == {"number": 2, "dealer": 1, "first_bidder": 1, "leader": 0}
    assert result["finished"] is False
    assert result["winners"] == []


def test_d2_doubled_with_overtricks():
    result = score_match(match([{"declarer": 1, "level": 4, "strain": "S", "double": "double", "tricks": 11}]))
    assert result["hands"][0]["points"] == [0, 300]
    assert result["hands"][0]["made"] is True


def test_d3_redoubled_and_set():
    result = score_match(match([{"declarer": 0, "level": 2, "strain": "H", "double": "redouble", "tricks": 7}]))
    assert result["hands"][0]["points"] == [0, 200]
    assert result["hands"][0]["made"] is False


def test_d4_passed_out_then_minor_suit_part_score():
    result = score_match(match([{"passed_out": True}, {"declarer": 1, "level": 1, "strain": "C", "tricks": 8}]))
    assert result["hands"][0] == {"points": [0, 0], "totals": [0, 0], "made": None}
    assert result["hands"][1] == {"points": [0, 40], "totals": [0, 40], "made": True}
    assert result["next_hand"] == {"number": 3, "dealer": 0, "first_bidder": 0, "leader": 1}


def test_d5_reaching_the_target():
    hands = [{"declarer": 0, "level": 6, "strain": "NT", "double": "double", "tricks": 12}]
    result = score_match(match(hands, {"target": 200}))
    assert result["hands"][0]["points"] == [380, 0]
    assert result["finished"] is True
    assert result["winners"] == [0]
    assert result["next_hand"] is None


def test_d6_level_8():
    raises(match([{"declarer": 0, "level": 8, "strain": "S", "tricks": 13}]), 0)


def test_d6_declarer_2():
    raises(match([{"declarer": 2, "level": 1, "strain": "S", "tricks": 7}]), 0)


def test_d6_passed_out_with_a_level():
    raises(match([{"passed_out": True, "level": 1}]), 0)


# ------------------------------------------------------------ scoring rows


@pytest.mark.parametrize(
    ("level", "strain", "tricks", "expected"),
    [
        (1, "C", 7, 20),  # clubs exactly: 1 x 20
        (2, "C", 10, 80),  # clubs with overtricks: 4 x 20
        (3, "D", 9, 60),  # diamonds exactly: 3 x 20
        (3, "D", 11, 100),  # diamonds with overtricks: 5 x 20
        (4, "H", 10, 120),  # hearts exactly: 4 x 30
        (2, "H", 10, 120),  # hearts with overtricks: 4 x 30
        (4, "S", 10, 120),  # spades exactly: 4 x 30
        (1, "S", 9, 90),  # spades with overtricks: 3 x 30
        (7, "S", 13, 210),  # grand slam in spades: 7 x 30, no bonus
        (1, "NT", 7, 40),  # no trump, one odd trick
        (3, "NT", 10, 130),  # no trump, 40 + 3 x 30
        (7, "NT", 13, 220),  # no trump, 40 + 6 x 30, no bonus
        (1, "NT", 10, 130),  # overtricks at no trump count 30 each
    ],
)
def test_made_contracts(level, strain, tricks, expected):
    for declarer in (0, 1):
        result = score_match(match([contract(declarer, level, strain, tricks)]))
        row = result["hands"][0]
        points = [0, 0]
        points[declarer] = expected
        assert row["points"] == points
        assert row["made"] is True


@pytest.mark.parametrize(
    ("level", "strain", "tricks", "double", "expected"),
    [
        (2, "H", 8, "double", 120),  # 2 x 30 x 2
        (2, "H", 8, "none", 60),  # "none" is the same as leaving it out
        (3, "C", 10, "double", 160),  # 4 x 20 x 2, overtricks doubled too
        (1, "NT", 7, "redouble", 160),  # 40 x 4
        (3, "C", 10, "redouble", 320),  # 4 x 20 x 4
        (3, "NT", 9, "redouble", 400),  # (40 + 2 x 30) x 4
    ],
)
def test_doubled_and_redoubled_made(level, strain, tricks, double, expected):
    row = score_match(match([contract(0, level, strain, tricks, double)]))["hands"][0]
    assert row["points"] == [expected, 0]
    assert row["made"] is True


@pytest.mark.parametrize(
    ("level", "strain", "tricks", "double", "expected"),
    [
        (4, "S", 9, None, 50),  # 1 down x 50
        (4, "S", 8, "none", 100),  # 2 down x 50
        (4, "S", 9, "double", 100),  # doubled: 100, 200, 300 for 1, 2, 3 down (linear)
        (4, "S", 8, "double", 200),
        (3, "NT", 6, "double", 300),
        (2, "H", 7, "redouble", 200),  # 1 down x 50 x 4
        (2, "H", 5, "redouble", 600),  # 3 down x 50 x 4
        (7, "NT", 0, None, 650),  # 13 down x 50
        (1, "C", 6, None, 50),  # one trick short of the lowest contract
    ],
)
def test_set_contracts(level, strain, tricks, double, expected):
    row = score_match(match([contract(1, level, strain, tricks, double)]))["hands"][0]
    assert row["points"] == [expected, 0]  # Bob declared, so Ann defends and scores
    assert row["made"] is False


def test_undertrick_points_zero_a_set_contract_scores_nothing():
    hands = [contract(0, 4, "S", 8, "double"), contract(1, 3, "NT", 5)]
    result = score_match(match(hands, {"undertrick_points": 0}))
    assert [row["points"] for row in result["hands"]] == [[0, 0], [0, 0]]
    assert [row["made"] for row in result["hands"]] == [False, False]
    assert result["totals"] == [0, 0]


def test_undertrick_points_zero_does_not_change_made_contracts():
    result = score_match(match([contract(0, 3, "NT", 9)], {"undertrick_points": 0}))
    assert result["hands"][0]["points"] == [100, 0]


def test_custom_undertrick_points():
    hands = [contract(0, 4, "S", 8), contract(0, 4, "S", 8, "double"), contract(1, 2, "H", 7, "redouble")]
    result = score_match(match(hands, {"undertrick_points": 30}))
    # 2 x 30; 2 x 30 x 2; 1 x 30 x 4
    assert [row["points"] for row in result["hands"]] == [[0, 60], [0, 120], [120, 0]]
    assert result["totals"] == [120, 180]


def test_stock_face_up_changes_nothing():
    hands = [contract(0, 3, "NT", 9), contract(1, 4, "S", 8, "double")]
    plain = score_match(match(hands))
    face_up = score_match(match(hands, {"stock_face_up": True}))
    assert face_up == plain
    assert plain["totals"] == [300, 0]  # 100 + 2 down x 50 x 2


def test_running_totals():
    hands = [contract(0, 3, "NT", 9), contract(1, 4, "H", 10), {"passed_out": True}, contract(1, 2, "S", 6)]
    result = score_match(match(hands))
    assert [row["points"] for row in result["hands"]] == [[100, 0], [0, 120], [0, 0], [100, 0]]
    assert [row["totals"] for row in result["hands"]] == [[100, 0], [100, 120], [100, 120], [200, 120]]
    assert result["totals"] == [200, 120]


# ------------------------------------------------------------ passed out and rotation


def test_no_hands():
    result = score_match(match([]))
    assert result == {
        "hands": [],
        "totals": [0, 0],
        "finished": False,
        "winners": [],
        "next_hand": {"number": 1, "dealer": 0, "first_bidder": 0, "leader": 1},
    }


def test_passed_out_scores_nothing_and_the_deal_passes():
    result = score_match(match([{"passed_out": True}]))
    assert result["hands"][0] == {"points": [0, 0], "totals": [0, 0], "made": None}
    assert result["next_hand"] == {"number": 2, "dealer": 1, "first_bidder": 1, "leader": 0}


def test_rotation_across_several_hands_with_passed_out_hands():
    hands = [
        contract(0, 1, "C", 7),
        {"passed_out": True},
        {"passed_out": True},
        contract(1, 2, "D", 8),
        {"passed_out": True},
    ]
    for count in range(len(hands) + 1):
        result = score_match(match(hands[:count]))
        dealer = count % 2
        assert result["next_hand"] == {
            "number": count + 1,
            "dealer": dealer,
            "first_bidder": dealer,
            "leader": 1 - dealer,
        }


# ------------------------------------------------------------ end of game


def test_not_finished_just_below_the_target():
    result = score_match(match([contract(0, 3, "NT", 10)], {"target": 131}))  # 130
    assert result["finished"] is False
    assert result["next_hand"]["number"] == 2


def test_target_reached_exactly_over_several_hands():
    hands = [contract(0, 3, "NT", 9), contract(1, 4, "S", 10), contract(0, 3, "NT", 9)]
    result = score_match(match(hands, {"target": 200}))
    assert result["totals"] == [200, 120]
    assert result["finished"] is True
    assert result["winners"] == [0]
    assert result["next_hand"] is None


def test_defender_can_reach_the_target_with_undertricks():
    result = score_match(match([contract(0, 7, "NT", 3, "double")], {"target": 500}))  # 10 down x 50 x 2
    assert result["hands"][0]["points"] == [0, 1000]
    assert result["finished"] is True
    assert result["winners"] == [1]


def test_default_target_is_500():
    hands = [contract(0, 7, "NT", 13)] * 2  # 220 each
    assert score_match(match(hands))["finished"] is False
    result = score_match(match([*hands, contract(0, 1, "NT", 8)]))  # 440 + 70
    assert result["totals"] == [510, 0]
    assert result["finished"] is True
    assert result["winners"] == [0]


def test_hand_after_the_game_is_over():
    hands = [contract(0, 6, "NT", 12, "double"), {"passed_out": True}]
    message = raises(match(hands, {"target": 200}), 1)
    assert message.startswith("Hand 2: ")
    assert "already over" in message


# ------------------------------------------------------------ hand validation

GOOD = contract(0, 3, "NT", 9)


@pytest.mark.parametrize(
    ("hand", "mentions"),
    [
        ({"level": 3, "strain": "NT", "tricks": 9}, '"declarer"'),
        ({"declarer": 0, "strain": "NT", "tricks": 9}, '"level"'),
        ({"declarer": 0, "level": 3, "tricks": 9}, '"strain"'),
        ({"declarer": 0, "level": 3, "strain": "NT"}, '"tricks"'),
        ({}, '"passed_out"'),
        ({**GOOD, "bonus": 50}, '"bonus"'),
        ({**GOOD, "vulnerable": True}, '"vulnerable"'),
        # a missing key is reported before an unknown one
        ({"declarer": 0, "level": 3, "strain": "NT", "trick": 9}, '"tricks"'),
    ],
)
def test_missing_and_unknown_keys(hand, mentions):
    message = raises(match([GOOD, hand]), 1)
    assert message.startswith("Hand 2: ")
    assert mentions in message


@pytest.mark.parametrize(
    ("changes", "mentions", "got"),
    [
        ({"level": True}, "level", "got true"),
        ({"level": 3.0}, "level", "got 3.0"),
        ({"level": "3"}, "level", 'got "3"'),
        ({"level": None}, "level", "got nothing"),
        ({"level": 0}, "level", "got 0"),
        ({"level": 8}, "level", "got 8"),
        ({"level": -1}, "level", "got -1"),
        ({"declarer": True}, "declarer", "got true"),
        ({"declarer": 0.0}, "declarer", "got 0.0"),
        ({"declarer": "Ann"}, "declarer", 'got "Ann"'),
        ({"declarer": 2}, "declarer", "got 2"),
        ({"declarer": -1}, "declarer", "got -1"),
        ({"tricks": True}, "tricks", "got true"),
        ({"tricks": 9.0}, "tricks", "got 9.0"),
        ({"tricks": "9"}, "tricks", 'got "9"'),
        ({"tricks": 14}, "tricks", "got 14"),
        ({"tricks": -1}, "tricks", "got -1"),
        ({"strain": "X"}, "strain", 'got "X"'),
        ({"strain": "nt"}, "strain", 'got "nt"'),
        ({"strain": "♠"}, "strain", 'got "♠"'),
        ({"strain": 4}, "strain", "got 4"),
        ({"double": "doubled"}, "double", 'got "doubled"'),
        ({"double": True}, "double", "got true"),
        ({"double": None}, "double", "got nothing"),
        ({"double": "x"}, "double", 'got "x"'),
    ],
)
def test_bad_values(changes, mentions, got):
    message = raises(match([GOOD, {**GOOD, **changes}]), 1)
    assert message.startswith("Hand 2: ")
    assert mentions in message
    assert message.endswith(got)


def test_messages_in_plain_words():
    assert raises(match([contract(0, 8, "S", 13)]), 0) == "Hand 1: the level must be 1 to 7, got 8"
    assert raises(match([contract(0, 3, "S", 14)]), 0) == "Hand 1: Ann's tricks must be 0 to 13, got 14"
    assert raises(match([contract(1, 3, "S", -2)]), 0) == "Hand 1: Bob's tricks must be 0 to 13, got -2"
    message = raises(match([contract(2, 1, "S", 7)]), 0)
    assert message == "Hand 1: the declarer must be 0 (Ann) or 1 (Bob), got 2"


def test_types_are_checked_before_ranges():
    # the declarer is out of range, but the level's wrong type is reported first
    message = raises(match([contract(5, True, "S", 7)]), 0)
    assert "level" in message
    assert "got true" in message
    # an out-of-range declarer does not stop the tricks message from making sense
    message = raises(match([contract(5, 1, "S", 7.0)]), 0)
    assert message == "Hand 1: the declarer's tricks must be 0 to 13, got 7.0"


def test_passed_out_false_is_an_error():
    message = raises(match([GOOD, {"passed_out": False}]), 1)
    assert message.startswith("Hand 2: ")
    assert "passed_out" in message
    assert "false" in message


def test_passed_out_not_a_bool():
    message = raises(match([{"passed_out": "yes"}]), 0)
    assert "passed_out" in message
    assert 'got "yes"' in message
    message = raises(match([{"passed_out": 1}]), 0)
    assert "got 1" in message


@pytest.mark.parametrize(
    ("hand", "mentions"),
    [
        ({"passed_out": True, "level": 1}, '"level"'),
        ({"passed_out": True, "tricks": 0}, '"tricks"'),
        ({"passed_out": True, "double": "none"}, '"double"'),
        ({"passed_out": False, **GOOD}, '"declarer"'),
    ],
)
def test_passed_out_with_other_keys(hand, mentions):
    message = raises(match([GOOD, GOOD, hand]), 2)
    assert message.startswith("Hand 3: ")
    assert "passed_out" in message
    assert mentions in message


def test_the_first_bad_hand_is_reported():
    hands = [GOOD, contract(0, 9, "S", 7), contract(3, 1, "S", 7)]
    assert raises(match(hands), 1).startswith("Hand 2: the level")


def test_hand_not_a_dict():
    raises(match([GOOD, ["declarer", 0]]), 1)


# ------------------------------------------------------------ options


@pytest.mark.parametrize(
    ("options", "mentions"),
    [
        ({"bags": True}, "bags"),
        ({"failed_nil_bags": True}, "failed_nil_bags"),  # a Spades option
        ({"target": 0}, "target"),
        ({"target": True}, "target"),
        ({"target": 500.0}, "target"),
        ({"undertrick_points": -1}, "undertrick_points"),
        ({"undertrick_points": "50"}, "undertrick_points"),
        ({"stock_face_up": "yes"}, "stock_face_up"),
        ({"stock_face_up": 1}, "stock_face_up"),
    ],
)
def test_option_errors(options, mentions):
    message = raises(match([GOOD], options), None)
    assert mentions in message


def test_options_none_means_defaults():
    assert score_match(match([contract(0, 4, "S", 9)], None))["hands"][0]["points"] == [0, 50]
    m = {"game": "drawbridge", "players": PLAYERS, "options": None, "hands": [contract(0, 4, "S", 9)]}
    assert score_match(m)["hands"][0]["points"] == [0, 50]


def test_wrong_number_of_players():
    m = {"game": "drawbridge", "players": ["Ann", "Bob", "Cy"], "hands": []}
    raises(m, None)


# ------------------------------------------------------------ bidding before play


@pytest.mark.parametrize(
    "bidding",
    [
        {"declarer": 0, "level": 3, "strain": "NT"},
        {"declarer": 1, "level": 7, "strain": "C", "double": "redouble"},
        {"declarer": 1, "level": 1, "strain": "D", "double": "none"},
        {"passed_out": True},
    ],
)
def test_legal_bidding(bidding):
    assert check_bidding(match([GOOD, {"passed_out": True}]), bidding) is None


def bidding_error(m, bidding, hand_index):
    with pytest.raises(InvalidHand) as info:
        check_bidding(m, bidding)
    assert info.value.hand_index == hand_index
    return str(info.value)


@pytest.mark.parametrize(
    ("bidding", "mentions"),
    [
        ({"declarer": 0, "level": 3, "strain": "NT", "tricks": 9}, '"tricks"'),  # tricks come after play
        ({"declarer": 0, "level": 3}, '"strain"'),
        ({"declarer": 0, "level": 8, "strain": "NT"}, "level"),
        ({"declarer": 0, "level": True, "strain": "NT"}, "level"),
        ({"declarer": 2, "level": 3, "strain": "NT"}, "declarer"),
        ({"declarer": 0, "level": 3, "strain": "Z"}, "strain"),
        ({"declarer": 0, "level": 3, "strain": "NT", "double": "triple"}, "double"),
        ({"passed_out": False}, "passed_out"),
        ({"passed_out": True, "tricks": 0}, '"tricks"'),
        ({}, '"passed_out"'),
        ({"bids": [1, 2]}, '"declarer"'),
    ],
)
def test_illegal_bidding(bidding, mentions):
    message = bidding_error(match([GOOD]), bidding, 1)
    assert message.startswith("Hand 2: ")
    assert mentions in message


def test_bidding_not_a_dict():
    bidding_error(match([]), [0, 3, "NT"], 0)


def test_bidding_after_the_game_is_over():
    m = match([contract(0, 6, "NT", 12, "double")], {"target": 200})
    message = bidding_error(m, {"declarer": 0, "level": 1, "strain": "C"}, 1)
    assert "already over" in message


def test_bidding_checks_the_match_first():
    m = match([GOOD, contract(0, 3, "NT", 14)])
    bidding_error(m, {"declarer": 0, "level": 1, "strain": "C"}, 1)
    bidding_error(match([GOOD], {"target": 0}), {"passed_out": True}, None)


def test_bidding_then_tricks_fails_only_on_tricks():
    bidding = {"declarer": 1, "level": 4, "strain": "H", "double": "double"}
    m = match([GOOD])
    check_bidding(m, bidding)
    message = raises(match([GOOD, {**bidding, "tricks": 14}]), 1)
    assert message == "Hand 2: Bob's tricks must be 0 to 13, got 14"
    result = score_match(match([GOOD, {**bidding, "tricks": 10}]))
    assert result["hands"][1]["points"] == [0, 240]


# ------------------------------------------------------------ why lines


def test_why_d1_no_trump():
    assert why([], contract(0, 3, "NT", 9)) == ["3NT, 9 tricks: 40 + 2 x 30 = 100", "defending: 0"]


def test_why_d2_doubled_with_overtricks():
    hand = contract(1, 4, "S", 11, "double")
    assert why([], hand) == ["defending: 0", "4♠ doubled, 11 tricks: 5 over six x 30 x 2 = 300"]


def test_why_set_doubled():
    hand = contract(0, 4, "S", 8, "double")
    assert why([], hand) == ["4♠ doubled set by 2: 0", "2 down x 50 x 2 = 200"]


def test_why_set_plain():
    assert why([], contract(1, 4, "S", 8)) == ["2 down x 50 = 100", "4♠ set by 2: 0"]


def test_why_d3_redoubled_set():
    hand = contract(0, 2, "H", 7, "redouble")
    assert why([], hand) == ["2♥ redoubled set by 1: 0", "1 down x 50 x 4 = 200"]


def test_why_set_with_custom_undertrick_points():
    assert why([], contract(0, 1, "D", 5), {"undertrick_points": 0}) == ["1♦ set by 2: 0", "2 down x 0 = 0"]


def test_why_minor_suit():
    assert why([], contract(1, 1, "C", 8)) == ["defending: 0", "1♣, 8 tricks: 2 over six x 20 = 40"]


def test_why_no_trump_one_odd_trick():
    assert why([], contract(0, 1, "NT", 7)) == ["1NT, 7 tricks: 40", "defending: 0"]
    assert why([], contract(0, 1, "NT", 7, "double")) == ["1NT doubled, 7 tricks: 40 x 2 = 80", "defending: 0"]


def test_why_d5_no_trump_doubled():
    preview = preview_hand(match([], {"target": 200}), contract(0, 6, "NT", 12, "double"))
    assert preview["hand"]["why"] == ["6NT doubled, 12 tricks: (40 + 5 x 30) x 2 = 380", "defending: 0"]
    assert preview["hand"]["points"] == [380, 0]
    assert preview["finished"] is True
    assert preview["winners"] == [0]


def test_why_passed_out():
    preview = preview_hand(match([GOOD]), {"passed_out": True})
    assert preview["hand"]["why"] == ["passed out: 0", "passed out: 0"]
    assert preview["hand"]["made"] is None
    assert preview["hand"]["totals"] == [100, 0]


def test_preview_of_a_bad_hand_raises():
    with pytest.raises(InvalidHand) as info:
        preview_hand(match([GOOD]), contract(0, 3, "NT", 14))
    assert info.value.hand_index == 1


def test_score_match_has_no_why():
    assert "why" not in score_match(match([GOOD]))["hands"][0]


# ------------------------------------------------------------ hints and spec


def test_hints():
    assert entry_hints(match([])) == {"tricks_total": 13}
    assert entry_hints(match([]), {"declarer": 0, "level": 4, "strain": "S"}) == {"tricks_total": 13, "need": 10}
    assert entry_hints(match([]), {"level": 7}) == {"tricks_total": 13, "need": 13}
    assert entry_hints(match([]), {"level": 8}) == {"tricks_total": 13}
    assert entry_hints(match([]), {"level": True}) == {"tricks_total": 13}
    assert entry_hints(match([]), {"level": "3"}) == {"tricks_total": 13}
    assert entry_hints(match([]), {"passed_out": True}) == {"tricks_total": 13}
    assert entry_hints(match([contract(0, 6, "NT", 12, "double")], {"target": 200})) == {}


def test_spec():
    spec = get_game("drawbridge").spec
    assert spec.id == "drawbridge"
    assert spec.name == "Draw Bridge"
    assert (spec.min_players, spec.max_players) == (2, 2)
    assert spec.has_bidding is True
    assert spec.detail_keys == ("made",)
    options = {o.name: o for o in spec.options}
    assert set(options) == {"target", "undertrick_points", "stock_face_up"}
    assert (options["target"].kind, options["target"].default, options["target"].minimum) == ("int", 500, 1)
    undertricks = options["undertrick_points"]
    assert (undertricks.kind, undertricks.default, undertricks.minimum) == ("int", 50, 0)
    assert "100, 200, 300" in undertricks.help
    assert (options["stock_face_up"].kind, options["stock_face_up"].default) == ("bool", False)
    for option in spec.options:
        assert option.label and option.help
    fields = {f.name: f for f in spec.hand_fields}
    assert list(fields) == ["passed_out", "declarer", "level", "strain", "double", "tricks"]
    assert [f.name for f in spec.bidding_fields] == ["passed_out", "declarer", "level", "strain", "double"]
    assert fields["passed_out"].kind == "bool" and fields["passed_out"].required is False
    assert fields["passed_out"].omit_if_false is True
    assert fields["declarer"].kind == "player"
    assert (fields["level"].minimum, fields["level"].maximum) == (1, 7)
    assert [c for c, _ in fields["strain"].choices] == ["C", "D", "H", "S", "NT"]
    assert dict(fields["strain"].choices)["C"] == "♣ clubs"
    assert [c for c, _ in fields["double"].choices] == ["none", "double", "redouble"]
    assert fields["double"].required is False
    assert (fields["tricks"].phase, fields["tricks"].minimum, fields["tricks"].maximum) == ("play", 0, 13)
