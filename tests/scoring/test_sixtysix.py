"""Sixty-Six (RULES.md section 4): worked examples, the game-point table,
end of game, rotation and every validation error."""

from __future__ import annotations

import json

import pytest

from scorekeeper.scoring import InvalidHand, check_bidding, entry_hints, get_game, preview_hand, score_match

PLAYERS = ["Ann", "Bob"]


def match(*hands, **options):
    result = {"game": "sixtysix", "players": PLAYERS, "hands": list(hands)}
    if options:
        result["options"] = options
    return result


def out(player, points, took=True):
    return {"end": "out", "player": player, "points": points, "opponent_took_trick": took}


def closed(player, points, took=True, at_close=True, **extra):
    hand = {
        "end": "closed",
        "player": player,
        "points": points,
        "opponent_took_trick": took,
        "opponent_trick_at_close": at_close,
    }
    hand.update(extra)
    return hand


def played_out(player, points, took=True):
    return {"end": "played_out", "player": player, "points": points, "opponent_took_trick": took}


def one(hand, **options):
    """The scored row of a single hand."""
    return score_match(match(hand, **options))["hands"][0]


# A valid first hand, so the bad hand under test is hand 2 (index 1).
FIRST = out(0, [71, 38])


def error(hand, **options) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        score_match(match(FIRST, hand, **options))
    assert info.value.hand_index == 1
    message = str(info.value)
    assert message.startswith("Hand 2: ")
    return message


def why(hand, *before, **options):
    return preview_hand(match(*before, **options), hand)["hand"]["why"]


# ------------------------------------------------------- worked examples 4.7


def test_x1_out_opponent_33_or_more():
    result = score_match(match({"end": "out", "player": 0, "points": [71, 38], "opponent_took_trick": True}))
    assert result["hands"][0] == {"points": [1, 0], "totals": [1, 0], "winner": 0}
    assert result["next_hand"] == {"number": 2, "dealer": 1, "leader": 0}
    assert result["totals"] == [1, 0]
    assert result["finished"] is False
    assert result["winners"] == []


def test_x2_out_opponent_under_33():
    row = one({"end": "out", "player": 1, "points": [25, 66], "opponent_took_trick": True})
    assert row["points"] == [0, 2]
    assert row["winner"] == 1


def test_x3_out_opponent_without_a_trick():
    row = one({"end": "out", "player": 0, "points": [82, 0], "opponent_took_trick": False})
    assert row["points"] == [3, 0]
    assert row["winner"] == 0


def test_x4_false_claim():
    row = one({"end": "out", "player": 0, "points": [58, 40], "opponent_took_trick": True})
    assert row["points"] == [0, 2]
    assert row["winner"] == 1


def test_x5_closer_falls_short_opponent_had_no_trick_at_close():
    row = one(
        {
            "end": "closed",
            "player": 1,
            "points": [34, 51],
            "opponent_took_trick": True,
            "opponent_trick_at_close": False,
        }
    )
    assert row["points"] == [3, 0]
    assert row["winner"] == 0


def test_x6_played_out_and_a_drawn_deal():
    result = score_match(
        match(
            {"end": "played_out", "player": 0, "points": [75, 55], "opponent_took_trick": True},
            {"end": "played_out", "player": 1, "points": [65, 65], "opponent_took_trick": True},
        )
    )
    assert result["hands"][0] == {"points": [1, 0], "totals": [1, 0], "winner": 0}
    assert result["hands"][1] == {"points": [0, 0], "totals": [1, 0], "winner": None}
    assert result["next_hand"] == {"number": 3, "dealer": 0, "leader": 1}
    json.dumps(result)  # null winner and all: JSON-serialisable


# ------------------------------------------------------- game points, 4.3


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        (out(0, [66, 33]), [1, 0]),  # exactly 33 is "33 or more"
        (out(0, [66, 32]), [2, 0]),  # 32 is under 33
        (out(1, [0, 66], took=False), [0, 3]),
        (out(1, [40, 90]), [0, 1]),
    ],
)
def test_out_scale(hand, points):
    row = one(hand)
    assert row["points"] == points
    assert row["winner"] == points.index(max(points))


