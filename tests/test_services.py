"""Every write goes through scorekeeper.services: these tests check that the
services store what the table entered, keep the cached totals, winners,
status and hands_played equal to what RULES.md says, refuse what the rules
refuse without saving anything, and leave an audit trail.

Expected numbers come from the worked examples of RULES.md (S1-S4, D1-D5,
X1-X6, O1-O5) or are worked out by hand from its tables, as commented.
"""

from __future__ import annotations

import pytest

from scorekeeper import selectors, services
from scorekeeper.models import AuditEvent, Hand, Match, Player
from scorekeeper.scoring import InvalidHand, check_bidding
from scorekeeper.services import ServiceError

from .conftest import (
    D1,
    D2,
    D3,
    D4,
    D5,
    O1,
    O3,
    O5,
    O5_PLAYERS,
    PASSED_OUT,
    S1,
    S2,
    S3,
    S4,
    X1,
    X2,
    X3,
    X4,
    X5,
    X6,
    contract,
    deal,
    entries,
    ohhell_hand,
    snapshot,
    spades_hand,
)

pytestmark = pytest.mark.django_db


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def record(match: Match, entry: dict, **kwargs) -> services.HandSaved:
    return services.record_hand(match_id=match.pk, entry=entry, **kwargs)


def refused(call, *, code: str | None = None) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        call()
    if code is not None:
        assert info.value.code == code, info.value.message
    return info.value


def assert_state(match: Match, *, totals, status="in_progress", winners=(), hands_played=None, pending=None):
    match = fresh(match)
    assert match.totals == list(totals)
    assert match.status == status
    assert match.winners == list(winners)
    if hands_played is not None:
        assert match.hands_played == hands_played
        assert match.hands.count() == hands_played
    assert match.pending_bidding == pending
    if status == "finished":
        assert match.finished_at is not None
    else:
        assert match.finished_at is None
    return match


# One legal first hand per game, with its points from the worked examples,
# a legal second hand and the totals after both (worked out from RULES.md).
FIRST = {
    "spades": (S1[0], [71, 41]),  # S1
    "drawbridge": (D1, [100, 0]),  # D1
    "sixtysix": (X1, [1, 0]),  # X1
    "ohhell": (O1, [10, 11, 10, 10]),  # O1
}
SECOND = {
    # S1 again: 71 and 41 more (bags 2 and 2, no penalty).
    "spades": (S1[0], [142, 82]),
    # D2: Bob 4S doubled, 11 tricks: 5 x 30 x 2 = 300.
    "drawbridge": (D2, [100, 300]),
    # X2: Bob out with 66, Ann has 25 (< 33): 2.
    "sixtysix": (X2, [1, 2]),
    # 2 cards: Ann bid 2 took 1 (missed, 0); Bob 0/0: 10; Cat 0/0: 10; Dan 1/1: 11.
    "ohhell": (ohhell_hand([2, 0, 0, 1], [1, 0, 0, 1]), [10, 21, 20, 21]),
}
BIDDING = {
    "spades": {"bids": [7, 4]},
    "drawbridge": {"declarer": 0, "level": 3, "strain": "NT"},
    "ohhell": {"bids": [0, 1, 0, 0]},
}
ALL_GAMES = ["spades", "drawbridge", "sixtysix", "ohhell"]
BIDDING_GAMES = ["spades", "drawbridge", "ohhell"]


# ======================================================================
# Spades


def test_spades_bids_then_tricks_s1(make_match):
    match = make_match("spades")
    version = match.version
    services.save_bidding(match_id=match.pk, bidding={"bids": [7, 4]}, expected_number=1)
    match = fresh(match)
    assert match.pending_bidding == {"bids": [7, 4]}
    assert match.version == version + 1
    assert match.hands_played == 0

    saved = record(match, spades_hand([7, 4], [8, 5]), expected_number=1)
    assert saved.created
    assert saved.hand.number == 1
    # S1: Ann bid 7 took 8: 71; Bob bid 4 took 5: 41.
    assert_state(match, totals=[71, 41], hands_played=1, pending=None)


def test_spades_all_at_once_s2_nil_blind_nil_and_bag_penalty(make_match):
    match = make_match("spades")
    record(match, S2[0])
    assert_state(match, totals=[100, 58], hands_played=1)
    record(match, S2[1])
    # Ann's Blind Nil failed: -200; Bob 93 less the 100 bag penalty: -7.
    assert_state(match, totals=[-100, 51], hands_played=2)


def test_spades_s3_sandbagging(make_match):
    match = make_match("spades", names=["Bonnie", "Carl"], hands=S3)
    assert_state(match, totals=[-39, 224], hands_played=4)


def test_spades_s4_tie_at_the_target_plays_on_then_finishes(make_match):
    match = make_match("spades", options={"target": 100}, hands=S4[:2])
    # Both on 103: tied at or above the target, so the game goes on.
    assert_state(match, totals=[103, 103], hands_played=2)
    record(match, S4[2])
    assert_state(match, totals=[144, 165], status="finished", winners=[1], hands_played=3)


def test_spades_edit_rescores_the_later_hands_and_carries_bags(make_match):
    match = make_match("spades", hands=S2)
    services.edit_hand(match_id=match.pk, number=1, entry=spades_hand([0, 5], [1, 12]), expected_version=None)
    # Hand 1 now: Ann's Nil fails (-100); Bob 50 + 7 = 57 with 7 bags.
    # Hand 2: Ann's Blind Nil fails (-200); Bob 90 + 3 = 93, bags 7 + 3 = 10: -100, so -7.
    assert_state(match, totals=[-300, 50], hands_played=2)
    assert entries(match)[0] == spades_hand([0, 5], [1, 12])


