"""Every read of a tournament, in a fixed number of queries whatever its
size, and the standings worked out by the pure package from them."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ..models import AuditEvent, Entrant, Match, Round, Seat, Table, Tournament, name_key
from ..pairing import oh_hell_standings, two_player_standings
from ..scoring import GAMES, get_game
from .formats import MIN_TABLE, ROUND_ROBIN_FORMATS, TWO_PLAYER_FORMATS, is_pairs

# --------------------------------------------------------------- selectors


@dataclass(slots=True)
class SeatView:
    player_id: int
    name: str
    total: Any
    winner: bool = False


@dataclass(slots=True)
class TableView:
    id: int
    number: int
    round_id: int
    round_number: int
    match_id: int
    status: str
    ended_early: bool
    hands_played: int
    seats: list[SeatView]
    winners: list[int]
    unconfirmed: int = 0  # hands the other side has not confirmed yet
    accepted: bool = False  # an organiser accepted the match as it is
    corrected: bool = False  # an organiser changed it after it was over
    players: list[str] | None = None  # every seat's player, in seat order (a pairs table: four)

    @property
    def finished(self) -> bool:
        return self.status == Match.Status.FINISHED

    @property
    def awaiting_confirmation(self) -> bool:
        """Over, but hands wait for the other side (or an organiser)."""
        return self.finished and self.unconfirmed > 0 and not self.accepted

    @property
    def counts(self) -> bool:
        """Its result counts in the standings."""
        return self.finished and not self.awaiting_confirmation

    @property
    def not_played(self) -> bool:
        """Over without a hand (ended before its first): no game for anybody."""
        return self.finished and self.hands_played == 0

    @property
    def is_open(self) -> bool:
        return self.status == Match.Status.IN_PROGRESS

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]


@dataclass
class RoundView:
    round: Round
    tables: list[TableView]
    byes: list[tuple[int, str]]  # (player_id, name)

    @property
    def finished_count(self) -> int:
        """Tables done: over (or abandoned), with every hand confirmed or accepted."""
        return sum(1 for t in self.tables if not t.is_open and not t.awaiting_confirmation)

    @property
    def number(self) -> int:
        return self.round.number


@dataclass
class StandingRow:
    rank: int
    player_id: int
    name: str
    match_points: Any
    tiebreaks: list[Any]
    games_played: int
    dropped: bool
    dropped_after_round: int | None
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None
    byes: int | None = None


@dataclass
class TournamentData:
    """Everything the pages show, loaded in a fixed number of queries."""

    tournament: Tournament
    entrants: list[dict]  # id, player_id, name, dropped_after_round, in registration order
    rounds: list[Round]
    tables_by_round: dict[int, list[TableView]]
    names: dict[int, str]

    @property
    def published(self) -> list[Round]:
        return [r for r in self.rounds if r.status != Round.Status.PROPOSED]

    @property
    def proposed(self) -> Round | None:
        return next((r for r in self.rounds if r.status == Round.Status.PROPOSED), None)

    @property
    def current(self) -> Round | None:
        """The latest published round."""
        published = self.published
        return published[-1] if published else None

    def round_view(self, rnd: Round | None) -> RoundView | None:
        if rnd is None:
            return None
        return RoundView(
            rnd, self.tables_by_round.get(rnd.pk, []), [(pid, self.names.get(pid, "?")) for pid in rnd.byes]
        )

    @property
    def current_view(self) -> RoundView | None:
        return self.round_view(self.current)

    @property
    def two_player(self) -> bool:
        """Two entrants a table (players, or the pairs of a pairs event)."""
        return self.tournament.format in TWO_PLAYER_FORMATS

    @property
    def pairs(self) -> bool:
        """A pairs event: each entrant is a fixed partnership of two players."""
        return is_pairs(self.tournament.game) if self.tournament.game in GAMES else False


def load_tournament(tournament: Tournament) -> TournamentData:
    """4 queries whatever the size: entrants (with names), rounds, tables
    with their matches, seats."""
    entrant_rows = list(
        Entrant.objects.filter(tournament=tournament)
        .order_by("registered_at", "id")
        .values_list("id", "player_id", "player__name", "dropped_after_round", "partner__name")
    )
    # A pair (a pairs event) is named by both its players and known by its first's id.
    entrants = [
        {"id": eid, "player_id": player_id, "name": pair_name(name, partner), "dropped_after_round": dropped}
        for eid, player_id, name, dropped, partner in entrant_rows
    ]
    names = {e["player_id"]: e["name"] for e in entrants}
    sides = get_game(tournament.game).spec.sides if tournament.game in GAMES else ()
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    round_numbers = {r.pk: r.number for r in rounds}
    seats: dict[int, list[tuple[int, int]]] = {}
    for match_id, position, player_id in Seat.objects.filter(match__table__round__tournament=tournament).values_list(
        "match_id", "position", "player_id"
    ):
        seats.setdefault(match_id, []).append((position, player_id))
    tables_by_round: dict[int, list[TableView]] = {}
    rows = (
        Table.objects.filter(round__tournament=tournament)
        .order_by("round_id", "number")
        .values_list(
            "id",
            "number",
            "round_id",
            "match_id",
            "ended_early_at",
            "match__status",
            "match__totals",
            "match__winners",
            "match__hands_played",
            "match__unconfirmed_hands",
            "match__accepted_at",
            "match__corrected_at",
            "match__player_names",
        )
    )
    for table_id, number, round_id, match_id, ended_at, status, totals, winners, hands, *checks in rows:
        unconfirmed, accepted_at, corrected_at, players = checks
        winners = winners if status == Match.Status.FINISHED else []
        table_seats = [
            SeatView(player_id, names.get(player_id, "?"), totals[pos] if pos < len(totals) else 0, pos in winners)
            for pos, player_id in sorted(seats.get(match_id, ()))
            if pos < len(sides) or not sides  # a pair by its first player's seat: side 0 at seat 0, side 1 at seat 1
        ]
        tables_by_round.setdefault(round_id, []).append(
            TableView(
                table_id,
                number,
                round_id,
                round_numbers[round_id],
                match_id,
                status,
                ended_at is not None,
                hands,
                table_seats,
                winners,
                unconfirmed,
                accepted_at is not None,
                corrected_at is not None,
                players,
            )
        )
    return TournamentData(tournament, entrants, rounds, tables_by_round, names)


def pair_name(name: str, partner: str | None) -> str:
    """An entrant as the standings name it: a player, or a pair "Ann & Cat"."""
    if partner is None:
        return name
    return _("%(first)s & %(second)s") % {"first": name, "second": partner}


def _drops(data: TournamentData) -> list[dict]:
    return [
        {"player": e["player_id"], "round": e["dropped_after_round"]}
        for e in data.entrants
        if e["dropped_after_round"] is not None
    ]


def two_player_inputs(data: TournamentData) -> dict[str, list]:
    """The pure standings' input from finished matches, published byes and drops."""
    results, byes = [], []
    for rnd in data.published:
        for table in data.tables_by_round.get(rnd.pk, []):
            if not table.counts or len(table.seats) != 2:
                continue
            a, b = table.seats
            if table.not_played:
                results.append({"round": rnd.number, "a": a.player_id, "b": b.player_id, "played": False})
                continue
            winner = None
            if table.winners == [0]:
                winner = a.player_id
            elif table.winners == [1]:
                winner = b.player_id
            results.append(
                {
                    "round": rnd.number,
                    "a": a.player_id,
                    "b": b.player_id,
                    "score_a": a.total,
                    "score_b": b.total,
                    "winner": winner,
                }
            )
        byes += [{"round": rnd.number, "player": pid} for pid in rnd.byes]
    return {"results": results, "byes": byes, "drops": _drops(data)}


