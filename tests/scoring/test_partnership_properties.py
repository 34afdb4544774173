"""Property tests of the two games with partnerships (hypothesis).

Random legal matches are scored by the engine and by the reference scorers
of tests/scoring/reference (written from RULES.md 7 and 8), and the rules
that hold for every match are checked on their own: totals per side, the
bags in the last digit (7.3), the Court Piece dealer (8.1) worked out here
from the previous deal alone.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.scoring import InvalidHand, check_bidding, preview_hand, score_match
from tests.scoring.reference import courtpiece as reference_courtpiece
from tests.scoring.reference import partnership_spades as reference_spades

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FOUR = ["Ann", "Bob", "Cat", "Dan"]
SIDES = [[0, 2], [1, 3]]


def check_sides(result):
    """1.5: per-side points and totals, the running sums, "sides"; JSON both ways."""
    assert result["sides"] == SIDES
    totals = [0, 0]
    for row in result["hands"]:
        assert len(row["points"]) == 2 and all(type(p) is int for p in row["points"])
        totals = [t + p for t, p in zip(totals, row["points"], strict=True)]
        assert row["totals"] == totals
    assert result["totals"] == totals
    assert (result["next_hand"] is None) == result["finished"]
    assert result["winners"] in (([0], [1]) if result["finished"] else ([],))
    assert json.loads(json.dumps(result, allow_nan=False)) == result


# ------------------------------------------------------------ Partnership Spades

BID = st.one_of(st.integers(0, 13), st.integers(1, 5), st.just(0), st.just("blind_nil"))
SPADES_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "target": st.sampled_from([1, 100, 250, 500, 10**9]),
        "failed_nil_tricks": st.sampled_from(["bags", "contract", "none"]),
        "blind_nil": st.sampled_from(["behind_100", "always", "never"]),
        "partners_both_nil": st.booleans(),
        "losing_score": st.sampled_from([None, -1, -200, -500]),
    },
)


@st.composite
def spades_hand(draw, allowed, both_nil):
    """A legal hand: Blind Nil only where ``allowed`` (per side), two partner Nils only if ``both_nil``."""
    bids = [draw(BID) for _ in range(4)]
    for i, bid in enumerate(bids):
        if bid == "blind_nil" and not allowed[i % 2]:
            bids[i] = 0
    for side in SIDES:
        if not both_nil and all(bids[i] in (0, "blind_nil") for i in side):
            bids[side[1]] = draw(st.integers(1, 13))
    t0 = draw(st.integers(0, 13))
    hand = {"bids": bids, "tricks": [t0, 13 - t0]}
    nil_tricks = [None] * 4
    for s, side in enumerate(SIDES):
        nils = [i for i in side if bids[i] in (0, "blind_nil")]
        if len(nils) == 2:
            nil_tricks[nils[0]] = draw(st.integers(0, hand["tricks"][s]))
            nil_tricks[nils[1]] = hand["tricks"][s] - nil_tricks[nils[0]]
        elif nils:
            nil_tricks[nils[0]] = draw(st.one_of(st.just(0), st.integers(0, hand["tricks"][s])))
    if any(n is not None for n in nil_tricks):
        hand["nil_tricks"] = nil_tricks
    return hand


@st.composite
def spades_matches(draw):
    """A legal match of up to 30 hands, ended where the reference says the game is over."""
    options = draw(SPADES_OPTIONS)
    match = {"game": "partnership_spades", "players": FOUR, "options": options, "hands": []}
    result = reference_spades.score(match)
    for _ in range(draw(st.integers(0, 30))):
        if result["finished"]:
            break
        allowed = result["next_hand"]["blind_nil_allowed"]
        match["hands"].append(draw(spades_hand(allowed, options.get("partners_both_nil", True))))
        result = reference_spades.score(match)
    return match


@FAST
@given(spades_matches())
def test_partnership_spades_matches_the_reference(match):
    result = score_match(match)
    assert result == reference_spades.score(match)
    check_sides(result)
    for row in result["hands"]:
        assert all(0 <= b <= 9 for b in row["bags"])
        assert all(p <= 0 and p % 100 == 0 for p in row["bag_penalty"])
        # 7.3: a side's total modulo 10 (floored) is its carried bags
        assert [t % 10 for t in row["totals"]] == row["bags"]


@FAST
@given(spades_matches(), st.data())
def test_partnership_spades_bidding_then_play(match, data):
    """1.4: a bidding check_bidding accepts, completed with its tricks, scores."""
    result = score_match(match)
    if result["finished"]:
        return
    options = match["options"]
    hand = data.draw(spades_hand(result["next_hand"]["blind_nil_allowed"], options.get("partners_both_nil", True)))
    assert check_bidding(match, {"bids": hand["bids"]}) is None
    preview = preview_hand(match, hand)
    assert len(preview["hand"]["why"]) == 2
    assert preview["hand"]["totals"] == score_match({**match, "hands": [*match["hands"], hand]})["totals"]


# ------------------------------------------------------------ Court Piece

COURT_HAND = st.builds(
    lambda winner, court: {"winner": winner} if court is None else {"winner": winner, "court": court},
    st.integers(0, 1),
    st.one_of(st.none(), st.none(), st.none(), st.sampled_from(["none", "first7", "all13"])),
)
COURT_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "target": st.sampled_from([None, 1, 2, 3, 10, 100]),
        "deals": st.sampled_from([None, 1, 5, 20, 60]),
        "deal_run": st.sampled_from([0, 1, 2, 3, 7]),
        "goon_kot": st.sampled_from([1, 2]),
        "bavney": st.sampled_from([1, 2, 52]),
    },
)


def until_the_end(match, reference):
    """The hands of ``match`` up to the one that ends it (by the reference)."""
    hands, match["hands"] = match["hands"], []
    for hand in hands:
        match["hands"].append(hand)
        if reference.score(match)["finished"]:
            break
    return match


@FAST
@given(st.lists(COURT_HAND, max_size=200), COURT_OPTIONS)
def test_courtpiece_matches_the_reference(hands, options):
    match = until_the_end(
        {"game": "courtpiece", "players": FOUR, "options": options, "hands": hands}, reference_courtpiece
    )
    result = score_match(match)
    assert result == reference_courtpiece.score(match)
    check_sides(result)
    for row in result["hands"]:
        assert min(row["points"]) == 0  # only the winner of a deal scores
        assert row["points"][1 - row["winner"]] == 0
        assert 0 in row["run"]


@FAST
@given(st.lists(COURT_HAND, max_size=300))
def test_courtpiece_dealer_rotation(hands):
    """8.1 over a long open session: each deal's dealer follows from the one before, the dealer
    is always on the side that lost the last deal, and its winners call trumps next."""
    result = score_match({"game": "courtpiece", "players": FOUR, "options": {"target": None}, "hands": hands})
    check_sides(result)
    dealer = 0
    for row in result["hands"]:
        assert (row["dealer"], row["caller"]) == (dealer, (dealer + 1) % 4)
        calling_side = (dealer + 1) % 2
        if row["winner"] != calling_side:
            dealer = (dealer + 1) % 4
        elif row["court"] is not None:
            dealer = (dealer + 2) % 4
        assert dealer % 2 != row["winner"]  # the dealer's side lost the last deal
        assert (dealer + 1) % 2 == row["winner"]  # the winners call next
    assert result["next_hand"] == {
        "number": len(hands) + 1,
        "dealer": dealer,
        "caller": (dealer + 1) % 4,
        "leader": (dealer + 1) % 4,
    }
    if hands:
        assert sum(result["hands"][-1]["deals_won"]) == len(hands)


@FAST
@given(st.lists(COURT_HAND, min_size=1, max_size=40), COURT_HAND, COURT_OPTIONS)
def test_courtpiece_nothing_after_the_end(hands, extra, options):
    match = until_the_end(
        {"game": "courtpiece", "players": FOUR, "options": options, "hands": hands}, reference_courtpiece
    )
    if not score_match(match)["finished"]:
        return
    try:
        score_match({**match, "hands": [*match["hands"], extra]})
    except InvalidHand as error:
        assert error.hand_index == len(match["hands"])
    else:
        raise AssertionError("a deal after the end was accepted")


# ------------------------------------------------------------ junk never crashes

LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 16),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["blind_nil", "none", "first7", "all13", "H", "NT", "", "bags"]),
)
JUNK = st.recursive(LEAVES, lambda kids: st.lists(kids, max_size=5), max_leaves=8)
KEYS = ["bids", "tricks", "nil_tricks", "winner", "court", "trumps", "points"]
HANDISH = st.one_of(JUNK, st.dictionaries(st.sampled_from(KEYS), JUNK, max_size=5))
OPTIONS = st.one_of(
    st.none(),
    st.dictionaries(
        st.sampled_from(
            ["target", "deals", "deal_run", "goon_kot", "bavney", "failed_nil_tricks", "blind_nil", "losing_score"]
        ),
        LEAVES,
        max_size=3,
    ),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["partnership_spades", "courtpiece"]), st.lists(HANDISH, max_size=4), OPTIONS, HANDISH)
def test_junk_raises_only_invalid_hand(game, hands, options, bidding):
    match = {"game": game, "players": FOUR, "options": options, "hands": hands}
    try:
        check_sides(score_match(match))
    except InvalidHand as error:
        assert error.hand_index is None or 0 <= error.hand_index < len(hands)
        assert str(error).strip()
    try:
        check_bidding(match, bidding)
    except InvalidHand as error:
        assert error.hand_index is None or 0 <= error.hand_index <= len(hands)
