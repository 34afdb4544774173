"""The director's desk (one round's tables as its organisers watch them)
and the round clock: reads only, in a fixed number of queries. Re-exported
by ``selectors``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max
from django.utils import timezone

from ..models import Hand, Match, Round, Table

SLOW_MINUTES = 10  # no save for longer than this: the table is "slow"
FILTERS = ("all", "not_started", "slow", "needs_me")


# ------------------------------------------------------------------ clock


@dataclass(frozen=True)
class RoundClock:
    ends_at: datetime | None
    paused: bool
    remaining: int  # seconds left when drawn (0 once time is up)
    drawn_at: datetime  # the server's time the page was drawn at

    @property
    def up(self) -> bool:
        return not self.paused and self.remaining <= 0

    @property
    def shown(self) -> str:
        """ "12:05", "1:02:00": what the clock shows before the script counts."""
        minutes, seconds = divmod(self.remaining, 60)
        hours, minutes = divmod(minutes, 60)
        return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def round_clock(rnd: Round | None, now: datetime | None = None) -> RoundClock | None:
    """The clock of a round being played with a time limit, else None."""
    if rnd is None or rnd.status != Round.Status.PLAYING:
        return None
    now = now or timezone.now()
    if rnd.paused_remaining is not None:
        return RoundClock(rnd.ends_at, True, rnd.paused_remaining, now)
    if rnd.ends_at is None:
        return None
    return RoundClock(rnd.ends_at, False, max(0, int((rnd.ends_at - now).total_seconds())), now)


def clock_stamp(rnd: Round) -> str:
    """What a press on the clock is based on: it changes with every press."""
    ends = rnd.ends_at.isoformat() if rnd.ends_at else "-"
    paused = "-" if rnd.paused_remaining is None else str(rnd.paused_remaining)
    return f"{rnd.status}/{ends}/{paused}"


# ------------------------------------------------------------------- desk


@dataclass
class DeskTable:
    id: int
    number: int
    match_id: int
    names: list[str]
    totals: list
    hands_played: int
    updated_at: datetime
    minutes_since: int  # since the last save
    state: str  # "playing", "finished", "ended early", "abandoned"
    unconfirmed: int
    disputed: int
    accepted: bool

    @property
    def seats(self) -> list[tuple[str, object]]:
        """(name, total) in seat order; no total before the first hand."""
        totals = self.totals or [None] * len(self.names)
        return list(zip(self.names, totals, strict=False))

    @property
    def hand_on(self) -> int:
        return self.hands_played + 1

    @property
    def not_started(self) -> bool:
        return self.state == "playing" and self.hands_played == 0

    @property
    def awaiting_confirmation(self) -> bool:
        return self.state in ("finished", "ended early") and self.unconfirmed > 0 and not self.accepted


@dataclass
class Desk:
    round: Round
    tables: list[DeskTable]  # those the filter keeps
    counts: dict[str, int]  # tables per filter
    filter: str
    slow_minutes: int
    time_up: bool

    @property
    def total(self) -> int:
        return self.counts["all"]


def desk_stamp(round_id: int) -> str:
    """Changes whenever a table of the round is saved: one query."""
    row = Match.objects.filter(table__round_id=round_id).aggregate(last=Max("updated_at"), count=Count("id"))
    last = row["last"].isoformat() if row["last"] else "-"
    return f"{last}/{row['count']}"


def _is_slow(t: DeskTable, slow_minutes: int) -> bool:
    return t.state == "playing" and t.minutes_since >= slow_minutes


def _needs_me(t: DeskTable, time_up: bool) -> bool:
    """A dispute, a result waiting for confirmation, or a table still playing after the time limit."""
    return t.disputed > 0 or t.awaiting_confirmation or (time_up and t.state == "playing")


def desk(rnd: Round, *, filter: str = "all", now: datetime | None = None, slow_minutes: int = SLOW_MINUTES) -> Desk:
    """Every table of the round with what its organisers watch. 2 queries
    (tables with their matches, disputed hands) whatever the size."""
    now = now or timezone.now()
    rows = (
        Table.objects.filter(round=rnd)
        .select_related("match")
        .only(
            "id",
            "number",
            "ended_early_at",
            "match__id",
            "match__status",
            "match__player_names",
            "match__totals",
            "match__hands_played",
            "match__updated_at",
            "match__unconfirmed_hands",
            "match__accepted_at",
        )
        .order_by("number")
    )
    disputed = dict(
        Hand.objects.filter(match__table__round=rnd, confirmation=Hand.Confirmation.DISPUTED)
        .values_list("match_id")
        .annotate(n=Count("id"))
    )
    tables = []
    for row in rows:
        m = row.match
        if m.status == Match.Status.ABANDONED:
            state = "abandoned"
        elif m.status == Match.Status.FINISHED:
            state = "ended early" if row.ended_early_at else "finished"
        else:
            state = "playing"
        tables.append(
            DeskTable(
                id=row.pk,
                number=row.number,
                match_id=m.pk,
                names=list(m.player_names),
                totals=list(m.totals),
                hands_played=m.hands_played,
                updated_at=m.updated_at,
                minutes_since=max(0, int((now - m.updated_at).total_seconds() // 60)),
                state=state,
                unconfirmed=m.unconfirmed_hands,
                disputed=disputed.get(m.pk, 0),
                accepted=m.accepted_at is not None,
            )
        )
    clock = round_clock(rnd, now)
    time_up = bool(clock and clock.up)
    keep = {
        "all": lambda t: True,
        "not_started": lambda t: t.not_started,
        "slow": lambda t: _is_slow(t, slow_minutes),
        "needs_me": lambda t: _needs_me(t, time_up),
    }
    chosen = filter if filter in keep else "all"
    counts = {name: sum(1 for t in tables if test(t)) for name, test in keep.items()}
    return Desk(rnd, [t for t in tables if keep[chosen](t)], counts, chosen, slow_minutes, time_up)