def test_false_claim_opponent_with_a_trick_wins_2():
    row = one(out(1, [50, 65]))
    assert row["points"] == [2, 0]
    assert row["winner"] == 0


def test_false_claim_opponent_without_a_trick_wins_3():
    row = one(out(1, [0, 60], took=False))
    assert row["points"] == [3, 0]
    assert row["winner"] == 0


def test_false_claim_scores_2_even_if_the_opponent_is_under_33():
    # The false-claim row is 2 or 3, not the scale: 10 card points still give 2.
    assert one(out(0, [40, 10]))["points"] == [0, 2]


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        (closed(0, [70, 40]), [1, 0]),
        (closed(0, [70, 20]), [2, 0]),
        (closed(0, [70, 0], took=False, at_close=False), [3, 0]),
        # A successful closer is scored on the final tricks, not those at the close.
        (closed(0, [66, 40], took=True, at_close=False), [1, 0]),
        (closed(1, [35, 80], opponent_claimed=False), [0, 1]),
    ],
)
def test_closer_goes_out_on_the_scale(hand, points):
    row = one(hand)
    assert row["points"] == points
    assert row["winner"] == points.index(max(points))


def test_closer_falls_short_opponent_had_a_trick_at_close_wins_2():
    row = one(closed(1, [40, 50], at_close=True))
    assert row["points"] == [2, 0]
    assert row["winner"] == 0


def test_closer_falls_short_opponent_had_no_trick_at_close_wins_3():
    row = one(closed(0, [60, 20], took=True, at_close=False))
    assert row["points"] == [0, 3]
    assert row["winner"] == 1


def test_closer_falls_short_with_opponent_under_33_still_2():
    # Not the scale: 2 because the opponent had a trick at the close.
    assert one(closed(0, [50, 10]))["points"] == [0, 2]


def test_opponent_claimed_after_close_wins_2():
    row = one(closed(0, [50, 66], opponent_claimed=True))
    assert row["points"] == [0, 2]
    assert row["winner"] == 1


def test_opponent_claimed_after_close_without_trick_at_close_wins_3():
    row = one(closed(0, [40, 70], took=True, at_close=False, opponent_claimed=True))
    assert row["points"] == [0, 3]
    assert row["winner"] == 1


def test_opponent_claimed_beats_a_closer_with_66():
    # opponent_claimed true: the opponent wins even if the closer also has 66.
    row = one(closed(1, [70, 66], opponent_claimed=True))
    assert row["points"] == [2, 0]
    assert row["winner"] == 0


def test_played_out_winner_is_player():
    row = one(played_out(0, [75, 55]))
    assert row["points"] == [1, 0]
    assert row["winner"] == 0


def test_played_out_loser_not_player_under_33():
    assert one(played_out(0, [110, 20]))["points"] == [2, 0]


def test_played_out_loser_not_player_without_a_trick():
    row = one(played_out(1, [0, 150], took=False))
    assert row["points"] == [0, 3]
    assert row["winner"] == 1


def test_played_out_loser_is_player_took_the_last_trick():
    # Bob won the last trick, so he took a trick: 2 (under 33), never 3.
    row = one(played_out(1, [120, 10]))
    assert row["points"] == [2, 0]
    assert row["winner"] == 0


def test_played_out_loser_is_player_33_or_more():
    row = one(played_out(1, [80, 50]))
    assert row["points"] == [1, 0]
    assert row["winner"] == 0


def test_played_out_draw_nobody_scores():
    row = one(played_out(0, [115, 115]))
    assert row["points"] == [0, 0]
    assert row["winner"] is None


# ------------------------------------------------- end of game and rotation


def test_no_hands():
    result = score_match(match())
    assert result == {
        "hands": [],
        "totals": [0, 0],
        "finished": False,
        "winners": [],
        "next_hand": {"number": 1, "dealer": 0, "leader": 1},
    }


