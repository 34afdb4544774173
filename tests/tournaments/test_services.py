"""Tournament services, selectors, links and exports (scorekeeper.tournaments):
whole small events of each format from registration to the final standings,
played through the match services with legal hands (``play`` and ``bid``
from tests/conftest.py, as a current page sends them).

Expected match points are worked out by hand from the rules in
scorekeeper/tournaments/__init__.py (win 2, draw 1, loss 0, bye 2; Oh Hell:
place p of k earns 2 * (k - p) / (k - 1), ties share; a table ended before
its first hand is no game), from the results each test decides
itself ("the player registered first wins"), never read back from the
standings code.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from fractions import Fraction

import pytest
from django.utils import timezone

from scorekeeper.access.links import find_link
from scorekeeper.audit import Actor
from scorekeeper.errors import ServiceError
from scorekeeper.models import AccessLink, AuditEvent, Entrant, Hand, Match, Player, Round, Table, Tournament
from scorekeeper.tournaments import ending, exports, links, selectors, services

from ..conftest import bid, play

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ helpers


def actor_of(user) -> Actor:
    return Actor.organiser(user)


def new_tournament(user, game="spades", fmt="swiss", names=(), **kwargs) -> Tournament:
    kwargs.setdefault("confirm_hands", False)  # confirmation: tests/matches/test_confirmation.py
    t = services.create_tournament(
        name=kwargs.pop("name", "Club night"), game=game, format=fmt, actor=actor_of(user), **kwargs
    )
    if names:
        services.register_players(tournament_id=t.pk, text="\n".join(names), actor=actor_of(user))
    return t


def pid(name: str) -> int:
    return Player.objects.get(name=name).pk


def name_of(player_id: int) -> str:
    return Player.objects.get(pk=player_id).name


def start_round(t: Tournament, user) -> tuple[Round, dict[int, str]]:
    rnd = services.propose_round(tournament_id=t.pk, actor=actor_of(user))
    tokens = services.publish_round(round_id=rnd.pk, actor=actor_of(user))
    rnd.refresh_from_db()
    return rnd, tokens


def tables_of(rnd: Round) -> list[Table]:
    return list(Table.objects.filter(round=rnd).select_related("match").order_by("number"))


def seat_ids(table: Table) -> list[int]:
    return list(table.match.seats.order_by("position").values_list("player_id", flat=True))


def order_key(player_id: int) -> int:
    """Registration order: who 'is stronger' in these tests (registered first wins)."""
    return Entrant.objects.get(player_id=player_id).pk


def spades_win(match: Match, seat: int) -> None:
    """One hand to 100: the winner bids 10 and takes 11 (101), the other
    bids 2 and takes 2 (20)."""
    bids, tricks = [2, 2], [2, 2]
    bids[seat], tricks[seat] = 10, 11
    play(match, {"bids": bids, "tricks": tricks})


def sixtysix_win(match: Match, seat: int) -> None:
    """Target 1: one deal won 'out' (66 to 40, the loser took a trick) ends it, 1 game point."""
    points = [40, 40]
    points[seat] = 66
    play(match, {"end": "out", "player": seat, "points": points, "opponent_took_trick": True})


def play_two_player(table: Table, win) -> int:
    """The player registered first wins; returns the winner's player id."""
    ids = seat_ids(table)
    winner_seat = min(range(2), key=lambda s: order_key(ids[s]))
    win(table.match, winner_seat)
    table.match.refresh_from_db()
    assert table.match.status == Match.Status.FINISHED
    return ids[winner_seat]


def play_oh_hell(table: Table) -> int:
    """Every hand: the player registered first at the table bids all the
    cards and takes them, everybody else bids and takes 0 (all made). Plays
    the whole 'up' schedule; returns that player's id."""
    ids = seat_ids(table)
    star = min(range(len(ids)), key=lambda s: order_key(ids[s]))
    cards = 0
    while True:
        match = Match.objects.get(pk=table.match_id)
        if match.status == Match.Status.FINISHED:
            return ids[star]
        cards += 1
        bids = [0] * len(ids)
        bids[star] = cards
        play(match, {"bids": bids, "tricks": list(bids)})


def standings_by_name(t: Tournament) -> dict[str, selectors.StandingRow]:
    return {row.name: row for row in selectors.standings(t).rows}


def points(t: Tournament) -> dict[str, float]:
    return {name: row.match_points for name, row in standings_by_name(t).items()}


