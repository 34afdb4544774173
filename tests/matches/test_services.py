"""Every write goes through scorekeeper.services: these tests check that the
services store what the table entered, keep the cached totals, winners,
status and hands_played equal to what RULES.md says, refuse what the rules
refuse without saving anything, and leave an audit trail.

Expected numbers come from the worked examples of RULES.md (S1-S4, D1-D5,
X1-X6, O1-O5) or are worked out by hand from its tables, as commented.
"""

from __future__ import annotations

import pytest

from scorekeeper.access.services import issue_link
from scorekeeper.audit import SYSTEM, Actor
from scorekeeper.matches import services
from scorekeeper.models import AuditEvent, Hand

from ..conftest import (
    D4,
    D5,
    O5,
    O5_PLAYERS,
    S1,
    S4,
    X1,
    X3,
    X4,
    contract,
    edit,
    entries,
    ohhell_hand,
    snapshot,
    spades_hand,
    undo,
)
from .service_helpers import (
    ALL_GAMES,
    BIDDING,
    BIDDING_GAMES,
    FIRST,
    SECOND,
    assert_state,
    clear_bids,
    fresh,
    record,
    refused,
    save_bids,
)

pytestmark = pytest.mark.django_db


# ======================================================================
# The same behaviour for every game


DEAL_GAMES = ("sixtysix", "courtpiece")  # what the table calls a hand: a deal

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
    # P4's first hand: 81 to -90; then SECOND's P2 hand: 151 and 70 more.
    "partnership_spades": ({"bids": [4, 5, 4, 4], "tricks": [9, 4]}, [232, -20]),
    # Ann & Cat (the dealer's side) win deal 1: Bob deals deal 2 and Cat calls, so SECOND's
    # first seven by Bob & Dan is a goon kot, 1 court unless changed (RULES.md 8.3).
    "courtpiece": ({"winner": 0}, [0, 1]),
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
    services.edit_hand(match_id=match.pk, number=1, entry=edited, version=fresh(match).version)
    assert entries(match) == [edited, second]
    assert_state(match, totals=edited_totals, hands_played=2)

    services.undo_last_hand(match_id=match.pk, version=fresh(match).version)
    assert entries(match) == [edited]
    services.undo_last_hand(match_id=match.pk, version=fresh(match).version)
    assert_state(match, totals=[0] * len(first_totals), hands_played=0)
    assert refused(lambda: undo(match)).message


@pytest.mark.parametrize("game", BIDDING_GAMES)
def test_pending_bids_are_cleared_when_the_hand_is_recorded(make_match, game):
    match = make_match(game)
    save_bids(match, BIDDING[game], number=1)
    assert fresh(match).pending_bidding == BIDDING[game]
    record(match, FIRST[game][0])
    assert fresh(match).pending_bidding is None


@pytest.mark.parametrize("game", BIDDING_GAMES)
def test_pending_bids_are_cleared_by_undo(make_match, game):
    match = make_match(game, hands=[FIRST[game][0]])
    # Bids for hand 2, then hand 1 is undone: those bids belonged to another deal.
    bidding = {"bids": [0, 0, 0, 0]} if game == "ohhell" else BIDDING[game]
    save_bids(match, bidding, number=2)
    assert fresh(match).pending_bidding == bidding
    undo(match)
    assert_state(match, totals=[0] * len(FIRST[game][1]), hands_played=0, pending=None)


def test_pending_bids_are_cleared_when_an_edit_ends_the_game(make_match):
    match = make_match("spades", options={"target": 100}, hands=S4[:2])
    save_bids(match, {"bids": [4, 6]}, number=3)
    # Hand 2 as Ann 5 bid, 8 taken: 53 (105 in all); Bob 5 bid, 5 taken: 50 (101).
    # Both past 100, Ann alone on top: she wins after hand 2.
    edit(match, 2, spades_hand([5, 5], [8, 5]))
    assert_state(match, totals=[105, 101], status="finished", winners=[0], hands_played=2, pending=None)


