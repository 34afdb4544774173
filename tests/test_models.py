"""Tables and constraints, and the JSON lookups statistics rely on. These
must behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from scorekeeper.errors import ServiceError
from scorekeeper.matches.services import start_match
from scorekeeper.models import Hand, Match, Player, Seat
from scorekeeper.players.services import add_player, get_or_create_player

from .conftest import D4, O1, PASSED_OUT, S1, S2, S3, contract, spades_hand

pytestmark = pytest.mark.django_db


# -------------------------------------------------------------------- players


def test_player_names_are_unique_ignoring_case():
    Player.objects.create(name="Ann")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="ann")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="ANN")
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann"]


def test_players_are_listed_alphabetically_ignoring_case():
    for name in ["bob", "Cat", "ann", "Dan"]:
        Player.objects.create(name=name)
    assert [p.name for p in Player.objects.all()] == ["ann", "bob", "Cat", "Dan"]


def test_player_names_unique_ignoring_case_for_accented_names():
    # SQLite's LOWER() folds only ASCII; the rule must hold there too.
    Player.objects.create(name="Émile")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="émile")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="ÉMILE")
    assert Player.objects.count() == 1


# ---------------------------------------------------------------------- hands


def test_hand_numbers_are_unique_within_a_match(make_match):
    match = make_match("spades", hands=S1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(match=match, number=1, entry=spades_hand([1, 1], [6, 7]))
    # The same number in another match is fine.
    other = make_match("spades", names=["Cat", "Dan"])
    Hand.objects.create(match=other, number=1, entry=spades_hand([1, 1], [6, 7]))
    assert Hand.objects.filter(number=1).count() == 2


def test_client_keys_are_unique_within_a_match(make_match):
    match = make_match("spades")
    Hand.objects.create(match=match, number=1, entry=S1[0], client_key="k1")
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(match=match, number=2, entry=S1[0], client_key="k1")
    # Hands without a key do not collide with each other.
    Hand.objects.create(match=match, number=2, entry=S1[0])
    Hand.objects.create(match=match, number=3, entry=S1[0])
    assert match.hands.count() == 3


def test_a_player_cannot_sit_twice_in_one_match(make_match):
    match = make_match("spades")
    ann = Player.objects.get(name="Ann")
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(match=match, player=ann, position=5)


def test_deleting_a_match_deletes_its_hands_and_seats_but_not_players(make_match):
    match = make_match("spades", hands=S1)
    match.delete()
    assert Hand.objects.count() == 0
    assert Seat.objects.count() == 0
    assert Player.objects.count() == 2


def test_match_str_and_url(make_match):
    match = make_match("drawbridge")
    assert str(match) == f"Draw Bridge #{match.pk}"
    assert match.get_absolute_url() == f"/matches/{match.pk}/"
    assert match.is_open


# --------------------------------------------------------------- JSON lookups


@pytest.fixture
def stats_matches(make_match):
    """Spades S2 (Ann Nil in hand 1, Blind Nil in hand 2) and S3, Oh Hell O1,
    Draw Bridge D4 (a passed-out hand)."""
    return {
        "s2": make_match("spades", hands=S2),
        "s3": make_match("spades", names=["Bonnie", "Carl"], hands=S3),
        "oh": make_match("ohhell", hands=[O1]),
        "db": make_match("drawbridge", hands=D4),
    }


def test_json_lookup_finds_nil_bids(stats_matches):
    spades = Hand.objects.filter(match__game="spades")
    nil_first_seat = spades.filter(entry__bids__0=0)
    # Only S2 hand 1: Ann bid Nil. Blind Nil ("blind_nil") is not 0.
    assert [(h.match_id, h.number) for h in nil_first_seat] == [(stats_matches["s2"].pk, 1)]
    assert spades.filter(entry__bids__0="blind_nil").get().number == 2
    assert not spades.filter(entry__bids__1=0).exists()


def test_json_lookup_compares_tricks(stats_matches):
    s3 = stats_matches["s3"]
    carl_took_7_or_more = Hand.objects.filter(match=s3, entry__tricks__1__gte=7)
    # S3 Carl's tricks: 6, 7, 4, 9.
    assert sorted(carl_took_7_or_more.values_list("number", flat=True)) == [2, 4]
    assert list(Hand.objects.filter(match=s3, entry__tricks__1__lt=5).values_list("number", flat=True)) == [3]
    assert Hand.objects.filter(match=s3, entry__tricks__1=9).get().number == 4


def test_json_lookup_works_for_every_seat_of_oh_hell(stats_matches):
    oh = stats_matches["oh"]
    # O1: bids [0, 1, 0, 0]
    assert Hand.objects.filter(match=oh, entry__bids__1=1).exists()
    assert Hand.objects.filter(match=oh, entry__bids__3=0).exists()
    assert not Hand.objects.filter(match=oh, entry__bids__3=1).exists()


def test_json_lookup_for_draw_bridge_keys(stats_matches):
    db = stats_matches["db"]
    assert Hand.objects.filter(match=db, entry__has_key="passed_out").get().number == 1
    assert Hand.objects.filter(match=db, entry__strain="C", entry__tricks__gte=8).get().number == 2
    assert Hand.objects.filter(match=db, entry__passed_out=True).count() == 1


def test_entry_round_trips_exactly(make_match):
    entry = contract(1, 4, "S", 11, "double")
    match = make_match("drawbridge", hands=[entry, PASSED_OUT])
    stored = list(match.hands.order_by("number").values_list("entry", flat=True))
    assert stored == [entry, PASSED_OUT]
    assert stored[1]["passed_out"] is True  # a bool, not 1


def test_engine_input_is_the_rules_contract(make_match):
    match = make_match("spades", options={"target": 100})
    assert match.engine_input([]) == {
        "game": "spades",
        "players": ["Ann", "Bob"],
        "options": {"target": 100},
        "hands": [],
    }


def test_a_match_keeps_its_players_names_in_seat_order_through_a_rename(make_match):
    from scorekeeper.players.services import rename_player

    match = make_match("ohhell", names=["Dan", "Ann", "Cat", "Bob"])
    assert match.player_names == ["Dan", "Ann", "Cat", "Bob"]
    rename_player(player_id=Player.objects.get(name="Cat").pk, name="Catherine")
    match.refresh_from_db()
    assert match.player_names == ["Dan", "Ann", "Catherine", "Bob"]
    seats = list(match.seats.order_by("position").values_list("player__name", flat=True))
    assert seats == match.player_names


def test_new_match_defaults(make_match):
    match = make_match("ohhell")
    assert match.status == Match.Status.IN_PROGRESS
    assert match.totals == [0, 0, 0, 0]
    assert match.winners == []
    assert match.hands_played == 0
    assert match.pending_bidding is None
    assert [s.player.name for s in match.seats.order_by("position")] == ["Ann", "Bob", "Cat", "Dan"]


def test_get_or_create_player_reuses_a_player_whatever_the_case():
    ann = add_player(name="Ann")
    assert get_or_create_player("  aNN ") == ann
    assert Player.objects.count() == 1


def test_the_game_of_a_match_is_checked_against_the_registry_not_the_table():
    """The game column takes any id (a fifth game needs no migration); a new
    match of a game that is not registered is refused and nothing is stored."""
    field = Match._meta.get_field("game")
    assert not field.choices
    with pytest.raises(ServiceError, match="Choose one of the games"):
        start_match(game="poker", player_names=["Ann", "Bob"], options=None)
    assert (Match.objects.count(), Player.objects.count(), Seat.objects.count()) == (0, 0, 0)