def _seated_inputs(data: TournamentData) -> list[dict]:
    return [
        {
            "round": rnd.number,
            "table": table.number,
            "players": [s.player_id for s in table.seats],
            "totals": [s.total for s in table.seats],
            "played": not table.not_played,
        }
        for rnd in data.published
        for table in data.tables_by_round.get(rnd.pk, [])
        if table.counts and len(table.seats) >= 2
    ]


# Marked here, translated where the standings are drawn.
TWO_PLAYER_COLUMNS = (
    # Translators: a tiebreak column of the standings, named after Bruno Buchholz; usually kept as it is.
    ("buchholz", gettext_noop("Buchholz")),
    ("score_difference", gettext_noop("Score difference")),
    ("head_to_head", gettext_noop("Head-to-head")),
)
SEATED_COLUMNS = (("total_score", gettext_noop("Total score")), ("average_place", gettext_noop("Average place")))
TOTAL_SCORE_COLUMNS = (("average_place", gettext_noop("Average place")),)


@dataclass
class Standings:
    data: TournamentData
    rows: list[StandingRow]
    columns: list[str]  # tiebreak headers, in order
    points_label: str  # the header of what ranks first: match points, or an Oh Hell event's total score

    @property
    def tournament(self) -> Tournament:
        return self.data.tournament