@pytest.mark.parametrize("game", BIDDING_GAMES)
def test_clear_bidding(make_match, game):
    match = make_match(game)
    save_bids(match, BIDDING[game], number=1)
    clear_bids(match)
    assert fresh(match).pending_bidding is None
    assert AuditEvent.objects.filter(match=match, action="bids cleared").count() == 1


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_repeated_client_key_stores_one_hand(make_match, game):
    match = make_match(game)
    entry = FIRST[game][0]
    first = record(match, entry, key="tap-1", number=1)
    after_first = snapshot(match)
    # A double tap or a retry sends the same form again (same key, same number).
    again = record(match, entry, key="tap-1", number=1)
    assert first.created is True
    assert again.created is False
    assert again.number == first.number
    assert again.number == 1
    assert snapshot(match) == after_first
    assert Hand.objects.filter(match=match).count() == 1
    # A new form (new key) is the next hand.
    record(match, SECOND[game][0], key="tap-2", number=2)
    assert_state(match, totals=SECOND[game][1], hands_played=2)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_expected_number_mismatch_is_a_conflict(make_match, game):
    match = make_match(game, hands=[FIRST[game][0]])
    before = snapshot(match)
    # Another device already saved hand 1; this form still shows hand 1.
    error = refused(lambda: record(match, SECOND[game][0], number=1), code="conflict")
    noun = "Deal" if game in DEAL_GAMES else "Hand"  # as the game's description says
    assert f"{noun} 1 was already saved" in error.message
    assert snapshot(match) == before
    if game in BIDDING:
        refused(
            lambda: save_bids(match, BIDDING[game], number=1),
            code="conflict",
        )
        assert snapshot(match) == before


# ----------------------------------------------------------------------
# A page that is out of date: every write says what it was based on (the
# hand number and the bids in force), and a stale one changes nothing.

# Bids that another device saved first, and what the message calls them.
OTHER_BIDDING = {
    "spades": ({"bids": [4, 5]}, "Ann 4, Bob 5"),
    "drawbridge": ({"declarer": 1, "level": 4, "strain": "S", "double": "double"}, "Bob 4 ♠ spades doubled"),
    "ohhell": ({"bids": [0, 0, 1, 0]}, "Ann 0, Bob 0, Cat 1, Dan 0"),
    "partnership_spades": ({"bids": [4, 5, 3, 2]}, "Ann 4, Bob 5, Cat 3, Dan 2"),
    "courtpiece": ({"trumps": "S"}, "♠ spades"),
}


@pytest.mark.parametrize("game", BIDDING_GAMES)
def test_bids_from_a_page_drawn_before_another_devices_bids_are_refused(make_match, django_user_model, game):
    other, words = OTHER_BIDDING[game]
    match = make_match(game)
    olga = django_user_model.objects.create_user(username="olga")
    services.save_bidding(
        match_id=match.pk, bidding=other, number=1, bidding_in_force=None, actor=Actor.organiser(olga)
    )
    before = snapshot(match)
    # This page still shows no bids: its own bids would overwrite Olga's.
    error = refused(lambda: save_bids(match, BIDDING[game], shown=None), code="bids_changed")
    noun = {"drawbridge": "contract", "courtpiece": "trumps"}.get(game, "bids")  # the game's bidding_noun
    assert f"olga saved the {noun} {words} a moment ago" in error.message
    assert "Nothing was changed" in error.message
    assert snapshot(match) == before
    assert fresh(match).pending_bidding == other
    # A page that shows Olga's bids may correct them.
    save_bids(match, BIDDING[game], shown=other)
    assert fresh(match).pending_bidding == BIDDING[game]


@pytest.mark.parametrize("game", BIDDING_GAMES)
def test_a_whole_hand_from_a_page_without_the_bids_in_force_is_refused(make_match, game):
    other, _words = OTHER_BIDDING[game]
    match = make_match(game)
    save_bids(match, other)  # another device, after this page was drawn
    before = snapshot(match)
    error = refused(lambda: record(match, FIRST[game][0], shown=None), code="bids_changed")
    assert "Nothing was changed" in error.message
    assert snapshot(match) == before
    assert not Hand.objects.filter(match=match).exists()
    # From a page that shows the bids in force, the table's entry is stored as entered.
    record(match, FIRST[game][0], shown=other)
    assert entries(match) == [FIRST[game][0]]
    assert_state(match, totals=FIRST[game][1], hands_played=1)


@pytest.mark.parametrize("game", BIDDING_GAMES)
def test_a_hand_from_a_page_showing_bids_that_were_corrected_since_is_refused(make_match, game):
    other, _words = OTHER_BIDDING[game]
    match = make_match(game)
    save_bids(match, BIDDING[game])
    save_bids(match, other)  # corrected from another device
    before = snapshot(match)
    refused(lambda: record(match, FIRST[game][0], shown=BIDDING[game]), code="bids_changed")
    assert snapshot(match) == before


@pytest.mark.parametrize("game", BIDDING_GAMES)
def test_the_same_bids_sent_twice_are_saved_once(make_match, game):
    match = make_match(game)
    save_bids(match, BIDDING[game], shown=None)
    after = snapshot(match)
    save_bids(match, BIDDING[game], shown=None)  # a double tap: the page still shows no bids
    assert snapshot(match) == after
    assert AuditEvent.objects.filter(match=match, action="bids saved").count() == 1


