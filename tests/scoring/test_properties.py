"""Property tests across the games (hypothesis).

The expected values come from small models of RULES.md written here and
from the reference scorers (tests/scoring/reference), not from the engine.
Kept fast: the whole file runs in a few seconds.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.scoring import InvalidHand, check_bidding, preview_hand, score_match
from tests.scoring.reference import drawbridge as reference_drawbridge
from tests.scoring.reference import spades as reference_spades

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALL_GAMES = ["spades", "drawbridge", "sixtysix", "ohhell"]
NEVER = 10**9  # a target nobody reaches


def round_trips(result):
    assert json.loads(json.dumps(result, allow_nan=False)) == result


def check_running_sums(result, n):
    totals = [0] * n
    for row in result["hands"]:
        assert len(row["points"]) == n
        assert all(type(p) is int for p in row["points"])
        totals = [t + p for t, p in zip(totals, row["points"], strict=True)]
        assert row["totals"] == totals
    assert result["totals"] == totals
    assert (result["next_hand"] is None) == result["finished"]
    if not result["finished"]:
        assert result["winners"] == []
        assert result["next_hand"]["number"] == len(result["hands"]) + 1


def names(n):
    return [f"P{i}" for i in range(n)]


# ------------------------------------------------------------ Spades

SPADES_BID = st.one_of(st.integers(0, 13), st.just("blind_nil"))


@st.composite
def spades_hands(draw):
    taken = draw(st.integers(0, 13))
    return {"bids": [draw(SPADES_BID), draw(SPADES_BID)], "tricks": [taken, 13 - taken]}


def spades_match(hands, failed_nil_bags, target):
    """The match of ``hands`` up to the one that ends it, by the reference
    scorer (tests/scoring/reference), and that scorer's result."""
    options = {"target": target, "failed_nil_bags": failed_nil_bags}
    match = {"game": "spades", "players": ["Ann", "Bob"], "options": options, "hands": []}
    for hand in hands:
        match["hands"].append(hand)
        if reference_spades.score(match)["finished"]:
            break
    return match, reference_spades.score(match)


@FAST
@given(
    hands=st.lists(spades_hands(), max_size=25),
    failed_nil_bags=st.booleans(),
    target=st.one_of(st.just(NEVER), st.just(500), st.integers(1, 400)),
)
def test_spades_matches_the_model(hands, failed_nil_bags, target):
    match, expected = spades_match(hands, failed_nil_bags, target)  # nothing after the end
    result = score_match(match)
    check_running_sums(result, 2)
    round_trips(result)
    assert result == expected
    for row in result["hands"]:
        assert all(0 <= b <= 9 for b in row["bags"])
        assert all(p <= 0 and p % 100 == 0 for p in row["bag_penalty"])


@FAST
@given(hands=st.lists(spades_hands(), min_size=1, max_size=12), extra=spades_hands())
def test_spades_nothing_after_the_end(hands, extra):
    match, expected = spades_match(hands, False, 100)
    if not expected["finished"]:
        return
    played = match["hands"]
    try:
        score_match(
            {"game": "spades", "players": ["Ann", "Bob"], "options": {"target": 100}, "hands": [*played, extra]}
        )
    except InvalidHand as error:
        assert error.hand_index == len(played)
    else:
        raise AssertionError("a hand after the end was accepted")


# ------------------------------------------------------------ Oh Hell

LARGEST = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}  # RULES.md 5.1


def ohhell_cards(n, schedule):
    top = LARGEST[n]
    up = list(range(1, top + 1))
    return {
        "up": up,
        "down": up[::-1],
        "up_down": up + up[-2::-1],
        "down_up": up[::-1] + up[1:],
    }[schedule]


@st.composite
def tricks_summing_to(draw, n, cards):
    owners = draw(st.lists(st.integers(0, n - 1), min_size=cards, max_size=cards))
    return [owners.count(i) for i in range(n)]