def test_spades_undo_goes_back_to_the_totals_before_the_hand(make_match):
    match = make_match("spades", hands=S2)
    services.undo_last_hand(match_id=match.pk, expected_version=fresh(match).version)
    assert_state(match, totals=[100, 58], hands_played=1)
    assert list(match.hands.values_list("number", flat=True)) == [1]


def test_spades_edit_that_ends_the_game_early_is_refused(make_match):
    match = make_match("spades", options={"target": 100}, hands=S4[:2])
    before = snapshot(match)
    # Ann bids 10 and takes 10: 100, the target, alone: hand 2 would come after the end.
    error = refused(
        lambda: services.edit_hand(
            match_id=match.pk, number=1, entry=spades_hand([10, 3], [10, 3]), expected_version=before["version"]
        )
    )
    assert "Hand 2" in error.message
    assert "already over" in error.message
    assert snapshot(match) == before


def test_spades_bid_of_14_is_refused_with_the_engines_message(make_match):
    match = make_match("spades")
    before = snapshot(match)
    error = refused(lambda: services.save_bidding(match_id=match.pk, bidding={"bids": [3, 14]}, expected_number=1))
    assert error.code == "invalid"
    assert error.message == engine_bidding_error(match, {"bids": [3, 14]})
    assert "Hand 1" in error.message
    assert "Bob" in error.message
    assert "14" in error.message
    assert snapshot(match) == before


def test_spades_bad_tricks_are_refused_and_nothing_is_saved(make_match):
    match = make_match("spades", hands=S1)
    before = snapshot(match)
    error = refused(lambda: record(match, spades_hand([3, 4], [6, 6])))
    assert "Hand 2" in error.message
    assert "add up to 12" in error.message
    assert snapshot(match) == before


# ======================================================================
# Draw Bridge


def test_drawbridge_contract_then_tricks_d1(make_match):
    match = make_match("drawbridge")
    services.save_bidding(match_id=match.pk, bidding={"declarer": 0, "level": 3, "strain": "NT"}, expected_number=1)
    assert fresh(match).pending_bidding == {"declarer": 0, "level": 3, "strain": "NT"}
    record(match, D1, expected_number=1)
    # D1: 3NT made exactly: 40 + 30 + 30.
    assert_state(match, totals=[100, 0], hands_played=1, pending=None)


def test_drawbridge_passed_out_bidding_then_a_part_score_d4(make_match):
    match = make_match("drawbridge")
    services.save_bidding(match_id=match.pk, bidding={"passed_out": True}, expected_number=1)
    record(match, PASSED_OUT, expected_number=1)
    assert_state(match, totals=[0, 0], hands_played=1)
    record(match, D4[1], expected_number=2)
    # D4: Bob 1C with 8 tricks: 2 over six x 20.
    assert_state(match, totals=[0, 40], hands_played=2)


def test_drawbridge_doubled_and_redoubled_reach_the_default_target(make_match):
    match = make_match("drawbridge")
    record(match, D2)
    # D2: Bob 4S doubled, 11 tricks: 300.
    assert_state(match, totals=[0, 300], hands_played=1)
    record(match, D3)
    # D3: Ann 2H redoubled, 7 tricks: one down x 50 x 4 = 200 to Bob: 500, the default target.
    assert_state(match, totals=[0, 500], status="finished", winners=[1], hands_played=2)


def test_drawbridge_d5_reaching_the_target(make_match):
    match = make_match("drawbridge", options={"target": 200})
    record(match, D5)
    # D5: 6NT doubled, 12 tricks: (40 + 5 x 30) x 2 = 380.
    assert_state(match, totals=[380, 0], status="finished", winners=[0], hands_played=1)


def test_drawbridge_edit_that_reaches_the_target_is_refused(make_match):
    match = make_match("drawbridge", options={"target": 200}, hands=[D1, D4[1]])
    assert_state(match, totals=[100, 40], hands_played=2)
    before = snapshot(match)
    error = refused(
        lambda: services.edit_hand(match_id=match.pk, number=1, entry=D5, expected_version=before["version"])
    )
    assert "Hand 2" in error.message
    assert "already over" in error.message
    assert snapshot(match) == before


def test_drawbridge_edit_that_sets_the_winning_contract_reopens_the_match(make_match):
    match = make_match("drawbridge", options={"target": 200}, hands=[D5])
    services.edit_hand(match_id=match.pk, number=1, entry=contract(0, 6, "NT", 11, "double"), expected_version=None)
    # 6NT doubled, 11 tricks: one down x 50 x 2 = 100 to Bob; nobody has 200.
    match = assert_state(match, totals=[0, 100], status="in_progress", winners=[], hands_played=1)
    record(match, D1)  # the match takes hands again
    assert_state(match, totals=[100, 100], hands_played=2)


# ======================================================================
# Sixty-Six


def test_sixtysix_has_no_bidding(make_match):
    match = make_match("sixtysix")
    before = snapshot(match)
    error = refused(lambda: services.save_bidding(match_id=match.pk, bidding={"bids": [1, 2]}, expected_number=1))
    assert "no bidding" in error.message
    assert snapshot(match) == before


