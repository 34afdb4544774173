"""The public standings through the Django test client: the page, and the
fragment every screen in the room polls every 5 s (htmx, sending the ETag
of what it shows). Nothing changed: 304 and no body. A hand saved, a table
finished, a round published: the next poll shows it, within the refresh
time (settings.STANDINGS_REFRESH_SECONDS). A private tournament's
standings are for its organisers only, whatever a poll sends. A poll's SQL
does not grow with the event.

These run on whichever cache the app is set up with: each process's memory
by default, Redis with REDIS_URL. Expected figures are worked out from the
Spades rules in docs/rules.md (a made bid b with t tricks scores
10 * b + (t - b); a Swiss round 1 pairs by registration order)."""

from __future__ import annotations

import csv
import gzip
import html
import io
import json
import re
import time

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Player, Round, Table, Tournament
from scorekeeper.players.services import rename_player
from scorekeeper.tournaments import standings_cache

from ..conftest import HX, play, text_of
from .helpers import build_round, client_for, device_for, make, publish_next, spades_form, tables_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("stranger")


def standings_url(t: Tournament, big: bool = False) -> str:
    return f"/tournaments/{t.pk}/standings/" + ("?big=1" if big else "")


def poll(client, t: Tournament, etag: str | None = None, big: bool = False):
    """What a screen's htmx poll sends: HX-Request, and the ETag of what it shows."""
    headers = dict(HX)
    if etag is not None:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(standings_url(t, big), **headers)


def poll_etag(raw: str) -> str:
    """The ETag the polling element of a drawn page sends (its hx-headers).
    ``raw``: the HTML as sent."""
    found = re.search(r'<div id="standings-live"[^>]*\bhx-headers="([^"]*)"', raw)
    assert found, "no polling standings on the page"
    return json.loads(html.unescape(found.group(1)))["If-None-Match"]


def shown(page: str) -> str:
    """The standings and the round's tables as drawn, on the page or in the fragment."""
    found = re.search(r'<div id="standings-live"[^>]*>(.*?</section>)', page, re.S)
    assert found, "no standings on the page"
    return found.group(1)


ROW = re.compile(
    r'<td class="rank">(\d+)</td><th scope="row">([^<]+?)(?: <span class="muted">\(dropped\)</span>)?</th>'
    r'<td class="mp">([^<]+)</td>'
)


def rows(page: str) -> list[tuple[str, str, str]]:
    """(rank, player, match points) of each standings row, top to bottom."""
    return ROW.findall(page)


def match_points(page: str, name: str) -> str:
    by_name = {player: points for _rank, player, points in rows(page)}
    assert name in by_name, f"{name} is not in the standings"
    return by_name[name]


def seat_name(table: Table, position: int) -> str:
    return table.match.seats.get(position=position).player.name


def round_tables(t: Tournament, number: int = 1) -> list[Table]:
    return tables_of(Round.objects.get(tournament=t, number=number))


# ------------------------------------------------------------ the page


def test_the_standings_page_and_the_fragment_it_polls(organiser):
    t = make(organiser, ["Ann", "Bob", "Cat"], rounds=2)
    table = tables_of(publish_next(t, organiser))[0]
    play(table.match, {"bids": [5, 5], "tricks": [6, 7]})  # 51 to 52, live
    anyone = client_for()
    response = anyone.get(standings_url(t))
    page = text_of(response)
    assert response.status_code == 200
    assert "ETag" not in response  # the whole page is always drawn afresh (it carries a CSRF token)
    assert 'id="standings-live"' in page and f'hx-get="/tournaments/{t.pk}/standings/"' in page
    assert 'hx-trigger="every 5s"' in page and 'hx-swap="outerHTML"' in page
    assert '<tbody id="standings-body"' in page and 'id="live-tables"' in page
    # Live scores of the round's tables; not counted yet (Cat's bye is).
    assert "<b>51</b>" in page and "<b>52</b>" in page and "live" in page
    assert (match_points(page, "Cat"), match_points(page, "Ann"), match_points(page, "Bob")) == ("2", "0", "0")
    assert "data-autoscroll" not in page
    assert ' style="' not in page and "<script>" not in page  # the CSP allows neither

    answer = poll(anyone, t)
    fragment = text_of(answer)
    assert answer.status_code == 200 and answer["ETag"] == poll_etag(response.content.decode())
    assert fragment.lstrip().startswith('<div id="standings-live"') and "<html" not in fragment
    assert '<tbody id="standings-body"' in fragment and 'id="live-tables"' in fragment
    assert "HX-Request" in answer["Vary"]
    # The page's first poll already carries the ETag of the poll's answer: nothing changed, 304.
    assert poll(anyone, t, poll_etag(response.content.decode())).status_code == 304

    big = anyone.get(standings_url(t, big=True))
    big_page = text_of(big)
    assert 'data-autoscroll="40"' in big_page and "js/tournament.js" in big_page and "tournament-big" in big_page
    assert f'hx-get="/tournaments/{t.pk}/standings/?big=1"' in big_page  # polling keeps the mode
    assert poll(anyone, t, poll_etag(big.content.decode()), big=True).status_code == 304
    assert poll(anyone, t, poll_etag(big.content.decode())).status_code == 200  # not what the normal view shows

    # The table finishes: now it counts (51 + 101 to 52 + 20: the first seat wins).
    play(table.match, {"bids": [10, 2], "tricks": [11, 2]})
    page = text_of(anyone.get(standings_url(t)))
    assert match_points(page, seat_name(table, 0)) == "2" and match_points(page, seat_name(table, 1)) == "0"