@st.composite
def ohhell_prefix_and_bad_hand(draw):
    n = draw(st.integers(3, 7))
    schedule = draw(st.sampled_from(["up", "down", "up_down", "down_up"]))
    hook = draw(st.booleans())
    options = {
        "schedule": schedule,
        "hook": hook,
        "simultaneous_bidding": False if hook else draw(st.booleans()),
        "miss_scores_tricks": draw(st.booleans()),
        "made_bid_score": draw(st.sampled_from(["ten_plus_tricks", "five_plus_cards"])),
    }
    cards = ohhell_cards(n, schedule)
    played = draw(st.integers(0, min(len(cards) - 1, 8)))
    hands = []
    for k in range(played + 1):
        c = cards[k]
        bids = draw(st.lists(st.integers(0, c), min_size=n, max_size=n))
        if hook and sum(bids) == c:
            dealer = k % n
            bids[dealer] = (bids[dealer] + 1) % (c + 1)
        hands.append({"bids": bids, "tricks": draw(tricks_summing_to(n, c))})
    # the last hand gets tricks in range that do not add up to the cards dealt
    c = cards[played]
    bad = draw(st.lists(st.integers(0, c), min_size=n, max_size=n))
    if sum(bad) == c:
        i = next(i for i, t in enumerate(bad) if t < c)
        bad[i] += 1
    hands[-1] = {"bids": hands[-1]["bids"], "tricks": bad}
    return names(n), options, hands


@FAST
@given(ohhell_prefix_and_bad_hand())
def test_ohhell_tricks_must_add_up_to_the_cards(case):
    players, options, hands = case
    match = {"game": "ohhell", "players": players, "options": options, "hands": hands}
    try:
        score_match(match)
    except InvalidHand as error:
        assert error.hand_index == len(hands) - 1
        assert str(error).startswith(f"Hand {len(hands)}: ")
    else:
        raise AssertionError(f"tricks {hands[-1]['tricks']} accepted")
    # the hands before it are legal, so they score
    result = score_match({**match, "hands": hands[:-1]})
    check_running_sums(result, len(players))
    round_trips(result)
    assert result["next_hand"]["cards"] == ohhell_cards(len(players), options["schedule"])[len(hands) - 1]


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 7), st.sampled_from(["up", "down", "up_down", "down_up"]), st.data())
def test_ohhell_whole_game(n, schedule, data):
    cards = ohhell_cards(n, schedule)
    hands = [
        {
            "bids": data.draw(st.lists(st.integers(0, c), min_size=n, max_size=n)),
            "tricks": data.draw(tricks_summing_to(n, c)),
        }
        for c in cards
    ]
    result = score_match({"game": "ohhell", "players": names(n), "options": {"schedule": schedule}, "hands": hands})
    check_running_sums(result, n)
    round_trips(result)
    assert result["finished"] is True
    assert [row["cards"] for row in result["hands"]] == cards
    for hand, row in zip(hands, result["hands"], strict=True):
        made = [b == t for b, t in zip(hand["bids"], hand["tricks"], strict=True)]
        assert row["made"] == made
        assert row["points"] == [10 + t if m else 0 for t, m in zip(hand["tricks"], made, strict=True)]
    best = max(result["totals"])
    assert result["winners"] == [i for i, t in enumerate(result["totals"]) if t == best]


# ------------------------------------------------------------ Draw Bridge


@st.composite
def drawbridge_hands(draw):
    if draw(st.integers(0, 9)) == 0:
        return {"passed_out": True}
    hand = {
        "declarer": draw(st.integers(0, 1)),
        "level": draw(st.integers(1, 7)),
        "strain": draw(st.sampled_from(["C", "D", "H", "S", "NT"])),
        "tricks": draw(st.integers(0, 13)),
    }
    double = draw(st.sampled_from([None, "none", "double", "redouble"]))
    if double is not None:
        hand["double"] = double
    return hand


@FAST
@given(hands=st.lists(drawbridge_hands(), max_size=20), undertrick_points=st.integers(0, 120), face_up=st.booleans())
def test_drawbridge_only_one_player_scores(hands, undertrick_points, face_up):
    options = {"target": NEVER, "undertrick_points": undertrick_points, "stock_face_up": face_up}
    result = score_match({"game": "drawbridge", "players": ["Ann", "Bob"], "options": options, "hands": hands})
    check_running_sums(result, 2)
    round_trips(result)
    for hand, row in zip(hands, result["hands"], strict=True):
        assert sum(1 for p in row["points"] if p != 0) <= 1
        assert min(row["points"]) >= 0
        assert (row["points"], row["made"]) == reference_drawbridge.score_hand(hand, undertrick_points)
    assert result["next_hand"]["dealer"] == len(hands) % 2