def standings(tournament: Tournament, data: TournamentData | None = None) -> Standings:
    """The standings from finished matches: 4 queries whatever the size."""
    data = data or load_tournament(tournament)
    dropped_after = {e["player_id"]: e["dropped_after_round"] for e in data.entrants}
    display_order = [e["player_id"] for e in sorted(data.entrants, key=lambda e: (name_key(e["name"]), e["id"]))]
    rows: list[StandingRow] = []
    points_label = str(_("Match points"))
    if data.two_player:
        inputs = two_player_inputs(data)
        columns = [str(_(label)) for _key, label in TWO_PLAYER_COLUMNS]
        for r in two_player_standings(inputs["results"], inputs["byes"], inputs["drops"], players=display_order):
            rows.append(
                StandingRow(
                    rank=r.rank,
                    player_id=r.player_id,
                    name=data.names.get(r.player_id, "?"),
                    match_points=r.match_points,
                    tiebreaks=[number_shown(r.tiebreaks.get(key)) for key, _label in TWO_PLAYER_COLUMNS],
                    games_played=r.games_played,
                    dropped=r.dropped,
                    dropped_after_round=dropped_after.get(r.player_id),
                    wins=r.wins,
                    draws=r.draws,
                    losses=r.losses,
                    byes=r.byes,
                )
            )
    else:
        mode = tournament.oh_hell_points
        shown_columns = SEATED_COLUMNS if mode == Tournament.OhHellPoints.PLACEMENT else TOTAL_SCORE_COLUMNS
        if mode == Tournament.OhHellPoints.TOTAL_SCORE:
            points_label = str(_("Total score"))
        columns = [str(_(label)) for _key, label in shown_columns]
        for r in oh_hell_standings(_seated_inputs(data), _drops(data), players=display_order, points=mode):
            rows.append(
                StandingRow(
                    rank=r.rank,
                    player_id=r.player_id,
                    name=data.names.get(r.player_id, "?"),
                    match_points=number_shown(r.match_points),
                    tiebreaks=[number_shown(r.tiebreaks.get(key)) for key, _label in shown_columns],
                    games_played=r.games_played,
                    dropped=r.dropped,
                    dropped_after_round=dropped_after.get(r.player_id),
                )
            )
    return Standings(data, rows, columns, points_label)


def standings_generation(tournament_id: int) -> str:
    """A stamp that changes whenever the standings may: any table's match
    written (every write bumps its version in the same transaction, so the
    sum only grows and never misses a write that commits late) or any
    tournament-level event (round published or completed, registration,
    drop, a player renamed). Two small queries."""
    matches = Match.objects.filter(table__round__tournament_id=tournament_id).aggregate(
        versions=Sum("version"), count=Count("id")
    )
    events = AuditEvent.objects.filter(tournament_id=tournament_id).count()
    return f"{matches['versions'] or 0}.{matches['count']}.{events}"


