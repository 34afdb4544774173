"""A table's results lock when it ends. For each way a match ends -- a
tournament table finished by play, ended early, its round complete, the
tournament finished, a casual match finished or abandoned -- every write
endpoint of the match (listed from the URLconf) is tried with the device
holding that match's scoring link: each is refused (403, in plain words)
and nothing in the database changes, even when an organiser's correction
has put the match back in progress. The organiser can still correct, and
the history names them and the time. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import URLPattern

from scorekeeper import urls
from scorekeeper.access.services import issue_link
from scorekeeper.audit import Actor
from scorekeeper.errors import ServiceError
from scorekeeper.matches import services as match_services
from scorekeeper.matches.forms import bidding_stamp
from scorekeeper.models import AccessLink, AuditEvent, Hand, Match, Round, Seat, Table, Tournament
from scorekeeper.tournaments import links
from scorekeeper.tournaments.ending import end_table_early

from ..conftest import HX, MODEL_BACKEND, play, text_of
from ..tournaments.helpers import make, publish_next, tables_of

pytestmark = pytest.mark.django_db

TABLE_ENDED = "This table has ended: only the organiser can change its results now."
MATCH_ENDED = "This match has ended: only the organiser can change its results now."
MATCH_ABANDONED = "This match was abandoned: only the organiser can reopen it or change its results now."

# Every URL under /matches/<id>/, by what it is for a device holding the
# match's link. A new one fails test_every_match_url_is_classified until
# it is listed here (and so tried below).
DEVICE_WRITES = {"save_bids", "clear_bids", "record_hand", "preview", "edit_hand", "edit_preview", "undo_hand"}
ORGANISER_ONLY = {
    "history",
    "match_action",
    "share",
    "revoke_link",
    "add_co_organiser",
    "accept_match",
    "match_csv",
    "match_json",
}
READS = {"match", "match_changed"}
# The other side's check: refused like every write once the match counts or
# was ended; while a match over still waits for checks, the only write its
# links may make (tests/tournaments/test_table_sides.py).
CHECKS = {"check_hand"}


def _match_url_names() -> set[str]:
    names = set()
    for pattern in urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        route = str(pattern.pattern)
        if route.startswith("matches/<id:match_id>/") or route.startswith("^matches/(?P<match_id>"):
            names.add(pattern.name)
    return names


def test_every_match_url_is_classified():
    assert _match_url_names() == DEVICE_WRITES | ORGANISER_ONLY | READS | CHECKS


# ---------------------------------------------------------------- the writes


def _hand_form(match: Match) -> dict[str, str]:
    """A valid next hand of Spades, as the entry form of a page drawn now posts it."""
    return {
        "bids_0": "3",
        "bids_1": "3",
        "tricks_0": "6",
        "tricks_1": "7",
        "number": str(match.hands_played + 1),
        "bidding": bidding_stamp(match.pending_bidding),
        "client_key": "k" * 32,
    }


def _requests(match: Match) -> list[tuple[str, str, str, dict]]:
    """(name, method, url, data): every write a device could try on the
    match, each with a form that says what it was based on, as now."""
    match = Match.objects.get(pk=match.pk)
    m = f"/matches/{match.pk}"
    hand = _hand_form(match)
    bids = {k: hand[k] for k in ("bids_0", "bids_1", "number", "bidding")}
    version = {"version": str(match.version)}
    edit = {"bids_0": "3", "bids_1": "3", "tricks_0": "13", "tricks_1": "0", **version}
    link = AccessLink.objects.filter(match=match).first()
    requests = [
        ("save_bids", "POST", f"{m}/bids/", bids),
        ("clear_bids", "POST", f"{m}/bids/clear/", {"number": bids["number"], "bidding": bids["bidding"]}),
        ("record_hand", "POST", f"{m}/hands/", hand),
        ("record_hand", "POST-HX", f"{m}/hands/", hand),
        ("preview", "POST", f"{m}/preview/", hand),
        ("edit_hand", "GET", f"{m}/hands/1/edit/", {}),
        ("edit_hand", "POST", f"{m}/hands/1/edit/", edit),
        ("edit_hand", "POST-HX", f"{m}/hands/1/edit/", edit),
        ("edit_preview", "POST-HX", f"{m}/hands/1/preview/", edit),
        ("undo_hand", "GET", f"{m}/undo/", {}),
        ("undo_hand", "POST", f"{m}/undo/", version),
        ("check_hand", "GET", f"{m}/hands/1/check/", {}),
        ("check_hand", "POST", f"{m}/hands/1/check/", {"verdict": "correct", "client_key": "c" * 32, **version}),
        ("history", "POST", f"{m}/history/", {"event": "1", "which": "before", **version}),
        ("match_action", "POST", f"{m}/reopen/", {"links_write": "yes"}),
        ("match_action", "POST", f"{m}/abandon/", {}),
        ("match_action", "POST", f"{m}/again/", {}),
        ("share", "POST", f"{m}/share/", {"label": "mine"}),
        ("share", "POST", f"{m}/share/", {"action": "links_write"}),
        ("revoke_link", "POST", f"{m}/share/{link.pk}/revoke/", {}),
        ("add_co_organiser", "POST", f"{m}/co-organisers/", {"username": "olga"}),
        ("accept_match", "POST", f"{m}/accept/", version),
        ("match_csv", "GET", f"{m}/sheet.csv", {}),
        ("match_json", "GET", f"{m}/export.json", {}),
    ]
    assert {name for name, *_ in requests} == DEVICE_WRITES | ORGANISER_ONLY | CHECKS
    return requests


def _send(client: Client, method: str, url: str, data: dict):
    if method == "GET":
        return client.get(url)
    return client.post(url, data, **(HX if method == "POST-HX" else {}))


def db_state() -> dict:
    """Every row a match's write could add, change or remove."""
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (Match, Hand, Seat, AccessLink, AuditEvent, Table, Round, Tournament)
    }