# ------------------------------------------------------------ Sixty-Six


@st.composite
def sixtysix_hands(draw):
    """Any legal deal by RULES.md 4.2."""
    end = draw(st.sampled_from(["out", "closed", "played_out"]))
    player = draw(st.integers(0, 1))
    other = 1 - player
    points = [0, 0]
    hand = {"end": end, "player": player}
    if end == "out":
        points[player] = draw(st.integers(0, 230))
        took = draw(st.booleans())
        points[other] = draw(st.integers(0, 230 - points[player])) if took else 0
    elif end == "closed":
        claimed = draw(st.booleans())
        at_close = draw(st.booleans())
        took = True if (claimed or at_close) else draw(st.booleans())
        if claimed:
            points[other] = draw(st.integers(66, 220))
            points[player] = draw(st.integers(0, 220 - points[other]))
        else:
            points[player] = draw(st.integers(0, 220))
            points[other] = draw(st.integers(0, 220 - points[player])) if took else 0
        hand["opponent_trick_at_close"] = at_close
        if claimed or draw(st.booleans()):
            hand["opponent_claimed"] = claimed
    else:
        total = 130 + 20 * draw(st.integers(0, 5))
        took = draw(st.booleans())
        points[other] = draw(st.integers(0, total - 10)) if took else 0
        points[player] = total - points[other]
    hand["points"] = points
    hand["opponent_took_trick"] = took
    return hand


@FAST
@given(hands=st.lists(sixtysix_hands(), max_size=20))
def test_sixtysix_only_one_player_scores(hands):
    result = score_match({"game": "sixtysix", "players": ["Ann", "Bob"], "options": {"target": NEVER}, "hands": hands})
    check_running_sums(result, 2)
    round_trips(result)
    for row in result["hands"]:
        assert sum(1 for p in row["points"] if p != 0) <= 1
        assert sorted(row["points"]) in ([0, 0], [0, 1], [0, 2], [0, 3])
        if row["winner"] is None:
            assert row["points"] == [0, 0]
        else:
            assert row["points"][row["winner"]] in (1, 2, 3)
            assert row["points"][1 - row["winner"]] == 0
    assert result["next_hand"]["dealer"] == len(hands) % 2


@FAST
@given(hands=st.lists(sixtysix_hands(), min_size=1, max_size=30))
def test_sixtysix_default_target_ends_the_game(hands):
    ends = None
    totals = [0, 0]
    for k, hand in enumerate(hands):
        result = score_match({"game": "sixtysix", "players": ["Ann", "Bob"], "hands": [hand]})
        totals = [t + p for t, p in zip(totals, result["hands"][0]["points"], strict=True)]
        if max(totals) >= 7:
            ends = k
            break
    played = hands if ends is None else hands[: ends + 1]
    result = score_match({"game": "sixtysix", "players": ["Ann", "Bob"], "hands": played})
    assert result["totals"] == totals
    assert result["finished"] is (ends is not None)
    if ends is not None:
        assert result["winners"] == [totals.index(max(totals))]


# ------------------------------------------------------------ junk input

KEYS = [
    "game",
    "players",
    "options",
    "hands",
    "bids",
    "tricks",
    "declarer",
    "level",
    "strain",
    "double",
    "passed_out",
    "end",
    "player",
    "points",
    "opponent_took_trick",
    "opponent_trick_at_close",
    "opponent_claimed",
    "target",
    "failed_nil_bags",
    "undertrick_points",
    "stock_face_up",
    "schedule",
    "hook",
    "made_bid_score",
    "miss_scores_tricks",
    "simultaneous_bidding",
    "must_trump",
]
WORDS = [
    "blind_nil",
    "NT",
    "S",
    "C",
    "none",
    "double",
    "redouble",
    "out",
    "closed",
    "played_out",
    "up",
    "down",
    "up_down",
    "down_up",
    "ten_plus_tricks",
    "five_plus_cards",
    *ALL_GAMES,
    "",
    " ",
]
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 16),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(WORDS),
    st.text(max_size=4),
)
JUNK = st.recursive(
    LEAVES,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=3)), kids, max_size=4),
    ),
    max_leaves=6,
)
HANDISH = st.one_of(JUNK, st.dictionaries(st.sampled_from(KEYS[4:17]), JUNK, max_size=6))
PLAYERS = st.one_of(
    st.sampled_from([["Ann", "Bob"], ["A", "B", "C"], ["A", "B", "C", "D"], names(7)]),
    st.lists(st.one_of(st.text(max_size=3), JUNK), max_size=8),
    JUNK,
)
OPTIONS = st.one_of(st.none(), st.dictionaries(st.sampled_from(KEYS[17:]), JUNK, max_size=4), JUNK)


