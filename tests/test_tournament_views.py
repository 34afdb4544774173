"""Tournament pages through the Django test client: the organiser's flow
(create, register, review, swap, publish, table cards, links, ending a
table), table devices scoring through their link and nothing else, who may
see and change what, the public standings (htmx polling, big screen, a
constant number of SQL queries) and the CSV exports."""

from __future__ import annotations

import csv
import gzip
import io
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper import services, tournaments
from scorekeeper.models import AccessLink, AuditEvent, Entrant, Hand, Match, Round, Table, Tournament
from scorekeeper.services import Actor

from .conftest import text_of

pytestmark = pytest.mark.django_db

SPADES_100 = {"target": 100, "failed_nil_bags": False}


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("org")


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("stranger")


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def make(user, names, game="spades", fmt="swiss", rounds=2, options=None, **kwargs) -> Tournament:
    actor = Actor(label="organiser", user=user)
    t = tournaments.create_tournament(
        name=kwargs.pop("name", "Club Night"),
        game=game,
        format=fmt,
        rounds=rounds,
        options=options if options is not None else SPADES_100,
        actor=actor,
        **kwargs,
    )
    tournaments.register_players(tournament_id=t.pk, text="\n".join(names), actor=actor)
    return t


def publish_next(t: Tournament, user) -> Round:
    actor = Actor(label="organiser", user=user)
    rnd = tournaments.propose_round(tournament_id=t.pk, actor=actor)
    tournaments.publish_round(round_id=rnd.pk, actor=actor)
    rnd.refresh_from_db()
    return rnd


def tables_of(rnd: Round) -> list[Table]:
    return list(Table.objects.filter(round=rnd).select_related("match").order_by("number"))


def spades_form(bids, tricks, number, key) -> dict:
    return {
        "bids_0": str(bids[0]),
        "bids_1": str(bids[1]),
        "tricks_0": str(tricks[0]),
        "tricks_1": str(tricks[1]),
        "number": str(number),
        "client_key": key,
    }


