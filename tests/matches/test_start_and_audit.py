"""Starting a match, playing again, and the audit trail every write leaves."""

from __future__ import annotations

import pytest

from scorekeeper.audit import Actor
from scorekeeper.matches import services
from scorekeeper.models import AuditEvent, Match, Player
from scorekeeper.players import services as players

from ..conftest import (
    S1,
    S4,
    edit,
    ohhell_hand,
    play,
    spades_hand,
    undo,
)
from .service_helpers import (
    assert_state,
    clear_bids,
    fresh,
    record,
    refused,
    save_bids,
)

pytestmark = pytest.mark.django_db


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

    save_bids(match, {"bids": [7, 4]}, number=1)
    save_bids(match, {"bids": [6, 4]}, number=1)
    clear_bids(match)
    record(match, S1[0])
    edit(match, 1, spades_hand([7, 4], [7, 6]))
    undo(match)
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
    refused(lambda: record(match, S1[0], number=1))
    refused(lambda: services.undo_last_hand(match_id=match.pk, version=0))
    assert AuditEvent.objects.count() == count


def test_a_repeated_client_key_leaves_one_audit_event(make_match):
    match = make_match("spades")
    record(match, S1[0], key="k")
    record(match, S1[0], key="k")
    assert AuditEvent.objects.filter(match=match, action="hand recorded").count() == 1


def test_the_audit_event_names_the_organiser(make_match, django_user_model):
    user = django_user_model.objects.create_user(username="olga")
    match = make_match("spades")
    actor = Actor.organiser(user)
    play(match, S1[0], actor=actor)
    event = AuditEvent.objects.get(match=match, action="hand recorded")
    assert event.user == user
    assert event.actor == "organiser olga"


def test_adding_and_renaming_a_player_are_audited(make_match):
    # A rename changes every old score sheet, so it must be on record.
    make_match("spades")
    ann = Player.objects.get(name="Ann")
    count = AuditEvent.objects.count()
    players.add_player(name="Cat")
    players.rename_player(player_id=ann.pk, name="Anne")
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


def test_play_again_asked_twice_gives_the_one_rematch(make_match):
    """A double tap on "Play again", or a second phone at the table: one new
    match, not two; playing again from the rematch starts the next one."""
    match = make_match("spades", options={"target": 100}, hands=S4)
    first = services.play_again(match_id=match.pk)
    assert services.play_again(match_id=match.pk).pk == first.pk
    assert Match.objects.filter(previous=match).count() == 1
    third = services.play_again(match_id=first.pk)
    assert third.pk not in (match.pk, first.pk)
    assert [s.player.name for s in third.seats.order_by("position")] == ["Ann", "Bob"]


def test_start_match_stores_seats_in_order_and_options(make_match):
    match = make_match("drawbridge", names=["Zoe", "Al"], options={"target": 300, "undertrick_points": 0})
    assert [s.player.name for s in match.seats.order_by("position")] == ["Zoe", "Al"]
    assert match.options == {"target": 300, "undertrick_points": 0}
    assert match.totals == [0, 0]


def test_start_match_reuses_existing_players_whatever_the_case():
    players.add_player(name="Ann")
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