@st.composite
def junk_matches(draw):
    match = {}
    for key, strategy in [
        ("game", st.one_of(st.sampled_from(ALL_GAMES), JUNK)),
        ("players", PLAYERS),
        ("options", OPTIONS),
        ("hands", st.one_of(st.lists(HANDISH, max_size=6), JUNK)),
    ]:
        if draw(st.integers(0, 9)) > 0:  # usually present
            match[key] = draw(strategy)
    if draw(st.integers(0, 19)) == 0:
        match[draw(st.text(max_size=3))] = draw(JUNK)
    return match if draw(st.integers(0, 19)) > 0 else draw(JUNK)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(junk_matches(), JUNK)
def test_junk_raises_only_invalid_hand(match, bidding):
    try:
        result = score_match(match)
    except InvalidHand as error:
        assert error.hand_index is None or (0 <= error.hand_index < len(match["hands"]))
        assert str(error).strip()
    else:
        round_trips(result)
        check_running_sums(result, len(match["players"]))
    try:
        assert check_bidding(match, bidding) is None
    except InvalidHand as error:
        assert error.hand_index is None or 0 <= error.hand_index <= len(match["hands"])
    try:
        preview = preview_hand(match, bidding)
    except InvalidHand as error:
        assert error.hand_index is None or 0 <= error.hand_index <= len(match["hands"])
    else:
        round_trips(preview)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_GAMES), st.lists(HANDISH, min_size=1, max_size=4), OPTIONS)
def test_junk_hands_in_a_good_match(game, hands, options):
    players = names(4) if game == "ohhell" else ["Ann", "Bob"]
    match = {"game": game, "players": players, "options": options, "hands": hands}
    try:
        result = score_match(match)
    except InvalidHand as error:
        assert error.hand_index is None or 0 <= error.hand_index < len(hands)
    else:
        round_trips(result)
        check_running_sums(result, len(players))


@st.composite
def ohhell_first_hands(draw):
    return {"bids": draw(st.lists(st.integers(0, 1), min_size=4, max_size=4)), "tricks": draw(tricks_summing_to(4, 1))}


LEGAL_HANDS = {
    "spades": spades_hands(),
    "drawbridge": drawbridge_hands(),
    "sixtysix": sixtysix_hands(),
    "ohhell": ohhell_first_hands(),
}


@st.composite
def nearly_legal(draw):
    """A legal first hand with one entry removed, replaced by junk, or given a list of junk."""
    game = draw(st.sampled_from(ALL_GAMES))
    hand = dict(draw(LEGAL_HANDS[game]))
    key = draw(st.sampled_from(sorted(hand) + KEYS[4:17]))
    action = draw(st.integers(0, 3))
    if action == 0:
        hand.pop(key, None)
    elif action == 1:
        hand[key] = draw(LEAVES)
    elif action == 2:
        hand[key] = draw(st.lists(LEAVES, max_size=5))
    else:
        hand[key] = draw(JUNK)
    return game, hand


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nearly_legal())
def test_nearly_legal_hands_raise_only_invalid_hand(case):
    game, hand = case
    players = names(4) if game == "ohhell" else ["Ann", "Bob"]
    try:
        result = score_match({"game": game, "players": players, "hands": [hand]})
    except InvalidHand as error:
        assert error.hand_index == 0
        assert str(error).startswith("Hand 1: ")
    else:
        round_trips(result)
        check_running_sums(result, len(players))
