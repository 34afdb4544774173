"""Many phones, one match: concurrent and repeated submissions never lose
or double-count a hand. Real threads, real database connections, through
the HTTP views (so a 5xx would show), on SQLite and PostgreSQL alike."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Hand, Match
from scorekeeper.services import Actor

THREADS = 20
ROUNDS = 5
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def organiser():
    return get_user_model().objects.create_user(username="org", password="x-unused-x")


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


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


def test_twenty_phones_same_hand_same_key_store_it_once(organiser):
    match = services.start_match(
        game="spades", player_names=["Ann", "Bob"], options={"target": 100000}, actor=Actor("t", organiser)
    )
    clients = [_client(organiser) for _ in range(THREADS)]
    tried = 0
    for n in range(1, ROUNDS + 1):
        data = {"bids_0": "4", "bids_1": "5", "tricks_0": "6", "tricks_1": "7", "number": str(n), "client_key": f"k{n}"}

        def submit(i, data=data):
            return clients[i].post(f"/matches/{match.pk}/hands/", data, HTTP_HX_REQUEST="true")

        replies = _together(submit, THREADS)
        tried += THREADS
        statuses = [getattr(r, "status_code", r) for r in replies]
        assert all(s == 200 for s in statuses), statuses
        texts = [r.content.decode() for r in replies]
        assert sum(f"Hand {n} saved." in t for t in texts) == 1
        assert sum(f"Hand {n} was already saved." in t for t in texts) == THREADS - 1
        assert Hand.objects.filter(match=match).count() == n
    match.refresh_from_db()
    # Each hand: Ann 4 bid, 6 taken = 42; Bob 5 bid, 7 taken = 52; 2 bags each,
    # so the 5th hand brings both to 10 bags: -100.
    assert match.totals == [42 * 5 - 100, 52 * 5 - 100]
    assert tried == THREADS * ROUNDS


def test_two_devices_different_hand_5_exactly_one_wins(organiser):
    match = services.start_match(
        game="spades", player_names=["Ann", "Bob"], options={"target": 100000}, actor=Actor("t", organiser)
    )
    for _ in range(4):
        services.record_hand(match_id=match.pk, entry={"bids": [3, 3], "tricks": [3, 10]})
    clients = [_client(organiser) for _ in range(2)]
    entries = [("2", "11"), ("9", "4")]  # Ann's and Bob's tricks, different on each device

    def submit(i):
        a, b = entries[i]
        data = {"bids_0": "1", "bids_1": "1", "tricks_0": a, "tricks_1": b, "number": "5", "client_key": f"dev{i}"}
        return clients[i].post(f"/matches/{match.pk}/hands/", data, HTTP_HX_REQUEST="true")

    for _ in range(ROUNDS):
        replies = _together(submit, 2)
        statuses = sorted(r.status_code for r in replies)
        assert statuses == [200, 409]
        loser = next(r for r in replies if r.status_code == 409).content.decode()
        assert "Hand 5 was already saved from another device" in loser
        assert Hand.objects.filter(match=match).count() == 5
        services.undo_last_hand(match_id=match.pk, expected_version=None)


def test_two_conflicting_edits_exactly_one_wins(organiser):
    match = services.start_match(
        game="spades", player_names=["Ann", "Bob"], options={"target": 100000}, actor=Actor("t", organiser)
    )
    services.record_hand(match_id=match.pk, entry={"bids": [4, 5], "tricks": [6, 7]})
    clients = [_client(organiser) for _ in range(2)]
    for _ in range(ROUNDS):
        version = Match.objects.get(pk=match.pk).version
        edits = [("5", "8"), ("8", "5")]

        def edit(i, version=version, edits=edits):
            a, b = edits[i]
            data = {"bids_0": "4", "bids_1": "5", "tricks_0": a, "tricks_1": b, "version": str(version)}
            return clients[i].post(f"/matches/{match.pk}/hands/1/edit/", data)

        replies = _together(edit, 2)
        assert [r.status_code for r in replies] == [302, 302]
        shown = [clients[i].get(f"/matches/{match.pk}/").content.decode() for i in range(2)]
        conflicts = sum("Someone else changed this match" in page for page in shown)
        assert conflicts == 1
        stored = Hand.objects.get(match=match, number=1).entry["tricks"]
        assert stored in ([5, 8], [8, 5])
        assert Match.objects.get(pk=match.pk).version == version + 1
