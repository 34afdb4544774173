"""Tournament pages through the Django test client: the organiser's flow
(create, register, review, swap, publish, table cards, links, ending a
table), table devices scoring through their link and nothing else, who may
see and change what, "which table am I at?" and the CSV exports. The
public standings and their polls are in test_standings.py."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.audit import Actor
from scorekeeper.models import AccessLink, AuditEvent, Entrant, Hand, Match, Round, Table, Tournament
from scorekeeper.tournaments import services

from ..conftest import HX, basis, form_values, play, text_of
from .helpers import SPADES_100, build_round, client_for, device_for, make, publish_next, spades_form, tables_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("stranger")


def tokens_on(page: str) -> list[str]:
    return re.findall(r"/l/([0-9]+-[0-9]+-[A-Za-z0-9_-]{43})/", page)


def card_tokens(page: str) -> dict[str, list[str]]:
    """{table number: [side A's token, side B's]} as the table cards show them."""
    return {number: tokens_on(card) for number, card in re.findall(r'id="table-(\d+)"(.*?)</article>', page, re.S)}


# ------------------------------------------------------------------ create


def test_creating_a_tournament_through_the_form(organiser):
    client = client_for(organiser)
    page = text_of(client.get("/tournaments/new/"))
    assert "Oh Hell" in page and "Seated rounds at tables of 3 to 7" in page
    page = text_of(client.get("/tournaments/new/?game=spades"))
    assert 'value="swiss"' in page and 'value="seated"' not in page and 'name="opt_target"' in page

    refused = client.post("/tournaments/new/", {"game": "spades", "name": "Cup", "format": "seated", "rounds": "3"})
    assert refused.status_code == 422
    assert "Spades is a two-player game" in text_of(refused)
    refused = client.post("/tournaments/new/", {"game": "spades", "name": "Cup", "format": "swiss", "rounds": "x"})
    assert refused.status_code == 422 and "enter a whole number" in text_of(refused)
    refused = client.post(
        "/tournaments/new/",
        {
            "game": "ohhell",
            "name": "Cup",
            "format": "seated",
            "rounds": "2",
            "opt_hook": "on",
            "opt_simultaneous_bidding": "on",
        },
    )
    assert refused.status_code == 422
    assert not Tournament.objects.exists()

    created = client.post(
        "/tournaments/new/",
        {
            "game": "ohhell",
            "name": "Hell Night",
            "format": "seated",
            "rounds": "3",
            "table_size": "5",
            "round_minutes": "45",
            "opt_schedule": "down",
        },
    )
    t = Tournament.objects.get()
    assert created.status_code == 302 and created["Location"] == f"/tournaments/{t.pk}/"
    assert (t.game, t.format, t.planned_rounds, t.table_size, t.round_minutes) == ("ohhell", "seated", 3, 5, 45)
    assert t.options["schedule"] == "down" and t.is_public is False  # the unticked checkbox
    assert t.owner == organiser
    listing = text_of(client.get("/tournaments/"))
    assert "Hell Night" in listing and "New tournament" in listing
    assert client_for().get("/tournaments/new/").status_code == 302  # log in first
    assert client_for().get("/tournaments/").status_code == 302


# --------------------------------------------------------- the organiser's flow


def test_the_organisers_flow_and_table_links(organiser, django_user_model):
    org = client_for(organiser)
    t = services.create_tournament(
        name="Club Night",
        game="spades",
        format="swiss",
        rounds=2,
        options=SPADES_100,
        confirm_hands=False,
        actor=Actor.organiser(organiser),
    )
    url = f"/tournaments/{t.pk}/"

    assert org.post(f"{url}players/", {"names": "  \n , "}).status_code == 422
    response = org.post(f"{url}players/", {"names": "Ann\nBob, Cat\n\nDan\nann"}, follow=True)
    page = text_of(response)
    assert "Registered: Ann, Bob, Cat, Dan." in page and "Given twice, registered once: ann." in page
    assert "Start round 1" in page

    response = org.post(f"{url}rounds/start/")
    rnd = Round.objects.get(tournament=t)
    assert response.status_code == 302 and response["Location"] == f"{url}rounds/{rnd.pk}/"
    review = text_of(org.get(response["Location"]))
    assert "Publish round 1" in review and "Swap two players" in review
    ann, dan = (Entrant.objects.get(tournament=t, player__name=n).player_id for n in ("Ann", "Dan"))
    assert org.post(f"{url}rounds/{rnd.pk}/swap/", {"player_a": ann, "player_b": ann}).status_code == 422
    assert org.post(f"{url}rounds/{rnd.pk}/swap/", {"player_a": "x", "player_b": dan}).status_code == 422
    before = Round.objects.get(pk=rnd.pk).proposal
    org.post(f"{url}rounds/{rnd.pk}/swap/", {"player_a": ann, "player_b": dan})
    after = Round.objects.get(pk=rnd.pk).proposal
    swap = {ann: dan, dan: ann}
    assert after == [[swap.get(p, p) for p in table] for table in before]
    # Starting another round now is refused: this one waits for review.
    assert org.post(f"{url}rounds/start/").status_code == 409

    response = org.post(f"{url}rounds/{rnd.pk}/publish/")
    assert response.status_code == 302 and response["Location"] == f"{url}cards/?round=1"
    first, second = tables_of(rnd)
    cards = text_of(org.get(response["Location"]))
    assert cards.count("<svg") == 4 and "Table 1" in cards and "Table 2" in cards  # a code per side
    tokens = tokens_on(cards)
    assert len(set(tokens)) == 4
    assert "Issue new links for all tables" in cards and "show and print these cards again at any time" in cards
    # Which tokens belong to which table: the card's id says (a token per side).
    by_table = card_tokens(cards)
    (token_1, token_1b), (token_2, token_2b) = by_table["1"], by_table["2"]

    # A table device: the real confirm (GET) then exchange (POST), then the
    # entry form of the match's page, as a browser without JavaScript posts it.
    device = client_for()
    confirm = device.get(f"/l/{token_1}/")
    assert confirm.status_code == 200 and "Score this match on this device?" in text_of(confirm)
    assert device.post(f"/l/{token_1}/")["Location"] == f"/matches/{first.match_id}/"
    form = form_values(device.get(f"/matches/{first.match_id}/").content.decode(), "entry-form")
    assert (form["number"], form["bidding"]) == ("1", "none")
    hand = {"bids_0": "3", "bids_1": "3", "tricks_0": "6", "tricks_1": "7"}
    saved = device.post(f"/matches/{first.match_id}/hands/", {**form, **hand})
    assert saved.status_code == 302 and Hand.objects.filter(match_id=first.match_id).count() == 1
    assert Match.objects.get(pk=first.match_id).totals == [33, 34]  # bid 3 took 6; bid 3 took 7

    # ... is refused on the other table's match: nothing changes.
    other_version = Match.objects.get(pk=second.match_id).version
    refused = device.post(f"/matches/{second.match_id}/hands/", spades_form(second.match, [3, 3], [6, 7]))
    assert refused.status_code == 403
    assert Hand.objects.filter(match_id=second.match_id).count() == 0
    assert Match.objects.get(pk=second.match_id).version == other_version
    bids = {"bids_0": "3", "bids_1": "3", **basis(second.match)}
    assert device.post(f"/matches/{second.match_id}/bids/", bids).status_code == 403
    assert Match.objects.get(pk=second.match_id).pending_bidding is None
    assert device.get(url).status_code == 403  # and is no organiser

    # The organiser sees the round's progress.
    dash = text_of(org.get(url))
    assert "tables finished 0 of 2" in dash and "Round 1 is being played" in dash

    # Revoking table 1's link stops the device at once.
    version = Match.objects.get(pk=first.match_id).version
    org.post(f"{url}tables/{first.pk}/link/", {"action": "revoke"})
    refused = device.post(f"/matches/{first.match_id}/hands/", spades_form(first.match, [3, 3], [6, 7]))
    assert refused.status_code == 403
    assert Hand.objects.filter(match_id=first.match_id).count() == 1
    assert Match.objects.get(pk=first.match_id).version == version
    assert device.get(f"/l/{token_1}/").status_code == 404

    assert device.get(f"/l/{token_1b}/").status_code == 404  # the other side's link too
    cards = text_of(org.get(f"{url}cards/?round=1"))
    assert tokens_on(cards) == [token_2, token_2b] and "1 table's links were revoked" in cards

    # Re-issuing table 1's link shows it on the cards.
    response = org.post(f"{url}tables/{first.pk}/link/", {"action": "reissue"})
    assert response["Location"] == f"{url}cards/?round=1#table-1"
    cards = text_of(org.get(f"{url}cards/?round=1"))
    new_1 = card_tokens(cards)["1"]
    assert not set(new_1) & {token_1, token_1b} and token_2 in cards
    assert device.get(f"/l/{token_1}/").status_code == 404  # the old token stays dead

    # A co-organiser on another device sees the same working links: nothing to reissue.
    co = django_user_model.objects.create_user("co")
    t.co_organisers.add(co)
    co_client = client_for(co)
    cards = text_of(co_client.get(f"{url}cards/"))
    assert tokens_on(cards) == [*new_1, token_2, token_2b] and cards.count("<svg") == 4 and "revoked" not in cards
    # Issuing new links for all tables: the old ones stop working, on every device's cards.
    co_client.post(f"{url}rounds/{rnd.pk}/links/")
    cards = text_of(co_client.get(f"{url}cards/"))
    assert len(set(tokens_on(cards))) == 4 and cards.count("<svg") == 4
    assert not set(tokens_on(cards)) & {*new_1, token_2, token_2b}
    assert device.get(f"/l/{token_2}/").status_code == 404  # the old links stopped working
    for table in (first, second):  # one working link per side of each table: the new ones
        assert AccessLink.objects.filter(match=table.match, revoked_at__isnull=True).count() == 2
    # The first organiser's cards show the new links too.
    assert tokens_on(text_of(org.get(f"{url}cards/"))) == tokens_on(cards)

    # End table 1 early (confirm, then POST): 33 to 34, so seat 2 wins.
    confirm = text_of(org.get(f"{url}tables/{first.pk}/end/"))
    assert "End table 1 of round 1 now?" in confirm and "This cannot be undone." in confirm
    assert org.post(f"{url}tables/{first.pk}/end/").status_code == 302
    match = Match.objects.get(pk=first.match_id)
    assert (match.status, match.winners) == ("finished", [1])
    assert Table.objects.get(pk=first.pk).ended_early_at is not None

    # The organiser scores table 2 directly (a tournament's organisers may).
    org.post(f"/matches/{second.match_id}/hands/", spades_form(second.match, [10, 2], [11, 2]))
    assert Match.objects.get(pk=second.match_id).status == "finished"
    dash = text_of(org.get(url))
    assert "Start round 2" in dash
    assert Round.objects.get(pk=rnd.pk).status == "complete"  # stored when the dashboard opened

    # Late entry and a drop between rounds, through the dashboard's forms.
    org.post(f"{url}players/", {"names": "Eve"})
    entrant = Entrant.objects.get(tournament=t, player__name="Bob")
    org.post(f"{url}players/{entrant.pk}/drop/")
    assert Entrant.objects.get(pk=entrant.pk).dropped_after_round == 1
    assert Entrant.objects.filter(tournament=t, dropped_after_round__isnull=True).count() == 4


def test_late_entries_wait_for_the_round_to_end(organiser):
    t = make(organiser, ["Ann", "Bob"])
    publish_next(t, organiser)
    response = client_for(organiser).post(f"/tournaments/{t.pk}/players/", {"names": "Late"})
    assert response.status_code == 409
    assert "register late entries when it is over" in text_of(response)
    assert Entrant.objects.filter(tournament=t).count() == 2


# ---------------------------------------------------------------- permissions


def organiser_endpoints(t: Tournament, rnd: Round, table: Table, entrant: Entrant) -> list[tuple[str, str, dict]]:
    base = f"/tournaments/{t.pk}"
    return [
        ("get", f"{base}/", {}),
        ("get", f"{base}/rounds/{rnd.pk}/", {}),
        ("get", f"{base}/cards/", {}),
        ("get", f"{base}/tables/{table.pk}/end/", {}),
        ("post", f"{base}/players/", {"names": "Mallory"}),
        ("post", f"{base}/players/{entrant.pk}/drop/", {}),
        ("post", f"{base}/rounds/start/", {}),
        ("post", f"{base}/rounds/{rnd.pk}/swap/", {"player_a": rnd.proposal[0][0], "player_b": rnd.proposal[0][1]}),
        ("post", f"{base}/rounds/{rnd.pk}/publish/", {}),
        ("post", f"{base}/rounds/{rnd.pk}/links/", {}),
        ("post", f"{base}/tables/{table.pk}/link/", {"action": "reissue"}),
        ("post", f"{base}/tables/{table.pk}/link/", {"action": "revoke"}),
        ("post", f"{base}/tables/{table.pk}/end/", {}),
    ]


def state(t: Tournament) -> dict:
    return {
        "audit": AuditEvent.objects.filter(tournament=t).count(),
        "match_audit": AuditEvent.objects.filter(match__table__round__tournament=t).count(),
        "entrants": list(Entrant.objects.filter(tournament=t).values_list("player_id", "dropped_after_round")),
        "rounds": list(Round.objects.filter(tournament=t).values_list("number", "status", "proposal", "byes")),
        "links": list(AccessLink.objects.filter(match__table__round__tournament=t).values_list("pk", "revoked_at")),
        "matches": list(Match.objects.filter(table__round__tournament=t).values_list("pk", "status", "version")),
        "tables": list(Table.objects.filter(round__tournament=t).values_list("pk", "ended_early_at")),
    }


@pytest.mark.parametrize("who", ["stranger", "anonymous", "table device"])
def test_only_organisers_reach_the_organiser_pages(organiser, stranger, who):
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"])
    rnd = publish_next(t, organiser)
    table = tables_of(rnd)[0]
    entrant = Entrant.objects.filter(tournament=t).first()
    if who == "stranger":
        client = client_for(stranger)
    elif who == "anonymous":
        client = client_for()
    else:
        client = device_for(table)
    before = state(t)
    for method, path, data in organiser_endpoints(t, rnd, table, entrant):
        response = getattr(client, method)(path, data)
        assert response.status_code == 403, (method, path)
    assert state(t) == before


def test_private_tournament_pages_are_for_organisers_only(organiser, stranger):
    t = make(organiser, ["Ann", "Bob"], is_public=False)
    publish_next(t, organiser)
    for path in ("standings/", "pairings/", "standings.csv", "results.csv"):
        assert client_for(stranger).get(f"/tournaments/{t.pk}/{path}").status_code == 403
        assert client_for().get(f"/tournaments/{t.pk}/{path}").status_code == 403
        assert client_for(organiser).get(f"/tournaments/{t.pk}/{path}").status_code == 200


# ---------------------------------------------------------- public pages


def test_standings_and_pairings_run_a_constant_number_of_queries(organiser):
    small, large = build_round(organiser, 4), build_round(organiser, 40)
    assert Table.objects.filter(round__tournament=large).count() == 20
    anyone = client_for()
    for page in ("standings/", "pairings/", "pairings/?q=007", "standings.csv", "results.csv"):
        counts = []
        for t in (small, large):
            with CaptureQueriesContext(connection) as queries:
                assert anyone.get(f"/tournaments/{t.pk}/{page}").status_code == 200
            counts.append(len(queries))
        assert counts[0] == counts[1], page
        assert counts[0] <= 8, page


def test_which_table_am_i_at(organiser):
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan", "Eve"])
    rnd = publish_next(t, organiser)
    anyone = client_for()
    page = text_of(anyone.get(f"/tournaments/{t.pk}/pairings/"))
    assert page.count('class="card-title"') == 2 and "Bye this round:" in page
    assert 'hx-trigger="input changed delay:300ms, search"' in page
    ann_table = next(tb for tb in tables_of(rnd) if tb.match.seats.filter(player__name="Ann").exists())
    page = text_of(anyone.get(f"/tournaments/{t.pk}/pairings/?q=aNN"))
    assert page.count('class="card-title"') == 1 and f"Table {ann_table.number}" in page
    fragment = text_of(anyone.get(f"/tournaments/{t.pk}/pairings/?q=ann", **HX))
    assert fragment.lstrip().startswith('<div id="pairings-results"') and "<html" not in fragment
    page = text_of(anyone.get(f"/tournaments/{t.pk}/pairings/?q=zzz"))
    assert "Nobody called “zzz” plays in this round." in page


# --------------------------------------------------------------------- csv


def test_csv_exports(organiser):
    t = make(organiser, ["Ann", "Bob", "Cat"], rounds=1, name="Spring Cup")
    rnd = publish_next(t, organiser)
    table = tables_of(rnd)[0]
    names = list(table.match.seats.order_by("position").values_list("player__name", flat=True))
    play(table.match, {"bids": [10, 2], "tricks": [11, 2]})  # seat 1: 101 to 20
    anyone = client_for()

    response = anyone.get(f"/tournaments/{t.pk}/standings.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == 'attachment; filename="spring-cup-standings.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "Rank",
        "Player",
        "Match points",
        "Buchholz",
        "Score difference",
        "Head-to-head",
        "Games played",
        "Wins",
        "Draws",
        "Losses",
        "Byes",
        "Dropped after round",
    ]
    # The winner: 2 points, Buchholz 0, +81. The bye: 2, 0, 0. The loser: 0, Buchholz 2, -81.
    bye = next(n for n in ("Ann", "Bob", "Cat") if n not in names)
    assert rows[1] == ["1", names[0], "2", "0", "81", "", "1", "1", "0", "0", "0", ""]
    assert rows[2] == ["2", bye, "2", "0", "0", "", "0", "0", "0", "0", "1", ""]
    assert rows[3] == ["3", names[1], "0", "2", "-81", "", "1", "0", "0", "1", "0", ""]

    response = anyone.get(f"/tournaments/{t.pk}/results.csv")
    assert response["Content-Disposition"] == 'attachment; filename="spring-cup-results.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows == [
        ["Round", "Table", "Seat", "Player", "Score", "Result", "Match points", "Status"],
        ["1", "1", "1", names[0], "101", "win", "2", "finished"],
        ["1", "1", "2", names[1], "20", "loss", "0", "finished"],
        ["1", "", "", bye, "", "bye", "2", ""],
    ]


# ------------------------------------------------------------ table devices


def table_device(user) -> tuple[Client, Table]:
    """A device holding the scoring link of a fresh two-player table."""
    t = make(user, ["Ann", "Bob"], rounds=1)
    table = tables_of(publish_next(t, user))[0]
    return device_for(table), table


def statements(queries) -> list[str]:
    """The SQL a request ran (the test's own transaction makes savepoints of the writes' transactions)."""
    return [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


def test_a_table_device_saves_bids_in_a_few_queries(organiser):
    """The match, the device's link and the names to read the bids (3); the
    locked write: the match, its names and hands to check the bids, the
    update, the audit event (5); the answer drawn from what is stored: the
    match, its seats and hands (3)."""
    device, table = table_device(organiser)
    form = {"bids_0": "4", "bids_1": "5", **basis(table.match)}
    with CaptureQueriesContext(connection) as queries:
        saved = device.post(f"/matches/{table.match_id}/bids/", form, **HX)
    page = text_of(saved)
    assert saved.status_code == 200 and "Bids saved." in page
    assert Match.objects.get(pk=table.match_id).pending_bidding == {"bids": [4, 5]}
    assert 'name="tricks_0"' in page  # the form now asks for the tricks
    assert len(statements(queries)) <= 11, [sql[:80] for sql in statements(queries)]


def test_a_table_device_saves_a_hand_in_as_many_queries_at_a_big_event_as_at_a_small_one(organiser):
    """The hot path of a big event: a device at one of 20 tables pays what a
    device at one of 2 tables pays. The match, the link, the names (3); the
    locked write: the match, its names and hands, the one-time key, the
    hand, the match's update, the audit event (7); the answer: the match,
    its seats and hands (3). The device's grant is a signed cookie: no
    session query."""
    counts = []
    for players in (4, 40):
        t = make(organiser, [f"D{players} {i:02d}" for i in range(players)], rounds=1, name=f"E{players}")
        table = tables_of(publish_next(t, organiser))[-1]
        device = device_for(table)
        form = spades_form(table.match, [3, 3], [6, 7])
        with CaptureQueriesContext(connection) as queries:
            saved = device.post(f"/matches/{table.match_id}/hands/", form, **HX)
        assert saved.status_code == 200 and "Hand 1 saved." in text_of(saved)
        assert Match.objects.get(pk=table.match_id).totals == [33, 34]
        assert not any("django_session" in sql for sql in statements(queries))
        counts.append(len(statements(queries)))
    assert counts[0] == counts[1]
    assert counts[0] <= 13, counts