def test_default_target_is_7():
    # 3 + 3 = 6 is not yet 7; one more point wins.
    hands = [out(0, [82, 0], took=False), out(0, [82, 0], took=False)]
    result = score_match(match(*hands))
    assert result["totals"] == [6, 0]
    assert result["finished"] is False
    result = score_match(match(*hands, out(1, [40, 70])))
    assert result["totals"] == [6, 1]
    assert result["finished"] is False
    result = score_match(match(*hands, out(0, [71, 38])))
    assert result["totals"] == [7, 0]
    assert result["finished"] is True
    assert result["winners"] == [0]
    assert result["next_hand"] is None


def test_custom_target_reached_exactly():
    result = score_match(match(out(1, [25, 66]), out(0, [71, 38]), out(1, [40, 70]), target=3))
    assert [row["totals"] for row in result["hands"]] == [[0, 2], [1, 2], [1, 3]]
    assert result["finished"] is True
    assert result["winners"] == [1]
    assert result["next_hand"] is None


def test_custom_target_passed():
    result = score_match(match(out(0, [30, 50]), out(0, [82, 0], took=False), target=4))
    assert result["totals"] == [3, 2]
    assert result["finished"] is False
    result = score_match(match(out(0, [30, 50]), out(1, [0, 82], took=False), target=4))
    assert result["totals"] == [0, 5]
    assert result["finished"] is True
    assert result["winners"] == [1]


def test_target_1_ends_after_first_won_deal():
    result = score_match(match(played_out(0, [65, 65]), out(0, [71, 38]), target=1))
    assert result["finished"] is True
    assert result["winners"] == [0]


def test_hand_after_the_game_is_over():
    with pytest.raises(InvalidHand) as info:
        score_match(match(out(0, [71, 38]), out(1, [40, 70]), target=1))
    assert info.value.hand_index == 1
    assert str(info.value).startswith("Hand 2: ")
    assert "already over" in str(info.value)


def test_dealer_alternates_every_deal_including_draws():
    hands = []
    expected = [(0, 1), (1, 0), (0, 1), (1, 0), (0, 1)]
    for number, (dealer, leader) in enumerate(expected, start=1):
        assert score_match(match(*hands))["next_hand"] == {"number": number, "dealer": dealer, "leader": leader}
        hands.append(played_out(number % 2, [65, 65]))  # every deal drawn: the deal still passes


def test_dealer_after_a_drawn_deal():
    result = score_match(match(played_out(0, [65, 65])))
    assert result["hands"][0]["winner"] is None
    assert result["next_hand"] == {"number": 2, "dealer": 1, "leader": 0}


# ------------------------------------------------------------ keys


def test_missing_key():
    hand = out(0, [71, 38])
    del hand["points"]
    message = error(hand)
    assert message == 'Hand 2: the hand needs "points"'


def test_missing_end():
    hand = out(0, [71, 38])
    del hand["end"]
    assert error(hand) == 'Hand 2: the hand needs "end"'


def test_closed_needs_opponent_trick_at_close():
    hand = closed(0, [70, 40])
    del hand["opponent_trick_at_close"]
    assert error(hand) == 'Hand 2: the hand needs "opponent_trick_at_close"'


def test_closed_opponent_claimed_is_optional():
    hand = closed(0, [70, 40])
    assert "opponent_claimed" not in hand
    assert one(hand)["points"] == [1, 0]


def test_unknown_key():
    hand = out(0, [71, 38])
    hand["tricks"] = [3, 3]
    message = error(hand)
    assert "unknown" in message
    assert '"tricks"' in message


def test_missing_reported_before_unknown():
    hand = out(0, [71, 38])
    del hand["player"]
    hand["tricks"] = [3, 3]
    assert error(hand) == 'Hand 2: the hand needs "player"'


@pytest.mark.parametrize("end", ["out", "played_out"])
@pytest.mark.parametrize("key", ["opponent_trick_at_close", "opponent_claimed"])
def test_closed_only_keys_not_allowed_otherwise(end, key):
    hand = {"end": end, "player": 0, "points": [75, 55], "opponent_took_trick": True, key: False}
    message = error(hand)
    assert f'"{key}"' in message
    assert "closed" in message


# ------------------------------------------------------------ types


@pytest.mark.parametrize("end", ["shut", "Out", 1, None, True])
def test_unknown_end(end):
    message = error({"end": end, "player": 0, "points": [71, 38], "opponent_took_trick": True})
    assert "end" in message
    assert '"out", "closed", "played_out"' in message


