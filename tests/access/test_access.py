"""Who may write. Every write endpoint of matches, players, links and setup
is tried by everybody in the matrix -- the owner, a co-organiser, a
superuser, a device holding this match's link, a device holding another
match's link, a device holding a revoked link of this match, another
organiser's account (a stranger to the match) and no session. Each request
carries a valid form, with what its page was based on (hand number, bids in
force, one-time key, version), so a refusal is the permission check and not
a 400 for a missing field: whoever may not use the endpoint is refused (403,
or the login redirect for organiser pages) with nothing changed in the
database, and whoever may is answered normally and the write is made (and
audited under their name or link).

Runs on SQLite and PostgreSQL. At the end of the module the number of
unauthorised attempts tried and accepted is printed.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from urllib.parse import urlparse

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings

from scorekeeper.access import links
from scorekeeper.access.links import GRANT_COOKIE, granted_ids
from scorekeeper.access.services import add_co_organiser, issue_link, revoke_link
from scorekeeper.audit import Actor
from scorekeeper.matches.forms import bidding_stamp
from scorekeeper.matches.services import abandon_match, start_match
from scorekeeper.models import AccessLink, AuditEvent, Hand, Match, Player, Seat

from ..conftest import basis, bid, edit, play

pytestmark = pytest.mark.django_db

User = get_user_model()

# Unauthorised attempts on write endpoints: POSTs and GETs of write pages.
STATS = {"posts": 0, "gets": 0, "accepted": 0}


@pytest.fixture(scope="module", autouse=True)
def _print_tally(request):
    yield
    line = (
        f"test_access: unauthorised write attempts tried: {STATS['posts'] + STATS['gets']} "
        f"({STATS['posts']} POSTs, {STATS['gets']} GETs of write pages), accepted: {STATS['accepted']}"
    )
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print(f"\n{line}")


# ------------------------------------------------------------------ the world


@dataclass
class World:
    owner: object
    co: object
    other: object
    admin: object
    a: Match  # owner's match, co is co-organiser; 2 hands, an edit, bids pending
    z: Match  # owner's abandoned match, co is co-organiser
    b: Match  # other's match
    link_a: AccessLink
    token_a: str
    link_b: AccessLink
    token_b: str
    revoked_a: AccessLink
    token_revoked_a: str
    revoked_z: AccessLink
    token_revoked_z: str
    edit_event: AuditEvent  # the "hand edited" event of match a (restorable)
    clients: dict


def _client(user=None) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def _exchange(client: Client, token: str) -> None:
    response = client.post(f"/l/{token}/")
    assert response.status_code == 302, response.status_code


@pytest.fixture
def world() -> World:
    owner = User.objects.create_user(username="owner", password=None)
    co = User.objects.create_user(username="cora", password=None)
    other = User.objects.create_user(username="otto", password=None)
    admin = User.objects.create_superuser(username="root", password=None)
    as_owner = Actor.organiser(owner)
    as_other = Actor.organiser(other)
    target = {"target": 100000}
    a = start_match(game="spades", player_names=["Ann", "Bob"], options=target, actor=as_owner)
    play(a, {"bids": [4, 5], "tricks": [6, 7]}, key="a1", actor=as_owner)
    play(a, {"bids": [3, 3], "tricks": [3, 10]}, key="a2", actor=as_owner)
    edit(a, 1, {"bids": [4, 5], "tricks": [5, 8]}, actor=as_owner)
    bid(a, {"bids": [2, 2]}, actor=as_owner)
    add_co_organiser(match_id=a.pk, username="cora", actor=as_owner)
    z = start_match(game="spades", player_names=["Ann", "Cat"], options=target, actor=as_owner)
    abandon_match(match_id=z.pk, actor=as_owner)
    add_co_organiser(match_id=z.pk, username="cora", actor=as_owner)
    b = start_match(game="spades", player_names=["Dan", "Eve"], options=target, actor=as_other)
    link_a, token_a = issue_link(match_id=a.pk, label="table a", actor=as_owner)
    link_b, token_b = issue_link(match_id=b.pk, label="table b", actor=as_other)
    revoked_a, token_revoked_a = issue_link(match_id=a.pk, label="old a", actor=as_owner)
    revoked_z, token_revoked_z = issue_link(match_id=z.pk, label="old z", actor=as_owner)

    device_valid = _client()
    _exchange(device_valid, token_a)
    device_other = _client()
    _exchange(device_other, token_b)
    device_revoked = _client()
    _exchange(device_revoked, token_revoked_a)
    _exchange(device_revoked, token_revoked_z)
    revoke_link(link_id=revoked_a.pk, actor=as_owner)
    revoke_link(link_id=revoked_z.pk, actor=as_owner)

    clients = {
        "anonymous": _client(),
        "device_other_match": device_other,
        "device_revoked_link": device_revoked,
        "other_organiser": _client(other),
        "device_valid": device_valid,
        "owner": _client(owner),
        "co_organiser": _client(co),
        "superuser": _client(admin),
    }
    edit_event = AuditEvent.objects.get(match=a, action="hand edited")
    a.refresh_from_db()
    return World(
        owner,
        co,
        other,
        admin,
        a,
        z,
        b,
        link_a,
        token_a,
        link_b,
        token_b,
        revoked_a,
        token_revoked_a,
        revoked_z,
        token_revoked_z,
        edit_event,
        clients,
    )


def db_state() -> dict:
    """Every row a write of these endpoints could add, change or remove."""
    return {
        "matches": list(
            Match.objects.order_by("pk").values(
                "pk",
                "game",
                "options",
                "status",
                "totals",
                "winners",
                "hands_played",
                "pending_bidding",
                "version",
                "owner_id",
                "previous_id",
                "updated_at",
                "finished_at",
            )
        ),
        "hands": list(
            Hand.objects.order_by("pk").values("pk", "match_id", "number", "entry", "client_key", "updated_at")
        ),
        "links": list(AccessLink.objects.order_by("pk").values("pk", "match_id", "generation", "label", "revoked_at")),
        "audit": list(AuditEvent.objects.order_by("pk").values_list("pk", "action")),
        "players": list(Player.objects.order_by("pk").values("pk", "name", "key")),
        "seats": list(Seat.objects.order_by("pk").values("pk", "match_id", "player_id", "position")),
        "co_organisers": sorted(Match.co_organisers.through.objects.values_list("match_id", "user_id")),
        "users": list(User.objects.order_by("pk").values("pk", "username", "password", "is_superuser", "is_staff")),
    }


# -------------------------------------------------------------- the endpoints


def _version(match: Match) -> str:
    return str(Match.objects.get(pk=match.pk).version)


def _entry_basis(match: Match) -> dict[str, str]:
    """The hidden fields of match a's entry form as drawn now: hand 3 next,
    the bids 2 and 2 in force, a fresh one-time key."""
    fields = basis(match)
    assert (fields["number"], fields["bidding"]) == ("3", bidding_stamp({"bids": [2, 2]}))
    return fields


def _bids_basis(match: Match) -> dict[str, str]:
    fields = _entry_basis(match)
    return {"number": fields["number"], "bidding": fields["bidding"]}


# name -> (method, url(world), data(world), who may use it: "scorer" | "organiser" | "login", status when allowed)
# The data are valid and carry what the page they come from was based on
# (hand number, bids in force, one-time key, version): if the access check
# let the request through, it would write; a refusal is the access check,
# not a 400 for a missing or stale field.
ENDPOINTS = {
    "save_bids": (
        "POST",
        lambda w: f"/matches/{w.a.pk}/bids/",
        lambda w: {"bids_0": "1", "bids_1": "6", **_bids_basis(w.a)},
        "scorer",
        302,
    ),
    "clear_bids": ("POST", lambda w: f"/matches/{w.a.pk}/bids/clear/", lambda w: _bids_basis(w.a), "scorer", 302),
    "record_hand": (
        "POST",
        lambda w: f"/matches/{w.a.pk}/hands/",
        lambda w: {"bids_0": "2", "bids_1": "2", "tricks_0": "4", "tricks_1": "9", **_entry_basis(w.a)},
        "scorer",
        302,
    ),
    "preview": (
        "POST",
        lambda w: f"/matches/{w.a.pk}/preview/",
        lambda w: {"bids_0": "2", "bids_1": "2", "tricks_0": "4", "tricks_1": "9", **_entry_basis(w.a)},
        "scorer",
        200,
    ),
    "edit_hand_get": ("GET", lambda w: f"/matches/{w.a.pk}/hands/1/edit/", lambda w: {}, "scorer", 200),
    "edit_hand": (
        "POST",
        lambda w: f"/matches/{w.a.pk}/hands/1/edit/",
        lambda w: {"bids_0": "4", "bids_1": "5", "tricks_0": "13", "tricks_1": "0", "version": _version(w.a)},
        "scorer",
        302,
    ),
    "undo_hand_get": ("GET", lambda w: f"/matches/{w.a.pk}/undo/", lambda w: {}, "scorer", 200),
    "undo_hand": (
        "POST",
        lambda w: f"/matches/{w.a.pk}/undo/",
        lambda w: {"version": _version(w.a)},
        "scorer",
        302,
    ),
    "abandon": ("POST", lambda w: f"/matches/{w.a.pk}/abandon/", lambda w: {}, "organiser", 302),
    "reopen": ("POST", lambda w: f"/matches/{w.z.pk}/reopen/", lambda w: {}, "organiser", 302),
    "again": ("POST", lambda w: f"/matches/{w.a.pk}/again/", lambda w: {}, "organiser", 302),
    "share_get": ("GET", lambda w: f"/matches/{w.a.pk}/share/", lambda w: {}, "organiser", 200),
    "share": ("POST", lambda w: f"/matches/{w.a.pk}/share/", lambda w: {"label": "intruder"}, "organiser", 200),
    "revoke_link": (
        "POST",
        lambda w: f"/matches/{w.a.pk}/share/{w.link_a.pk}/revoke/",
        lambda w: {},
        "organiser",
        302,
    ),
    "add_co_organiser": (
        "POST",
        lambda w: f"/matches/{w.a.pk}/co-organisers/",
        lambda w: {"username": "otto"},
        "organiser",
        302,
    ),
    "history_get": ("GET", lambda w: f"/matches/{w.a.pk}/history/", lambda w: {}, "organiser", 200),
    "history_restore": (
        "POST",
        lambda w: f"/matches/{w.a.pk}/history/",
        lambda w: {"event": str(w.edit_event.pk), "which": "before", "version": _version(w.a)},
        "organiser",
        302,
    ),
    "players": ("POST", lambda w: "/players/", lambda w: {"name": "Mallory"}, "login", 302),
    "rename_player": (
        "POST",
        lambda w: f"/players/{Player.objects.get(name='Ann').pk}/rename/",
        lambda w: {"name": "Evil Ann"},
        "player",
        302,
    ),
    "new_match": (
        "POST",
        lambda w: "/matches/new/",
        lambda w: {"game": "spades", "seat_0": "Mallory", "seat_1": "Trudy"},
        "login",
        302,
    ),
}
# Writes whose allowed request changes nothing stored (the preview only shows).
READ_ONLY_POSTS = {"preview"}

# Everybody the matrix tries, and who among them may use each kind of endpoint.
ROLES = [
    "owner",
    "co_organiser",
    "superuser",
    "device_valid",
    "device_other_match",
    "device_revoked_link",
    "other_organiser",
    "anonymous",
]
ALLOWED = {
    "scorer": {"owner", "co_organiser", "superuser", "device_valid"},
    "organiser": {"owner", "co_organiser", "superuser"},
    # Players and new matches belong to the club: every organiser may add them.
    "login": {"owner", "co_organiser", "superuser", "other_organiser"},
    # A player's name shows on their sheets: renaming needs a right over one of their matches.
    "player": {"owner", "co_organiser", "superuser"},
}
INTRUDERS = [role for role in ROLES if role not in ("owner", "co_organiser", "superuser")]


def _cases():
    for name, (_method, _url, _data, who, _ok) in ENDPOINTS.items():
        for intruder in INTRUDERS:
            if intruder not in ALLOWED[who]:
                yield pytest.param(name, intruder, id=f"{name}-{intruder}")


def _allowed_cases():
    for name, (_method, _url, _data, who, _ok) in ENDPOINTS.items():
        for role in ROLES:
            if role in ALLOWED[who]:
                yield pytest.param(name, role, id=f"{name}-{role}")


def _send(client: Client, method: str, url: str, data: dict):
    return client.post(url, data) if method == "POST" else client.get(url)


def _is_refused(response, who: str) -> bool:
    if who == "login" or (who == "player" and response.status_code == 302):
        return response.status_code == 302 and urlparse(response["Location"]).path == "/login/"
    return response.status_code == 403 and b"Not allowed" in response.content


@pytest.mark.parametrize(("endpoint", "intruder"), list(_cases()))
def test_unauthorised_request_is_refused_and_changes_nothing(world, endpoint, intruder):
    method, url, data, who, _ok = ENDPOINTS[endpoint]
    url, data = url(world), data(world)
    before = db_state()
    response = _send(world.clients[intruder], method, url, data)
    after = db_state()
    STATS["posts" if method == "POST" else "gets"] += 1
    refused = _is_refused(response, who)
    if not refused or after != before:
        STATS["accepted"] += 1
    assert refused, (response.status_code, response.content[:300])
    assert after == before
    if who == "login":
        assert "next=" in response["Location"]


@pytest.mark.parametrize(("endpoint", "role"), list(_allowed_cases()))
def test_the_same_request_goes_through_for_whoever_may_use_it(world, endpoint, role):
    """The other half of the matrix: the very requests refused above are
    answered normally (and write) for the roles allowed to make them, so
    each refusal above is the permission check and not a bad form."""
    method, url, data, who, ok = ENDPOINTS[endpoint]
    url, data = url(world), data(world)
    before = db_state()
    response = _send(world.clients[role], method, url, data)
    after = db_state()
    assert response.status_code == ok, (response.status_code, response.content[:300])
    if ok == 302:
        assert urlparse(response["Location"]).path != "/login/"
    if method == "GET" or endpoint in READ_ONLY_POSTS:
        assert after == before
        return
    assert after != before, "an allowed write changed nothing"
    if who == "scorer":
        # The audit trail names who wrote: the device's link, or the organiser's account.
        event = AuditEvent.objects.filter(match=world.a).latest("pk")
        if role == "device_valid":
            assert (event.user_id, event.link_id) == (None, world.link_a.pk)
        else:
            user = {"owner": world.owner, "co_organiser": world.co, "superuser": world.admin}[role]
            assert (event.user_id, event.link_id) == (user.pk, None)


# ----------------------------------------------------------- positive cases


def _hand_numbers(match: Match) -> list[int]:
    return list(Hand.objects.filter(match=match).order_by("number").values_list("number", flat=True))


@pytest.mark.parametrize("who", ["owner", "co_organiser", "superuser", "device_valid"])
def test_scorers_can_score(world, who):
    client, a = world.clients[who], world.a
    start = AuditEvent.objects.filter(match=a).count()

    response = client.post(
        f"/matches/{a.pk}/preview/", {"bids_0": "2", "bids_1": "2", "tricks_0": "4", "tricks_1": "9", **basis(a)}
    )
    assert response.status_code == 200
    assert client.post(f"/matches/{a.pk}/bids/clear/", _bids_basis(a)).status_code == 302
    assert Match.objects.get(pk=a.pk).pending_bidding is None
    shown = basis(a)  # the page now shows no bids in force
    assert shown["bidding"] == "none"
    data = {"bids_0": "1", "bids_1": "6", "number": shown["number"], "bidding": shown["bidding"]}
    assert client.post(f"/matches/{a.pk}/bids/", data).status_code == 302
    assert Match.objects.get(pk=a.pk).pending_bidding == {"bids": [1, 6]}
    data = {"bids_0": "1", "bids_1": "6", "tricks_0": "4", "tricks_1": "9", **basis(a, client_key=who)}
    assert client.post(f"/matches/{a.pk}/hands/", data).status_code == 302
    assert _hand_numbers(a) == [1, 2, 3]
    assert Hand.objects.get(match=a, number=3).entry == {"bids": [1, 6], "tricks": [4, 9]}

    assert client.get(f"/matches/{a.pk}/hands/3/edit/").status_code == 200
    edit = {"bids_0": "1", "bids_1": "6", "tricks_0": "6", "tricks_1": "7", "version": _version(a)}
    assert client.post(f"/matches/{a.pk}/hands/3/edit/", edit).status_code == 302
    assert Hand.objects.get(match=a, number=3).entry == {"bids": [1, 6], "tricks": [6, 7]}

    assert client.get(f"/matches/{a.pk}/undo/").status_code == 200
    assert client.post(f"/matches/{a.pk}/undo/", {"version": _version(a)}).status_code == 302
    assert _hand_numbers(a) == [1, 2]

    events = list(AuditEvent.objects.filter(match=a).order_by("pk"))[start:]
    assert [e.action for e in events] == ["bids cleared", "bids saved", "hand recorded", "hand edited", "hand undone"]
    if who == "device_valid":
        assert all(e.user_id is None and e.link_id == world.link_a.pk for e in events)
    else:
        expected = {"owner": world.owner, "co_organiser": world.co, "superuser": world.admin}[who]
        assert all(e.user_id == expected.pk and e.link_id is None for e in events)


@pytest.mark.parametrize("who", ["owner", "co_organiser", "superuser"])
def test_organisers_can_manage(world, who):
    client, a, z = world.clients[who], world.a, world.z
    user = {"owner": world.owner, "co_organiser": world.co, "superuser": world.admin}[who]

    assert client.get(f"/matches/{a.pk}/share/").status_code == 200
    response = client.post(f"/matches/{a.pk}/share/", {"label": "Bob's phone"})
    assert response.status_code == 200
    token = _token_from_share_page(response)
    new_link = links.find_link(token)
    assert new_link.match_id == a.pk and new_link.label == "Bob's phone"

    assert client.post(f"/matches/{a.pk}/share/{new_link.pk}/revoke/").status_code == 302
    assert AccessLink.objects.get(pk=new_link.pk).revoked_at is not None

    assert client.post(f"/matches/{a.pk}/co-organisers/", {"username": "otto"}).status_code == 302
    assert a.co_organisers.filter(pk=world.other.pk).exists()

    assert client.get(f"/matches/{a.pk}/history/").status_code == 200
    restore = {"event": str(world.edit_event.pk), "which": "before", "version": _version(a)}
    assert client.post(f"/matches/{a.pk}/history/", restore).status_code == 302
    assert Hand.objects.get(match=a, number=1).entry == {"bids": [4, 5], "tricks": [6, 7]}
    assert AuditEvent.objects.filter(match=a, action="hand restored", user=user).count() == 1

    assert client.post(f"/matches/{a.pk}/abandon/").status_code == 302
    assert Match.objects.get(pk=a.pk).status == Match.Status.ABANDONED
    assert client.post(f"/matches/{z.pk}/reopen/").status_code == 302
    assert Match.objects.get(pk=z.pk).status == Match.Status.IN_PROGRESS

    response = client.post(f"/matches/{a.pk}/again/")
    assert response.status_code == 302
    new = Match.objects.get(previous=a)
    assert response["Location"] == f"/matches/{new.pk}/"
    assert new.owner_id == user.pk
    assert list(new.seats.order_by("position").values_list("player__name", flat=True)) == ["Bob", "Ann"]


def test_the_other_organiser_can_use_club_wide_pages(world):
    """Players and new matches belong to the club: any organiser may add them."""
    client = world.clients["other_organiser"]
    assert client.post("/players/", {"name": "Mallory"}).status_code == 302
    assert Player.objects.filter(name="Mallory").exists()
    response = client.post("/matches/new/", {"game": "spades", "seat_0": "Mallory", "seat_1": "Trudy"})
    assert response.status_code == 302
    assert Match.objects.get(pk=int(response["Location"].strip("/").split("/")[-1])).owner_id == world.other.pk


def test_organiser_of_one_match_cannot_reach_another_match_through_its_own_urls(world):
    """IDs of another match's link or audit event, under one's own match URL."""
    owner = world.clients["owner"]
    before = db_state()
    assert owner.post(f"/matches/{world.a.pk}/share/{world.link_b.pk}/revoke/").status_code == 404
    b_event = AuditEvent.objects.filter(match=world.b).first()
    restore = {"event": str(b_event.pk), "which": "after", "version": _version(world.a)}
    response = owner.post(f"/matches/{world.a.pk}/history/", restore)
    assert response.status_code == 404
    assert db_state() == before
    STATS["posts"] += 2


def test_cross_site_post_without_csrf_token_is_refused(world):
    """A page on another site cannot make the owner's browser or a device write."""
    owner = Client(enforce_csrf_checks=True, raise_request_exception=False)
    owner.force_login(world.owner)
    owner.get(f"/matches/{world.a.pk}/")  # the browser has its CSRF cookie; the other site lacks the token
    assert owner.cookies.get("csrftoken")
    device = Client(enforce_csrf_checks=True, raise_request_exception=False)
    _exchange_with_csrf(device, world.token_a)
    before = db_state()
    data = {"bids_0": "2", "bids_1": "2", "tricks_0": "4", "tricks_1": "9", **_entry_basis(world.a)}
    for client in (owner, device):
        assert client.post(f"/matches/{world.a.pk}/hands/", data).status_code == 403
        assert client.post(f"/matches/{world.a.pk}/abandon/").status_code == 403
        STATS["posts"] += 2
    assert db_state() == before
    # Nor can another site make a browser exchange a link (and so score for whoever holds it).
    victim = Client(enforce_csrf_checks=True, raise_request_exception=False)
    victim.get(f"/l/{world.token_a}/")
    assert victim.post(f"/l/{world.token_a}/").status_code == 403
    assert _grants(victim) == []


