"""Many phones, one match: concurrent and repeated submissions never lose
or double-count a hand, and two phones saving bids at the same moment never
both win. Real threads, real database connections, through the HTTP views
(so a 5xx would show), on SQLite and PostgreSQL alike. Expected scores are
worked out from RULES.md."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from scorekeeper.access.services import issue_link
from scorekeeper.audit import SYSTEM, Actor
from scorekeeper.errors import ServiceError
from scorekeeper.matches import services
from scorekeeper.models import AuditEvent, Hand, Match

from ..conftest import HX, MODEL_BACKEND, basis, entries, play, text_of, undo

THREADS = 20
ROUNDS = 5
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def organiser():
    return get_user_model().objects.create_user(username="org", password=None)


@pytest.fixture
def match(organiser) -> Match:
    return services.start_match(
        game="spades", player_names=["Ann", "Bob"], options={"target": 100000}, actor=Actor.organiser(organiser)
    )


def _client(user) -> Client:
    client = Client()
    client.force_login(user, backend=MODEL_BACKEND)
    return client


def _phone(match: Match, label: str) -> Client:
    """A table device that opened one of the match's scoring links."""
    _link, token = issue_link(match_id=match.pk, label=label, actor=SYSTEM)
    phone = Client()
    assert phone.post(f"/l/{token}/").status_code == 302
    return phone


def _together(worker, count: int) -> list:
    """Run ``worker(i)`` in ``count`` threads that start at the same moment."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(i):
        try:
            barrier.wait()
            results[i] = worker(i)
        except Exception as error:  # noqa: BLE001 - reported by the test
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def _statuses(replies) -> list:
    return [getattr(r, "status_code", r) for r in replies]


def test_twenty_phones_same_hand_same_key_store_it_once(organiser, match):
    clients = [_client(organiser) for _ in range(THREADS)]
    tried = 0
    for n in range(1, ROUNDS + 1):
        # The same form (one page, its one-time key) sent by every phone.
        data = {"bids_0": "4", "bids_1": "5", "tricks_0": "6", "tricks_1": "7", **basis(match, client_key=f"k{n}")}
        assert data["number"] == str(n)

        def submit(i, data=data):
            return clients[i].post(f"/matches/{match.pk}/hands/", data, **HX)

        replies = _together(submit, THREADS)
        tried += THREADS
        statuses = _statuses(replies)
        assert all(s == 200 for s in statuses), statuses
        texts = [text_of(r) for r in replies]
        assert sum(f"Hand {n} saved." in t for t in texts) == 1
        assert sum(f"Hand {n} was already saved." in t for t in texts) == THREADS - 1
        assert Hand.objects.filter(match=match).count() == n
        assert AuditEvent.objects.filter(match=match, action="hand recorded").count() == n
    match.refresh_from_db()
    # Each hand: Ann bid 4, took 6 = 40 + 2 bags; Bob bid 5, took 7 = 50 + 2 bags.
    # The 5th hand brings each to 10 bags: -100.
    assert match.totals == [42 * 5 - 100, 52 * 5 - 100]
    assert tried == THREADS * ROUNDS


def test_two_devices_different_hand_5_exactly_one_wins(match):
    for _ in range(4):
        play(match, {"bids": [3, 3], "tricks": [3, 10]})
    phones = [_phone(match, "north"), _phone(match, "south")]
    tricks = [("2", "11"), ("9", "4")]  # Ann's and Bob's tricks, different on each device

    for _ in range(ROUNDS):
        # Both pages are drawn before either phone saves: each shows hand 5 next.
        forms = [basis(match) for _ in phones]
        assert [f["number"] for f in forms] == ["5", "5"]

        def submit(i, forms=forms):
            a, b = tricks[i]
            data = {"bids_0": "1", "bids_1": "1", "tricks_0": a, "tricks_1": b, **forms[i]}
            return phones[i].post(f"/matches/{match.pk}/hands/", data, **HX)

        replies = _together(submit, 2)
        assert sorted(_statuses(replies)) == [200, 409]
        winner = next(i for i, r in enumerate(replies) if r.status_code == 200)
        loser = text_of(replies[1 - winner])
        assert "Hand 5 was already saved from another device" in loser
        assert Hand.objects.filter(match=match).count() == 5
        a, b = tricks[winner]
        assert entries(match)[4] == {"bids": [1, 1], "tricks": [int(a), int(b)]}
        undo(match)


def test_two_conflicting_edits_exactly_one_wins(organiser, match):
    play(match, {"bids": [4, 5], "tricks": [6, 7]})
    clients = [_client(organiser) for _ in range(2)]
    for _ in range(ROUNDS):
        version = Match.objects.get(pk=match.pk).version
        # Two different changes, neither what the hand says now (saving that would change nothing).
        now = [str(t) for t in Hand.objects.get(match=match, number=1).entry["tricks"]]
        edits = [e for e in [("5", "8"), ("8", "5"), ("6", "7")] if list(e) != now][:2]

        def edit(i, version=version, edits=edits):
            a, b = edits[i]
            data = {"bids_0": "4", "bids_1": "5", "tricks_0": a, "tricks_1": b, "version": str(version)}
            return clients[i].post(f"/matches/{match.pk}/hands/1/edit/", data)

        replies = _together(edit, 2)
        assert _statuses(replies) == [302, 302]
        shown = [text_of(clients[i].get(f"/matches/{match.pk}/")) for i in range(2)]
        conflicts = [i for i, page in enumerate(shown) if "Someone else changed this match" in page]
        assert len(conflicts) == 1
        stored = Hand.objects.get(match=match, number=1).entry["tricks"]
        # The stored hand is the winner's (the device not told of a conflict).
        a, b = edits[1 - conflicts[0]]
        assert stored == [int(a), int(b)]
        assert Match.objects.get(pk=match.pk).version == version + 1


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain-form"])
def test_two_devices_saving_different_bids_at_once_exactly_one_is_saved(match, htmx):
    phones = [_phone(match, "north"), _phone(match, "south")]
    bids = [("4", "5"), ("2", "3")]  # Ann's and Bob's bids, different on each device
    words = ["Ann 4, Bob 5", "Ann 2, Bob 3"]
    headers = HX if htmx else {}

    for _ in range(ROUNDS):
        # Both pages show hand 1 next and no bids in force.
        forms = [basis(match) for _ in phones]
        assert [(f["number"], f["bidding"]) for f in forms] == [("1", "none")] * 2
        saves_before = AuditEvent.objects.filter(match=match, action="bids saved").count()

        def submit(i, forms=forms):
            b0, b1 = bids[i]
            data = {"bids_0": b0, "bids_1": b1, "number": forms[i]["number"], "bidding": forms[i]["bidding"]}
            return phones[i].post(f"/matches/{match.pk}/bids/", data, **headers)

        replies = _together(submit, 2)
        ok = 200 if htmx else 302
        assert sorted(_statuses(replies)) == sorted([ok, 409])
        winner = next(i for i, r in enumerate(replies) if r.status_code == ok)
        loser = text_of(replies[1 - winner])
        label = ["north", "south"][winner]
        # The refusal names who saved the bids in force, and which they are.
        assert f"The phone with the link “{label}” saved the bids {words[winner]} a moment ago." in loser
        assert "Nothing was changed" in loser
        b0, b1 = bids[winner]
        stored = Match.objects.get(pk=match.pk)
        assert stored.pending_bidding == {"bids": [int(b0), int(b1)]}
        assert AuditEvent.objects.filter(match=match, action="bids saved").count() == saves_before + 1
        assert Hand.objects.filter(match=match).count() == 0
        services.clear_bidding(match_id=match.pk, number=1, bidding_in_force=stored.pending_bidding, actor=SYSTEM)


def test_two_devices_saving_different_bids_at_once_the_loser_is_told_bids_changed(match):
    """The same race through the service the views call: the refusal's code is "bids_changed"."""
    links = [issue_link(match_id=match.pk, label=label, actor=SYSTEM)[0] for label in ("north", "south")]
    bids = [{"bids": [4, 5]}, {"bids": [2, 3]}]

    for _ in range(ROUNDS):

        def submit(i):
            return services.save_bidding(
                match_id=match.pk, bidding=bids[i], number=1, bidding_in_force=None, actor=Actor.device(links[i])
            )

        results = _together(submit, 2)
        errors = [r for r in results if isinstance(r, ServiceError)]
        saved = [i for i, r in enumerate(results) if not isinstance(r, BaseException)]
        assert len(errors) == 1 and len(saved) == 1, results
        assert errors[0].code == "bids_changed"
        stored = Match.objects.get(pk=match.pk).pending_bidding
        assert stored == bids[saved[0]]
        services.clear_bidding(match_id=match.pk, number=1, bidding_in_force=stored, actor=SYSTEM)


