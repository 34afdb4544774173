"""A scoring link is a key to a match: no page that shows one (or its QR
code) may be kept by the browser's cache or a proxy. The share page and
its answer when a link is issued, the table cards, and the link's own
confirm page send ``Cache-Control: no-store``; and a sweep of every page
of the URLconf, as the organiser who just issued links, finds no page
showing a link or a QR code without it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from scorekeeper.access.services import issue_link
from scorekeeper.audit import Actor
from scorekeeper.models import Player
from scorekeeper.tournaments import services

from ..tournaments.helpers import client_for, make, tables_of
from ..urlconf import every_url

pytestmark = pytest.mark.django_db

User = get_user_model()
LINK = re.compile(r"/l/[A-Za-z0-9_-]{20,}/")


def _no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


@pytest.fixture
def scene(organiser, make_match):
    """The organiser's browser right after publishing a round (its session
    holds the tables' links) and issuing a link of a casual match."""
    org = client_for(organiser)
    match = make_match("spades", owner=organiser)
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], name="Cup")
    rnd = services.propose_round(tournament_id=t.pk, actor=Actor.organiser(organiser))
    published = org.post(f"/tournaments/{t.pk}/rounds/{rnd.pk}/publish/")
    assert published.status_code == 302
    issued = org.post(f"/matches/{match.pk}/share/", {"label": "phone"})
    token = LINK.search(issued.content.decode()).group(0).split("/")[2]
    return {"org": org, "match": match, "t": t, "round": rnd, "issued": issued, "token": token}


def test_the_pages_that_show_a_link_are_not_stored(scene):
    org, match, t = scene["org"], scene["match"], scene["t"]
    assert _no_store(scene["issued"]) and "<svg" in scene["issued"].content.decode()
    assert _no_store(org.get(f"/matches/{match.pk}/share/"))
    cards = org.get(f"/tournaments/{t.pk}/cards/")
    assert cards.status_code == 200 and LINK.search(cards.content.decode()) and "<svg" in cards.content.decode()
    assert _no_store(cards)
    assert _no_store(client_for().get(f"/l/{scene['token']}/"))


def test_no_page_shows_a_link_or_qr_code_and_lets_it_be_stored(scene, organiser):
    t, match, rnd = scene["t"], scene["match"], scene["round"]
    link, token = issue_link(match_id=match.pk, label="x", actor=Actor.organiser(organiser))
    table = tables_of(rnd)[0]
    values = {
        "match_id": str(match.pk),
        "number": "1",
        "link_id": str(link.pk),
        "player_id": str(Player.objects.first().pk),
        "token": token,
        "pk": str(t.pk),
        "entrant_id": str(t.entrants.first().pk),
        "round_id": str(rnd.pk),
        "table_id": str(table.pk),
    }
    urls = [u for u in every_url(values) if not u.startswith("/admin/") and "logout" not in u]
    showing = []
    for url in urls:
        response = scene["org"].get(url)
        if response.status_code != 200 or response.get("Content-Type", "").startswith("text/csv"):
            continue
        body = response.content.decode()
        if LINK.search(body) or "<svg" in body:
            showing.append(url)
            assert _no_store(response), url
    assert f"/tournaments/{t.pk}/cards/" in showing  # the sweep sees the pages it is about