def test_sixtysix_deals_x1_to_x5_up_to_the_target(make_match):
    match = make_match("sixtysix")
    # X1 Ann +1; X2 Bob +2; X3 Ann +3 (schwarz); X4 false claim: Bob +2;
    # X5 Bob closed and fell short, Ann had no trick at the close: Ann +3.
    expected = [[1, 0], [1, 2], [4, 2], [4, 4]]
    for entry, totals in zip([X1, X2, X3, X4], expected, strict=True):
        record(match, entry)
        assert_state(match, totals=totals)
    record(match, X5)
    assert_state(match, totals=[7, 4], status="finished", winners=[0], hands_played=5)


def test_sixtysix_played_out_and_drawn_deal_x6(make_match):
    match = make_match("sixtysix", hands=X6)
    # 75-55: Ann +1 (Bob has 33 or more); 65-65: drawn, nobody scores.
    assert_state(match, totals=[1, 0], hands_played=2)


def test_sixtysix_edit_that_ends_the_game_early_is_refused(make_match):
    match = make_match("sixtysix", options={"target": 3}, hands=[X1, X2, X1])
    assert_state(match, totals=[2, 2], hands_played=3)
    before = snapshot(match)
    # X3 in hand 1 gives Ann 3 at once: hand 2 would come after the end.
    error = refused(
        lambda: services.edit_hand(match_id=match.pk, number=1, entry=X3, expected_version=before["version"])
    )
    assert "Hand 2" in error.message
    assert "already over" in error.message
    assert snapshot(match) == before


def test_sixtysix_edit_of_the_last_deal_reopens_the_match(make_match):
    match = make_match("sixtysix", hands=[X1, X2, X3, X4, X5])
    assert fresh(match).status == "finished"
    # Deal 5 becomes: Bob out with 66, Ann has 40 (33 or more): Bob +1.
    services.edit_hand(match_id=match.pk, number=5, entry=deal("out", 1, [40, 66]), expected_version=None)
    assert_state(match, totals=[4, 5], status="in_progress", winners=[], hands_played=5)


def test_sixtysix_inconsistent_deal_is_refused(make_match):
    match = make_match("sixtysix")
    before = snapshot(match)
    # Bob took no trick, so Bob cannot have card points.
    error = refused(lambda: record(match, deal("out", 0, [70, 12], took=False)))
    assert "Bob" in error.message
    assert snapshot(match) == before


# ======================================================================
# Oh Hell


def test_ohhell_bids_then_tricks_o1(make_match):
    match = make_match("ohhell")
    services.save_bidding(match_id=match.pk, bidding={"bids": [0, 1, 0, 0]}, expected_number=1)
    assert fresh(match).pending_bidding == {"bids": [0, 1, 0, 0]}
    record(match, O1, expected_number=1)
    # O1: everybody made the bid: 10 + tricks.
    assert_state(match, totals=[10, 11, 10, 10], hands_played=1, pending=None)


def test_ohhell_scoring_options_o3(make_match):
    match = make_match(
        "ohhell", options={"made_bid_score": "five_plus_cards", "miss_scores_tricks": True}, hands=O3[:1]
    )
    assert_state(match, totals=[6, 1, 0, 6])
    record(match, O3[1])
    assert_state(match, totals=[7, 8, 7, 13], hands_played=2)


def test_ohhell_whole_seven_player_game_o5_is_a_shared_win(make_match):
    match = make_match("ohhell", names=O5_PLAYERS, hands=O5)
    assert_state(match, totals=[65, 53, 74, 74, 72, 60, 64], status="finished", winners=[2, 3], hands_played=7)
    before = snapshot(match)
    error = refused(lambda: record(match, ohhell_hand([0] * 7, [1, 0, 0, 0, 0, 0, 0])), code="closed")
    assert error.message
    assert snapshot(match) == before


def test_ohhell_edit_of_a_finished_game_changes_the_winner(make_match):
    match = make_match("ohhell", names=O5_PLAYERS, hands=O5)
    # Hand 7 (7 cards): A now takes the 2 tricks bid (12) and B the 1 bid (11);
    # the others score as before. A 65 + 12 = 77, B 53 + 11 = 64.
    edited = ohhell_hand([2, 1, 1, 1, 1, 0, 1], [2, 1, 1, 1, 1, 0, 1])
    services.edit_hand(match_id=match.pk, number=7, entry=edited, expected_version=None)
    assert_state(match, totals=[77, 64, 74, 74, 72, 60, 64], status="finished", winners=[0], hands_played=7)


def test_ohhell_undo_of_the_last_hand_reopens_the_game(make_match):
    match = make_match("ohhell", names=O5_PLAYERS, hands=O5)
    services.undo_last_hand(match_id=match.pk, expected_version=None)
    # Hand 7 gave [0, 0, 11, 11, 11, 10, 11].
    assert_state(match, totals=[65, 53, 63, 63, 61, 50, 53], status="in_progress", winners=[], hands_played=6)


def test_ohhell_hook_violation_in_the_bidding_is_refused_o2(make_match):
    match = make_match("ohhell", options={"hook": True}, hands=[ohhell_hand([0, 0, 0, 0], [0, 1, 0, 0])])
    before = snapshot(match)
    bidding = {"bids": [1, 0, 1, 0]}
    error = refused(lambda: services.save_bidding(match_id=match.pk, bidding=bidding, expected_number=2))
    assert error.message == engine_bidding_error(match, bidding)
    # Bids total 2 in a 2-card hand; Bob deals and may not bid 0.
    assert "Hand 2" in error.message
    assert "Bob" in error.message
    assert "may not bid 0" in error.message
    assert snapshot(match) == before
    # The same bids entered with the tricks are refused too.
    error = refused(lambda: record(match, ohhell_hand([1, 0, 1, 0], [1, 0, 1, 0])))
    assert "may not bid 0" in error.message
    assert snapshot(match) == before


