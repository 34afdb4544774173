"""manage.py demo: the matches it makes, and the address it tells the
newcomer to open, which is where the server of these settings listens
(ADDRESS, as bin/run and bin/dev serve it), not a fixed one."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from scorekeeper.models import Match

pytestmark = pytest.mark.django_db


def demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_the_demo_makes_a_finished_and_an_open_match_of_each_game(settings):
    settings.ADDRESS, settings.JOIN_URL = "127.0.0.1:8000", ""
    said = demo()
    games = set(Match.objects.values_list("game", "status"))
    for game in ("spades", "drawbridge", "sixtysix", "ohhell"):
        assert (game, "finished") in games and (game, "in_progress") in games
    assert "Created 8 demo matches." in said
    assert "Open http://127.0.0.1:8000/" in said


def test_the_demo_names_the_port_the_server_listens_on(settings):
    settings.ADDRESS, settings.JOIN_URL = "127.0.0.1:8123", ""
    said = demo()
    assert "http://127.0.0.1:8123/" in said and ":8000" not in said
    assert "Phones" not in said  # this computer only


def test_listening_on_the_network_the_demo_names_both_addresses(settings):
    # bin/run --lan: every address, the phones joining at this computer's address there.
    settings.ADDRESS, settings.JOIN_URL = "0.0.0.0:8080", "http://192.168.1.20:8080"
    said = demo()
    assert "Open http://127.0.0.1:8080/" in said
    assert "Phones on the network open http://192.168.1.20:8080/" in said


def test_a_named_host_is_opened_by_its_name(settings):
    settings.ADDRESS, settings.JOIN_URL = "192.168.1.20:9000", "http://192.168.1.20:9000"
    assert "Open http://192.168.1.20:9000/" in demo()
