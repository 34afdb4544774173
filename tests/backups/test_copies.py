"""Copies of the SQLite database while an event runs: made after every
round and when a match finishes, whole and restorable, the newest 20 kept;
``manage.py restore_copy`` puts one back."""

from __future__ import annotations

import sqlite3

import pytest
from django.core.management import CommandError, call_command

from scorekeeper.backups import copies
from scorekeeper.models import Match, Round
from scorekeeper.tournaments import services

from ..conftest import ON_SQLITE, play, spades_hand
from ..tournaments.helpers import make, publish_next, tables_of

pytestmark = pytest.mark.skipif(not ON_SQLITE, reason="PostgreSQL keeps no copies: pg_dump or the host's backups")


@pytest.fixture
def folder(settings, tmp_path):
    settings.DATABASE_COPIES_DIR = tmp_path / "backups"
    return settings.DATABASE_COPIES_DIR


def hands_in(path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT COUNT(*) FROM scorekeeper_hand").fetchone()[0]
    finally:
        db.close()


@pytest.mark.django_db(transaction=True)
def test_a_completed_round_and_a_finished_match_leave_a_copy(folder, organiser, make_match):
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], rounds=2)
    first, second = tables_of(publish_next(t, organiser))
    play(first.match, {"bids": [10, 2], "tricks": [11, 2]})  # the match is over: a copy
    made = copies.copies()
    assert len(made) == 1 and "match" in made[0].name and hands_in(made[0]) == 1
    play(second.match, {"bids": [10, 2], "tricks": [11, 2]})  # within 30 s of the last copy: none for the match...
    services.complete_rounds(tournament_id=t.pk)
    made = copies.copies()
    assert Round.objects.get(tournament=t).status == Round.Status.COMPLETE
    assert len(made) == 2 and "round-1" in made[-1].name  # ...but the round's copy is always made
    assert hands_in(made[-1]) == 2 and copies.check_copy(made[-1]) is None
    make_match("spades", hands=[spades_hand([3, 4], [5, 8])])  # a match not over: no copy
    assert len(copies.copies()) == 2


@pytest.mark.django_db(transaction=True)
def test_the_newest_twenty_are_kept(folder, settings):
    for i in range(25):
        copies.make_copy(f"test {i}")
    kept = copies.copies()
    assert len(kept) == settings.DATABASE_COPIES_KEPT == 20
    assert kept[0].name.endswith("-test-5.sqlite3") and kept[-1].name.endswith("-test-24.sqlite3")
    assert not list(folder.glob("*.partial"))


@pytest.mark.django_db(transaction=True)
def test_a_copy_restores_with_the_command(folder, make_match, capsys):
    match = make_match("spades", hands=[spades_hand([3, 4], [5, 8])])
    copy = copies.make_copy("before the mistake")
    play(match, spades_hand([3, 4], [5, 8]))
    Match.objects.create(game="spades", player_names=["X", "Y"])
    assert Match.objects.count() == 2
    call_command("restore_copy")  # lists them
    assert copy.name in capsys.readouterr().out
    call_command("restore_copy", str(copy))
    said = capsys.readouterr().out
    assert f"Restored {copy}" in said and "kept in" in said
    assert Match.objects.count() == 1 and Match.objects.get().hands.count() == 1
    # The database as it was before the restore is kept as a copy too.
    before = [p for p in copies.copies() if "before-restoring" in p.name]
    assert len(before) == 1 and hands_in(before[0]) == 2


@pytest.mark.django_db(transaction=True)
def test_a_file_that_is_not_a_copy_is_refused(folder, tmp_path, make_match):
    make_match("spades")
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    for path, words in ((junk, "not an SQLite database"), (other, "not Scorekeeper's"), (tmp_path / "none", "no file")):
        with pytest.raises(CommandError, match=words):
            call_command("restore_copy", str(path))
    assert Match.objects.count() == 1