def ranks(t: Tournament) -> dict[str, int]:
    return {name: row.rank for name, row in standings_by_name(t).items()}


# ---------------------------------------------------------------- creation


def test_create_tournament_validates_and_seeds(organiser):
    t = services.create_tournament(
        name="  Spring   Cup ",
        game="spades",
        format="swiss",
        rounds=3,
        options={"target": 100},
        round_minutes=30,
        actor=actor_of(organiser),
    )
    assert t.name == "Spring Cup"
    assert (t.planned_rounds, t.round_minutes, t.owner, t.status) == (3, 30, organiser, "registration")
    assert 0 <= t.seed < 2**31
    assert AuditEvent.objects.filter(tournament=t, action="tournament created").count() == 1


@pytest.mark.parametrize(
    ("kwargs", "code", "words"),
    [
        ({"game": "spades", "format": "seated", "rounds": 3}, "format", "Spades is a two-player game"),
        ({"game": "ohhell", "format": "swiss", "rounds": 3}, "format", "choose seated rounds"),
        ({"game": "ohhell", "format": "round_robin"}, "format", "choose seated rounds"),
        ({"game": "chess", "format": "swiss", "rounds": 3}, "game", "Choose one of the games"),
        ({"game": "spades", "format": "swiss"}, "rounds", "number of rounds"),
        ({"game": "spades", "format": "swiss", "rounds": 0}, "rounds", "number of rounds"),
        ({"game": "ohhell", "format": "seated", "rounds": 2, "table_size": 8}, "table_size", "3 to 7"),
        ({"game": "spades", "format": "swiss", "rounds": 2, "round_minutes": 0}, "round_minutes", "time limit"),
        ({"game": "spades", "format": "swiss", "rounds": 2, "options": {"target": 0}}, "options", "target"),
        (
            {
                "game": "ohhell",
                "format": "seated",
                "rounds": 2,
                "options": {"hook": True, "simultaneous_bidding": True},
            },
            "options",
            "",
        ),
        ({"game": "spades", "format": "swiss", "rounds": 2, "name": "  "}, "name", "needs a name"),
    ],
)
def test_create_tournament_refuses_with_a_plain_message(organiser, kwargs, code, words):
    kwargs = {"name": "Cup", **kwargs}
    with pytest.raises(ServiceError) as error:
        services.create_tournament(actor=actor_of(organiser), **kwargs)
    assert error.value.field == code
    assert words.lower() in error.value.message.lower()
    assert not Tournament.objects.exists()


def test_a_round_robin_works_out_its_rounds_from_the_field(organiser):
    even = new_tournament(organiser, "sixtysix", "round_robin", [f"E{i}" for i in range(1, 7)], name="even")
    odd = new_tournament(organiser, "sixtysix", "round_robin", [f"O{i}" for i in range(1, 6)], name="odd")
    double = new_tournament(organiser, "spades", "double_round_robin", [f"D{i}" for i in range(1, 5)], name="dbl")
    assert even.planned_rounds == 0  # not known before the start
    for t, rounds, tables, byes in ((even, 5, 3, 0), (odd, 5, 2, 1), (double, 6, 2, 0)):
        rnd = services.propose_round(tournament_id=t.pk, actor=actor_of(organiser))
        t.refresh_from_db()
        assert t.planned_rounds == rounds
        assert (len(rnd.proposal), len(rnd.byes)) == (tables, byes)


# ------------------------------------------------------------ registration


def test_registering_a_pasted_list(organiser):
    Player.objects.create(name="Émile")
    t = new_tournament(organiser, "spades", "swiss", rounds=3)
    result = services.register_players(
        tournament_id=t.pk, text="Ann\n\n  Bob , Cat\némile\nann\n" + "x" * 41 + ",,\n", actor=actor_of(organiser)
    )
    assert result.added == ["Ann", "Bob", "Cat", "Émile"]
    assert result.duplicates == ["ann"]
    assert len(result.errors) == 1 and "at most 40" in result.errors[0]
    assert Player.objects.filter(key="émile").count() == 1  # the existing player, not a new one
    again = services.register_players(tournament_id=t.pk, text="BOB, Dan", actor=actor_of(organiser))
    assert (again.added, again.already) == (["Dan"], ["BOB"])
    assert list(t.entrants.values_list("player__name", flat=True)) == ["Ann", "Bob", "Cat", "Émile", "Dan"]
    with pytest.raises(ServiceError):
        services.register_players(tournament_id=t.pk, text=" \n , ", actor=actor_of(organiser))


