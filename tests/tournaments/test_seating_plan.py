"""Seated Oh Hell events through the services: the whole event is planned,
so 16 players at tables of four meet everybody exactly once in 5 rounds,
and a drop is planned around."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from scorekeeper.models import Entrant, Round
from scorekeeper.tournaments import ending, services

from .test_services import actor_of, new_tournament, pid, standings_by_name, start_round, tables_of

pytestmark = pytest.mark.django_db


def end_round(rnd: Round, user) -> list[list[int]]:
    """End every table of the round before its first hand (not played: no
    game for anybody); its tables."""
    tables = []
    for table in tables_of(rnd):
        tables.append(list(table.match.seats.order_by("position").values_list("player_id", flat=True)))
        ending.end_table_early(table_id=table.pk, actor=actor_of(user))
    return tables


def met(rounds) -> Counter:
    return Counter(frozenset(pair) for rnd in rounds for table in rnd for pair in combinations(table, 2))


def test_sixteen_players_meet_everybody_exactly_once(organiser):
    names = [f"O{i:02d}" for i in range(16)]
    t = new_tournament(organiser, "ohhell", "seated", names, rounds=5, table_size=4, options={"schedule": "up"})
    played = []
    for number in range(1, 6):
        rnd, _tokens = start_round(t, organiser)
        assert rnd.number == number and rnd.byes == []
        assert sorted(map(len, rnd.proposal)) == [4, 4, 4, 4]
        played.append(end_round(rnd, organiser))
    counts = met(played)
    assert len(counts) == 120 and set(counts.values()) == {1}  # every pair once, none twice
    t.refresh_from_db()
    assert t.status == "finished"
    # no table played a hand: nobody has a game or a point
    rows = standings_by_name(t)
    assert {row.games_played for row in rows.values()} == {0}
    assert {row.match_points for row in rows.values()} == {0}


def test_a_drop_records_its_round_and_the_rest_is_planned_around_it(organiser):
    names = [f"D{i:02d}" for i in range(16)]
    t = new_tournament(organiser, "ohhell", "seated", names, rounds=4, table_size=4, options={"schedule": "up"})
    me = actor_of(organiser)
    played = []
    for _ in range(2):
        rnd, _tokens = start_round(t, organiser)
        played.append(end_round(rnd, organiser))
    services.drop_entrant(tournament_id=t.pk, entrant_id=Entrant.objects.get(player__name="D05").pk, actor=me)
    assert Entrant.objects.get(player__name="D05").dropped_after_round == 2
    for _ in range(2):
        rnd, _tokens = start_round(t, organiser)
        # 15 players: tables of 4, 4, 4 and 3, never 2, never the dropped player
        assert sorted(map(len, rnd.proposal)) == [3, 4, 4, 4]
        assert pid("D05") not in {p for table in rnd.proposal for p in table}
        played.append(end_round(rnd, organiser))
    assert max(met(played).values()) == 1  # nobody sat with anybody twice
    rows = standings_by_name(t)
    assert rows["D05"].dropped and not any(row.dropped for name, row in rows.items() if name != "D05")
    assert {row.games_played for row in rows.values()} == {0}  # no table played a hand


def test_seven_players_never_sit_at_a_table_of_two(organiser):
    names = [f"S{i}" for i in range(7)]
    t = new_tournament(organiser, "ohhell", "seated", names, rounds=3, table_size=4, options={"schedule": "up"})
    for _ in range(3):
        rnd, _tokens = start_round(t, organiser)
        assert sorted(map(len, rnd.proposal)) == [3, 4]
        end_round(rnd, organiser)
    rows = standings_by_name(t)
    assert {row.games_played for row in rows.values()} == {0}  # no table played a hand
