"""What the score-sheet page tests share: how the entry form posts one hand of
each game, what RULES.md says it scores, and how the page shows totals."""

from __future__ import annotations

import re

from django.urls import reverse

from ..conftest import (
    D1,
    O1,
    S1,
    X1,
)


def url(name, match, *args):
    return reverse(name, args=[match.pk, *args])


def totals_shown(page: str) -> list[int]:
    """The numbers in the totals section, as the table sees them."""
    section = re.search(r'<section id="totals".*?</section>', page, re.S)
    assert section, "no totals section"
    return [int(n) for n in re.findall(r'class="total-score">\s*(-?\d+)\s*<', section.group(0))]


# One hand per game as the entry form posts it, and what RULES.md says it scores.
HAND_POST = {
    # S1: Ann bid 7 took 8: 71; Bob bid 4 took 5: 41.
    "spades": ({"bids_0": "7", "bids_1": "4", "tricks_0": "8", "tricks_1": "5"}, S1[0], [71, 41]),
    # O1: everybody makes the bid: 10 + tricks.
    "ohhell": (
        {f"bids_{i}": b for i, b in enumerate("0100")} | {f"tricks_{i}": t for i, t in enumerate("0100")},
        O1,
        [10, 11, 10, 10],
    ),
    # D1: 3NT made exactly: 40 + 30 + 30.
    "drawbridge": (
        {"declarer": "0", "level": "3", "strain": "NT", "double": "none", "tricks": "9"},
        {**D1, "double": "none"},
        [100, 0],
    ),
    # X1: Ann out with 71, Bob has 38 (33 or more): 1.
    "sixtysix": (
        {"end": "out", "player": "0", "points_0": "71", "points_1": "38", "opponent_took_trick": "yes"},
        X1,
        [1, 0],
    ),
    # P1: Ann & Cat bid 3 + 2, took 6: 51; Bob & Dan bid 4 + 4, took 7: -80 (RULES.md 7).
    "partnership_spades": (
        {"bids_0": "3", "bids_1": "4", "bids_2": "2", "bids_3": "4", "tricks_0": "6", "tricks_1": "7"},
        {"bids": [3, 4, 2, 4], "tricks": [6, 7]},
        [51, -80],
    ),
    # C2: the callers (Bob & Dan) take the first seven tricks: a kot, 1 court (RULES.md 8).
    "courtpiece": ({"winner": "1", "court": "first7"}, {"winner": 1, "court": "first7"}, [0, 1]),
}
# A hand the engine refuses, and (part of) its message.
BAD_HAND_POST = {
    "spades": ({"bids_0": "3", "bids_1": "4", "tricks_0": "6", "tricks_1": "6"}, "tricks add up to 12"),
    "ohhell": (
        {f"bids_{i}": b for i, b in enumerate("0100")} | {f"tricks_{i}": t for i, t in enumerate("1100")},
        "tricks add up to 2",
    ),
    "drawbridge": ({"declarer": "0", "level": "3", "strain": "NT", "tricks": "14"}, "Ann's tricks must be 0 to 13"),
    "sixtysix": (
        {"end": "out", "player": "0", "points_0": "70", "points_1": "12", "opponent_took_trick": "no"},
        "Bob took no trick",
    ),
    "partnership_spades": (
        {"bids_0": "3", "bids_1": "4", "bids_2": "2", "bids_3": "4", "tricks_0": "6", "tricks_1": "6"},
        "tricks add up to 12",
    ),
    "courtpiece": ({"winner": "2"}, "winner must be 0 (Ann & Cat) or 1 (Bob & Dan), got 2"),
}
# What the entry form tells the table about the next hand (RULES.md next_hand, hand 1).
GUIDANCE = {
    "spades": ["<b>Ann</b> draws first", "<b>Bob</b> bids first and leads"],
    "ohhell": ["1 card each", "<b>Ann</b> deals", "<b>Bob</b> bids first and leads"],
    "drawbridge": ["<b>Ann</b> deals and bids first", "Draw half", "<b>Bob</b> leads the first"],
    "sixtysix": ["<b>Ann</b> deals, <b>Bob</b> leads"],
    "partnership_spades": ["<b>Ann</b> deals. <b>Bob</b> bids first and leads."],
    "courtpiece": ["<b>Ann</b> deals. <b>Bob</b> calls trumps and leads."],
}
ALL_GAMES = list(HAND_POST)