def test_ohhell_edit_with_tricks_not_adding_up_is_refused(make_match):
    match = make_match("ohhell", hands=[O1])
    before = snapshot(match)
    error = refused(
        lambda: services.edit_hand(
            match_id=match.pk, number=1, entry=ohhell_hand([0, 1, 0, 0], [1, 1, 0, 0]), expected_version=None
        )
    )
    assert "Hand 1" in error.message
    assert "add up to 2" in error.message
    assert snapshot(match) == before


def engine_bidding_error(match: Match, bidding: dict) -> str:
    """The message the engine itself gives for this bidding."""
    names = list(match.seats.order_by("position").values_list("player__name", flat=True))
    with pytest.raises(InvalidHand) as info:
        check_bidding(match.engine_input(names, entries(match)), bidding)
    return str(info.value)


# ======================================================================
# The same behaviour for every game


# A different hand 1 for each game, and the totals after it and SECOND's hand 2.
EDITED_FIRST = {
    # Ann bid 7 took 7: 70; Bob bid 4 took 6: 42 (2 bags); then S1: 71 and 41.
    "spades": (spades_hand([7, 4], [7, 6]), [141, 83]),
    # D4's Bob 1C with 8 tricks: 40; then D2: Bob 300.
    "drawbridge": (D4[1], [0, 340]),
    # X4, Ann's false claim: Bob 2; then X2: Bob 2.
    "sixtysix": (X4, [0, 4]),
    # 1 card: Ann bid 1 took 0 and Bob bid 0 took 1 miss (0); Cat, Dan 0/0: 10;
    # then hand 2 as in SECOND: [0, 10, 10, 11].
    "ohhell": (ohhell_hand([1, 0, 0, 0], [0, 1, 0, 0]), [0, 10, 20, 21]),
}


@pytest.mark.parametrize("game", ALL_GAMES)
def test_record_then_edit_then_undo_keep_the_cached_totals(make_match, game):
    first, first_totals = FIRST[game]
    second, both_totals = SECOND[game]
    match = make_match(game)
    record(match, first)
    assert_state(match, totals=first_totals, hands_played=1)
    record(match, second)
    assert_state(match, totals=both_totals, hands_played=2)

    edited, edited_totals = EDITED_FIRST[game]
    services.edit_hand(match_id=match.pk, number=1, entry=edited, expected_version=fresh(match).version)
    assert entries(match) == [edited, second]
    assert_state(match, totals=edited_totals, hands_played=2)

    services.undo_last_hand(match_id=match.pk, expected_version=fresh(match).version)
    assert entries(match) == [edited]
    services.undo_last_hand(match_id=match.pk, expected_version=fresh(match).version)
    assert_state(match, totals=[0] * len(first_totals), hands_played=0)
    assert refused(lambda: services.undo_last_hand(match_id=match.pk, expected_version=None)).message


@pytest.mark.parametrize("game", BIDDING_GAMES)
def test_pending_bids_are_cleared_when_the_hand_is_recorded(make_match, game):
    match = make_match(game)
    services.save_bidding(match_id=match.pk, bidding=BIDDING[game], expected_number=1)
    assert fresh(match).pending_bidding == BIDDING[game]
    record(match, FIRST[game][0])
    assert fresh(match).pending_bidding is None


@pytest.mark.parametrize("game", BIDDING_GAMES)
def test_pending_bids_are_cleared_by_undo(make_match, game):
    match = make_match(game, hands=[FIRST[game][0]])
    # Bids for hand 2, then hand 1 is undone: those bids belonged to another deal.
    bidding = {"bids": [0, 0, 0, 0]} if game == "ohhell" else BIDDING[game]
    services.save_bidding(match_id=match.pk, bidding=bidding, expected_number=2)
    assert fresh(match).pending_bidding == bidding
    services.undo_last_hand(match_id=match.pk, expected_version=None)
    assert_state(match, totals=[0] * len(FIRST[game][1]), hands_played=0, pending=None)


def test_pending_bids_are_cleared_when_an_edit_ends_the_game(make_match):
    match = make_match("spades", options={"target": 100}, hands=S4[:2])
    services.save_bidding(match_id=match.pk, bidding={"bids": [4, 6]}, expected_number=3)
    # Hand 2 as Ann 5 bid, 8 taken: 53 (105 in all); Bob 5 bid, 5 taken: 50 (101).
    # Both past 100, Ann alone on top: she wins after hand 2.
    services.edit_hand(match_id=match.pk, number=2, entry=spades_hand([5, 5], [8, 5]), expected_version=None)
    assert_state(match, totals=[105, 101], status="finished", winners=[0], hands_played=2, pending=None)