def test_unknown_end_is_reported_before_closed_only_keys():
    hand = {"end": "shut", "player": 0, "points": [71, 38], "opponent_took_trick": True, "opponent_claimed": True}
    message = error(hand)
    assert 'got "shut"' in message


@pytest.mark.parametrize(("value", "shown"), [(True, "true"), ("0", '"0"'), (0.0, "0.0"), (None, "nothing")])
def test_player_must_be_an_int(value, shown):
    message = error(out(value, [71, 38]))
    assert "player" in message
    assert message.endswith(f"got {shown}")


@pytest.mark.parametrize("value", [2, -1])
def test_player_out_of_range(value):
    message = error(out(value, [71, 38]))
    assert "0 or 1" in message
    assert message.endswith(f"got {value}")


def test_points_not_a_list():
    message = error(out(0, (71, 38)))
    assert "list" in message


@pytest.mark.parametrize("points", [[71], [71, 38, 0]])
def test_points_wrong_length(points):
    message = error(out(0, points))
    assert "one per player" in message


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ([True, 38], "Hand 2: Ann's card points must be a whole number 0 to 230, got true"),
        ([71, 38.0], "Hand 2: Bob's card points must be a whole number 0 to 230, got 38.0"),
        ([71, "38"], 'Hand 2: Bob\'s card points must be a whole number 0 to 230, got "38"'),
    ],
)
def test_points_must_be_ints(points, expected):
    assert error(out(0, points)) == expected


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ([240, 0], "Hand 2: Ann's card points must be 0 to 230, got 240"),
        ([71, -1], "Hand 2: Bob's card points must be 0 to 230, got -1"),
    ],
)
def test_points_out_of_range(points, expected):
    assert error(out(0, points)) == expected


@pytest.mark.parametrize(("value", "shown"), [(1, "1"), ("true", '"true"'), (None, "nothing")])
def test_opponent_took_trick_must_be_bool(value, shown):
    message = error(out(0, [71, 38], took=value))
    assert message == f'Hand 2: "opponent_took_trick" must be true or false, got {shown}'


def test_opponent_trick_at_close_must_be_bool():
    message = error(closed(0, [70, 40], at_close=0))
    assert message == 'Hand 2: "opponent_trick_at_close" must be true or false, got 0'


def test_opponent_claimed_must_be_bool():
    message = error(closed(0, [50, 70], opponent_claimed="yes"))
    assert message == 'Hand 2: "opponent_claimed" must be true or false, got "yes"'


def test_types_are_checked_before_ranges():
    # Ann's 240 is out of range, but Bob's "x" is the wrong type: types first.
    assert "Bob's card points must be a whole number" in error(out(0, [240, "x"]))
    # player 5 is out of range, the bool is the wrong type: types first.
    assert '"opponent_took_trick"' in error(out(5, [71, 38], took=1))


def test_ranges_are_checked_before_sums():
    message = error(out(0, [231, 38]))
    assert message == "Hand 2: Ann's card points must be 0 to 230, got 231"


# ------------------------------------------------------------ cross checks


def test_sum_over_230():
    message = error(out(0, [150, 90]))
    assert "240" in message
    assert "230" in message


def test_sum_230_is_allowed_when_out():
    # The last-trick 10 can be in an "out" total when the claim follows trick 12.
    assert one(out(0, [200, 30]))["points"] == [2, 0]


def test_sum_over_220_after_close():
    message = error(closed(0, [150, 75]))
    assert "225" in message
    assert "220" in message


def test_sum_220_is_allowed_after_close():
    assert one(closed(0, [180, 40]))["points"] == [1, 0]


def test_opponent_claimed_needs_66():
    message = error(closed(0, [50, 65], opponent_claimed=True))
    assert message == "Hand 2: Bob claimed 66, so Bob's card points must be 66 or more, got 65"


def test_opponent_claimed_false_needs_nothing():
    assert one(closed(0, [50, 40], opponent_claimed=False))["points"] == [0, 2]


def test_no_trick_but_points():
    message = error(out(0, [71, 12], took=False))
    assert message == "Hand 2: Bob took no trick, so Bob's card points must be 0, got 12"


