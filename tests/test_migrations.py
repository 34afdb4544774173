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
