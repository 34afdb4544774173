"""Hostile backup files: every one is refused with a message in words and
changes nothing, through the service, the Backups page (422) and
``manage.py import`` (exit status 2), on SQLite and on PostgreSQL."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from scorekeeper.backups.export import export_everything
from scorekeeper.backups.restore import import_backup
from scorekeeper.errors import ServiceError
from scorekeeper.models import AuditEvent

from ..conftest import play, spades_hand
from ..tournaments.helpers import make, publish_next, tables_of
from .test_backups import empty_the_database
from .test_restore_twice import MODELS

HUGE = 10**100


def tournament(d):
    return d["tournaments"][0]


def first_round(d):
    return tournament(d)["rounds"][0]


def first_table(d):
    return first_round(d)["tables"][0]


def lone_match(d):
    at_tables = {t["match"] for r in tournament(d)["rounds"] for t in r["tables"]}
    return next(m for m in d["matches"] if m["id"] not in at_tables)


def table_match(d):
    return next(m for m in d["matches"] if m["id"] == first_table(d)["match"])


def player_named(d, name):
    return next(p for p in d["players"] if p["name"] == name)


def set_in(get, key, value):
    def damage(d):
        get(d)[key] = value

    return damage


def bad_values(get, key, values, name):
    return [pytest.param(set_in(get, key, v), id=f"{name}={v!r}"[:40]) for v in values]


NOT_WHOLE = [HUGE, -HUGE, "3", 1.5, True, None, [1], {"n": 1}]

DAMAGES = [
    *bad_values(tournament, "planned_rounds", [*NOT_WHOLE, -1, 31], "planned_rounds"),
    *bad_values(first_round, "number", [*NOT_WHOLE, -1, 0, 2], "round number"),
    *bad_values(first_table, "number", [*NOT_WHOLE, -1, 0, 10_001], "table number"),
    *bad_values(tournament, "round_minutes", [HUGE, -5, 0, "30", 1.5, True, 24 * 60 + 1], "round_minutes"),
    *bad_values(tournament, "seed", [HUGE, -1, "x", 1.5, True, 2**31], "seed"),
    *bad_values(tournament, "table_size", [99, 2, "4", True], "table_size"),
    *bad_values(lambda d: tournament(d)["entrants"][0], "dropped_after_round", [HUGE, -1, "1", 1.5, True, 3], "drop"),
    *bad_values(lambda d: d, "version", [True, 1.0, "2", 3, 0, None], "version"),
    *bad_values(lambda d: d, "players", [{}, "Ann", 3], "players"),
    *bad_values(lambda d: d, "matches", [{}, "x", 3], "matches"),
    *bad_values(lambda d: d, "backup_id", ["not a uid", 3, None], "backup_id"),
    *bad_values(lone_match, "uid", ["not a uid", 3, None], "match uid"),
    *bad_values(tournament, "uid", ["nope", None], "tournament uid"),
    *bad_values(lone_match, "abandoned", ["yes", 1, None], "abandoned"),
    *bad_values(tournament, "public", [1, "no", None], "public"),
    *bad_values(tournament, "confirm_hands", [0, "true"], "confirm_hands"),
    *bad_values(lone_match, "created_at", ["yesterday", 12345, "2026-13-45T00:00:00", "x" * 100], "created_at"),
    *bad_values(first_round, "published_at", ["soon", 5], "published_at"),
    *bad_values(lone_match, "hands", [{}, "hands", [["a"]], [{"bids": [3, 4], "tricks": [14, 5]}]], "hands"),
    *bad_values(lone_match, "options", [[], "fast", {"target": "lots"}, {"target": HUGE}], "options"),
    *bad_values(tournament, "options", [[], {"target": -5}], "tournament options"),
    *bad_values(lone_match, "confirmations", [["confirmed"] * 5, ["maybe"], "yes"], "confirmations"),
    *bad_values(lone_match, "bids_in_play", [{"bids": [99, 1]}, "bids", [1, 2]], "bids_in_play"),
    *bad_values(lone_match, "game", ["poker", 3, None], "game"),
    *bad_values(tournament, "format", ["seated", "knockout", None], "format"),
    *bad_values(tournament, "status", ["over", None], "status"),
    *bad_values(first_round, "status", ["done", None], "round status"),
    *bad_values(first_round, "proposal", ["x", [3], [[999]]], "proposal"),
    *bad_values(first_round, "byes", ["Ann", [999], [True]], "byes"),
    *bad_values(first_round, "paused_remaining", [-1, HUGE, "60"], "paused_remaining"),
    *bad_values(tournament, "name", ["", "   ", 3, None, "x" * 101, "Spring\x00cup", "Spring\x07cup"], "name"),
    pytest.param(lambda d: player_named(d, "Ann").update(name="An\x00n"), id="NUL in a player's name"),
    pytest.param(lambda d: player_named(d, "Ann").update(name="Ann\x1b[31m"), id="escape in a player's name"),
    pytest.param(lambda d: player_named(d, "Ann").update(name="A" * 41), id="a name too long"),
    pytest.param(lambda d: player_named(d, "Ann").update(name=None), id="no name"),
    pytest.param(lambda d: lone_match(d)["options"].update({"bad\x00key": True}), id="NUL in a key"),
    pytest.param(lambda d: lone_match(d).update(note="x" * 3000), id="a text of 3000 characters"),
    pytest.param(lambda d: tournament(d)["entrants"].append(dict(tournament(d)["entrants"][0])), id="entrant twice"),
    pytest.param(
        lambda d: tournament(d)["entrants"].append({"player": 777, "dropped_after_round": None}), id="entrant unknown"
    ),
    pytest.param(
        lambda d: first_round(d)["tables"][1].update(number=first_table(d)["number"]), id="two tables, one number"
    ),
    pytest.param(lambda d: first_round(d)["tables"].append(dict(first_table(d))), id="a match at two tables"),
    pytest.param(lambda d: first_table(d).update(match=12345), id="a table's match not in the file"),
    pytest.param(lambda d: first_table(d).update(match=lone_match(d)["id"]), id="a table of a match not entered"),
    pytest.param(lambda d: tournament(d)["rounds"].append(copy.deepcopy(first_round(d))), id="round 1 twice"),
    pytest.param(lambda d: d["players"].append(dict(d["players"][0])), id="two players, one number"),
    pytest.param(
        lambda d: d["players"].append({"id": 4242, "name": "ann"}) or table_match(d)["players"].__setitem__(1, 4242),
        id="Ann and ann at one table",
    ),
    pytest.param(lambda d: table_match(d).update(players=[table_match(d)["players"][0]] * 2), id="one player twice"),
    pytest.param(lambda d: d["matches"].append(dict(lone_match(d), id=9999)), id="two matches, one uid"),
    pytest.param(lambda d: d["matches"].append(dict(lone_match(d))), id="two matches, one number"),
    pytest.param(lambda d: d["tournaments"].append(copy.deepcopy(tournament(d))), id="a tournament twice"),
    pytest.param(lambda d: tournament(d).update(status="registration"), id="registration with rounds"),
    pytest.param(lambda d: d.update(schema="other"), id="another schema"),
]

RAW = [
    pytest.param(b"[" * 10_000 + b"]" * 10_000, id="nested 10,000 deep"),
    pytest.param(b'{"a":' * 40 + b"1" + b"}" * 40, id="nested 40 deep"),
    pytest.param(b"", id="empty"),
    pytest.param(b"null", id="null"),
    pytest.param(b"[]", id="a list"),
    pytest.param(b"\xff\xfe\x00garbage", id="not UTF-8"),
    pytest.param(b'{"schema": "scorekeeper-backup", "version": NaN}', id="NaN"),
    pytest.param(b'{"schema": "scorekeeper-backup", "version": 2, "x": Infinity}', id="Infinity"),
    pytest.param(b'{"schema": "scorekeeper-backup", "version": ' + b"9" * 5000 + b"}", id="5000 digits"),
    pytest.param(b'{"schema": "scorekeeper-backup", "version": 1, "matches": 3}', id="matches not a list"),
]


@pytest.fixture
def backup(organiser, make_match) -> dict:
    """A Swiss of four, round 1 played, and a casual match: as exported, then
    emptied out of the database, so a good restore would add everything."""
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], rounds=2, name="Spring cup")
    for table in tables_of(publish_next(t, organiser)):
        play(table.match, {"bids": [10, 2], "tricks": [11, 2]})
    make_match("spades", names=["Ann", "Eve"], options={"target": 100}, hands=[spades_hand([3, 4], [5, 8])])
    data = export_everything()
    empty_the_database()
    return data


def rows() -> dict:
    return {model.__name__: model.objects.count() for model in (*MODELS, AuditEvent)}


def refused_everywhere(raw: bytes, web, tmp_path) -> str:
    """The file through the service, the page and the command: each refuses
    it in words and nothing changes. Returns the service's message."""
    before = rows()
    with pytest.raises(ServiceError) as refused:
        import_backup(raw)
    message = refused.value.message
    assert message.startswith("Nothing was imported: ") and len(message) < 400
    assert rows() == before

    page = web.post("/backup/", {"file": SimpleUploadedFile("hostile.json", raw)})
    assert page.status_code == 422
    assert "Nothing was imported: " in page.content.decode()
    assert rows() == before

    path = tmp_path / "hostile.json"
    path.write_bytes(raw)
    with pytest.raises(CommandError) as command:
        call_command("import", str(path))
    assert command.value.returncode == 2 and str(command.value) == message
    assert rows() == before
    return message