# ------------------------------------------------------------------- Swiss


def test_an_eight_player_spades_swiss_from_registration_to_final_standings(organiser):
    me = actor_of(organiser)
    names = [f"P{i}" for i in range(1, 9)]
    t = new_tournament(organiser, "spades", "swiss", names, rounds=3, options={"target": 100}, round_minutes=40)
    games: list[tuple[int, str, str, str | None]] = []  # (round, seat 1, seat 2, winner or None)
    diff: dict[str, int] = defaultdict(int)

    # Round 1: everybody on 0, so the seeds (registration order) pair 1-2, 3-4, 5-6, 7-8.
    r1 = services.propose_round(tournament_id=t.pk, actor=me)
    assert sorted(sorted(name_of(p) for p in table) for table in r1.proposal) == [
        ["P1", "P2"],
        ["P3", "P4"],
        ["P5", "P6"],
        ["P7", "P8"],
    ]
    assert r1.byes == [] and r1.status == "proposed" and not Table.objects.exists()
    # The organiser swaps P2 and P3 before publishing.
    services.swap_players(round_id=r1.pk, player_a=pid("P2"), player_b=pid("P3"), actor=me)
    r1.refresh_from_db()
    assert sorted(sorted(name_of(p) for p in table) for table in r1.proposal) == [
        ["P1", "P3"],
        ["P2", "P4"],
        ["P5", "P6"],
        ["P7", "P8"],
    ]
    before = timezone.now()
    tokens = services.publish_round(round_id=r1.pk, actor=me)
    r1.refresh_from_db()
    t.refresh_from_db()
    assert r1.status == "playing" and t.status == "running"
    assert r1.ends_at - r1.published_at == timedelta(minutes=40) and r1.published_at >= before
    r1_tables = tables_of(r1)
    assert [tb.number for tb in r1_tables] == [1, 2, 3, 4]
    assert set(tokens) == {tb.pk for tb in r1_tables}
    for table, proposed in zip(r1_tables, r1.proposal, strict=True):
        assert seat_ids(table) == proposed  # seat order as proposed
        assert table.match.game == "spades" and table.match.options == t.options
        assert table.match.owner == organiser
        assert AccessLink.objects.filter(match=table.match, revoked_at__isnull=True).count() == 2  # a side each

    # Not while round 1 is being played.
    with pytest.raises(ServiceError) as error:
        services.propose_round(tournament_id=t.pk, actor=me)
    assert "0 of 4 tables finished" in error.value.message

    # Half the tables finish: only finished matches count.
    for table in r1_tables[:2]:
        winner = play_two_player(table, spades_win)
        a, b = (name_of(p) for p in seat_ids(table))
        games.append((1, a, b, name_of(winner)))
    # P1 beat P3, P2 beat P4; the others have not finished.
    assert points(t) == {"P1": 2, "P2": 2, "P3": 0, "P4": 0, "P5": 0, "P6": 0, "P7": 0, "P8": 0}
    # P1, P2: 2 points, Buchholz 0, +81. P3, P4: 0 points, Buchholz 2, -81.
    # P5-P8: no game yet (0, 0, 0) rank below P3 and P4.
    assert ranks(t) == {"P1": 1, "P2": 1, "P3": 3, "P4": 3, "P5": 5, "P6": 5, "P7": 5, "P8": 5}
    with pytest.raises(ServiceError) as error:
        services.propose_round(tournament_id=t.pk, actor=me)
    assert "2 of 4 tables finished" in error.value.message

    for table in r1_tables[2:]:
        winner = play_two_player(table, spades_win)
        a, b = (name_of(p) for p in seat_ids(table))
        games.append((1, a, b, name_of(winner)))
    # After round 1: P1, P2, P5, P7 won (2 points, Buchholz 0, +81 each: all rank 1);
    # the losers have 0 points, Buchholz 2, -81: all rank 5.
    assert points(t) == {"P1": 2, "P2": 2, "P3": 0, "P4": 0, "P5": 2, "P6": 0, "P7": 2, "P8": 0}
    assert ranks(t) == {"P1": 1, "P2": 1, "P5": 1, "P7": 1, "P3": 5, "P4": 5, "P6": 5, "P8": 5}
    row = standings_by_name(t)["P1"]
    assert row.tiebreaks[:2] == [0, 81] and (row.wins, row.losses, row.games_played) == (1, 0, 1)
    for _r, a, b, w in games:
        loser = b if w == a else a
        diff[w] += 81
        diff[loser] -= 81

    # P8 drops after round 1: 7 left, so round 2 has a bye.
    services.drop_entrant(tournament_id=t.pk, entrant_id=Entrant.objects.get(player__name="P8").pk, actor=me)
    assert Entrant.objects.get(player__name="P8").dropped_after_round == 1
    r2, _tokens = start_round(t, organiser)
    t.refresh_from_db()
    r1.refresh_from_db()
    assert r1.status == "complete" and r1.completed_at is not None
    assert len(r2.byes) == 1 and pid("P8") not in [p for table in r2.proposal for p in table] + r2.byes
    bye2 = name_of(r2.byes[0])
    # The bye counts as soon as the round is published; the games in progress do not.
    assert points(t)[bye2] == {"P1": 2, "P2": 2, "P5": 2, "P7": 2}.get(bye2, 0) + 2
    for table in tables_of(r2):
        winner = play_two_player(table, spades_win)
        a, b = (name_of(p) for p in seat_ids(table))
        games.append((2, a, b, name_of(winner)))
        diff[name_of(winner)] += 81
        diff[b if name_of(winner) == a else a] -= 81

    # Before round 3: a late entry (P9) and another drop (P6): 7 again.
    services.register_players(tournament_id=t.pk, text="P9", actor=me)
    services.drop_entrant(tournament_id=t.pk, entrant_id=Entrant.objects.get(player__name="P6").pk, actor=me)
    assert Entrant.objects.get(player__name="P6").dropped_after_round == 2
    r3 = services.propose_round(tournament_id=t.pk, actor=me)
    in_r3 = [p for table in r3.proposal for p in table] + r3.byes
    assert sorted(name_of(p) for p in in_r3) == ["P1", "P2", "P3", "P4", "P5", "P7", "P9"]
    bye3 = name_of(r3.byes[0])
    assert bye3 != bye2  # byes go to distinct players
    services.publish_round(round_id=r3.pk, actor=me)
    r3.refresh_from_db()
    r3_tables = tables_of(r3)

    # Table 1 is ended early after one hand (51 to 52: seat 2 leads and wins);
    # table 2 is ended before any hand: not played, no game (not a draw). The rest play on.
    first = r3_tables[0]
    play(first.match, {"bids": [5, 5], "tricks": [6, 7]})
    ending.end_table_early(table_id=first.pk, actor=me)
    a, b = (name_of(p) for p in seat_ids(first))
    games.append((3, a, b, b))
    diff[a] -= 1
    diff[b] += 1
    second = r3_tables[1]
    bid(second.match, {"bids": [3, 3]})
    ended = ending.end_table_early(table_id=second.pk, actor=me)
    assert (ended.status, ended.winners, ended.totals, ended.pending_bidding) == ("finished", [0, 1], [0, 0], None)
    not_played = frozenset(name_of(p) for p in seat_ids(second))
    for table in r3_tables[2:]:
        winner = play_two_player(table, spades_win)
        a, b = (name_of(p) for p in seat_ids(table))
        games.append((3, a, b, name_of(winner)))
        diff[name_of(winner)] += 81
        diff[b if name_of(winner) == a else a] -= 81

    # Never a rematch.
    pairs = [frozenset((a, b)) for _r, a, b, _w in games] + [not_played]
    assert len(pairs) == len(set(pairs)) == 4 + 3 + 3

    # Final standings, worked out from the results above.
    expected = defaultdict(int)
    opponents = defaultdict(list)
    for _r, a, b, w in games:
        opponents[a].append(b)
        opponents[b].append(a)
        if w is None:
            expected[a] += 1
            expected[b] += 1
        else:
            expected[w] += 2
    expected[bye2] += 2
    expected[bye3] += 2
    final = standings_by_name(t)
    assert {n: r.match_points for n, r in final.items()} == {n: expected[n] for n in [*names, "P9"]}
    for n, r in final.items():
        assert r.tiebreaks[0] == sum(expected[o] for o in opponents[n]), n  # Buchholz
        assert r.tiebreaks[1] == diff[n], n  # score difference
        assert r.games_played == len(opponents[n])
    assert final["P8"].dropped and final["P6"].dropped and not final["P1"].dropped
    assert (final[bye2].byes, final[bye3].byes) == (1, 1)
    # Ranks follow match points, then Buchholz, then score difference.
    key = {n: (r.match_points, r.tiebreaks[0], r.tiebreaks[1]) for n, r in final.items()}
    for x in final:
        for y in final:
            if key[x] > key[y]:
                assert final[x].rank < final[y].rank, (x, y)
    # P1 won every game it played (lower registration wins unless ended early).
    assert final["P1"].rank == 1 or key["P1"] < max(key.values())

    t.refresh_from_db()
    assert t.status == "finished"
    with pytest.raises(ServiceError) as error:
        services.propose_round(tournament_id=t.pk, actor=me)
    assert "over" in error.value.message
    actions = set(AuditEvent.objects.filter(tournament=t).values_list("action", flat=True))
    assert {
        "tournament created",
        "players registered",
        "round proposed",
        "players swapped",
        "round published",
        "player dropped",
        "table ended early",
        "round completed",
        "tournament finished",
    } <= actions


