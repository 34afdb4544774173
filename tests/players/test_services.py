"""Players through their services: names cleaned, one person whatever the
case or spacing, renames that keep names unique, audited."""

from __future__ import annotations

import pytest

from scorekeeper.models import Player
from scorekeeper.players import services as players

from ..conftest import (
    S1,
)
from ..matches.service_helpers import (
    fresh,
    refused,
)

pytestmark = pytest.mark.django_db


def test_add_player_cleans_the_name(db):
    player = players.add_player(name="  Ann   Lee ")
    assert player.name == "Ann Lee"


def test_add_player_refuses_a_duplicate_ignoring_case(db):
    players.add_player(name="Ann")
    error = refused(lambda: players.add_player(name="aNN"))
    assert "already a player" in error.message
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann"]


def test_add_player_refuses_an_accented_duplicate_ignoring_case(db):
    players.add_player(name="Émile")
    refused(lambda: players.add_player(name="émile"))
    assert Player.objects.count() == 1


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, None])
def test_add_player_refuses_bad_names(db, name):
    refused(lambda: players.add_player(name=name))
    assert Player.objects.count() == 0


def test_rename_player(make_match):
    match = make_match("spades", hands=S1)
    ann = Player.objects.get(name="Ann")
    players.rename_player(player_id=ann.pk, name="Anne")
    assert Player.objects.get(pk=ann.pk).name == "Anne"
    # The match follows the player; the scores do not change.
    assert [s.player.name for s in match.seats.order_by("position")] == ["Anne", "Bob"]
    assert fresh(match).totals == [71, 41]
    # Changing only the case of one's own name is allowed.
    players.rename_player(player_id=ann.pk, name="ANNE")
    assert Player.objects.get(pk=ann.pk).name == "ANNE"


def test_after_a_rename_the_old_name_is_free_and_the_new_one_taken(make_match):
    make_match("spades")
    ann = Player.objects.get(name="Ann")
    players.rename_player(player_id=ann.pk, name="Zed")
    refused(lambda: players.add_player(name="zed"))
    assert players.add_player(name="Ann").name == "Ann"
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann", "Bob", "Zed"]


def test_rename_player_to_someone_elses_name_is_refused(make_match):
    make_match("spades")
    ann = Player.objects.get(name="Ann")
    error = refused(lambda: players.rename_player(player_id=ann.pk, name="bob"))
    assert "already a player" in error.message
    assert Player.objects.get(pk=ann.pk).name == "Ann"