@pytest.mark.django_db
def test_the_untouched_file_restores(backup):
    """The files below differ from this one by one damage each."""
    assert import_backup(json.dumps(backup)).matches == 3


@pytest.mark.django_db
@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_file_is_refused_in_words_and_changes_nothing(backup, damage, web, tmp_path):
    damage(backup)
    refused_everywhere(json.dumps(backup).encode(), web, tmp_path)


@pytest.mark.django_db
@pytest.mark.parametrize("raw", RAW)
def test_a_file_that_is_not_a_backup_is_refused_in_words(raw, web, tmp_path):
    refused_everywhere(raw, web, tmp_path)


@pytest.mark.django_db
def test_the_messages_say_what_and_where(backup, web, tmp_path):
    cases = [
        (set_in(tournament, "planned_rounds", HUGE), "the file holds a number too large for a backup (101 digits)"),
        (set_in(tournament, "planned_rounds", 1.5), "every number in a backup is whole"),
        (set_in(tournament, "planned_rounds", True), "the number of rounds must be a whole number from 0 to 30"),
        (set_in(lambda d: d, "version", True), "the backup's version is true"),
        (lambda d: player_named(d, "Ann").update(name="An\x00n"), "control character (such as NUL)"),
        (lambda d: tournament(d)["entrants"].append(dict(tournament(d)["entrants"][0])), "Ann is entered twice"),
        (
            lambda d: first_round(d)["tables"][1].update(number=first_table(d)["number"]),
            "tournament 1 (Spring cup), round 1: two tables have the number 1",
        ),
        (
            lambda d: (
                d["players"].append({"id": 4242, "name": "ann"}) or table_match(d)["players"].__setitem__(1, 4242)
            ),
            "“Ann” and “ann” are one player here",
        ),
    ]
    for damage, words in cases:
        data = copy.deepcopy(backup)
        damage(data)
        message = refused_everywhere(json.dumps(data).encode(), web, tmp_path)
        assert words in message, (words, message)
    deep = refused_everywhere(b"[" * 10_000 + b"]" * 10_000, web, tmp_path)
    assert "nested too deeply" in deep
