"""A database from before a migration keeps what it held."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@pytest.mark.django_db(transaction=True)
def test_matches_of_an_older_database_get_their_players_names_in_seat_order():
    executor = MigrationExecutor(connection)
    before, after = [("scorekeeper", "0003_game_from_the_registry")], [("scorekeeper", "0004_match_player_names")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Match, Player, Seat = (old.get_model("scorekeeper", name) for name in ("Match", "Player", "Seat"))
    match = Match.objects.create(game="ohhell", totals=[0, 0, 0])
    for position, name in [(2, "Cat"), (0, "Ann"), (1, "Bob")]:
        Seat.objects.create(match=match, player=Player.objects.create(name=name, key=name.lower()), position=position)
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    assert new.get_model("scorekeeper", "Match").objects.get(pk=match.pk).player_names == ["Ann", "Bob", "Cat"]
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_links_of_an_older_database_are_replaced_and_close_for_matches_already_over():
    """0007: no token hash is kept; the matches already over get their links
    closed; a device that had opened a link before keeps scoring with it."""
    from django.http import HttpResponse
    from django.test import Client

    from scorekeeper.access.links import GRANT_COOKIE, GRANT_SALT, find_link, token_for
    from scorekeeper.models import AccessLink
    from scorekeeper.models import Match as NewMatch

    executor = MigrationExecutor(connection)
    before = [("scorekeeper", "0006_tournament_seed_by_rating")]
    after = [("scorekeeper", "0007_scoring_links_derived_and_closed_when_ended")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Match, Player, Seat, Link = (old.get_model("scorekeeper", n) for n in ("Match", "Player", "Seat", "AccessLink"))
    ann, bob = Player.objects.create(name="Ann", key="ann"), Player.objects.create(name="Bob", key="bob")
    matches = {}
    for status in ("in_progress", "finished", "abandoned"):
        match = Match.objects.create(
            game="spades", status=status, totals=[0, 0], player_names=["Ann", "Bob"], options={"target": 500}
        )
        Seat.objects.create(match=match, player=ann, position=0)
        Seat.objects.create(match=match, player=bob, position=1)
        Link.objects.create(match=match, token_hash=f"{status:x<64}"[:64], label=status)
        matches[status] = match.pk
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    closed = dict(new.get_model("scorekeeper", "Match").objects.values_list("pk", "links_closed_at"))
    assert closed[matches["in_progress"]] is None
    assert closed[matches["finished"]] is not None and closed[matches["abandoned"]] is not None
    assert "token_hash" not in [f.name for f in new.get_model("scorekeeper", "AccessLink")._meta.fields]
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    link = AccessLink.objects.get(match_id=matches["in_progress"])
    assert link.generation == 1 and find_link(token_for(link)) == link
    # A grant cookie of the old kind (the bare link id, no tag) opens nothing any more: anyone
    # who knew the server's key could write one. The device opens its link again.
    cookie = HttpResponse()
    cookie.set_signed_cookie(GRANT_COOKIE, str(link.pk), salt=GRANT_SALT)
    device = Client()
    device.cookies[GRANT_COOKIE] = cookie.cookies[GRANT_COOKIE].value
    form = {"bids_0": "3", "bids_1": "3", "tricks_0": "6", "tricks_1": "7", "number": "1", "bidding": "none"}
    assert device.post(f"/matches/{link.match_id}/hands/", {**form, "client_key": "k" * 32}).status_code == 403
    assert device.post(f"/l/{token_for(link)}/").status_code == 302
    assert device.post(f"/matches/{link.match_id}/hands/", {**form, "client_key": "k" * 32}).status_code == 302
    assert NewMatch.objects.get(pk=link.match_id).hands_played == 1
    # ...until the link is reissued or revoked (its generation moves on).
    AccessLink.objects.filter(pk=link.pk).update(generation=2)
    form["number"] = "2"
    assert device.post(f"/matches/{link.match_id}/hands/", {**form, "client_key": "j" * 32}).status_code == 403


@pytest.mark.django_db(transaction=True)
def test_every_match_and_tournament_gets_its_uid_and_a_doubled_restore_is_marked_a_copy():
    """0009: the rows get the uid a version 1 backup of them is known by; a
    match that an old restore had made twice (same game, same start) keeps
    its first, and the second becomes a copy of it."""
    from datetime import UTC, datetime

    from scorekeeper.backups.identity import legacy_match_uid

    executor = MigrationExecutor(connection)
    before, after = [("scorekeeper", "0008_round_clock")], [("scorekeeper", "0009_backup_identity")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Match = old.get_model("scorekeeper", "Match")
    started = datetime(2026, 11, 20, 19, 30, 5, 123456, tzinfo=UTC)
    ids = []
    for _ in range(2):
        match = Match.objects.create(game="spades", totals=[0, 0], player_names=["Ann", "Bob"])
        Match.objects.filter(pk=match.pk).update(created_at=started)
        ids.append(match.pk)
    other = Match.objects.create(game="ohhell", totals=[0, 0, 0], player_names=["A", "B", "C"]).pk
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps.get_model("scorekeeper", "Match")
    first, second, third = (new.objects.get(pk=pk) for pk in (*ids, other))
    assert first.uid == legacy_match_uid("spades", started) and first.copy_of is None
    assert second.uid != first.uid and second.copy_of == first.uid
    assert third.uid not in (first.uid, second.uid) and third.copy_of is None
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_a_match_being_played_keeps_its_newest_change_for_the_live_note():
    """0013: the newest change of a match in progress is taken from its log
    once; from then on the note reads the match's row."""
    from django.test import Client
    from django.urls import reverse

    from scorekeeper.models import Match as NewMatch

    from .conftest import HX

    executor = MigrationExecutor(connection)
    before, after = [("scorekeeper", "0012_entrant_partner")], [("scorekeeper", "0013_match_last_change")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Match, Link, Event = (old.get_model("scorekeeper", n) for n in ("Match", "AccessLink", "AuditEvent"))
    playing = Match.objects.create(game="spades", totals=[43, 51], player_names=["Ann", "Bob"], hands_played=1)
    link = Link.objects.create(match=playing, label="table 7")
    Event.objects.create(match=playing, link=link, actor="device", action="hand recorded", hand_number=1)
    Event.objects.create(match=playing, link=link, actor="device", action="link revoked")  # not a change of the sheet
    over = Match.objects.create(game="spades", status="finished", player_names=["Cat", "Dan"])
    Event.objects.create(match=over, actor="organiser", action="hand recorded", hand_number=9)
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    kept = NewMatch.objects.get(pk=playing.pk).last_change
    assert (kept["action"], kept["hand"], kept["link"], kept["user"]) == ("hand recorded", 1, "table 7", None)
    assert NewMatch.objects.get(pk=over.pk).last_change is None  # over: nobody's sheet is waiting for a note
    # A sheet drawn before hand 1 (version 1) is told what happened, in words.
    answer = Client().get(reverse("match_changed", args=[playing.pk]), HTTP_IF_NONE_MATCH='"0-en"', **HX)
    assert "Hand 1 was saved on the phone with the link “table 7”." in answer.content.decode()
