"""A tournament asks the other side to confirm each hand (on by default):
a table's match counts in the standings when it is over and every hand is
confirmed, or when an organiser accepts it as it is. An organiser's change
of a result that was final is shown on the standings page and named in the
history of changes.

Spades to 100 (RULES.md): bid 10 took 11 scores 101 and ends the match;
bid 2 took 2 scores 20. A Swiss round 1 pairs by registration order, so
Ann (seat 1) plays Bob."""

from __future__ import annotations

import re

import pytest

from scorekeeper.access.services import issue_link
from scorekeeper.audit import Actor
from scorekeeper.matches import services as match_services
from scorekeeper.models import AuditEvent, Match, Round, Tournament

from ..conftest import HX, play, text_of
from .helpers import client_for, make, publish_next, tables_of

pytestmark = pytest.mark.django_db

WINNING_HAND = {"bids": [10, 2], "tricks": [11, 2]}  # 101 to 20: over at 100


def points_of(page: str, name: str) -> str:
    found = re.search(rf'<th scope="row">{name}</th><td class="mp">([^<]+)</td>', page)
    assert found, f"{name} is not in the standings"
    return found.group(1)


def standings(t: Tournament, client=None, **headers):
    return (client or client_for()).get(f"/tournaments/{t.pk}/standings/", **headers)


def confirm(match: Match, actor: Actor, number: int = 1, key: str = "c" * 32):
    now = Match.objects.get(pk=match.pk)
    return match_services.check_hand(
        match_id=match.pk, number=number, correct=True, version=now.version, client_key=key, actor=actor
    )


@pytest.fixture
def finished_table(organiser):
    """Ann v Bob, over (Ann 101, Bob 20), the hand not yet confirmed."""
    t = make(organiser, ["Ann", "Bob"], rounds=2, confirm_hands=True)
    table = tables_of(publish_next(t, organiser))[0]
    play(table.match, WINNING_HAND)
    return t, table


def test_a_tournament_asks_for_confirmation_unless_the_organiser_says_not(web):
    form = {"game": "spades", "name": "Cup", "format": "swiss", "rounds": "2", "target": "100", "is_public": "on"}
    page = text_of(web.get("/tournaments/new/?game=spades"))
    assert re.search(r'<input type="checkbox" name="confirm_hands" value="on" [^>]*checked>', page)
    web.post("/tournaments/new/", {**form, "confirm_hands": "on"})
    web.post("/tournaments/new/", {**form, "name": "Cup 2"})  # unticked
    assert list(Tournament.objects.order_by("pk").values_list("confirm_hands", flat=True)) == [True, False]


def test_the_standings_wait_for_the_other_side(finished_table, organiser):
    t, table = finished_table
    page = text_of(standings(t))
    assert (points_of(page, "Ann"), points_of(page, "Bob")) == ("0", "0")
    assert "over, not yet confirmed: counts when confirmed" in page
    dashboard = text_of(client_for(organiser).get(f"/tournaments/{t.pk}/"))
    assert "over, 1 hand not yet confirmed" in dashboard
    assert "tables finished 0 of 1" in dashboard
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.PLAYING

    # The poll the screens send: the confirmation moves the standings' generation.
    first = standings(t, **HX)
    confirm(table.match, Actor.organiser(organiser))
    after = standings(t, HTTP_IF_NONE_MATCH=first["ETag"], **HX)
    assert after.status_code == 200
    assert (points_of(text_of(after), "Ann"), points_of(text_of(after), "Bob")) == ("2", "0")
    client_for(organiser).get(f"/tournaments/{t.pk}/")  # the dashboard stores what the matches say
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.COMPLETE


def test_an_organiser_accepts_a_match_as_it_is(finished_table, organiser):
    t, table = finished_table
    organiser_screen = client_for(organiser)
    sheet = text_of(organiser_screen.get(f"/matches/{table.match_id}/"))
    assert "Not yet confirmed by another player: 1 hand." in sheet
    assert "The match counts in the standings when every hand is." in sheet
    version = Match.objects.get(pk=table.match_id).version
    accepted = organiser_screen.post(f"/matches/{table.match_id}/accept/", {"version": version}, follow=True)
    assert "Match accepted as it is: it counts in the standings." in text_of(accepted)
    page = text_of(standings(t))
    assert (points_of(page, "Ann"), points_of(page, "Bob")) == ("2", "0")
    event = AuditEvent.objects.get(match=table.match, action="accepted as it is")
    assert event.actor == "organiser olga"
    history = text_of(organiser_screen.get(f"/matches/{table.match_id}/history/"))
    assert "Accepted as it is" in history


def test_only_an_organiser_may_accept_and_a_stale_page_is_refused(finished_table, organiser):
    t, table = finished_table
    device = client_for()
    _link, token = issue_link(match_id=table.match_id, label="table 1", actor=Actor.organiser(organiser))
    device.post(f"/l/{token}/")
    version = Match.objects.get(pk=table.match_id).version
    assert device.post(f"/matches/{table.match_id}/accept/", {"version": version}).status_code == 403
    stale = client_for(organiser).post(f"/matches/{table.match_id}/accept/", {"version": version - 1})
    assert stale.status_code == 409
    assert "Nothing was saved" in text_of(stale)
    assert Match.objects.get(pk=table.match_id).accepted_at is None
    assert points_of(text_of(standings(t)), "Ann") == "0"


def test_an_organisers_correction_after_the_end_is_shown(finished_table, organiser):
    t, table = finished_table
    confirm(table.match, Actor.organiser(organiser))
    screen = client_for(organiser)
    version = Match.objects.get(pk=table.match_id).version
    # Bob, not Ann, made 11: Bob 101 to Ann 20, still over.
    form = {"bids_0": "2", "bids_1": "10", "tricks_0": "2", "tricks_1": "11", "version": str(version)}
    assert screen.post(f"/matches/{table.match_id}/hands/1/edit/", form).status_code == 302
    page = text_of(standings(t))
    assert (points_of(page, "Ann"), points_of(page, "Bob")) == ("0", "2")
    assert "corrected by the organiser" in page
    assert "Corrected by the organiser after the end:</span> round 1, table 1" in page
    history = text_of(screen.get(f"/matches/{table.match_id}/history/"))
    named = r"Corrected after the end</b> · hand 1\s*<span class=\"muted\">· [^<]+ · organiser olga"
    assert re.search(named, history)
    csv = screen.get(f"/tournaments/{t.pk}/results.csv").content.decode()
    assert "finished, corrected by the organiser" in csv


def test_a_tournament_without_confirmation_counts_a_table_when_it_is_over(organiser):
    t = make(organiser, ["Ann", "Bob"], rounds=2)  # confirmation off
    table = tables_of(publish_next(t, organiser))[0]
    play(table.match, WINNING_HAND)
    page = text_of(standings(t))
    assert points_of(page, "Ann") == "2"
    assert "not yet confirmed" not in page
