"""Court Piece against RULES.md section 8 (with 1.5 and decisions 33-46).

Every expected figure is the one RULES.md gives in its worked examples
(8.7) or worked out from the tables of 8.1 and 8.3 by hand, never taken
from the engine's output.
"""

from __future__ import annotations

import json

import pytest

from scorekeeper.scoring import InvalidHand, check_bidding, entry_hints, get_game, preview_hand, score_match

FOUR = ["Ann", "Bob", "Cat", "Dan"]
SIDES = [[0, 2], [1, 3]]
C4 = [{"winner": 1, "court": "all13", "trumps": "S"}]
C5_WINNERS = [1, 1, 0, 0, 0, 0, 0, 0, 0, 1]
C7 = [{"winner": 1, "court": "first7"}, {"winner": 0, "court": "first7"}, {"winner": 0}]


def court(hands, options=None, players=FOUR):
    match = {"game": "courtpiece", "players": list(players), "hands": hands}
    if options is not None:
        match["options"] = options
    return match


def deals(*winners):
    return [{"winner": w} for w in winners]


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


# ------------------------------------------------------------ 8.7 worked examples


def test_c1_callers_win_then_the_dealers_side_wins():
    result = score_match(court([{"winner": 1, "trumps": "H"}, {"winner": 0, "court": "none"}]))
    assert result["hands"] == [
        {
            "points": [0, 0],
            "totals": [0, 0],
            "dealer": 0,
            "caller": 1,
            "winner": 1,
            "court": None,
            "deals_won": [0, 1],
            "run": [0, 1],
        },
        {
            "points": [0, 0],
            "totals": [0, 0],
            "dealer": 0,
            "caller": 1,
            "winner": 0,
            "court": None,
            "deals_won": [1, 1],
            "run": [1, 0],
        },
    ]
    assert (result["finished"], result["winners"]) == (False, [])
    assert result["next_hand"] == {"number": 3, "dealer": 1, "caller": 2, "leader": 2}
    assert result["sides"] == SIDES


def test_c2_the_callers_kot_the_dealers_partner_deals():
    result = score_match(court([{"winner": 1, "court": "first7"}]))
    assert result["hands"] == [
        {
            "points": [0, 1],
            "totals": [0, 1],
            "dealer": 0,
            "caller": 1,
            "winner": 1,
            "court": "kot",
            "deals_won": [0, 1],
            "run": [0, 0],
        }
    ]
    assert result["next_hand"] == {"number": 2, "dealer": 2, "caller": 3, "leader": 3}


def test_c3_goon_kot():
    result = score_match(court([{"winner": 0, "court": "first7"}]))
    assert result["hands"] == [
        {
            "points": [1, 0],
            "totals": [1, 0],
            "dealer": 0,
            "caller": 1,
            "winner": 0,
            "court": "goon_kot",
            "deals_won": [1, 0],
            "run": [0, 0],
        }
    ]
    assert result["next_hand"] == {"number": 2, "dealer": 1, "caller": 2, "leader": 2}


def test_c3_goon_kot_counting_double_wins_at_the_default_target():
    result = score_match(court([{"winner": 0, "court": "first7"}], {"goon_kot": 2}))
    row = result["hands"][0]
    assert (row["points"], row["totals"]) == ([2, 0], [2, 0])
    assert (result["finished"], result["winners"], result["next_hand"]) == (True, [0], None)


def test_c4_a_bavney_ends_the_game():
    result = score_match(court(C4))
    assert result["hands"] == [
        {
            "points": [0, 52],
            "totals": [0, 52],
            "dealer": 0,
            "caller": 1,
            "winner": 1,
            "court": "bavney",
            "deals_won": [0, 1],
            "run": [0, 0],
        }
    ]
    assert (result["finished"], result["winners"], result["next_hand"]) == (True, [1], None)
    error = invalid(court([*C4, {"winner": 0}]))
    assert error.hand_index == 1
    assert str(error) == "Hand 2: the game is already over"


def test_c4_a_bavney_worth_2_under_a_target_of_5():
    result = score_match(court(C4, {"target": 5, "bavney": 2}))
    assert result["hands"][0]["points"] == [0, 2]
    assert result["finished"] is False
    assert result["next_hand"] == {"number": 2, "dealer": 2, "caller": 3, "leader": 3}