@pytest.mark.parametrize("game", BIDDING_GAMES)
def test_clearing_bids_from_a_stale_page_is_refused(make_match, game):
    other, _words = OTHER_BIDDING[game]
    match = make_match(game)
    save_bids(match, BIDDING[game])
    save_bids(match, other)
    before = snapshot(match)
    refused(lambda: clear_bids(match, shown=BIDDING[game]), code="bids_changed")
    assert snapshot(match) == before
    clear_bids(match, shown=other)
    assert fresh(match).pending_bidding is None


def test_the_refusal_names_the_device_that_saved_the_bids(make_match):
    match = make_match("spades")
    link, _token = issue_link(match_id=match.pk, label="table 7", actor=SYSTEM)
    services.save_bidding(
        match_id=match.pk, bidding={"bids": [0, "blind_nil"]}, number=1, bidding_in_force=None, actor=Actor.device(link)
    )
    error = refused(lambda: save_bids(match, {"bids": [3, 3]}, shown=None), code="bids_changed")
    assert "The phone with the link “table 7” saved the bids Ann Nil, Bob Blind Nil a moment ago" in error.message
    clear_bids(match)
    error = refused(lambda: save_bids(match, {"bids": [3, 3]}, shown={"bids": [0, "blind_nil"]}), code="bids_changed")
    assert "cleared the bids" in error.message


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_page_ahead_of_the_match_is_refused(make_match, game):
    match = make_match(game)
    before = snapshot(match)
    error = refused(lambda: record(match, FIRST[game][0], number=3), code="conflict")
    assert f"{'deal' if game in DEAL_GAMES else 'hand'} 1 is next" in error.message
    assert snapshot(match) == before


def test_a_repeated_hand_is_answered_with_the_first_even_after_more_hands(make_match):
    """An offline phone sends its hand again after the table went on: the
    one-time key finds the hand it saved, nothing is written."""
    match = make_match("spades")
    first = record(match, S1[0], key="phone-1")
    record(match, S1[0])
    after = snapshot(match)
    again = record(match, S1[0], key="phone-1", number=1)
    assert (again.created, again.number) == (False, first.number)
    assert snapshot(match) == after


@pytest.mark.parametrize("game", ALL_GAMES)
def test_stale_version_on_edit_and_undo_is_a_conflict(make_match, game):
    match = make_match(game, hands=[FIRST[game][0]])
    stale = fresh(match).version
    record(match, SECOND[game][0])  # someone else writes meanwhile
    before = snapshot(match)
    refused(
        lambda: services.edit_hand(match_id=match.pk, number=1, entry=SECOND[game][0], version=stale),
        code="conflict",
    )
    assert snapshot(match) == before
    refused(lambda: services.undo_last_hand(match_id=match.pk, version=stale), code="conflict")
    assert snapshot(match) == before
    # With the current version both work.
    services.undo_last_hand(match_id=match.pk, version=before["version"])
    assert fresh(match).hands_played == 1


