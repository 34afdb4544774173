"""No raw secret on the server. Scoring links are issued, shown, exchanged,
revoked and reissued through the pages (casual share links and tournament
table links), by organisers in several sessions; then every row of every
table of the database and every session's decoded data is read: no working
token appears in them, and no string found there opens a match, whether
tried as a token or as a link. The cards and share page still show the
same working links on another device, in another session, without
reissuing; revoked and reissued links are refused. Runs on SQLite and
PostgreSQL."""

from __future__ import annotations

import re

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client

from scorekeeper.access.links import find_link, token_for
from scorekeeper.models import AccessLink, Match, Round, Table

from ..conftest import MODEL_BACKEND, text_of
from ..tournaments.helpers import make, spades_form, tables_of

pytestmark = pytest.mark.django_db

LINK = re.compile(r"/l/([^/\"'\s<>]+)/")
RUN = re.compile(r"[A-Za-z0-9_-]{8,}")


def _org(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user, backend=MODEL_BACKEND)
    return client


def _links_on(page: str) -> list[str]:
    return [t for t in LINK.findall(page) if t != "*"]


def _cards(client: Client, t, round_number: int) -> dict[str, tuple[str, ...]]:
    """{table number: (the token of side A, of side B)} as the cards show them."""
    page = text_of(client.get(f"/tournaments/{t.pk}/cards/?round={round_number}"))
    cards = {}
    for number, card in re.findall(r'id="table-(\d+)"(.*?)</article>', page, re.S):
        cards[number] = tuple(dict.fromkeys(re.findall(r'/l/([^/"<\s]+)/', card)))
    return cards


def stored_text() -> list[str]:
    """Every value of every row of every table, as text, and every
    session's data as the server decodes it."""
    texts: list[str] = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")  # noqa: S608 - our own table names
            for row in cursor.fetchall():
                texts.extend(bytes(v).decode("latin-1") if isinstance(v, bytes | memoryview) else str(v) for v in row)
    for session in Session.objects.all():
        texts.append(repr(session.get_decoded()))
    return texts


def working_tokens() -> set[str]:
    """The token of every link that works now: each is worked out from
    SECRET_KEY, so this is all of them."""
    return {token_for(link) for link in AccessLink.objects.filter(revoked_at__isnull=True)}


def secrets_found(texts: list[str]) -> list[str]:
    """Working tokens in the stored text, and stored strings that open a
    match: tried as a token (the lookup the link page makes), and the
    links and token-shaped strings through the link page itself."""
    tokens = working_tokens()
    found = [t for t in tokens for text in texts if t in text]
    candidates, links = set(), set()
    for text in texts:
        candidates.add(text.strip())
        candidates.update(RUN.findall(text))
        links.update(LINK.findall(text))
    found += [c for c in candidates | links if c and find_link(c) is not None]
    probe = Client(raise_request_exception=False)
    for candidate in links | {c for c in candidates if "-" in c and 40 <= len(c) <= 100}:
        if "/" not in candidate and probe.post(f"/l/{candidate}/").status_code != 404:
            found.append(candidate)
    return found


def test_no_working_token_is_stored_and_the_cards_show_the_same_links_again(organiser, django_user_model):
    co = django_user_model.objects.create_user("cora")
    org = _org(organiser)

    # A casual match: two shared links, one of them revoked.
    new = org.post("/matches/new/", {"game": "spades", "seat_0": "Ann", "seat_1": "Bob", "opt_target": "100"})
    casual = Match.objects.get(pk=int(new["Location"].strip("/").split("/")[-1]))
    share = f"/matches/{casual.pk}/share/"
    phone = _links_on(text_of(org.post(share, {"label": "Bob's phone"})))[0]
    spare = _links_on(text_of(org.post(share, {"label": "spare"})))[0]
    assert phone != spare
    casual_device = Client()
    assert casual_device.post(f"/l/{phone}/").status_code == 302
    spare_link = find_link(spare)
    assert org.post(f"{share}{spare_link.pk}/revoke/").status_code == 302

    # A tournament: published through the pages, cards shown, links reissued.
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], rounds=2)
    t.co_organisers.add(co)
    url = f"/tournaments/{t.pk}/"
    org.post(f"{url}rounds/start/")
    rnd = Round.objects.get(tournament=t)
    org.post(f"{url}rounds/{rnd.pk}/publish/")
    first = _cards(org, t, 1)
    assert len(first) == 3 and all(len(set(sides)) == 2 for sides in first.values())
    table_1, table_2, table_3 = tables_of(rnd)
    devices = {}
    for number, (side_a, _side_b) in first.items():
        devices[number] = Client(raise_request_exception=False)
        assert devices[number].post(f"/l/{side_a}/").status_code == 302
    org.post(f"{url}tables/{table_1.pk}/link/", {"action": "reissue"})
    org.post(f"{url}tables/{table_2.pk}/link/", {"action": "revoke"})
    org.post(f"{url}tables/{table_2.pk}/link/", {"action": "reissue"})
    second = _cards(org, t, 1)
    assert second["3"] == first["3"] and second["1"] != first["1"] and second["2"] != first["2"]

    # A co-organiser, on another device, in another session: the same working links.
    co_client = _org(co)
    assert _cards(co_client, t, 1) == second
    assert _links_on(text_of(co_client.get(share))) == []  # not an organiser of the casual match
    # The organiser again after logging out and in: the same links, nothing reissued.
    org.post("/logout/")
    org = _org(organiser)
    assert _cards(org, t, 1) == second
    assert _links_on(text_of(org.get(share))) == [phone]
    versions = list(AccessLink.objects.order_by("pk").values_list("pk", "generation", "revoked_at"))

    # Revoked and reissued links are refused; so are the devices that held them.
    for old in (spare, *first["1"], *first["2"]):
        response = Client().get(f"/l/{old}/")
        assert response.status_code == 404 and "This link does not work" in text_of(response)
    for number, table in (("1", table_1), ("2", table_2)):
        refused = devices[number].post(f"/matches/{table.match_id}/hands/", spades_form(table.match, [3, 3], [6, 7]))
        assert refused.status_code == 403
    kept = devices["3"].post(f"/matches/{table_3.match_id}/hands/", spades_form(table_3.match, [3, 3], [6, 7]))
    assert kept.status_code == 302
    # The current links work.
    for token in [phone, *(token for sides in second.values() for token in sides)]:
        assert Client().get(f"/l/{token}/").status_code == 200

    # Nothing stored opens anything.
    texts = stored_text()
    assert Session.objects.count() >= 2 and any("_auth_user_id" in text for text in texts)
    assert working_tokens() == {phone, *(token for sides in second.values() for token in sides)}
    assert secrets_found(texts) == []
    # Showing the cards again wrote nothing new about the links.
    assert list(AccessLink.objects.order_by("pk").values_list("pk", "generation", "revoked_at")) == versions
    assert Table.objects.count() == 3

    # The check itself finds a token that is stored, in a row or in a session.
    session = Session.objects.first()
    store = session.get_decoded()
    store["table_tokens"] = {"1": {"9": second["3"][0]}}
    Session.objects.filter(pk=session.pk).update(session_data=Session.objects.encode(store))
    assert second["3"][0] in secrets_found(stored_text())
    AccessLink.objects.filter(pk=find_link(phone).pk).update(label=f"see /l/{phone}/")
    assert phone in secrets_found(stored_text())