def test_a_swiss_gives_byes_to_distinct_players(organiser):
    me = actor_of(organiser)
    t = new_tournament(organiser, "spades", "swiss", ["A", "B", "C", "D", "E"], rounds=4, options={"target": 100})
    byes = []
    for _ in range(4):
        rnd, _tokens = start_round(t, organiser)
        byes += rnd.byes
        for table in tables_of(rnd):
            play_two_player(table, spades_win)
    assert len(byes) == 4 and len(set(byes)) == 4
    t.refresh_from_db()
    assert t.status == "finished"
    with pytest.raises(ServiceError):
        services.propose_round(tournament_id=t.pk, actor=me)


# ------------------------------------------------------------- round robin


def test_a_six_player_sixty_six_round_robin_with_a_drop(organiser):
    me = actor_of(organiser)
    names = ["R1", "R2", "R3", "R4", "R5", "R6"]
    t = new_tournament(organiser, "sixtysix", "round_robin", names, options={"target": 1})
    met: list[frozenset] = []

    for number in (1, 2):
        rnd, _tokens = start_round(t, organiser)
        assert rnd.number == number and len(tables_of(rnd)) == 3 and rnd.byes == []
        for table in tables_of(rnd):
            play_two_player(table, sixtysix_win)
            met.append(frozenset(seat_ids(table)))
        if number == 1:
            t.refresh_from_db()
            assert t.planned_rounds == 5
            # After round 1 the three players registered first in each pair lead.
            pts = points(t)
            assert sorted(pts.values()) == [0, 0, 0, 2, 2, 2]
            # A round robin's schedule is fixed: no late entries once it started.
            with pytest.raises(ServiceError) as error:
                services.register_players(tournament_id=t.pk, text="Late", actor=me)
            assert "round robin" in error.value.message
    # R6 drops after round 2; its later opponents get a bye instead.
    services.drop_entrant(tournament_id=t.pk, entrant_id=Entrant.objects.get(player__name="R6").pk, actor=me)
    byes = []
    for _number in (3, 4, 5):
        rnd, _tokens = start_round(t, organiser)
        assert pid("R6") not in [p for table in rnd.proposal for p in table] + rnd.byes
        assert len(rnd.byes) == 1 and len(tables_of(rnd)) == 2
        byes += rnd.byes
        for table in tables_of(rnd):
            play_two_player(table, sixtysix_win)
            met.append(frozenset(seat_ids(table)))
    # Everybody met everybody once, except R6's games that became byes.
    assert len(met) == len(set(met)) == 3 + 3 + 2 + 2 + 2
    assert len(set(byes)) == 3 and pid("R6") not in byes
    for bye in byes:
        assert frozenset((bye, pid("R6"))) not in met

    # Registered first wins; R1-R5 also get 2 from their game with R6, played or a bye:
    # R1 beats 4 others + 2 = 10, R2 8, R3 6, R4 4, R5 2, R6 lost its 2 games.
    final = standings_by_name(t)
    assert {n: r.match_points for n, r in final.items()} == {"R1": 10, "R2": 8, "R3": 6, "R4": 4, "R5": 2, "R6": 0}
    assert {n: r.rank for n, r in final.items()} == {"R1": 1, "R2": 2, "R3": 3, "R4": 4, "R5": 5, "R6": 6}
    assert final["R6"].dropped and final["R6"].games_played == 2
    for n in names[:5]:
        assert final[n].games_played + final[n].byes == 5
    t.refresh_from_db()
    assert t.status == "finished"
    with pytest.raises(ServiceError):
        services.propose_round(tournament_id=t.pk, actor=me)