@pytest.mark.parametrize("game", BIDDING_GAMES)
def test_clear_bidding(make_match, game):
    match = make_match(game)
    services.save_bidding(match_id=match.pk, bidding=BIDDING[game], expected_number=1)
    services.clear_bidding(match_id=match.pk)
    assert fresh(match).pending_bidding is None
    assert AuditEvent.objects.filter(match=match, action="bids cleared").count() == 1


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_repeated_client_key_stores_one_hand(make_match, game):
    match = make_match(game)
    entry = FIRST[game][0]
    first = record(match, entry, client_key="tap-1", expected_number=1)
    after_first = snapshot(match)
    # A double tap or a retry sends the same form again (same key, same number).
    again = record(match, entry, client_key="tap-1", expected_number=1)
    assert first.created is True
    assert again.created is False
    assert again.hand.pk == first.hand.pk
    assert again.hand.number == 1
    assert snapshot(match) == after_first
    assert Hand.objects.filter(match=match).count() == 1
    # A new form (new key) is the next hand.
    record(match, SECOND[game][0], client_key="tap-2", expected_number=2)
    assert_state(match, totals=SECOND[game][1], hands_played=2)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_expected_number_mismatch_is_a_conflict(make_match, game):
    match = make_match(game, hands=[FIRST[game][0]])
    before = snapshot(match)
    # Another device already saved hand 1; this form still shows hand 1.
    error = refused(lambda: record(match, SECOND[game][0], expected_number=1), code="conflict")
    assert "Hand 1 was already saved" in error.message
    assert snapshot(match) == before
    if game in BIDDING:
        refused(
            lambda: services.save_bidding(match_id=match.pk, bidding=BIDDING[game], expected_number=1),
            code="conflict",
        )
        assert snapshot(match) == before


# ----------------------------------------------------------------------
# Saving from the state the form was read against (``seen``): the hand is
# scored before the transaction, which only writes if nothing changed.


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_hand_saved_from_the_state_read_before_scores_like_any_other(make_match, game):
    match = make_match(game, hands=[FIRST[game][0]])
    seen = selectors.match_state(match.pk)
    saved = record(match, SECOND[game][0], client_key="k2", expected_number=2, seen=seen)
    assert saved.created and saved.hand.number == 2
    assert_state(match, totals=SECOND[game][1], hands_played=2)
    assert AuditEvent.objects.filter(match=match, action="hand recorded", hand_number=2).count() == 1
    # The state handed back is the stored one (the sheet is drawn from it).
    assert saved.state.entries == entries(match)
    assert saved.state.match.totals == fresh(match).totals
    assert saved.state.match.version == fresh(match).version
    assert seen.entries == [FIRST[game][0]]  # what the caller read is left as it was


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_hand_saved_from_an_outdated_state_is_scored_on_the_stored_hands(make_match, game):
    match = make_match(game)
    seen = selectors.match_state(match.pk)
    record(match, FIRST[game][0])  # another device, after this form was read
    # This device's form showed hand 1: refused, nothing changed.
    before = snapshot(match)
    error = refused(lambda: record(match, SECOND[game][0], expected_number=1, seen=seen), code="conflict")
    assert "Hand 1 was already saved" in error.message
    assert snapshot(match) == before
    # Without a hand number the hand becomes hand 2, scored after hand 1.
    saved = record(match, SECOND[game][0], seen=seen)
    assert saved.hand.number == 2 and saved.state is None
    assert_state(match, totals=SECOND[game][1], hands_played=2)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_the_sheet_answering_a_saved_hand_is_the_stored_match_s(make_match, game):
    """The answer's sheet is drawn from the scoring done to save the hand
    (not scored again): it must be the sheet the stored match gives."""
    match = make_match(game, hands=[FIRST[game][0]])
    saved = record(match, SECOND[game][0], expected_number=2, seen=selectors.match_state(match.pk))
    answered, stored = selectors.build_sheet(saved.state), selectors.score_sheet(match.pk)
    for name in ("names", "totals", "finished", "winners", "next_hand", "hints", "pending", "problem"):
        assert getattr(answered, name) == getattr(stored, name), name
    assert answered.rows == stored.rows


def test_a_double_tap_from_the_state_read_before_stores_one_hand(make_match):
    match = make_match("spades")
    seen = selectors.match_state(match.pk)
    first = record(match, S1[0], client_key="tap", expected_number=1, seen=seen)
    again = record(match, S1[0], client_key="tap", expected_number=1, seen=seen)  # same page, second tap
    assert (first.created, again.created) == (True, False)
    assert again.hand.pk == first.hand.pk
    assert Hand.objects.filter(match=match).count() == 1
    assert_state(match, totals=[71, 41], hands_played=1)  # S1


def test_a_finishing_hand_saved_from_the_state_read_before_ends_the_match(make_match):
    # X1-X4 leave 4-4; X5 gives Ann 3: 7, the default target.
    match = make_match("sixtysix", hands=[X1, X2, X3, X4])
    seen = selectors.match_state(match.pk)
    record(match, X5, expected_number=5, seen=seen)
    assert_state(match, totals=[7, 4], status="finished", winners=[0], hands_played=5)
    assert fresh(match).finished_at is not None


def test_a_closed_match_refuses_a_hand_saved_from_the_state_read_before(make_match):
    match = make_match("spades")
    seen = selectors.match_state(match.pk)
    services.abandon_match(match_id=match.pk)
    before = snapshot(match)
    refused(lambda: record(match, S1[0], expected_number=1, seen=seen), code="closed")
    assert snapshot(match) == before