def test_c5_seven_deals_in_a_row():
    result = score_match(court(deals(*C5_WINNERS)))
    assert column(result, "dealer") == [0, 0, 0, 1, 1, 1, 1, 1, 1, 3]
    assert column(result, "caller") == [1, 1, 1, 2, 2, 2, 2, 2, 2, 0]
    assert column(result, "winner") == C5_WINNERS
    assert column(result, "run") == [
        [0, 1],
        [0, 2],
        [1, 0],
        [2, 0],
        [3, 0],
        [4, 0],
        [5, 0],
        [6, 0],
        [0, 0],
        [0, 1],
    ]
    assert column(result, "deals_won") == [
        [0, 1],
        [0, 2],
        [1, 2],
        [2, 2],
        [3, 2],
        [4, 2],
        [5, 2],
        [6, 2],
        [7, 2],
        [7, 3],
    ]
    assert column(result, "court") == [None] * 8 + ["run", None]
    assert column(result, "points") == [[0, 0]] * 8 + [[1, 0], [0, 0]]
    assert (result["totals"], result["finished"]) == ([1, 0], False)
    assert result["next_hand"] == {"number": 11, "dealer": 0, "caller": 1, "leader": 1}


def test_c5_without_runs():
    result = score_match(court(deals(*C5_WINNERS), {"deal_run": 0}))
    assert result["hands"][8]["court"] is None
    assert result["hands"][8]["run"] == [7, 0]  # runs still count, never score
    assert (result["hands"][9]["dealer"], result["hands"][9]["caller"]) == (1, 2)
    assert result["totals"] == [0, 0]
    assert (result["next_hand"]["dealer"], result["next_hand"]["caller"]) == (2, 3)


def test_c6_a_kot_resets_the_run():
    hands = [*deals(1, 1, 1, 1, 1, 1), {"winner": 1, "court": "first7"}, {"winner": 1}]
    result = score_match(court(hands))
    assert column(result, "dealer")[:7] == [0] * 7
    assert column(result, "caller")[:7] == [1] * 7
    assert column(result, "run")[:6] == [[0, n] for n in range(1, 7)]
    assert column(result, "points")[:6] == [[0, 0]] * 6
    seventh, eighth = result["hands"][6], result["hands"][7]
    assert (seventh["points"], seventh["court"], seventh["run"], seventh["deals_won"]) == (
        [0, 1],
        "kot",
        [0, 0],
        [0, 7],
    )
    assert (eighth["dealer"], eighth["caller"], eighth["points"]) == (2, 3, [0, 0])
    assert (eighth["run"], eighth["deals_won"]) == ([0, 1], [0, 8])
    assert result["totals"] == [0, 1]
    assert result["next_hand"] == {"number": 9, "dealer": 2, "caller": 3, "leader": 3}


def test_c7_a_fixed_number_of_deals():
    result = score_match(court(C7, {"target": None, "deals": 3}))
    assert column(result, "points") == [[0, 1], [1, 0], [0, 0]]
    assert column(result, "court") == ["kot", "goon_kot", None]
    assert [(row["dealer"], row["caller"]) for row in result["hands"]] == [(0, 1), (2, 3), (3, 0)]
    assert result["totals"] == [1, 1]
    assert result["hands"][-1]["deals_won"] == [2, 1]
    assert (result["finished"], result["winners"], result["next_hand"]) == (True, [0], None)


def test_c7_equal_courts_and_deals_play_on():
    result = score_match(court(C7[:2], {"target": None, "deals": 2}))
    assert result["totals"] == [1, 1]
    assert result["hands"][-1]["deals_won"] == [1, 1]
    assert (result["finished"], result["winners"]) == (False, [])
    assert result["next_hand"] == {"number": 3, "dealer": 3, "caller": 0, "leader": 0}
    result = score_match(court([*C7[:2], {"winner": 1}], {"target": None, "deals": 2}))
    assert (result["finished"], result["winners"]) == (True, [1])


def test_c8_trumps_before_play():
    assert check_bidding(court([]), {"trumps": "H"}) is None
    for bidding, words in [
        ({"trumps": "NT"}, 'the trumps must be "C", "D", "H" or "S"'),
        ({"trumps": "H", "winner": 1}, 'unknown entry "winner"'),
    ]:
        error = bidding_error(court([]), bidding)
        assert error.hand_index == 0
        assert words in str(error)
    error = bidding_error(court(C4), {"trumps": "C"})
    assert error.hand_index == 1
    assert str(error) == "Hand 2: the game is already over"