def assert_device_refused(device: Client, match: Match, message: str) -> None:
    before = db_state()
    for name, method, url, data in _requests(match):
        response = _send(device, method, url, data)
        assert response.status_code == 403, (name, method, response.status_code, text_of(response)[:300])
        if name in DEVICE_WRITES | CHECKS:
            assert message in text_of(response), (name, method, text_of(response)[:300])
        assert db_state() == before, (name, method)
    # The sheet offers this device nothing to change: no form, no Undo, no Edit.
    page = text_of(device.get(f"/matches/{match.pk}/"))
    assert 'id="entry-form"' not in page
    assert f"/matches/{match.pk}/undo/" not in page and f"/matches/{match.pk}/hands/1/edit/" not in page
    assert db_state() == before


def assert_organiser_corrects(organiser_client: Client, organiser, match: Match) -> None:
    """The organiser edits hand 1: made, and recorded under their name."""
    match.refresh_from_db()
    form = {"bids_0": "3", "bids_1": "3", "tricks_0": "7", "tricks_1": "6", "version": str(match.version)}
    response = organiser_client.post(f"/matches/{match.pk}/hands/1/edit/", form)
    assert response.status_code == 302, text_of(response)[:300]
    assert Hand.objects.get(match=match, number=1).entry == {"bids": [3, 3], "tricks": [7, 6]}
    event = AuditEvent.objects.filter(match=match, action="hand edited").latest("pk")
    assert (event.user_id, event.link_id) == (organiser.pk, None)
    history = text_of(organiser_client.get(f"/matches/{match.pk}/history/"))
    done = rf"Hand edited</b> · hand 1\s*<span class=\"muted\">· [^<]+ · organiser {organiser.username}</span>"
    assert re.search(done, history), history


# ------------------------------------------------------------------ the world


@dataclass
class Table1:
    """A tournament whose table 1's link a device has opened (and scored with)."""

    organiser: object
    org: Client
    tournament: Tournament
    round: Round
    table: Table
    other: Table
    device: Client


def _device(token: str) -> Client:
    device = Client(raise_request_exception=False)
    assert device.get(f"/l/{token}/").status_code == 200
    assert device.post(f"/l/{token}/").status_code == 302
    return device


def _org_client(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user, backend=MODEL_BACKEND)
    return client


def _score(device: Client, match: Match, bids, tricks) -> None:
    match.refresh_from_db()
    form = {**_hand_form(match), "bids_0": str(bids[0]), "bids_1": str(bids[1])}
    form.update({"tricks_0": str(tricks[0]), "tricks_1": str(tricks[1]), "client_key": f"{match.version:032d}"})
    assert device.post(f"/matches/{match.pk}/hands/", form).status_code == 302


@pytest.fixture
def table1(organiser) -> Table1:
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], rounds=2)
    rnd = publish_next(t, organiser)
    table, other = tables_of(rnd)
    device = _device(links.table_tokens(rnd.pk)[table.pk][0])  # a link on the printed card
    _score(device, table.match, [3, 3], [6, 7])  # 33 to 34: the device scores
    return Table1(organiser, _org_client(organiser), t, rnd, table, other, device)


def _organiser_undoes_last_hand(world: Table1, match: Match) -> None:
    """An organiser's correction puts the finished match back in progress."""
    match.refresh_from_db()
    response = world.org.post(f"/matches/{match.pk}/undo/", {"version": str(match.version)})
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).status == Match.Status.IN_PROGRESS


