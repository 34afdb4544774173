"""score_with_hints is score_match and entry_hints in one pass: same answers."""

import pytest

from scorekeeper.scoring import entry_hints, score_match, score_with_hints

MATCHES = [
    {"game": "spades", "players": ["Ann", "Bob"], "hands": [{"bids": [7, 4], "tricks": [8, 5]}]},
    {
        "game": "ohhell",
        "players": ["A", "B", "C", "D"],
        "options": {"hook": True},
        "hands": [{"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]}],
    },
    {
        "game": "drawbridge",
        "players": ["Ann", "Bob"],
        "options": {"target": 200},
        "hands": [{"declarer": 0, "level": 6, "strain": "NT", "double": "double", "tricks": 12}],
    },  # D5: finished
    {"game": "sixtysix", "players": ["Ann", "Bob"], "hands": []},
]


@pytest.mark.parametrize("match", MATCHES, ids=[m["game"] for m in MATCHES])
def test_same_as_score_match_and_entry_hints(match):
    bidding = {"bids": [None, 0, None, 1]} if match["game"] == "ohhell" else None
    result, hints = score_with_hints(match, bidding)
    assert result == score_match(match)
    assert hints == entry_hints(match, bidding)


def test_no_hints_once_the_game_is_over():
    result, hints = score_with_hints(MATCHES[2])
    assert result["finished"] is True and result["winners"] == [0]
    assert hints == {}
