"""Fair points through the pages: Oh Hell placement points that do not
depend on the table's size, total score when the organiser chooses it, and
tables at which no hand was played counting for nobody, as the standings
page, its note, the dashboard, the pairings and the CSVs show them.

Expected values are worked out by hand from the README's rules: place p at
a table of k earns 2 * (k - p) / (k - 1), shared places split what they
cover; a made Oh Hell bid scores 10 plus the tricks, a missed one 0
(docs/rules.md, section 5)."""

from __future__ import annotations

import csv
import io
import re

import pytest

from scorekeeper.audit import Actor
from scorekeeper.errors import ServiceError
from scorekeeper.models import Round, Table, Tournament
from scorekeeper.pairing.standings import OH_HELL_POINTS
from scorekeeper.tournaments import services
from scorekeeper.tournaments.ending import end_table_early

from ..conftest import play, text_of
from .helpers import client_for, make, publish_next, tables_of

pytestmark = pytest.mark.django_db

SEVEN = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
UP = {"schedule": "up"}
# Hand 1 deals one card. Seat 1 bids 1 and takes it (10 + 1 = 11), seat 2
# bids 0 and takes 0 (10), the others bid 1 and take 0 (missed: 0).
FIRST_HAND = {3: {"bids": [1, 0, 1], "tricks": [1, 0, 0]}, 4: {"bids": [1, 0, 1, 1], "tricks": [1, 0, 0, 0]}}


def seated_event(user, **kwargs) -> tuple[Tournament, Table, Table]:
    """Seven players, round 1 published: a table of 3 and a table of 4."""
    t = make(user, SEVEN, game="ohhell", fmt="seated", rounds=2, options=UP, table_size=4, **kwargs)
    three, four = sorted(tables_of(publish_next(t, user)), key=lambda table: table.match.seats.count())
    assert (three.match.seats.count(), four.match.seats.count()) == (3, 4)
    return t, three, four


def names_at(table: Table) -> list[str]:
    return list(table.match.seats.order_by("position").values_list("player__name", flat=True))


def one_hand_then_end(table: Table, user) -> None:
    play(table.match, FIRST_HAND[len(names_at(table))])
    end_table_early(table_id=table.pk, actor=Actor.organiser(user))


def standings_page(t: Tournament, **params) -> str:
    return text_of(client_for().get(f"/tournaments/{t.pk}/standings/", params))


def standings_rows(page: str) -> dict[str, list[str]]:
    """Each player's row as shown: [rank, first figure, tiebreaks..., games, ...]."""
    body = re.search(r'<tbody id="standings-body">(.*?)</tbody>', page, re.S).group(1)
    out = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        name = re.search(r'<th scope="row">([^<]+)', row).group(1).strip()
        out[name] = re.findall(r"<td[^>]*>([^<]*)</td>", row)
    return out


def headers(page: str) -> list[str]:
    return re.findall(r'<th scope="col">([^<]+)</th>', page)


def live_line(page: str, number: int) -> str:
    """The standings page's line for table ``number`` of the round."""
    lines = re.findall(r"<li[^>]*>(.*?)</li>", re.search(r'id="live-tables"(.*?)</section>', page, re.S).group(1))
    return next(line for line in lines if f"Table {number}<" in line)