@pytest.mark.parametrize("game", ALL_GAMES)
def test_stale_version_on_edit_and_undo_is_a_conflict(make_match, game):
    match = make_match(game, hands=[FIRST[game][0]])
    stale = fresh(match).version
    record(match, SECOND[game][0])  # someone else writes meanwhile
    before = snapshot(match)
    refused(
        lambda: services.edit_hand(match_id=match.pk, number=1, entry=SECOND[game][0], expected_version=stale),
        code="conflict",
    )
    assert snapshot(match) == before
    refused(lambda: services.undo_last_hand(match_id=match.pk, expected_version=stale), code="conflict")
    assert snapshot(match) == before
    # With the current version both work.
    services.undo_last_hand(match_id=match.pk, expected_version=before["version"])
    assert fresh(match).hands_played == 1


@pytest.mark.parametrize("game", ALL_GAMES)
def test_every_write_bumps_the_version(make_match, game):
    match = make_match(game)
    versions = [fresh(match).version]
    if game in BIDDING:
        services.save_bidding(match_id=match.pk, bidding=BIDDING[game], expected_number=1)
        versions.append(fresh(match).version)
    record(match, FIRST[game][0])
    versions.append(fresh(match).version)
    services.edit_hand(match_id=match.pk, number=1, entry=FIRST[game][0], expected_version=versions[-1])
    versions.append(fresh(match).version)
    services.undo_last_hand(match_id=match.pk, expected_version=versions[-1])
    versions.append(fresh(match).version)
    assert versions == sorted(set(versions)), versions


# The shortest way to finish each game, with the winner (from the worked examples).
FINISHED = {
    "spades": ({"target": 100}, ["Ann", "Bob"], S4, [144, 165], [1]),
    "drawbridge": ({"target": 200}, ["Ann", "Bob"], [D5], [380, 0], [0]),
    "sixtysix": ({"target": 3}, ["Ann", "Bob"], [X3], [3, 0], [0]),  # X3: schwarz, 3
    "ohhell": ({}, O5_PLAYERS, O5, [65, 53, 74, 74, 72, 60, 64], [2, 3]),
}
# An edit of the last hand that leaves nobody at the end (worked out from RULES.md).
UNFINISH = {
    # S4 hand 3 as both bidding Nil and failing: 103 - 100 each = 3 and 3.
    "spades": (spades_hand([0, 0], [6, 7]), [3, 3]),
    # D5 one trick short: one down x 50 x 2 = 100 to Bob.
    "drawbridge": (contract(0, 6, "NT", 11, "double"), [0, 100]),
    # X1 instead of X3: Ann +1 only.
    "sixtysix": (X1, [1, 0]),
}


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_finished_match_refuses_a_new_hand(make_match, game):
    options, names, hands, totals, winners = FINISHED[game]
    match = make_match(game, names=names, options=options, hands=hands)
    assert_state(match, totals=totals, status="finished", winners=winners, hands_played=len(hands))
    before = snapshot(match)
    next_entry = ohhell_hand([0] * 7, [1] + [0] * 6) if game == "ohhell" else FIRST[game][0]
    error = refused(lambda: record(match, next_entry, expected_number=len(hands) + 1), code="closed")
    assert "over" in error.message
    assert snapshot(match) == before
    if game in BIDDING:
        bidding = {"bids": [0] * 7} if game == "ohhell" else BIDDING[game]
        refused(lambda: services.save_bidding(match_id=match.pk, bidding=bidding, expected_number=None), code="closed")
        assert snapshot(match) == before


@pytest.mark.parametrize("game", ["spades", "drawbridge", "sixtysix"])
def test_an_edit_that_undoes_the_win_reopens_the_match(make_match, game):
    options, names, hands, _totals, _winners = FINISHED[game]
    match = make_match(game, names=names, options=options, hands=hands)
    entry, totals = UNFINISH[game]
    services.edit_hand(match_id=match.pk, number=len(hands), entry=entry, expected_version=fresh(match).version)
    assert_state(match, totals=totals, status="in_progress", winners=[], hands_played=len(hands))
    # Hands can be added again.
    assert record(match, FIRST[game][0], expected_number=len(hands) + 1).created


@pytest.mark.parametrize("game", ALL_GAMES)
def test_undo_of_the_winning_hand_reopens_the_match(make_match, game):
    options, names, hands, _totals, _winners = FINISHED[game]
    match = make_match(game, names=names, options=options, hands=hands)
    services.undo_last_hand(match_id=match.pk, expected_version=None)
    match = fresh(match)
    assert match.status == "in_progress"
    assert match.winners == []
    assert match.finished_at is None
    assert match.hands_played == len(hands) - 1


@pytest.mark.parametrize("game", ALL_GAMES)
def test_abandon_and_reopen(make_match, game):
    match = make_match(game, hands=[FIRST[game][0]])
    services.abandon_match(match_id=match.pk)
    assert fresh(match).status == "abandoned"
    before = snapshot(match)
    refused(lambda: record(match, SECOND[game][0]), code="closed")
    refused(
        lambda: services.edit_hand(match_id=match.pk, number=1, entry=SECOND[game][0], expected_version=None),
        code="closed",
    )
    refused(lambda: services.undo_last_hand(match_id=match.pk, expected_version=None), code="closed")
    if game in BIDDING:
        refused(
            lambda: services.save_bidding(match_id=match.pk, bidding=BIDDING[game], expected_number=None),
            code="closed",
        )
    assert snapshot(match) == before
    refused(lambda: services.abandon_match(match_id=match.pk))  # already abandoned

    services.reopen_match(match_id=match.pk)
    assert_state(match, totals=FIRST[game][1], status="in_progress", hands_played=1)
    refused(lambda: services.reopen_match(match_id=match.pk))  # not abandoned
    record(match, SECOND[game][0])
    assert_state(match, totals=SECOND[game][1], hands_played=2)


