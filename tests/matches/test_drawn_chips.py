"""The chip groups are drawn once and reused (issue 26): what is reused is
exactly what would be drawn afresh, for every game, language, choice,
value and error, and another value or error is never answered with the
groups drawn for the first."""

from __future__ import annotations

import pytest
from django.utils import translation

from scorekeeper.i18n import shown_spec
from scorekeeper.scoring import get_game
from scorekeeper.templatetags import score_tags

CASES = [
    ("spades", ["Ann", "Bob"], {}, {}),
    ("spades", ["Ann", "Bob"], {"bids_0": "4"}, {}),
    ("spades", ["Ann", "Bob"], {"bids_0": "4"}, {"bids_1": "Fill in Bob's bid."}),
    ("ohhell", ["Ann", "Bob", "Cat", "Dan", "Eve"], {}, {}),
    ("partnership_spades", ["Ann", "Bob", "Cat", "Dan"], {"bids_2": "blind_nil"}, {}),
]


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_reused_groups_are_the_groups_drawn_afresh(lang):
    with translation.override(lang):
        drawn = set()
        for game, names, values, errors in CASES:
            spec = shown_spec(get_game(game).spec)
            choices = score_tags.field_choices(spec, "bids", 13 if game != "ohhell" else 5)
            seats = list(range(len(names)))[::-1]
            heads = [(name, name[:2]) for name in names]
            afresh = score_tags._seat_chips(
                spec, "bids", seats, names, choices, values, errors, False, "", heads, None, [1, 3]
            )
            for _ in range(2):  # drawn, then found
                assert (
                    score_tags.seat_chips(
                        spec, "bids", seats, names, choices, values, errors, heads=heads, wide_for=[1, 3]
                    )
                    == afresh
                )
            drawn.add(afresh)
        assert len(drawn) == len(CASES)  # another value or error: other groups
        checked = score_tags.seat_chips(
            shown_spec(get_game("spades").spec), "bids", [1, 0], ["Ann", "Bob"],
            score_tags.field_choices(shown_spec(get_game("spades").spec), "bids", 13), {"bids_0": "4"}, {},
        )  # fmt: skip
        assert 'name="bids_0" value="4" checked' in checked