def test_no_trick_but_points_names_the_other_player():
    message = error(out(1, [5, 70], took=False))
    assert message == "Hand 2: Ann took no trick, so Ann's card points must be 0, got 5"


def test_trick_at_close_but_no_trick():
    message = error(closed(1, [0, 70], took=False, at_close=True))
    assert "Ann" in message
    assert "closed" in message
    assert '"opponent_took_trick"' in message


def test_played_out_player_needs_10():
    message = error(played_out(1, [130, 0]))
    assert message == "Hand 2: Bob won the last trick, so Bob's card points must be at least 10, got 0"


@pytest.mark.parametrize("points", [[75, 50], [70, 65], [100, 35], [120, 0], [100, 100]])
def test_played_out_total_must_be_130_plus_marriages(points):
    message = error(played_out(0, points, took=points[1] != 0))
    assert str(sum(points)) in message
    assert "130" in message


@pytest.mark.parametrize("total", [130, 150, 170, 190, 210, 230])
def test_played_out_totals_allowed(total):
    assert one(played_out(0, [total - 40, 40]))["winner"] == 0


def test_first_bad_hand_is_reported():
    with pytest.raises(InvalidHand) as info:
        score_match(match(out(0, [71, 38]), out(0, [71, 38]), out(0, [240, 0]), out(0, [300, 0])))
    assert info.value.hand_index == 2
    assert str(info.value).startswith("Hand 3: ")


def test_hand_must_be_a_dict():
    with pytest.raises(InvalidHand) as info:
        score_match(match(out(0, [71, 38]), ["out", 0]))
    assert info.value.hand_index == 1


# ------------------------------------------------------------ options, players


@pytest.mark.parametrize("target", [0, -3, True, "7", 7.0, None])
def test_bad_target(target):
    with pytest.raises(InvalidHand) as info:
        score_match(match(out(0, [71, 38]), target=target))
    assert info.value.hand_index is None
    assert '"target"' in str(info.value)


def test_option_of_another_game():
    with pytest.raises(InvalidHand) as info:
        score_match(match(failed_nil_bags=True))
    assert info.value.hand_index is None
    assert "failed_nil_bags" in str(info.value)


def test_options_none_takes_defaults():
    data = match(out(0, [82, 0], took=False))
    data["options"] = None
    assert score_match(data)["finished"] is False


@pytest.mark.parametrize("players", [["Ann"], ["Ann", "Bob", "Cy"]])
def test_exactly_two_players(players):
    data = match()
    data["players"] = players
    with pytest.raises(InvalidHand) as info:
        score_match(data)
    assert info.value.hand_index is None
    assert "exactly 2" in str(info.value)


# ------------------------------------------------------------ no bidding (1.4)


@pytest.mark.parametrize("bidding", [{}, {"bids": [1, 2]}, {"end": "out"}])
def test_any_bidding_is_an_error(bidding):
    with pytest.raises(InvalidHand) as info:
        check_bidding(match(), bidding)
    assert info.value.hand_index == 0
    assert str(info.value).startswith("Hand 1: ")
    assert "no bidding" in str(info.value)


def test_bidding_error_index_is_number_of_hands():
    with pytest.raises(InvalidHand) as info:
        check_bidding(match(out(0, [71, 38]), played_out(1, [65, 65])), {})
    assert info.value.hand_index == 2
    assert str(info.value).startswith("Hand 3: ")


def test_bidding_after_the_game_is_over():
    with pytest.raises(InvalidHand) as info:
        check_bidding(match(out(0, [71, 38]), target=1), {})
    assert info.value.hand_index == 1
    assert "already over" in str(info.value)


def test_bidding_with_a_bad_match_reports_the_match():
    with pytest.raises(InvalidHand) as info:
        check_bidding(match(out(0, [71, 38]), out(0, [71, 12], took=False)), {})
    assert info.value.hand_index == 1
    assert "took no trick" in str(info.value)


# ------------------------------------------------------------ why lines