def test_a_finished_match_cannot_be_abandoned(make_match):
    match = make_match("drawbridge", options={"target": 200}, hands=[D5])
    before = snapshot(match)
    refused(lambda: services.abandon_match(match_id=match.pk))
    assert snapshot(match) == before


def test_edit_of_a_hand_that_does_not_exist(make_match):
    match = make_match("spades", hands=S1)
    before = snapshot(match)
    for number in (0, 2):
        error = refused(
            lambda n=number: services.edit_hand(match_id=match.pk, number=n, entry=S1[0], expected_version=None),
            code="not_found",
        )
        assert error.message
    assert snapshot(match) == before


# ======================================================================
# Audit trail


def audit(match: Match) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(match=match).order_by("id"))


def test_every_match_write_leaves_an_audit_event(make_match):
    match = make_match("spades", options={"target": 100})
    ann_bob = audit(match)
    assert [(e.action, e.hand_number) for e in ann_bob] == [("match started", None)]
    assert ann_bob[0].after["players"] == ["Ann", "Bob"]
    assert ann_bob[0].after["options"] == {"target": 100}

    services.save_bidding(match_id=match.pk, bidding={"bids": [7, 4]}, expected_number=1)
    services.save_bidding(match_id=match.pk, bidding={"bids": [6, 4]}, expected_number=1)
    services.clear_bidding(match_id=match.pk)
    record(match, S1[0])
    services.edit_hand(match_id=match.pk, number=1, entry=spades_hand([7, 4], [7, 6]), expected_version=None)
    services.undo_last_hand(match_id=match.pk, expected_version=None)
    services.abandon_match(match_id=match.pk)
    services.reopen_match(match_id=match.pk)

    events = audit(match)[1:]
    assert [(e.action, e.hand_number, e.before, e.after) for e in events] == [
        ("bids saved", 1, None, {"bids": [7, 4]}),
        ("bids saved", 1, {"bids": [7, 4]}, {"bids": [6, 4]}),
        ("bids cleared", 1, {"bids": [6, 4]}, None),
        ("hand recorded", 1, None, S1[0]),
        ("hand edited", 1, S1[0], spades_hand([7, 4], [7, 6])),
        ("hand undone", 1, spades_hand([7, 4], [7, 6]), None),
        ("match abandoned", None, None, None),
        ("match reopened", None, None, None),
    ]
    assert all(e.actor for e in events)


def test_a_refused_write_leaves_no_audit_event(make_match):
    match = make_match("spades", hands=S1)
    count = AuditEvent.objects.count()
    refused(lambda: record(match, spades_hand([3, 4], [6, 6])))
    refused(lambda: record(match, S1[0], expected_number=1))
    refused(lambda: services.undo_last_hand(match_id=match.pk, expected_version=0))
    assert AuditEvent.objects.count() == count


def test_a_repeated_client_key_leaves_one_audit_event(make_match):
    match = make_match("spades")
    record(match, S1[0], client_key="k")
    record(match, S1[0], client_key="k")
    assert AuditEvent.objects.filter(match=match, action="hand recorded").count() == 1


def test_the_audit_event_names_the_organiser(make_match, django_user_model):
    user = django_user_model.objects.create_user(username="olga")
    match = make_match("spades")
    actor = services.Actor(label="organiser olga", user=user)
    services.record_hand(match_id=match.pk, entry=S1[0], actor=actor)
    event = AuditEvent.objects.get(match=match, action="hand recorded")
    assert event.user == user
    assert event.actor == "organiser olga"


def test_adding_and_renaming_a_player_are_audited(make_match):
    # A rename changes every old score sheet, so it must be on record.
    make_match("spades")
    ann = Player.objects.get(name="Ann")
    count = AuditEvent.objects.count()
    services.add_player(name="Cat")
    services.rename_player(player_id=ann.pk, name="Anne")
    events = list(AuditEvent.objects.order_by("id"))[count:]
    assert len(events) == 2
    assert "Cat" in str(events[0].after)
    assert "Ann" in str(events[1].before)
    assert "Anne" in str(events[1].after)


# ======================================================================
# Starting matches, playing again


def test_play_again_rotates_the_seats_and_keeps_game_and_options(make_match):
    options = {"hook": True, "schedule": "down"}
    match = make_match("ohhell", options=options, hands=[ohhell_hand([13, 0, 0, 1], [13, 0, 0, 0])])
    again = services.play_again(match_id=match.pk)
    assert again.pk != match.pk
    assert again.game == "ohhell"
    assert again.options == options
    assert again.previous_id == match.pk
    # Seat 2 now deals first; the old first dealer moves to the last seat.
    assert [s.player.name for s in again.seats.order_by("position")] == ["Bob", "Cat", "Dan", "Ann"]
    assert_state(again, totals=[0, 0, 0, 0], hands_played=0)
    # The same people, not new players.
    assert Player.objects.count() == 4
    # The old match is untouched.
    assert fresh(match).hands_played == 1


def test_play_again_with_two_players_swaps_them(make_match):
    match = make_match("spades", options={"target": 100}, hands=S4)
    again = services.play_again(match_id=match.pk)
    assert [s.player.name for s in again.seats.order_by("position")] == ["Bob", "Ann"]
    assert again.options == {"target": 100}