# ----------------------------------------------------------------- Oh Hell


def oh_hell_points(k: int) -> tuple[Fraction, Fraction]:
    """At a table of k where one player wins and the rest tie: the winner's
    placement points, 2 * (k - 1) / (k - 1) = 2, and each other player's
    share of places 2..k (the mean of 2 * (k - p) / (k - 1) over them)."""
    return Fraction(2), sum(Fraction(2 * (k - p), k - 1) for p in range(2, k + 1)) / (k - 1)


def as_shown(points: dict) -> dict:
    """Exact points as the standings show them: whole, or two decimals at most."""
    return {n: int(v) if v == int(v) else round(float(v), 2) for n, v in points.items()}


def test_a_thirteen_player_oh_hell_event_in_seated_rounds(organiser):
    me = actor_of(organiser)
    names = [f"H{i:02d}" for i in range(1, 14)]
    t = new_tournament(organiser, "ohhell", "seated", names, rounds=3, table_size=7, options={"schedule": "up"})
    expected: dict[str, Fraction] = defaultdict(Fraction)
    met: dict[frozenset, int] = defaultdict(int)

    def record_table(table, ids, star):
        k = len(ids)
        win, share = oh_hell_points(k)
        for p in ids:
            expected[name_of(p)] += win if p == star else share
        for x in ids:
            for y in ids:
                if x < y:
                    met[frozenset((x, y))] += 1

    # Round 1: 13 players at tables of 7 and 6 (the closest to 7 that differ by one).
    r1, _tokens = start_round(t, organiser)
    assert sorted(len(table) for table in r1.proposal) == [6, 7] and r1.byes == []
    for table in tables_of(r1):
        ids = seat_ids(table)
        star = play_oh_hell(table)
        assert Match.objects.get(pk=table.match_id).hands_played == {7: 7, 6: 8}[len(ids)]
        record_table(table, ids, star)
    # Winner of a 7-table: 2 points; the other six share places 2-7:
    # (10 + 8 + 6 + 4 + 2 + 0) / 6 / 6 = 5/6 each.
    # Winner of a 6-table: 2 too; the other five share places 2-6: (8 + 6 + 4 + 2 + 0) / 5 / 5 = 4/5.
    assert points(t) == as_shown(expected)
    assert sorted(expected.values()) == [Fraction(4, 5)] * 5 + [Fraction(5, 6)] * 6 + [2, 2]
    # Ranks: both winners have 2; the winner at 6 scored 10 * 8 + (1 + ... + 8) = 116
    # in 8 hands, the winner at 7 10 * 7 + (1 + ... + 7) = 98 in 7: the winner at 6
    # is first. Then the six others at 7 (5/6 each, 70 points, average place 4.5:
    # a shared 3rd), the five others at 6 (4/5 each: a shared 9th).
    by_table = {len(seat_ids(table)): seat_ids(table) for table in tables_of(r1)}
    star7, star6 = (min(by_table[k], key=order_key) for k in (7, 6))
    expected_ranks = {name_of(p): 3 for p in by_table[7]} | {name_of(p): 9 for p in by_table[6]}
    expected_ranks |= {name_of(star6): 1, name_of(star7): 2}
    assert ranks(t) == expected_ranks
    assert standings_by_name(t)[name_of(star7)].tiebreaks == [10 * 7 + (1 + 2 + 3 + 4 + 5 + 6 + 7), 1]

    # A non-winner drops: 12 players, two tables of 6.
    dropped = next(n for n in names if expected[n] < 2)
    services.drop_entrant(tournament_id=t.pk, entrant_id=Entrant.objects.get(player__name=dropped).pk, actor=me)
    r2, _tokens = start_round(t, organiser)
    assert sorted(len(table) for table in r2.proposal) == [6, 6]
    assert pid(dropped) not in [p for table in r2.proposal for p in table]
    r2_tables = tables_of(r2)
    # Table 1 plays out; table 2 is ended before its first hand: not played,
    # so its six get nothing and no game (not a shared place 1-6 worth 1 each).
    ids = seat_ids(r2_tables[0])
    record_table(r2_tables[0], ids, play_oh_hell(r2_tables[0]))
    ending.end_table_early(table_id=r2_tables[1].pk, actor=me)
    ended = Match.objects.get(pk=r2_tables[1].match_id)
    assert ended.winners == [0, 1, 2, 3, 4, 5] and ended.status == "finished"
    assert points(t) == as_shown(expected)
    rows = standings_by_name(t)
    assert {rows[name_of(p)].games_played for p in seat_ids(r2_tables[1])} == {1}

    # A late entry before round 3: 13 again.
    services.register_players(tournament_id=t.pk, text="Latecomer", actor=me)
    r3, _tokens = start_round(t, organiser)
    seated = [p for table in r3.proposal for p in table]
    assert sorted(len(table) for table in r3.proposal) == [6, 7]
    assert pid("Latecomer") in seated and pid(dropped) not in seated and len(seated) == len(set(seated)) == 13
    for table in tables_of(r3):
        ids = seat_ids(table)
        star = play_oh_hell(table)
        win, share = oh_hell_points(len(ids))
        for p in ids:
            expected[name_of(p)] += win if p == star else share
    final = standings_by_name(t)
    assert {n: r.match_points for n, r in final.items()} == as_shown(expected)
    assert final[dropped].dropped and final[dropped].games_played == 1
    assert final["Latecomer"].games_played == 1
    # Ranked by match points first (exactly: the shown ones are rounded).
    for x, y in ((x, y) for x in final for y in final):
        if expected[x] > expected[y]:
            assert final[x].rank < final[y].rank, (x, y)
    t.refresh_from_db()
    assert t.status == "finished"


