"""Restoring is idempotent: a backup restored again adds nothing and says
so, through the page and through manage.py import; "as a copy" adds new
matches and tournaments that count in no player's record or rating."""

from __future__ import annotations

import importlib
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from scorekeeper.backups.export import export_everything, export_match
from scorekeeper.backups.restore import import_backup
from scorekeeper.models import AuditEvent, Entrant, Hand, Match, Player, Round, Seat, Table, Tournament
from scorekeeper.players.selectors import game_ratings, player_page

from ..conftest import play, spades_hand
from ..tournaments.helpers import make, publish_next, tables_of
from .test_backups import empty_the_database

MODELS = (Player, Match, Seat, Hand, Tournament, Entrant, Round, Table)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def club_evening(organiser, make_match) -> str:
    """A Swiss of four with round 1 played (Ann beat Bob, Cat beat Dan) and
    a casual match Ann v Bob that Ann won: the backup of all of it."""
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], rounds=2, name="Spring cup")
    for table in tables_of(publish_next(t, organiser)):
        play(table.match, {"bids": [10, 2], "tricks": [11, 2]})  # seat 1: 101 of 100
    make_match("spades", names=["Ann", "Bob"], options={"target": 100}, hands=[spades_hand([10, 2], [11, 2])])
    return json.dumps(export_everything())


def records() -> dict[str, tuple]:
    """Each player's games and wins of Spades as their page counts them, and their rating."""
    ratings = game_ratings("spades")
    found = {}
    for player in Player.objects.all():
        figures = player_page(player).stats.games.get("spades")
        rating = ratings.get(player.pk)
        found[player.name] = (
            figures.played if figures else 0,
            figures.won if figures else 0,
            round(rating.mu, 6) if rating else None,
        )
    return found


@pytest.mark.django_db
def test_the_same_backup_restored_twice_adds_nothing_the_second_time(organiser, make_match):
    backup = club_evening(organiser, make_match)
    before = records()
    assert before["Ann"][:2] == (2, 2)  # the Swiss table and the casual match
    empty_the_database()

    first = import_backup(backup)
    assert (first.matches, first.tournaments, first.already_here) == (3, 1, [])
    after_first, rows = records(), counts()
    assert after_first == before

    second = import_backup(backup)
    assert (second.matches, second.tournaments) == (0, 0)
    assert counts() == rows and records() == before
    said = " ".join(second.already_here)
    assert "“Spring cup” is already here: restored on" in said
    assert "match 3 (Spades: Ann · Bob) is already here: restored on" in said


@pytest.mark.django_db
def test_restoring_onto_the_server_it_came_from_adds_nothing(organiser, make_match):
    backup = club_evening(organiser, make_match)
    rows, before = counts(), records()
    done = import_backup(backup)
    assert (done.matches, done.tournaments) == (0, 0) and counts() == rows and records() == before
    assert "“Spring cup” is already here: it was made on this server on" in " ".join(done.already_here)


@pytest.mark.django_db
def test_as_a_copy_adds_new_rows_that_count_in_no_record_or_rating(organiser, make_match):
    backup = club_evening(organiser, make_match)
    before, rows = records(), counts()
    done = import_backup(backup, as_copy=True)
    assert (done.matches, done.tournaments, done.as_copy) == (3, 1, True)
    after = counts()
    assert after["Match"] == rows["Match"] + 3 and after["Tournament"] == rows["Tournament"] + 1
    assert after["Player"] == rows["Player"]  # the same four people
    assert records() == before  # every game counted once
    copy = Tournament.objects.get(name="Spring cup (copy)")
    original = Tournament.objects.get(name="Spring cup")
    assert copy.copy_of == original.uid and copy.uid != original.uid
    assert {m.copy_of for m in Match.objects.filter(table__round__tournament=copy)} <= set(
        Match.objects.filter(table__round__tournament=original).values_list("uid", flat=True)
    )
    # Restoring the copy's own backup again is recognised too.
    copy_backup = json.dumps(export_everything())
    again = import_backup(copy_backup)
    assert (again.matches, again.tournaments) == (0, 0)


