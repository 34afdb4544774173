"""What a browser walk-through found on the tournament pages (issue 15):
a round published shows at the next poll, the projector of a finished
event, table cards in the game's words, no link buttons on finished tables."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scorekeeper.audit import Actor
from scorekeeper.models import Round
from scorekeeper.tournaments import services

from ..conftest import HX, play, text_of
from .helpers import client_for, make, publish_next, tables_of

pytestmark = pytest.mark.django_db

WIN = {"bids": [10, 2], "tricks": [11, 2]}  # 101 to 20: over 100 at once


def standings(client, t, big=False):
    return client.get(reverse("tournament_standings", args=[t.pk]) + ("?big=1" if big else ""))


def test_a_published_round_shows_at_the_next_poll_within_the_refresh_time(
    organiser, settings, django_capture_on_commit_callbacks
):
    settings.STANDINGS_REFRESH_SECONDS = 60
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"])
    with django_capture_on_commit_callbacks(execute=True):
        rnd = publish_next(t, organiser)
    spectator = client_for()
    assert "Round 1" in text_of(standings(spectator, t))
    with django_capture_on_commit_callbacks(execute=True):
        for table in tables_of(rnd):
            play(table.match, WIN)
        publish_next(t, organiser)
    page = text_of(standings(spectator, t))
    assert "Round 2" in page and "tables finished 0 of 2" in page


def test_a_finished_event_shows_final_standings_and_the_winner_and_is_no_longer_polled(organiser):
    t = make(organiser, ["Ann", "Bob"], rounds=1)
    rnd = publish_next(t, organiser)
    table = tables_of(rnd)[0]
    play(table.match, WIN)
    winner = table.match.player_names[0]
    for big in (False, True):
        page = text_of(standings(client_for(), t, big))
        assert "Final standings" in page
        assert re.search(rf"<b>{winner}</b>\s*wins the tournament", page)
        assert "updates by itself" not in page
        assert not re.search(r'id="standings-live"[^>]*hx-trigger', page)
    # A screen that was polling gets the last answer: it no longer polls.
    poll = text_of(client_for().get(reverse("tournament_standings", args=[t.pk]), **HX))
    assert "Final standings" in poll and "hx-trigger" not in poll


def test_a_running_event_is_polled_and_names_no_winner(organiser):
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"])
    publish_next(t, organiser)
    page = text_of(standings(client_for(), t))
    assert re.search(r'id="standings-live"[^>]*hx-trigger="every 5s"', page)
    assert "Final standings" not in page and "updates by itself" in page


@pytest.mark.parametrize(
    ("game", "options", "words"), [("spades", None, "draws first"), ("sixtysix", {}, "deals first")]
)
def test_table_cards_say_what_seat_one_does_in_the_games_words(web, organiser, game, options, words):
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], game=game, options=options)
    rnd = services.propose_round(tournament_id=t.pk, actor=Actor.organiser(organiser))
    web.post(reverse("tournament_publish", args=[t.pk, rnd.pk]))
    page = text_of(web.get(reverse("tournament_cards", args=[t.pk])))
    firsts = re.findall(r'<ol class="seats"><li>([^<]+)</li>', page)
    assert len(firsts) == 2
    for name in firsts:
        assert f"{name} (seat 1) {words}." in page
        assert f"{name}'s phone" in page  # each player's own code
    assert page.count("Each player scans their own code. A hand entered on one phone is checked on the other.") == 2
    assert page.index("table-card") < page.index("none is stored: the organisers can show and print")


def test_finished_tables_have_no_link_buttons(web, organiser):
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"])
    rnd = publish_next(t, organiser)
    first, second = tables_of(rnd)
    play(first.match, WIN)
    page = text_of(web.get(reverse("tournament", args=[t.pk])))
    rows = dict(re.findall(r'<li id="table-(\d+)">(.*?)</li>\s*(?=<li id="table-|</ul>)', page, re.S))
    assert "New link" not in rows[str(first.number)] and "Revoke link" not in rows[str(first.number)]
    assert "New link" in rows[str(second.number)] and "Revoke link" in rows[str(second.number)]
    assert Round.objects.get(pk=rnd.pk).status == "playing"
