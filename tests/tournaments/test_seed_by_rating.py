"""A Swiss can seed by rating: round 1 follows the players' ratings of the
game, unrated players last; without the option, registration order."""

import pytest

from scorekeeper.audit import Actor
from scorekeeper.models import Player
from scorekeeper.tournaments import services

from ..conftest import spades_hand
from .helpers import make


def rate_up(make_match, winner, loser, times):
    for _ in range(times):
        make_match("spades", names=[winner, loser], options={"target": 100}, hands=[spades_hand([7, 4], [8, 5])] * 2)


def round_one(t, organiser):
    rnd = services.propose_round(tournament_id=t.pk, actor=Actor.organiser(organiser))
    names = dict(Player.objects.values_list("pk", "name"))
    return [[names[p] for p in table] for table in rnd.proposal]


@pytest.mark.django_db
def test_round_one_follows_the_ratings(make_match, organiser):
    rate_up(make_match, "Dan", "Eve", 6)  # Dan rated first
    rate_up(make_match, "Ann", "Fay", 5)  # Ann second; Bob and Cat unrated
    field = ["Ann", "Bob", "Cat", "Dan"]
    by_registration = round_one(make(organiser, field, name="Plain"), organiser)
    by_rating = round_one(make(organiser, field, name="Seeded", seed_by_rating=True), organiser)
    # Round 1 pairs neighbours in the seeding: Dan, Ann | Bob, Cat.
    assert sorted(map(sorted, by_rating)) == [["Ann", "Dan"], ["Bob", "Cat"]]
    assert "Dan" in by_rating[0]  # board 1 holds the top seed
    assert sorted(map(sorted, by_registration)) == [["Ann", "Bob"], ["Cat", "Dan"]]


@pytest.mark.django_db
def test_the_new_tournament_form_offers_it_for_swiss(web):
    page = web.get("/tournaments/new/?game=spades").content.decode()
    assert 'name="seed_by_rating"' in page
    response = web.post(
        "/tournaments/new/",
        {
            "game": "spades",
            "name": "Rated",
            "format": "swiss",
            "rounds": "3",
            "table_size": "4",
            "seed_by_rating": "on",
            "target": "500",
        },
    )
    assert response.status_code == 302, response.content.decode()[-1500:]
    from scorekeeper.models import Tournament

    assert Tournament.objects.get(name="Rated").seed_by_rating is True