def test_seating_is_reproducible_from_the_seed(organiser):
    t = new_tournament(organiser, "ohhell", "seated", [f"S{i}" for i in range(10)], rounds=2)
    first = services.propose_round(tournament_id=t.pk, actor=actor_of(organiser))
    # A late entry then a drop of the same player re-propose: same field, same seed, same tables.
    services.register_players(tournament_id=t.pk, text="Extra", actor=actor_of(organiser))
    services.drop_entrant(
        tournament_id=t.pk, entrant_id=Entrant.objects.get(player__name="Extra").pk, actor=actor_of(organiser)
    )
    again = Round.objects.get(pk=first.pk)
    assert again.proposal == first.proposal
    assert AuditEvent.objects.filter(tournament=t, action="round proposed again").count() == 2


# -------------------------------------------------------------------- swaps


def test_swapping_a_bye_and_refusing_bad_swaps(organiser):
    me = actor_of(organiser)
    t = new_tournament(organiser, "spades", "swiss", ["A", "B", "C"], rounds=2)
    rnd = services.propose_round(tournament_id=t.pk, actor=me)
    bye = rnd.byes[0]
    other = rnd.proposal[0][1]
    services.swap_players(round_id=rnd.pk, player_a=bye, player_b=other, actor=me)
    rnd.refresh_from_db()
    assert rnd.byes == [other] and bye in rnd.proposal[0]
    outsider = Player.objects.create(name="Outsider").pk
    for a, b in ((bye, bye), (bye, outsider)):
        with pytest.raises(ServiceError):
            services.swap_players(round_id=rnd.pk, player_a=a, player_b=b, actor=me)
    services.publish_round(round_id=rnd.pk, actor=me)
    with pytest.raises(ServiceError) as error:
        services.swap_players(round_id=rnd.pk, player_a=bye, player_b=other, actor=me)
    assert "already published" in error.value.message
    with pytest.raises(ServiceError):
        services.publish_round(round_id=rnd.pk, actor=me)


