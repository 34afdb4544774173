"""Numbers from a request are ASCII digits. Python's int() reads "٣"
(Arabic-Indic), "３" (fullwidth), "1_0" and a number wrapped in any Unicode
space; no form sends those, and a sheet must never save a value its page
could not have shown. Every number read from a request goes through
``scorekeeper.numbers.plain_int``: the hand's fields, the new match's
options, the new tournament's numbers, the swap's players, the table
cards' ``?round=``; junk gets the usual plain refusal (422 for a field
the person typed, 400 for the address) and nothing is written. The last
test reads the app's source for any other int() of request data."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scorekeeper.audit import Actor
from scorekeeper.models import Hand, Match, Round, Tournament
from scorekeeper.numbers import plain_int
from scorekeeper.tournaments import services

from .conftest import basis, text_of
from .tournaments.helpers import make, publish_next

NOT_PLAIN = [
    "٣",  # Arabic-Indic three
    "３",  # fullwidth
    "²",
    "1_0",
    "+3",
    "3.0",
    "1e3",
    "0x3",
    "\u20033",  # em space before
    "3\u00a0",  # no-break space after
    "\ufeff3",
    "\u202e3",
    "3\x0b",  # a vertical tab is not typed
    "9" * 19,
    "",
    " ",
    "-",
    "--3",
    "3-",
    "NaN",
]


@pytest.mark.parametrize("raw", NOT_PLAIN)
def test_plain_int_refuses_what_a_keyboard_does_not_type(raw):
    assert plain_int(raw) is None


@pytest.mark.parametrize(
    ("raw", "number"), [("7", 7), (" 7 ", 7), ("\t12\n", 12), ("-3", -3), ("007", 7), ("9" * 18, 10**18 - 1)]
)
def test_plain_int_reads_ascii_digits(raw, number):
    assert plain_int(raw) == number


@pytest.mark.django_db
@pytest.mark.parametrize("raw", ["\u20036", "6\u00a0", "٦", "６", "0_6"])
def test_a_hand_with_such_a_number_is_422_and_saves_nothing(web, owned, raw):
    match = owned("spades")
    form = {"bids_0": "4", "bids_1": "5", "tricks_0": raw, "tricks_1": "7", **basis(match)}
    response = web.post(f"/matches/{match.pk}/hands/", form)
    assert response.status_code == 422
    assert "enter a whole number" in text_of(response)
    assert Hand.objects.filter(match=match).count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("raw", ["\u2003500", "500\u00a0", "٥٠٠"])
def test_a_new_match_option_with_such_a_number_is_422(web, raw):
    response = web.post("/matches/new/", {"game": "spades", "opt_target": raw, "seat_0": "Ann", "seat_1": "Bob"})
    assert response.status_code == 422
    assert "enter a whole number" in text_of(response)
    assert Match.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["rounds", "round_minutes", "table_size"])
@pytest.mark.parametrize("raw", ["\u20033", "٣", "1_0"])
def test_a_new_tournament_with_such_a_number_is_422(web, field, raw):
    game = {"game": "ohhell", "format": "seated"} if field == "table_size" else {"game": "spades", "format": "swiss"}
    data = {**game, "name": "Cup", "rounds": "3", field: raw}
    response = web.post("/tournaments/new/", data)
    assert response.status_code == 422
    assert "enter a whole number" in text_of(response)
    assert Tournament.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("raw", ["٣", "\u20031", "1_0", "x"])
def test_the_table_cards_round_in_the_address_must_be_a_number(web, organiser, raw):
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"])
    publish_next(t, organiser)
    assert web.get(f"/tournaments/{t.pk}/cards/?round=1").status_code == 200
    response = web.get(f"/tournaments/{t.pk}/cards/", {"round": raw})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
    assert "not a number" in response.content.decode()


@pytest.mark.django_db
def test_a_swap_of_players_named_by_such_numbers_is_422(web, organiser):
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"])
    rnd = services.propose_round(tournament_id=t.pk, actor=Actor.organiser(organiser))
    a, b = rnd.proposal[0][0], rnd.proposal[1][0]
    lookalike = str(a).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    response = web.post(f"/tournaments/{t.pk}/rounds/{rnd.pk}/swap/", {"player_a": lookalike, "player_b": str(b)})
    assert response.status_code == 422
    assert Round.objects.get(pk=rnd.pk).proposal == rnd.proposal


# int() calls in the app that read no request data, and why.
NOT_FROM_A_REQUEST = {
    "numbers.py": "the helper itself",
    "converters.py": "the URL's own regex admits 1 to 18 ASCII digits",
    "middleware.py": "the clock's seconds, when a session was last seen",
    "templatetags/score_tags.py": "values the templates pass",
    "access/links.py": "the ids in the grant cookie we signed (checked isascii and isdigit)",
    "tournaments/links.py": "the table ids the session keeps",
    "tournaments/selectors.py": "a float of the standings, shown",
    "tournaments/views/public.py": "int(bool) in an ETag",
    "tournaments/standings_cache.py": "int(bool) in a cache key",
    "players/selectors.py": "player ids the statistics keep as text",
    "tournaments/desk.py": "whole seconds and minutes of the clock's own times",
    "tournaments/clock.py": "whole seconds left on a paused round clock",
    "tournaments/views/organiser.py": "the minute in the desk's ETag",
}


def test_no_other_int_of_request_data():
    """Any int(), float() or Decimal() outside the rules engine, the
    pairing and the statistics (which take parsed values) must be one of those above; a new
    number read from a request goes through plain_int."""
    root = Path(__file__).resolve().parent.parent / "scorekeeper"
    found = {}
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(("scoring/", "pairing/", "stats/", "migrations/")):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            called = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            if called and node.func.id in ("int", "float", "Decimal"):
                found.setdefault(rel, []).append(node.lineno)
    unexplained = {rel: lines for rel, lines in found.items() if rel not in NOT_FROM_A_REQUEST}
    assert unexplained == {}, "read numbers from a request with scorekeeper.numbers.plain_int"
    assert "numbers.py" in found and "converters.py" in found  # the scan sees the app
