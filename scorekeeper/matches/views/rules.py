"""How a game is scored: one page per game the app offers, for the players
at the table ("why 43?"), in their language. The words are the game's
template (``rules/<game id>.html``); the options, with their defaults,
come from the game's spec, and the worked example is scored by the engine
itself, so the page can never say one thing while the sheet counts
another (docs/rules.md has the same examples)."""

from __future__ import annotations

from functools import cache

from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import select_template
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ...i18n import scorer_names, shown, shown_spec, shown_specs
from ...scoring import GAMES
from ...scoring.engine import run


def _hands(bids_and_tricks):
    return [{"bids": list(bids), "tricks": list(tricks)} for bids, tricks in bids_and_tricks]


# One worked example per game, from the rules' own worked examples
# (docs/rules.md, the numbers of sections 2.7, 3.7, 4.7, 5.7, 7.8 and 8.8).
EXAMPLES = {
    # S3: the sandbagging example, a bag penalty and a set bid.
    "spades": {
        "players": ["Bonnie", "Carl"],
        "hands": _hands([((4, 5), (7, 6)), ((3, 6), (6, 7)), ((4, 4), (9, 4)), ((6, 7), (4, 9))]),
    },
    # D1, D2, D4's passed-out hand and D3, in that order: Bob reaches 500.
    "drawbridge": {
        "players": ["Ann", "Bob"],
        "hands": [
            {"declarer": 0, "level": 3, "strain": "NT", "tricks": 9},
            {"declarer": 1, "level": 4, "strain": "S", "double": "double", "tricks": 11},
            {"passed_out": True},
            {"declarer": 0, "level": 2, "strain": "H", "double": "redouble", "tricks": 7},
        ],
    },
    # X1, X2, X4, X3, X5: each way of winning a deal, until Ann has 7.
    "sixtysix": {
        "players": ["Ann", "Bob"],
        "hands": [
            {"end": "out", "player": 0, "points": [71, 38], "opponent_took_trick": True},
            {"end": "out", "player": 1, "points": [25, 66], "opponent_took_trick": True},
            {"end": "out", "player": 0, "points": [58, 40], "opponent_took_trick": True},
            {"end": "out", "player": 0, "points": [82, 0], "opponent_took_trick": False},
            {
                "end": "closed",
                "player": 1,
                "points": [34, 51],
                "opponent_took_trick": True,
                "opponent_trick_at_close": False,
            },
        ],
    },
    # P2: a Nil made, then a Nil failed (its tricks are bags), side by side.
    "partnership_spades": {
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "hands": [
            {"bids": [0, 4, 5, 3], "tricks": [6, 7], "nil_tricks": [0, None, None, None]},
            {"bids": [4, 0, 3, 5], "tricks": [5, 8], "nil_tricks": [None, 2, None, None]},
        ],
    },
    # C7: three deals agreed, a kot, a goon kot and a plain deal; courts level, deals won decide.
    "courtpiece": {
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "options": {"target": None, "deals": 3},
        "hands": [{"winner": 1, "court": "first7"}, {"winner": 0, "court": "first7"}, {"winner": 0}],
    },
    # O5: a whole 7-player game, ending in a shared win.
    "ohhell": {
        "players": ["A", "B", "C", "D", "E", "F", "G"],
        "hands": _hands(
            [
                ((0, 0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 0, 1)),
                ((1, 0, 0, 0, 0, 0, 0), (1, 1, 0, 0, 0, 0, 0)),
                ((0, 1, 0, 1, 0, 0, 0), (0, 1, 0, 1, 0, 1, 0)),
                ((1, 1, 1, 0, 0, 0, 0), (1, 1, 1, 0, 0, 0, 1)),
                ((2, 0, 1, 1, 0, 0, 1), (2, 0, 1, 1, 0, 0, 1)),
                ((1, 1, 1, 1, 1, 0, 1), (1, 1, 1, 1, 1, 0, 1)),
                ((2, 1, 1, 1, 1, 0, 1), (1, 2, 1, 1, 1, 0, 1)),
            ]
        ),
    },
}


@cache
def _scored_example(game_id: str) -> dict:
    """The example as the engine scores it (English Text, translated when shown)."""
    return run({"game": game_id, **EXAMPLES[game_id]}, explain=True)


def _example(game_id: str) -> dict:
    example, result = EXAMPLES[game_id], _scored_example(game_id)
    # A column per player, or per side of partners ("Ann & Cat") where the game has sides.
    names = scorer_names(GAMES[game_id].spec, example["players"])
    sides = GAMES[game_id].spec.has_sides
    rows = []
    for number, (entry, hand) in enumerate(zip(example["hands"], result["hands"], strict=True), start=1):
        why = shown(hand["why"])
        rows.append(
            {
                "number": number,
                "hand": hand,  # its details: Oh Hell's cards and trumps
                "cells": [
                    {
                        "points": hand["points"][seat],
                        "total": hand["totals"][seat],
                        "why": why[seat],
                        "bid": entry["bids"][seat] if "bids" in entry and not sides else None,
                        "took": entry["tricks"][seat] if "bids" in entry and not sides else None,
                    }
                    for seat in range(len(names))
                ],
            }
        )
    return {"names": names, "rows": rows, "totals": result["totals"]}


def _default_words(option) -> str:
    """An option's default as the new-match form would show it chosen."""
    if option.default is None:  # an option that may be off, off unless set (a losing score)
        return _("off")
    if option.kind == "bool":
        return _("on") if option.default else _("off")
    if option.kind == "choice":
        return dict(option.choices).get(option.default, option.default)
    return option.default


@require_GET
def game_rules(request: HttpRequest, game_id: str) -> HttpResponse:
    if game_id not in GAMES:
        raise Http404("No such game")
    spec = shown_spec(GAMES[game_id].spec)
    context = {
        "spec": spec,
        "options": [(option, _default_words(option)) for option in spec.options],
        "target": next((o.default for o in spec.options if o.name == "target"), None),
        "example": _example(game_id) if game_id in EXAMPLES else None,
        "others": [s for s in shown_specs() if s.id != game_id],
    }
    # A game added without its own words (rules/<id>.html) still has a
    # page: its summary and options, as the new-match page shows them.
    template = select_template([f"rules/{game_id}.html", "rules/page.html"])
    context["own_words"] = template.origin.template_name != "rules/page.html"
    return HttpResponse(template.render(context, request))
