"""The players list through the pages: add and rename, with plain-words
refusals and nothing changed on a bad name."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorekeeper.models import Player
from scorekeeper.players import services

from ..conftest import text_of

pytestmark = pytest.mark.django_db


def test_players_page_adds_a_player(web):
    response = web.post(reverse("players"), {"name": "  Zoe  "})
    assert response.status_code == 302
    assert Player.objects.get().name == "Zoe"
    page = text_of(web.get(response.url))
    assert "Zoe added." in page


def test_players_page_refuses_a_duplicate_with_a_message(web):
    services.add_player(name="Zoe")
    response = web.post(reverse("players"), {"name": "zoe"})
    assert response.status_code == 422
    assert "There is already a player called zoe" in text_of(response)
    assert Player.objects.count() == 1


@pytest.mark.parametrize("name", ["", "x" * 10_000])
def test_players_page_refuses_a_bad_name(web, name):
    response = web.post(reverse("players"), {"name": name})
    assert response.status_code == 422
    assert Player.objects.count() == 0


def test_rename_a_player(web):
    ann = services.add_player(name="Ann")
    page = text_of(web.get(reverse("rename_player", args=[ann.pk])))
    assert 'value="Ann"' in page
    response = web.post(reverse("rename_player", args=[ann.pk]), {"name": "Anne"})
    assert response.status_code == 302
    assert Player.objects.get(pk=ann.pk).name == "Anne"
    assert "Anne" in text_of(web.get(reverse("players")))


def test_rename_to_a_taken_name_is_refused(web):
    ann = services.add_player(name="Ann")
    services.add_player(name="Bob")
    response = web.post(reverse("rename_player", args=[ann.pk]), {"name": "BOB"})
    assert response.status_code == 422
    assert "There is already a player called BOB" in text_of(response)
    assert Player.objects.get(pk=ann.pk).name == "Ann"