def test_c9_match_errors():
    assert invalid(court([], players=["Ann", "Bob", "Cat"])).hand_index is None
    error = invalid(court([], {"target": 0}))
    assert error.hand_index is None
    assert 'The option "target"' in str(error)


@pytest.mark.parametrize(
    ("hands", "index", "words"),
    [
        ([{"winner": 2}], 0, "Hand 1: the winner must be 0 (Ann & Cat) or 1 (Bob & Dan), got 2"),
        ([{"winner": True}], 0, "Hand 1: the winner must be 0 (Ann & Cat) or 1 (Bob & Dan), got true"),
        ([{"winner": 0}, {"winner": 0, "court": "kot"}], 1, 'Hand 2: the court must be "none", "first7" or "all13"'),
        ([{"winner": 0, "tricks": [7, 3]}], 0, 'Hand 1: the hand has unknown entry "tricks"'),
        ([{"court": "first7"}], 0, 'Hand 1: the hand needs "winner"'),
    ],
)
def test_c9_hand_errors(hands, index, words):
    error = invalid(court(hands))
    assert error.hand_index == index
    assert str(error).startswith(words)


# ------------------------------------------------------------ 8.2 checks


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        ({"winner": 1.0}, "the winner must be 0 (Ann & Cat) or 1 (Bob & Dan), got 1.0"),
        ({"winner": "1"}, 'got "1"'),
        ({"winner": None}, "got nothing"),
        ({"winner": -1}, "got -1"),
        ({"winner": 0, "court": None}, 'the court must be "none", "first7" or "all13"'),
        ({"winner": 0, "court": "First7"}, 'got "First7"'),
        ({"winner": 0, "court": 7}, "got 7"),
        ({"winner": 0, "trumps": "h"}, 'the trumps must be "C", "D", "H" or "S"'),
        ({"winner": 0, "trumps": "NT"}, 'got "NT"'),
        ({"winner": 0, "trumps": None}, "got nothing"),
        ({"winner": 0, "trumps": ["H"]}, "got ['H']"),
        ({"winner": 0, "bonus": 1, "alpha": 2}, 'unknown entries "alpha", "bonus"'),
    ],
)
def test_bad_hands(hand, words):
    error = invalid(court([hand]))
    assert error.hand_index == 0
    assert words in str(error)


def test_types_are_checked_before_ranges():
    # a winner out of range, a court of the wrong type: the type is reported first
    assert "the court" in str(invalid(court([{"winner": 5, "court": 1}])))
    assert "the trumps" in str(invalid(court([{"winner": 5, "trumps": 1}])))
    # then the ranges in order: winner, court, trumps
    assert "the winner" in str(invalid(court([{"winner": 5, "court": "x", "trumps": "x"}])))
    assert "the court" in str(invalid(court([{"winner": 0, "court": "x", "trumps": "x"}])))
    # keys first of all: a missing winner before an unknown key
    assert 'needs "winner"' in str(invalid(court([{"tricks": 7}])))


@pytest.mark.parametrize("trumps", ["C", "D", "H", "S"])
def test_trumps_are_recorded_never_scored(trumps):
    plain = score_match(court([{"winner": 1}, {"winner": 1, "court": "first7"}]))
    called = score_match(court([{"winner": 1, "trumps": trumps}, {"winner": 1, "court": "first7", "trumps": trumps}]))
    assert called == plain


def test_either_side_may_win_with_any_court():
    for winner in (0, 1):
        for entered in ("none", "first7", "all13"):
            assert score_match(court([{"winner": winner, "court": entered}], {"target": None}))["hands"]


# ------------------------------------------------------------ 8.3 scoring and 8.1 the next dealer


def test_a_bavney_by_the_dealers_side_is_worth_bavney_not_doubled():
    result = score_match(court([{"winner": 0, "court": "all13"}], {"goon_kot": 2, "bavney": 3, "target": 10}))
    row = result["hands"][0]
    assert (row["points"], row["court"]) == ([3, 0], "bavney")
    assert result["next_hand"]["dealer"] == 1  # the dealer's side won: the deal passes