def test_the_same_bids_from_two_devices_at_once_are_saved_once(match):
    """Two phones at one table entering the same bids: neither is refused, they are written once."""
    phones = [_phone(match, "north"), _phone(match, "south")]
    forms = [basis(match) for _ in phones]

    def submit(i):
        data = {"bids_0": "4", "bids_1": "5", "number": forms[i]["number"], "bidding": forms[i]["bidding"]}
        return phones[i].post(f"/matches/{match.pk}/bids/", data, **HX)

    replies = _together(submit, 2)
    assert _statuses(replies) == [200, 200]
    assert Match.objects.get(pk=match.pk).pending_bidding == {"bids": [4, 5]}
    assert AuditEvent.objects.filter(match=match, action="bids saved").count() == 1


def test_bids_and_a_whole_hand_from_pages_showing_no_bids_exactly_one_wins(match):
    """One phone saves bids while the other enters the whole hand, both from
    pages drawn with no bids in force: whichever is first, the other is refused."""
    phones = [_phone(match, "north"), _phone(match, "south")]

    for _ in range(ROUNDS):
        forms = [basis(match) for _ in phones]

        def submit(i, forms=forms):
            if i == 0:
                data = {"bids_0": "2", "bids_1": "3", "number": forms[0]["number"], "bidding": forms[0]["bidding"]}
                return phones[0].post(f"/matches/{match.pk}/bids/", data, **HX)
            data = {"bids_0": "4", "bids_1": "5", "tricks_0": "6", "tricks_1": "7", **forms[1]}
            return phones[1].post(f"/matches/{match.pk}/hands/", data, **HX)

        replies = _together(submit, 2)
        assert sorted(_statuses(replies)) == [200, 409]
        now = Match.objects.get(pk=match.pk)
        if replies[0].status_code == 200:  # the bids were first: the hand is refused, the bids stand
            assert "The phone with the link “north” saved the bids Ann 2, Bob 3" in text_of(replies[1])
            assert now.pending_bidding == {"bids": [2, 3]} and entries(match) == []
            services.clear_bidding(match_id=match.pk, number=1, bidding_in_force=now.pending_bidding, actor=SYSTEM)
        else:  # the hand was first: the bids, for a hand already saved, are refused
            assert "Hand 1 was already saved from another device" in text_of(replies[0])
            assert now.pending_bidding is None and entries(match) == [{"bids": [4, 5], "tricks": [6, 7]}]
            undo(match)