# ------------------------------------------------------------ the polls


def test_a_spectators_poll_answers_304_until_the_standings_change(organiser):
    t = build_round(organiser, 4)
    second = round_tables(t)[1]
    spectator = client_for()
    answer = poll(spectator, t)
    assert answer.status_code == 200 and answer["ETag"] and "no-cache" in answer["Cache-Control"]
    etag = answer["ETag"]
    for _ in range(2):
        unchanged = poll(spectator, t, etag)
        assert unchanged.status_code == 304 and unchanged.content == b""
        assert unchanged["ETag"] == etag

    # Table 2's device saves a hand: bid 4 took 6 (42), bid 5 took 7 (52).
    device = device_for(second)
    saved = device.post(f"/matches/{second.match_id}/hands/", spades_form(second.match, [4, 5], [6, 7]), **HX)
    assert saved.status_code == 200
    answer = poll(spectator, t, etag)
    assert answer.status_code == 200 and answer["ETag"] != etag
    page = text_of(answer)
    assert "<b>42</b>" in page and "<b>52</b>" in page
    assert match_points(page, seat_name(second, 1)) == "0"  # live: not counted yet
    etag = answer["ETag"]
    assert poll(spectator, t, etag).status_code == 304

    # The organiser ends table 2 early: 42 to 52, the second seat wins.
    organiser_browser = client_for(organiser)
    assert organiser_browser.post(f"/tournaments/{t.pk}/tables/{second.pk}/end/").status_code == 302
    answer = poll(spectator, t, etag)
    assert answer.status_code == 200 and answer["ETag"] != etag
    page = text_of(answer)
    assert match_points(page, seat_name(second, 1)) == "2" and match_points(page, seat_name(second, 0)) == "0"
    assert "ended early" in page and "tables finished 2 of 2" in page
    etag = answer["ETag"]
    assert poll(spectator, t, etag).status_code == 304

    # Round 2 is proposed (nothing to show yet), then published.
    start = organiser_browser.post(f"/tournaments/{t.pk}/rounds/start/")
    assert start.status_code == 302
    etag = poll(spectator, t, etag)["ETag"]
    assert "Round 2" not in text_of(poll(client_for(), t))
    assert organiser_browser.post(f"{start['Location']}publish/").status_code == 302
    answer = poll(spectator, t, etag)
    assert answer.status_code == 200 and answer["ETag"] != etag
    page = text_of(answer)
    assert "Round 2" in page and "tables finished 0 of 2" in page
    assert poll(spectator, t, answer["ETag"]).status_code == 304