# -------------------------------------------------------------- ending early


def test_ending_early_refuses_what_is_not_being_played(organiser):
    me = actor_of(organiser)
    t = new_tournament(organiser, "spades", "swiss", ["A", "B", "C", "D"], rounds=1, options={"target": 100})
    rnd, _tokens = start_round(t, organiser)
    table = tables_of(rnd)[0]
    play_two_player(table, spades_win)
    version = Match.objects.get(pk=table.match_id).version
    with pytest.raises(ServiceError) as error:
        ending.end_table_early(table_id=table.pk, actor=me)
    assert "already over" in error.value.message
    assert Match.objects.get(pk=table.match_id).version == version
    assert Table.objects.get(pk=table.pk).ended_early_at is None


def test_an_ended_early_match_cannot_take_more_hands(organiser):
    me = actor_of(organiser)
    t = new_tournament(organiser, "spades", "swiss", ["A", "B"], rounds=1, options={"target": 500})
    rnd, _tokens = start_round(t, organiser)
    table = tables_of(rnd)[0]
    play(table.match, {"bids": [4, 4], "tricks": [9, 4]})  # 45 to 40
    match = ending.end_table_early(table_id=table.pk, actor=me)
    assert (match.winners, match.totals, match.status) == ([0], [45, 40], "finished")
    assert Table.objects.get(pk=table.pk).ended_early_at is not None
    assert AuditEvent.objects.filter(match=match, action="ended early").count() == 1
    with pytest.raises(ServiceError) as error:
        play(table.match, {"bids": [4, 4], "tricks": [9, 4]})
    assert error.value.code == "closed"
    assert Hand.objects.filter(match_id=table.match_id).count() == 1
    a = name_of(seat_ids(table)[0])
    assert points(t)[a] == 2
    t.refresh_from_db()
    assert t.status == "finished"