def _grants(client: Client) -> list[int]:
    """The link ids the device's grant cookie holds, as the server reads it."""
    request = RequestFactory().get("/")
    if GRANT_COOKIE in client.cookies:
        request.COOKIES[GRANT_COOKIE] = client.cookies[GRANT_COOKIE].value
    return granted_ids(request)


def _exchange_with_csrf(client: Client, token: str) -> None:
    page = client.get(f"/l/{token}/")
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    assert client.post(f"/l/{token}/", {"csrfmiddlewaretoken": csrf}).status_code == 302


# ------------------------------------------------------------- the link flow


def _token_from_share_page(response) -> str:
    found = re.search(r'id="link-new">http://testserver/l/([^/<"]+)/<', response.content.decode())
    assert found, "no new link on the share page"
    return found.group(1)


def test_opening_a_link_with_get_changes_nothing_and_grants_nothing(world):
    device = _client()
    before = db_state()
    response = device.get(f"/l/{world.token_a}/")
    assert response.status_code == 200
    assert b"Score this match on this device?" in response.content
    assert db_state() == before
    assert _grants(device) == []
    data = {"bids_0": "2", "bids_1": "2", "tricks_0": "4", "tricks_1": "9", **_entry_basis(world.a)}
    assert device.post(f"/matches/{world.a.pk}/hands/", data).status_code == 403
    assert db_state() == before
    STATS["posts"] += 1