# Hand 1 of each game, not FIRST's: an edit that changes something.
OTHER_FIRST = {
    "spades": {"bids": [7, 4], "tricks": [7, 6]},
    "drawbridge": SECOND["drawbridge"][0],
    "sixtysix": SECOND["sixtysix"][0],
    "ohhell": {"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]},
    "partnership_spades": {"bids": [4, 4, 4, 4], "tricks": [9, 4]},
    "courtpiece": {"winner": 0},
}


@pytest.mark.parametrize("game", ALL_GAMES)
def test_every_write_bumps_the_version(make_match, game):
    match = make_match(game)
    versions = [fresh(match).version]
    if game in BIDDING:
        save_bids(match, BIDDING[game], number=1)
        versions.append(fresh(match).version)
    record(match, FIRST[game][0])
    versions.append(fresh(match).version)
    services.edit_hand(match_id=match.pk, number=1, entry=OTHER_FIRST[game], version=versions[-1])
    versions.append(fresh(match).version)
    services.undo_last_hand(match_id=match.pk, version=versions[-1])
    versions.append(fresh(match).version)
    assert versions == sorted(set(versions)), versions


@pytest.mark.parametrize("game", ALL_GAMES)
def test_an_edit_to_what_the_hand_already_says_writes_nothing(make_match, game):
    """Saving the edit page unchanged is not a change: no new version, no
    line in the history, and nobody becomes the one who entered the hand."""
    match = make_match(game)
    record(match, FIRST[game][0])
    before = snapshot(match)
    events = AuditEvent.objects.filter(match=match).count()
    edited = services.edit_hand(match_id=match.pk, number=1, entry=FIRST[game][0], version=fresh(match).version)
    assert edited.entry_key is None
    assert snapshot(match) == before and AuditEvent.objects.filter(match=match).count() == events


FOUR = ["Ann", "Bob", "Cat", "Dan"]
P7 = [  # RULES.md 7.8 P7, target 100
    {"bids": [3, 3, 3, 3], "tricks": [7, 6]},
    {"bids": [2, 2, 2, 2], "tricks": [6, 7]},
    {"bids": [3, 3, 3, 3], "tricks": [5, 8]},
]
# The shortest way to finish each game, with the winner (from the worked examples).
FINISHED = {
    "spades": ({"target": 100}, ["Ann", "Bob"], S4, [144, 165], [1]),
    "drawbridge": ({"target": 200}, ["Ann", "Bob"], [D5], [380, 0], [0]),
    "sixtysix": ({"target": 3}, ["Ann", "Bob"], [X3], [3, 0], [0]),  # X3: schwarz, 3
    "ohhell": ({}, O5_PLAYERS, O5, [65, 53, 74, 74, 72, 60, 64], [2, 3]),
    # P7: Bob & Dan past 100 with more (43 to 165); C4: a bavney, 52 courts.
    "partnership_spades": ({"target": 100}, FOUR, P7, [43, 165], [1]),
    "courtpiece": ({}, FOUR, [{"winner": 1, "court": "all13", "trumps": "S"}], [0, 52], [1]),
}
# An edit of the last hand that leaves nobody at the end (worked out from RULES.md).
UNFINISH = {
    # S4 hand 3 as both bidding Nil and failing: 103 - 100 each = 3 and 3.
    "spades": (spades_hand([0, 0], [6, 7]), [3, 3]),
    # D5 one trick short: one down x 50 x 2 = 100 to Bob.
    "drawbridge": (contract(0, 6, "NT", 11, "double"), [0, 100]),
    # X1 instead of X3: Ann +1 only.
    "sixtysix": (X1, [1, 0]),
    # P7's third hand as both sides set (contracts 8, tricks 6 and 7): 103 - 80 each, below 100.
    "partnership_spades": ({"bids": [4, 4, 4, 4], "tricks": [6, 7]}, [23, 23]),
    # C4's deal as a plain win: no court.
    "courtpiece": ({"winner": 1}, [0, 0]),
}


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_finished_match_refuses_a_new_hand(make_match, game):
    options, names, hands, totals, winners = FINISHED[game]
    match = make_match(game, names=names, options=options, hands=hands)
    assert_state(match, totals=totals, status="finished", winners=winners, hands_played=len(hands))
    before = snapshot(match)
    next_entry = ohhell_hand([0] * 7, [1] + [0] * 6) if game == "ohhell" else FIRST[game][0]
    error = refused(lambda: record(match, next_entry, number=len(hands) + 1), code="closed")
    assert "over" in error.message
    assert snapshot(match) == before
    if game in BIDDING:
        bidding = {"bids": [0] * 7} if game == "ohhell" else BIDDING[game]
        refused(lambda: save_bids(match, bidding), code="closed")
        assert snapshot(match) == before


@pytest.mark.parametrize("game", ["spades", "drawbridge", "sixtysix"])
def test_an_edit_that_undoes_the_win_reopens_the_match(make_match, game):
    options, names, hands, _totals, _winners = FINISHED[game]
    match = make_match(game, names=names, options=options, hands=hands)
    entry, totals = UNFINISH[game]
    services.edit_hand(match_id=match.pk, number=len(hands), entry=entry, version=fresh(match).version)
    assert_state(match, totals=totals, status="in_progress", winners=[], hands_played=len(hands))
    # Hands can be added again.
    assert record(match, FIRST[game][0], number=len(hands) + 1).created


@pytest.mark.parametrize("game", ALL_GAMES)
def test_undo_of_the_winning_hand_reopens_the_match(make_match, game):
    options, names, hands, _totals, _winners = FINISHED[game]
    match = make_match(game, names=names, options=options, hands=hands)
    undo(match)
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
        lambda: edit(match, 1, SECOND[game][0]),
        code="closed",
    )
    refused(lambda: undo(match), code="closed")
    if game in BIDDING:
        refused(
            lambda: save_bids(match, BIDDING[game]),
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
            lambda n=number: edit(match, n, S1[0]),
            code="not_found",
        )
        assert error.message
    assert snapshot(match) == before