# ------------------------------------------------------------------- links


def test_table_links_are_reissued_and_revoked(organiser):
    """Each table has a link per side. The cards' links are worked out again
    on every call (no session, no stored token); reissuing or revoking a
    table's links changes or drops both its tokens, and only that table's."""
    me = actor_of(organiser)
    t = new_tournament(organiser, "spades", "swiss", ["A", "B", "C", "D"], rounds=1)
    rnd, tokens = start_round(t, organiser)
    first, second = tables_of(rnd)
    by_side = {pk: dict(enumerate(pair)) for pk, pair in tokens.items()}
    assert links.table_tokens(rnd.pk) == by_side and set(tokens) == {first.pk, second.pk}
    assert all(len(set(pair)) == 2 for pair in tokens.values())  # two links of their own
    new = links.reissue_table_link(table_id=first.pk, actor=me)
    assert not set(new) & set(tokens[first.pk])
    assert links.table_tokens(rnd.pk) == {first.pk: dict(enumerate(new)), second.pk: by_side[second.pk]}
    assert all(find_link(token) is None for token in tokens[first.pk])
    assert [find_link(token).side for token in new] == [0, 1]
    assert links.revoke_table_links(table_id=second.pk, actor=me) == 2
    assert not AccessLink.objects.filter(match=second.match, revoked_at__isnull=True).exists()
    assert links.table_tokens(rnd.pk) == {first.pk: dict(enumerate(new))}
    all_new = links.reissue_round_links(round_id=rnd.pk, actor=me)
    assert set(all_new) == {first.pk, second.pk}
    assert links.table_tokens(rnd.pk) == {pk: dict(enumerate(pair)) for pk, pair in all_new.items()}
    assert not {tok for pair in all_new.values() for tok in pair} & {*new, *tokens[first.pk], *tokens[second.pk]}
    for table in (first, second):
        assert AccessLink.objects.filter(match=table.match, revoked_at__isnull=True).count() == 2
    # another round's tables are not this round's
    assert links.table_tokens(rnd.pk + 1) == {}


# ---------------------------------------------------------------- csv rows


def test_csv_rows(organiser):
    t = new_tournament(organiser, "spades", "swiss", ["=Ann", "Bob", "Cat"], rounds=1, options={"target": 100})
    rnd, _tokens = start_round(t, organiser)
    play_two_player(tables_of(rnd)[0], spades_win)
    results = exports.results_csv_rows(selectors.load_tournament(t))
    assert results[0] == ["Round", "Table", "Seat", "Player", "Score", "Result", "Match points", "Status"]
    # "=Ann" registered first wins 101 to 20; Cat has the bye.
    body = sorted(results[1:], key=lambda r: str(r[3]))
    assert body == [
        [1, 1, body[0][2], "=Ann", 101, "win", 2, "finished"],
        [1, 1, body[1][2], "Bob", 20, "loss", 0, "finished"],
        [1, "", "", "Cat", "", "bye", 2, ""],
    ]
    assert exports.csv_safe("=Ann") == "'=Ann" and exports.csv_safe("Bob") == "Bob"
    rows = exports.standings_csv_rows(selectors.standings(t))
    assert rows[0][:3] == ["Rank", "Player", "Match points"]
    assert [r[1] for r in rows[1:]] == ["=Ann", "Cat", "Bob"]  # Ann: 2 + Buchholz 0 + 81; Cat: 2, 0, 0
