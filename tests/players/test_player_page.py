"""A player's page, the ratings page and the chart of a finished match,
through the views."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Player
from scorekeeper.players.selectors import game_ratings
from scorekeeper.stats.ratings import Result, rate

from ..conftest import edit, spades_hand, text_of


def words(response) -> str:
    """The page as a reader sees it: tags gone, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", text_of(response)).split())


WIN = spades_hand([7, 4], [8, 5])  # Ann 71, Bob 41
LOSS = spades_hand([4, 7], [5, 8])  # Ann 41, Bob 71


def finished(make_match, ann_wins=True, names=("Ann", "Bob")):
    hand = WIN if ann_wins else LOSS
    return make_match("spades", names=list(names), options={"target": 100}, hands=[hand, hand])


@pytest.mark.django_db
def test_the_players_page_shows_results_figures_and_head_to_head(client, make_match):
    finished(make_match)
    finished(make_match, ann_wins=False)
    finished(make_match, names=("Ann", "Cy"))
    ann = Player.objects.get(name="Ann")
    page = words(client.get(f"/players/{ann.pk}/"))
    assert "3 matches" in page and "2 won" in page
    assert "Bid exactly 0 / 6" in page  # 7 bid, 8 taken; 4 bid, 5 taken: never exact
    assert "Bags per hand 1.0" in page
    assert re.search(r"Bob 2 1 1 0", page)  # head to head: played, won, lost, drawn
    assert re.search(r"Cy 1 1 0 0", page)


@pytest.mark.django_db
def test_names_on_the_sheet_lead_to_the_player(client, make_match):
    match = finished(make_match)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    link = re.search(r'class="total-name" href="([^"]+)">Ann<', html).group(1)
    response = client.get(link.replace("&amp;", "&"))
    assert response.status_code == 302
    assert response["Location"] == f"/players/{Player.objects.get(name='Ann').pk}/"
    assert client.get("/players/named/?name=Nobody").status_code == 404


@pytest.mark.django_db
def test_an_edit_changes_the_page(client, make_match):
    match = finished(make_match)
    ann = Player.objects.get(name="Ann")
    assert "Bid exactly 0 / 2" in words(client.get(f"/players/{ann.pk}/"))
    edit(match, 1, spades_hand([7, 4], [7, 6]))  # hand 1: Ann took exactly 7 now
    assert "Bid exactly 1 / 2" in words(client.get(f"/players/{ann.pk}/"))


@pytest.mark.django_db
def test_the_page_reads_a_fixed_number_of_queries(client, make_match):
    finished(make_match)
    ann = Player.objects.get(name="Ann")
    client.get(f"/players/{ann.pk}/")  # caches warmed
    with CaptureQueriesContext(connection) as few:
        client.get(f"/players/{ann.pk}/")
    for _ in range(4):
        finished(make_match, names=("Ann", "Cy"))
    client.get(f"/players/{ann.pk}/")  # the new matches scored and rated once
    with CaptureQueriesContext(connection) as many:
        client.get(f"/players/{ann.pk}/")
    assert len(many) == len(few)


@pytest.mark.django_db
def test_ratings_equal_a_fresh_recomputation_after_an_edit(make_match):
    matches = [finished(make_match) for _ in range(5)]
    ann, bob = Player.objects.get(name="Ann").pk, Player.objects.get(name="Bob").pk
    win, loss = Result((ann, bob), (142, 82), (0,)), Result((ann, bob), (111, 113), (1,))
    assert game_ratings("spades")[ann].mu == pytest.approx(rate([win] * 5)[ann].mu)
    # Hand 2 of the third match corrected: Ann bid 4 and took 4, Bob 7 and 9:
    # 71 + 40 = 111 against 41 + 72 = 113. Bob wins that match now, and the
    # ratings are worked out again in the order the matches ended.
    edit(matches[2], 2, spades_hand([4, 7], [4, 9]))
    matches[2].refresh_from_db()
    assert (matches[2].status, matches[2].winners) == ("finished", [1])
    now = game_ratings("spades")
    fresh = rate([win, win, loss, win, win])
    assert (now[ann].mu, now[bob].mu) == (pytest.approx(fresh[ann].mu), pytest.approx(fresh[bob].mu))
    assert now[ann].mu < rate([win] * 5)[ann].mu


@pytest.mark.django_db
def test_the_ratings_page_lists_players_after_five_matches(client, make_match):
    for _ in range(4):
        finished(make_match)
    assert "Nobody has played 5 finished matches yet." in words(client.get("/ratings/"))
    finished(make_match)
    page = words(client.get("/ratings/"))
    assert re.search(r"1 Ann [\d.-]+ 5", page) and re.search(r"2 Bob [\d.-]+ 5", page)


@pytest.mark.django_db
def test_a_finished_match_shows_its_chart(client, make_match):
    match = finished(make_match)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    svg = re.search(r'<svg class="chart-svg".*?</svg>', html, re.S).group(0)
    assert "<title" in svg and "<desc" in svg
    assert "Final: Ann 142, Bob 82." in svg and "Target 100." in svg
    assert "style=" not in svg
    assert len(re.findall(r"<polyline", svg)) == 2
    coords = re.findall(r'<polyline class="chart-line chart-seat-0" points="([^"]+)"', svg)[0].split()
    assert len(coords) == 3  # the start and two hands


@pytest.mark.django_db
def test_a_match_in_progress_has_no_chart_yet(client, make_match):
    match = make_match("spades", hands=[WIN])
    assert "chart-svg" not in client.get(f"/matches/{match.pk}/").content.decode()
