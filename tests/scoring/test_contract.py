"""The contract common to every game: RULES.md 1.1-1.3, and the registry.

Inputs for the other games are taken from RULES.md's worked examples.
"""

from __future__ import annotations

import json

import pytest

from scorekeeper.scoring import GAMES, InvalidHand, Option, check_bidding, game_specs, preview_hand, score_match

ALL_GAMES = ["spades", "drawbridge", "sixtysix", "ohhell"]
TWO = ["Ann", "Bob"]
FOUR = ["Ann", "Bob", "Cat", "Dan"]
SEVEN = ["A", "B", "C", "D", "E", "F", "G"]

# One short legal match per game, from the worked examples (S1, D1, X1, O1),
# with the first hand's points as RULES.md gives them.
EXAMPLES = {
    "spades": (TWO, [{"bids": [7, 4], "tricks": [8, 5]}], [71, 41]),
    "drawbridge": (TWO, [{"declarer": 0, "level": 3, "strain": "NT", "tricks": 9}], [100, 0]),
    "sixtysix": (TWO, [{"end": "out", "player": 0, "points": [71, 38], "opponent_took_trick": True}], [1, 0]),
    "ohhell": (FOUR, [{"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]}], [10, 11, 10, 10]),
}

# Longer examples, for the JSON round trip: S3, D4, X6 and O5 (a finished game).
LONG_EXAMPLES = {
    "spades": (
        ["Bonnie", "Carl"],
        None,
        [
            {"bids": [4, 5], "tricks": [7, 6]},
            {"bids": [3, 6], "tricks": [6, 7]},
            {"bids": [4, 4], "tricks": [9, 4]},
            {"bids": [6, 7], "tricks": [4, 9]},
        ],
    ),
    "spades finished": (
        TWO,
        {"target": 100},
        [
            {"bids": [5, 5], "tricks": [7, 6]},
            {"bids": [5, 5], "tricks": [6, 7]},
            {"bids": [4, 6], "tricks": [5, 8]},
        ],
    ),
    "drawbridge": (TWO, None, [{"passed_out": True}, {"declarer": 1, "level": 1, "strain": "C", "tricks": 8}]),
    "drawbridge finished": (
        TWO,
        {"target": 200},
        [{"declarer": 0, "level": 6, "strain": "NT", "double": "double", "tricks": 12}],
    ),
    "sixtysix": (
        TWO,
        None,
        [
            {"end": "played_out", "player": 0, "points": [75, 55], "opponent_took_trick": True},
            {"end": "played_out", "player": 1, "points": [65, 65], "opponent_took_trick": True},
        ],
    ),
    "ohhell": (
        SEVEN,
        None,
        [
            {"bids": [0, 0, 0, 0, 0, 0, 1], "tricks": [0, 0, 0, 0, 0, 0, 1]},
            {"bids": [1, 0, 0, 0, 0, 0, 0], "tricks": [1, 1, 0, 0, 0, 0, 0]},
            {"bids": [0, 1, 0, 1, 0, 0, 0], "tricks": [0, 1, 0, 1, 0, 1, 0]},
            {"bids": [1, 1, 1, 0, 0, 0, 0], "tricks": [1, 1, 1, 0, 0, 0, 1]},
            {"bids": [2, 0, 1, 1, 0, 0, 1], "tricks": [2, 0, 1, 1, 0, 0, 1]},
            {"bids": [1, 1, 1, 1, 1, 0, 1], "tricks": [1, 1, 1, 1, 1, 0, 1]},
            {"bids": [2, 1, 1, 1, 1, 0, 1], "tricks": [1, 2, 1, 1, 1, 0, 1]},
        ],
    ),
}

# RULES.md 2.6, 3.6, 4.6, 5.6
DETAIL_KEYS = {
    "spades": {"bags", "bag_penalty"},
    "drawbridge": {"made"},
    "sixtysix": {"winner"},
    "ohhell": {"cards", "trumps", "made"},
}

# RULES.md 2.6, 3.6, 4.6, 5.6
NEXT_HAND_KEYS = {
    "spades": {"number", "first_drawer", "first_bidder", "leader"},
    "drawbridge": {"number", "dealer", "first_bidder", "leader"},
    "sixtysix": {"number", "dealer", "leader"},
    "ohhell": {"number", "dealer", "first_bidder", "leader", "cards", "trumps"},
}

# RULES.md 2.4, 3.4, 4.4, 5.4: every option with its default.
DEFAULTS = {
    "spades": {"target": 500, "failed_nil_bags": False},
    "drawbridge": {"target": 500, "undertrick_points": 50, "stock_face_up": False},
    "sixtysix": {"target": 7},
    "ohhell": {
        "schedule": "up",
        "hook": False,
        "made_bid_score": "ten_plus_tricks",
        "miss_scores_tricks": False,
        "simultaneous_bidding": False,
        "must_trump": False,
    },
}

# RULES.md 2.2, 3.2, 4.2, 5.2: every key a hand may have.
HAND_KEYS = {
    "spades": {"bids", "tricks"},
    "drawbridge": {"declarer", "level", "strain", "double", "tricks", "passed_out"},
    "sixtysix": {"end", "player", "points", "opponent_took_trick", "opponent_trick_at_close", "opponent_claimed"},
    "ohhell": {"bids", "tricks"},
}

PLAYER_COUNTS = {"spades": (2, 2), "drawbridge": (2, 2), "sixtysix": (2, 2), "ohhell": (3, 7)}


DEFAULT = object()


def match_for(game, hands=DEFAULT, options=DEFAULT, players=DEFAULT):
    """A match of ``game`` built from its example; any part can be replaced, even by None."""
    example_players, example_hands, _ = EXAMPLES[game]
    match = {
        "game": game,
        "players": list(example_players) if players is DEFAULT else players,
        "hands": list(example_hands) if hands is DEFAULT else hands,
    }
    if options is not DEFAULT:
        match["options"] = options
    return match


def invalid(match) -> InvalidHand:
    with pytest.raises(InvalidHand) as info:
        score_match(match)
    return info.value


def names(n):
    return [f"P{i}" for i in range(n)]


# ------------------------------------------------------------ the examples score


@pytest.mark.parametrize("game", ALL_GAMES)
def test_example_scores(game):
    result = score_match(match_for(game))
    assert result["hands"][0]["points"] == EXAMPLES[game][2]
    assert result["totals"] == EXAMPLES[game][2]


@pytest.mark.parametrize("game", ALL_GAMES)
def test_output_shape(game):
    result = score_match(match_for(game))
    assert set(result) == {"hands", "totals", "finished", "winners", "next_hand"}
    n = len(EXAMPLES[game][0])
    for row in result["hands"]:
        assert set(row) == {"points", "totals"} | DETAIL_KEYS[game]
        assert len(row["points"]) == n
        assert len(row["totals"]) == n
        assert all(type(p) is int for p in row["points"] + row["totals"])
    assert result["finished"] is False
    assert result["winners"] == []
    assert set(result["next_hand"]) == NEXT_HAND_KEYS[game]
    assert result["next_hand"]["number"] == 2


@pytest.mark.parametrize("key", list(LONG_EXAMPLES))
def test_results_are_json_serialisable(key):
    players, options, hands = LONG_EXAMPLES[key]
    match = {"game": key.split()[0], "players": players, "options": options, "hands": hands}
    result = score_match(match)
    text = json.dumps(result, allow_nan=False)
    assert json.loads(text) == result
    # the running sums and the finished/next_hand pairing hold for every game
    totals = [0] * len(players)
    for row in result["hands"]:
        totals = [t + p for t, p in zip(totals, row["points"], strict=True)]
        assert row["totals"] == totals
    assert result["totals"] == totals
    assert (result["next_hand"] is None) == result["finished"]
    assert (result["winners"] == []) == (not result["finished"])


def test_finished_examples():
    s4 = LONG_EXAMPLES["spades finished"]
    result = score_match({"game": "spades", "players": s4[0], "options": s4[1], "hands": s4[2]})
    assert (result["finished"], result["winners"], result["next_hand"]) == (True, [1], None)
    d5 = LONG_EXAMPLES["drawbridge finished"]
    result = score_match({"game": "drawbridge", "players": d5[0], "options": d5[1], "hands": d5[2]})
    assert (result["finished"], result["winners"], result["next_hand"]) == (True, [0], None)
    assert result["totals"] == [380, 0]
    o5 = LONG_EXAMPLES["ohhell"]
    result = score_match({"game": "ohhell", "players": o5[0], "hands": o5[2]})
    assert (result["finished"], result["winners"], result["next_hand"]) == (True, [2, 3], None)
    assert result["totals"] == [65, 53, 74, 74, 72, 60, 64]


@pytest.mark.parametrize(
    ("game", "players"),
    [("spades", TWO), ("drawbridge", TWO), ("sixtysix", TWO)] + [("ohhell", names(n)) for n in range(3, 8)],
)
def test_empty_hands(game, players):
    result = score_match({"game": game, "players": players, "hands": []})
    assert result["hands"] == []
    assert result["totals"] == [0] * len(players)
    assert result["finished"] is False
    assert result["winners"] == []
    assert result["next_hand"]["number"] == 1
    assert set(result["next_hand"]) == NEXT_HAND_KEYS[game]
    assert json.loads(json.dumps(result)) == result


# ------------------------------------------------------------ the match dict


@pytest.mark.parametrize("match", [None, [], "spades", 3, True, [("game", "spades")]])
def test_match_not_a_dict(match):
    assert invalid(match).hand_index is None


@pytest.mark.parametrize("key", ["extra", "Game", "hand", "winners", "totals"])
def test_unknown_top_level_key(key):
    error = invalid({**match_for("spades"), key: 1})
    assert error.hand_index is None
    assert key in str(error)


@pytest.mark.parametrize("key", ["game", "players", "hands"])
def test_missing_top_level_key(key):
    match = match_for("spades")
    del match[key]
    error = invalid(match)
    assert error.hand_index is None
    assert key in str(error)


@pytest.mark.parametrize("game", ["Spades", "SPADES", "bridge", "", " spades", None, 3, True, ["spades"], {}])
def test_unknown_game(game):
    error = invalid({"game": game, "players": TWO, "hands": []})
    assert error.hand_index is None


# ------------------------------------------------------------ players


@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize("players", ["Ann,Bob", None, {"Ann": 0, "Bob": 1}, ("Ann", "Bob"), 2])
def test_players_not_a_list(game, players):
    assert invalid(match_for(game, hands=[], players=players)).hand_index is None


@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize("bad", ["  ", "", "\t\n", 3, None, True, ["Ann"], 1.5])
def test_bad_player_name(game, bad):
    players = list(EXAMPLES[game][0])
    players[1] = bad
    assert invalid(match_for(game, hands=[], players=players)).hand_index is None


@pytest.mark.parametrize("game", ALL_GAMES)
def test_duplicate_names(game):
    players = list(EXAMPLES[game][0])
    players[-1] = players[0]
    error = invalid(match_for(game, hands=[], players=players))
    assert error.hand_index is None
    assert players[0] in str(error)


@pytest.mark.parametrize(
    ("game", "players"),
    [(g, ["Ann", "ann"]) for g in ("spades", "drawbridge", "sixtysix")]
    + [("sixtysix", ["Ann", "Ann "]), ("ohhell", ["Ann", "ann", "ANN", "Ann ", " Ann"])],
)
def test_names_compared_exactly(game, players):
    result = score_match({"game": game, "players": players, "hands": []})
    assert result["totals"] == [0] * len(players)


@pytest.mark.parametrize(
    ("game", "count"),
    [(g, n) for g in ("spades", "drawbridge", "sixtysix") for n in (0, 1, 3, 4)]
    + [("ohhell", n) for n in (0, 1, 2, 8, 9)],
)
def test_wrong_player_count(game, count):
    error = invalid({"game": game, "players": names(count), "hands": []})
    assert error.hand_index is None


@pytest.mark.parametrize("count", range(3, 8))
def test_ohhell_player_counts(count):
    assert score_match({"game": "ohhell", "players": names(count), "hands": []})["finished"] is False


@pytest.mark.parametrize("game", ALL_GAMES)
def test_player_counts_in_spec(game):
    spec = GAMES[game].spec
    assert (spec.min_players, spec.max_players) == PLAYER_COUNTS[game]


# ------------------------------------------------------------ options


@pytest.mark.parametrize("game", ALL_GAMES)
def test_options_none_and_missing_mean_defaults(game):
    base = score_match(match_for(game))
    assert score_match(match_for(game, options=None)) == base
    assert score_match(match_for(game, options={})) == base
    assert score_match(match_for(game, options=dict(DEFAULTS[game]))) == base


@pytest.mark.parametrize("game", ALL_GAMES)
def test_spec_defaults_pass_validation(game):
    explicit = {o.name: o.default for o in GAMES[game].spec.options}
    assert explicit == DEFAULTS[game]
    assert score_match(match_for(game, options=explicit)) == score_match(match_for(game, options={}))


@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize("options", [[], "target=100", 3, True, [["target", 100]]])
def test_options_not_a_dict(game, options):
    assert invalid(match_for(game, options=options)).hand_index is None


@pytest.mark.parametrize("game", ALL_GAMES)
def test_unknown_option(game):
    error = invalid(match_for(game, options={"speed": 2}))
    assert error.hand_index is None
    assert "speed" in str(error)


@pytest.mark.parametrize(
    ("game", "key", "value"),
    [
        ("spades", "hook", True),
        ("spades", "undertrick_points", 50),
        ("drawbridge", "failed_nil_bags", True),
        ("drawbridge", "schedule", "up"),
        ("sixtysix", "undertrick_points", 50),
        ("sixtysix", "must_trump", False),
        ("ohhell", "target", 100),
        ("ohhell", "failed_nil_bags", False),
    ],
)
def test_option_of_another_game_is_unknown(game, key, value):
    error = invalid(match_for(game, options={key: value}))
    assert error.hand_index is None
    assert key in str(error)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_bad_option_values(game):
    for option in GAMES[game].spec.options:
        bads = {"int": [True, 1.0, "1", None, []], "bool": [1, 0, "true", None], "choice": [1, True, None, "nope"]}
        if option.kind == "int":
            bads["int"].append(option.minimum - 1)
        for bad in bads[option.kind]:
            error = invalid(match_for(game, options={option.name: bad}))
            assert error.hand_index is None, (option.name, bad)
            assert option.name in str(error)


# ------------------------------------------------------------ check order


def test_unknown_top_level_key_before_missing_or_bad_game():
    error = invalid({"game": "chess", "players": [], "hands": None, "extra": 1})
    assert str(error) == 'Unknown match entry "extra"'  # quoted like every other message


def test_unknown_game_reported_before_bad_players():
    error = invalid({"game": "chess", "players": ["Ann"], "hands": []})
    assert error.hand_index is None
    assert "chess" in str(error)


def test_bad_players_reported_before_bad_options():
    error = invalid({"game": "spades", "players": ["Ann", "Ann"], "options": {"hook": True}, "hands": []})
    assert error.hand_index is None
    assert "Ann" in str(error)
    assert "hook" not in str(error)


def test_players_checked_before_the_count():
    # a blank name in a list of the wrong length: the name is reported
    error = invalid({"game": "spades", "players": ["Ann", "Bob", " "], "hands": []})
    count_error = invalid({"game": "spades", "players": ["Ann", "Bob", "Cat"], "hands": []})
    assert str(error) != str(count_error)
    error = invalid({"game": "spades", "players": ["Ann", "Ann", "Bob"], "hands": []})
    assert str(error) != str(count_error)
    assert "Ann" in str(error)


def test_bad_options_reported_before_bad_hands():
    error = invalid({"game": "spades", "players": TWO, "options": {"target": 0}, "hands": [{"bids": [14]}]})
    assert error.hand_index is None
    assert "target" in str(error)
    error = invalid({"game": "spades", "players": TWO, "options": [], "hands": "none"})
    assert error.hand_index is None
    assert "option" in str(error)


@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize("hands", [None, {}, "hands", 0, True, {"0": {}}])
def test_hands_not_a_list(game, hands):
    error = invalid(match_for(game, hands=hands))
    assert error.hand_index is None


@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize("bad", [None, [], "hand", 7, {}, {"nonsense": True}])
def test_first_bad_hand_is_reported(game, bad):
    good = EXAMPLES[game][1][0]
    hands = [good, good, bad, good, bad]
    # Spades and Oh Hell need a long enough game: Oh Hell 4 players "up" has 13 hands,
    # but hand 2 has 2 cards, so Oh Hell uses a 1-card-hand schedule-free check below.
    if game == "ohhell":
        hands = [good, bad, bad]
        error = invalid(match_for(game, hands=hands))
        assert error.hand_index == 1
        assert str(error).startswith("Hand 2: ")
        return
    error = invalid(match_for(game, hands=hands))
    assert error.hand_index == 2
    assert str(error).startswith("Hand 3: ")


def test_bad_hand_3_reported_even_if_hand_5_is_bad():
    good = {"bids": [3, 4], "tricks": [6, 7]}
    hands = [good, good, good, {"bids": [3, 4], "tricks": [6, 6]}, good, {"bids": [14, 0], "tricks": [13, 0]}]
    error = invalid({"game": "spades", "players": TWO, "hands": hands})
    assert error.hand_index == 3
    assert str(error).startswith("Hand 4: ")


def test_invalid_hand_is_a_value_error():
    assert issubclass(InvalidHand, ValueError)
    error = invalid({"game": "spades", "players": TWO, "hands": [{"bids": [3, 4], "tricks": [6, 6]}]})
    assert isinstance(error, ValueError)
    assert error.hand_index == 0
    assert InvalidHand("x").hand_index is None


# ------------------------------------------------------------ check_bidding follows score_match


@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize(
    "change",
    [
        {"players": ["Solo"]},
        {"options": {"nope": 1}},
        {"hands": "x"},
        {"hands": [None]},
        {"extra": 1},
    ],
)
def test_check_bidding_checks_the_match_first(game, change):
    match = {**match_for(game), **change}
    error = invalid(match)
    with pytest.raises(InvalidHand) as info:
        check_bidding(match, {"bids": []})
    assert info.value.hand_index == error.hand_index
    assert str(info.value) == str(error)


@pytest.mark.parametrize(
    ("game", "bidding", "played"),
    [
        # A missing bid: the hand, completed with its tricks, lacks the same key.
        ("spades", {}, {"tricks": [6, 7]}),
        ("ohhell", {}, {"tricks": [0, 1, 0, 0]}),
        ("drawbridge", {"level": 3, "strain": "NT"}, {"tricks": 9}),
        # An unknown key in the bidding part.
        ("spades", {"bids": [3, 4], "bonus": 1}, {"tricks": [6, 7]}),
        ("ohhell", {"bids": [0, 1, 0, 0], "bonus": 1}, {"tricks": [0, 1, 0, 0]}),
        ("drawbridge", {"declarer": 0, "level": 3, "strain": "NT", "bonus": 1}, {"tricks": 9}),
    ],
)
def test_check_bidding_gives_score_matchs_message_for_missing_and_unknown_keys(game, bidding, played):
    """RULES.md 1.4: the same message score_match would give for that part of the hand."""
    match = match_for(game)
    with pytest.raises(InvalidHand) as info:
        check_bidding(match, bidding)
    error = invalid({**match, "hands": [*match["hands"], {**bidding, **played}]})
    assert (info.value.hand_index, str(info.value)) == (error.hand_index, str(error))


def test_sixtysix_has_no_bidding():
    with pytest.raises(InvalidHand) as info:
        check_bidding(match_for("sixtysix"), {})
    assert info.value.hand_index == 1


# ------------------------------------------------------------ preview_hand robustness

# Regression: preview_hand used to build {**match, "hands": [*match["hands"], hand]}
# before checking the match, raising TypeError/KeyError for a bad match.


@pytest.mark.parametrize(
    "match",
    [
        None,
        {"game": "spades", "players": TWO},
        {"game": "spades", "players": TWO, "hands": "ab"},
        {"game": "spades", "players": TWO, "hands": 5},
    ],
    ids=["not a dict", "no hands", "hands a string", "hands an int"],
)
def test_preview_hand_reports_a_bad_match_like_score_match(match):
    expected = invalid(match)
    with pytest.raises(InvalidHand) as info:
        preview_hand(match, {"bids": [3, 4], "tricks": [6, 7]})
    assert info.value.hand_index == expected.hand_index
    assert str(info.value) == str(expected)


# ------------------------------------------------------------ the registry


def test_every_game_is_registered():
    assert set(GAMES) == {*ALL_GAMES, "partnership_spades", "courtpiece"}
    assert [spec.id for spec in game_specs()] == list(GAMES)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_spec(game):
    spec = GAMES[game].spec
    assert spec.id == game
    assert isinstance(spec.name, str) and spec.name.strip()
    assert isinstance(spec.summary, str) and spec.summary.strip()
    assert (spec.min_players, spec.max_players) == PLAYER_COUNTS[game]
    assert {o.name for o in spec.options} == set(DEFAULTS[game])
    for option in spec.options:
        assert isinstance(option, Option)
        assert option.kind in ("int", "bool", "choice")
        assert isinstance(option.label, str) and option.label.strip()
        assert isinstance(option.help, str) and option.help.strip()
        assert option.default == DEFAULTS[game][option.name]
        if option.kind == "int":
            assert type(option.default) is int
            assert option.minimum is not None and option.minimum <= option.default
        elif option.kind == "bool":
            assert option.default is True or option.default is False
        else:
            values = [value for value, _ in option.choices]
            assert option.default in values
            assert all(isinstance(value, str) for value in values)
    assert spec.hand_fields
    for field in spec.hand_fields:
        assert field.name in HAND_KEYS[game]
        assert isinstance(field.label, str) and field.label.strip()
        assert field.phase in ("bidding", "play")
    assert set(spec.detail_keys) == DETAIL_KEYS[game]
    assert spec.has_bidding is (game != "sixtysix")
    assert bool(spec.bidding_fields) is spec.has_bidding


def test_ohhell_choice_options_list_the_rules_values():
    spec = GAMES["ohhell"].spec
    assert {v for v, _ in spec.option("schedule").choices} == {"up", "down", "up_down", "down_up"}
    assert {v for v, _ in spec.option("made_bid_score").choices} == {"ten_plus_tricks", "five_plus_cards"}
