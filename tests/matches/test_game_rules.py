"""Each game's rules through the services: the worked examples of RULES.md
(S1-S4, D1-D5, X1-X6, O1-O5) entered as the table enters them, the cached
totals, winners and status they leave, and what the rules refuse, with
nothing saved."""

from __future__ import annotations

import pytest

from scorekeeper.matches import services
from scorekeeper.models import Match
from scorekeeper.scoring import InvalidHand, check_bidding

from ..conftest import (
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
    edit,
    entries,
    ohhell_hand,
    snapshot,
    spades_hand,
    undo,
)
from .service_helpers import (
    assert_state,
    fresh,
    record,
    refused,
    save_bids,
)

pytestmark = pytest.mark.django_db


# ======================================================================
# Spades


def test_spades_bids_then_tricks_s1(make_match):
    match = make_match("spades")
    version = match.version
    save_bids(match, {"bids": [7, 4]}, number=1)
    match = fresh(match)
    assert match.pending_bidding == {"bids": [7, 4]}
    assert match.version == version + 1
    assert match.hands_played == 0

    saved = record(match, spades_hand([7, 4], [8, 5]), number=1)
    assert saved.created
    assert saved.number == 1
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
    edit(match, 1, spades_hand([0, 5], [1, 12]))
    # Hand 1 now: Ann's Nil fails (-100); Bob 50 + 7 = 57 with 7 bags.
    # Hand 2: Ann's Blind Nil fails (-200); Bob 90 + 3 = 93, bags 7 + 3 = 10: -100, so -7.
    assert_state(match, totals=[-300, 50], hands_played=2)
    assert entries(match)[0] == spades_hand([0, 5], [1, 12])


def test_spades_undo_goes_back_to_the_totals_before_the_hand(make_match):
    match = make_match("spades", hands=S2)
    services.undo_last_hand(match_id=match.pk, version=fresh(match).version)
    assert_state(match, totals=[100, 58], hands_played=1)
    assert list(match.hands.values_list("number", flat=True)) == [1]


def test_spades_edit_that_ends_the_game_early_is_refused(make_match):
    match = make_match("spades", options={"target": 100}, hands=S4[:2])
    before = snapshot(match)
    # Ann bids 10 and takes 10: 100, the target, alone: hand 2 would come after the end.
    error = refused(
        lambda: services.edit_hand(
            match_id=match.pk, number=1, entry=spades_hand([10, 3], [10, 3]), version=before["version"]
        )
    )
    assert "Hand 2" in error.message
    assert "already over" in error.message
    assert snapshot(match) == before


def test_spades_bid_of_14_is_refused_with_the_engines_message(make_match):
    match = make_match("spades")
    before = snapshot(match)
    error = refused(lambda: save_bids(match, {"bids": [3, 14]}, number=1))
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
    save_bids(match, {"declarer": 0, "level": 3, "strain": "NT"}, number=1)
    assert fresh(match).pending_bidding == {"declarer": 0, "level": 3, "strain": "NT"}
    record(match, D1, number=1)
    # D1: 3NT made exactly: 40 + 30 + 30.
    assert_state(match, totals=[100, 0], hands_played=1, pending=None)


def test_drawbridge_passed_out_bidding_then_a_part_score_d4(make_match):
    match = make_match("drawbridge")
    save_bids(match, {"passed_out": True}, number=1)
    record(match, PASSED_OUT, number=1)
    assert_state(match, totals=[0, 0], hands_played=1)
    record(match, D4[1], number=2)
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
    error = refused(lambda: services.edit_hand(match_id=match.pk, number=1, entry=D5, version=before["version"]))
    assert "Hand 2" in error.message
    assert "already over" in error.message
    assert snapshot(match) == before


def test_drawbridge_edit_that_sets_the_winning_contract_reopens_the_match(make_match):
    match = make_match("drawbridge", options={"target": 200}, hands=[D5])
    edit(match, 1, contract(0, 6, "NT", 11, "double"))
    # 6NT doubled, 11 tricks: one down x 50 x 2 = 100 to Bob; nobody has 200.
    match = assert_state(match, totals=[0, 100], status="in_progress", winners=[], hands_played=1)
    record(match, D1)  # the match takes hands again
    assert_state(match, totals=[100, 100], hands_played=2)


# ======================================================================
# Sixty-Six


def test_sixtysix_has_no_bidding(make_match):
    match = make_match("sixtysix")
    before = snapshot(match)
    error = refused(lambda: save_bids(match, {"bids": [1, 2]}, number=1))
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
    # X3 in deal 1 gives Ann 3 at once: deal 2 would come after the end (Sixty-Six says deal).
    error = refused(lambda: services.edit_hand(match_id=match.pk, number=1, entry=X3, version=before["version"]))
    assert "Deal 2" in error.message
    assert "already over" in error.message
    assert snapshot(match) == before


def test_sixtysix_edit_of_the_last_deal_reopens_the_match(make_match):
    match = make_match("sixtysix", hands=[X1, X2, X3, X4, X5])
    assert fresh(match).status == "finished"
    # Deal 5 becomes: Bob out with 66, Ann has 40 (33 or more): Bob +1.
    edit(match, 5, deal("out", 1, [40, 66]))
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
    save_bids(match, {"bids": [0, 1, 0, 0]}, number=1)
    assert fresh(match).pending_bidding == {"bids": [0, 1, 0, 0]}
    record(match, O1, number=1)
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
    edit(match, 7, edited)
    assert_state(match, totals=[77, 64, 74, 74, 72, 60, 64], status="finished", winners=[0], hands_played=7)


def test_ohhell_undo_of_the_last_hand_reopens_the_game(make_match):
    match = make_match("ohhell", names=O5_PLAYERS, hands=O5)
    undo(match)
    # Hand 7 gave [0, 0, 11, 11, 11, 10, 11].
    assert_state(match, totals=[65, 53, 63, 63, 61, 50, 53], status="in_progress", winners=[], hands_played=6)


def test_ohhell_hook_violation_in_the_bidding_is_refused_o2(make_match):
    match = make_match("ohhell", options={"hook": True}, hands=[ohhell_hand([0, 0, 0, 0], [0, 1, 0, 0])])
    before = snapshot(match)
    bidding = {"bids": [1, 0, 1, 0]}
    error = refused(lambda: save_bids(match, bidding, number=2))
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
    error = refused(lambda: edit(match, 1, ohhell_hand([0, 1, 0, 0], [1, 1, 0, 0])))
    assert "Hand 1" in error.message
    assert "add up to 2" in error.message
    assert snapshot(match) == before


def engine_bidding_error(match: Match, bidding: dict) -> str:
    """The message the engine itself gives for this bidding."""
    with pytest.raises(InvalidHand) as info:
        check_bidding(match.engine_input(entries(match)), bidding)
    return str(info.value)