def test_start_match_stores_seats_in_order_and_options(make_match):
    match = make_match("drawbridge", names=["Zoe", "Al"], options={"target": 300, "undertrick_points": 0})
    assert [s.player.name for s in match.seats.order_by("position")] == ["Zoe", "Al"]
    assert match.options == {"target": 300, "undertrick_points": 0}
    assert match.totals == [0, 0]


def test_start_match_reuses_existing_players_whatever_the_case():
    services.add_player(name="Ann")
    match = services.start_match(game="spades", player_names=["ann", "Bob"], options=None)
    assert [s.player.name for s in match.seats.order_by("position")] == ["Ann", "Bob"]
    assert Player.objects.count() == 2


@pytest.mark.parametrize(
    ("game", "names"),
    [
        ("spades", ["Ann"]),
        ("spades", ["Ann", "Bob", "Cat"]),
        ("drawbridge", ["Ann"]),
        ("sixtysix", ["Ann", "Bob", "Cat"]),
        ("ohhell", ["Ann", "Bob"]),
        ("ohhell", ["A", "B", "C", "D", "E", "F", "G", "H"]),
    ],
)
def test_start_match_with_the_wrong_number_of_players(db, game, names):
    error = refused(lambda: services.start_match(game=game, player_names=names, options=None))
    assert "players" in error.message
    assert Match.objects.count() == 0
    assert Player.objects.count() == 0


@pytest.mark.parametrize(
    "names",
    [["Ann", "Ann"], ["Ann", "ann"], ["Ann", " ANN  "], ["Ann", ""], ["Ann", "   "], ["Ann", "x" * 41]],
)
def test_start_match_with_duplicate_or_bad_names(db, names):
    refused(lambda: services.start_match(game="spades", player_names=names, options=None))
    assert Match.objects.count() == 0
    assert Player.objects.count() == 0


@pytest.mark.parametrize(
    ("game", "options", "words"),
    [
        ("spades", {"target": 0}, "target"),
        ("spades", {"target": "500"}, "target"),
        ("spades", {"hook": True}, "hook"),  # an Oh Hell option
        ("drawbridge", {"undertrick_points": -50}, "undertrick_points"),
        ("sixtysix", {"target": True}, "target"),
        ("ohhell", {"schedule": "sideways"}, "schedule"),
        ("ohhell", {"hook": True, "simultaneous_bidding": True}, "hook"),
    ],
)
def test_start_match_with_bad_options(db, game, options, words):
    names = ["Ann", "Bob", "Cat"] if game == "ohhell" else ["Ann", "Bob"]
    error = refused(lambda: services.start_match(game=game, player_names=names, options=options))
    assert words in error.message
    assert Match.objects.count() == 0
    assert Player.objects.count() == 0


def test_start_match_with_an_unknown_game(db):
    refused(lambda: services.start_match(game="bridge", player_names=["Ann", "Bob"], options=None))
    assert Match.objects.count() == 0


def test_start_match_with_a_dotless_i_name_does_not_crash(db):
    # PostgreSQL's UPPER() maps "ı" to "I"; Python's casefold() does not. The
    # check for duplicates and the lookup of existing players must agree.
    match = services.start_match(game="spades", player_names=["ıvan", "Ivan"], options=None)
    assert [s.player.name for s in match.seats.order_by("position")] == ["ıvan", "Ivan"]


def test_start_match_with_accented_names_equal_ignoring_case(db):
    error = refused(lambda: services.start_match(game="spades", player_names=["Émile", "émile"], options=None))
    assert error.message
    assert Match.objects.count() == 0


# ======================================================================
# Players


def test_add_player_cleans_the_name(db):
    player = services.add_player(name="  Ann   Lee ")
    assert player.name == "Ann Lee"


def test_add_player_refuses_a_duplicate_ignoring_case(db):
    services.add_player(name="Ann")
    error = refused(lambda: services.add_player(name="aNN"))
    assert "already a player" in error.message
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann"]


def test_add_player_refuses_an_accented_duplicate_ignoring_case(db):
    services.add_player(name="Émile")
    refused(lambda: services.add_player(name="émile"))
    assert Player.objects.count() == 1


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, None])
def test_add_player_refuses_bad_names(db, name):
    refused(lambda: services.add_player(name=name))
    assert Player.objects.count() == 0


def test_rename_player(make_match):
    match = make_match("spades", hands=S1)
    ann = Player.objects.get(name="Ann")
    services.rename_player(player_id=ann.pk, name="Anne")
    assert Player.objects.get(pk=ann.pk).name == "Anne"
    # The match follows the player; the scores do not change.
    assert [s.player.name for s in match.seats.order_by("position")] == ["Anne", "Bob"]
    assert fresh(match).totals == [71, 41]
    # Changing only the case of one's own name is allowed.
    services.rename_player(player_id=ann.pk, name="ANNE")
    assert Player.objects.get(pk=ann.pk).name == "ANNE"


def test_after_a_rename_the_old_name_is_free_and_the_new_one_taken(make_match):
    make_match("spades")
    ann = Player.objects.get(name="Ann")
    services.rename_player(player_id=ann.pk, name="Zed")
    refused(lambda: services.add_player(name="zed"))
    assert services.add_player(name="Ann").name == "Ann"
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann", "Bob", "Zed"]


def test_rename_player_to_someone_elses_name_is_refused(make_match):
    make_match("spades")
    ann = Player.objects.get(name="Ann")
    error = refused(lambda: services.rename_player(player_id=ann.pk, name="bob"))
    assert "already a player" in error.message
    assert Player.objects.get(pk=ann.pk).name == "Ann"
