"""A private tournament's tables are private too. Its standings were
refused to strangers, but every table's match was a public page with a
sequential id. Now every page of a match that reads it (the sheet, the
"changed?" poll, the preview, the history, the edit and undo pages, the
share page, and whatever match page is added later: the routes are read
from the URLconf) shows a private tournament's table only to the
tournament's organisers and co-organisers and to a device holding that
table's link. Strangers get a refusal that names no player; the home page
does not list those matches."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import URLResolver, get_resolver

from scorekeeper.models import Tournament

from ..conftest import HX, basis, play
from ..tournaments.helpers import client_for, device_for, make, publish_next, tables_of

pytestmark = pytest.mark.django_db

User = get_user_model()
NAMES = ["Zebulon Quist", "Yolanda Prim", "Xaver Oakes", "Wilma Nock"]


def _match_routes() -> list[str]:
    """Every route of the URLconf that takes a match id, as a path template."""
    found = []

    def walk(patterns, prefix=""):
        for p in patterns:
            text = prefix + str(p.pattern).lstrip("^").rstrip("$")
            if isinstance(p, URLResolver):
                walk(p.url_patterns, text)
            elif "match_id" in text:
                found.append(text)

    walk(get_resolver().url_patterns)
    return found


def _fill(route: str, match_id: int) -> str:
    url = re.sub(r"<id:match_id>|\(\?P<match_id>[^)]*\)", str(match_id), route)
    url = re.sub(r"\(\?P<\w+>(\w+)[^)]*\)", r"\1", url)  # a regex's first alternative
    return "/" + re.sub(r"<(?:\w+:)?\w+>", "1", url)


@pytest.fixture
def event(django_user_model):
    owner = django_user_model.objects.create_user(username="tess")
    co = django_user_model.objects.create_user(username="cole")
    t = make(owner, NAMES, name="Secret Cup", is_public=False)
    t.co_organisers.add(co)
    rnd = publish_next(t, owner)
    one, two = tables_of(rnd)
    play(one.match, {"bids": [4, 5], "tricks": [6, 7]})
    return {"tournament": t, "owner": owner, "co": co, "table": one, "other_table": two}


def _names_shown(response) -> list[str]:
    text = response.content.decode(errors="replace")
    return [n for n in NAMES if n in text]


def _get(client, url):
    if url.endswith("/preview/"):
        return client.post(url, {"bids_0": "4"}, **HX)
    return client.get(url)


def test_the_routes_are_found():
    routes = _match_routes()
    for page in ("matches/<id:match_id>/", "matches/<id:match_id>/changed/", "matches/<id:match_id>/history/"):
        assert page in routes
    assert len(routes) >= 13


@pytest.mark.parametrize("who", ["anonymous", "other_organiser", "other_tables_device"])
def test_strangers_see_no_page_of_a_private_tournaments_table(event, who):
    if who == "anonymous":
        client = client_for()
    elif who == "other_organiser":
        client = client_for(User.objects.create_user(username="nosy"))
    else:
        client = device_for(event["other_table"])
    match = event["table"].match
    for route in _match_routes():
        url = _fill(route, match.pk)
        response = _get(client, url)
        assert response.status_code in (302, 403, 404, 405), (url, response.status_code)
        assert _names_shown(response) == [], (url, response.status_code)
        if response.status_code == 302:
            assert response["Location"].startswith("/login/"), url
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 403
    assert "private tournament" in response.content.decode()


@pytest.mark.parametrize("who", ["owner", "co_organiser", "tables_device"])
def test_the_organisers_and_the_tables_device_see_it(event, who):
    client = {
        "owner": lambda: client_for(event["owner"]),
        "co_organiser": lambda: client_for(event["co"]),
        "tables_device": lambda: device_for(event["table"]),
    }[who]()
    match = event["table"].match
    sheet = client.get(f"/matches/{match.pk}/")
    assert sheet.status_code == 200
    assert sorted(_names_shown(sheet)) == sorted(match.player_names)
    assert client.get(f"/matches/{match.pk}/changed/").status_code == 200
    preview = client.post(f"/matches/{match.pk}/preview/", {"bids_0": "4", **basis(match)}, **HX)
    assert preview.status_code == 200
    history = client.get(f"/matches/{match.pk}/history/")
    assert history.status_code == (200 if who != "tables_device" else 403)  # the history is the organisers'


def test_a_public_tournaments_table_is_public(event):
    Tournament.objects.filter(pk=event["tournament"].pk).update(is_public=True)
    match = event["table"].match
    spectator = client_for()
    assert spectator.get(f"/matches/{match.pk}/").status_code == 200
    assert spectator.get(f"/matches/{match.pk}/changed/").status_code == 200
    assert match.player_names[0] in spectator.get("/").content.decode()


def test_the_home_page_lists_no_private_tables(event, make_match):
    make_match("spades", names=["Casual Carl", "Casual Cora"])
    for client in (client_for(), client_for(User.objects.create_user(username="nosy"))):
        page = client.get("/").content.decode()
        assert "Casual Carl" in page
        assert not any(n in page for n in NAMES)


def test_the_poll_costs_no_more_queries(event, django_assert_num_queries):
    """The "changed?" poll of a casual or public match stays one query."""
    Tournament.objects.filter(pk=event["tournament"].pk).update(is_public=True)
    match = event["table"].match
    spectator = client_for()
    spectator.get("/")  # the session and CSRF cookie are set up
    with django_assert_num_queries(1):
        assert spectator.get(f"/matches/{match.pk}/changed/").status_code == 200