def test_why_out():
    assert why(out(0, [71, 38])) == ["went out with 71; Bob has 38 (33 or more): 1", "lost the deal: 0"]
    assert why(out(1, [25, 66])) == ["lost the deal: 0", "went out with 66; Ann has 25 (under 33): 2"]
    assert why(out(0, [82, 0], took=False)) == ["went out with 82; Bob took no trick: 3", "lost the deal: 0"]


def test_why_false_claim():
    assert why(out(0, [58, 40])) == ["lost the deal: 0", "false claim by Ann (58): Bob wins 2"]
    line = why(out(1, [0, 60], took=False))[0]
    assert line.startswith("false claim by Bob (60)")
    assert line.endswith(": 3")


def test_why_closed():
    x5 = closed(1, [34, 51], took=True, at_close=False)
    assert why(x5) == ["Bob closed and fell short; Ann had no trick at the close: 3", "lost the deal: 0"]
    assert why(closed(1, [40, 50])) == [
        "Bob closed and fell short; Ann had a trick at the close: 2",
        "lost the deal: 0",
    ]
    line = why(closed(0, [50, 70], opponent_claimed=True))[1]
    assert "Ann closed" in line
    assert "claimed 66" in line
    assert line.endswith(": 2")
    line = why(closed(0, [70, 20]))[0]
    assert "went out with 70" in line
    assert line.endswith("Bob has 20 (under 33): 2")


def test_why_played_out():
    line, loser = why(played_out(0, [75, 55]))
    assert "75" in line
    assert line.endswith("Bob has 55 (33 or more): 1")
    assert loser == "lost the deal: 0"
    assert why(played_out(1, [65, 65])) == ["drawn deal (65 - 65): 0", "drawn deal (65 - 65): 0"]


def test_preview_does_not_need_the_hand_to_end_the_game():
    preview = preview_hand(match(out(0, [82, 0], took=False), target=4), out(0, [71, 38]))
    assert preview["hand"]["points"] == [1, 0]
    assert preview["hand"]["totals"] == [4, 0]
    assert preview["hand"]["winner"] == 0
    assert preview["finished"] is True
    assert preview["winners"] == [0]


# ------------------------------------------------------------ spec


def test_spec():
    spec = get_game("sixtysix").spec
    assert spec.id == "sixtysix"
    assert spec.name == "Sixty-Six"
    assert (spec.min_players, spec.max_players) == (2, 2)
    assert spec.has_bidding is False
    assert spec.bidding_fields == ()
    assert spec.detail_keys == ("winner",)
    target = spec.option("target")
    assert (target.kind, target.default, target.minimum) == ("int", 7, 1)
    assert target.label and target.help
    fields = {f.name: f for f in spec.hand_fields}
    assert list(fields) == [
        "end",
        "player",
        "points",
        "opponent_took_trick",
        "opponent_trick_at_close",
        "opponent_claimed",
    ]
    assert all(f.phase == "play" for f in spec.hand_fields)
    assert fields["end"].kind == "choice"
    assert fields["end"].choices == (
        ("out", "Someone claimed 66"),
        ("closed", "Stock was closed"),
        ("played_out", "All cards played"),
    )
    assert fields["player"].kind == "player"
    points = fields["points"]
    assert (points.kind, points.per_player, points.minimum, points.maximum) == ("int", True, 0, 230)
    assert "marriage" in points.help.lower() and "last trick" in points.help.lower()
    assert fields["opponent_took_trick"].kind == "bool"
    assert fields["opponent_took_trick"].required is True
    for name in ("opponent_trick_at_close", "opponent_claimed"):
        assert fields[name].kind == "bool"
        assert fields[name].required is False
        assert "closed" in fields[name].help.lower()
        assert fields[name].when == ("end", ("closed",))
    assert fields["opponent_trick_at_close"].omit_if_false is False  # required for "closed": False is sent
    assert fields["opponent_claimed"].omit_if_false is True
    assert all(fields[name].when is None for name in ("end", "player", "points", "opponent_took_trick"))


def test_hints():
    hints = entry_hints(match(out(0, [71, 38])))
    assert hints["max_points"] == 230
    assert hints["max_points_closed"] == 220
    assert entry_hints(match(out(0, [71, 38]), target=1)) == {}