def test_posting_the_link_grants_this_match_only(world):
    device = _client()
    response = device.post(f"/l/{world.token_a}/")
    assert response.status_code == 302 and response["Location"] == f"/matches/{world.a.pk}/"
    assert _grants(device) == [world.link_a.pk]
    data = {"bids_0": "2", "bids_1": "2", "tricks_0": "4", "tricks_1": "9", **_entry_basis(world.a)}
    assert device.post(f"/matches/{world.a.pk}/hands/", data).status_code == 302
    assert _hand_numbers(world.a) == [1, 2, 3]
    # ...and nothing else: another match, an organiser page, the admin.
    before = db_state()
    data.update(basis(world.b))  # a valid form of match b's page
    assert device.post(f"/matches/{world.b.pk}/hands/", data).status_code == 403
    assert device.post(f"/matches/{world.z.pk}/reopen/").status_code == 403
    for url in ("/admin/", "/admin/scorekeeper/match/", f"/admin/scorekeeper/match/{world.a.pk}/change/"):
        response = device.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/admin/login/"), url
    response = device.post(f"/admin/scorekeeper/match/{world.a.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    assert db_state() == before
    STATS["posts"] += 3


def test_a_grant_stops_working_the_moment_the_link_is_revoked(world):
    device = world.clients["device_valid"]
    assert world.clients["owner"].post(f"/matches/{world.a.pk}/share/{world.link_a.pk}/revoke/").status_code == 302
    before = db_state()
    data = {"bids_0": "2", "bids_1": "2", "tricks_0": "4", "tricks_1": "9", **_entry_basis(world.a)}
    assert device.post(f"/matches/{world.a.pk}/hands/", data).status_code == 403
    assert db_state() == before
    STATS["posts"] += 1


def test_a_grant_cookie_cannot_be_made_up_or_altered(world):
    """The grant is signed with the server's secret: a device holding match
    a's grant cannot write itself one for match b, nor make one up."""
    device = world.clients["device_valid"]
    signed = device.cookies[GRANT_COOKIE].value  # "<ids>:<time>:<signature>"
    forged = [
        str(world.link_b.pk),  # no signature
        signed.replace(str(world.link_a.pk), str(world.link_b.pk), 1),  # a's signature on b's id
        _signed(str(world.link_b.pk), salt="other"),  # signed for another purpose
        "",
    ]
    data = {"bids_0": "2", "bids_1": "2", "tricks_0": "4", "tricks_1": "9", **basis(world.b)}
    before = db_state()
    for value in forged:
        device.cookies[GRANT_COOKIE] = value
        assert device.post(f"/matches/{world.b.pk}/hands/", data).status_code == 403, value
        assert device.post(f"/matches/{world.b.pk}/bids/", data).status_code == 403, value
    assert db_state() == before
    STATS["posts"] += 2 * len(forged)


def _signed(value: str, salt: str) -> str:
    response = HttpResponse()
    response.set_signed_cookie(GRANT_COOKIE, value, salt=salt)
    return response.cookies[GRANT_COOKIE].value


@pytest.mark.parametrize(("days", "allowed"), [(29, True), (31, False)])
def test_a_grant_lasts_a_month(world, monkeypatch, days, allowed):
    """A device stays allowed for a month after opening the link, as the
    README says; then it must open the link again."""
    issued = time.time() - days * 24 * 3600
    with monkeypatch.context() as m:
        m.setattr(signing.TimestampSigner, "timestamp", lambda self: signing.b62_encode(int(issued)))
        device = _client()
        _exchange(device, world.token_a)
    data = {"bids_0": "2", "bids_1": "2", "tricks_0": "4", "tricks_1": "9", **_entry_basis(world.a)}
    response = device.post(f"/matches/{world.a.pk}/hands/", data)
    assert response.status_code == (302 if allowed else 403)
    assert _hand_numbers(world.a) == ([1, 2, 3] if allowed else [1, 2])
    STATS["posts"] += 1


def test_a_revoked_link_does_not_work(world):
    device = _client()
    before = db_state()
    response = device.get(f"/l/{world.token_revoked_a}/")
    assert response.status_code == 404
    assert b"does not work" in response.content
    response = device.post(f"/l/{world.token_revoked_a}/")
    assert response.status_code == 404
    assert _grants(device) == []
    assert db_state() == before
    STATS["posts"] += 1


@pytest.mark.parametrize("token", ["x", "A" * 43, "A" * 101, "%00", "..%2F..%2Fadmin"])
def test_a_wrong_token_does_not_work(world, token):
    device = _client()
    for method in ("get", "post"):
        response = getattr(device, method)(f"/l/{token}/")
        # A NUL byte is refused before any view (400); any other wrong token is unknown (404).
        assert response.status_code == (400 if token == "%00" else 404)
    assert _grants(device) == []


def test_a_token_of_an_older_generation_or_made_up_does_not_work(world):
    """A token is the link's id, its generation and an HMAC keyed with the
    server's secret: changing any part of it, or signing it with another
    secret, opens nothing."""
    pk, generation, mac = world.token_a.split("-", 2)
    flipped = mac[:-1] + ("A" if mac[-1] != "A" else "B")
    forged = [
        f"{pk}-{int(generation) + 1}-{mac}",  # the next generation, same HMAC
        f"{world.link_b.pk}-{generation}-{mac}",  # another link's id
        f"{pk}-{generation}-{flipped}",
        f"{pk}-{generation}-{mac[:-1]}",
        f"0{pk}-{generation}-{mac}",
    ]
    for token in forged:
        assert _client().post(f"/l/{token}/").status_code == 404, token
    # The same link under another server's secret has another token.
    with override_settings(SECRET_KEY="another-server-" + "x" * 40):
        other = links.token_for(AccessLink.objects.get(pk=world.link_a.pk))
    assert other != world.token_a
    assert _client().post(f"/l/{other}/").status_code == 404


def test_tokens_are_an_hmac_of_256_bits_and_differ_for_every_link(world):
    link = AccessLink.objects.get(pk=world.link_a.pk)
    token = links.token_for(link)
    assert token == world.token_a  # worked out again: the same
    pk, generation, mac = token.split("-", 2)
    assert (int(pk), int(generation)) == (link.pk, 1)
    assert len(mac) == 43 and re.fullmatch(r"[A-Za-z0-9_-]+", mac)  # 32 bytes of HMAC-SHA256
    sample = {issue_link(match_id=world.a.pk, label="x", actor=Actor.organiser(world.owner))[1] for _ in range(50)}
    assert len(sample) == 50 and world.token_a not in sample


# ----------------------------------------------------------- login, setup


@pytest.fixture
def victim(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return User.objects.create_user(username="victim", password="right-horse-battery")


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_five_wrong_passwords_lock_the_account_even_for_the_right_one(victim):
    client = _client()
    for _ in range(4):
        response = client.post("/login/", {"username": "victim", "password": "wrong"})
        assert response.status_code == 200
        assert b"do not match" in response.content
    response = client.post("/login/", {"username": "victim", "password": "wrong"})  # the 5th: locks
    assert response.status_code in (200, 403, 429)
    assert not _logged_in(client)
    response = client.post("/login/", {"username": "victim", "password": "right-horse-battery"})
    assert response.status_code in (403, 429)
    assert b"Too many tries" in response.content
    assert not _logged_in(client)
    assert client.get("/players/").status_code == 302
    # A fresh client from the same address is locked out as well.
    other = _client()
    response = other.post("/login/", {"username": "victim", "password": "right-horse-battery"})
    assert b"Too many tries" in response.content
    assert not _logged_in(other)


def test_lockout_is_not_bypassed_by_spelling_the_user_name_differently(victim):
    client = _client()
    for _ in range(5):
        client.post("/login/", {"username": "victim", "password": "wrong"})
    for variant in (" victim", "victim ", "\uff56\uff49\uff43\uff54\uff49\uff4d"):  # fullwidth NFKC-folds to "victim"
        response = client.post("/login/", {"username": variant, "password": "right-horse-battery"})
        assert not _logged_in(client), variant
        assert response.status_code != 302, variant


def test_four_wrong_passwords_then_the_right_one_logs_in(victim):
    client = _client()
    for _ in range(4):
        client.post("/login/", {"username": "victim", "password": "wrong"})
    response = client.post("/login/", {"username": "victim", "password": "right-horse-battery"})
    assert response.status_code == 302
    assert _logged_in(client)


def test_a_locked_user_does_not_lock_out_another_user(victim):
    User.objects.create_user(username="bystander", password="other-horse-battery")
    client = _client()
    for _ in range(6):
        client.post("/login/", {"username": "victim", "password": "wrong"})
    response = client.post("/login/", {"username": "bystander", "password": "other-horse-battery"})
    assert response.status_code == 302
    assert _logged_in(client)


def test_login_never_redirects_to_another_site(victim):
    client = _client()
    data = {"username": "victim", "password": "right-horse-battery", "next": "https://evil.example/"}
    response = client.post("/login/", data)
    assert response.status_code == 302
    assert urlparse(response["Location"]).netloc == ""


def test_setup_works_only_while_no_user_exists(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    client = _client()
    assert client.get("/").status_code == 302
    assert client.get("/setup/").status_code == 200
    data = {"username": "first", "password": "a-long-pass-phrase", "password2": "a-long-pass-phrase"}
    response = client.post("/setup/", data)
    assert response.status_code == 302
    assert list(User.objects.values_list("username", "is_superuser")) == [("first", True)]
    assert _logged_in(client)

    stranger = _client()
    assert stranger.get("/setup/").status_code == 404
    data = {"username": "second", "password": "another-pass-phrase", "password2": "another-pass-phrase"}
    before = db_state()
    assert stranger.post("/setup/", data).status_code == 404
    assert client.post("/setup/", data).status_code == 404
    assert db_state() == before
    assert not _logged_in(stranger)
    STATS["posts"] += 2


def test_setup_is_gone_once_any_user_exists(world):
    """Also with only ordinary (non-superuser) accounts around."""
    data = {"username": "mallory", "password": "another-pass-phrase", "password2": "another-pass-phrase"}
    before = db_state()
    for who in ("anonymous", "device_valid", "other_organiser"):
        assert world.clients[who].get("/setup/").status_code == 404
        assert world.clients[who].post("/setup/", data).status_code == 404
        STATS["posts"] += 1
    assert db_state() == before