@pytest.mark.django_db
def test_part_of_a_file_already_here_the_rest_restored(organiser, make_match):
    one = make_match("spades", names=["Ann", "Bob"], hands=[spades_hand([3, 4], [5, 8])])
    first = json.dumps(export_match(one))
    other = make_match("spades", names=["Cat", "Dan"], hands=[spades_hand([3, 4], [5, 8])])
    both = json.dumps(export_everything())
    empty_the_database()
    import_backup(first)
    done = import_backup(both)
    assert done.matches == 1 and len(done.already_here) == 1
    assert sorted(Match.objects.values_list("player_names", flat=True)) == [["Ann", "Bob"], ["Cat", "Dan"]]
    assert other.pk  # made before the database was emptied


@pytest.mark.django_db
def test_twice_through_the_page_and_the_command(web, organiser, make_match, tmp_path, capsys):
    backup = club_evening(organiser, make_match)
    empty_the_database()

    def upload(**extra):
        return web.post("/backup/", {"file": SimpleUploadedFile("b.json", backup.encode()), **extra}, follow=True)

    page = upload().content.decode()
    assert "Restored 3 matches and 1 tournament." in page
    rows, audit = counts(), AuditEvent.objects.count()
    page = upload().content.decode()
    assert "Nothing was restored: everything in this file is already here." in page
    assert "“Spring cup” is already here: restored on" in page and "banner-warning" in page
    assert counts() == rows and AuditEvent.objects.count() == audit

    path = tmp_path / "club.json"
    path.write_text(backup)
    call_command("import", str(path))
    said = capsys.readouterr().out
    assert "Nothing was restored: everything in this file is already here." in said
    assert counts() == rows

    call_command("import", str(path), "--as-copy")
    assert "Restored as a copy: 3 matches and 1 tournament." in capsys.readouterr().out
    assert counts()["Match"] == rows["Match"] + 3


def as_the_migration_does():
    """The uids migration 0009 gives the rows a database held before it."""
    from django.apps import apps

    importlib.import_module("scorekeeper.migrations.0009_backup_identity").give_uids(apps, None)


@pytest.mark.django_db
def test_a_version_1_backup_restored_twice_is_recognised(organiser, make_match):
    """Files written before uids: matches are known by their game and start,
    tournaments by their name, game, format and matches."""
    data = json.loads(club_evening(organiser, make_match))
    data["version"] = 1
    del data["backup_id"]
    for item in data["matches"] + data["tournaments"]:
        del item["uid"], item["copy_of"]
    old = json.dumps(data)
    as_the_migration_does()  # the file was written before the upgrade that gave the rows their uids
    rows = counts()
    done = import_backup(old)  # onto the server it came from
    assert (done.matches, done.tournaments) == (0, 0) and counts() == rows
    empty_the_database()
    assert import_backup(old).matches == 3
    again = import_backup(old)
    assert (again.matches, again.tournaments) == (0, 0)


@pytest.mark.django_db
def test_the_migration_marks_a_backup_restored_twice_before_it_as_a_copy(organiser, make_match):
    """Before uids, a second restore of a file made a second copy of every
    match: the migration keeps the first and marks the second a copy of it,
    so the players' records and ratings count those games once again."""
    backup = club_evening(organiser, make_match)
    before = records()
    empty_the_database()
    import_backup(backup)
    import_backup(backup, as_copy=True)
    Match.objects.update(copy_of=None)  # as a version 1 restore left them: two of each, neither a copy
    Tournament.objects.update(copy_of=None, name="Spring cup")
    doubled = records()
    assert doubled["Ann"][:2] == (4, 4)
    as_the_migration_does()
    assert records() == before
    assert Match.objects.filter(copy_of__isnull=False).count() == 3
    assert Tournament.objects.filter(copy_of__isnull=False).count() == 1