def _finish_by_play(device: Client, match: Match) -> None:
    _score(device, match, [10, 2], [11, 2])  # +101 to seat 1: over 100
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def test_a_table_finished_by_play(table1):
    match = table1.table.match
    _finish_by_play(table1.device, match)  # the device's own last hand ends it
    assert_device_refused(table1.device, match, TABLE_ENDED)
    # An organiser's undo puts it back in progress: the link stays closed.
    _organiser_undoes_last_hand(table1, match)
    assert_device_refused(table1.device, match, TABLE_ENDED)
    assert_organiser_corrects(table1.org, table1.organiser, match)
    # The other table's device is not affected.
    other = _device(links.table_tokens(table1.round.pk)[table1.other.pk][0])
    _score(other, table1.other.match, [3, 3], [6, 7])


def test_a_table_ended_early(table1):
    match = table1.table.match
    assert table1.org.post(f"/tournaments/{table1.tournament.pk}/tables/{table1.table.pk}/end/").status_code == 302
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert_device_refused(table1.device, match, TABLE_ENDED)
    assert_organiser_corrects(table1.org, table1.organiser, match)
    assert Match.objects.get(pk=match.pk).winners == [0]  # corrected to 34 to 33: still ended


def _complete_round(world: Table1) -> None:
    """The round completes by itself, in the write that makes its last table count."""
    _finish_by_play(world.device, world.table.match)
    assert Round.objects.get(pk=world.round.pk).status == Round.Status.PLAYING
    end_table_early(table_id=world.other.pk, actor=Actor.organiser(world.organiser))
    assert Round.objects.get(pk=world.round.pk).status == Round.Status.COMPLETE


def test_a_table_of_a_complete_round(table1):
    match = table1.table.match
    _complete_round(table1)
    assert Match.objects.filter(table__round=table1.round, links_closed_at__isnull=True).count() == 0
    assert_device_refused(table1.device, match, TABLE_ENDED)
    _organiser_undoes_last_hand(table1, match)
    assert_device_refused(table1.device, match, TABLE_ENDED)
    assert_organiser_corrects(table1.org, table1.organiser, match)


def test_a_table_of_a_finished_tournament(table1):
    _complete_round(table1)
    rnd2 = publish_next(table1.tournament, table1.organiser)
    for table in tables_of(rnd2):
        play(table.match, {"bids": [10, 2], "tricks": [11, 2]})
    assert Tournament.objects.get(pk=table1.tournament.pk).status == Tournament.Status.FINISHED
    assert Match.objects.filter(table__round__tournament=table1.tournament, links_closed_at__isnull=True).count() == 0
    match = table1.table.match  # round 1's table: its device tries again
    _organiser_undoes_last_hand(table1, match)
    assert_device_refused(table1.device, match, TABLE_ENDED)
    assert_organiser_corrects(table1.org, table1.organiser, match)


@pytest.fixture
def casual(organiser):
    """A casual match of the organiser's, a device scoring it through a shared link."""
    match = match_services.start_match(
        game="spades", player_names=["Ann", "Bob"], options={"target": 100}, actor=Actor.organiser(organiser)
    )
    _link, token = issue_link(match_id=match.pk, label="Bob's phone", actor=Actor.organiser(organiser))
    device = _device(token)
    _score(device, match, [3, 3], [6, 7])
    return match, device, _org_client(organiser)


def test_a_casual_match_finished(casual, organiser):
    match, device, org = casual
    _finish_by_play(device, match)
    assert_device_refused(device, match, MATCH_ENDED)
    # The finished sheet offers the device no Play again either.
    assert "Play again" not in text_of(device.get(f"/matches/{match.pk}/"))
    assert "The scoring links stay closed" in text_of(org.get(f"/matches/{match.pk}/undo/"))
    match.refresh_from_db()
    assert org.post(f"/matches/{match.pk}/undo/", {"version": str(match.version)}).status_code == 302
    assert_device_refused(device, match, MATCH_ENDED)
    assert_organiser_corrects(org, organiser, match)
    # The organiser chooses to let the links write again (share page): the device scores.
    page = text_of(org.get(f"/matches/{match.pk}/share/"))
    assert "Let the scoring links write again" in page
    assert org.post(f"/matches/{match.pk}/share/", {"action": "links_write"}).status_code == 302
    assert AuditEvent.objects.filter(match=match, action="links reopened", user=organiser).count() == 1
    _score(device, match, [3, 3], [6, 7])
    assert Hand.objects.filter(match=match).count() == 2


