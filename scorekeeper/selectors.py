"""Every non-trivial read, with a fixed number of queries whatever the
size of the match or list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import Hand, Match, Player, Seat
from .scoring import GameSpec, InvalidHand, get_game, score_match, score_with_hints


@dataclass
class HistoryRow:
    number: int
    entry: dict
    points: list[int]
    totals: list[int]
    details: dict[str, Any]


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
    table: Any = None  # the tournament Table this match is played at, if any

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
    def current_details(self) -> dict[str, Any]:
        """The game's details after the last hand (e.g. Spades bags)."""
        return self.rows[-1].details if self.rows else {}

    @property
    def engine_input(self) -> dict:
        return self.match.engine_input(self.names, [row.entry for row in self.rows])


def score_sheet(match_id: int) -> ScoreSheet:
    """The whole sheet of one match: 3 queries (match with its tournament
    table, seats with players, hands)."""
    # The tournament table (if any) comes along in the same query.
    match = get_object_or_404(Match.objects.select_related("table__round__tournament"), pk=match_id)
    seats = list(Seat.objects.filter(match=match).select_related("player").order_by("position"))
    players = [seat.player for seat in seats]
    names = [p.name for p in players]
    hands = list(Hand.objects.filter(match=match).order_by("number").values_list("number", "entry"))
    entries = [entry for _n, entry in hands]
    broken = None
    hints: dict = {}
    try:
        result, hints = score_with_hints(match.engine_input(names, entries), match.pending_bidding)
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
    spec = get_game(match.game).spec
    rows = []
    for index, (number, entry) in enumerate(hands):
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
        spec=spec,
        players=players,
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
        table=getattr(match, "table", None),
    )


@dataclass
class EntryForm:
    """What parsing a submitted hand needs: the game's spec and the names."""

    spec: GameSpec
    names: list[str]


def entry_form(match_id: int) -> EntryForm:
    """One query (the match and its players), for the hot path of saving a
    hand: the full sheet is built once, for the answer, not for parsing."""
    seats = list(Seat.objects.filter(match_id=match_id).order_by("position").values_list("match__game", "player__name"))
    if not seats:
        raise Http404("No such match")
    return EntryForm(get_game(seats[0][0]).spec, [name for _game, name in seats])


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