@pytest.mark.parametrize(
    ("hands", "dealer"),
    [
        (deals(0), 1),  # the dealer's side won: dealer + 1
        (deals(1), 0),  # the callers won, no court: the same dealer
        ([{"winner": 1, "court": "first7"}], 2),  # the callers' kot: the dealer's partner
        ([{"winner": 1, "court": "all13"}], 2),  # the callers' bavney
        ([{"winner": 0, "court": "first7"}], 1),  # a goon kot: the dealer's side won
        (deals(0, 1), 2),  # then Bob deals and Cat calls; Bob's side (the dealer's) won: Cat deals
        (deals(0, 1, 1, 1), 2),  # then Dan calls and his side wins twice, no court: Cat deals again
    ],
)
def test_the_next_dealer(hands, dealer):
    assert score_match(court(hands, {"target": None}))["next_hand"]["dealer"] == dealer


@pytest.mark.parametrize("deal_run", [1, 2, 3])
def test_a_run_of_deal_run_deals_scores_a_court(deal_run):
    result = score_match(court(deals(*[1] * deal_run), {"deal_run": deal_run, "target": None}))
    assert result["totals"] == [0, 1]
    assert result["hands"][-1]["court"] == "run"
    assert result["hands"][-1]["run"] == [0, 0]
    assert result["next_hand"]["dealer"] == 2  # the callers completed a run: the dealer's partner deals


def test_deal_run_1_every_deal_is_a_court():
    result = score_match(court(deals(1, 0, 0, 1), {"deal_run": 1, "target": None}))
    assert column(result, "points") == [[0, 1], [1, 0], [1, 0], [0, 1]]
    # Ann deals, Bob's side (callers) wins a court: Cat deals. Dan calls; Ann's side (Cat's) wins as the
    # dealer's side: Dan deals, Ann calls and wins a court: Bob deals, Cat calls; Bob's side wins: Cat deals.
    assert column(result, "dealer") == [0, 2, 3, 1]
    assert result["next_hand"]["dealer"] == 2


def test_the_default_target_two_courts():
    result = score_match(court([{"winner": 1, "court": "first7"}, {"winner": 1, "court": "first7"}]))
    # Ann deals, Bob's side calls: a kot. Cat deals, Dan calls: Bob & Dan's kot again, 2 courts.
    assert (result["totals"], result["finished"], result["winners"]) == ([0, 2], True, [1])


def test_an_open_session_never_ends():
    hands = [{"winner": 1, "court": "all13"}] * 5
    result = score_match(court(hands, {"target": None}))
    assert (result["totals"], result["finished"]) == ([0, 260], False)
    assert result["next_hand"]["number"] == 6


def test_target_and_deals_whichever_comes_first():
    kots = [{"winner": 1, "court": "first7"}] * 2
    assert score_match(court(kots, {"target": 2, "deals": 5}))["winners"] == [1]
    assert score_match(court(deals(0, 0, 1), {"target": 2, "deals": 3}))["winners"] == [0]  # deals won 2-1


# ------------------------------------------------------------ the output, why-lines, hints, spec


def test_sides_also_with_no_deals():
    result = score_match(court([]))
    assert result == {
        "hands": [],
        "totals": [0, 0],
        "finished": False,
        "winners": [],
        "next_hand": {"number": 1, "dealer": 0, "caller": 1, "leader": 1},
        "sides": SIDES,
    }
    assert json.loads(json.dumps(result)) == result


def why(hands, hand, options=None):
    return preview_hand(court(hands, options), hand)["hand"]["why"]


def test_why_lines():
    lost = "Ann & Cat lost the deal: 0"
    assert why([], {"winner": 1, "court": "first7"}) == [
        lost,
        "Bob & Dan took the first seven tricks: a kot, Cat deals next",
    ]
    assert why([], {"winner": 1}) == [lost, "Bob & Dan won the deal: no court, Ann deals again"]
    assert why(deals(1), {"winner": 1}) == [lost, "Bob & Dan won the deal, 2 deals in a row: no court, Ann deals again"]
    assert why([], {"winner": 0}) == ["Ann & Cat won the deal: no court, Bob deals next", "Bob & Dan lost the deal: 0"]
    assert why([], {"winner": 0, "court": "first7"}, {"goon_kot": 2, "target": 3})[0] == (
        "Ann & Cat took the first seven tricks against the callers: a goon kot, 2 courts, Bob deals next"
    )
    assert why(deals(1, 1), {"winner": 1}, {"deal_run": 3})[1] == (
        "Bob & Dan won 3 deals in a row: a court, Cat deals next"
    )


def test_why_lines_say_no_dealer_when_the_game_is_over():
    assert why([], C4[0])[1] == "Bob & Dan took all thirteen tricks: a bavney, 52 courts"
    assert why([], C4[0], {"bavney": 1, "target": 1})[1] == "Bob & Dan took all thirteen tricks: a bavney, 1 court"


