"""Who may rename a player. Players are one list for the club, and a new
name shows on every sheet the player is in, so renaming needs a right over
a match or tournament the player is in: its owner or a co-organiser (of the
match, or of the tournament whose table it is), or a superuser. A player
in nothing yet may be renamed by any organiser. Everyone else is refused
(403, in words) with nothing changed, and the list offers no "Rename" to
them. The admin's player form renames through the same service."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scorekeeper.access.services import add_co_organiser
from scorekeeper.audit import Actor
from scorekeeper.models import Match, Player
from scorekeeper.players import services

from ..conftest import MODEL_BACKEND, text_of
from ..tournaments.helpers import make, publish_next

pytestmark = pytest.mark.django_db

User = get_user_model()


def _browser(user) -> Client:
    client = Client()
    client.force_login(user, backend=MODEL_BACKEND)
    return client


def _rename(user, player: Player, name: str):
    return _browser(user).post(f"/players/{player.pk}/rename/", {"name": name})


@pytest.fixture
def people(make_match):
    owner = User.objects.create_user(username="owen")
    co = User.objects.create_user(username="cora")
    stranger = User.objects.create_user(username="stan")
    match = make_match("spades", names=["Ann", "Bob"], owner=owner)
    add_co_organiser(match_id=match.pk, username="cora", actor=Actor.organiser(owner))
    return {"owner": owner, "co": co, "stranger": stranger, "match": match}


@pytest.mark.parametrize("who", ["owner", "co"])
def test_an_organiser_of_the_players_match_renames_them(people, who):
    ann = Player.objects.get(name="Ann")
    response = _rename(people[who], ann, "Anne")
    assert response.status_code == 302
    assert Player.objects.get(pk=ann.pk).name == "Anne"
    assert Match.objects.get(pk=people["match"].pk).player_names == ["Anne", "Bob"]


def test_a_stranger_may_not_rename_someone_elses_player(people):
    ann = Player.objects.get(name="Ann")
    stranger = _browser(people["stranger"])
    page = stranger.get(f"/players/{ann.pk}/rename/")
    assert page.status_code == 403
    response = stranger.post(f"/players/{ann.pk}/rename/", {"name": "Mallory"})
    assert response.status_code == 403
    assert "Only an organiser of one of this player's matches or tournaments" in text_of(response)
    assert Player.objects.get(pk=ann.pk).name == "Ann"
    assert Match.objects.get(pk=people["match"].pk).player_names == ["Ann", "Bob"]


def test_the_list_offers_rename_only_where_it_is_allowed(people):
    services.add_player(name="Newcomer")
    ann = Player.objects.get(name="Ann")
    newcomer = Player.objects.get(name="Newcomer")
    mine = text_of(_browser(people["owner"]).get("/players/"))
    theirs = text_of(_browser(people["stranger"]).get("/players/"))
    assert f"/players/{ann.pk}/rename/" in mine
    assert f"/players/{ann.pk}/rename/" not in theirs
    assert "Ann" in theirs  # still listed, to pick for a new match
    assert f"/players/{newcomer.pk}/rename/" in theirs


def test_a_player_in_nothing_yet_may_be_renamed_by_any_organiser(people):
    newcomer = services.add_player(name="Newcomer")
    assert _rename(people["stranger"], newcomer, "Newt").status_code == 302
    assert Player.objects.get(pk=newcomer.pk).name == "Newt"


def test_a_superuser_renames_anyone(people):
    root = User.objects.create_superuser(username="root", password=None)
    ann = Player.objects.get(name="Ann")
    assert _rename(root, ann, "Annie").status_code == 302
    assert Player.objects.get(pk=ann.pk).name == "Annie"


def test_tournament_organisers_rename_their_entrants_and_table_players(people):
    host = User.objects.create_user(username="hank")
    helper = User.objects.create_user(username="hela")
    t = make(host, ["Tia", "Tom", "Ted", "Tess"], name="Cup")
    t.co_organisers.add(helper)
    publish_next(t, host)
    tia = Player.objects.get(name="Tia")
    assert _rename(people["stranger"], tia, "Mallory").status_code == 403
    assert _rename(people["owner"], tia, "Mallory").status_code == 403  # organiser of other matches only
    assert _rename(helper, tia, "Tia B.").status_code == 302
    assert _rename(host, Player.objects.get(name="Tom"), "Thomas").status_code == 302
    assert set(Player.objects.filter(entries__tournament=t).values_list("name", flat=True)) == {
        "Tia B.",
        "Thomas",
        "Ted",
        "Tess",
    }


def test_the_admin_renames_through_the_service_and_refuses_a_taken_name(people):
    root = _browser(User.objects.create_superuser(username="root", password=None))
    ann = Player.objects.get(name="Ann")
    response = root.post(f"/admin/scorekeeper/player/{ann.pk}/change/", {"name": "BOB"})
    assert response.status_code == 200  # the form again, with the reason
    assert "There is already a player called BOB" in text_of(response)
    assert Player.objects.get(pk=ann.pk).name == "Ann"
    response = root.post(f"/admin/scorekeeper/player/{ann.pk}/change/", {"name": "Anna"})
    assert response.status_code == 302
    assert Match.objects.get(pk=people["match"].pk).player_names == ["Anna", "Bob"]
    response = root.post("/admin/scorekeeper/player/add/", {"name": "  Zoe   Z "})
    assert response.status_code == 302
    assert Player.objects.filter(name="Zoe Z").exists()