def tokens_on(page: str) -> list[str]:
    return re.findall(r"/l/([A-Za-z0-9_-]{20,})/", page)


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
    t = tournaments.create_tournament(
        name="Club Night",
        game="spades",
        format="swiss",
        rounds=2,
        options=SPADES_100,
        actor=Actor(label="organiser", user=organiser),
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
    assert cards.count("<svg") == 2 and "Table 1" in cards and "Table 2" in cards
    tokens = tokens_on(cards)
    assert len(set(tokens)) == 2
    assert "Issue new links for all tables" in cards and "only on the device that issued it" in cards
    # Which token belongs to which table: the card's id says.
    by_table = dict(re.findall(r'id="table-(\d+)".*?/l/([A-Za-z0-9_-]{20,})/', cards, re.S))
    token_1, token_2 = by_table["1"], by_table["2"]

    # A table device: the real confirm (GET) then exchange (POST).
    device = client_for()
    confirm = device.get(f"/l/{token_1}/")
    assert confirm.status_code == 200 and "Score this match on this device?" in text_of(confirm)
    assert device.post(f"/l/{token_1}/")["Location"] == f"/matches/{first.match_id}/"
    saved = device.post(f"/matches/{first.match_id}/hands/", spades_form([3, 3], [6, 7], 1, "k1"))
    assert saved.status_code == 302 and Hand.objects.filter(match_id=first.match_id).count() == 1
    assert Match.objects.get(pk=first.match_id).totals == [33, 34]  # bid 3 took 6; bid 3 took 7

    # ... is refused on the other table's match: nothing changes.
    other_version = Match.objects.get(pk=second.match_id).version
    refused = device.post(f"/matches/{second.match_id}/hands/", spades_form([3, 3], [6, 7], 1, "k2"))
    assert refused.status_code == 403
    assert Hand.objects.filter(match_id=second.match_id).count() == 0
    assert Match.objects.get(pk=second.match_id).version == other_version
    assert (
        device.post(f"/matches/{second.match_id}/bids/", {"bids_0": "3", "bids_1": "3", "number": "1"}).status_code
        == 403
    )
    assert device.get(url).status_code == 403  # and is no organiser

    # The organiser sees the round's progress.
    dash = text_of(org.get(url))
    assert "tables finished 0 of 2" in dash and "Round 1 is being played" in dash

    # Revoking table 1's link stops the device at once.
    version = Match.objects.get(pk=first.match_id).version
    org.post(f"{url}tables/{first.pk}/link/", {"action": "revoke"})
    refused = device.post(f"/matches/{first.match_id}/hands/", spades_form([3, 3], [6, 7], 2, "k3"))
    assert refused.status_code == 403
    assert Hand.objects.filter(match_id=first.match_id).count() == 1
    assert Match.objects.get(pk=first.match_id).version == version
    assert device.get(f"/l/{token_1}/").status_code == 404

    # Re-issuing table 1's link shows it on the cards (this session has it).
    response = org.post(f"{url}tables/{first.pk}/link/", {"action": "reissue"})
    assert response["Location"] == f"{url}cards/?round=1#table-1"
    cards = text_of(org.get(f"{url}cards/?round=1"))
    new_1 = dict(re.findall(r'id="table-(\d+)".*?/l/([A-Za-z0-9_-]{20,})/', cards, re.S))["1"]
    assert new_1 != token_1 and token_2 in cards

    # A co-organiser on another device has no tokens: offer new links for all.
    co = django_user_model.objects.create_user("co")
    t.co_organisers.add(co)
    co_client = client_for(co)
    cards = text_of(co_client.get(f"{url}cards/"))
    assert tokens_on(cards) == [] and "2 tables' links are not on this device." in cards
    co_client.post(f"{url}rounds/{rnd.pk}/links/")
    cards = text_of(co_client.get(f"{url}cards/"))
    assert len(set(tokens_on(cards))) == 2 and cards.count("<svg") == 2
    assert device.get(f"/l/{token_2}/").status_code == 404  # the old links stopped working
    for table in (first, second):  # one working link per table: the new one
        assert AccessLink.objects.filter(match=table.match, revoked_at__isnull=True).count() == 1
    # The first organiser's cards now lack both links (they were replaced).
    assert tokens_on(text_of(org.get(f"{url}cards/"))) == []

    # End table 1 early (confirm, then POST): 33 to 34, so seat 2 wins.
    confirm = text_of(org.get(f"{url}tables/{first.pk}/end/"))
    assert "End table 1 of round 1 now?" in confirm and "This cannot be undone." in confirm
    assert org.post(f"{url}tables/{first.pk}/end/").status_code == 302
    match = Match.objects.get(pk=first.match_id)
    assert (match.status, match.winners) == ("finished", [1])
    assert Table.objects.get(pk=first.pk).ended_early_at is not None

    # The organiser scores table 2 directly (a tournament's organisers may).
    org.post(f"/matches/{second.match_id}/hands/", spades_form([10, 2], [11, 2], 1, "o1"))
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
    else:
        client = client_for()
        if who == "table device":
            _link, token = services.issue_link(match_id=table.match_id, label="t1", actor=services.SYSTEM)
            client.post(f"/l/{token}/")
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


def test_a_private_tournament_s_standings_poll_is_refused_even_while_they_are_current(organiser, settings):
    """Polls by spectators are answered without the database while the
    standings are current, but never a private tournament's."""
    settings.STANDINGS_REFRESH_SECONDS = 60
    t = make(organiser, ["Ann", "Bob"], is_public=False)
    publish_next(t, organiser)
    url = f"/tournaments/{t.pk}/standings/"
    assert client_for(organiser).get(url, HTTP_HX_REQUEST="true").status_code == 200  # now current
    assert client_for().get(url, HTTP_HX_REQUEST="true").status_code == 403


# ---------------------------------------------------------- public standings


def test_the_public_standings_page(organiser):
    t = make(organiser, ["Ann", "Bob", "Cat"], rounds=2)
    rnd = publish_next(t, organiser)
    table = tables_of(rnd)[0]
    services.record_hand(match_id=table.match_id, entry={"bids": [5, 5], "tricks": [6, 7]})  # 51 to 52, live
    anyone = client_for()
    page = text_of(anyone.get(f"/tournaments/{t.pk}/standings/"))
    assert 'hx-trigger="every 5s"' in page and 'hx-select="#standings-body"' in page
    assert 'hx-swap="outerHTML"' in page and '<tbody id="standings-body"' in page
    # Live scores of the round's tables; not counted yet (Cat's bye is).
    assert "51" in page and "52" in page and "live" in page
    assert re.search(r'<th scope="row">Cat</th>\s*<td class="mp">2</td>', page)
    assert re.search(r'<th scope="row">Ann</th>\s*<td class="mp">0</td>', page)
    assert "data-autoscroll" not in page
    assert ' style="' not in page and "<script>" not in page  # the CSP allows neither

    fragment = text_of(anyone.get(f"/tournaments/{t.pk}/standings/", HTTP_HX_REQUEST="true"))
    assert fragment.lstrip().startswith('<tbody id="standings-body"') and "<html" not in fragment
    assert 'id="live-tables"' in fragment and 'hx-swap-oob="true"' in fragment

    big = text_of(anyone.get(f"/tournaments/{t.pk}/standings/?big=1"))
    assert 'data-autoscroll="40"' in big and "js/tournament.js" in big and "tournament-big" in big
    assert f'hx-get="/tournaments/{t.pk}/standings/?big=1"' in big  # polling keeps the mode

    # The table finishes: now it counts.
    services.record_hand(match_id=table.match_id, entry={"bids": [10, 2], "tricks": [11, 2]})
    page = text_of(anyone.get(f"/tournaments/{t.pk}/standings/"))
    winner = Match.objects.get(pk=table.match_id).seats.get(position=0).player.name  # 51 + 101 vs 52 + 20
    assert re.search(rf'<th scope="row">{winner}</th>\s*<td class="mp">2</td>', page)


def build_round(user, players: int) -> Tournament:
    t = make(user, [f"Player {i:03d}" for i in range(players)], name=f"Q{players}")
    rnd = publish_next(t, user)
    first = tables_of(rnd)[0]
    services.record_hand(match_id=first.match_id, entry={"bids": [10, 2], "tricks": [11, 2]})  # finished
    return t


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


def test_polled_standings_are_worked_out_again_only_after_a_change(organiser):
    """Every screen in the room polls every 5 s: an unchanged tournament costs
    a few small queries, and a saved hand shows at the next poll."""
    t = build_round(organiser, 4)
    anyone = client_for()
    url = f"/tournaments/{t.pk}/standings/"
    first = text_of(anyone.get(url, HTTP_HX_REQUEST="true"))
    with CaptureQueriesContext(connection) as queries:
        again = text_of(anyone.get(url, HTTP_HX_REQUEST="true"))
    assert again == first
    assert len(queries) <= 3  # the tournament and the two change stamps
    table = Table.objects.filter(round__tournament=t).order_by("number")[1]  # the first one has finished
    services.record_hand(match_id=table.match_id, entry={"bids": [4, 5], "tricks": [6, 7]})
    after = text_of(anyone.get(url, HTTP_HX_REQUEST="true"))
    assert after != first
    assert "<b>42</b>" in after and "<b>52</b>" in after  # S-style hand: bid 4 took 6, bid 5 took 7


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
    fragment = text_of(anyone.get(f"/tournaments/{t.pk}/pairings/?q=ann", HTTP_HX_REQUEST="true"))
    assert fragment.lstrip().startswith('<div id="pairings-results"') and "<html" not in fragment
    page = text_of(anyone.get(f"/tournaments/{t.pk}/pairings/?q=zzz"))
    assert "Nobody called “zzz” plays in this round." in page


# --------------------------------------------------------------------- csv


def test_csv_exports(organiser):
    t = make(organiser, ["Ann", "Bob", "Cat"], rounds=1, name="Spring Cup")
    rnd = publish_next(t, organiser)
    table = tables_of(rnd)[0]
    names = list(table.match.seats.order_by("position").values_list("player__name", flat=True))
    services.record_hand(match_id=table.match_id, entry={"bids": [10, 2], "tricks": [11, 2]})  # seat 1: 101 to 20
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


def test_a_busy_room_rebuilds_the_standings_at_most_every_few_seconds(organiser, settings):
    """During play some table saves a hand every moment: within the refresh
    window a poll reuses the last standings."""
    settings.STANDINGS_REFRESH_SECONDS = 60
    anyone, url, first = polled_then_changed(organiser)
    with CaptureQueriesContext(connection) as queries:
        again = text_of(anyone.get(url, HTTP_HX_REQUEST="true"))
    assert again == first
    assert len(queries) == 0  # not even the tournament: the standings are current


def polled_then_changed(user) -> tuple[Client, str, str]:
    """A round of 4 whose standings a spectator polled once, after which its
    second table saved a hand (bid 4 took 6, bid 5 took 7: 42 and 52).
    Returns the spectator, the standings URL and the first poll's text."""
    t = build_round(user, 4)
    anyone = client_for()
    url = f"/tournaments/{t.pk}/standings/"
    first = text_of(anyone.get(url, HTTP_HX_REQUEST="true"))
    table = Table.objects.filter(round__tournament=t).order_by("number")[1]
    services.record_hand(match_id=table.match_id, entry={"bids": [4, 5], "tricks": [6, 7]})
    return anyone, url, first


def test_the_standings_poll_is_sent_compressed_to_browsers_that_accept_it(organiser):
    """Browsers accept gzip; 500 screens polling a 1,000-player table would
    otherwise move a quarter of a megabyte each every 5 s."""
    t = build_round(organiser, 40)
    anyone = client_for()
    url = f"/tournaments/{t.pk}/standings/"
    plain = anyone.get(url, HTTP_HX_REQUEST="true")
    packed = anyone.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"] and "HX-Request" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) * 4 < len(plain.content)
    # A saved hand shows in the compressed answer too.
    table = Table.objects.filter(round__tournament=t).order_by("number")[1]
    services.record_hand(match_id=table.match_id, entry={"bids": [4, 5], "tricks": [6, 7]})
    after = gzip.decompress(anyone.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip").content).decode()
    assert "<b>42</b>" in after and "<b>52</b>" in after
    # The full page is drawn for each visitor, and loaded once: left as it is.
    page = anyone.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert "Content-Encoding" not in page and b"<html" in page.content


@pytest.mark.django_db(transaction=True)
def test_a_poll_never_waits_for_the_standings_to_be_worked_out_again(organiser, settings):
    """At a busy event the standings are worked out again on a background
    thread: the poll that finds them out of date gets the last ones at once,
    and a later poll the new ones."""
    from scorekeeper.views import tournaments as views

    settings.STANDINGS_BACKGROUND_REFRESH = True
    anyone, url, first = polled_then_changed(organiser)
    with CaptureQueriesContext(connection) as queries:
        stale = text_of(anyone.get(url, HTTP_HX_REQUEST="true"))
    assert stale == first
    assert len(queries) <= 1  # the tournament: the standings' queries ran elsewhere
    for rebuilding in list(views._REBUILDING.values()):
        rebuilding.join(timeout=10)
    after = text_of(anyone.get(url, HTTP_HX_REQUEST="true"))
    assert "<b>42</b>" in after and "<b>52</b>" in after


def table_device(user) -> tuple[Client, Table]:
    """A device holding the scoring link of a fresh two-player table."""
    t = make(user, ["Ann", "Bob"], rounds=1)
    table = tables_of(publish_next(t, user))[0]
    _link, token = services.issue_link(match_id=table.match_id, label="table 1", actor=Actor(label="test"))
    device = client_for()
    device.post(f"/l/{token}/")
    return device, table


def test_a_table_device_saves_bids_without_reading_the_match_twice(organiser):
    """Its link and the match (4) to parse the bids; the locked
    write (begin, the match, names, hands, the update, the audit event,
    commit); the answer is drawn from what was read."""
    device, table = table_device(organiser)
    form = {"bids_0": "4", "bids_1": "5", "number": "1"}
    with CaptureQueriesContext(connection) as queries:
        saved = device.post(f"/matches/{table.match_id}/bids/", form, HTTP_HX_REQUEST="true")
    page = text_of(saved)
    assert saved.status_code == 200 and "Bids saved." in page
    assert Match.objects.get(pk=table.match_id).pending_bidding == {"bids": [4, 5]}
    assert 'name="tricks_0"' in page  # the form now asks for the tricks
    assert len(queries) <= 12, [q["sql"][:80] for q in queries]


def test_a_table_device_saves_a_hand_in_a_few_queries(organiser):
    """The hot path of a big event: the match (its row, players and hands)
    with the device's link, and the write (the match, the hand, the audit
    event). The device's grant is a signed cookie: no session query. On
    PostgreSQL each round trip costs more than the query, so the four reads
    go in one, and so do the three writes."""
    device, table = table_device(organiser)
    with CaptureQueriesContext(connection) as queries:
        saved = device.post(
            f"/matches/{table.match_id}/hands/", spades_form([3, 3], [6, 7], 1, "q1"), HTTP_HX_REQUEST="true"
        )
    assert saved.status_code == 200 and "Hand 1 saved." in text_of(saved)
    assert Match.objects.get(pk=table.match_id).totals == [33, 34]
    # (The test's own transaction makes savepoints of the write's.)
    statements = [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]
    assert len(statements) == (2 if connection.vendor == "postgresql" else 7), [sql[:80] for sql in statements]


def test_server_processes_share_the_standings_one_of_them_worked_out(organiser, settings):
    """Every server process answers polls; one works the standings out and
    the others take its result (here: this process forgetting its own, as a
    second process would not have it)."""
    from scorekeeper.views import tournaments as views

    settings.STANDINGS_REFRESH_SECONDS = 60
    t = build_round(organiser, 4)
    anyone = client_for()
    url = f"/tournaments/{t.pk}/standings/"
    first = text_of(anyone.get(url, HTTP_HX_REQUEST="true"))
    views._STANDINGS_MEMO.clear()  # "another process"
    with CaptureQueriesContext(connection) as queries:
        again = text_of(anyone.get(url, HTTP_HX_REQUEST="true"))
    assert again == first
    assert len(queries) <= 1  # the tournament only: no standings queries
