"""Helpers and data shared by the match service tests: writes as a page
sends them, and one hand per game with its points worked out from RULES.md."""

from __future__ import annotations

import uuid

import pytest

from scorekeeper.errors import ServiceError
from scorekeeper.matches import services
from scorekeeper.models import Match

from ..conftest import (
    D1,
    D2,
    O1,
    S1,
    X1,
    X2,
    ohhell_hand,
)


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


CURRENT = object()  # as a page drawn now shows it


def record(match: Match, entry: dict, *, number=None, key=None, shown=CURRENT) -> services.HandSaved:
    """Record a hand as a page sends it: by default one drawn now (the next
    hand's number, the bids in force); ``number``, ``shown``: what an older
    page showed; ``key``: the form's one-time key."""
    now = fresh(match)
    return services.record_hand(
        match_id=match.pk,
        entry=entry,
        number=number or now.hands_played + 1,
        bidding_in_force=now.pending_bidding if shown is CURRENT else shown,
        client_key=key or uuid.uuid4().hex,
    )


def save_bids(match: Match, bidding: dict, *, number=None, shown=CURRENT) -> Match:
    now = fresh(match)
    return services.save_bidding(
        match_id=match.pk,
        bidding=bidding,
        number=number or now.hands_played + 1,
        bidding_in_force=now.pending_bidding if shown is CURRENT else shown,
    )


def clear_bids(match: Match, *, shown=CURRENT) -> Match:
    now = fresh(match)
    return services.clear_bidding(
        match_id=match.pk,
        number=now.hands_played + 1,
        bidding_in_force=now.pending_bidding if shown is CURRENT else shown,
    )


def refused(call, *, code: str | None = None) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        call()
    if code is not None:
        assert info.value.code == code, info.value.message
    return info.value


def assert_state(match: Match, *, totals, status="in_progress", winners=(), hands_played=None, pending=None):
    match = fresh(match)
    assert match.totals == list(totals)
    assert match.status == status
    assert match.winners == list(winners)
    if hands_played is not None:
        assert match.hands_played == hands_played
        assert match.hands.count() == hands_played
    assert match.pending_bidding == pending
    if status == "finished":
        assert match.finished_at is not None
    else:
        assert match.finished_at is None
    return match


# One legal first hand per game, with its points from the worked examples,
# a legal second hand and the totals after both (worked out from RULES.md).
FIRST = {
    "spades": (S1[0], [71, 41]),  # S1
    "drawbridge": (D1, [100, 0]),  # D1
    "sixtysix": (X1, [1, 0]),  # X1
    "ohhell": (O1, [10, 11, 10, 10]),  # O1
    "partnership_spades": ({"bids": [3, 4, 2, 4], "tricks": [6, 7]}, [51, -80]),  # P1
    "courtpiece": ({"winner": 1, "trumps": "H"}, [0, 0]),  # C1, deal 1
}
SECOND = {
    # S1 again: 71 and 41 more (bags 2 and 2, no penalty).
    "spades": (S1[0], [142, 82]),
    # D2: Bob 4S doubled, 11 tricks: 5 x 30 x 2 = 300.
    "drawbridge": (D2, [100, 300]),
    # X2: Bob out with 66, Ann has 25 (< 33): 2.
    "sixtysix": (X2, [1, 2]),
    # 2 cards: Ann bid 2 took 1 (missed, 0); Bob 0/0: 10; Cat 0/0: 10; Dan 1/1: 11.
    "ohhell": (ohhell_hand([2, 0, 0, 1], [1, 0, 0, 1]), [10, 21, 20, 21]),
    # P2's first hand after P1: Ann's Nil +100, Cat 5 of 6 taken: 51; Bob & Dan 4 + 3 of 7: 70.
    "partnership_spades": ({"bids": [0, 4, 5, 3], "tricks": [6, 7], "nil_tricks": [0, None, None, None]}, [202, -10]),
    # C2 after C1's first deal: Ann deals again, the callers (Bob & Dan) take the first seven: a kot.
    "courtpiece": ({"winner": 1, "court": "first7"}, [0, 1]),
}
BIDDING = {
    "spades": {"bids": [7, 4]},
    "drawbridge": {"declarer": 0, "level": 3, "strain": "NT"},
    "ohhell": {"bids": [0, 1, 0, 0]},
    "partnership_spades": {"bids": [3, 4, 2, 4]},
    "courtpiece": {"trumps": "H"},
}
ALL_GAMES = ["spades", "drawbridge", "sixtysix", "ohhell", "partnership_spades", "courtpiece"]
BIDDING_GAMES = ["spades", "drawbridge", "ohhell", "partnership_spades", "courtpiece"]