@pytest.mark.parametrize("links_write", [False, True])
def test_a_casual_match_abandoned_then_reopened(casual, organiser, links_write):
    match, device, org = casual
    assert org.post(f"/matches/{match.pk}/abandon/").status_code == 302
    assert_device_refused(device, match, MATCH_ABANDONED)
    # Reopening gives the links back only if the organiser ticks the box.
    page = text_of(org.get(f"/matches/{match.pk}/"))
    assert "Let the scoring links write again" in page
    data = {"links_write": "yes"} if links_write else {}
    assert org.post(f"/matches/{match.pk}/reopen/", data).status_code == 302
    assert Match.objects.get(pk=match.pk).status == Match.Status.IN_PROGRESS
    if links_write:
        _score(device, match, [3, 3], [6, 7])
        assert Hand.objects.filter(match=match).count() == 2
    else:
        assert_device_refused(device, match, MATCH_ENDED)
        assert_organiser_corrects(org, organiser, match)


def test_a_tournament_tables_links_cannot_be_given_back(table1):
    match = table1.table.match
    _finish_by_play(table1.device, match)
    _organiser_undoes_last_hand(table1, match)
    page = text_of(table1.org.get(f"/matches/{match.pk}/share/"))
    assert "Let the scoring links write again" not in page
    before = db_state()
    table1.org.post(f"/matches/{match.pk}/share/", {"action": "links_write"})
    assert db_state() == before
    assert_device_refused(table1.device, match, TABLE_ENDED)


def test_a_table_ending_while_the_device_is_writing_is_refused_under_the_lock(table1):
    """The decorator let the device through; the table ended before the
    service locked the match: the service refuses, nothing written."""
    match = table1.table.match
    link = AccessLink.objects.get(match=match, side=0)
    Match.objects.filter(pk=match.pk).update(links_closed_at=match.created_at)
    before = db_state()
    fresh = Match.objects.get(pk=match.pk)
    with pytest.raises(ServiceError) as error:
        match_services.record_hand(
            match_id=match.pk,
            entry={"bids": [3, 3], "tricks": [6, 7]},
            number=fresh.hands_played + 1,
            bidding_in_force=None,
            client_key="x" * 32,
            actor=Actor.device(link),
        )
    assert (error.value.code, error.value.message) == ("locked", TABLE_ENDED)
    for write in (
        lambda: match_services.undo_last_hand(match_id=match.pk, version=fresh.version, actor=Actor.device(link)),
        lambda: match_services.save_bidding(
            match_id=match.pk, bidding={"bids": [3, 3]}, number=2, bidding_in_force=None, actor=Actor.device(link)
        ),
    ):
        with pytest.raises(ServiceError):
            write()
    assert db_state() == before


def test_the_device_that_saved_the_last_hand_gets_its_answer_again(table1):
    """The last hand sent again (its answer was lost): the device learns it
    was saved, nothing is written; a new hand is refused."""
    match = table1.table.match
    match.refresh_from_db()
    form = {**_hand_form(match), "bids_0": "10", "bids_1": "2", "tricks_0": "11", "tricks_1": "2"}
    assert table1.device.post(f"/matches/{match.pk}/hands/", form).status_code == 302
    before = db_state()
    again = table1.device.post(f"/matches/{match.pk}/hands/", form, **HX)
    assert again.status_code == 200 and "Hand 2 was already saved." in text_of(again)
    assert 'id="entry-form"' not in text_of(again)
    new = table1.device.post(f"/matches/{match.pk}/hands/", {**form, "client_key": "n" * 32}, **HX)
    assert new.status_code == 403 and text_of(new) == TABLE_ENDED
    wrong = table1.device.post(f"/matches/{match.pk}/hands/", {**form, "client_key": "w" * 32, "tricks_0": "x"})
    assert wrong.status_code == 403 and TABLE_ENDED in text_of(wrong)  # refused before any field is read
    assert db_state() == before


def test_the_answer_to_the_hand_that_ends_the_match_takes_the_devices_edit_links_away(table1):
    """With htmx the answer to a new hand usually adds just its row; the
    hand that ends the match redraws the menu and every row, without Undo
    or Edit for the device."""
    match = table1.table.match
    match.refresh_from_db()
    form = {**_hand_form(match), "bids_0": "10", "bids_1": "2", "tricks_0": "11", "tricks_1": "2"}
    answer = text_of(table1.device.post(f"/matches/{match.pk}/hands/", form, **HX))
    assert "Hand 2 saved." in answer and 'id="history"' in answer and 'id="sheet-head"' in answer
    assert "/edit/" not in answer and "/undo/" not in answer
