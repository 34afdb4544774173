"""Every non-trivial read, with a fixed number of queries whatever the
size of the match or list."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.db import connection
from django.db.models import Prefetch
from django.http import Http404
from django.utils.translation import gettext as _

from .models import AccessLink, Hand, Match, Player, Seat, Table, could_be_id
from .rows import columns, instances, select_sets
from .scoring import GameSpec, InvalidHand, get_game, score_match, score_with_hints


@dataclass
class HistoryRow:
    number: int
    entry: dict
    points: list[int]
    totals: list[int]
    details: dict[str, Any]

    @cached_property
    def seats(self) -> list[dict[str, Any]]:
        """The row's cell of each player, in seat order: ``seat``, its
        ``points`` and ``total``, and its own value of each per-player list
        of the entry (``entry.bids``) and of the details (``details.bags``).
        The other values stay in ``entry`` and ``details``."""
        count = len(self.points)

        def own(values: dict, seat: int) -> dict:
            return {k: v[seat] for k, v in values.items() if isinstance(v, list) and len(v) == count}

        return [
            {
                "seat": seat,
                "points": self.points[seat],
                "total": self.totals[seat],
                "entry": own(self.entry, seat),
                "details": own(self.details, seat),
            }
            for seat in range(count)
        ]


@dataclass
class ScoreSheet:
    match: Match
    spec: GameSpec
    players: list[Player]
    names: list[str]
    rows: list[HistoryRow]  # hand 1 first
    totals: list[int]
    finished: bool
    winners: list[int]
    next_hand: dict | None
    hints: dict
    pending: dict | None  # bids/contract of the hand in play
    problem: str | None = None  # a stored hand the rules no longer accept
    ended_early: bool = False  # a tournament table ended by the organiser

    @cached_property
    def table(self) -> Table | None:
        """The tournament table this match is played at, if any (a query,
        made only by the pages that show it)."""
        return Table.objects.select_related("round__tournament").filter(match_id=self.match.pk).first()

    @property
    def tournament(self):
        return self.table.round.tournament if self.table else None

    @property
    def history_newest_first(self) -> list[HistoryRow]:
        return list(reversed(self.rows))

    @property
    def leaders(self) -> list[int]:
        if not self.rows:
            return []
        best = max(self.totals)
        return [i for i, t in enumerate(self.totals) if t == best]

    @property
    def target(self) -> int | None:
        return self.match.options.get("target", self._default_option("target"))

    def _default_option(self, name: str) -> Any:
        for option in self.spec.options:
            if option.name == name:
                return option.default
        return None

    def option(self, name: str) -> Any:
        return self.match.options.get(name, self._default_option(name))

    @property
    def option_items(self) -> list[tuple[str, Any]]:
        """(label, value as shown) for the menu."""
        items = []
        for option in self.spec.options:
            value = self.option(option.name)
            if option.kind == "choice":
                value = dict(option.choices).get(value, value)
            elif option.kind == "bool":
                value = "yes" if value else "no"
            items.append((option.label, value))
        return items

    @property
    def total_lines(self) -> list[tuple[str, int, str, str]]:
        """The totals box, a line per player: (name, total, its classes:
        "leader" and/or "winner", what else to show: "bags 3" in Spades)."""
        leaders, winners = set(self.leaders), set(self.winners)
        bags = self.rows[-1].details.get("bags") if self.rows else None
        return [
            (
                name,
                self.totals[seat],
                " ".join(c for c, on in (("leader", seat in leaders), ("winner", seat in winners)) if on),
                # The same message as the rows' "bags N", so one translation.
                _("bags %(n)s") % {"n": bags[seat]} if bags else "",
            )
            for seat, name in enumerate(self.names)
        ]

    @property
    def engine_input(self) -> dict:
        return self.match.engine_input(self.names, [row.entry for row in self.rows])


@dataclass
class MatchState:
    """What is stored of one match: enough to parse a hand, to save it
    (services.record_hand checks ``match.version`` is still current) and to
    draw the sheet."""

    match: Match
    players: list[Player]
    hands: list[tuple[int, dict, str | None]]  # (number, entry, client_key), hand 1 first
    # The engine's (result, hints) for exactly these hands, when the writer
    # of the last one worked them out already: a sheet is not scored twice.
    scored: tuple[dict, dict] | None = None
    # The device's active link of this match, when match_state was asked.
    device_link: AccessLink | None = None

    @property
    def spec(self) -> GameSpec:
        return get_game(self.match.game).spec

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    @property
    def entries(self) -> list[dict]:
        return [entry for _n, entry, _key in self.hands]


# match_state's queries, written as SQL: they run for every saved hand and
# every sheet drawn, and on the 2-core benchmark machine building the same
# three querysets took 3 ms against 0.5 ms for running these. On PostgreSQL
# the three go in one round trip (rows.select_sets).
_MATCH_SQL = f"SELECT {columns(Match)} FROM {Match._meta.db_table} WHERE id = %s"
_PLAYERS_SQL = (
    f"SELECT {columns(Player, 'p')} FROM {Player._meta.db_table} p"
    f" JOIN {Seat._meta.db_table} s ON s.player_id = p.id WHERE s.match_id = %s ORDER BY s.position"
)
_HANDS_SQL = f"SELECT number, entry, client_key FROM {Hand._meta.db_table} WHERE match_id = %s ORDER BY number"
_ENTRY = Hand._meta.get_field("entry")


def match_state(match_id: int, device_links: list[int] | None = None) -> MatchState:
    """The match, its players in seat order and its hands, in 3 queries
    whatever the size of the match. With ``device_links`` (the links a
    device holds), also which of them is an active link of this match
    (``device_link``), in the same round trip."""
    if not could_be_id(match_id):
        raise Http404("No such match")
    queries = [(_MATCH_SQL, [match_id]), (_PLAYERS_SQL, [match_id]), (_HANDS_SQL, [match_id])]
    if device_links:
        queries.append(_active_link_query(match_id, device_links))
    match_rows, player_rows, hand_rows, *link_rows = select_sets(*queries)
    if not match_rows:
        raise Http404("No such match")
    hands = [(n, _ENTRY.from_db_value(entry, None, connection), key) for n, entry, key in hand_rows]
    state = MatchState(instances(Match, match_rows)[0], instances(Player, player_rows), hands)
    if link_rows:
        state.device_link = _first_link(link_rows[0])
    return state


def active_link(match_id: int, link_ids: list[int]) -> AccessLink | None:
    """The one of ``link_ids`` that is an unrevoked link of this match, if any."""
    [found] = select_sets(_active_link_query(match_id, link_ids))
    return _first_link(found)


def _first_link(rows: list[tuple]) -> AccessLink | None:
    return instances(AccessLink, rows[:1])[0] if rows else None


def _active_link_query(match_id: int, link_ids: list[int]) -> tuple[str, list]:
    sql = (
        f"SELECT {columns(AccessLink)} FROM {AccessLink._meta.db_table}"
        f" WHERE match_id = %s AND revoked_at IS NULL AND id IN ({', '.join(['%s'] * len(link_ids))})"
    )
    return sql, [match_id, *link_ids]


def score_sheet(match_id: int) -> ScoreSheet:
    return build_sheet(match_state(match_id))


def build_sheet(state: MatchState) -> ScoreSheet:
    """The whole sheet of one match, worked out from its stored state (no
    queries)."""
    match, names, entries = state.match, state.names, state.entries
    broken = None
    hints: dict = {}
    try:
        result, hints = state.scored or score_with_hints(match.engine_input(names, entries), match.pending_bidding)
    except InvalidHand as error:
        # Stored hands were legal when saved; only a stricter rule could get
        # here. Show the hands before the bad one scored, the rest as typed,
        # and let an edit of the bad hand fix the match.
        broken = error
        if error.hand_index is None:  # players or options: nothing can be scored
            result = {"hands": [], "totals": [0] * len(names), "finished": False, "winners": []}
        else:
            result = score_match(match.engine_input(names, entries[: error.hand_index]))
        result["next_hand"] = None
    rows = []
    for index, (number, entry, _key) in enumerate(state.hands):
        if index < len(result["hands"]):
            scored = result["hands"][index]
            details = {k: v for k, v in scored.items() if k not in ("points", "totals")}
            rows.append(HistoryRow(number, entry, scored["points"], scored["totals"], details))
        else:
            rows.append(HistoryRow(number, entry, [None] * len(names), [None] * len(names), {}))
    # A tournament table ended at the time limit is over with its current totals.
    ended_early = match.status == Match.Status.FINISHED and not result["finished"] and broken is None
    if ended_early:
        result.update(finished=True, winners=match.winners, next_hand=None)
    finished = result["finished"] and broken is None
    if finished or broken:
        hints = {}
    return ScoreSheet(
        match=match,
        spec=state.spec,
        players=state.players,
        names=names,
        rows=rows,
        totals=result["totals"],
        finished=finished,
        winners=result["winners"],
        next_hand=result["next_hand"],
        hints=hints,
        pending=None if finished or broken else match.pending_bidding,
        problem=str(broken) if broken else None,
        ended_early=ended_early,
    )


def matches_for_home(limit: int = 20) -> dict[str, list[Match]]:
    """In-progress matches first, then recent finished ones, each with its
    seats and players in two more queries."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    base = Match.objects.prefetch_related(seats).order_by("-updated_at")
    return {
        "in_progress": list(base.filter(status=Match.Status.IN_PROGRESS)[:limit]),
        "finished": list(base.filter(status=Match.Status.FINISHED)[:limit]),
        "abandoned": list(base.filter(status=Match.Status.ABANDONED)[:5]),
    }


def all_players() -> list[Player]:
    return list(Player.objects.all())