def number_shown(value: Any) -> Any:
    """2.0 and 2/1 -> 2, 2.5 and 5/2 -> 2.5, 4/3 -> 1.33, None stays (shown
    as a dash). Placement points are exact fractions: only what is shown is
    rounded."""
    if isinstance(value, Fraction | float):
        if value == int(value):
            return int(value)
        return round(float(value), 2)
    return value


def filter_tables(view: RoundView | None, query: str) -> tuple[list[TableView], list[tuple[int, str]]]:
    """Tables and byes of a round with a player whose name contains ``query``
    (ignoring case and extra spaces); everything when the query is blank."""
    if view is None:
        return [], []
    key = name_key(query or "")
    if not key:
        return view.tables, view.byes
    tables = [t for t in view.tables if any(key in name_key(s.name) for s in t.seats)]
    byes = [(pid, name) for pid, name in view.byes if key in name_key(name)]
    return tables, byes


# --------------------------------------------------------------- dashboard


@dataclass
class NextStep:
    kind: str  # "start", "review", "wait", "finished", "register"
    round_number: int | None = None
    round_id: int | None = None
    done: int = 0
    total: int = 0


def next_step(data: TournamentData) -> NextStep:
    t = data.tournament
    proposed = data.proposed
    if proposed is not None:
        return NextStep("review", proposed.number, proposed.pk)
    current = data.current
    if current is not None and current.status == Round.Status.PLAYING:
        view = data.round_view(current)
        if view.finished_count < len(view.tables):
            return NextStep("wait", current.number, current.pk, view.finished_count, len(view.tables))
    if t.status == Tournament.Status.FINISHED:
        return NextStep("finished")
    number = len(data.rounds) + 1
    if t.planned_rounds and number > t.planned_rounds:
        return NextStep("finished")
    active = sum(1 for e in data.entrants if e["dropped_after_round"] is None)
    needed = 2 if data.two_player else MIN_TABLE
    if active < needed:
        return NextStep("register", number)
    return NextStep("start", number)


def can_register(data: TournamentData) -> bool:
    t = data.tournament
    if t.status == Tournament.Status.FINISHED:
        return False
    if t.format in ROUND_ROBIN_FORMATS and data.published:
        return False
    # a playing round whose tables are all over is complete (stored lazily)
    return all(
        not table.is_open and not table.awaiting_confirmation
        for r in data.rounds
        if r.status == Round.Status.PLAYING
        for table in data.tables_by_round.get(r.pk, [])
    )


def tournaments_for(user) -> list[Tournament]:
    qs = (
        Tournament.objects.all()
        if user.is_superuser
        else Tournament.objects.filter(Q(owner=user) | Q(co_organisers=user)).distinct()
    )
    return list(
        qs.annotate(
            entrant_count=Count("entrants", distinct=True), round_count=Count("rounds", distinct=True)
        ).order_by("-created_at")
    )


def rating_seeds(game: str, player_ids: list[int]) -> dict[int, int]:
    """Seed numbers (0 is the top seed) by the players' ratings of ``game``,
    the cautious figure first; players without a rating after the rated
    ones, in the order given (registration)."""
    from ..players.selectors import game_ratings

    ratings = game_ratings(game)
    order = sorted(
        range(len(player_ids)),
        key=lambda k: (
            player_ids[k] not in ratings,
            -ratings[player_ids[k]].ordinal if player_ids[k] in ratings else 0,
            k,
        ),
    )
    return {player_ids[k]: seed for seed, k in enumerate(order)}


# ------------------------------------------------- director's desk, clock

from .desk import FILTERS, Desk, DeskTable, RoundClock, clock_stamp, desk, desk_stamp, round_clock  # noqa: E402, F401