def test_within_the_refresh_time_a_change_is_not_looked_up(organiser, settings, monkeypatch):
    """Every screen in the room polls every 5 s while some table saves a hand
    every moment: the database is asked what changed at most every
    STANDINGS_REFRESH_SECONDS. Until then a poll costs the tournament's row
    only and answers 304; once the refresh time is over, the change shows."""
    settings.STANDINGS_REFRESH_SECONDS = 60
    t = build_round(organiser, 4)
    second = round_tables(t)[1]
    spectator = client_for()
    first = poll(spectator, t)
    etag = first["ETag"]
    play(second.match, {"bids": [4, 5], "tricks": [6, 7]})  # 42 to 52
    with CaptureQueriesContext(connection) as queries:
        unchanged = poll(spectator, t, etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert len(queries) <= 1, [q["sql"][:80] for q in queries]  # the tournament: who may see it
    # A screen switched on now gets the standings as they were drawn.
    newcomer = poll(client_for(), t)
    assert (newcomer.status_code, newcomer["ETag"], newcomer.content) == (200, etag, first.content)

    later = time.time() + 61  # the refresh time is over
    monkeypatch.setattr(standings_cache.time, "time", lambda: later)
    answer = poll(spectator, t, etag)
    assert answer.status_code == 200 and answer["ETag"] != etag
    assert "<b>42</b>" in text_of(answer) and "<b>52</b>" in text_of(answer)
    assert poll(spectator, t, answer["ETag"]).status_code == 304


def test_a_poll_after_a_change_shows_it_within_the_refresh_time(organiser, settings):
    settings.STANDINGS_REFRESH_SECONDS = 1
    t = build_round(organiser, 4)
    second = round_tables(t)[1]
    spectator = client_for()
    etag = poll(spectator, t)["ETag"]
    play(second.match, {"bids": [4, 5], "tricks": [6, 7]})  # 42 to 52
    time.sleep(1.3)  # one refresh time, and a little
    answer = poll(spectator, t, etag)
    assert answer.status_code == 200 and answer["ETag"] != etag
    assert "<b>42</b>" in text_of(answer) and "<b>52</b>" in text_of(answer)


# ------------------------------------------------------------ who may see them


def test_a_private_tournaments_poll_is_refused_to_strangers_and_never_answers_304_to_them(
    organiser, stranger, settings
):
    settings.STANDINGS_REFRESH_SECONDS = 60  # the generation stays current in the cache
    t = make(organiser, ["Ann", "Bob"], is_public=False)
    publish_next(t, organiser)
    screen = client_for(organiser)
    seen = poll(screen, t)
    assert seen.status_code == 200 and "Ann" in text_of(seen)
    etag = seen["ETag"]
    assert poll(screen, t, etag).status_code == 304  # the organisers' own screen
    for who in (client_for(stranger), client_for()):
        for sent in (None, etag, "*"):
            for big in (False, True):
                refused = poll(who, t, sent, big=big)
                assert refused.status_code == 403, (sent, big)
                page = text_of(refused)
                assert "have not made this tournament's standings public" in page
                assert "standings-live" not in page and "Ann" not in page
                assert "ETag" not in refused
        whole = who.get(standings_url(t), HTTP_IF_NONE_MATCH=etag)
        assert whole.status_code == 403 and "standings-body" not in text_of(whole)


# ------------------------------------------------------------ what a poll costs


def reads_of_the_standings(queries) -> list[str]:
    """Queries that read entrants, players, seats or hands: the standings' own work."""
    tables = ("entrant", "player", "seat", "hand")
    return [q["sql"] for q in queries if any(f'"scorekeeper_{name}"' in q["sql"] for name in tables)]


def test_a_polls_queries_do_not_grow_with_the_tables(organiser):
    small, large = build_round(organiser, 4), build_round(organiser, 40)
    assert (
        Table.objects.filter(round__tournament=small).count(),
        Table.objects.filter(round__tournament=large).count(),
    ) == (2, 20)
    counts = []
    for t in (small, large):
        spectator = client_for()
        with CaptureQueriesContext(connection) as drawn:
            first = poll(spectator, t)  # worked out and drawn
        with CaptureQueriesContext(connection) as cached:
            again = poll(client_for(), t)  # another screen: drawn already, from the cache
        with CaptureQueriesContext(connection) as unchanged:
            same = poll(spectator, t, first["ETag"])
        assert (first.status_code, again.status_code, same.status_code) == (200, 200, 304)
        assert again.content == first.content
        assert reads_of_the_standings(cached) == [] and reads_of_the_standings(unchanged) == []
        counts.append((len(drawn), len(cached), len(unchanged)))
    assert counts[0] == counts[1], counts
    drawn, cached, unchanged = counts[0]
    assert unchanged <= 3  # the tournament, and its generation: the matches' versions and the events
    assert cached == unchanged and drawn <= 8


# ------------------------------------------------------------ one set of standings


def csv_rows(t: Tournament) -> list[tuple[str, str, str]]:
    response = client_for().get(f"/tournaments/{t.pk}/standings.csv")
    return [
        (rank, name, points)
        for rank, name, points, *_rest in list(csv.reader(io.StringIO(response.content.decode())))[1:]
    ]


def test_the_whole_page_and_the_poll_show_the_same_standings(organiser):
    t = build_round(organiser, 6)  # tables of 2: table 1 finished, tables 2 and 3 not started
    first, second, third = round_tables(t)
    play(second.match, {"bids": [4, 5], "tricks": [6, 7]})  # 42 to 52, live
    # The whole page first (it draws the standings), then a poll (from the cache).
    page = text_of(client_for().get(standings_url(t)))
    fragment = text_of(poll(client_for(), t))
    assert shown(page) == shown(fragment)
    assert rows(page) == csv_rows(t)

    # Table 3 finishes: bid 2 took 2 (20), bid 10 took 11 (101): the second seat wins.
    play(third.match, {"bids": [2, 10], "tricks": [2, 11]})
    # A poll first (it draws the new standings), then the whole page (from the cache).
    fragment = text_of(poll(client_for(), t))
    changed = text_of(client_for().get(standings_url(t)))
    assert shown(changed) == shown(fragment) != shown(page)
    assert rows(changed) == csv_rows(t)
    # The two winners: 2 points, Buchholz 0, +81, sharing rank 1. Their
    # opponents: 0, Buchholz 2, -81 (rank 3). Table 2, not finished: 0, 0, 0 (rank 5).
    ranks = {name: (rank, points) for rank, name, points in rows(changed)}
    assert ranks == {
        seat_name(first, 0): ("1", "2"),
        seat_name(third, 1): ("1", "2"),
        seat_name(first, 1): ("3", "0"),
        seat_name(third, 0): ("3", "0"),
        seat_name(second, 0): ("5", "0"),
        seat_name(second, 1): ("5", "0"),
    }


def test_a_renamed_player_shows_under_the_new_name_at_the_next_poll(organiser):
    t = make(organiser, ["Ann", "Bob", "Cat"], rounds=2)
    publish_next(t, organiser)
    spectator = client_for()
    etag = poll(spectator, t)["ETag"]
    assert poll(spectator, t, etag).status_code == 304
    rename_player(player_id=Player.objects.get(name="Cat").pk, name="Catherine")
    answer = poll(spectator, t, etag)
    assert answer.status_code == 200
    assert [player for _rank, player, _points in rows(answer.content.decode())].count("Catherine") == 1


def test_while_one_request_looks_again_the_other_polls_answer_from_the_last_drawn(organiser, settings, monkeypatch):
    """After the refresh time one request looks at the database (and draws
    the standings if they changed); every other poll meanwhile answers from
    the standings last drawn, without waiting and without a query."""
    settings.STANDINGS_REFRESH_SECONDS = 60
    t = build_round(organiser, 4)
    spectator = client_for()
    etag = poll(spectator, t)["ETag"]
    play(round_tables(t)[1].match, {"bids": [4, 5], "tricks": [6, 7]})
    later = time.time() + 61
    monkeypatch.setattr(standings_cache.time, "time", lambda: later)
    cache.add(f"tournament-{t.pk}-standings-looking", True)  # another process is looking
    with CaptureQueriesContext(connection) as queries:
        meanwhile = poll(spectator, t, etag)
    assert meanwhile.status_code == 304
    assert len(queries) <= 1, [q["sql"][:80] for q in queries]  # the tournament: who may see it
    cache.delete(f"tournament-{t.pk}-standings-looking")
    assert poll(spectator, t, etag).status_code == 200


def test_the_poll_is_sent_gzip_compressed_to_screens_that_take_it(organiser):
    """Every screen gets the same answer: compressed once per change, it is
    a fraction of the HTML on the venue's Wi-Fi."""
    t = build_round(organiser, 20)
    spectator = client_for()
    plain = poll(spectator, t)
    packed = spectator.get(standings_url(t), HTTP_ACCEPT_ENCODING="gzip, deflate, br", **HX)
    assert packed.status_code == 200 and packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"] and packed["ETag"] == plain["ETag"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) * 4 < len(plain.content)


def test_names_are_escaped_in_the_standings_and_the_live_tables(organiser):
    t = make(organiser, ['<img src=x onerror="alert(1)">', "Bob & Co", "Cat"], rounds=2)
    publish_next(t, organiser)
    page = poll(client_for(), t).content.decode()
    assert "<img" not in page
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page and "Bob &amp; Co" in page
    assert len(re.findall(r"Bob &amp; Co", page)) >= 2  # in the standings and at a live table