def test_hints():
    assert entry_hints(court(deals(0, 0, 0))) == {
        "dealer": 1,
        "caller": 2,
        "leader": 2,
        "run": [3, 0],
        "deal_run": 7,
        "deals_won": [3, 0],
    }
    assert entry_hints(court(C4)) == {}


def test_spec():
    spec = get_game("courtpiece").spec
    assert (spec.min_players, spec.max_players, spec.sides) == (4, 4, ((0, 2), (1, 3)))
    assert {o.name: o.default for o in spec.options} == {
        "target": 2,
        "deals": None,
        "deal_run": 7,
        "goon_kot": 1,
        "bavney": 52,
    }
    assert {f.name: (f.kind, f.phase, f.required) for f in spec.hand_fields} == {
        "trumps": ("choice", "bidding", False),
        "winner": ("side", "play", True),
        "court": ("choice", "play", False),
    }
    assert {v for v, _ in spec.hand_fields[0].choices} == {"C", "D", "H", "S"}
    assert {v for v, _ in spec.hand_fields[2].choices} == {"none", "first7", "all13"}
    assert set(spec.detail_keys) == {"dealer", "caller", "winner", "court", "deals_won", "run"}
    assert set(spec.side_details) == {"deals_won", "run"}
    assert spec.hand_noun == "deal"


# ------------------------------------------------------------ 8.4 options, 8.6 trumps before play


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target": 0}, 'The option "target" must be a whole number of 1 or more, got 0'),
        ({"target": "2"}, 'got "2"'),
        ({"target": 2.0}, "got 2.0"),
        ({"deals": 0}, 'The option "deals" must be a whole number of 1 or more, got 0'),
        ({"deals": True}, 'The option "deals"'),
        ({"deal_run": -1}, 'The option "deal_run" must be a whole number of 0 or more, got -1'),
        ({"deal_run": None}, 'The option "deal_run"'),
        ({"goon_kot": 0}, 'The option "goon_kot"'),
        ({"goon_kot": None}, 'The option "goon_kot"'),
        ({"bavney": 0}, 'The option "bavney"'),
        ({"bavney": None}, 'The option "bavney"'),
        ({"scoring": "points"}, "has no option"),  # decision 46: not offered
        ({"losing_score": -200}, "has no option"),  # Partnership Spades' option
    ],
)
def test_bad_options(options, words):
    error = invalid(court([], options))
    assert error.hand_index is None
    assert words in str(error)


def test_no_combination_of_options_is_an_error():
    for options in ({"target": None, "deals": None}, {"target": 1, "deals": 1, "deal_run": 0}):
        assert score_match(court([], options))["finished"] is False


@pytest.mark.parametrize(
    ("bidding", "words"),
    [
        ({}, 'the hand needs "trumps"'),
        ({"winner": 1}, 'the hand needs "trumps"'),
        ({"trumps": "H", "court": "first7"}, 'unknown entry "court"'),
        ({"trumps": "s"}, 'the trumps must be "C", "D", "H" or "S"'),
        ({"trumps": 3}, "got 3"),
        ({"trumps": None}, "got nothing"),
        ("H", "the bidding must be an object"),
    ],
)
def test_check_bidding_refuses(bidding, words):
    error = bidding_error(court(deals(1, 1)), bidding)
    assert error.hand_index == 2
    assert str(error).startswith("Hand 3: ")
    assert words in str(error)


def test_check_bidding_says_what_score_match_says_and_completes_the_hand():
    match = court(deals(0))
    error = bidding_error(match, {"trumps": "X"})
    whole = invalid(court([*deals(0), {"winner": 1, "trumps": "X"}]))
    assert (error.hand_index, str(error)) == (whole.hand_index, str(whole))
    assert check_bidding(match, {"trumps": "D"}) is None
    # Completed: Bob deals (the dealer's side won deal 1) and Cat calls, so Bob & Dan's first seven is a goon kot.
    result = score_match(court([*deals(0), {"trumps": "D", "winner": 1, "court": "first7"}]))
    assert (result["hands"][1]["court"], result["totals"]) == ("goon_kot", [0, 1])


def test_check_bidding_checks_the_match_first():
    error = bidding_error(court([{"winner": 3}]), {"trumps": "H"})
    assert error.hand_index == 0