def csv_of(t: Tournament, which: str) -> list[list[str]]:
    response = client_for().get(f"/tournaments/{t.pk}/{which}.csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def results_by_player(t: Tournament) -> dict[str, list[str]]:
    """Results CSV: player -> [result, match points, status] of round 1."""
    head, *rows = csv_of(t, "results")
    assert head == ["Round", "Table", "Seat", "Player", "Score", "Result", "Match points", "Status"]
    return {row[3]: row[5:] for row in rows if row[0] == "1"}


# ------------------------------------------------------------ placement points


def test_the_winners_of_a_table_of_3_and_of_a_table_of_4_both_get_2(organiser):
    t, three, four = seated_event(organiser)
    for table in (three, four):
        one_hand_then_end(table, organiser)
    a1, a2, a3 = names_at(three)  # 11, 10, 0
    b1, b2, b3, b4 = names_at(four)  # 11, 10, 0, 0
    shown = standings_rows(standings_page(t))
    # [rank, match points, total score, average place, games]
    # table of 3: 2 * 2 / 2 = 2, 2 * 1 / 2 = 1, 0
    # table of 4: 2 * 3 / 3 = 2, 2 * 2 / 3 = 1.33; the last two share places 3 and 4: (2/3 + 0) / 2 = 0.33
    # the two winners tie on everything (2, 11, place 1) and share first place
    assert shown == {
        a1: ["1", "2", "11", "1", "1"],
        b1: ["1", "2", "11", "1", "1"],
        b2: ["3", "1.33", "10", "2", "1"],
        a2: ["4", "1", "10", "2", "1"],
        b3: ["5", "0.33", "0", "3.5", "1"],
        b4: ["5", "0.33", "0", "3.5", "1"],
        a3: ["7", "0", "0", "3", "1"],
    }
    results = results_by_player(t)
    assert results[a1][:2] == results[b1][:2] == ["place 1", "2"]
    assert (results[b2][:2], results[b3][:2], results[a2][:2]) == (
        ["place 2", "1.33"],
        ["place 3.5", "0.33"],
        ["place 2", "1"],
    )
    head, *rows = csv_of(t, "standings")
    assert head[:5] == ["Rank", "Player", "Match points", "Total score", "Average place"]
    assert {row[1]: row[2] for row in rows} == {name: figures[1] for name, figures in shown.items()}


def test_a_table_ended_before_its_first_hand_counts_for_nobody(organiser):
    t, three, four = seated_event(organiser)
    one_hand_then_end(four, organiser)
    end_table_early(table_id=three.pk, actor=Actor.organiser(organiser))  # before any hand
    idle = names_at(three)
    b1, b2, b3, b4 = names_at(four)
    page = standings_page(t)
    shown = standings_rows(page)
    # The three of the table not played: no points (equal totals of 0 would
    # have shared places 1 to 3: a point each), no score, no place, no game;
    # below the two who played and shared the last places at four.
    for name in idle:
        assert shown[name] == ["5", "0", "0", "–", "0"], name
    assert (shown[b1][:2], shown[b2][:2], shown[b3][:2], shown[b4][:2]) == (
        ["1", "2"],
        ["2", "1.33"],
        ["3", "0.33"],
        ["3", "0.33"],
    )
    assert "not played" in live_line(page, three.number) and "ended early" in live_line(page, four.number)
    results = results_by_player(t)
    for name in idle:
        assert results[name] == ["not played", "0", "ended early"]
    assert results[b1] == ["place 1", "2", "ended early"]
    games = {row[1]: row[5] for row in csv_of(t, "standings")[1:]}  # rank, player, points, 2 tiebreaks, games
    assert [games[name] for name in idle] == ["0", "0", "0"]
    organiser_page = text_of(client_for(organiser).get(f"/tournaments/{t.pk}/"))
    assert re.search(rf'id="table-{three.number}">.*?not played', organiser_page, re.S)
    pairings = text_of(client_for().get(f"/tournaments/{t.pk}/pairings/", {"q": idle[0]}))
    assert "not played" in pairings and "ended early" not in pairings
    # the round is over: its next round can start
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.COMPLETE


# ------------------------------------------------------------ total score


def test_the_organiser_chooses_total_score_on_the_new_tournament_page(organiser):
    browser = client_for(organiser)
    form = text_of(browser.get("/tournaments/new/", {"game": "ohhell"}))
    assert re.search(r'name="oh_hell_points" value="placement" checked', form)
    assert 'value="total_score"' in form and "Rank the players by" in form
    assert 'name="oh_hell_points"' not in text_of(browser.get("/tournaments/new/", {"game": "spades"}))
    fields = {"game": "ohhell", "name": "Hell Night", "format": "seated", "rounds": "2", "is_public": "on"}
    refused = browser.post("/tournaments/new/", {**fields, "oh_hell_points": "wins"})
    assert refused.status_code == 422 and "Choose how the tables' points are counted." in text_of(refused)
    assert browser.post("/tournaments/new/", {**fields, "oh_hell_points": "total_score"}).status_code == 302
    t = Tournament.objects.get()
    assert t.oh_hell_points == "total_score"

    services.register_players(tournament_id=t.pk, text="\n".join(SEVEN), actor=Actor.organiser(organiser))
    three, four = sorted(tables_of(publish_next(t, organiser)), key=lambda table: table.match.seats.count())
    for table in (three, four):
        one_hand_then_end(table, organiser)
    a1, a2, a3 = names_at(three)
    b1, b2, b3, b4 = names_at(four)
    page = standings_page(t)
    assert headers(page)[:4] == ["Rank", "Player", "Total score", "Average place"]
    # [rank, total score, average place, games]: by score, then average place
    # 11 (place 1) twice; 10 (place 2) twice; 0: the last at three (place 3)
    # before the two who shared places 3 and 4 at four (3.5)
    assert standings_rows(page) == {
        a1: ["1", "11", "1", "1"],
        b1: ["1", "11", "1", "1"],
        a2: ["3", "10", "2", "1"],
        b2: ["3", "10", "2", "1"],
        a3: ["5", "0", "3", "1"],
        b3: ["6", "0", "3.5", "1"],
        b4: ["6", "0", "3.5", "1"],
    }
    assert "ranked by their total game score over all tables" in page and "placement points" not in page
    head, *rows = csv_of(t, "standings")
    assert head[:4] == ["Rank", "Player", "Total score", "Average place"]
    assert {row[1]: row[2] for row in rows} == {a1: "11", b1: "11", a2: "10", b2: "10", a3: "0", b3: "0", b4: "0"}
    assert results_by_player(t)[b2][:2] == ["place 2", "10"]  # a table adds its score


def test_the_choice_is_checked_and_only_kept_for_seated_rounds(organiser):
    me = Actor.organiser(organiser)
    with pytest.raises(ServiceError) as refused:
        services.create_tournament(name="X", game="ohhell", format="seated", rounds=1, oh_hell_points="most", actor=me)
    assert refused.value.field == "oh_hell_points"
    swiss = services.create_tournament(
        name="S", game="spades", format="swiss", rounds=1, oh_hell_points="total_score", actor=me
    )
    assert swiss.oh_hell_points == "placement"  # two-player events have their own points
    default = services.create_tournament(name="O", game="ohhell", format="seated", rounds=1, actor=me)
    assert default.oh_hell_points == "placement"


# ------------------------------------------------------------ two-player tables


def test_an_unplayed_swiss_table_is_no_game_and_its_two_may_meet_again(organiser):
    t = make(organiser, ["P1", "P2", "P3", "P4"], rounds=2)
    r1 = publish_next(t, organiser)
    for table in tables_of(r1):
        end_table_early(table_id=table.pk, actor=Actor.organiser(organiser))  # before any hand
    page = standings_page(t)
    # [rank, match points, Buchholz, difference, head-to-head, games, W–D–L, byes]:
    # not a draw (that would be 1 point each, and a game)
    assert standings_rows(page) == {
        name: ["1", "0", "0", "0", "–", "0", "0–0–0", "0"] for name in ("P1", "P2", "P3", "P4")
    }
    assert "not played" in live_line(page, 1) and "not played" in live_line(page, 2)
    assert {row[3]: row[5:7] for row in csv_of(t, "results")[1:]} == dict.fromkeys(
        ["P1", "P2", "P3", "P4"], ["not played", "0"]
    )
    # Nobody has met: all on 0 in registration order, round 2 pairs the same
    # two tables again (as draws, P1 and P2 would have met and been kept apart).
    r2 = services.propose_round(tournament_id=t.pk, actor=Actor.organiser(organiser))
    assert {frozenset(pair) for pair in r2.proposal} == {
        frozenset(pair) for pair in Round.objects.get(pk=r1.pk).proposal
    }


# ------------------------------------------------------------ the note


@pytest.mark.parametrize(
    ("game", "fmt", "extra", "says", "not_said"),
    [
        (
            "ohhell",
            "seated",
            {},
            [
                "2, 1, 0 at a table of 3; 2, 1.33, 0.67, 0 at a table of 4",
                "nobody there gets points, a place or a game",
            ],
            ["ranked by their total game score"],
        ),
        (
            "ohhell",
            "seated",
            {"oh_hell_points": "total_score"},
            ["ranked by their total game score over all tables", "nobody there gets points, a place or a game"],
            ["placement points"],
        ),
        (
            "spades",
            "swiss",
            {},
            ["A win earns 2 match points, a draw 1 and a loss 0", "Buchholz", "they may be paired again"],
            ["placement"],
        ),
        (
            "spades",
            "round_robin",
            {},
            ["A win earns 2 match points", "0 points to each player"],
            ["they may be paired again"],
        ),
    ],
)
def test_the_standings_page_says_how_points_work(organiser, game, fmt, extra, says, not_said):
    options = UP if game == "ohhell" else None
    t = make(organiser, ["Ann", "Bob", "Cat"], game=game, fmt=fmt, options=options, **extra)
    page = standings_page(t)
    note = re.search(r'<section class="points-note".*?</section>', page, re.S).group(0)
    assert "How points work" in note and "not played" in note
    for words in says:
        assert words in note, words
    for words in not_said:
        assert words not in note, words
    assert "points-note" not in standings_page(t, big="1")  # the projector shows the standings only


def test_the_choices_are_the_pure_standings_own():
    assert tuple(Tournament.OhHellPoints.values) == OH_HELL_POINTS
